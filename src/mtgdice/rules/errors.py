"""The one exception tree of mtgdice.

Every error subclasses the built-in that fits it, so callers can catch ``ValueError`` or
``LookupError`` without importing this module. Messages quote the input and say what to do.

>>> try:
...     raise UnknownCardError("no card named 'Pixy Gide'; did you mean 'Pixy Guide'?")
... except LookupError as error:
...     print(error)
no card named 'Pixy Gide'; did you mean 'Pixy Guide'?
"""

from __future__ import annotations


class MtgDiceError(Exception):
    """Base of every error raised on purpose by mtgdice."""


class InputError(MtgDiceError, ValueError):
    """Bad input at an edge (JSON, CLI): names the field and the problem.

    >>> str(InputError("dice[2]", "25 is not a face of a d20"))
    'dice[2]: 25 is not a face of a d20'
    """

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}" if field else problem)


class CardTextError(MtgDiceError, ValueError):
    """Card text that cannot be compiled into the requested roll."""


class UnknownCardError(MtgDiceError, LookupError):
    """A card name that is not in the card data (the message carries suggestions)."""


class AmbiguousCardError(MtgDiceError, LookupError):
    """A card name shared by several different texts."""


class DiceExhaustedError(MtgDiceError, LookupError):
    """A scripted dice source ran out of faces: nothing is ever filled in silently."""


class RollLimitError(MtgDiceError, RuntimeError):
    """A resolution went past a documented limit (dice per roll, executions, rerolls)."""


class ChoiceError(MtgDiceError, ValueError):
    """A scripted answer of the wrong type or out of range for the decision asked."""
