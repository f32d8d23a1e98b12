"""Exact odds of a flip instruction (CR 705), from the same rule objects as ``resolve``.

Every number comes from :func:`mtgdice.rules.coins.flip_step` run on coin faces: one execution
of the instruction from a state (once-each-turn uses, taps and counters paid so far), each coin
heads or tails with probability 1/2 (CR 705.3). Without partner or reflip effects on the board and
with one flipper, the order of the faces cannot matter (outcomes and triggers count flips), so an
execution of n coins is run once per number of heads k, weighted C(n, k) / 2^n; otherwise every
face sequence is run. "Until you lose (win) a flip" and "repeat this process until ..." are the
branching they are: a chain over the states an execution leaves, solved exactly (an execution
that leads back to its own state is a geometric series), so that "flip a coin until you lose a
flip" has exactly 1 expected flip won with a fair coin.

Decisions follow a named policy as dice odds do, with one exception: which coin of a group to
keep is chosen to win the flip (the flipper's own interest, CR 705.1) unless the policy is
``minimize``. What it leaves out: sampling (``mtgdice.sim.coins``) and rendering.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from mtgdice.rules import Board
from mtgdice.rules.choices import Answer, Ask, Decision, Policy, PolicyChooser, Topic
from mtgdice.rules.coins import (
    CoinFace,
    CoinReads,
    FlipInstruction,
    FlipState,
    FlipStep,
    flip_step,
)
from mtgdice.rules.dice import Die, Face
from mtgdice.rules.effects.coin import PairEachCoin, ReflipPermission
from mtgdice.rules.errors import RollLimitError
from mtgdice.rules.resolution import effects_of

MAX_SEQUENCES = 1 << 16
"""Most face sequences run for one execution (beyond, the odds are refused with a clear error)."""
MAX_COINS = 200
"""Most coins flipped at once whose exact odds are computed (one run per number of heads)."""
MAX_ORDERED_COINS = 16
"""Most coins one execution draws when their order matters (every sequence is run: 2^16 at most)."""
MAX_TIMES = 500
"""Most executions of a flip repeated a fixed number of times that the exact solver follows."""

Totals = tuple[int, int]
"""Flips won and lost so far, each capped where no outcome reads further."""


@dataclass(frozen=True, slots=True)
class CoinOdds:
    """Exact odds of one flip instruction on one board under one policy.

    ``outcomes``: for each outcome of the instruction, the probability that it holds (for one that
    reads each flip, the expected number of flips it is carried out for), in the first execution,
    or over the whole resolution for one that reads every execution. ``results``: the probability
    that a counted coin of the first execution shows each side. ``first_won``: the distribution of
    flips won in the first execution. The rest are expectations over the whole resolution.
    """

    outcomes: tuple[Fraction, ...]
    results: tuple[tuple[str, Fraction], ...]
    first_won: tuple[tuple[int, Fraction], ...]
    expected_won: Fraction
    expected_lost: Fraction
    expected_executions: Fraction
    triggers: tuple[tuple[str, Fraction], ...]
    method: str = "exact"

    def to_json(self) -> dict[str, object]:
        """The ``odds --json`` object of a flip (docs/odds.md)."""
        return {
            "sides": "coin",
            "outcomes": [str(p) for p in self.outcomes],
            "results": {side: str(p) for side, p in self.results},
            "first_won": {str(won): str(p) for won, p in self.first_won},
            "expected_won": str(self.expected_won),
            "expected_lost": str(self.expected_lost),
            "expected_executions": str(self.expected_executions),
            "triggers": {card: str(p) for card, p in self.triggers},
            "method": self.method,
        }


class CoinPolicy(PolicyChooser):
    """A policy that keeps the coin that wins (unless it minimises)."""

    def decide(self, decision: Decision) -> Answer:
        if (
            decision.ask is Ask.PICK_ONE
            and decision.topic in (Topic.IGNORE, Topic.KEEP)
            and self.policy is not Policy.MINIMIZE
            and any(value is not None for value in decision.values)
        ):
            return PolicyChooser(Policy.MAXIMIZE).decide(decision)
        return super().decide(decision)


class _Branch(Exception):
    """The faces given ran out: the execution needs one more coin."""


class _Faces:
    """A source of the given coin faces that asks for one more when they run out."""

    name = "odds"

    def __init__(self, faces: tuple[int, ...]) -> None:
        self.faces = faces
        self.position = 0

    def roll(self, die: Die) -> Face:
        if self.position >= len(self.faces):
            raise _Branch
        face = self.faces[self.position]
        self.position += 1
        return face


def _choose(n: int, k: int) -> int:
    return math.comb(n, k)


class _Solver:
    def __init__(
        self,
        instruction: FlipInstruction,
        board: Board,
        policy: str,
        count: int,
        times: int | None,
        players: int,
        name: str,
    ) -> None:
        self.instruction, self.board, self.count, self.times = instruction, board, count, times
        self.players, self.name = players, name
        self.chooser = CoinPolicy(policy)
        coins = effects_of(board).coins
        self.ordered = any(isinstance(h.effect, PairEachCoin | ReflipPermission) for h in coins)
        self.ordered = self.ordered or len(instruction.flipper.seats(players)) > 1
        if self.ordered:
            partners = sum(h.effect.partners() for h in coins)
            drawn = count * len(instruction.flipper.seats(players)) * (1 + partners)
            if drawn > MAX_ORDERED_COINS:
                raise RollLimitError(
                    f"odds: {drawn} coins in one flip with partner or reflip effects or several flippers; "
                    f"the exact odds follow at most {MAX_ORDERED_COINS}, use simulate instead"
                )
        self._steps: dict[FlipState, tuple[tuple[Fraction, FlipStep], ...]] = {}
        over = [o for o in instruction.outcomes if o.over_all and not o.each]
        self.cap_won = max([o.at_least for o in over if o.reads is CoinReads.WON] + [1])
        self.cap_lost = max([o.at_least for o in over if o.reads is CoinReads.LOST] + [1])
        self._expect: dict[tuple[FlipState, int], dict[str, Fraction]] = {}
        self._totals: dict[tuple[FlipState, int, Totals], dict[Totals, Fraction]] = {}

    def run(self, faces: tuple[int, ...], state: FlipState) -> FlipStep:
        return flip_step(
            self.instruction,
            count=self.count,
            source=_Faces(faces),
            board=self.board,
            chooser=self.chooser,
            state=state,
            players=self.players,
            name=self.name,
        )

    def steps(self, state: FlipState) -> tuple[tuple[Fraction, FlipStep], ...]:
        """Every way one execution from ``state`` can go, with its probability."""
        known = self._steps.get(state)
        if known is not None:
            return known
        found: list[tuple[Fraction, FlipStep]] = []
        if not self.ordered:
            n = self.count
            for heads in range(n + 1):
                faces = (CoinFace.HEADS.face,) * heads + (CoinFace.TAILS.face,) * (n - heads)
                found.append((Fraction(_choose(n, heads), 2**n), self.run(faces, state)))
        else:
            pending: list[tuple[int, ...]] = [()]
            while pending:
                faces = pending.pop()
                try:
                    step = self.run(faces, state)
                except _Branch:
                    if len(pending) + len(found) > MAX_SEQUENCES:
                        raise RollLimitError(
                            f"odds: more than {MAX_SEQUENCES} face sequences for one flip; use simulate instead"
                        ) from None
                    pending += [faces + (face,) for face in (2, 1)]
                    continue
                found.append((Fraction(1, 2 ** len(faces)), step))
        result = tuple(found)
        self._steps[state] = result
        return result

    def goes_on(self, step: FlipStep, done: int) -> bool:
        return step.again and (self.times is None or done + 1 < self.times)

    def expectations(self, state: FlipState, done: int) -> dict[str, Fraction]:
        """Expected executions, flips won and lost, heads, tails and triggers from here on."""
        key = (state, done if self.times is not None else 0)
        if key in self._expect:
            return self._expect[key]
        total: defaultdict[str, Fraction] = defaultdict(Fraction)
        loop = Fraction(0)
        for p, step in self.steps(state):
            execution = step.execution
            total["executions"] += p
            total["won"] += p * execution.won
            total["lost"] += p * execution.lost
            total["heads"] += p * sum(1 for s in execution.results if s is CoinFace.HEADS)
            total["tails"] += p * sum(1 for s in execution.results if s is CoinFace.TAILS)
            for hit in step.triggers:
                total["trigger:" + hit.card] += p
            if not self.goes_on(step, done):
                continue
            if self.times is None and step.state == state:
                loop += p
                continue
            for name, value in self.expectations(step.state, done + 1).items():
                total[name] += p * value
        if loop >= 1:
            raise RollLimitError("odds: this flip never stops (every execution asks for another)")
        result = {name: Fraction(value) / (1 - loop) for name, value in total.items()}
        self._expect[key] = result
        return result

    def totals(self, state: FlipState, done: int, so_far: Totals) -> dict[Totals, Fraction]:
        """The distribution of (flips won, flips lost) over the whole resolution, capped."""
        key = (state, done if self.times is not None else 0, so_far)
        if key in self._totals:
            return self._totals[key]
        found: defaultdict[Totals, Fraction] = defaultdict(Fraction)
        loop = Fraction(0)
        for p, step in self.steps(state):
            won = min(so_far[0] + step.execution.won, self.cap_won)
            lost = min(so_far[1] + step.execution.lost, self.cap_lost)
            if not self.goes_on(step, done):
                found[(won, lost)] += p
                continue
            if self.times is None and step.state == state and (won, lost) == so_far:
                loop += p
                continue
            for final, q in self.totals(step.state, done + 1, (won, lost)).items():
                found[final] += p * q
        if loop >= 1:
            raise RollLimitError("odds: this flip never stops (every execution asks for another)")
        result = {final: Fraction(q) / (1 - loop) for final, q in found.items()}
        self._totals[key] = result
        return result


def coin_odds(
    instruction: FlipInstruction,
    *,
    board: Board | None = None,
    policy: str = "decline",
    amounts: Mapping[str, int] | None = None,
    players: int = 2,
    name: str = "coin",
) -> CoinOdds:
    """Exact odds of a flip instruction.

    >>> from mtgdice.rules.coins import Until
    >>> odds = coin_odds(FlipInstruction(call=True, until=Until.LOSE))
    >>> odds.expected_won, odds.expected_lost, odds.expected_executions
    (Fraction(1, 1), Fraction(1, 1), Fraction(2, 1))
    """
    values = amounts or {}
    count = instruction.count.value(values)
    if not 0 <= count <= MAX_COINS:
        raise RollLimitError(f"odds: {count} coins at once; the exact odds take 0 to {MAX_COINS}, use simulate")
    times = instruction.times.value(values) if instruction.times is not None else None
    if times is not None and not 0 < times <= MAX_TIMES:
        raise RollLimitError(f"odds: a flip repeated {times} times; the exact odds follow 1 to {MAX_TIMES}")
    solver = _Solver(instruction, board or Board(), policy, count, times, players, name)
    start = FlipState()
    first = solver.steps(start)
    expected = solver.expectations(start, 0)
    totals = solver.totals(start, 0, (0, 0))
    outcomes = tuple(_outcome(solver, index, first, expected, totals) for index in range(len(instruction.outcomes)))
    counted = sum((p * len(step.execution.results) for p, step in first), Fraction(0))
    results = tuple(
        (side.value, sum((p * step.execution.results.count(side) for p, step in first), Fraction(0)) / counted)
        for side in CoinFace
        if counted
    )
    won: defaultdict[int, Fraction] = defaultdict(Fraction)
    for p, step in first:
        won[step.execution.won] += p
    triggers = tuple(
        sorted((key.removeprefix("trigger:"), value) for key, value in expected.items() if key.startswith("trigger:"))
    )
    return CoinOdds(
        outcomes,
        results,
        tuple(sorted(won.items())),
        expected.get("won", Fraction(0)),
        expected.get("lost", Fraction(0)),
        expected.get("executions", Fraction(0)),
        triggers,
    )


def _outcome(
    solver: _Solver,
    index: int,
    first: tuple[tuple[Fraction, FlipStep], ...],
    expected: Mapping[str, Fraction],
    totals: Mapping[Totals, Fraction],
) -> Fraction:
    outcome = solver.instruction.outcomes[index]
    if outcome.over_all and outcome.each:
        return expected.get(outcome.reads.value, Fraction(0))
    if outcome.over_all and outcome.reads in (CoinReads.WON, CoinReads.LOST):
        position = 0 if outcome.reads is CoinReads.WON else 1
        other = 1 - position

        def holds(final: Totals) -> bool:
            if outcome.every:
                return final[other] == 0 and final[position] >= 1
            return final[position] >= outcome.at_least

        return sum((p for final, p in totals.items() if holds(final)), Fraction(0))
    if outcome.each:
        return sum((p * outcome.meeting(step.execution.counted) for p, step in first), Fraction(0))
    return sum((p for p, step in first if index in step.execution.outcomes), Fraction(0))
