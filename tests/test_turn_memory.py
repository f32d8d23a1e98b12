"""What abilities write into the turn and onto permanents (json-interface.md v3 ``turn``, ``noted``):
totals rolled this turn for an ability, a noted total, coin flips won and lost by seat — in the rules,
through the JSON ``resolve`` (the request's ``turn`` comes back updated) and kept by a game across
rolls until the next turn.

The cards are in Oracle style: a "sacrifice it if the total matches another this turn" ability (as on
an Unglued-era creature) and Spark Fiend's noted total (its real text is in tests/fixtures). Rulings
read: CR 706.6 (an ignored roll never happened: it is in no total), CR 706.2 (a total is of results),
CR 705.1-705.2 (only a called flip is won or lost), the v3 spec (an ignored coin never counts).
"""

from __future__ import annotations

from typing import Any

import pytest

from mtgdice.game import Game, Roll, RollSpec
from mtgdice.game.snapshot import GameState, state_from_json, state_json
from mtgdice.io.jsonio import resolve_table_json
from mtgdice.rules import ScriptedSource, resolve
from mtgdice.rules.board import Board, Permanent, PlayerZones
from mtgdice.rules.instruction import Reads
from mtgdice.rules.memory import Recall, with_flips, with_totals
from mtgdice.rules.players import Seat
from mtgdice.rules.resolution import TurnState
from mtgdice.text import compile_text

GROWER = (
    "{1}{G}: Roll two six-sided dice. If both results are the same, this creature gets +X/+X until end of turn, "
    "where X is that result. If the total of those results is equal to any other total you have rolled this "
    "turn for this ability, sacrifice it."
)
FIEND = (
    "When this creature enters, roll two six-sided dice. If you rolled 2, 3, or 12, sacrifice it. If you rolled "
    "7 or 11, don't roll dice for it during any of your following upkeeps. If you rolled any other total, note "
    "that total.\nAt the beginning of your upkeep, roll two six-sided dice. If you rolled 7, sacrifice it. If you "
    "roll the noted total, don't roll dice for it during any of your following upkeeps. Otherwise, do nothing."
)
GUIDE = "If you would roll one or more dice, instead roll that many dice plus one and ignore the lowest roll."
COINER = "{T}: Flip a coin. If you win the flip, draw a card. If you lose the flip, you lose 1 life."
HEADS_ONLY = "{T}: Flip a coin. If the coin comes up heads, draw a card."
THUMB = "If you would flip a coin, instead flip two coins and ignore one."


def _remembered_index(card: Any) -> int:
    return next(i for i, o in enumerate(card.rolls[0].outcomes) if o.reads is Reads.REMEMBERED)


# -- the rules -------------------------------------------------------------------------------------


def test_the_compiler_reads_what_an_ability_remembers() -> None:
    grower = compile_text(GROWER, name="Grower")
    assert grower.unsupported == () and grower.rolls[0].remembers
    fiend = compile_text(FIEND, name="Spark Fiend")
    assert fiend.unsupported == ()
    assert [o.reads for o in fiend.rolls[0].outcomes] == [Reads.TOTAL, Reads.TOTAL, Reads.NOTE]
    assert fiend.rolls[0].notes and not fiend.rolls[1].notes
    assert Reads.NOTED in [o.reads for o in fiend.rolls[1].outcomes]


def test_a_total_is_compared_with_the_other_totals_of_the_turn_and_then_remembered() -> None:
    roll = compile_text(GROWER, name="Grower").rolls[0]
    sacrifice = _remembered_index(compile_text(GROWER, name="Grower"))
    first = resolve(roll, source="Grower", dice=ScriptedSource([3, 4]))
    assert sacrifice not in first.executions[0].outcomes  # no other total yet: 7 is not "another"
    assert first.turn.totals == (("Grower", (7,)),)
    second = resolve(roll, source="Grower", dice=ScriptedSource([2, 5]), turn=first.turn)
    assert sacrifice in second.executions[0].outcomes  # 7 again this turn
    assert second.turn.totals == (("Grower", (7,)),)  # a total is kept once
    third = resolve(roll, source="Grower", dice=ScriptedSource([6, 6]), turn=second.turn)
    assert sacrifice not in third.executions[0].outcomes
    assert third.turn.totals == (("Grower", (7, 12)),)


def test_an_ignored_die_is_in_no_remembered_total() -> None:
    # CR 706.6: the ignored roll never happened; the total is of the counted dice.
    roll = compile_text(GROWER, name="Grower").rolls[0]
    guide = Permanent("Guide", compile_text(GUIDE).effects)
    board = Board((PlayerZones((guide,)), PlayerZones()))
    resolution = resolve(roll, source="Grower", dice=ScriptedSource([1, 3, 4]), board=board)
    assert resolution.executions[0].total == 7
    assert resolution.turn.totals == (("Grower", (7,)),)


def test_each_permanent_of_a_name_remembers_its_own_totals() -> None:
    roll = compile_text(GROWER, name="Grower").rolls[0]
    effects = compile_text(GROWER, name="Grower").effects
    board = Board((PlayerZones(), PlayerZones((Permanent("Grower", effects), Permanent("Grower", effects)))))
    # Seat 1 controls two Growers; its source is the first one on its battlefield: NAME (= NAME#0).
    turn = TurnState(totals=(("Grower#1", (7,)),))
    resolution = resolve(roll, source="Grower", dice=ScriptedSource([3, 4]), board=board, turn=turn, controller=Seat(1))
    assert _remembered_index(compile_text(GROWER, name="Grower")) not in resolution.executions[0].outcomes
    assert resolution.turn.totals == (("Grower#1", (7,)), ("Grower", (7,)))


def test_a_total_is_noted_when_no_other_outcome_held_and_read_later() -> None:
    fiend = compile_text(FIEND, name="Spark Fiend")
    enters = resolve(fiend.rolls[0], source="Spark Fiend", dice=ScriptedSource([4, 4]))
    assert enters.noted == (("Spark Fiend", 8),)
    sacrificed = resolve(fiend.rolls[0], source="Spark Fiend", dice=ScriptedSource([1, 2]))
    assert sacrificed.noted == ()  # 3: the sacrifice held, nothing is noted
    noted_index = [o.reads for o in fiend.rolls[1].outcomes].index(Reads.NOTED)
    board = Board((PlayerZones((Permanent("Spark Fiend", fiend.effects, noted=8),)),))
    upkeep = resolve(fiend.rolls[1], source="Spark Fiend", dice=ScriptedSource([5, 3]), board=board)
    assert noted_index in upkeep.executions[0].outcomes
    missed = resolve(fiend.rolls[1], source="Spark Fiend", dice=ScriptedSource([4, 5]), board=board)
    assert noted_index not in missed.executions[0].outcomes
    assert len(fiend.rolls[1].outcomes) - 1 in missed.executions[0].outcomes  # otherwise, do nothing


def test_memory_helpers() -> None:
    assert with_totals((("A", (3,)),), "A#0", (3, 4)) == (("A", (3, 4)),)
    assert with_flips((), [(Seat(1), True), (Seat(1), None)], 3) == ((0, 0), (1, 0), (0, 0))
    assert not Recall(()).holds(False, [])  # no dice: no total


# -- the JSON resolve: the request's turn comes back updated ---------------------------------------


def test_json_resolve_returns_the_turn_with_the_abilitys_totals() -> None:
    base = {"text": GROWER, "name": "Grower", "seats": [{"battlefield": []}, {}]}
    first = resolve_table_json({**base, "dice": [3, 4]}, None)
    assert first["turn"]["totals"] == {"Grower": [7]}
    again = resolve_table_json({**base, "dice": [1, 6], "turn": first["turn"]}, None)
    sacrifice = _remembered_index(compile_text(GROWER, name="Grower"))
    assert sacrifice in again["rolls"][0]["outcomes"]
    later = resolve_table_json({**base, "dice": [1, 1], "turn": again["turn"]}, None)
    assert later["turn"]["totals"] == {"Grower": [7, 2]}


def test_json_resolve_notes_a_total_on_the_permanent() -> None:
    out = resolve_table_json({"text": FIEND, "name": "Spark Fiend", "dice": [4, 2]}, None)
    assert out["noted"] == {"Spark Fiend": 6}  # "you rolled" two dice: the total 6, not a die of 2
    out = resolve_table_json({"text": FIEND, "name": "Spark Fiend", "dice": [1, 2]}, None)
    assert out["noted"] == {}  # a total of 3: the first outcome held
    out = resolve_table_json({"text": FIEND, "name": "Spark Fiend", "dice": [1, 5]}, None)
    assert out["noted"] == {"Spark Fiend": 6}
    upkeep = {
        "text": FIEND,
        "name": "Spark Fiend",
        "roll": 1,
        "seats": [{"battlefield": [{"text": FIEND, "name": "Spark Fiend", "noted": 6}]}],
        "dice": [5, 1],
    }
    noted_index = [o.reads for o in compile_text(FIEND).rolls[1].outcomes].index(Reads.NOTED)
    assert noted_index in resolve_table_json(upkeep, None)["rolls"][0]["outcomes"]


@pytest.mark.parametrize(
    ("coins", "choices", "won", "lost"),
    [(["heads"], [0], 1, 0), (["heads"], [1], 0, 1), (["tails"], [1], 1, 0)],
)
def test_json_resolve_counts_flips_won_and_lost(coins: list[str], choices: list[int], won: int, lost: int) -> None:
    out = resolve_table_json({"text": COINER, "name": "Coiner", "coins": coins, "choices": choices}, None)
    assert out["turn"]["flips"] == [{"won": won, "lost": lost}, {"won": 0, "lost": 0}]
    again = resolve_table_json(
        {"text": COINER, "name": "Coiner", "coins": coins, "choices": choices, "turn": out["turn"]}, None
    )
    assert again["turn"]["flips"][0] == {"won": 2 * won, "lost": 2 * lost}


def test_an_uncalled_flip_is_neither_won_nor_lost() -> None:
    # CR 705.2: a flip for an object that cares only about heads or tails has no winner or loser.
    out = resolve_table_json({"text": HEADS_ONLY, "name": "Heads", "coins": ["heads"]}, None)
    assert out["turn"]["flips"] == []


def test_an_ignored_coin_is_not_counted_and_the_flippers_seat_counts() -> None:
    # Seat 1 flips with its own Thumb: two coins, one ignored; only the kept one is won or lost.
    request = {
        "text": COINER,
        "name": "Coiner",
        "controller": 1,
        "seats": [{}, {"battlefield": [{"text": THUMB, "name": "Thumb"}]}],
        "coins": ["heads", "tails"],
        "choices": [0, 1],  # call heads; ignore the second coin (tails)
    }
    out = resolve_table_json(request, None)
    assert len(out["rolls"][0]["dice"]) == 2  # the seat's own Thumb applied to its flip
    assert out["turn"]["flips"] == [{"won": 0, "lost": 0}, {"won": 1, "lost": 0}]


# -- a game keeps the memory across rolls until the next turn --------------------------------------


def _finish(game: Game, player: str, spec: RollSpec, faces: list[int], answers: tuple[object, ...] = ()) -> Roll:
    roll = game.resolve_roll(player, spec, ScriptedSource(faces), answers, None, finish=True)
    assert isinstance(roll, Roll)
    game.record(roll)
    return roll


def test_a_game_keeps_the_turns_totals_flips_and_noted_values() -> None:
    game = Game()
    alice, bob = game.add_player("Alice").id, game.add_player("Bob").id
    grower = game.add_card(bob, "Grower", text=GROWER)
    fiend = game.add_card(alice, "Spark Fiend", text=FIEND)
    coiner = game.add_card(alice, "Coiner", text=COINER)
    sacrifice = _remembered_index(compile_text(GROWER, name="Grower"))

    _finish(game, bob, RollSpec("card", card_id=grower.id), [3, 4])
    second = _finish(game, bob, RollSpec("card", card_id=grower.id), [5, 2])
    assert second.resolution is not None and sacrifice in second.resolution.executions[0].outcomes
    assert second.request.turn.totals == (("Grower", (7,)),)  # the logged request carries the memory
    _finish(game, alice, RollSpec("card", card_id=coiner.id), [1], (0,))  # called heads, heads: won
    _finish(game, alice, RollSpec("card", card_id=fiend.id), [4, 5])  # 9: noted

    kept = state_from_json(state_json(GameState.of(game))).game()  # the room's stored state keeps it
    for table in (game, kept):
        request = table.request_for(alice, RollSpec("card", card_id=fiend.id, roll=1))
        assert request.turn.flips == ((1, 0), (0, 0))
        assert request.turn.totals == (("Grower", (7,)),)
        assert [item.noted for item in request.seats[0].battlefield] == [9, None]

    game.next_turn()
    request = game.request_for(bob, RollSpec("card", card_id=grower.id))
    assert request.turn.totals == () and request.turn.flips == ()  # the turn's memory is gone
    assert request.seats[0].battlefield[0].noted == 9  # a noted value outlasts the turn
    third = _finish(game, bob, RollSpec("card", card_id=grower.id), [5, 2])
    assert third.resolution is not None and sacrifice not in third.resolution.executions[0].outcomes
