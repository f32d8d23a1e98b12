"""Card text → roll instructions and effects (the compiler of the dice language).

``compile_text`` reads English Oracle text and returns a :class:`CompiledCard`;
``compile_foreign`` (in ``translate``) reads printed text in any of ten other languages through
their lexicons; ``mentions_dice`` tells whether a text is about dice at all.
This package imports ``mtgdice.rules`` and nothing else of mtgdice.
"""

from mtgdice.text.amounts import amount_name
from mtgdice.text.compiler import CompiledCard, compile_text, mentions_dice, parse_condition, roll_json

__all__ = ["CompiledCard", "amount_name", "compile_text", "mentions_dice", "parse_condition", "roll_json"]
