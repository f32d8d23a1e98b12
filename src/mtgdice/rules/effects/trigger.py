"""Triggered abilities on the events of a roll (docs/design.md §10).

``DieRolled`` happens once per counted die (roller, sides, natural, result, its number among the
roller's dice this turn), ``DiceRolled`` once per execution and roller. Ignored and rerolled-away
dice never happened (CR 706.6, Unfinity ruling), so they are not in the events. A planar die has
no number: a condition that names a number never holds for it (CR 706.7).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from mtgdice.rules.conditions import Condition
from mtgdice.rules.dice import Die, DieRoll
from mtgdice.rules.effects.base import Detail, EffectBase, Event, Step, fits
from mtgdice.rules.footprint import Footprint
from mtgdice.rules.players import Seat
from mtgdice.rules.records import direct_init
from mtgdice.rules.zones import Zone

if TYPE_CHECKING:
    from mtgdice.rules.arrays import Ints, Mask
    from mtgdice.rules.board import Holder
    from mtgdice.rules.transforms import Transform


@direct_init
@dataclass(frozen=True, slots=True)
class RollEvents:
    """The events of one execution, as triggered abilities see them.

    ``dice`` are the counted dice with planar faces as they count (face effects applied);
    ``rollers`` are the players who made the roll (one ``DiceRolled`` each); ``nth`` gives each
    die its number among its roller's dice this turn.
    """

    dice: tuple[DieRoll, ...]
    rollers: tuple[Seat, ...]
    doubles: bool
    purpose: str
    nth: Mapping[int, int]
    execution: int = 0

    def of(self, roller: Seat) -> tuple[DieRoll, ...]:
        """The dice of ``roller``'s roll: every counted die when one player rolled (a die another
        player rerolled stays part of that roll), else the dice that player rolled."""
        if len(self.rollers) == 1:
            return self.dice
        return tuple(die for die in self.dice if die.roller == roller)


@direct_init
@dataclass(frozen=True, slots=True)
class TriggerHit:
    """One triggering of a triggered ability: its card, zone, ability and the die (if per die)."""

    card: str
    zone: Zone
    trigger: Trigger
    die: int | None = None
    execution: int = 0


class TriggeredAbility(EffectBase):
    """An effect of the trigger step."""

    __slots__ = ()

    def hits(self, events: RollEvents, holder: Holder[EffectBase]) -> list[TriggerHit]:
        """Every triggering of this ability by one execution's events."""
        return []


@dataclass(frozen=True, slots=True, kw_only=True)
class Trigger(TriggeredAbility):
    """A triggered ability on a roll event.

    ``event`` is ``DIE_ROLLED`` (per counted die) or ``DICE_ROLLED`` (once per execution);
    ``condition`` filters the die; ``sides`` filters the kind ("on a d6"); ``planar`` limits it
    to the planar die; ``nth_this_turn`` to the Nth die the roller rolls this turn ("your third
    die each turn"); ``doubles`` to a roll of doubles (CR 706.5). A ``DICE_ROLLED`` trigger with a
    condition triggers once when any counted die meets it. ``effect`` is the text of what it does,
    ``numeric_effect`` whether that effect reads the result.
    """

    step: ClassVar[Step] = Step.TRIGGER
    kind: ClassVar[str] = "trigger"

    event: Event = Event.DIE_ROLLED
    condition: Condition | None = None
    sides: int | None = None
    planar: bool = False
    nth_this_turn: int | None = None
    doubles: bool = False
    purpose: str = ""
    effect: str = ""
    numeric_effect: bool = False

    def footprint(self) -> Footprint:
        found = Footprint.TRIGGERS
        if self.condition is not None:
            found |= Footprint.READS_DIE
        if self.nth_this_turn is not None:
            found |= Footprint.READS_POSITION | Footprint.TURN_STATE
        return found | self.limits()

    def transform(self) -> Transform:
        from mtgdice.rules.transforms import Transform  # here: reading card text never asks (odds do)

        # Expected triggerings are sums of indicators (per counted die, or once per execution).
        return Transform.INDICATORS

    def sees_die(self, die: DieRoll) -> bool:
        """Whether this ability looks at ``die`` at all: its kind, the planar die, its condition."""
        if self.planar and not die.die.planar:
            return False
        if not fits(self.sides, die.die):
            return False
        return self.condition is None or self.condition.holds(die)

    def hits(self, events: RollEvents, holder: Holder[EffectBase]) -> list[TriggerHit]:
        if self.purpose and self.purpose != events.purpose:
            return []
        name = holder.name
        if self.event is Event.DICE_ROLLED:
            if self.doubles and not events.doubles:
                return []
            return [
                TriggerHit(name, holder.zone, self, None, events.execution)
                for roller in events.rollers
                if holder.sees(roller) and any(self.sees_die(die) for die in events.of(roller))
            ]
        found: list[TriggerHit] = []
        for die in events.dice:
            if not holder.sees(die.roller) or not self.sees_die(die):
                continue
            if self.nth_this_turn is not None and events.nth.get(die.index) != self.nth_this_turn:
                continue
            found.append(TriggerHit(name, holder.zone, self, die.index, events.execution))
        return found

    def count_array(self, natural: Ints, result: Ints, sides: int, doubles: Mask) -> Ints | None:
        """Triggerings per lane of the vectorised simulation: ``natural`` and ``result`` are
        (counted dice x lanes) arrays of the roller's numbered dice. ``None``: not vectorised."""
        import numpy as np

        if self.nth_this_turn is not None or self.purpose or self.planar:
            return None
        if not fits(self.sides, Die(sides)):
            return np.zeros(natural.shape[1], dtype=np.int64)
        meets = (
            np.ones(natural.shape, dtype=bool)
            if self.condition is None
            else self.condition.holds_array(natural, result, sides)
        )
        if self.event is Event.DIE_ROLLED:
            return np.asarray(meets.sum(axis=0), dtype=np.int64)
        fired = np.asarray(meets.any(axis=0), dtype=np.bool_)
        if self.doubles:
            fired &= doubles
        return fired.astype(np.int64)

    def _details(self) -> tuple[tuple[str, Detail], ...]:
        return (
            ("event", self.event.value),
            ("nth_this_turn", self.nth_this_turn),
            ("doubles", self.doubles),
            ("purpose", self.purpose or None),
            ("condition", self.condition.describe() if self.condition else None),
            ("sides", self.sides),
            ("planar", self.planar),
            ("effect", self.effect),
            ("numeric_effect", self.numeric_effect),
        )
