"""The work budget holds on every path: resolve, the odds engine's fast paths and enumeration, the
simulation; copies of one replacement cost options in proportion to the dice, not their square."""

from __future__ import annotations

import pytest

from mtgdice.odds import odds
from mtgdice.rules import (
    Amount,
    Board,
    Die,
    PairEachDie,
    Permanent,
    RollInstruction,
    ScriptedChooser,
    SecureSource,
    SeededSource,
    resolve,
)
from mtgdice.rules.budget import WEB_BUDGET, Budget, Meter
from mtgdice.rules.errors import RollLimitError
from mtgdice.sim import simulate
from mtgdice.text import compile_text


def roll(text: str) -> RollInstruction:
    return compile_text(text).rolls[0]


@pytest.mark.parametrize(
    "text",
    ["Roll a d1000000000.", "Roll 3000 d6.", "Roll 50 d1000000."],
)
def test_odds_refuse_what_would_not_fit(text: str) -> None:
    with pytest.raises(RollLimitError, match="budget"):
        odds(roll(text))


def test_a_large_die_is_answered_exactly() -> None:
    exact = odds(roll("Roll a d40001."))
    assert len(exact.results) == 40001 and sum(p for _, p in exact.results) == 1


def test_a_repeat_that_rolls_forever_stops_at_the_dice_budget() -> None:
    endless = roll("Roll 10000 d6. If you roll a 6, repeat this process.")
    with pytest.raises(RollLimitError, match="dice drawn in one resolution"):
        resolve(endless, source="~", dice=SecureSource(), meter=Meter(WEB_BUDGET))


def test_simulation_refuses_more_draws_than_its_budget() -> None:
    with pytest.raises(RollLimitError, match="dice drawn by this request"):
        simulate(RollInstruction(Amount(10000), Die(6)), rolls=100_000_000)
    with pytest.raises(RollLimitError, match="rolls"):
        simulate(RollInstruction(Amount(1), Die(6)), rolls=2_000_000, meter=Meter(WEB_BUDGET))


def test_simulation_chunks_shrink_to_the_cells_budget() -> None:
    small = Meter(Budget(cells=1000))
    sim = simulate(RollInstruction(Amount(100), Die(6)), rolls=500, seed=1, meter=small)
    assert sim.rolls == 500 and sum(sim.results.values()) == 500


def test_a_deadline_ends_the_work() -> None:
    meter = Meter(Budget(seconds=0.0))
    with pytest.raises(RollLimitError, match="took more than"):
        resolve(RollInstruction(Amount(1), Die(6)), source="~", dice=SeededSource(1), meter=meter)


def test_copies_of_one_replacement_ask_once_per_group() -> None:
    # 800 copies: each die stands with 800 partners; the roller names the one that counts, once.
    board = Board.from_zones(battlefield=tuple(Permanent(f"Copy {i}", (PairEachDie(),)) for i in range(800)))
    chooser = ScriptedChooser([5])
    resolution = resolve(
        RollInstruction(Amount(2), Die(20)), source="~", dice=SeededSource(3), board=board, chooser=chooser
    )
    execution = resolution.executions[0]
    assert len(execution.dice) == 2 * 801 and len(execution.counted) == 2
    assert [decision.topic.value for decision, _ in resolution.decisions] == ["keep", "keep"]
    assert sum(len(decision.options) for decision, _ in resolution.decisions) == 2 * 801
    assert execution.counted[0].index == 5
    with pytest.raises(RollLimitError, match="options"):
        resolve(
            RollInstruction(Amount(2), Die(20)),
            source="~",
            dice=SeededSource(3),
            board=board,
            meter=Meter(Budget(options=1000)),
        )
