"""Plain dice: the notation dice bots know (``3d6+2``, ``4d6dl1``, ``2d20kh1``, ``d%``, ``4dF``,
``4d6r1``, ``3d6!``, ``6x 4d6kh3``, ``2d8*2 # damage``).

A plain roll is not a Magic roll: no board, no replacement, no modifier, no results table, none of
CR 706 applies. It is a sum of terms, each a group of dice (``NdS``, optionally rerolling some
faces, exploding on some, keeping or dropping the highest or lowest few, multiplied by a whole
number) or a whole number, added or subtracted; the total is the answer. A roll may be repeated
(``6x ...``: six totals) and carry a label. Faces are drawn through the same
:class:`~mtgdice.rules.sources.DiceSource` as every roll, so the secure, seeded, scripted and
commit-reveal sources all work and a log can replay a plain roll from its faces.

A Fudge die (``dF``) is drawn as a three-sided die whose faces 1, 2, 3 read -1, 0, +1. Among dice
of equal value, keeping and dropping go by roll order: the earlier die is kept.

Each die of a group is drawn, then rerolled while its value meets the reroll condition (``ro``:
once; ``r``: at most :data:`MAX_REROLLS` times, then the last value stands); the rerolled-away
values stay in the record, not counted. When the value that stands meets the explode condition
(``!``: the highest face), one more die of the group is drawn, rerolled and exploded the same
way, at most :data:`MAX_EXPLOSIONS` times per die. Keeping and dropping then choose among every
die that stands, exploded ones included. Every die drawn, in draw order, is in the record.

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
from mtgdice.rules.errors import InputError, RollLimitError
from mtgdice.rules.sources import DiceSource

MAX_PLAIN_DICE = 10_000
"""Dice written in one plain roll, every group and every repetition together."""
MAX_PLAIN_SIDES = 1_000_000
"""Sides of one die in a plain roll."""
MAX_PLAIN_TERMS = 100
"""Terms (dice groups and numbers) in one plain roll."""
MAX_PLAIN_CONSTANT = 1_000_000_000
"""Largest number written as a term."""
MAX_PLAIN_FACTOR = 1_000
"""Largest multiplier of a group (``2d6*3``)."""
MAX_PLAIN_REPEAT = 100
"""Repetitions of one roll (``6x 4d6kh3``)."""
MAX_REROLLS = 100
"""Rerolls of one die by ``r`` (``ro`` rerolls once); then the last value stands."""
MAX_EXPLOSIONS = 100
"""Extra dice one die explodes into, at most."""
MAX_PLAIN_DRAWS = 20_000
"""Faces drawn for one plain roll, rerolls and explosions included (more: a one-line error)."""
MAX_LABEL = 60
"""Characters of a roll's label (after ``#``)."""

FUDGE_DIE = Die(3)
"""A Fudge die is drawn as a d3: face 1 reads -1, face 2 reads 0, face 3 reads +1."""


class Selection(enum.Enum):
    """Which dice of a group count: keep or drop the highest or the lowest few."""

    KEEP_HIGHEST = "kh"
    KEEP_LOWEST = "kl"
    DROP_HIGHEST = "dh"
    DROP_LOWEST = "dl"


class Comparison(enum.Enum):
    """How a die's value is compared with a number (strict ``<`` and ``>``, as Foundry reads them)."""

    EQUAL = "="
    BELOW = "<"
    AT_MOST = "<="
    ABOVE = ">"
    AT_LEAST = ">="


@dataclass(frozen=True, slots=True)
class Condition:
    """A test of a die's value: ``Condition(Comparison.BELOW, 3)`` is ``<3``.

    >>> Condition(Comparison.BELOW, 3).met(2), Condition(Comparison.EQUAL, 1).notation
    (True, '1')
    """

    comparison: Comparison
    value: int

    def met(self, value: int) -> bool:
        """Whether ``value`` meets the condition."""
        if self.comparison is Comparison.EQUAL:
            return value == self.value
        if self.comparison is Comparison.BELOW:
            return value < self.value
        if self.comparison is Comparison.AT_MOST:
            return value <= self.value
        if self.comparison is Comparison.ABOVE:
            return value > self.value
        return value >= self.value

    @property
    def notation(self) -> str:
        return ("" if self.comparison is Comparison.EQUAL else self.comparison.value) + str(self.value)


@dataclass(frozen=True, slots=True)
class DiceGroup:
    """``count`` dice of ``sides`` sides (``fudge``: Fudge dice), added or (``sign`` -1) subtracted.

    ``reroll`` rerolls a die whose value meets it (``reroll_once``: one time only); ``explode``
    draws one more die when a die's value meets it; ``selection`` keeps or drops ``selected`` of
    the dice that stand; ``factor`` multiplies the group's value.

    >>> DiceGroup(2, 20, selection=Selection.KEEP_HIGHEST).notation, DiceGroup(4, 3, fudge=True).notation
    ('2d20kh1', '4dF')
    >>> one, six = Condition(Comparison.EQUAL, 1), Condition(Comparison.EQUAL, 6)
    >>> DiceGroup(4, 6, reroll=one, explode=six, factor=2).notation
    '4d6r1!*2'
    """

    count: int
    sides: int
    fudge: bool = False
    selection: Selection | None = None
    selected: int = 1
    sign: int = 1
    reroll: Condition | None = None
    reroll_once: bool = False
    explode: Condition | None = None
    factor: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_PLAIN_DICE:
            raise InputError("dice", f"{self.count} dice in one group; roll 1 to {MAX_PLAIN_DICE}")
        if not 1 <= self.sides <= MAX_PLAIN_SIDES:
            raise InputError("dice", f"a die of {self.sides} sides; dice have 1 to {MAX_PLAIN_SIDES} sides")
        if self.fudge and self.sides != 3:
            raise InputError("dice", "a Fudge die has three faces (-1, 0, +1)")
        if self.sign not in (1, -1):
            raise InputError("dice", f"sign {self.sign}: a term is added (1) or subtracted (-1)")
        if not 1 <= self.factor <= MAX_PLAIN_FACTOR:
            raise InputError("dice", f"multiplier {self.factor}; multiply by 1 to {MAX_PLAIN_FACTOR}")
        values = self.values  # a condition is an interval: it meets every face when it meets both ends
        if self.reroll is not None and self.reroll.met(values[0]) and self.reroll.met(values[-1]):
            raise InputError("dice", f"{self.notation} rerolls every face; reroll only some, such as r1 or r<3")
        if self.explode is not None and self.explode.met(values[0]) and self.explode.met(values[-1]):
            raise InputError("dice", f"{self.notation} explodes on every face; explode on some, such as ! or !>5")
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

    @property
    def values(self) -> range:
        """What a die of the group can read, lowest first."""
        return range(-1, 2) if self.fudge else range(1, self.sides + 1)

    def value_of(self, face: int) -> int:
        """What a drawn face reads: itself, or -1, 0, +1 for a Fudge die."""
        return face - 2 if self.fudge else face

    @property
    def notation(self) -> str:
        """The group as dice notation, without its sign."""
        kind = "F" if self.fudge else ("%" if self.sides == 100 else str(self.sides))
        text = f"{self.count if self.count != 1 else ''}d{kind}"
        if self.reroll is not None:
            text += ("ro" if self.reroll_once else "r") + self.reroll.notation
        if self.explode is not None:
            highest = self.explode == Condition(Comparison.EQUAL, self.values[-1])
            text += "!" + ("" if highest else self.explode.notation)
        if self.selection is not None:
            text += f"{self.selection.value}{self.selected}"
        return text + (f"*{self.factor}" if self.factor != 1 else "")


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
    """A plain roll: terms added in order (the first term is never subtracted), ``repeat`` times,
    with an optional ``label``.

    >>> PlainRoll((DiceGroup(3, 6), Constant(2), DiceGroup(1, 4, sign=-1))).notation
    '3d6+2-d4'
    >>> PlainRoll((DiceGroup(4, 6, selection=Selection.KEEP_HIGHEST, selected=3),), repeat=6, label="stats").notation
    '6x4d6kh3 # stats'
    """

    terms: tuple[Term, ...]
    repeat: int = 1
    label: str | None = None

    def __post_init__(self) -> None:
        groups = [term for term in self.terms if isinstance(term, DiceGroup)]
        if not groups:
            raise InputError("dice", "a plain roll needs dice, such as 3d6 or d20+1")
        if len(self.terms) > MAX_PLAIN_TERMS:
            raise InputError("dice", f"{len(self.terms)} terms; a roll has at most {MAX_PLAIN_TERMS}")
        if not 1 <= self.repeat <= MAX_PLAIN_REPEAT:
            raise InputError("dice", f"{self.repeat} repetitions; repeat a roll 1 to {MAX_PLAIN_REPEAT} times")
        dice = sum(group.count for group in groups) * self.repeat
        if dice > MAX_PLAIN_DICE:
            raise InputError("dice", f"{dice} dice in one roll is more than the limit of {MAX_PLAIN_DICE}")
        if self.terms[0].sign != 1:
            raise InputError("dice", "a roll starts with dice or a number, not a minus sign")
        if self.label is not None and not (
            0 < len(self.label) <= MAX_LABEL and self.label.isprintable() and self.label == self.label.strip()
        ):
            raise InputError("dice", f"a label has 1 to {MAX_LABEL} printable characters after '#'")

    @property
    def expression(self) -> str:
        """The terms as canonical notation, without repetition or label."""
        parts = []
        for position, term in enumerate(self.terms):
            sign = "-" if term.sign < 0 else ("+" if position else "")
            parts.append(sign + term.notation)
        return "".join(parts)

    @property
    def notation(self) -> str:
        """The roll in canonical notation (what the roll log records)."""
        repeat = f"{self.repeat}x" if self.repeat != 1 else ""
        label = f" # {self.label}" if self.label is not None else ""
        return repeat + self.expression + label


@dataclass(frozen=True, slots=True)
class PlainDie:
    """One die of a plain roll: the face drawn, what it reads (``value``), whether it counts;
    ``rerolled``: its value was rerolled away; ``exploded``: it was drawn because the die before
    it exploded."""

    index: int
    face: int
    value: int
    kept: bool = True
    rerolled: bool = False
    exploded: bool = False


@dataclass(frozen=True, slots=True)
class GroupResult:
    """The dice a group drew, in draw order; ``value`` adds the kept ones, times the group's
    factor (before the sign)."""

    group: DiceGroup
    dice: tuple[PlainDie, ...]

    @property
    def value(self) -> int:
        return self.group.factor * sum(die.value for die in self.dice if die.kept)


TermResult = GroupResult | Constant


def _set_total(terms: tuple[TermResult, ...]) -> int:
    total = 0
    for term in terms:
        if isinstance(term, GroupResult):
            total += term.group.sign * term.value
        else:
            total += term.sign * term.value
    return total


@dataclass(frozen=True, slots=True)
class PlainResult:
    """A finished plain roll: each repetition's terms (``sets``), in order; totals are derived.

    >>> from mtgdice.rules.sources import ScriptedSource
    >>> result = roll_plain(PlainRoll((DiceGroup(2, 10), Constant(1, sign=-1))), ScriptedSource([4, 9]))
    >>> result.total, result.draws
    (12, ((10, 4), (10, 9)))
    """

    roll: PlainRoll
    sets: tuple[tuple[TermResult, ...], ...]
    source: str

    @property
    def terms(self) -> tuple[TermResult, ...]:
        """Every repetition's terms one after another (one repetition: its terms)."""
        return tuple(term for terms in self.sets for term in terms)

    @property
    def used(self) -> frozenset[str]:
        """Nothing of the turn is used: no Magic effect applies to a plain roll."""
        return frozenset()

    @property
    def decisions(self) -> tuple[()]:
        """A plain roll asks no decision."""
        return ()

    @property
    def totals(self) -> tuple[int, ...]:
        """Each repetition's total, in order."""
        return tuple(_set_total(terms) for terms in self.sets)

    @property
    def total(self) -> int:
        """The total of a roll made once; of a repeated roll, the sum of its totals."""
        return sum(self.totals)

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
    keeps = group.selection in (Selection.KEEP_HIGHEST, Selection.KEEP_LOWEST)
    keep = min(group.selected, len(values)) if keeps else max(0, len(values) - group.selected)
    kept = [False] * len(values)
    for position in order[:keep]:
        kept[position] = True
    return kept


class _Drawer:
    """Faces for one plain roll, counted against :data:`MAX_PLAIN_DRAWS`."""

    def __init__(self, dice: DiceSource) -> None:
        self.dice = dice
        self.drawn = 0

    def face(self, die: Die) -> int:
        self.drawn += 1
        if self.drawn > MAX_PLAIN_DRAWS:
            raise RollLimitError(
                f"dice: more than {MAX_PLAIN_DRAWS} faces drawn for one plain roll (rerolls and explosions count)"
            )
        face = self.dice.roll(die)
        if not isinstance(face, int):
            raise InputError("dice", f"the dice source gave {face!r} for a {die.name}")
        return face


def _roll_group(group: DiceGroup, drawer: _Drawer, first_index: int) -> GroupResult:
    die = group.die
    drawn: list[tuple[int, int, bool, bool]] = []  # face, value, stands, exploded
    standing: list[int] = []  # positions in ``drawn`` of the dice that stand

    def one(exploded: bool) -> int:
        face = drawer.face(die)
        value = group.value_of(face)
        rerolls = 0
        limit = 1 if group.reroll_once else MAX_REROLLS
        while group.reroll is not None and rerolls < limit and group.reroll.met(value):
            drawn.append((face, value, False, exploded))
            face = drawer.face(die)
            value = group.value_of(face)
            rerolls += 1
        drawn.append((face, value, True, exploded))
        standing.append(len(drawn) - 1)
        return value

    for _ in range(group.count):
        value = one(False)
        explosions = 0
        while group.explode is not None and explosions < MAX_EXPLOSIONS and group.explode.met(value):
            value = one(True)
            explosions += 1
    kept = _kept(group, [drawn[position][1] for position in standing])
    keeps = dict(zip(standing, kept, strict=True))
    return GroupResult(
        group,
        tuple(
            PlainDie(first_index + position, face, value, keeps.get(position, False), not stands, exploded)
            for position, (face, value, stands, exploded) in enumerate(drawn)
        ),
    )


def roll_plain(plain: PlainRoll, dice: DiceSource) -> PlainResult:
    """Roll every group of ``plain`` from ``dice``, in order, ``plain.repeat`` times; reroll,
    explode, keep or drop as each group says.

    >>> from mtgdice.rules.sources import ScriptedSource
    >>> advantage = PlainRoll((DiceGroup(2, 20, selection=Selection.KEEP_HIGHEST), Constant(5)))
    >>> roll_plain(advantage, ScriptedSource([8, 15])).total
    20
    >>> roll_plain(PlainRoll((DiceGroup(4, 3, fudge=True),)), ScriptedSource([1, 2, 3, 3])).total
    1
    >>> exploding = PlainRoll((DiceGroup(2, 6, explode=Condition(Comparison.EQUAL, 6)),))
    >>> roll_plain(exploding, ScriptedSource([6, 6, 2, 3])).total
    17
    """
    drawer = _Drawer(dice)
    sets: list[tuple[TermResult, ...]] = []
    index = 0
    for _ in range(plain.repeat):
        terms: list[TermResult] = []
        for term in plain.terms:
            if isinstance(term, Constant):
                terms.append(term)
                continue
            rolled = _roll_group(term, drawer, index)
            index += len(rolled.dice)
            terms.append(rolled)
        sets.append(tuple(terms))
    return PlainResult(plain, tuple(sets), getattr(dice, "name", "unknown"))
