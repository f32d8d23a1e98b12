"""Which grammar productions (the named :class:`~mtgdice.text.parsing.Rule` of ``mtgdice.text.grammar``)
a compilation uses.

:func:`tracing` is the parser's own (``parsing.tracing``): while the ``with`` block runs, every
reading the compiler takes records the productions it is made of, down to the tokens. Used by the
one-card-rule test.
"""

from __future__ import annotations

from mtgdice.text import grammar
from mtgdice.text.parsing import Rule, tracing

RULES: dict[str, Rule] = grammar.productions()

__all__ = ["RULES", "tracing"]
