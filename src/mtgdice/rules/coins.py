"""Flipping coins (CR 705): a flip instruction, its calls, its outcomes, and the effects on flips.

A coin is a two-sided object with equally likely sides (CR 705.3); a ``DiceSource`` draws it as
a two-sided face (:data:`COIN`), face 1 heads — the same fair draws, commit-reveal proofs and logs
as dice. A flip for an object that cares who wins has the flipper call heads or tails first
(CR 705.1); otherwise nobody wins or loses it (CR 705.2). A flip is not a die roll: no die effect
applies to it, and coin effects apply to no die.

One execution of a :class:`FlipInstruction`, step by step:

1. the flippers' coins (``count`` each) are called, in coin order, before any coin is flipped
   (CR 705.1; a bare flip made for a request may carry its call);
2. each coin becomes a group of 1 + one coin per partner replacement that sees its flipper
   (N copies: N+1 coins, N ignored), and the coins are flipped in order; a partner keeps the call
   of the coin it joined;
3. in each group the flipper ignores all but one coin (deciding with the call in view);
4. the reflip window: each counted coin in order, offered to each reflip permission in zone order;
   a reflipped coin is set aside and a new group is flipped for it with the same call;
5. the result: the counted faces, flips won and lost, and the win/lose triggers they cause.

"Flip until you lose (win) a flip" carries the instruction out again while no flip of the last
execution was lost (won), as a roll again does (CR 706.3c), bounded by :data:`MAX_EXECUTIONS`;
"that many times or until ..." stops after that many; "or choose to stop" asks the flipper.
What it leaves out: the non-coin parts of outcomes (damage, tokens) stay text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import cast

from mtgdice.rules.board import Board, Holder
from mtgdice.rules.choices import Answer, Chooser, Decision, PolicyChooser, Topic
from mtgdice.rules.coin_instruction import COIN as COIN
from mtgdice.rules.coin_instruction import CoinFace as CoinFace
from mtgdice.rules.coin_instruction import CoinReads as CoinReads
from mtgdice.rules.coin_instruction import FlipInstruction as FlipInstruction
from mtgdice.rules.coin_instruction import FlipOutcome as FlipOutcome
from mtgdice.rules.coin_instruction import Flipper as Flipper
from mtgdice.rules.coin_instruction import Until as Until
from mtgdice.rules.dice import DieRoll, Fate
from mtgdice.rules.effects.base import EffectBase
from mtgdice.rules.effects.coin import CoinEffect, CoinTrigger, ReflipPermission
from mtgdice.rules.errors import InputError, RollLimitError
from mtgdice.rules.memory import with_flips
from mtgdice.rules.players import YOU, Seat
from mtgdice.rules.resolution import MAX_DICE, MAX_EXECUTIONS, MAX_REROLLS, Decisions, TurnState, effects_of
from mtgdice.rules.sources import DiceSource


@dataclass(frozen=True, slots=True)
class CoinFlip:
    """One physical coin: its identity (flip order), side, fate, the coin a reflip replaced, its
    flipper and call (``None``: an uncalled flip, CR 705.2)."""

    index: int
    side: CoinFace
    fate: Fate = Fate.COUNTED
    reflips: int | None = None
    flipper: Seat = YOU
    call: CoinFace | None = None

    @property
    def counted(self) -> bool:
        return self.fate is Fate.COUNTED

    @property
    def won(self) -> bool | None:
        """Whether the coin came up as called (CR 705.1); ``None`` for an uncalled flip."""
        return None if self.call is None else self.side is self.call


@dataclass(frozen=True, slots=True)
class FlipExecution:
    """One carrying out of a flip instruction: every coin flipped, in order, and what it came to."""

    coins: tuple[CoinFlip, ...]
    outcomes: tuple[int, ...] = ()

    @property
    def counted(self) -> tuple[CoinFlip, ...]:
        return tuple(coin for coin in self.coins if coin.counted)

    @property
    def results(self) -> tuple[CoinFace, ...]:
        return tuple(coin.side for coin in self.counted)

    @property
    def won(self) -> int:
        return sum(1 for coin in self.counted if coin.won is True)

    @property
    def lost(self) -> int:
        return sum(1 for coin in self.counted if coin.won is False)


@dataclass(frozen=True, slots=True)
class CoinTriggered:
    """A win/lose trigger that a counted flip caused: the card and the coin."""

    card: str
    coin: int


@dataclass(frozen=True, slots=True)
class FlipResolution:
    """What a flip instruction came to: its executions, triggers, decisions and the turn's uses."""

    executions: tuple[FlipExecution, ...]
    used: frozenset[str]
    source: str
    decisions: tuple[tuple[Decision, Answer], ...] = ()
    triggers: tuple[CoinTriggered, ...] = ()
    name: str = "coin"
    after: TurnState | None = None
    """The turn after this flip (its uses, and its flips won and lost counted, :mod:`mtgdice.rules.memory`)."""

    @property
    def coins(self) -> tuple[CoinFlip, ...]:
        """Every coin flipped, over all executions, in flip order."""
        return tuple(coin for execution in self.executions for coin in execution.coins)

    @property
    def results(self) -> tuple[CoinFace, ...]:
        return tuple(side for execution in self.executions for side in execution.results)

    @property
    def call(self) -> CoinFace | None:
        """The first call made (a bare flip has one)."""
        return next((coin.call for coin in self.coins if coin.call is not None), None)

    @property
    def won(self) -> tuple[bool, ...] | None:
        """For a called flip, whether each counted coin came up as called (CR 705.1)."""
        counted = [coin for execution in self.executions for coin in execution.counted]
        if not counted or any(coin.call is None for coin in counted):
            return None
        return tuple(coin.won is True for coin in counted)

    @property
    def flips_won(self) -> int:
        return sum(execution.won for execution in self.executions)

    @property
    def flips_lost(self) -> int:
        return sum(execution.lost for execution in self.executions)

    @property
    def turn(self) -> TurnState:
        """The turn after this flip, for the next roll of the same turn."""
        return self.after if self.after is not None else TurnState(self.used)


@dataclass(frozen=True, slots=True)
class FlipState:
    """What one execution of a flip leaves for the next: once-each-turn uses, permanents tapped and
    counters paid for costs (so that an exact solver can carry them from execution to execution)."""

    used: frozenset[str] = frozenset()
    tapped: frozenset[str] = frozenset()
    counters_paid: tuple[tuple[tuple[str, str], int], ...] = ()


@dataclass(frozen=True, slots=True)
class FlipStep:
    """One execution of a flip instruction from a state: what it came to, the triggers it caused,
    whether the instruction asks to be carried out again (a limit of times aside), the state after."""

    execution: FlipExecution
    triggers: tuple[CoinTriggered, ...]
    again: bool
    state: FlipState


def flip_step(
    instruction: FlipInstruction,
    *,
    count: int,
    source: DiceSource,
    board: Board,
    chooser: Chooser,
    state: FlipState = FlipState(),
    players: int = 2,
    name: str = "coin",
) -> FlipStep:
    """Carry out ``instruction`` once from ``state`` (the odds engine's step; :func:`flip` loops it).

    >>> from mtgdice.rules.sources import ScriptedSource
    >>> from mtgdice.rules.choices import ScriptedChooser
    >>> until = FlipInstruction(call=True, until=Until.LOSE)
    >>> step = flip_step(until, count=1, source=ScriptedSource([1]), board=Board(), chooser=ScriptedChooser([0]))
    >>> step.execution.won, step.again
    (1, True)
    """
    run = _Flip(instruction, source, board, chooser, TurnState(state.used), None)
    run.tapped = set(state.tapped)
    run.counters_paid = dict(state.counters_paid)
    execution, triggers, again = run.step(count, instruction.flipper.seats(players), name)
    return FlipStep(execution, tuple(triggers), again, run.state)


def flip(
    instruction: FlipInstruction,
    *,
    source: DiceSource,
    board: Board | None = None,
    chooser: Chooser | None = None,
    amounts: Mapping[str, int] | None = None,
    turn: TurnState | None = None,
    call: CoinFace | None = None,
    players: int = 2,
    name: str = "coin",
    limit: int | None = None,
    controller: Seat = YOU,
) -> FlipResolution:
    """Carry out ``instruction`` (CR 705); ``call`` is the call of a bare flip made for a request
    (otherwise each called coin's call is asked of its flipper); ``limit`` caps the executions;
    ``controller`` is the seat resolving it (the flip's "you"). The resolution's ``turn`` is
    ``turn`` with its flips won and lost counted by seat.

    >>> from mtgdice.rules.sources import ScriptedSource
    >>> flip(FlipInstruction(call=True), source=ScriptedSource([2]), call=CoinFace.TAILS).won
    (True,)
    """
    values = amounts or {}
    count = instruction.count.value(values)
    if not 0 <= count <= MAX_DICE:
        raise InputError("count", f"{count} coins cannot be flipped at once; flip 0 to {MAX_DICE}")
    times = instruction.times.value(values) if instruction.times is not None else None
    if times is not None and times < 0:
        raise InputError("amounts", f"a coin cannot be flipped {times} times")
    before = turn or TurnState()
    run = _Flip(instruction, source, board or Board(), chooser or PolicyChooser(), before, call, controller)
    resolution = run.run(count, times, players, name, limit)
    counted = ((coin.flipper, coin.won) for execution in resolution.executions for coin in execution.counted)
    after = replace(before, used=resolution.used, flips=with_flips(before.flips, counted, players))
    return replace(resolution, after=after)


class _Flip(Decisions):
    __slots__ = (
        "instruction",
        "source",
        "partners",
        "reflips",
        "triggered",
        "fixed_call",
        "coins",
        "reflipped",
        "controller",
    )

    def __init__(
        self,
        instruction: FlipInstruction,
        source: DiceSource,
        board: Board,
        chooser: Chooser,
        turn: TurnState,
        call: CoinFace | None,
        controller: Seat = YOU,
    ):
        Decisions.__init__(self, chooser, turn.used)
        self.controller = controller
        self.instruction = instruction
        self.source = source
        holders = effects_of(board).coins
        self.partners: tuple[Holder[CoinEffect], ...] = tuple(h for h in holders if h.effect.partners())
        self.reflips = tuple(h for h in holders if isinstance(h.effect, ReflipPermission))
        self.triggered = tuple(cast(Holder[CoinTrigger], h) for h in holders if isinstance(h.effect, CoinTrigger))
        self.fixed_call = call
        self.coins: list[CoinFlip] = []
        self.reflipped = 0

    def run(self, count: int, times: int | None, players: int, name: str, limit: int | None) -> FlipResolution:
        executions: list[FlipExecution] = []
        triggers: list[CoinTriggered] = []
        seats = self.instruction.flipper.seats(players, self.controller)
        while True:
            execution, caused, again = self.step(count, seats, name)
            executions.append(execution)
            triggers += caused
            if limit is not None and len(executions) >= limit:
                break
            if not again or (times is not None and len(executions) >= times):
                break
            if len(executions) >= MAX_EXECUTIONS:
                raise RollLimitError(
                    f"flip: more than {MAX_EXECUTIONS} executions of one flip instruction; the loop was stopped"
                )
        return FlipResolution(
            tuple(executions), frozenset(self.used), self.source.name, tuple(self.asked), tuple(triggers), name
        )

    def step(self, count: int, seats: tuple[Seat, ...], name: str) -> tuple[FlipExecution, list[CoinTriggered], bool]:
        """One execution, the triggers it caused, and whether the instruction asks for another."""
        execution = self._execution(count, seats)
        triggers: list[CoinTriggered] = []
        batched: set[int] = set()
        for coin in execution.counted:
            for hit, holder in self._triggers(coin, name):
                if not holder.effect.batch:
                    triggers.append(hit)
                elif id(holder) not in batched:  # CR 603.2c: once for the flips of one event
                    batched.add(id(holder))
                    triggers.append(hit)
        return execution, triggers, self._again(execution)

    @property
    def state(self) -> FlipState:
        return FlipState(frozenset(self.used), frozenset(self.tapped), tuple(sorted(self.counters_paid.items())))

    def _again(self, execution: FlipExecution) -> bool:
        """Whether the instruction asks to be carried out once more (CR 705; like CR 706.3c); a
        limit of times is the caller's."""
        until = self.instruction.until
        if until is None:
            return False
        if until is Until.LOSE and execution.lost:
            return False
        if until is Until.WIN and execution.won:
            return False
        if until is Until.ALL_HEADS and execution.results and all(s is CoinFace.HEADS for s in execution.results):
            return False
        if self.instruction.may_stop or until is Until.CHOSEN:
            return self.ask_yes(Topic.ROLL_AGAIN, "Flip again?", player=self.controller)
        return True

    def _execution(self, count: int, seats: tuple[Seat, ...]) -> FlipExecution:
        first = len(self.coins)
        # Step 1: every coin of the instruction is called before any is flipped (CR 705.1).
        calls: list[tuple[Seat, CoinFace | None]] = []
        for seat in seats:
            for _ in range(count):
                calls.append((seat, self._call(seat)))
        # Steps 2 and 3: each coin with its partners, flipped and chosen among.
        for seat, call in calls:
            self._group(seat, call, None)
        # Step 4: the reflip window; a new coin joins the end.
        position = first
        while position < len(self.coins):
            coin = self.coins[position]
            position += 1
            if not coin.counted:
                continue
            for holder in self.reflips:
                if holder.effect.consider_coin(coin.side.value, coin.flipper, holder, self):
                    self._reflip(coin)
                    break
        coins = tuple(self.coins[first:])
        counted = tuple(coin for coin in coins if coin.counted)
        return FlipExecution(coins, self.instruction.outcomes_holding(counted))

    def _call(self, seat: Seat) -> CoinFace | None:
        if not self.instruction.call:
            return None
        if self.fixed_call is not None:
            return self.fixed_call
        sides = (CoinFace.HEADS, CoinFace.TAILS)
        return sides[self.ask_one(Topic.CALL, "Call the flip: heads or tails?", ("heads", "tails"), player=seat)]

    def _triggers(self, coin: CoinFlip, name: str) -> list[tuple[CoinTriggered, Holder[CoinTrigger]]]:
        if coin.won is None:
            return []
        return [
            (CoinTriggered(holder.name, coin.index), holder)
            for holder in self.triggered
            if holder.sees(coin.flipper) and holder.effect.hits(coin.won)
        ]

    def _group(self, flipper: Seat, call: CoinFace | None, reflips: int | None) -> None:
        """Steps 2-3 for one coin of the instruction (or one reflip)."""
        size = 1 + sum(h.effect.partners() for h in self.partners if h.sees(flipper))
        first = len(self.coins)
        for _ in range(size):
            face = self.source.roll(COIN)
            side = CoinFace.of(face if isinstance(face, int) else 1)
            self.coins.append(CoinFlip(len(self.coins), side, reflips=reflips, flipper=flipper, call=call))
        group = list(range(first, first + size))
        if size < 2:
            return
        won = () if call is None else tuple(float(self.coins[i].side is call) for i in group)
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
            self.coins[index] = CoinFlip(coin.index, coin.side, Fate.IGNORED, coin.reflips, coin.flipper, coin.call)

    def _reflip(self, coin: CoinFlip) -> None:
        self.reflipped += 1
        if self.reflipped > MAX_REROLLS:
            raise RollLimitError(f"reflip: more than {MAX_REROLLS} reflips in one flip; the loop was stopped")
        self.coins[coin.index] = CoinFlip(coin.index, coin.side, Fate.REROLLED, coin.reflips, coin.flipper, coin.call)
        self._group(coin.flipper, coin.call, coin.index)

    def made_by(self, die: DieRoll, holder: Holder[EffectBase]) -> bool:  # pragma: no cover - no die in a flip
        return False

    def reroll(
        self, die: DieRoll, roller: Seat, holder: Holder[EffectBase]
    ) -> None:  # pragma: no cover - no die in a flip
        raise RollLimitError("a coin flip has no die to reroll")

    @property
    def dice(self) -> tuple[DieRoll, ...]:
        return ()
