"""Replacement effects on a roll (CR 616): extra dice that ignore some, a partner for each die.

Before any die is rolled, the roll is a :class:`RollPlan`: how many dice stand for each die of the
instruction (a die and its partners form a group, CR 706.6 and the pair-each-die ruling), how
many of the lowest to ignore after the groups are settled, and which extra dice another player
picks to ignore. Each replacement turns one plan into another; the affected player orders
replacements of different kinds (CR 616.1, asked by the resolver).

- :class:`ExtraDice`: "instead roll that many dice plus one and ignore the lowest roll" (the
  advantage kind) — or "... and an opponent chooses one of them to ignore".
- :class:`PairEachDie`: "if you would roll a die, instead roll two of those dice and ignore one of
  those results" — every group grows by one die (several copies: N+1 dice, N ignored, as the coin
  version's ruling has it).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from mtgdice.rules.dice import Die
from mtgdice.rules.effects.base import Detail, EffectBase, RollContext, Step, fits
from mtgdice.rules.footprint import Footprint
from mtgdice.rules.players import Decider, Seat
from mtgdice.rules.records import direct_init

if TYPE_CHECKING:
    from mtgdice.rules.board import Holder
    from mtgdice.rules.transforms import Keep, Law, Transform


class IgnoreMode(enum.Enum):
    """How an extra die's ignored roll is picked: the lowest face (compares numbers, so never the
    planar die, CR 706.7), or a player's free choice (any die)."""

    LOWEST = "lowest"
    CHOSEN = "chosen"


@dataclass(frozen=True, slots=True)
class ChosenIgnore:
    """One die of the roll that a player picks to ignore (an extra die's price)."""

    holder: Holder[EffectBase]
    by: Decider


@direct_init
@dataclass(frozen=True, slots=True)
class RollPlan:
    """A roll as replacements leave it, before the dice are rolled.

    ``slots`` has one entry per die of the event: how many physical dice stand for it (1, or 1 plus
    its partners). ``lowest`` counts the lowest dice to ignore once each group has kept one.

    >>> from mtgdice.rules.players import YOU
    >>> plan = RollPlan(Die(20), YOU, (1,))
    >>> plan.dice_count, RollPlan(Die(20), YOU, (2, 2)).dice_count
    (1, 4)
    """

    die: Die
    roller: Seat
    slots: tuple[int, ...]
    lowest: int = 0
    chosen: tuple[ChosenIgnore, ...] = ()

    @property
    def dice_count(self) -> int:
        return sum(self.slots)


class Replacement(EffectBase):
    """An effect of the replacement window: it changes the plan of a roll before the roll."""

    __slots__ = ()

    def vectorised(self) -> bool:
        """Whether the vectorised simulation can draw the plan this effect leaves without decisions."""
        return False

    def applies(self, plan: RollPlan) -> bool:
        """Whether this replacement applies to a roll planned as ``plan``."""
        raise NotImplementedError

    def replace(self, plan: RollPlan, holder: Holder[EffectBase], context: RollContext) -> RollPlan:
        """The plan after this replacement (optional ones ask first and may leave it as it is)."""
        raise NotImplementedError

    def behaviour(self) -> tuple[object, ...]:
        """What this replacement does, without where it is: two equal behaviours are the same kind
        for CR 616.1 (no order question between identical replacements)."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True, kw_only=True)
class ExtraDice(Replacement):
    """ "Instead roll that many dice plus ``extra`` and ignore the lowest" (``IgnoreMode.LOWEST``),
    or "... and ``chosen_by`` chooses ``extra`` of them to ignore" (``IgnoreMode.CHOSEN``).
    ``sides`` limits it to one kind of die; ``optional`` is "you may instead roll ...".

    >>> from mtgdice.rules.players import YOU
    >>> ExtraDice().applies(RollPlan(Die(None), YOU, (1,)))  # the planar die has no lowest (CR 706.7)
    False
    """

    step: ClassVar[Step] = Step.COUNT
    kind: ClassVar[str] = "extra dice"

    extra: int = 1
    ignore: IgnoreMode = IgnoreMode.LOWEST
    chosen_by: Decider = Decider.ROLLER
    sides: int | None = None
    optional: bool = False

    def vectorised(self) -> bool:
        return self.ignore is IgnoreMode.LOWEST and not self.optional

    def footprint(self) -> Footprint:
        found = Footprint.ADDS_DICE
        if self.ignore is IgnoreMode.LOWEST:
            found |= Footprint.IGNORES_LOWEST
        else:
            found |= Footprint.IGNORES_CHOSEN | Footprint.DECIDES
        if self.optional:
            found |= Footprint.DECIDES
        return found | self.limits()

    def transform(self) -> Transform | None:
        from mtgdice.rules.transforms import Transform  # here: reading card text never asks (odds do)

        # CR 706.6: the lowest go, so the counted dice are the top order statistics of the roll.
        # A die another player picks to ignore depends on what that player sees: no transform.
        return Transform.ORDER_STATISTIC if self.ignore is IgnoreMode.LOWEST else None

    def applies(self, plan: RollPlan) -> bool:
        if not plan.slots or not fits(self.sides, plan.die):
            return False
        return not (self.ignore is IgnoreMode.LOWEST and plan.die.planar)

    def replace(self, plan: RollPlan, holder: Holder[EffectBase], context: RollContext) -> RollPlan:
        from mtgdice.rules.choices import Topic

        if self.optional and not context.ask_yes(
            Topic.REPLACE,
            f"Roll {plan.dice_count + self.extra} instead of {plan.dice_count} ({holder.name})?",
            player=plan.roller,
            holder=holder,
        ):
            return plan
        slots = plan.slots + (1,) * self.extra
        if self.ignore is IgnoreMode.LOWEST:
            return RollPlan(plan.die, plan.roller, slots, plan.lowest + self.extra, plan.chosen)
        chosen = plan.chosen + tuple(ChosenIgnore(holder, self.chosen_by) for _ in range(self.extra))
        return RollPlan(plan.die, plan.roller, slots, plan.lowest, chosen)

    def behaviour(self) -> tuple[object, ...]:
        return (ExtraDice, self.extra, self.ignore, self.chosen_by, self.sides, self.optional)

    def _details(self) -> tuple[tuple[str, Detail], ...]:
        return (
            ("extra", self.extra),
            ("ignore", self.ignore.value),
            ("chosen_by", self.chosen_by.value),
            ("sides", self.sides),
            ("optional", self.optional),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class PairEachDie(Replacement):
    """ "If you would roll a die, instead roll two of those dice and ignore one of those results":
    the roller chooses freely which die of each group counts (works with any die, the planar die too)."""

    step: ClassVar[Step] = Step.EACH_DIE
    kind: ClassVar[str] = "pair each die"

    sides: int | None = None

    def footprint(self) -> Footprint:
        return Footprint.ADDS_DICE | Footprint.GROUPS | Footprint.DECIDES | self.limits()

    def transform(self) -> Transform:
        from mtgdice.rules.transforms import Transform  # here: reading card text never asks (odds do)

        return Transform.KEPT_OF_GROUP

    @staticmethod
    def kept(law: Law, size: int, keep: Keep) -> Law:
        """The law of the die the roller keeps from a group of ``size`` dice of ``law``: the highest
        or the lowest when the policy compares the dice, else the first offered (a die's own law).

        >>> from mtgdice.rules.transforms import Keep, Law
        >>> PairEachDie.kept(Law.uniform(2), 2, Keep.HIGHEST).weights
        (1, 3)
        """
        return law.kept_of_group(size, keep)

    def applies(self, plan: RollPlan) -> bool:
        return bool(plan.slots) and fits(self.sides, plan.die)

    def replace(self, plan: RollPlan, holder: Holder[EffectBase], context: RollContext) -> RollPlan:
        return RollPlan(plan.die, plan.roller, tuple(size + 1 for size in plan.slots), plan.lowest, plan.chosen)

    def behaviour(self) -> tuple[object, ...]:
        return (PairEachDie, self.sides)

    def _details(self) -> tuple[tuple[str, Detail], ...]:
        return (("sides", self.sides),)
