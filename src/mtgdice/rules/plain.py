"""Plain dice: the notation dice bots know (``3d6+2``, ``4d6dl1``, ``2d20kh1``, ``d%``, ``4dF``).

A plain roll is not a Magic roll: no board, no replacement, no modifier, no results table, none of
CR 706 applies. It is a sum of terms, each a group of dice (``NdS``, optionally keeping or dropping
the highest or lowest few) or a whole number, added or subtracted; the total is the answer. Faces
are drawn through the same :class:`~mtgdice.rules.sources.DiceSource` as every roll, so the
secure, seeded, scripted and commit-reveal sources all work and a log can replay a plain roll from
its faces.

A Fudge die (``dF``) is drawn as a three-sided die whose faces 1, 2, 3 read -1, 0, +1. Among dice
of equal value, keeping and dropping go by roll order: the earlier die is kept.

This module leaves out parsing the notation (``mtgdice.text.notation``) and printing.

>>> from mtgdice.rules.sources import ScriptedSource
>>> four_d6 = PlainRoll((DiceGroup(4, 6, selection=Selection.DROP_LOWEST),))
>>> result = roll_plain(four_d6, ScriptedSource([3, 1, 6, 4]))
>>> result.total, [die.kept for die in result.terms[0].dice]
(13, [True, False, True, True])
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from mtgdice.rules.dice import Die
from mtgdice.rules.errors import InputError
from mtgdice.rules.sources import DiceSource

MAX_PLAIN_DICE = 10_000
"""Dice in one plain roll, every group together (bounded time and memory)."""
MAX_PLAIN_SIDES = 1_000_000
"""Sides of one die in a plain roll."""
MAX_PLAIN_TERMS = 100
"""Terms (dice groups and numbers) in one plain roll."""
MAX_PLAIN_CONSTANT = 1_000_000_000
"""Largest number written as a term."""

FUDGE_DIE = Die(3)
"""A Fudge die is drawn as a d3: face 1 reads -1, face 2 reads 0, face 3 reads +1."""


class Selection(enum.Enum):
    """Which dice of a group count: keep or drop the highest or the lowest few."""

    KEEP_HIGHEST = "kh"
    KEEP_LOWEST = "kl"
    DROP_HIGHEST = "dh"
    DROP_LOWEST = "dl"


@dataclass(frozen=True, slots=True)
class DiceGroup:
    """``count`` dice of ``sides`` sides (``fudge``: Fudge dice), added or (``sign`` -1) subtracted.

    ``selection`` keeps or drops ``selected`` of them by value.

    >>> DiceGroup(2, 20, selection=Selection.KEEP_HIGHEST).notation, DiceGroup(4, 3, fudge=True).notation
    ('2d20kh1', '4dF')
    """

    count: int
    sides: int
    fudge: bool = False
    selection: Selection | None = None
    selected: int = 1
    sign: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_PLAIN_DICE:
            raise InputError("dice", f"{self.count} dice in one group; roll 1 to {MAX_PLAIN_DICE}")
        if not 1 <= self.sides <= MAX_PLAIN_SIDES:
            raise InputError("dice", f"a die of {self.sides} sides; dice have 1 to {MAX_PLAIN_SIDES} sides")
        if self.fudge and self.sides != 3:
            raise InputError("dice", "a Fudge die has three faces (-1, 0, +1)")
        if self.sign not in (1, -1):
            raise InputError("dice", f"sign {self.sign}: a term is added (1) or subtracted (-1)")
        if self.selection is not None:
            keeps = self.selection in (Selection.KEEP_HIGHEST, Selection.KEEP_LOWEST)
            most = self.count if keeps else self.count - 1
            if not 1 <= self.selected <= most:
                verb = "keep" if keeps else "drop"
                allowed = f"{verb} 1 to {most}" if most else "a single die has nothing to drop"
                raise InputError(
                    "dice", f"{self.notation}: cannot {verb} {self.selected} of {self.count} dice ({allowed})"
                )

    @property
    def die(self) -> Die:
        """The die drawn for each of the group's dice."""
        return FUDGE_DIE if self.fudge else Die(self.sides)

    def value_of(self, face: int) -> int:
        """What a drawn face reads: itself, or -1, 0, +1 for a Fudge die."""
        return face - 2 if self.fudge else face

    @property
    def notation(self) -> str:
        """The group as dice notation, without its sign."""
        kind = "F" if self.fudge else ("%" if self.sides == 100 else str(self.sides))
        select = f"{self.selection.value}{self.selected}" if self.selection is not None else ""
        return f"{self.count if self.count != 1 else ''}d{kind}{select}"


@dataclass(frozen=True, slots=True)
class Constant:
    """A whole number added or (``sign`` -1) subtracted."""

    value: int
    sign: int = 1

    def __post_init__(self) -> None:
        if not 0 <= self.value <= MAX_PLAIN_CONSTANT:
            raise InputError("dice", f"the number {self.value} is out of range (0 to {MAX_PLAIN_CONSTANT})")
        if self.sign not in (1, -1):
            raise InputError("dice", f"sign {self.sign}: a term is added (1) or subtracted (-1)")

    @property
    def notation(self) -> str:
        return str(self.value)


Term = DiceGroup | Constant


@dataclass(frozen=True, slots=True)
class PlainRoll:
    """A plain roll: terms added in order (the first term is never subtracted).

    >>> PlainRoll((DiceGroup(3, 6), Constant(2), DiceGroup(1, 4, sign=-1))).notation
    '3d6+2-d4'
    """

    terms: tuple[Term, ...]

    def __post_init__(self) -> None:
        groups = [term for term in self.terms if isinstance(term, DiceGroup)]
        if not groups:
            raise InputError("dice", "a plain roll needs dice, such as 3d6 or d20+1")
        if len(self.terms) > MAX_PLAIN_TERMS:
            raise InputError("dice", f"{len(self.terms)} terms; a roll has at most {MAX_PLAIN_TERMS}")
        dice = sum(group.count for group in groups)
        if dice > MAX_PLAIN_DICE:
            raise InputError("dice", f"{dice} dice in one roll is more than the limit of {MAX_PLAIN_DICE}")
        if self.terms[0].sign != 1:
            raise InputError("dice", "a roll starts with dice or a number, not a minus sign")

    @property
    def notation(self) -> str:
        """The roll in canonical notation (what the roll log records)."""
        parts = []
        for position, term in enumerate(self.terms):
            sign = "-" if term.sign < 0 else ("+" if position else "")
            parts.append(sign + term.notation)
        return "".join(parts)


@dataclass(frozen=True, slots=True)
class PlainDie:
    """One die of a plain roll: the face drawn, what it reads (``value``), whether it counts."""

    index: int
    face: int
    value: int
    kept: bool = True


@dataclass(frozen=True, slots=True)
class GroupResult:
    """The dice a group rolled, in roll order; ``value`` adds the kept ones (before the sign)."""

    group: DiceGroup
    dice: tuple[PlainDie, ...]

    @property
    def value(self) -> int:
        return sum(die.value for die in self.dice if die.kept)


@dataclass(frozen=True, slots=True)
class PlainResult:
    """A finished plain roll: each group's dice and each number, in order; ``total`` is derived.

    >>> from mtgdice.rules.sources import ScriptedSource
    >>> result = roll_plain(PlainRoll((DiceGroup(2, 10), Constant(1, sign=-1))), ScriptedSource([4, 9]))
    >>> result.total, result.draws
    (12, ((10, 4), (10, 9)))
    """

    roll: PlainRoll
    terms: tuple[GroupResult | Constant, ...]
    source: str

    @property
    def used(self) -> frozenset[str]:
        """Nothing of the turn is used: no Magic effect applies to a plain roll."""
        return frozenset()

    @property
    def decisions(self) -> tuple[()]:
        """A plain roll asks no decision."""
        return ()

    @property
    def total(self) -> int:
        total = 0
        for term in self.terms:
            if isinstance(term, GroupResult):
                total += term.group.sign * term.value
            else:
                total += term.sign * term.value
        return total

    @property
    def draws(self) -> tuple[tuple[int, int], ...]:
        """Every face drawn, in order, as ``(sides of the die drawn, face)``: what the log keeps."""
        return tuple(
            (term.group.die.sides or 0, die.face)
            for term in self.terms
            if isinstance(term, GroupResult)
            for die in term.dice
        )


def _kept(group: DiceGroup, values: list[int]) -> list[bool]:
    if group.selection is None:
        return [True] * len(values)
    highest_first = group.selection in (Selection.KEEP_HIGHEST, Selection.DROP_LOWEST)
    # Ties by roll order: a stable sort puts the earlier die first among equal values, and it is kept.
    order = sorted(range(len(values)), key=lambda i: -values[i] if highest_first else values[i])
    keep = group.selected if group.selection in (Selection.KEEP_HIGHEST, Selection.KEEP_LOWEST) else None
    if keep is None:
        keep = len(values) - group.selected
    kept = [False] * len(values)
    for position in order[:keep]:
        kept[position] = True
    return kept


def roll_plain(plain: PlainRoll, dice: DiceSource) -> PlainResult:
    """Roll every group of ``plain`` from ``dice``, in order, and keep or drop as each group says.

    >>> from mtgdice.rules.sources import ScriptedSource
    >>> advantage = PlainRoll((DiceGroup(2, 20, selection=Selection.KEEP_HIGHEST), Constant(5)))
    >>> roll_plain(advantage, ScriptedSource([8, 15])).total
    20
    >>> roll_plain(PlainRoll((DiceGroup(4, 3, fudge=True),)), ScriptedSource([1, 2, 3, 3])).total
    1
    """
    terms: list[GroupResult | Constant] = []
    index = 0
    for term in plain.terms:
        if isinstance(term, Constant):
            terms.append(term)
            continue
        die = term.die
        faces: list[int] = []
        for _ in range(term.count):
            face = dice.roll(die)
            if not isinstance(face, int):
                raise InputError("dice", f"the dice source gave {face!r} for a {die.name}")
            faces.append(face)
        values = [term.value_of(face) for face in faces]
        kept = _kept(term, values)
        rolled = tuple(
            PlainDie(index + position, face, value, keep)
            for position, (face, value, keep) in enumerate(zip(faces, values, kept, strict=True))
        )
        index += len(rolled)
        terms.append(GroupResult(term, rolled))
    return PlainResult(plain, tuple(terms), getattr(dice, "name", "unknown"))
