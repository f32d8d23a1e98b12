"""The array steps of the vectorised simulation (``rules/vector.py``) equal ``resolve()`` lane by lane.

For each board the array plan is made (and must be made: a board the arrays cover that falls back
to the per-roll loop fails here), then one execution runs over every face sequence of the plan's
dice at once, one sequence a lane, and each lane is compared exactly with ``resolve()`` of the same
faces (one execution): the value read (the result of one counted die, else the total, CR 706.3a),
the row (-1 for none), doubles (CR 706.5), how many more executions it asks for (CR 706.3c) and the
triggerings per card. No sampling and no statistics: the chi-square tests of tests/test_sim.py see
a wrong lane only when it moves a whole distribution. Written to kill the "no tests" mutants of the
array forms (``holds_array``, ``rows_array``, ``count_array``) in the mutation run
(bench/results/mutation-2026-12-02-*.md).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from mtgdice.rules import (
    Amount,
    Board,
    Die,
    ExtraDice,
    InRange,
    Permanent,
    PolicyChooser,
    ResultModifier,
    ResultsTable,
    RollInstruction,
    Row,
    ScriptedSource,
    TurnState,
    resolve,
)
from mtgdice.rules.conditions import AnyOf, FaceIs, NaturalMax
from mtgdice.rules.dice import PlanarFace
from mtgdice.rules.effects.base import Event
from mtgdice.rules.effects.trigger import Trigger
from mtgdice.rules.players import Scope
from mtgdice.rules.vector import execute_arrays, vector_plan

TABLE = ResultsTable(
    (Row(1, 2), Row(3, 4, roll_again=True), Row(5, 6), Row(7, None, roll_again=True, roll_again_times=2))
)
OPTIONAL_AGAIN = ResultsTable((Row(1, 3), Row(4, None, roll_again=True, roll_again_optional=True)))


def _board(*effects: tuple[str, Any], opponents: tuple[tuple[str, Any], ...] = ()) -> Board:
    return Board.from_zones(
        battlefield=tuple(Permanent(name, (effect,)) for name, effect in effects),
        opponents=tuple(Permanent(name, (effect,)) for name, effect in opponents),
    )


CASES: dict[str, tuple[RollInstruction, Board, str]] = {
    "one die, a table with roll again and a repeat of two": (
        RollInstruction(Amount(1), Die(8), table=TABLE),
        Board(),
        "decline",
    ),
    "advantage and +1 on a table": (
        RollInstruction(Amount(1), Die(6), table=TABLE),
        _board(("Low", ExtraDice()), ("Plus", ResultModifier(delta=1))),
        "decline",
    ),
    "three dice ignore one, a total on a table": (
        RollInstruction(Amount(2), Die(4), table=TABLE),
        _board(("Low", ExtraDice())),
        "decline",
    ),
    "optional roll again declined": (RollInstruction(Amount(1), Die(6), table=OPTIONAL_AGAIN), Board(), "decline"),
    "optional roll again accepted": (RollInstruction(Amount(1), Die(6), table=OPTIONAL_AGAIN), Board(), "accept"),
    "repeat while a natural 6, with +2": (
        RollInstruction(Amount(1), Die(6), repeat_when=InRange(6, 6, natural=True)),
        _board(("Plus", ResultModifier(delta=2))),
        "decline",
    ),
    "repeat when any die is 1 or 4+": (
        RollInstruction(Amount(2), Die(4), repeat_when=AnyOf((InRange(1, 1), InRange(4, None)))),
        Board(),
        "decline",
    ),
    "optional repeat declined": (
        RollInstruction(Amount(1), Die(4), repeat_when=InRange(None, 2), repeat_optional=True),
        Board(),
        "decline",
    ),
    "triggers of each kind": (
        RollInstruction(Amount(2), Die(4)),
        _board(
            ("Each", Trigger()),
            ("High", Trigger(condition=InRange(3, None))),
            ("Low", Trigger(condition=InRange(None, 1))),
            ("Max", Trigger(condition=NaturalMax())),
            ("Doubles", Trigger(event=Event.DICE_ROLLED, doubles=True)),
            ("Any four", Trigger(event=Event.DICE_ROLLED, condition=InRange(4, 4))),
            ("Chaos", Trigger(condition=FaceIs(PlanarFace.CHAOS))),
            ("Sixes only", Trigger(sides=6)),
            ("Fours only", Trigger(sides=4, condition=InRange(2, 3))),
            opponents=(("Theirs", Trigger()), ("Anyone", Trigger(scope=Scope.ANY))),
        ),
        "decline",
    ),
    "natural and modified conditions apart": (
        RollInstruction(Amount(1), Die(6)),
        _board(
            ("Plus", ResultModifier(delta=1)),
            ("Natural six", Trigger(condition=InRange(6, 6, natural=True))),
            ("Result six", Trigger(condition=InRange(6, 6))),
            ("Natural max", Trigger(condition=NaturalMax())),
        ),
        "decline",
    ),
    "a modifier of other dice and an opponent's modifier": (
        RollInstruction(Amount(2), Die(4), modifier=Amount(1)),
        _board(("Sixes", ResultModifier(delta=3, sides=6)), opponents=(("Theirs", ResultModifier(delta=5)),)),
        "decline",
    ),
}


def _expected(instruction: RollInstruction, board: Board, policy: str, faces: tuple[int, ...]) -> tuple[Any, ...]:
    resolution = resolve(
        instruction,
        source="Test",
        dice=ScriptedSource(list(faces)),
        board=board,
        chooser=PolicyChooser(policy),
        limit=1,
    )
    execution = resolution.executions[0]
    counted = execution.counted
    value = counted[0].result if len(counted) == 1 else sum(die.result for die in counted)
    triggers: dict[str, int] = {}
    for hit in resolution.triggers:
        triggers[hit.card] = triggers.get(hit.card, 0) + 1
    again = execution.again_times if execution.again else 0
    return value, -1 if execution.row is None else execution.row, execution.doubles, again, triggers


@pytest.mark.parametrize("case", list(CASES))
def test_every_lane_equals_resolve(case: str) -> None:
    instruction, board, policy = CASES[case]
    plan = vector_plan(instruction, board, PolicyChooser(policy), {}, TurnState())
    assert plan is not None, "a board the arrays cover fell back to the per-roll loop"
    dice = plan.plan.dice_count
    sequences = list(itertools.product(range(1, plan.sides + 1), repeat=dice))
    faces = np.array(sequences, dtype=np.uint8).T.copy()
    execution = execute_arrays(plan, faces)
    low, high = execution.bounds or (None, None)
    fired = {card: counts for card, counts in execution.triggers}
    for lane, sequence in enumerate(sequences):
        value, row, doubles, again, triggers = _expected(instruction, board, policy, sequence)
        got = (
            int(execution.value[lane]),
            int(execution.row[lane]),
            bool(execution.doubles[lane]),
            int(execution.again[lane]),
            {card: int(counts[lane]) for card, counts in fired.items() if counts[lane]},
        )
        assert got == (value, row, doubles, again, triggers), f"faces {sequence}"
        assert low is not None and high is not None and low <= value <= high


def test_the_bounds_are_those_of_the_counted_dice() -> None:
    instruction = RollInstruction(Amount(2), Die(6), modifier=Amount(1))
    plan = vector_plan(instruction, _board(("Low", ExtraDice())), PolicyChooser(), {}, TurnState())
    assert plan is not None and plan.counted == 2
    execution = execute_arrays(plan, np.array([[1], [1], [1]], dtype=np.uint8))
    assert execution.bounds == (4, 14)  # two dice of 2..7 each


@pytest.mark.parametrize(
    ("instruction", "board", "policy"),
    [
        (RollInstruction(Amount(1), Die(6)), _board(("Maybe", ExtraDice(optional=True))), "accept"),
        (RollInstruction(Amount(1), Die(6)), _board(("Once", ResultModifier(delta=1, once_each_turn=True))), "decline"),
        (RollInstruction(Amount(1), Die(6)), _board(("Opt", ResultModifier(delta=1, optional=True))), "accept"),
        (RollInstruction(Amount(1), Die(6)), _board(("Third", Trigger(nth_this_turn=3))), "decline"),
        (RollInstruction(Amount(2), Die(6), choose=True), Board(), "decline"),
        (RollInstruction(Amount(1), Die(None)), Board(), "decline"),
    ],
    ids=["optional extra die", "once each turn", "optional modifier", "nth die", "choose one", "planar die"],
)
def test_what_the_arrays_do_not_cover_goes_to_the_loop(instruction: RollInstruction, board: Board, policy: str) -> None:
    assert vector_plan(instruction, board, PolicyChooser(policy), {}, TurnState()) is None
