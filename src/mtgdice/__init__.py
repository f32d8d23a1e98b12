"""mtgdice: the rules-exact dice engine of Magic: The Gathering (Comprehensive Rules 706).

The public API in one place:

>>> from mtgdice import compile_text, resolve, ScriptedSource
>>> card = compile_text("Roll a d20.\\n1\u20149 | Scry 1.\\n10\u201420 | Scry 2.")
>>> outcome = resolve(card.rolls[0], source="Example", dice=ScriptedSource([15]))
>>> outcome.executions[0].row
1

The names are loaded when first used (PEP 562), so a program that imports one module of the
package (the command line rolling plain dice, for one) does not pay for the compiler.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
"""The version of this release (also ``mtgdice --version``); the packaging reads it from here.

>>> import mtgdice
>>> mtgdice.__version__.count(".")
2
"""

_TEXT = ("CompiledCard", "compile_text", "mentions_dice")

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


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'mtgdice' has no attribute {name!r}")
    value = getattr(importlib.import_module("mtgdice.text" if name in _TEXT else "mtgdice.rules"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
