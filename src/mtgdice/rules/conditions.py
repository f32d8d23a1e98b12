"""Conditions on a die: "a 6", "4 or higher", "a natural 20", "an even result", "a die's highest natural result",
"{CHAOS}".

A numeric condition reads the result (after modifiers) unless it says natural (CR 706.2 and the
natural-result ruling). Any numeric condition is false for the planar die, which has no number
(CR 706.7).

Each condition also has an array form, ``holds_array(natural, result, sides)``, over numpy arrays of
numbered dice, for the vectorised simulation: the same test, written once beside the scalar one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mtgdice.rules.dice import DieRoll, PlanarFace

if TYPE_CHECKING:
    from mtgdice.rules.arrays import Ints, Mask


@dataclass(frozen=True, slots=True)
class InRange:
    """``low <= value <= high`` (either bound may be open), on the result or the natural result.

    >>> from mtgdice.rules.dice import Die
    >>> InRange(4, None).holds(DieRoll(0, Die(6), 5))
    True
    """

    low: int | None
    high: int | None
    natural: bool = False

    def holds(self, roll: DieRoll) -> bool:
        value = roll.natural if self.natural else roll.result
        return holds_range(self, value)

    def holds_value(self, value: int | None) -> bool:
        return holds_range(self, value)

    def holds_array(self, natural: Ints, result: Ints, sides: int) -> Mask:
        import numpy as np

        values = natural if self.natural else result
        mask = np.ones(values.shape, dtype=np.bool_)
        if self.low is not None:
            mask &= values >= self.low
        if self.high is not None:
            mask &= values <= self.high
        return mask

    def describe(self) -> str:
        word = "natural " if self.natural else ""
        if self.low is not None and self.high is not None:
            return f"{word}{self.low}" if self.low == self.high else f"{word}{self.low}-{self.high}"
        if self.low is not None:
            return f"{word}{self.low}+"
        return f"{word}{self.high} or less"


def holds_range(condition: InRange, value: int | None) -> bool:
    if value is None:
        return False
    if condition.low is not None and value < condition.low:
        return False
    return condition.high is None or value <= condition.high


@dataclass(frozen=True, slots=True)
class Parity:
    """An even or an odd number ("for each odd result", "if the result is even"), on the result or the
    natural result; the planar die has no number, so neither holds for it (CR 706.7).

    >>> from mtgdice.rules.dice import Die
    >>> Parity(even=True).holds(DieRoll(0, Die(6), 4)), Parity(even=False).holds(DieRoll(0, Die(6), 4))
    (True, False)
    """

    even: bool
    natural: bool = False

    def holds(self, roll: DieRoll) -> bool:
        return self.holds_value(roll.natural if self.natural else roll.result)

    def holds_value(self, value: int | None) -> bool:
        return value is not None and (value % 2 == 0) is self.even

    def holds_array(self, natural: Ints, result: Ints, sides: int) -> Mask:
        import numpy as np

        values = natural if self.natural else result
        return np.asarray((values % 2 == 0) == self.even, dtype=np.bool_)

    def describe(self) -> str:
        return ("natural " if self.natural else "") + ("even" if self.even else "odd")


@dataclass(frozen=True, slots=True)
class NaturalMax:
    """ "A die's highest natural result": the natural result equals the number of sides."""

    def holds(self, roll: DieRoll) -> bool:
        return roll.natural is not None and roll.natural == roll.die.sides

    def holds_array(self, natural: Ints, result: Ints, sides: int) -> Mask:
        import numpy as np

        return np.asarray(natural == sides, dtype=np.bool_)

    def describe(self) -> str:
        return "highest natural result"


@dataclass(frozen=True, slots=True)
class FaceIs:
    """A face of the planar die ("whenever you roll {CHAOS}")."""

    face: PlanarFace

    def holds(self, roll: DieRoll) -> bool:
        return roll.planar_face is self.face

    def holds_array(self, natural: Ints, result: Ints, sides: int) -> Mask:
        import numpy as np

        return np.zeros(natural.shape, dtype=np.bool_)  # numbered dice show no planar face

    def describe(self) -> str:
        return self.face.value


@dataclass(frozen=True, slots=True)
class AnyOf:
    """Any of several conditions ("a 1 or 2", "on a 3 or 4")."""

    conditions: tuple[Condition, ...]

    def holds(self, roll: DieRoll) -> bool:
        return any(condition.holds(roll) for condition in self.conditions)

    def holds_array(self, natural: Ints, result: Ints, sides: int) -> Mask:
        import numpy as np

        mask = np.zeros(natural.shape, dtype=np.bool_)
        for condition in self.conditions:
            mask |= condition.holds_array(natural, result, sides)
        return mask

    def describe(self) -> str:
        return " or ".join(condition.describe() for condition in self.conditions)


Condition = InRange | Parity | NaturalMax | FaceIs | AnyOf


def holds_for_total(condition: Condition, value: int | None) -> bool:
    """Whether a condition on "the total" holds for the total ``value`` of the counted dice (CR 706.2:
    the results after modifiers; ``None``: no total). A condition on a natural face, a die's highest
    face or a planar face reads one die and never holds for a total.

    >>> holds_for_total(AnyOf((InRange(7, 7), InRange(11, 11))), 11), holds_for_total(InRange(7, 7, natural=True), 7)
    (True, False)
    >>> even, odd = Parity(even=True), Parity(even=False)
    >>> holds_for_total(even, 8), holds_for_total(odd, 8), holds_for_total(even, None)
    (True, False, False)
    """
    if isinstance(condition, AnyOf):
        return any(holds_for_total(part, value) for part in condition.conditions)
    return isinstance(condition, InRange | Parity) and not condition.natural and condition.holds_value(value)
