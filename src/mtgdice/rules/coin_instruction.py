"""A flip instruction's values (CR 705): what "flip a coin" says, apart from carrying it out.

:class:`FlipInstruction` names how many coins, whether the flipper calls, when it flips again and
its outcomes (:class:`FlipOutcome`); :mod:`mtgdice.rules.coins` carries it out. These values live
apart from the procedure so that reading card text (``mtgdice.text``) does not load resolution.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mtgdice.rules.amounts import Amount
from mtgdice.rules.dice import Die
from mtgdice.rules.players import YOU, Seat
from mtgdice.rules.zones import Zone

if TYPE_CHECKING:
    from mtgdice.rules.coins import CoinFlip

COIN = Die(2)
"""How a coin is drawn from a dice source: a two-sided face, 1 heads and 2 tails (CR 705.3)."""


class CoinFace(enum.Enum):
    HEADS = "heads"
    TAILS = "tails"

    @classmethod
    def of(cls, face: int) -> CoinFace:
        """The side a drawn face shows.

        >>> CoinFace.of(1), CoinFace.of(2)
        (<CoinFace.HEADS: 'heads'>, <CoinFace.TAILS: 'tails'>)
        """
        return cls.HEADS if face == 1 else cls.TAILS

    @property
    def face(self) -> int:
        return 1 if self is CoinFace.HEADS else 2


class Until(enum.Enum):
    """When a flip instruction stops carrying itself out again: "until you lose/win a flip", or
    "repeat this process until <every coin> come(s) up heads" (``ALL_HEADS``), or whenever a player
    decides to flip again (``CHOSEN``)."""

    LOSE = "lose"
    WIN = "win"
    ALL_HEADS = "all heads"
    CHOSEN = "chosen"
    """A player decides after each flip whether to flip again."""


_FIRST_SEAT = YOU  # the first seat by name: inside Flipper, YOU is one of its members


class Flipper(enum.Enum):
    """Who flips: the player resolving the instruction, another named player, every player, or
    every opponent."""

    YOU = "you"
    THAT_PLAYER = "that player"
    EACH_PLAYER = "each player"
    EACH_OPPONENT = "each opponent"
    YOU_AND_OPPONENT = "you and target opponent"

    def seats(self, players: int, controller: Seat = _FIRST_SEAT) -> tuple[Seat, ...]:
        """The seats that flip, in turn order from ``controller`` (the resolving player; a named
        other player flips as the resolving one).

        >>> Flipper.EACH_PLAYER.seats(3), Flipper.YOU_AND_OPPONENT.seats(3), Flipper.YOU.seats(2)
        ((0, 1, 2), (0, 1), (0,))
        >>> Flipper.EACH_PLAYER.seats(3, Seat(1)), Flipper.YOU.seats(3, Seat(2))
        ((1, 2, 0), (2,))
        >>> Flipper.EACH_OPPONENT.seats(3, Seat(1))
        (2, 0)
        """
        if self is Flipper.EACH_PLAYER:
            return tuple(Seat((controller + step) % players) for step in range(players))
        if self is Flipper.EACH_OPPONENT:
            return tuple(Seat((controller + step) % players) for step in range(1, players))
        if self is Flipper.YOU_AND_OPPONENT:
            return (controller, Seat((controller + 1) % players))
        return (controller,)


class CoinReads(enum.Enum):
    """What an outcome of a flip reads: flips won or lost (CR 705.1), or the sides shown."""

    WON = "won"
    LOST = "lost"
    HEADS = "heads"
    TAILS = "tails"
    OTHERWISE = "otherwise"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class FlipOutcome:
    """An instruction based on a flip: "if you win the flip, ...", "for each flip you lose, ...",
    "if you win two or more flips, ...", "if both coins come up heads, ...", "otherwise, ...".

    ``each``: once per flip that meets it; ``at_least``: that many flips must meet it; ``every``:
    all counted coins must; ``over_all``: it reads every execution together ("for each flip you
    won" after "until you lose a flip"). ``NONE`` reads nothing of the flip (kept as text).
    """

    text: str
    reads: CoinReads = CoinReads.NONE
    each: bool = False
    at_least: int = 1
    every: bool = False
    over_all: bool = False

    def meeting(self, coins: Sequence[CoinFlip]) -> int:
        """How many of the counted ``coins`` this outcome's reading meets."""
        if self.reads is CoinReads.WON:
            return sum(1 for coin in coins if coin.won is True)
        if self.reads is CoinReads.LOST:
            return sum(1 for coin in coins if coin.won is False)
        if self.reads in (CoinReads.HEADS, CoinReads.TAILS):
            side = CoinFace(self.reads.value)
            return sum(1 for coin in coins if coin.side is side)
        return 0

    def holds(self, coins: Sequence[CoinFlip]) -> bool:
        """Whether it holds for these counted coins (``OTHERWISE`` is settled by its neighbours)."""
        found = self.meeting(coins)
        if self.every:
            return bool(coins) and found == len(coins)
        return found >= self.at_least

    def describe(self) -> dict[str, object]:
        return {
            "when": self.reads.value,
            "each": self.each,
            "at_least": self.at_least,
            "all": self.every,
            "over_all": self.over_all,
            "text": self.text,
        }


@dataclass(frozen=True, slots=True)
class FlipInstruction:
    """ "Flip a coin" (``count`` coins per flipper); ``call`` when something cares who wins
    (CR 705.1); ``until``, ``times`` and ``may_stop`` for flips carried out again; ``outcomes``.

    >>> FlipInstruction(Amount(3), call=True).count.value({})
    3
    """

    count: Amount = Amount(1)
    call: bool = False
    until: Until | None = None
    times: Amount | None = None
    may_stop: bool = False
    flipper: Flipper = Flipper.YOU
    outcomes: tuple[FlipOutcome, ...] = ()
    text: str = "Flip a coin."
    functions_from: Zone | None = field(default=Zone.BATTLEFIELD, compare=False)
    """Where the ability that flips functions from (as :attr:`RollInstruction.functions_from`)."""

    @property
    def amounts(self) -> tuple[str, ...]:
        """Names of the variable amounts this instruction needs."""
        return tuple(dict.fromkeys(a.name for a in (self.count, self.times) if a is not None and a.name is not None))

    def outcomes_holding(self, coins: Sequence[CoinFlip]) -> tuple[int, ...]:
        """The outcomes that hold for one execution's counted coins ("otherwise" when none did)."""
        found: list[int] = []
        held_since = False
        for index, outcome in enumerate(self.outcomes):
            if outcome.reads is CoinReads.OTHERWISE:
                if not held_since:
                    found.append(index)
                held_since = False
            elif outcome.reads is not CoinReads.NONE and outcome.holds(coins):
                found.append(index)
                held_since = True
        return tuple(found)
