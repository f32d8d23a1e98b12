"""The rules of dice (Comprehensive Rules 706), pure: no parsing, no I/O, no printing.

Everything a roll needs is data: :class:`Die`, :class:`RollInstruction`, effects, a
:class:`Board`; randomness and decisions are injected (:class:`DiceSource`, :class:`Chooser`).
:func:`resolve` carries out one instruction. This package imports nothing else from mtgdice.
"""

from mtgdice.rules.amounts import Amount
from mtgdice.rules.board import Board, Permanent
from mtgdice.rules.choices import (
    Ask,
    Chooser,
    Decision,
    Policy,
    PolicyChooser,
    ScriptedChooser,
    Topic,
)
from mtgdice.rules.conditions import AnyOf, Condition, FaceIs, InRange, NaturalMax
from mtgdice.rules.dice import PLANAR_DIE, Die, DieRoll, Face, Fate, Modifier, PlanarFace
from mtgdice.rules.effects import (
    Cost,
    Effect,
    Event,
    ExtraDice,
    FaceCountsAs,
    PairEachDie,
    Passive,
    RerollPermission,
    ResultModifier,
    Step,
    Trigger,
    Zone,
)
from mtgdice.rules.instruction import Outcome, RollInstruction
from mtgdice.rules.resolve import (
    MAX_DICE,
    MAX_EXECUTIONS,
    MAX_REROLLS,
    Execution,
    Resolution,
    TriggerHit,
    TurnState,
    resolve,
)
from mtgdice.rules.sources import DiceSource, ScriptedSource, SecureSource, SeededSource
from mtgdice.rules.tables import ResultsTable, Row

__all__ = [
    "MAX_DICE",
    "MAX_EXECUTIONS",
    "MAX_REROLLS",
    "PLANAR_DIE",
    "Amount",
    "AnyOf",
    "Ask",
    "Board",
    "Chooser",
    "Condition",
    "Cost",
    "Decision",
    "DiceSource",
    "Die",
    "DieRoll",
    "Effect",
    "Event",
    "Execution",
    "ExtraDice",
    "Face",
    "FaceCountsAs",
    "FaceIs",
    "Fate",
    "InRange",
    "Modifier",
    "NaturalMax",
    "Outcome",
    "PairEachDie",
    "Passive",
    "Permanent",
    "PlanarFace",
    "Policy",
    "PolicyChooser",
    "RerollPermission",
    "Resolution",
    "ResultModifier",
    "ResultsTable",
    "RollInstruction",
    "Row",
    "ScriptedChooser",
    "ScriptedSource",
    "SecureSource",
    "SeededSource",
    "Step",
    "Topic",
    "Trigger",
    "TriggerHit",
    "TurnState",
    "Zone",
    "resolve",
]
