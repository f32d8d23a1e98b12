"""±N modifiers (CR 706.2a-b) and extra-dice replacements (CR 616, 706.6) at the rules level: written
to kill mutants of ``rules/effects/modifier.py`` and ``rules/effects/replacement.py`` that survived
the mutation run (bench/results/mutation-*.md)."""

from __future__ import annotations

from typing import Any

from mtgdice.rules import (
    PLANAR_DIE,
    Amount,
    Board,
    Die,
    ExtraDice,
    Modifier,
    Permanent,
    PolicyChooser,
    ResultModifier,
    RollInstruction,
    ScriptedChooser,
    ScriptedSource,
    resolve,
)
from mtgdice.rules.choices import Topic
from mtgdice.rules.effects.replacement import IgnoreMode
from mtgdice.rules.sources import PlanarFace


def _execution(sides: int | None, faces: list[Any], board: Board, chooser: Any, count: int = 1) -> Any:
    die = PLANAR_DIE if sides is None else Die(sides)
    source = ScriptedSource(planar=faces) if sides is None else ScriptedSource(faces)
    resolution = resolve(RollInstruction(Amount(count), die), source="Test", dice=source, board=board, chooser=chooser)
    return resolution.executions[0]


def test_a_modifier_names_the_card_it_came_from() -> None:
    board = Board.from_zones(battlefield=(Permanent("Plus", (ResultModifier(delta=1),)),))
    (die,) = _execution(6, [4], board, PolicyChooser()).counted
    assert die.modifiers == (Modifier(1, "Plus"),)
    assert die.result == 5


def test_a_modifier_for_one_kind_of_die_leaves_the_others() -> None:
    board = Board.from_zones(battlefield=(Permanent("Six", (ResultModifier(delta=1, sides=6),)),))
    assert _execution(20, [4], board, PolicyChooser()).results == (4,)
    assert _execution(6, [4], board, PolicyChooser()).results == (5,)


def test_either_direction_goes_the_way_the_policy_wants() -> None:
    either = Board.from_zones(
        battlefield=(Permanent("Night", (ResultModifier(delta=1, optional=True, either_direction=True),)),)
    )
    assert _execution(6, [4], either, PolicyChooser("minimize")).results == (3,)
    assert _execution(6, [4], either, PolicyChooser("maximize")).results == (5,)
    chooser = ScriptedChooser([True, 1])
    (die,) = _execution(6, [4], either, chooser).counted
    assert die.modifiers == (Modifier(-1, "Night"),)
    modify, direction = chooser.asked
    assert (modify.topic, modify.source, modify.values) == (Topic.MODIFY, "Night", (4, 5, 3))
    assert (direction.topic, direction.options, direction.values) == (Topic.DIRECTION, ("increase", "decrease"), (5, 3))


def test_extra_dice_for_one_kind_of_die_leave_the_others() -> None:
    board = Board.from_zones(battlefield=(Permanent("Twenty", (ExtraDice(sides=20),)),))
    assert len(_execution(6, [2], board, PolicyChooser()).dice) == 1
    assert len(_execution(20, [2, 9], board, PolicyChooser()).dice) == 2


def test_ignore_the_lowest_adds_no_planar_die() -> None:
    board = Board.from_zones(battlefield=(Permanent("Guide", (ExtraDice(),)),))
    assert len(_execution(None, [PlanarFace.CHAOS], board, PolicyChooser()).dice) == 1  # CR 706.7


def test_an_extra_die_ignored_by_choice() -> None:
    board = Board.from_zones(battlefield=(Permanent("Chosen", (ExtraDice(ignore=IgnoreMode.CHOSEN),)),))
    chooser = ScriptedChooser([0])  # ignore the first die, although it is the higher
    execution = _execution(6, [5, 2], board, chooser)
    assert execution.results == (2,)
    (asked,) = chooser.asked
    assert asked.topic is Topic.IGNORE and asked.source == "Chosen"
