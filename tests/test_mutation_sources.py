"""More survivors of the mutation run of 2026-12-02 (bench/results/mutation-2026-12-02-s2.md), killed
with the value the rules or the interface give: plain-dice values refused as built (a Fudge die has
three faces; a roll does not start with a minus sign), used-up planar faces, the dice a "which dice"
decision shows (as they stand, docs/design.md "choices"), and the doubles of the two dice kept of
three (CR 706.5, 706.6) against enumeration of every face sequence.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from mtgdice.odds import odds
from mtgdice.rules import (
    PLANAR_DIE,
    Amount,
    Board,
    Die,
    ExtraDice,
    Permanent,
    RerollPermission,
    RollInstruction,
    ScriptedChooser,
    ScriptedSource,
    resolve,
)
from mtgdice.rules.errors import DiceExhaustedError, InputError
from mtgdice.rules.plain import DiceGroup, PlainRoll


def test_a_fudge_die_of_other_than_three_faces_is_refused() -> None:
    with pytest.raises(InputError) as caught:
        DiceGroup(2, 6, fudge=True)
    assert str(caught.value) == "dice: a Fudge die has three faces (-1, 0, +1)"


def test_a_plain_roll_starting_with_a_minus_sign_is_refused() -> None:
    with pytest.raises(InputError) as caught:
        PlainRoll((DiceGroup(3, 6, sign=-1),))
    assert str(caught.value) == "dice: a roll starts with dice or a number, not a minus sign"


def test_used_up_planar_faces_say_what_to_add() -> None:
    with pytest.raises(DiceExhaustedError) as caught:
        resolve(RollInstruction(Amount(1), PLANAR_DIE), source="Test", dice=ScriptedSource([]))
    assert str(caught.value) == (
        "planar: all 0 planar faces given were used and another planar die is rolled; add more values to planar"
    )


def test_a_which_dice_decision_shows_the_dice_as_they_stand() -> None:
    board = Board.from_zones(battlefield=(Permanent("Many", (RerollPermission(many=True),)),))
    chooser = ScriptedChooser([[]])
    resolve(
        RollInstruction(Amount(2), Die(6)), source="Test", dice=ScriptedSource([3, 5]), board=board, chooser=chooser
    )
    (asked,) = chooser.asked
    assert [(die.natural, die.counted) for die in asked.dice] == [(3, True), (5, True)]


def test_the_two_kept_of_three_with_their_doubles() -> None:
    board = Board.from_zones(battlefield=(Permanent("Low", (ExtraDice(),)),))
    found = odds(RollInstruction(Amount(2), Die(6)), board=board)
    totals: Counter[int] = Counter()
    doubles = 0
    for faces in itertools.product(range(1, 7), repeat=3):
        kept = sorted(faces)[1:]
        totals[sum(kept)] += 1
        doubles += kept[0] == kept[1]
    assert dict(found.results) == {total: Fraction(n, 216) for total, n in totals.items()}
    assert found.doubles == Fraction(doubles, 216)


def test_reroll_once_may_reroll_a_die_another_permission_rolled() -> None:
    # "Reroll ... once" does not apply to the die its own reroll rolled; a die another permission
    # rerolled is a new die it has not rerolled yet. Again rerolls the 1, declines the new 1; Once
    # rerolls that one.
    from mtgdice.rules import InRange

    again = RerollPermission(condition=InRange(1, 1))
    once = RerollPermission(condition=InRange(1, 1), again=False)
    board = Board.from_zones(battlefield=(Permanent("Again", (again,)), Permanent("Once", (once,))))
    chooser = ScriptedChooser([True, False, True])
    resolution = resolve(
        RollInstruction(Amount(1), Die(6)), source="Test", dice=ScriptedSource([1, 1, 5]), board=board, chooser=chooser
    )
    assert resolution.executions[0].results == (5,)
    assert [asked.source for asked in chooser.asked] == ["Again", "Again", "Once"]
