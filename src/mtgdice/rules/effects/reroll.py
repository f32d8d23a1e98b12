"""Permissions to reroll a die (CR 706.2b: rerolls come first, before any ±N).

A reroll is a new roll of that die: per-die replacements apply to it again (the pair-each-die
ruling: it "applies to rerolls as well"), and the rerolled-away roll "essentially never happened" (Unfinity
ruling): it triggers nothing and no effect considers it. The controller of the permission decides
whether to use it (docs/design.md §15); when it is "reroll any die" on another player's die, the
controller rolls the new die (Pippa ruling).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from mtgdice.rules.conditions import Condition
from mtgdice.rules.dice import Die, DieRoll
from mtgdice.rules.effects.base import Cost, Detail, EffectBase, RollContext, Step, fits
from mtgdice.rules.footprint import DROPPABLE_REROLL, Footprint
from mtgdice.rules.players import Decider

if TYPE_CHECKING:
    from mtgdice.rules.board import Holder
    from mtgdice.rules.transforms import Law, Transform

# As integers: each ``|`` of flags makes a flag, and a combination made for the first time in a
# process costs more than the odds of a small roll; ``Footprint(value)`` makes one.
_USED_WHEN_DECIDED = Footprint.REROLLS.value | Footprint.DECIDES.value
_READ_AND_USED = _USED_WHEN_DECIDED | Footprint.READS_DIE.value


class RerollEffect(EffectBase):
    """An effect of the reroll window."""

    __slots__ = ()

    def consider(self, die: DieRoll, holder: Holder[EffectBase], context: RollContext) -> bool:
        """Offer a reroll of one counted die; True when the die was rerolled."""
        return False

    def consider_batch(self, dice: Sequence[DieRoll], holder: Holder[EffectBase], context: RollContext) -> None:
        """Offer a reroll of several dice at once, after the per-die offers."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RerollPermission(RerollEffect):
    """A permission to reroll a die, maybe conditional, costed, once, or for several dice.

    ``condition`` is checked on the die as it stands in the reroll window (before any ±N);
    ``many`` is "reroll one or more dice" (one decision picks the dice); ``rerolled_by`` is who
    rolls the new die (the roller, or the permission's controller); ``again`` is false for
    "reroll ... once", which does not apply to the die its own reroll rolled.
    """

    step: ClassVar[Step] = Step.REROLL
    kind: ClassVar[str] = "reroll"

    condition: Condition | None = None
    sides: int | None = None
    cost: Cost | None = None
    many: bool = False
    rerolled_by: Decider = Decider.ROLLER
    activated: bool = False
    again: bool = True

    def footprint(self) -> Footprint:
        found = Footprint(_USED_WHEN_DECIDED if self.condition is None else _READ_AND_USED)
        limits = self.limits()
        if limits:
            found |= limits
        if self.cost is not None:
            found |= self.cost.footprint()
        if self.many:
            found |= Footprint.LIMITED  # one subset decision for the whole roll
        if self.rerolled_by is not Decider.ROLLER:
            found |= Footprint.CHANGES_ROLLER
        return found

    def transform(self) -> Transform | None:
        from mtgdice.rules.transforms import Transform  # here: reading card text never asks (odds do)

        # One die at a time, decided from that die alone: a mixture. A permission for several dice
        # at once, limited, costed with state or rerolled by another player is not (no transform).
        return Transform.MIXTURE if not self.many and self.footprint().within(DROPPABLE_REROLL) else None

    def settle(self, law: Law, new: Law, die: Die) -> Law | None:
        """The law of a counted ``die`` of ``law`` once this permission (used whenever it may be)
        is done with it: a die meeting the condition is replaced by a new roll of law ``new``
        (CR 706.2b), which the permission rerolls again unless it says "once". ``None`` when the
        rerolls never stop.

        >>> from mtgdice.rules.conditions import InRange
        >>> from mtgdice.rules.transforms import Law
        >>> once = RerollPermission(condition=InRange(1, 1), again=False)
        >>> once.settle(Law.uniform(6), Law.uniform(6), Die(6)).weights
        (1, 7, 7, 7, 7, 7)
        """
        if not fits(self.sides, die):
            return law

        def holds(value: int) -> bool:
            return self.condition is None or self.condition.holds(DieRoll(0, die, value))

        if self.again:
            settled = new.settled(holds)
            if settled is None:
                return None
            return law.mixed(holds, settled)
        return law.mixed(holds, new)

    def consider(self, die: DieRoll, holder: Holder[EffectBase], context: RollContext) -> bool:
        from mtgdice.rules.choices import Topic

        if self.many or not holder.sees(die.roller) or not context.may_use(holder, die.die):
            return False
        if not self.again and context.made_by(die, holder):
            return False  # "reroll ... once": not again on the die it rolled
        if self.condition is not None and not self.condition.holds(die):
            return False
        question = f"Reroll the {die.label} ({holder.name}{_cost_text(self.cost)})?"
        if not context.ask_yes(Topic.REROLL, question, player=holder.controller, holder=holder):
            return False
        context.use(holder)
        context.reroll(die, self.rerolled_by.seat(die.roller, holder.controller), holder)
        return True

    def consider_batch(self, dice: Sequence[DieRoll], holder: Holder[EffectBase], context: RollContext) -> None:
        from mtgdice.rules.choices import Topic

        if not self.many or not context.may_use(holder):
            return
        live = [die for die in dice if die.counted and holder.sees(die.roller) and fits(self.sides, die.die)]
        if not live:
            return
        picked = context.ask_subset(
            Topic.REROLL_WHICH,
            f"Reroll which dice ({holder.name}{_cost_text(self.cost)})?",
            tuple(die.label for die in live),
            player=holder.controller,
            holder=holder,
        )
        if not picked:
            return
        context.use(holder)
        for index in picked:
            context.reroll(live[index], self.rerolled_by.seat(live[index].roller, holder.controller), holder)

    def _details(self) -> tuple[tuple[str, Detail], ...]:
        return (
            ("condition", self.condition.describe() if self.condition else None),
            ("sides", self.sides),
            ("cost", self.cost.text if self.cost else None),
            ("many", self.many),
            ("activated", self.activated),
            ("rerolled_by", self.rerolled_by.value),
            ("again", self.again),
        )


def _cost_text(cost: Cost | None) -> str:
    return f", {cost.text}" if cost is not None else ""
