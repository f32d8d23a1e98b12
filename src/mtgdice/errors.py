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


class StorageUnavailable(MtgDiceError, ConnectionError):
    """The database cannot be reached now (down, restarting, out of connections): try again later.

    Nothing was stored by the request that met it; a web server answers 503 with ``Retry-After``.
    """


__all__ = [
    "AmbiguousCardError",
    "CardTextError",
    "ChoiceError",
    "DiceExhaustedError",
    "InputError",
    "MtgDiceError",
    "RollLimitError",
    "StorageUnavailable",
    "UnknownCardError",
]
