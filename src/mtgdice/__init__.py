"""mtgdice: the rules-exact dice engine of Magic: The Gathering (Comprehensive Rules 706).

The public API in one place:

>>> from mtgdice import compile_text, resolve, ScriptedSource
>>> card = compile_text("Roll a d20.\\n1\u20149 | Scry 1.\\n10\u201420 | Scry 2.")
>>> outcome = resolve(card.rolls[0], source="Example", dice=ScriptedSource([15]))
>>> outcome.executions[0].row
1
"""

from mtgdice.rules import (
    PLANAR_DIE,
    Amount,
    Board,
    Chooser,
    Decision,
    DiceSource,
    Die,
    DieRoll,
    Execution,
    Fate,
    Permanent,
    PlanarFace,
    Policy,
    PolicyChooser,
    Resolution,
    RollInstruction,
    ScriptedChooser,
    ScriptedSource,
    SecureSource,
    SeededSource,
    resolve,
)
from mtgdice.text import CompiledCard, compile_text, mentions_dice

__version__ = "0.1.0"

__all__ = [
    "PLANAR_DIE",
    "Amount",
    "Board",
    "Chooser",
    "CompiledCard",
    "Decision",
    "DiceSource",
    "Die",
    "DieRoll",
    "Execution",
    "Fate",
    "Permanent",
    "PlanarFace",
    "Policy",
    "PolicyChooser",
    "Resolution",
    "RollInstruction",
    "ScriptedChooser",
    "ScriptedSource",
    "SecureSource",
    "SeededSource",
    "__version__",
    "compile_text",
    "mentions_dice",
    "resolve",
]
