"""Card text → roll instructions and effects (the compiler of the dice language).

``compile_text`` reads English Oracle text and returns a :class:`CompiledCard`;
``compile_foreign`` (in ``translate``) reads printed text in any of ten other languages through
their lexicons; ``mentions_dice`` tells whether a text is about dice at all.
This package imports ``mtgdice.rules`` and nothing else of mtgdice.

The names below are loaded when first used (PEP 562): reading plain dice notation
(``mtgdice.text.notation``) does not load the compiler.

>>> from mtgdice.text import compile_text
>>> compile_text("Roll a d6.").rolls[0].die.name
'd6'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mtgdice.text.amounts import amount_name
    from mtgdice.text.compiler import CompiledCard, compile_text, mentions_dice, parse_condition

__all__ = ["CompiledCard", "amount_name", "compile_text", "mentions_dice", "parse_condition"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'mtgdice.text' has no attribute {name!r}")
    module = {"amount_name": "mtgdice.text.amounts"}.get(name, "mtgdice.text.compiler")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
