"""The rules of dice (Comprehensive Rules 706, 705 for coins, 901.9 for the planar die), pure: no
parsing, no I/O, no printing.

Everything a roll needs is data: :class:`Die`, :class:`RollInstruction`, effects (each a class
that does its own work at its step and declares its :class:`Footprint`), a :class:`Board`;
randomness and decisions are injected (:class:`DiceSource`, :class:`Chooser`). :func:`resolve`
carries out one instruction, :func:`flip` one coin flip. This package imports nothing else from
mtgdice.
"""

from mtgdice.rules.amounts import Amount
from mtgdice.rules.board import Board, Holder, Permanent
from mtgdice.rules.choices import (
    Answer,
    Ask,
    Chooser,
    Decision,
    Policy,
    PolicyChooser,
    ScriptedChooser,
    Topic,
)
from mtgdice.rules.coins import COIN, CoinFace, CoinFlip, FlipInstruction, FlipResolution, flip
from mtgdice.rules.conditions import AnyOf, Condition, FaceIs, InRange, NaturalMax
from mtgdice.rules.dice import PLANAR_DIE, Die, DieRoll, Face, Fate, Modifier, PlanarFace
from mtgdice.rules.effects import (
    EFFECT_KINDS,
    Cost,
    Effect,
    EffectBase,
    Event,
    ExtraDice,
    FaceCountsAs,
    IgnoreMode,
    PairEachCoin,
    PairEachDie,
    Passive,
    ReflipPermission,
    RerollPermission,
    ResultModifier,
    RollPlan,
    Step,
    Trigger,
    TriggerHit,
)
from mtgdice.rules.footprint import Footprint
from mtgdice.rules.instruction import Comparison, DiceGroup, Extreme, Outcome, Reads, Roller, RollInstruction
from mtgdice.rules.planar import check_planar_action, planar_action_cost
from mtgdice.rules.players import OPPONENT, YOU, Decider, Scope, Seat, seat_from_name, seat_name
from mtgdice.rules.resolve import (
    MAX_DICE,
    MAX_EXECUTIONS,
    MAX_REROLLS,
    Execution,
    Resolution,
    TurnState,
    effects_of,
    plan_of,
    resolve,
)
from mtgdice.rules.sources import DiceSource, ScriptedSource, SecureSource, SeededSource
from mtgdice.rules.tables import ResultsTable, Row
from mtgdice.rules.zones import ZONE_ORDER, Zone

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
