"""Invariants of the engine, checked by hypothesis over random boards, dice and answers.

- every execution counts as many dice as its instruction keeps (CR 706.6: the extra dice and the
  rerolled-away rolls never happened), and an ignored die is never modified;
- ignored and rerolled-away dice never reach triggers;
- the planar die never satisfies a numeric condition;
- the scripted source never invents a face.
"""

from __future__ import annotations

from typing import Any

from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from mtgdice.errors import DiceExhaustedError, InputError, RollLimitError
from mtgdice.rules import (
    PLANAR_DIE,
    AnyOf,
    Board,
    Die,
    DieRoll,
    Fate,
    InRange,
    Modifier,
    NaturalMax,
    Permanent,
    PlanarFace,
    ScriptedSource,
    resolve,
)
from mtgdice.rules.choices import Answer, Ask, Decision
from mtgdice.text import compile_text

EFFECT_TEXTS = [
    "If you would roll one or more dice, instead roll that many dice plus one and ignore the lowest roll.",
    "If you would roll a die, instead roll two of those dice and ignore one of those results.",
    "Increase the result of each die you roll by 2.",
    "After you roll a die, you may pay 1 life. If you do, increase or decrease the result by 1.",
    "If you roll a 3 on a six-sided die, you may reroll that die.",
    "Once each turn, you may pay {1} to reroll one or more dice you rolled.",
    "Whenever you roll one or more dice, draw a card.",
    "Whenever you roll a die, put a number of luck counters on this enchantment equal to the result.",
    "Whenever you roll a 4 or higher on a die, create a token.",
    "Whenever you roll a die's highest natural result, draw a card.",
]
EFFECTS = [compile_text(text, name=f"E{i}").effects for i, text in enumerate(EFFECT_TEXTS)]
ROLLS = [
    compile_text(text).rolls[0]
    for text in (
        "Roll a six-sided die.",
        "Roll two six-sided dice.",
        "Roll three d6 and ignore the lowest roll.",
        "Roll a d6 and add 1.\n1\u20143 | A.\n4+ | B.",
        "Roll two d6.\n2\u20146 | A.\n7\u201412 | B. You may roll again.",
    )
]

boards = st.lists(st.integers(0, len(EFFECTS) - 1), max_size=4).map(
    lambda picks: Board.from_zones(battlefield=tuple(Permanent(f"E{i}", EFFECTS[i]) for i in picks))
)
answers = st.lists(st.integers(0, 7), max_size=8)
"""Numbers a :class:`NumberChooser` turns into answers of the right shape (every answer is valid)."""


class NumberChooser:
    """Answers decisions from a list of numbers, each made valid for its decision: yes/no by
    parity, a pick by remainder, a subset by the number's bits; the default once they run out."""

    def __init__(self, numbers: list[int]) -> None:
        self._numbers = list(numbers)

    def decide(self, decision: Decision) -> Answer:
        number = self._numbers.pop(0) if self._numbers else 0
        if decision.ask is Ask.YES_NO:
            return number % 2 == 1
        if decision.ask is Ask.PICK_ONE:
            return number % len(decision.options)
        return tuple(i for i in range(len(decision.options)) if number >> i & 1)


def _resolve(roll_index: int, board: Board, faces: list[int], numbers: list[int]) -> Any:
    """The resolution; an example whose dice run out or whose rerolls never settle is rejected
    with ``assume`` (hypothesis counts it, and fails its health check if that grows common)."""
    try:
        return resolve(
            ROLLS[roll_index], source="S", dice=ScriptedSource(faces), board=board, chooser=NumberChooser(numbers)
        )
    except (DiceExhaustedError, RollLimitError) as error:
        event(f"rejected: {type(error).__name__}")
        assume(False)


def _kept(roll_index: int) -> int:
    instruction = ROLLS[roll_index]
    count = instruction.count.constant
    assert count is not None
    return count - instruction.ignore_lowest


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(ROLLS) - 1), boards, st.lists(st.integers(1, 6), min_size=60, max_size=60), answers)
def test_each_execution_counts_the_dice_its_instruction_keeps(
    roll_index: int, board: Board, faces: list[int], numbers: list[int]
) -> None:
    outcome = _resolve(roll_index, board, faces, numbers)
    assert outcome.executions
    for execution in outcome.executions:
        counted = [die for die in execution.dice if die.fate is Fate.COUNTED]
        assert len(counted) == _kept(roll_index), [(d.natural, d.fate) for d in execution.dice]
        for die in execution.dice:
            if not die.counted:
                assert die.modifiers == ()


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(ROLLS) - 1), boards, st.lists(st.integers(1, 6), min_size=60, max_size=60), answers)
def test_ignored_and_rerolled_dice_never_reach_triggers(
    roll_index: int, board: Board, faces: list[int], numbers: list[int]
) -> None:
    outcome = _resolve(roll_index, board, faces, numbers)
    fates = {(n, d.index): d.fate for n, e in enumerate(outcome.executions) for d in e.dice}
    for hit in outcome.triggers:
        if hit.die is not None:
            assert fates[(hit.execution, hit.die)] is Fate.COUNTED
    for execution in outcome.executions:
        assert execution.results == tuple(d.result for d in execution.dice if d.fate is Fate.COUNTED)


conditions = st.recursive(
    st.one_of(
        st.builds(
            InRange,
            st.one_of(st.none(), st.integers(-50, 50)),
            st.one_of(st.none(), st.integers(-50, 50)),
            st.booleans(),
        ),
        st.just(NaturalMax()),
    ),
    lambda inner: st.lists(inner, min_size=1, max_size=3).map(lambda items: AnyOf(tuple(items))),
    max_leaves=5,
)


@given(conditions, st.sampled_from(list(PlanarFace)), st.lists(st.integers(-5, 5), max_size=3))
def test_planar_die_never_satisfies_a_numeric_condition(condition: Any, face: PlanarFace, deltas: list[int]) -> None:
    die = DieRoll(0, PLANAR_DIE, face, tuple(Modifier(d, "x") for d in deltas))
    assert die.natural is None and die.result is None
    assert not condition.holds(die)


@given(st.lists(st.integers(1, 20), max_size=30), st.integers(0, 40))
def test_scripted_source_never_invents_a_face(faces: list[int], draws: int) -> None:
    source = ScriptedSource(faces)
    seen = []
    for _ in range(draws):
        try:
            seen.append(source.roll(Die(20)))
        except DiceExhaustedError:
            assert len(seen) == len(faces)
            break
    assert seen == faces[: len(seen)]


@given(st.integers(-100, 100), st.integers(1, 30))
def test_scripted_source_refuses_a_face_the_die_does_not_have(face: int, sides: int) -> None:
    source = ScriptedSource([face])
    if 1 <= face <= sides:
        assert source.roll(Die(sides)) == face
    else:
        try:
            source.roll(Die(sides))
        except InputError as error:
            assert "dice[0]" in str(error)
        else:
            raise AssertionError("a face outside the die was accepted")
