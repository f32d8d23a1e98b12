"""Flipping a coin (CR 705), with the effects on flips: partner coins and reflips.

A coin is a two-sided object with equally likely sides (CR 705.3); a ``DiceSource`` draws it as
a two-sided face (:data:`COIN`), face 1 heads — the same fair draws, commit-reveal proofs and logs
as dice. A flip for an object that cares who wins has the flipper call heads or tails first
(CR 705.1); otherwise nobody wins or loses it (CR 705.2). A flip is not a die roll: no die effect
applies to it, and coin effects apply to no die.

One flip, step by step:

1. each coin of the instruction becomes a group of 1 + one coin per partner replacement that sees
   the flipper (N copies: N+1 coins, N ignored);
2. the coins are flipped, in order;
3. in each group the flipper ignores all but one coin (deciding with the call in view): which
   coin of a pair to ignore, or which one of several to keep;
4. the reflip window: each counted coin in order, offered to each reflip permission in zone order;
   a reflipped coin is ignored and a new group is flipped for it (replacements meet it again);
5. the result: the counted faces, and whether the call was won.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from mtgdice.rules.amounts import Amount
from mtgdice.rules.board import Board, Holder
from mtgdice.rules.choices import Answer, Chooser, Decision, PolicyChooser, Topic
from mtgdice.rules.dice import Die, DieRoll, Fate
from mtgdice.rules.effects.base import EffectBase
from mtgdice.rules.effects.coin import CoinEffect
from mtgdice.rules.errors import InputError, RollLimitError
from mtgdice.rules.players import YOU, Seat
from mtgdice.rules.resolution import MAX_DICE, MAX_REROLLS, Decisions, TurnState, effects_of
from mtgdice.rules.sources import DiceSource

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


@dataclass(frozen=True, slots=True)
class FlipInstruction:
    """ "Flip a coin" (``count`` coins); ``call`` when something cares who wins (CR 705.1)."""

    count: Amount = Amount(1)
    call: bool = False
    text: str = "Flip a coin."


@dataclass(frozen=True, slots=True)
class CoinFlip:
    """One physical coin: its identity (flip order), side, fate, and the coin a reflip replaced."""

    index: int
    side: CoinFace
    fate: Fate = Fate.COUNTED
    reflips: int | None = None
    flipper: Seat = YOU

    @property
    def counted(self) -> bool:
        return self.fate is Fate.COUNTED


@dataclass(frozen=True, slots=True)
class FlipResolution:
    """What a flip came to: every coin flipped, the counted sides, the call and whether it won."""

    coins: tuple[CoinFlip, ...]
    call: CoinFace | None
    used: frozenset[str]
    source: str
    decisions: tuple[tuple[Decision, Answer], ...] = ()

    @property
    def results(self) -> tuple[CoinFace, ...]:
        return tuple(coin.side for coin in self.coins if coin.counted)

    @property
    def won(self) -> tuple[bool, ...] | None:
        """For a called flip, whether each counted coin came up as called (CR 705.1)."""
        if self.call is None:
            return None
        return tuple(side is self.call for side in self.results)

    @property
    def turn(self) -> TurnState:
        return TurnState(self.used)


def flip(
    instruction: FlipInstruction,
    *,
    source: DiceSource,
    board: Board | None = None,
    chooser: Chooser | None = None,
    amounts: Mapping[str, int] | None = None,
    turn: TurnState | None = None,
    call: CoinFace | None = None,
) -> FlipResolution:
    """Flip the coins of ``instruction`` (CR 705).

    >>> from mtgdice.rules.sources import ScriptedSource
    >>> flip(FlipInstruction(call=True), source=ScriptedSource([2]), call=CoinFace.TAILS).won
    (True,)
    """
    if instruction.call and call is None:
        raise InputError("call", "this flip is won or lost: call heads or tails before the flip (CR 705.1)")
    count = instruction.count.value(amounts or {})
    if not 0 <= count <= MAX_DICE:
        raise InputError("count", f"{count} coins cannot be flipped at once; flip 0 to {MAX_DICE}")
    return _Flip(source, board or Board(), chooser or PolicyChooser(), turn or TurnState(), call).run(count)


class _Flip(Decisions):
    __slots__ = ("source", "partners", "reflips", "call", "coins", "reflipped")

    def __init__(self, source: DiceSource, board: Board, chooser: Chooser, turn: TurnState, call: CoinFace | None):
        Decisions.__init__(self, chooser, turn.used)
        self.source = source
        holders = effects_of(board).coins
        self.partners: tuple[Holder[CoinEffect], ...] = tuple(h for h in holders if h.effect.partners())
        self.reflips: tuple[Holder[CoinEffect], ...] = tuple(h for h in holders if not h.effect.partners())
        self.call = call
        self.coins: list[CoinFlip] = []
        self.reflipped = 0

    def run(self, count: int) -> FlipResolution:
        for _ in range(count):
            self._group(YOU, None)
        position = 0
        while position < len(self.coins):  # step 4: a new coin joins the end
            coin = self.coins[position]
            position += 1
            if not coin.counted:
                continue
            for holder in self.reflips:
                if holder.effect.consider_coin(coin.side.value, coin.flipper, holder, self):
                    self._reflip(coin)
                    break
        return FlipResolution(tuple(self.coins), self.call, frozenset(self.used), self.source.name, tuple(self.asked))

    def _group(self, flipper: Seat, reflips: int | None) -> None:
        """Steps 1-3 for one coin of the instruction (or one reflip)."""
        size = 1 + sum(h.effect.partners() for h in self.partners if h.sees(flipper))
        first = len(self.coins)
        for _ in range(size):
            face = self.source.roll(COIN)
            side = CoinFace.of(face if isinstance(face, int) else 1)
            self.coins.append(CoinFlip(len(self.coins), side, reflips=reflips, flipper=flipper))
        group = list(range(first, first + size))
        if size < 2:
            return
        won = () if self.call is None else tuple(float(self.coins[i].side is self.call) for i in group)
        sides = tuple(self.coins[i].side.value for i in group)
        if size == 2:
            ignored = group[
                self.ask_one(
                    Topic.IGNORE, "Ignore which of these coins?", sides, player=flipper, values=won, invert=True
                )
            ]
            drop = [ignored]
        else:  # several partners: name the one coin that counts (asked once, however many partners)
            keep = self.ask_one(Topic.KEEP, f"Keep which of these {size} coins?", sides, player=flipper, values=won)
            drop = [index for position, index in enumerate(group) if position != keep]
        for index in drop:
            coin = self.coins[index]
            self.coins[index] = CoinFlip(coin.index, coin.side, Fate.IGNORED, coin.reflips, coin.flipper)

    def _reflip(self, coin: CoinFlip) -> None:
        self.reflipped += 1
        if self.reflipped > MAX_REROLLS:
            raise RollLimitError(f"reflip: more than {MAX_REROLLS} reflips in one flip; the loop was stopped")
        self.coins[coin.index] = CoinFlip(coin.index, coin.side, Fate.REROLLED, coin.reflips, coin.flipper)
        self._group(coin.flipper, coin.index)

    def made_by(self, die: DieRoll, holder: Holder[EffectBase]) -> bool:  # pragma: no cover - no die in a flip
        return False

    def reroll(
        self, die: DieRoll, roller: Seat, holder: Holder[EffectBase]
    ) -> None:  # pragma: no cover - no die in a flip
        raise RollLimitError("a coin flip has no die to reroll")

    @property
    def dice(self) -> tuple[DieRoll, ...]:
        return ()
