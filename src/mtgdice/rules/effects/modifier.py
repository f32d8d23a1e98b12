"""Effects that increase or decrease a result (CR 706.2, 706.2a, 706.2b second).

Static ones ("increase the result of each die you roll by 2") apply to every counted numbered die
they see; optional ones ("you may pay 1 life; if you do, increase or decrease the result by 1")
are offered after the result is visible (CR 706.2a), die by die, and their cost is paid each time
(a cost of removing a counter is paid once per counter the permanent has). The resolver offers
static ones first, then optional ones, each in zone order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from mtgdice.rules.dice import Die, DieRoll, Modifier
from mtgdice.rules.effects.base import Cost, Detail, EffectBase, RollContext, Step, fits
from mtgdice.rules.footprint import Footprint

if TYPE_CHECKING:
    from mtgdice.rules.board import Holder
    from mtgdice.rules.transforms import Transform


class ModifierEffect(EffectBase):
    """An effect of the ±N window."""

    __slots__ = ()

    @property
    def offered(self) -> bool:
        """Whether the effect is offered to a player (then it comes after the static ones)."""
        return False

    def modify(self, die: DieRoll, holder: Holder[EffectBase], context: RollContext) -> Modifier | None:
        """The modifier this effect adds to one counted numbered die, if any."""
        return None

    def delta_for_all(self, die: Die, holder: Holder[EffectBase]) -> int | None:
        """The amount this effect adds to every counted ``die`` the roller rolls (the vectorised
        path adds it to a whole array), or ``None`` when that depends on a decision per die."""
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultModifier(ModifierEffect):
    """±``delta`` to a die's result; ``optional`` with a ``cost``, maybe in ``either_direction``."""

    step: ClassVar[Step] = Step.MODIFY
    kind: ClassVar[str] = "modifier"

    delta: int = 0
    optional: bool = False
    either_direction: bool = False
    cost: Cost | None = None
    sides: int | None = None

    @property
    def offered(self) -> bool:
        return self.optional

    def footprint(self) -> Footprint:
        if not self.optional:
            return Footprint.MODIFIES | self.limits()
        found = Footprint.MODIFIES_CHOSEN | Footprint.DECIDES | self.limits()
        return found | self.cost.footprint() if self.cost is not None else found

    def transform(self) -> Transform:
        from mtgdice.rules.transforms import Transform  # here: reading card text never asks (odds do)

        # CR 706.2: a static amount shifts every counted die it sees; an optional one maps each
        # die by the decision the policy takes from that die's result (CR 706.2a).
        return Transform.MAP if self.optional else Transform.SHIFT

    def modify(self, die: DieRoll, holder: Holder[EffectBase], context: RollContext) -> Modifier | None:
        from mtgdice.rules.choices import Topic

        if not holder.sees(die.roller) or not fits(self.sides, die.die):
            return None
        if not self.optional:
            return Modifier(self.delta, holder.name)
        if not context.may_use(holder, die.die):
            return None
        current = die.result
        assert current is not None
        # values: the result if declined, then each result accepting can lead to.
        values: tuple[float | None, ...] = (current, current + self.delta)
        if self.either_direction:
            values = (current, current + self.delta, current - self.delta)
        cost = f", {self.cost.text}" if self.cost is not None else ""
        question = f"Use {holder.name} on the {die.label}{cost}?"
        if not context.ask_yes(Topic.MODIFY, question, player=holder.controller, holder=holder, values=values):
            return None
        context.use(holder)
        delta = self.delta
        if self.either_direction:
            direction = context.ask_one(
                Topic.DIRECTION,
                f"Increase or decrease the {die.label}?",
                ("increase", "decrease"),
                player=holder.controller,
                values=(current + self.delta, current - self.delta),
                holder=holder,
            )
            delta = self.delta if direction == 0 else -self.delta
        return Modifier(delta, holder.name)

    def delta_for_all(self, die: Die, holder: Holder[EffectBase]) -> int | None:
        from mtgdice.rules.players import YOU

        if self.optional:
            return None
        return self.delta if holder.sees(YOU) and fits(self.sides, die) else 0

    def _details(self) -> tuple[tuple[str, Detail], ...]:
        return (
            ("delta", self.delta),
            ("optional", self.optional),
            ("either_direction", self.either_direction),
            ("cost", self.cost.text if self.cost else None),
            ("sides", self.sides),
        )
