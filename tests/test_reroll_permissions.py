"""Reroll permissions at the rules level (CR 706.2b), one behaviour a test: written to kill the
mutants of ``rules/effects/reroll.py`` that survived the mutation run (bench/results/mutation-*.md)."""

from __future__ import annotations

import pytest

from mtgdice.rules import (
    Amount,
    Board,
    Die,
    InRange,
    Permanent,
    PolicyChooser,
    RerollPermission,
    RollInstruction,
    ScriptedChooser,
    ScriptedSource,
    resolve,
)
from mtgdice.rules.choices import Topic
from mtgdice.rules.footprint import Footprint

ONES = RerollPermission(condition=InRange(1, 1))


def _final(sides: int, faces: list[int], board: Board, policy: str = "accept") -> int | None:
    resolution = resolve(
        RollInstruction(Amount(1), Die(sides)),
        source="Test",
        dice=ScriptedSource(faces),
        board=board,
        chooser=PolicyChooser(policy),
    )
    (result,) = resolution.executions[0].results
    return result


def test_a_permission_rerolls_the_die_it_names() -> None:
    assert _final(6, [1, 4], Board.from_zones(battlefield=(Permanent("Again", (ONES,)),))) == 4


def test_an_opponents_permission_for_their_own_rolls_does_not_reroll_mine() -> None:
    assert _final(6, [1, 4], Board.from_zones(opponents=(Permanent("Theirs", (ONES,)),))) == 1


def test_a_permission_for_one_kind_of_die_leaves_the_others() -> None:
    only_d6 = Board.from_zones(battlefield=(Permanent("Six", (RerollPermission(condition=InRange(3, 3), sides=6),)),))
    assert _final(20, [3, 9], only_d6) == 3
    assert _final(6, [3, 5], only_d6) == 5


def test_reroll_once_does_not_apply_to_the_die_it_rolled() -> None:
    once = Board.from_zones(battlefield=(Permanent("Once", (RerollPermission(condition=InRange(1, 1), again=False),)),))
    assert _final(6, [1, 1, 6], once) == 1  # the second 1 stays: no third draw
    again = Board.from_zones(battlefield=(Permanent("Again", (ONES,)),))
    assert _final(6, [1, 1, 6], again) == 6


def test_the_question_is_a_reroll_question_from_the_permission() -> None:
    chooser = ScriptedChooser([True])
    resolve(
        RollInstruction(Amount(1), Die(6)),
        source="Test",
        dice=ScriptedSource([1, 5]),
        board=Board.from_zones(battlefield=(Permanent("Again", (ONES,)),)),
        chooser=chooser,
    )
    (asked,) = chooser.asked
    assert asked.topic is Topic.REROLL
    assert asked.source == "Again"


@pytest.mark.parametrize(
    ("permission", "present", "absent"),
    [
        (RerollPermission(), Footprint.REROLLS | Footprint.DECIDES, Footprint.READS_DIE),
        (ONES, Footprint.REROLLS | Footprint.READS_DIE, Footprint.LIMITED),
        (RerollPermission(many=True), Footprint.REROLLS | Footprint.LIMITED, Footprint.READS_DIE),
    ],
    ids=["any die", "on a 1", "one or more dice"],
)
def test_the_footprint_declares_what_the_permission_reads(
    permission: RerollPermission, present: Footprint, absent: Footprint
) -> None:
    footprint = permission.footprint()
    assert footprint & present == present
    assert not footprint & absent


def test_one_or_more_dice_rerolls_the_chosen_ones() -> None:
    resolution = resolve(
        RollInstruction(Amount(2), Die(6)),
        source="Test",
        dice=ScriptedSource([1, 2, 6]),
        board=Board.from_zones(battlefield=(Permanent("Many", (RerollPermission(many=True),)),)),
        chooser=ScriptedChooser([[1]]),  # reroll the second die only
    )
    assert resolution.executions[0].results == (1, 6)


def test_one_or_more_dice_offers_the_counted_dice_of_its_kind() -> None:
    from mtgdice.rules.effects.replacement import ExtraDice

    board = Board.from_zones(
        battlefield=(Permanent("Guide", (ExtraDice(),)), Permanent("Many", (RerollPermission(many=True),)))
    )
    chooser = ScriptedChooser([[0]])
    resolution = resolve(
        RollInstruction(Amount(2), Die(6)),
        source="Test",
        dice=ScriptedSource([5, 1, 4, 6, 2]),
        board=board,
        chooser=chooser,
    )
    (asked,) = [decision for decision in chooser.asked if decision.topic is Topic.REROLL_WHICH]
    assert len(asked.options) == 2  # the ignored 1 is not offered
    assert asked.source == "Many"
    # The 5 is rerolled as two dice (the extra die applies to a reroll too), the 6 kept.
    assert sorted(resolution.executions[0].results) == [4, 6]
    only_d20 = Board.from_zones(battlefield=(Permanent("Many", (RerollPermission(many=True, sides=20),)),))
    chooser = ScriptedChooser([[0]])
    resolve(
        RollInstruction(Amount(2), Die(6)), source="Test", dice=ScriptedSource([5, 1]), board=only_d20, chooser=chooser
    )
    assert chooser.asked == []
