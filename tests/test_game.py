"""The game layer: boards become resolve requests, open decisions re-resolve with the same faces,
stored results and once-each-turn keys follow the rolls, and the planar die's cost rises per turn."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from mtgdice.errors import InputError
from mtgdice.fair.commit import CommitRevealSource
from mtgdice.game import Game, Pending, Roll, RollSpec, dice_text
from mtgdice.io.jsonio import execution_json, request_json, resolve_json
from mtgdice.rules import Fate

SEED = b"game-test-seed-0123456789abcdef!"


def source(nonce: int) -> CommitRevealSource:
    return CommitRevealSource(SEED, ("alice-seed",), nonce)


def finish(game: Game, player: str, spec: RollSpec, nonce: int, catalog: Any, answers: list[object]) -> Roll:
    outcome = game.resolve_roll(player, spec, source(nonce), answers, catalog)
    assert isinstance(outcome, Roll), outcome
    return outcome


@pytest.fixture
def table(catalog: Any) -> tuple[Game, str, str]:
    game = Game(catalog)
    return game, game.add_player("Alice").id, game.add_player("Bob").id


def test_request_seats_every_player_with_the_roller_controlling(table: tuple[Game, str, str], catalog: Any) -> None:
    game, alice, bob = table
    guide = game.add_card(alice, "Pixie Guide")
    game.add_card(alice, "Critical Hit", zone="graveyard")
    game.add_card(bob, "Clam-I-Am")
    game.add_card(bob, "Critical Hit", zone="graveyard")
    game.set_plane("Example Plane", text="Whenever you roll a die, scry 1.")
    spellbook = game.add_card(alice, "Wizard's Spellbook")
    request = game.request_for(alice, RollSpec("card", card_id=spellbook.id))
    assert request.card is not None and request.card.name == "Wizard's Spellbook" and request.roll == 0
    assert request.seated and request.controller == 0 and request.players == 2
    mine, theirs = request.seats
    assert [item.name for item in mine.battlefield] == ["Pixie Guide", "Wizard's Spellbook"]
    assert [item.name for item in theirs.battlefield] == ["Clam-I-Am"]
    assert [item.name for item in mine.graveyard] == ["Critical Hit"]
    assert [item.name for item in theirs.graveyard] == ["Critical Hit"]  # every player's graveyard
    assert mine.command[0].name == "Example Plane"  # the active player's command zone (CR 901.3)
    bobs = game.request_for(bob, RollSpec.plain("d20"))
    assert bobs.controller == 1 and bobs.seats == request.seats
    assert guide.id != spellbook.id


def test_a_roll_resolves_through_the_json_interface(table: tuple[Game, str, str], catalog: Any) -> None:
    game, alice, _ = table
    game.add_card(alice, "Pixie Guide")
    spellbook = game.add_card(alice, "Wizard's Spellbook")
    roll = finish(game, alice, RollSpec("card", card_id=spellbook.id), 0, catalog, [])
    assert roll.resolution is not None
    dice = roll.resolution.executions[0].dice
    assert len(dice) == 2 and sum(die.fate is Fate.IGNORED for die in dice) == 1  # plus one, ignore the lowest
    assert roll.row_texts and "|" in roll.row_texts[0][0]
    # The logged request replays to the same outcome with the faces drawn.
    replayed = resolve_json({**request_json(roll.request), "dice": [die.natural for die in dice]}, catalog)
    assert replayed["rolls"] == [execution_json(execution) for execution in roll.resolution.executions]


def test_open_decision_comes_back_and_the_answer_keeps_the_faces(table: tuple[Game, str, str], catalog: Any) -> None:
    game, alice, _ = table
    game.add_card(alice, "Krark's Other Thumb")
    spellbook = game.add_card(alice, "Wizard's Spellbook")
    spec = RollSpec("card", card_id=spellbook.id)
    first = game.resolve_roll(alice, spec, source(7), (), catalog)
    assert isinstance(first, Pending)
    assert first.question.player == alice and first.question.ask == "pick one" and len(first.question.options) == 2
    faces = [option.split(" ")[0] for option in first.question.options]
    for answer in (0, 1):
        done = finish(game, alice, spec, 7, catalog, [answer])
        assert done.resolution is not None
        dice = done.resolution.executions[0].dice
        assert [str(die.natural) for die in dice[:2]] == faces  # same nonce, same faces
        assert dice[answer].fate is Fate.IGNORED and dice[1 - answer].counted
        assert done.request.choices == (answer,)
    assert game.history == []  # resolving changes nothing


def test_decisions_of_an_effect_go_to_its_controller(table: tuple[Game, str, str], catalog: Any) -> None:
    game, alice, bob = table
    game.add_card(bob, "Pippa, Duchess of Dice")
    outcome = game.resolve_roll(alice, RollSpec.plain("d6"), source(0), (), catalog)
    assert isinstance(outcome, Pending) and outcome.question.topic == "reroll"
    assert outcome.question.player == bob  # Pippa's controller decides whether to use it (DESIGN.md §3.15)
    game.add_card(alice, "Pippa, Duchess of Dice")
    mine = game.resolve_roll(alice, RollSpec.plain("d6"), source(0), (), catalog)
    assert isinstance(mine, Pending) and mine.question.player == alice  # both have one: the roller is asked


def test_stored_results_follow_the_roll(table: tuple[Game, str, str], catalog: Any) -> None:
    game, alice, _ = table
    centaur = game.add_card(alice, "Centaur of Attention")
    stored = finish(game, alice, RollSpec("card", card_id=centaur.id), 0, catalog, [])
    game.record(stored)
    values = game.find_card(alice, centaur.id)[1].stored
    assert values is not None and len(values) == 5
    reroll = RollSpec("card", card_id=centaur.id, roll=1)
    pending = game.resolve_roll(alice, reroll, source(1), (), catalog)
    assert isinstance(pending, Pending) and pending.question.ask == "pick any number"
    done = finish(game, alice, reroll, 1, catalog, [[0, 4]])
    game.record(done)
    after = game.find_card(alice, centaur.id)[1].stored
    assert after is not None and after[1:4] == values[1:4]


def test_once_each_turn_keys_last_until_the_next_turn(table: tuple[Game, str, str], catalog: Any) -> None:
    game, alice, _ = table
    game.add_card(alice, "Night Shift of the Living Dead")
    nonce = 0
    while True:  # find a roll that asks about the optional modifier
        outcome = game.resolve_roll(alice, RollSpec.plain("d6"), source(nonce), (), catalog)
        if isinstance(outcome, Pending) and outcome.question.topic == "modify":
            break
        nonce += 1
    done = finish(game, alice, RollSpec.plain("d6"), nonce, catalog, [True, 0])
    game.record(done)
    assert game.used and done.resolution is not None and done.resolution.executions[0].dice[0].modifiers
    for later in range(nonce + 1, nonce + 8):  # used this turn: never asked again
        again = game.resolve_roll(alice, RollSpec.plain("d6"), source(later), (), catalog)
        assert isinstance(again, Roll)
    game.next_turn()
    assert game.used == set()


def test_planar_die_cost_rises_per_special_action_and_resets(table: tuple[Game, str, str], catalog: Any) -> None:
    game, alice, bob = table
    costs = []
    for nonce in range(3):
        roll = finish(game, alice, RollSpec("planar"), nonce, catalog, [])
        costs.append(roll.planar_cost)
        game.record(roll)
    assert costs == [0, 1, 2]  # CR 901.9b: the Nth roll in a turn costs N-1
    effect = finish(game, alice, RollSpec("planar", cause="effect"), 3, catalog, [])
    game.record(effect)
    assert effect.planar_cost is None and game.planar_cost() == 3  # rolls caused by effects don't count
    with pytest.raises(InputError, match="active player"):
        game.resolve_roll(bob, RollSpec("planar"), source(4), (), catalog)
    game.next_turn()
    assert game.active == bob and game.planar_cost() == 0 and game.turn == 2
    assert finish(game, bob, RollSpec("planar"), 5, catalog, []).planar_cost == 0


def test_coin_and_plain_dice(table: tuple[Game, str, str], catalog: Any) -> None:
    game, alice, _ = table
    game.add_card(alice, "Pixie Guide")
    coin = finish(game, alice, RollSpec("coin"), 0, catalog, [])
    assert coin.flip is not None and len(coin.flip.coins) == 1 and len(coin.flip.results) == 1  # no die effect
    two = finish(game, alice, RollSpec.plain("2d10"), 1, catalog, [])
    assert two.resolution is not None
    assert len(two.resolution.executions[0].dice) == 3 and len(two.resolution.executions[0].results) == 2
    assert dice_text("d6+2") == "Roll a d6 and add 2 to the result."
    for bad in ("2q10", "d0", "30d6", "2d6+1", ""):
        with pytest.raises(InputError):
            dice_text(bad)


def test_names_and_limits(table: tuple[Game, str, str]) -> None:
    game, alice, _ = table
    with pytest.raises(InputError, match="name"):
        game.add_player("   ")
    assert game.add_player("  Carol \n  Smith ").name == "Carol Smith"
    with pytest.raises(InputError, match="card_id"):
        game.find_card(alice, 999)


def test_an_odds_panel_stops_at_its_request_deadline(table: tuple[Game, str, str], catalog: Any) -> None:
    from mtgdice.game.odds import row_odds
    from mtgdice.rules.budget import Budget, Meter

    game, alice, _ = table
    spellbook = game.add_card(alice, "Wizard's Spellbook")
    game.add_card(alice, "Pixie Guide")
    spec = RollSpec("card", card_id=spellbook.id, roll=0)
    answered = row_odds(game, alice, spec, catalog, Meter())
    assert [row.label for row in answered.rows] == ["1—9", "10—19", "20"]
    assert answered.rows[2].probability == Fraction(39, 400)
    late = row_odds(game, alice, spec, catalog, Meter(Budget(seconds=-1.0)))
    assert late.rows == () and "budget" in late.note
