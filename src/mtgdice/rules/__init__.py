"""The rules of dice (Comprehensive Rules 706, 705 for coins, 901.9 for the planar die), pure: no
parsing, no I/O, no printing.

Everything a roll needs is data: :class:`Die`, :class:`RollInstruction`, effects (each a class
that does its own work at its step and declares its :class:`Footprint`), a :class:`Board`;
randomness and decisions are injected (:class:`DiceSource`, :class:`Chooser`). :func:`resolve`
carries out one instruction, :func:`flip` one coin flip. This package imports nothing else from
mtgdice.

The names below are loaded when first used (PEP 562): rolling plain dice (``rules.plain``) does
not build the effect classes or the resolver.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mtgdice.rules.amounts import (
        Amount as Amount,
    )
    from mtgdice.rules.board import (
        Board as Board,
    )
    from mtgdice.rules.board import (
        Holder as Holder,
    )
    from mtgdice.rules.board import (
        Permanent as Permanent,
    )
    from mtgdice.rules.choices import (
        Answer as Answer,
    )
    from mtgdice.rules.choices import (
        Ask as Ask,
    )
    from mtgdice.rules.choices import (
        Chooser as Chooser,
    )
    from mtgdice.rules.choices import (
        Decision as Decision,
    )
    from mtgdice.rules.choices import (
        Policy as Policy,
    )
    from mtgdice.rules.choices import (
        PolicyChooser as PolicyChooser,
    )
    from mtgdice.rules.choices import (
        ScriptedChooser as ScriptedChooser,
    )
    from mtgdice.rules.choices import (
        Topic as Topic,
    )
    from mtgdice.rules.coins import (
        COIN as COIN,
    )
    from mtgdice.rules.coins import (
        CoinFace as CoinFace,
    )
    from mtgdice.rules.coins import (
        CoinFlip as CoinFlip,
    )
    from mtgdice.rules.coins import (
        FlipInstruction as FlipInstruction,
    )
    from mtgdice.rules.coins import (
        FlipResolution as FlipResolution,
    )
    from mtgdice.rules.coins import (
        flip as flip,
    )
    from mtgdice.rules.conditions import (
        AnyOf as AnyOf,
    )
    from mtgdice.rules.conditions import (
        Condition as Condition,
    )
    from mtgdice.rules.conditions import (
        FaceIs as FaceIs,
    )
    from mtgdice.rules.conditions import (
        InRange as InRange,
    )
    from mtgdice.rules.conditions import (
        NaturalMax as NaturalMax,
    )
    from mtgdice.rules.conditions import (
        Parity as Parity,
    )
    from mtgdice.rules.dice import (
        PLANAR_DIE as PLANAR_DIE,
    )
    from mtgdice.rules.dice import (
        Die as Die,
    )
    from mtgdice.rules.dice import (
        DieRoll as DieRoll,
    )
    from mtgdice.rules.dice import (
        Face as Face,
    )
    from mtgdice.rules.dice import (
        Fate as Fate,
    )
    from mtgdice.rules.dice import (
        Modifier as Modifier,
    )
    from mtgdice.rules.dice import (
        PlanarFace as PlanarFace,
    )
    from mtgdice.rules.effects import (
        EFFECT_KINDS as EFFECT_KINDS,
    )
    from mtgdice.rules.effects import (
        Cost as Cost,
    )
    from mtgdice.rules.effects import (
        Effect as Effect,
    )
    from mtgdice.rules.effects import (
        EffectBase as EffectBase,
    )
    from mtgdice.rules.effects import (
        Event as Event,
    )
    from mtgdice.rules.effects import (
        ExtraDice as ExtraDice,
    )
    from mtgdice.rules.effects import (
        FaceCountsAs as FaceCountsAs,
    )
    from mtgdice.rules.effects import (
        IgnoreMode as IgnoreMode,
    )
    from mtgdice.rules.effects import (
        PairEachCoin as PairEachCoin,
    )
    from mtgdice.rules.effects import (
        PairEachDie as PairEachDie,
    )
    from mtgdice.rules.effects import (
        Passive as Passive,
    )
    from mtgdice.rules.effects import (
        ReflipPermission as ReflipPermission,
    )
    from mtgdice.rules.effects import (
        RerollPermission as RerollPermission,
    )
    from mtgdice.rules.effects import (
        ResultModifier as ResultModifier,
    )
    from mtgdice.rules.effects import (
        RollPlan as RollPlan,
    )
    from mtgdice.rules.effects import (
        Step as Step,
    )
    from mtgdice.rules.effects import (
        Trigger as Trigger,
    )
    from mtgdice.rules.effects import (
        TriggerHit as TriggerHit,
    )
    from mtgdice.rules.footprint import (
        Footprint as Footprint,
    )
    from mtgdice.rules.instruction import (
        Comparison as Comparison,
    )
    from mtgdice.rules.instruction import (
        DiceGroup as DiceGroup,
    )
    from mtgdice.rules.instruction import (
        Extreme as Extreme,
    )
    from mtgdice.rules.instruction import (
        Outcome as Outcome,
    )
    from mtgdice.rules.instruction import (
        Reads as Reads,
    )
    from mtgdice.rules.instruction import (
        Roller as Roller,
    )
    from mtgdice.rules.instruction import (
        RollInstruction as RollInstruction,
    )
    from mtgdice.rules.planar import (
        check_planar_action as check_planar_action,
    )
    from mtgdice.rules.planar import (
        planar_action_cost as planar_action_cost,
    )
    from mtgdice.rules.players import (
        OPPONENT as OPPONENT,
    )
    from mtgdice.rules.players import (
        YOU as YOU,
    )
    from mtgdice.rules.players import (
        Decider as Decider,
    )
    from mtgdice.rules.players import (
        Scope as Scope,
    )
    from mtgdice.rules.players import (
        Seat as Seat,
    )
    from mtgdice.rules.players import (
        seat_from_name as seat_from_name,
    )
    from mtgdice.rules.players import (
        seat_name as seat_name,
    )
    from mtgdice.rules.resolution import (
        MAX_DICE as MAX_DICE,
    )
    from mtgdice.rules.resolution import (
        MAX_EXECUTIONS as MAX_EXECUTIONS,
    )
    from mtgdice.rules.resolution import (
        MAX_REROLLS as MAX_REROLLS,
    )
    from mtgdice.rules.resolution import (
        Execution as Execution,
    )
    from mtgdice.rules.resolution import (
        Resolution as Resolution,
    )
    from mtgdice.rules.resolution import (
        TurnState as TurnState,
    )
    from mtgdice.rules.resolution import (
        effects_of as effects_of,
    )
    from mtgdice.rules.resolution import (
        plan_of as plan_of,
    )
    from mtgdice.rules.resolution import (
        resolve as resolve,
    )
    from mtgdice.rules.sources import (
        DiceSource as DiceSource,
    )
    from mtgdice.rules.sources import (
        ScriptedSource as ScriptedSource,
    )
    from mtgdice.rules.sources import (
        SecureSource as SecureSource,
    )
    from mtgdice.rules.sources import (
        SeededSource as SeededSource,
    )
    from mtgdice.rules.tables import (
        ResultsTable as ResultsTable,
    )
    from mtgdice.rules.tables import (
        Row as Row,
    )
    from mtgdice.rules.zones import (
        ZONE_ORDER as ZONE_ORDER,
    )
    from mtgdice.rules.zones import (
        Zone as Zone,
    )

_WHERE = {
    "Amount": "mtgdice.rules.amounts",
    "Answer": "mtgdice.rules.choices",
    "AnyOf": "mtgdice.rules.conditions",
    "Ask": "mtgdice.rules.choices",
    "Board": "mtgdice.rules.board",
    "COIN": "mtgdice.rules.coins",
    "Chooser": "mtgdice.rules.choices",
    "CoinFace": "mtgdice.rules.coins",
    "CoinFlip": "mtgdice.rules.coins",
    "Comparison": "mtgdice.rules.instruction",
    "Condition": "mtgdice.rules.conditions",
    "Cost": "mtgdice.rules.effects",
    "Decider": "mtgdice.rules.players",
    "Decision": "mtgdice.rules.choices",
    "DiceGroup": "mtgdice.rules.instruction",
    "DiceSource": "mtgdice.rules.sources",
    "Die": "mtgdice.rules.dice",
    "DieRoll": "mtgdice.rules.dice",
    "EFFECT_KINDS": "mtgdice.rules.effects",
    "Effect": "mtgdice.rules.effects",
    "EffectBase": "mtgdice.rules.effects",
    "Event": "mtgdice.rules.effects",
    "Execution": "mtgdice.rules.resolution",
    "ExtraDice": "mtgdice.rules.effects",
    "Extreme": "mtgdice.rules.instruction",
    "Face": "mtgdice.rules.dice",
    "FaceCountsAs": "mtgdice.rules.effects",
    "FaceIs": "mtgdice.rules.conditions",
    "Fate": "mtgdice.rules.dice",
    "FlipInstruction": "mtgdice.rules.coins",
    "FlipResolution": "mtgdice.rules.coins",
    "Footprint": "mtgdice.rules.footprint",
    "Holder": "mtgdice.rules.board",
    "IgnoreMode": "mtgdice.rules.effects",
    "InRange": "mtgdice.rules.conditions",
    "MAX_DICE": "mtgdice.rules.resolution",
    "MAX_EXECUTIONS": "mtgdice.rules.resolution",
    "MAX_REROLLS": "mtgdice.rules.resolution",
    "Modifier": "mtgdice.rules.dice",
    "NaturalMax": "mtgdice.rules.conditions",
    "Parity": "mtgdice.rules.conditions",
    "OPPONENT": "mtgdice.rules.players",
    "Outcome": "mtgdice.rules.instruction",
    "PLANAR_DIE": "mtgdice.rules.dice",
    "PairEachCoin": "mtgdice.rules.effects",
    "PairEachDie": "mtgdice.rules.effects",
    "Passive": "mtgdice.rules.effects",
    "Permanent": "mtgdice.rules.board",
    "PlanarFace": "mtgdice.rules.dice",
    "Policy": "mtgdice.rules.choices",
    "PolicyChooser": "mtgdice.rules.choices",
    "Reads": "mtgdice.rules.instruction",
    "ReflipPermission": "mtgdice.rules.effects",
    "RerollPermission": "mtgdice.rules.effects",
    "Resolution": "mtgdice.rules.resolution",
    "ResultModifier": "mtgdice.rules.effects",
    "ResultsTable": "mtgdice.rules.tables",
    "RollInstruction": "mtgdice.rules.instruction",
    "RollPlan": "mtgdice.rules.effects",
    "Roller": "mtgdice.rules.instruction",
    "Row": "mtgdice.rules.tables",
    "Scope": "mtgdice.rules.players",
    "ScriptedChooser": "mtgdice.rules.choices",
    "ScriptedSource": "mtgdice.rules.sources",
    "Seat": "mtgdice.rules.players",
    "SecureSource": "mtgdice.rules.sources",
    "SeededSource": "mtgdice.rules.sources",
    "Step": "mtgdice.rules.effects",
    "Topic": "mtgdice.rules.choices",
    "Trigger": "mtgdice.rules.effects",
    "TriggerHit": "mtgdice.rules.effects",
    "TurnState": "mtgdice.rules.resolution",
    "YOU": "mtgdice.rules.players",
    "ZONE_ORDER": "mtgdice.rules.zones",
    "Zone": "mtgdice.rules.zones",
    "check_planar_action": "mtgdice.rules.planar",
    "effects_of": "mtgdice.rules.resolution",
    "flip": "mtgdice.rules.coins",
    "plan_of": "mtgdice.rules.resolution",
    "planar_action_cost": "mtgdice.rules.planar",
    "resolve": "mtgdice.rules.resolution",
    "seat_from_name": "mtgdice.rules.players",
    "seat_name": "mtgdice.rules.players",
}
"""Where each public name lives."""


__all__ = [
    "COIN",
    "EFFECT_KINDS",
    "MAX_DICE",
    "MAX_EXECUTIONS",
    "MAX_REROLLS",
    "OPPONENT",
    "PLANAR_DIE",
    "YOU",
    "ZONE_ORDER",
    "Amount",
    "Answer",
    "AnyOf",
    "Ask",
    "Board",
    "Chooser",
    "CoinFace",
    "CoinFlip",
    "Comparison",
    "Condition",
    "Cost",
    "Decider",
    "Decision",
    "DiceGroup",
    "DiceSource",
    "Die",
    "DieRoll",
    "Effect",
    "EffectBase",
    "Event",
    "Execution",
    "Extreme",
    "ExtraDice",
    "Face",
    "FaceCountsAs",
    "FaceIs",
    "Fate",
    "FlipInstruction",
    "FlipResolution",
    "Footprint",
    "Holder",
    "IgnoreMode",
    "InRange",
    "Modifier",
    "NaturalMax",
    "Parity",
    "Outcome",
    "PairEachCoin",
    "PairEachDie",
    "Passive",
    "Permanent",
    "PlanarFace",
    "Policy",
    "PolicyChooser",
    "Reads",
    "ReflipPermission",
    "RerollPermission",
    "Resolution",
    "ResultModifier",
    "ResultsTable",
    "RollInstruction",
    "RollPlan",
    "Roller",
    "Row",
    "Scope",
    "ScriptedChooser",
    "ScriptedSource",
    "Seat",
    "SecureSource",
    "SeededSource",
    "Step",
    "Topic",
    "Trigger",
    "TriggerHit",
    "TurnState",
    "Zone",
    "check_planar_action",
    "effects_of",
    "flip",
    "plan_of",
    "planar_action_cost",
    "resolve",
    "seat_from_name",
    "seat_name",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'mtgdice.rules' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
