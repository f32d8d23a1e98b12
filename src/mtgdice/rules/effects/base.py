"""The effect protocol: fields every effect has, its step, its footprint, and what it may ask of a roll.

An effect is a frozen value the compiler builds from text. Its class says at which step of the
pipeline it acts (:class:`Step`), what of a roll it reads or changes (:meth:`EffectBase.footprint`,
:mod:`mtgdice.rules.footprint`), and how it acts: each step has a small base class with one method
the resolver calls (``Replacement.replace``, ``RerollEffect.consider``, ``ModifierEffect.modify``,
``FaceEffect.seen``, ``TriggeredAbility.hits``). What an effect may do to the roll in progress goes
through :class:`RollContext`, which the resolver implements: ask a player, use a limited ability
and pay its cost, reroll a die. The resolver never looks at an effect's card name or text.

This module leaves out the kinds themselves (``replacement``, ``reroll``, ``modifier``, ``face``,
``trigger``, ``passive``, ``coin``) and the loop over the steps (``rules/resolution.py``).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol

from mtgdice.rules.dice import Die, DieRoll
from mtgdice.rules.footprint import Footprint
from mtgdice.rules.players import Scope, Seat
from mtgdice.rules.zones import Zone

if TYPE_CHECKING:
    from mtgdice.rules.board import Holder
    from mtgdice.rules.choices import Topic
    from mtgdice.rules.transforms import Transform


class Step(enum.Enum):
    """Where in the pipeline an effect acts (rules/resolution.py, docs/design.md)."""

    COUNT = "count"  # replacements of "roll one or more dice": add dice and ignore some (CR 616, 706.6)
    EACH_DIE = "each die"  # replacements of "roll a die": roll two of that die and ignore one
    REROLL = "reroll"  # permissions to reroll (CR 706.2b, first)
    MODIFY = "modify"  # ±N to the result, static or optional with a cost (CR 706.2, 706.2a, 706.2b second)
    FACE = "face"  # a planar face that counts as another
    TRIGGER = "trigger"  # abilities that trigger on DieRolled / DiceRolled events
    COIN = "coin"  # effects on coin flips (CR 705)
    NONE = "none"  # abilities about dice that change no roll while it resolves


REPLACEMENT_STEPS = (Step.COUNT, Step.EACH_DIE)


class Event(enum.Enum):
    """The two events of a roll (docs/design.md §10)."""

    DIE_ROLLED = "die rolled"  # once per counted die: "whenever you roll a die / a 6"
    DICE_ROLLED = "dice rolled"  # once per execution and roller: "whenever you roll one or more dice"


@dataclass(frozen=True, slots=True)
class Cost:
    """A cost to use an optional effect. ``counter`` names a counter removed from the permanent
    (paid once per counter it has); ``tap`` means tapping the permanent (once per resolution)."""

    text: str
    counter: str | None = None
    tap: bool = False

    def footprint(self) -> Footprint:
        """A cost with state limits how often it can be paid: which die gets it depends on order."""
        if self.counter is not None or self.tap:
            return Footprint.LIMITED | Footprint.BOARD_STATE
        return Footprint.NONE


class RollContext(Protocol):
    """What an effect may do to the roll in progress (the resolver provides it)."""

    @property
    def dice(self) -> tuple[DieRoll, ...]:
        """The dice of the execution in progress, as they stand, in roll order."""
        ...

    def ask_yes(
        self,
        topic: Topic,
        prompt: str,
        *,
        player: Seat,
        holder: Holder[EffectBase] | None = None,
        values: Sequence[float | None] = (),
    ) -> bool: ...

    def ask_one(
        self,
        topic: Topic,
        prompt: str,
        options: Sequence[str],
        *,
        player: Seat,
        values: Sequence[float | None] = (),
        invert: bool = False,
        holder: Holder[EffectBase] | None = None,
    ) -> int: ...

    def ask_subset(
        self,
        topic: Topic,
        prompt: str,
        options: Sequence[str],
        *,
        player: Seat,
        holder: Holder[EffectBase] | None = None,
    ) -> tuple[int, ...]: ...

    def may_use(self, holder: Holder[EffectBase], die: Die | None = None) -> bool:
        """Whether the effect can be used now: its die kind, its once-each-turn use, its cost."""
        ...

    def use(self, holder: Holder[EffectBase]) -> None:
        """Record a use: once each turn, and pay the cost (tap, remove one counter)."""
        ...

    def made_by(self, die: DieRoll, holder: Holder[EffectBase]) -> bool:
        """Whether ``die`` is the new roll of a reroll this holder's effect made."""
        ...

    def reroll(self, die: DieRoll, roller: Seat, holder: Holder[EffectBase]) -> None:
        """Reroll ``die`` (CR 706.2b): the old roll never happened; the new one is rolled by ``roller``."""
        ...


@dataclass(frozen=True, slots=True, kw_only=True)
class EffectBase:
    """Fields every effect has: where it functions (``zone``), whose rolls it sees (``scope``),
    from which Class level it exists, and whether it is limited to once each turn."""

    step: ClassVar[Step] = Step.NONE
    kind: ClassVar[str] = "effect"

    zone: Zone = Zone.BATTLEFIELD
    scope: Scope = Scope.YOU
    level: int = 1
    once_each_turn: bool = False
    text: str = ""

    def footprint(self) -> Footprint:
        """What this effect reads or changes of a roll. A class that does not say is UNDECLARED,
        which every shortcut of the odds engine and the simulation refuses (default-deny)."""
        return Footprint.UNDECLARED

    def transform(self) -> Transform | None:
        """How this effect changes the law of the dice it acts on (:mod:`mtgdice.rules.transforms`).
        A class that does not say has ``None``, and the odds engine enumerates (default-deny)."""
        return None

    def limits(self) -> Footprint:
        """The part of a footprint that once-each-turn uses add."""
        return Footprint.LIMITED | Footprint.TURN_STATE if self.once_each_turn else Footprint.NONE

    def description(self) -> Description:
        """What this effect is, as a value (what ``compile`` shows of it; the compiler's own words in ``text``).

        >>> from mtgdice.rules.effects.modifier import ResultModifier
        >>> ResultModifier(delta=1, text="+1").description().details[0]
        ('delta', 1)
        """
        return Description(
            self.kind, self.step, self.zone, self.scope, self.level, self.once_each_turn, self._details(), self.text
        )

    def describe(self) -> dict[str, Detail]:
        """:meth:`description` as one flat mapping of names to values, in order: ``kind``, ``step``,
        ``zone``, ``scope``, ``level`` (when not 1), ``once_each_turn`` (when true), the details, ``text``."""
        return self.description().flat()

    def _details(self) -> tuple[tuple[str, Detail], ...]:
        return ()


Detail = int | str | bool | None
"""One detail of an effect: a number, a word or phrase, a flag, or nothing."""


@dataclass(frozen=True, slots=True)
class Description:
    """An effect described as data: its kind, the CR step it acts at, its zone and scope, the Class
    level it exists from, whether once each turn, the details its kind has (name and value, in order),
    and its text."""

    kind: str
    step: Step
    zone: Zone
    scope: Scope
    level: int
    once_each_turn: bool
    details: tuple[tuple[str, Detail], ...]
    text: str

    def flat(self) -> dict[str, Detail]:
        """Every field by name, the details among them (a level of 1 and a false once-each-turn left out)."""
        data: dict[str, Detail] = {
            "kind": self.kind,
            "step": self.step.value,
            "zone": self.zone.value,
            "scope": self.scope.value,
        }
        if self.level != 1:
            data["level"] = self.level
        if self.once_each_turn:
            data["once_each_turn"] = True
        data.update(self.details)
        data["text"] = self.text
        return data


def fits(sides: int | None, die: Die) -> bool:
    """Whether an effect limited to dice with ``sides`` (``None``: any die) sees ``die``."""
    return sides is None or sides == die.sides
