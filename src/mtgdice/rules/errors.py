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


class MissingAmountError(InputError):
    """A variable amount the roll needs and was not given (json-interface.md, Amounts). The rules
    name the amount; each edge names its own field for it (``amounts.X``, ``--amount X=N``).

    >>> str(MissingAmountError("X"))
    "amount 'X': this roll needs its value"
    """

    def __init__(self, amount: str) -> None:
        self.amount = amount
        super().__init__(f"amount {amount!r}", "this roll needs its value")


class NoSuchSeatError(InputError):
    """A seat that is not at the table: ``role`` says whose seat it was to be (the controller, the
    roller, a pending replacement's target), ``players`` how many seats there are.

    >>> str(NoSuchSeatError("roller", 3, 2))
    'roller: seat 3 does not exist; this table has 2 player(s), seats 0 to 1'
    """

    def __init__(self, role: str, seat: int, players: int) -> None:
        self.role, self.seat, self.players = role, seat, players
        super().__init__(
            role, f"seat {seat} does not exist; this table has {players} player(s), seats 0 to {players - 1}"
        )


class DieSizeError(InputError):
    """A die of no size (CR 706.1: a die has 1 or more sides), or a negative number of dice.

    >>> str(DieSizeError(0))
    'die: a die with 0 sides cannot be rolled; a die has 1 or more sides'
    """

    def __init__(self, sides: int) -> None:
        self.sides = sides
        super().__init__("die", f"a die with {sides} sides cannot be rolled; a die has 1 or more sides")
