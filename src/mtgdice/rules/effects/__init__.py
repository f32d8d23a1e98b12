"""Effects that act on other rolls: one class per kind, each acting at its own step (docs/design.md).

A kind is a frozen dataclass built by the compiler from text; it declares its footprint and does
its own work when the resolver reaches its step (:mod:`mtgdice.rules.effects.base`). Kinds are
found through :data:`EFFECT_KINDS` by their JSON ``kind``; adding one means a new class here —
the resolver, the odds engine and the simulation need no change (the footprint tells them what
they may shortcut; an undeclared one sends them the exact way).
"""

from mtgdice.rules.effects.base import Cost, Description, Detail, EffectBase, Event, RollContext, Step
from mtgdice.rules.effects.coin import CoinEffect, CoinTrigger, PairEachCoin, ReflipPermission
from mtgdice.rules.effects.face import FaceCountsAs, FaceEffect
from mtgdice.rules.effects.modifier import ModifierEffect, ResultModifier
from mtgdice.rules.effects.passive import Passive
from mtgdice.rules.effects.replacement import ChosenIgnore, ExtraDice, IgnoreMode, PairEachDie, Replacement, RollPlan
from mtgdice.rules.effects.reroll import RerollEffect, RerollPermission
from mtgdice.rules.effects.trigger import RollEvents, Trigger, TriggeredAbility, TriggerHit

Effect = EffectBase
"""Any effect (the base class every kind derives from)."""

EFFECT_KINDS: dict[str, type[EffectBase]] = {
    cls.kind: cls
    for cls in (
        ExtraDice,
        PairEachDie,
        RerollPermission,
        ResultModifier,
        FaceCountsAs,
        Trigger,
        Passive,
        PairEachCoin,
        ReflipPermission,
        CoinTrigger,
    )
}

__all__ = [
    "EFFECT_KINDS",
    "ChosenIgnore",
    "CoinEffect",
    "CoinTrigger",
    "Cost",
    "Description",
    "Detail",
    "Effect",
    "EffectBase",
    "Event",
    "ExtraDice",
    "FaceCountsAs",
    "FaceEffect",
    "IgnoreMode",
    "ModifierEffect",
    "PairEachCoin",
    "PairEachDie",
    "Passive",
    "ReflipPermission",
    "Replacement",
    "RerollEffect",
    "RerollPermission",
    "ResultModifier",
    "RollContext",
    "RollEvents",
    "RollPlan",
    "Step",
    "Trigger",
    "TriggerHit",
    "TriggeredAbility",
]
