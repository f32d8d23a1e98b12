"""Effects on coin flips (CR 705): a partner coin for each flip, a permission to reflip a coin.

- :class:`PairEachCoin`: "if you would flip a coin, instead flip two coins and ignore one" (with
  several, N+1 coins and N ignored, as that kind's ruling has it).
- :class:`ReflipPermission`: "reflip any coin" (activated, with its cost): the old flip is ignored
  and a new coin is flipped, which the partner replacement meets again.

The flip itself, its call and its result are :mod:`mtgdice.rules.coins`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from mtgdice.rules.effects.base import Cost, Detail, EffectBase, RollContext, Step
from mtgdice.rules.footprint import Footprint
from mtgdice.rules.players import Seat

if TYPE_CHECKING:
    from mtgdice.rules.board import Holder
    from mtgdice.rules.transforms import Transform


class CoinEffect(EffectBase):
    """An effect on coin flips."""

    __slots__ = ()

    def transform(self) -> Transform:
        from mtgdice.rules.transforms import Transform  # here: reading card text never asks (odds do)

        return Transform.IDENTITY  # a coin is never a die: no die's law changes (CR 705)

    def partners(self) -> int:
        """How many coins this effect adds to each flip (a replacement, CR 616)."""
        return 0

    def consider_coin(self, label: str, flipper: Seat, holder: Holder[EffectBase], context: RollContext) -> bool:
        """Offer a reflip of one counted coin; True when it is to be reflipped."""
        return False


@dataclass(frozen=True, slots=True, kw_only=True)
class PairEachCoin(CoinEffect):
    """Flip ``1 + extra`` coins instead of one and ignore ``extra`` of them (the flipper chooses)."""

    step: ClassVar[Step] = Step.COIN
    kind: ClassVar[str] = "pair each coin"

    extra: int = 1

    def footprint(self) -> Footprint:
        return Footprint.ADDS_DICE | Footprint.GROUPS | Footprint.DECIDES

    def partners(self) -> int:
        return self.extra

    def _details(self) -> tuple[tuple[str, Detail], ...]:
        return (("extra", self.extra),)


@dataclass(frozen=True, slots=True, kw_only=True)
class ReflipPermission(CoinEffect):
    """Reflip a coin, paying ``cost`` (its controller decides, docs/design.md §15)."""

    step: ClassVar[Step] = Step.COIN
    kind: ClassVar[str] = "reflip"

    cost: Cost | None = None
    activated: bool = False

    def footprint(self) -> Footprint:
        found = Footprint.REROLLS | Footprint.DECIDES | self.limits()
        return found | self.cost.footprint() if self.cost is not None else found

    def consider_coin(self, label: str, flipper: Seat, holder: Holder[EffectBase], context: RollContext) -> bool:
        from mtgdice.rules.choices import Topic

        if not holder.sees(flipper) or not context.may_use(holder):
            return False
        cost = f", {self.cost.text}" if self.cost is not None else ""
        if not context.ask_yes(
            Topic.REFLIP,
            f"Reflip the coin showing {label} ({holder.name}{cost})?",
            player=holder.controller,
            holder=holder,
        ):
            return False
        context.use(holder)
        return True

    def _details(self) -> tuple[tuple[str, Detail], ...]:
        return (
            ("cost", self.cost.text if self.cost else None),
            ("activated", self.activated),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class CoinTrigger(CoinEffect):
    """ "Whenever <who> win(s) (or lose(s)) a coin flip, <effect>" (CR 603, 705.1): triggers once
    per counted flip won (or lost) by a player its scope sees; an uncalled flip triggers nothing."""

    step: ClassVar[Step] = Step.COIN
    kind: ClassVar[str] = "coin trigger"

    won: bool = True
    batch: bool = False
    """ "one or more coin flips": triggers once per execution whatever the number of flips it meets."""
    effect: str = ""

    def footprint(self) -> Footprint:
        return Footprint.TRIGGERS

    def hits(self, won: bool) -> bool:
        """Whether a flip won (``True``) or lost triggers this ability."""
        return won is self.won

    def _details(self) -> tuple[tuple[str, Detail], ...]:
        event = "won flip" if self.won else "lost flip"
        return (("event", event + "s" if self.batch else event), ("effect", self.effect))
