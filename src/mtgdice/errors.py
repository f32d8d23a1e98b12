"""The one exception tree of mtgdice, importable from the top of the package.

The classes live in :mod:`mtgdice.rules.errors` because ``rules`` imports nothing above itself;
this module is the name the rest of the package and its users import.

>>> issubclass(UnknownCardError, LookupError)
True
"""

from mtgdice.rules.errors import (
    AmbiguousCardError,
    CardTextError,
    ChoiceError,
    DiceExhaustedError,
    InputError,
    MtgDiceError,
    RollLimitError,
    UnknownCardError,
)

__all__ = [
    "AmbiguousCardError",
    "CardTextError",
    "ChoiceError",
    "DiceExhaustedError",
    "InputError",
    "MtgDiceError",
    "RollLimitError",
    "UnknownCardError",
]
