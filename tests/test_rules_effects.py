"""The rules issue 8 requires, each pinned by a case: costs paid per counter, the order of different
replacements (CR 616.1), each player rolling, repeats of repeats, the Nth die this turn, coins
(CR 705), the planar die's cost (CR 901.9), and shortcuts refusing an effect that declares nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

import pytest

from mtgdice.odds import odds
from mtgdice.rules import (
    PLANAR_DIE,
    Amount,
    Board,
    CoinFace,
    Die,
    ExtraDice,
    FlipInstruction,
    Footprint,
    PairEachCoin,
    PairEachDie,
    Permanent,
    ReflipPermission,
    ResultsTable,
    RollInstruction,
    Row,
    ScriptedChooser,
    ScriptedSource,
    Step,
    TurnState,
    flip,
    planar_action_cost,
    resolve,
)
from mtgdice.rules.effects import RollEvents, TriggeredAbility, TriggerHit
from mtgdice.sim import simulate
from mtgdice.text import compile_text

REPEATING = (
    "Roll a six-sided die.\n1 | Draw a card.\n2 | Draw a card.\n3 | Draw a card.\n4 | Draw a card.\n"
    "5 | Draw a card.\n6 | Repeat this process two more times."
)
THIRD_DIE = "Whenever you roll your third die each turn, if its result is 6, draw a card."
COUNTERS = (
    "Whenever you roll a die, you may remove a +1/+1 counter from this creature. "
    "If you do, increase or decrease the result by 1."
)


def same(a: Any, b: Any) -> bool:
    """Two Odds alike in every number (the path that found them aside)."""
    fields = ("rows", "no_row", "results", "doubles", "again", "expected_executions", "triggers")
    return all(getattr(a, name) == getattr(b, name) for name in fields)


def dice(outcome: dict[str, Any], roll: int = 0) -> list[tuple[Any, bool]]:
    return [(die["natural"], die["ignored"]) for die in outcome["rolls"][roll]["dice"]]


def cli(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mtgdice.cli", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


# -- acceptance measurements -------------------------------------------------------------------------


def test_repeat_two_more_times_counts_repeats_of_repeats(cards_path: str) -> None:
    result = cli("odds", "--json", "--cards", cards_path, stdin=json.dumps({"text": REPEATING}))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["expected_executions"] == "3/2"  # E = 1 + (1/6)(2E)
    instruction = compile_text(REPEATING).rolls[0]
    sim = simulate(instruction, rolls=200_000, seed=8)
    # Executions per resolution: mean 3/2, variance from E[N^2] = (1 + 4 E[N] + ...) — bounded by 5 SE
    # of a sample with the empirical spread, which the simulation itself reports through its count.
    assert abs(sim.expected_executions - 1.5) < 5 * (1.5 / 200_000) ** 0.5 * 2
    again = resolve(instruction, source="~", dice=ScriptedSource([6, 6, 1, 1, 1]))
    assert len(again.executions) == 5


def test_third_die_each_turn_with_an_intervening_its_result(cards_path: str) -> None:
    request = {"text": "Roll three six-sided dice.", "battlefield": [{"text": THIRD_DIE, "name": "Third"}]}
    result = cli("odds", "--json", "--cards", cards_path, stdin=json.dumps(request))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["triggers"] == {"Third": "1/6"}
    trigger = compile_text(THIRD_DIE, name="Third").effects[0]
    assert trigger.condition is not None and trigger.nth_this_turn == 3  # type: ignore[attr-defined]


# -- costs, orders, players ------------------------------------------------------------------------


def test_a_counter_cost_is_paid_once_per_counter(run: Any) -> None:
    one = {"text": COUNTERS, "name": "Counter Holder", "counters": {"+1/+1": 1}}
    outcome = run({"text": "Roll two d20.", "battlefield": [one], "dice": [5, 7], "choices": [True, 0, True, 0]})
    assert [(d["natural"], d["result"]) for d in outcome["rolls"][0]["dice"]] == [(5, 6), (7, 7)]
    assert [d["topic"] for d in outcome["decisions"]] == ["modify", "direction"]  # the second die is not offered
    two = {**one, "counters": {"+1/+1": 2}}
    both = run({"text": "Roll two d20.", "battlefield": [two], "dice": [5, 7], "choices": [True, 0, True, 1]})
    assert [d["result"] for d in both["rolls"][0]["dice"]] == [6, 6]


def test_different_replacements_are_ordered_by_the_roller(run: Any) -> None:
    # CR 616.1: advantage first (two dice, each then paired: four dice), or the pair first (a pair and
    # one extra die: three dice). Identical replacements never ask.
    guide_first = run(
        {"card": "Hoarding Ogre", "battlefield": ["Pixie Guide", "Krark's Other Thumb"], "dice": [5, 7, 9, 11]}
    )
    assert guide_first["decisions"][0]["topic"] == "order" and len(guide_first["rolls"][0]["dice"]) == 4
    thumb_first = run(
        {
            "card": "Hoarding Ogre",
            "battlefield": ["Pixie Guide", "Krark's Other Thumb"],
            "dice": [5, 7, 9],
            "choices": [1],
        }
    )
    assert dice(thumb_first) == [(5, True), (7, True), (9, False)]
    identical = run({"card": "Hoarding Ogre", "battlefield": ["Pixie Guide", "Pixie Guide"], "dice": [5, 7, 9]})
    assert all(d["topic"] != "order" for d in identical["decisions"])


def test_each_player_rolls_and_ties_are_rerolled(run: Any) -> None:
    outcome = run({"card": "Ricochet", "dice": [3, 3, 5, 2]})
    first = outcome["rolls"][0]
    assert [d.get("roller", "you") for d in first["dice"]] == ["you", "opponent", "you", "opponent"]
    assert [d.get("rerolled", False) for d in first["dice"]] == [True, True, False, False]
    assert first["results"] == [5, 2] and first["standing"] == ["opponent"]
    three = run({"card": "Ricochet", "players": 3, "dice": [4, 6, 1]})
    assert three["rolls"][0]["standing"] == ["opponent 2"]


def test_an_outcome_on_which_players_had_the_highest_result(run: Any) -> None:
    text = "Each player rolls a d20. If one or more opponents had the highest result, you lose 2 life."
    card = compile_text(text)
    assert card.unsupported == () and card.rolls[0].compare is not None
    lose = run({"text": text, "dice": [4, 17]})
    assert lose["rolls"][0]["standing"] == ["opponent"] and lose["rolls"][0]["outcomes"] == [0]
    win = run({"text": text, "dice": [19, 17]})
    assert "outcomes" not in win["rolls"][0]


# -- coins (CR 705) ----------------------------------------------------------------------------------


def test_a_called_flip_is_won_when_the_coin_shows_the_call() -> None:
    won = flip(FlipInstruction(call=True), source=ScriptedSource([1]), call=CoinFace.HEADS)
    assert won.results == (CoinFace.HEADS,) and won.won == (True,)
    # Without a call given, the flipper is asked to call (CR 705.1): 1 = tails, then the coin shows heads.
    asked = flip(FlipInstruction(call=True), source=ScriptedSource([1]), chooser=ScriptedChooser([1]))
    assert asked.call is CoinFace.TAILS and asked.won == (False,)
    assert [decision.topic.value for decision, _ in asked.decisions] == ["call"]
    plain = flip(FlipInstruction(Amount(3)), source=ScriptedSource([1, 2, 2]))
    assert plain.results == (CoinFace.HEADS, CoinFace.TAILS, CoinFace.TAILS) and plain.won is None


def test_partner_coins_are_n_plus_one_and_the_flipper_keeps_the_winner() -> None:
    thumbs = Board.from_zones(battlefield=(Permanent("Thumbs", (PairEachCoin(), PairEachCoin())),))
    chooser = ScriptedChooser([2])  # three coins: one decision, the coin that counts
    kept = flip(FlipInstruction(), source=ScriptedSource([2, 2, 1]), board=thumbs, chooser=chooser)
    assert len(kept.coins) == 3 and kept.results == (CoinFace.HEADS,) and len(kept.decisions) == 1
    from mtgdice.rules import PolicyChooser

    best = flip(
        FlipInstruction(call=True),
        source=ScriptedSource([1, 2, 2]),
        board=thumbs,
        chooser=PolicyChooser("maximize"),
        call=CoinFace.HEADS,
    )
    assert best.won == (True,)


def test_a_reflip_is_a_new_flip_that_partner_coins_meet_again() -> None:
    board = Board.from_zones(
        battlefield=(Permanent("Bookie", (ReflipPermission(),)), Permanent("Thumb", (PairEachCoin(),)))
    )
    result = flip(
        FlipInstruction(), source=ScriptedSource([2, 2, 1, 2]), board=board, chooser=ScriptedChooser([0, True, 1])
    )
    assert [coin.fate.value for coin in result.coins] == ["ignored", "rerolled", "counted", "ignored"]
    assert result.results == (CoinFace.HEADS,) and result.coins[2].reflips == 1


def test_the_compiler_keeps_both_halves_of_reflip_or_reroll(catalog: Any) -> None:
    from mtgdice.game.request import compile_record

    effects = compile_record(catalog.lookup("Goblin Bookie")).effects
    assert sorted(effect.kind for effect in effects) == ["reflip", "reroll"]
    thumb = compile_text("If you would flip a coin, instead flip two coins and ignore one.")
    assert [effect.kind for effect in thumb.effects] == ["pair each coin"] and thumb.unsupported == ()


def test_a_coin_is_not_a_die(run: Any) -> None:
    outcome = run({"kind": "coin", "battlefield": ["Pixie Guide", "Krark's Other Thumb"], "coins": ["tails"]})
    assert outcome["flip"]["results"] == ["tails"] and len(outcome["flip"]["coins"]) == 1


# -- the planar die as a special action (CR 901.9) ---------------------------------------------------


def test_the_planar_special_action_costs_one_more_each_time() -> None:
    roll = RollInstruction(Amount(1), PLANAR_DIE)
    turn = TurnState()
    costs = []
    for _ in range(3):
        resolution = resolve(roll, source="~", dice=ScriptedSource(planar=["blank"]), turn=turn, action=True)
        costs.append(resolution.planar_cost)
        turn = resolution.turn
    assert costs == [0, 1, 2] and planar_action_cost(turn) == 3
    effect = resolve(roll, source="~", dice=ScriptedSource(planar=["blank"]), turn=turn)
    assert effect.planar_cost is None and effect.turn.planar_actions == 3  # an effect's roll is free
    with pytest.raises(ValueError, match="planar"):
        resolve(RollInstruction(Amount(1), Die(6)), source="~", dice=ScriptedSource([1]), action=True)


# -- default-deny: an effect that declares nothing takes the exact path ---------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class EveryOtherDie(TriggeredAbility):
    """A made-up ability that triggers on the second counted die of each execution: it reads a die's
    position, but its class does not say so (no footprint)."""

    step: ClassVar[Step] = Step.TRIGGER
    kind: ClassVar[str] = "made up"

    def hits(self, events: RollEvents, holder: Any) -> list[TriggerHit]:
        return [
            TriggerHit(holder.name, holder.zone, None, die.index, events.execution)  # type: ignore[arg-type]
            for position, die in enumerate(events.dice)
            if position == 1
        ]


def test_an_undeclared_footprint_sends_odds_and_simulation_the_exact_way() -> None:
    assert EveryOtherDie().footprint() == Footprint.UNDECLARED
    board = Board.from_zones(battlefield=(Permanent("Odd", (EveryOtherDie(),)), Permanent("Guide", (ExtraDice(),))))
    instruction = RollInstruction(Amount(2), Die(4), table=ResultsTable((Row(1, 4), Row(5, 8))))
    exact = odds(instruction, board=board)
    brute = odds(instruction, board=board, method="brute")
    assert exact.method == "brute force" and same(exact, brute)
    assert dict(exact.triggers) == {"Odd": Fraction(1)}
    sim = simulate(instruction, board=board, rolls=2000, seed=1)
    assert sim.method == "resolve loop" and sim.triggers == {"Odd": 2000}


def test_a_declared_pair_is_not_taken_for_an_undeclared_one() -> None:
    board = Board.from_zones(battlefield=(Permanent("Thumb", (PairEachDie(),)),))
    instruction = RollInstruction(Amount(2), Die(6))
    assert odds(instruction, board=board).method == "composed"
    assert same(odds(instruction, board=board), odds(instruction, board=board, method="brute"))


def test_dice_of_two_kinds_are_one_roll() -> None:
    from mtgdice.rules import DiceGroup

    both = RollInstruction(
        Amount(1), Die(20), table=ResultsTable((Row(2, 13), Row(14, 26))), also=(DiceGroup(Amount(1), Die(6)),)
    )
    board = Board.from_zones(
        battlefield=(Permanent("Batch", (compile_text("Whenever you roll one or more dice, scry 1.").effects[0],)),)
    )
    resolution = resolve(both, source="~", dice=ScriptedSource([14, 3]), board=board)
    execution = resolution.executions[0]
    assert [die.die.sides for die in execution.dice] == [20, 6] and execution.total == 17 and execution.row == 1
    assert len(resolution.triggers) == 1  # one roll: one "one or more dice" trigger
    exact = odds(both)
    assert exact.method == "brute force" and dict(exact.results)[26] == Fraction(1, 120)
    assert simulate(both, rolls=100).method == "resolve loop"


def test_the_nth_die_counts_across_repeats_and_earlier_rolls() -> None:
    from mtgdice.rules import TurnState

    repeat = compile_text("Roll a six-sided die. If you roll a 6, repeat this process.").rolls[0]
    second = compile_text("Whenever you roll your second die each turn, draw a card.", name="Second").effects
    board = Board.from_zones(battlefield=(Permanent("Second", second),))
    assert dict(odds(repeat, board=board).triggers) == {"Second": Fraction(1, 6)}  # only when the first is a 6
    assert dict(odds(repeat, board=board, turn=TurnState(dice_rolled=1)).triggers) == {"Second": Fraction(1)}
    sim = simulate(repeat, board=board, rolls=60_000, seed=2)
    assert abs(sim.triggers["Second"] / 60_000 - 1 / 6) < 5 * (1 / 6 * 5 / 6 / 60_000) ** 0.5


def test_otherwise_holds_when_no_condition_before_it_did(run: Any) -> None:
    text = "Roll a d6. If you roll a 5 or higher, draw a card. Otherwise, you lose 1 life."
    assert run({"text": text, "dice": [2]})["rolls"][0]["outcomes"] == [1]
    assert run({"text": text, "dice": [6]})["rolls"][0]["outcomes"] == [0]
