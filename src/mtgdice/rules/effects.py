"""Effects that act on other rolls, as frozen data (DESIGN.md §2, §3).

Each effect class names the pipeline step it acts in (``step``) and a ``kind`` used in JSON; the
resolver gathers the effects of a board by step and never looks at a card's name or text. Every
effect also says where it functions (``zone``: battlefield, graveyard, command), whose rolls it
sees (``scope``: ``"you"`` — its controller's —, ``"opponent"`` — another player's — or ``"any"``
player's), from which Class level it
exists, and whether it is limited to once each turn.

Steps, in pipeline order (rules/resolve.py):

- ``COUNT`` — replacements of "roll one or more dice": add dice and ignore some (CR 616, 706.6);
- ``EACH_DIE`` — replacements of "roll a die": roll two of that die and ignore one;
- ``REROLL`` — permissions to reroll (CR 706.2b, first);
- ``MODIFY`` — ±N to the result, static or optional with a cost (CR 706.2, 706.2a, 706.2b second);
- ``FACE`` — a planar face that counts as another ("each blank roll is a chaos roll");
- ``TRIGGER`` — abilities that trigger on ``DieRolled`` / ``DiceRolled`` events;
- ``NONE`` — abilities about dice that change no roll while it resolves (kept so that the
  compiler reports them as understood, and so renderers can show them).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, ClassVar

from mtgdice.rules.conditions import Condition
from mtgdice.rules.dice import PlanarFace


class Step(enum.Enum):
    COUNT = "count"
    EACH_DIE = "each die"
    REROLL = "reroll"
    MODIFY = "modify"
    FACE = "face"
    TRIGGER = "trigger"
    NONE = "none"


class Zone(enum.Enum):
    """Where a permanent or card is, for the roller (json-interface.md zones)."""

    BATTLEFIELD = "battlefield"
    OPPONENTS = "opponents"
    GRAVEYARD = "graveyard"
    COMMAND = "command"


ZONE_ORDER = (Zone.BATTLEFIELD, Zone.OPPONENTS, Zone.GRAVEYARD, Zone.COMMAND)


class Event(enum.Enum):
    """The two events of a roll (DESIGN.md §3.10)."""

    DIE_ROLLED = "die rolled"  # once per counted die: "whenever you roll a die / a 6"
    DICE_ROLLED = "dice rolled"  # once per execution: "whenever you roll one or more dice"


@dataclass(frozen=True, slots=True)
class Cost:
    """A cost to use an optional effect. ``counter`` names a counter removed from the permanent;
    ``tap`` means tapping the permanent (or another untapped one of a kind)."""

    text: str
    counter: str | None = None
    tap: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class EffectBase:
    """Fields every effect has."""

    step: ClassVar[Step] = Step.NONE
    kind: ClassVar[str] = "effect"

    zone: Zone = Zone.BATTLEFIELD
    scope: str = "you"
    level: int = 1
    once_each_turn: bool = False
    text: str = ""

    def describe(self) -> dict[str, Any]:
        """A JSON-ready description (json-interface.md leaves the shape of effects to us)."""
        data: dict[str, Any] = {
            "kind": self.kind,
            "step": self.step.value,
            "zone": self.zone.value,
            "scope": self.scope,
        }
        if self.level != 1:
            data["level"] = self.level
        if self.once_each_turn:
            data["once_each_turn"] = True
        data.update(self._details())
        data["text"] = self.text
        return data

    def _details(self) -> dict[str, Any]:
        return {}


@dataclass(frozen=True, slots=True, kw_only=True)
class ExtraDice(EffectBase):
    """ "Instead roll that many dice plus one and ignore the lowest roll" (the advantage kind).

    ``ignore`` is ``"lowest"`` (compares numbers, so never for the planar die, CR 706.7) or
    ``"chosen"`` (the player named by ``chosen_by`` picks; works with any die). ``sides`` limits it
    to one kind of die.
    """

    step: ClassVar[Step] = Step.COUNT
    kind: ClassVar[str] = "extra dice"

    extra: int = 1
    ignore: str = "lowest"
    chosen_by: str = "roller"
    sides: int | None = None
    optional: bool = False

    def _details(self) -> dict[str, Any]:
        return {
            "extra": self.extra,
            "ignore": self.ignore,
            "chosen_by": self.chosen_by,
            "sides": self.sides,
            "optional": self.optional,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class PairEachDie(EffectBase):
    """ "If you would roll a die, instead roll two of those dice and ignore one of those results"."""

    step: ClassVar[Step] = Step.EACH_DIE
    kind: ClassVar[str] = "pair each die"

    sides: int | None = None

    def _details(self) -> dict[str, Any]:
        return {"sides": self.sides}


@dataclass(frozen=True, slots=True, kw_only=True)
class RerollPermission(EffectBase):
    """A permission to reroll a die (CR 706.2b), maybe conditional, costed, or for several dice.

    ``condition`` is checked on the die as it stands in the reroll window (before any ±N);
    ``many`` is "reroll one or more dice" (one decision picks the dice); ``rerolled_by`` is who
    rolls the new die: ``"roller"`` (the default) or ``"controller"`` (the effect's controller);
    ``again`` is false for "reroll ... once", which does not apply to the die its reroll rolled.
    """

    step: ClassVar[Step] = Step.REROLL
    kind: ClassVar[str] = "reroll"

    condition: Condition | None = None
    sides: int | None = None
    cost: Cost | None = None
    many: bool = False
    rerolled_by: str = "roller"
    activated: bool = False
    again: bool = True

    def _details(self) -> dict[str, Any]:
        return {
            "condition": self.condition.describe() if self.condition else None,
            "sides": self.sides,
            "cost": self.cost.text if self.cost else None,
            "many": self.many,
            "activated": self.activated,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultModifier(EffectBase):
    """ "Increase the result of each die you roll by 2" (static), or "you may pay 1 life; if you do,
    increase or decrease the result by 1" (optional, costed, maybe either direction)."""

    step: ClassVar[Step] = Step.MODIFY
    kind: ClassVar[str] = "modifier"

    delta: int = 0
    optional: bool = False
    either_direction: bool = False
    cost: Cost | None = None
    sides: int | None = None

    def _details(self) -> dict[str, Any]:
        return {
            "delta": self.delta,
            "optional": self.optional,
            "either_direction": self.either_direction,
            "cost": self.cost.text if self.cost else None,
            "sides": self.sides,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class FaceCountsAs(EffectBase):
    """A planar face that counts as another for everything that reads it."""

    step: ClassVar[Step] = Step.FACE
    kind: ClassVar[str] = "face counts as"

    face: PlanarFace = PlanarFace.BLANK
    counts_as: PlanarFace = PlanarFace.CHAOS

    def _details(self) -> dict[str, Any]:
        return {"face": self.face.value, "counts_as": self.counts_as.value}


@dataclass(frozen=True, slots=True, kw_only=True)
class Trigger(EffectBase):
    """A triggered ability on a roll event (DESIGN.md §3.10).

    ``event`` is ``DIE_ROLLED`` (per counted die) or ``DICE_ROLLED`` (once per execution).
    ``condition`` filters the die; ``sides`` filters the kind ("on a d6"); ``planar``
    limits it to the planar die ("whenever you roll the planar die"); ``nth_this_turn`` to the
    Nth counted die the roller rolls this turn ("your third die each turn"); ``doubles`` to a roll
    of doubles (CR 706.5). A ``DICE_ROLLED`` trigger with a condition triggers once when any
    counted die meets it. ``effect`` is the text of
    what it does, ``numeric_effect`` whether that effect reads the result.
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

    def _details(self) -> dict[str, Any]:
        return {
            "event": self.event.value,
            "nth_this_turn": self.nth_this_turn,
            "doubles": self.doubles,
            "purpose": self.purpose or None,
            "condition": self.condition.describe() if self.condition else None,
            "sides": self.sides,
            "planar": self.planar,
            "effect": self.effect,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Passive(EffectBase):
    """An ability about dice that changes nothing while a roll resolves.

    ``what`` says which (``"protection from die rolls"``, ``"exchange result"``,
    ``"use stored result"``, ``"rolled this turn"``, ``"stack dice"``); ``note`` says why it does
    not act in ``resolve``.
    """

    kind: ClassVar[str] = "passive"

    what: str = ""
    note: str = ""
    details: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    def _details(self) -> dict[str, Any]:
        return {"what": self.what, "note": self.note, **self.details}


Effect = ExtraDice | PairEachDie | RerollPermission | ResultModifier | FaceCountsAs | Trigger | Passive

EFFECT_KINDS: dict[str, type[EffectBase]] = {
    cls.kind: cls for cls in (ExtraDice, PairEachDie, RerollPermission, ResultModifier, FaceCountsAs, Trigger, Passive)
}
