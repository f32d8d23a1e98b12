"""Simulation of a flip instruction (CR 705): whole resolutions through :func:`mtgdice.rules.flip`.

Each simulated resolution is a call of the rules' own :func:`~mtgdice.rules.coins.flip` with a
seeded source and the odds' policy (:class:`mtgdice.odds.coins.CoinPolicy`), and the counts are what
:func:`mtgdice.odds.coins.coin_odds` gives exactly: flips won and lost, executions, triggers, how
often each outcome held in the first execution (or over the resolution, for one that reads every
execution), and the counted sides of the first execution. It holds no rule of its own.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from mtgdice.odds.coins import CoinPolicy
from mtgdice.rules import Board
from mtgdice.rules.coins import CoinReads, FlipInstruction, FlipResolution, flip
from mtgdice.rules.errors import InputError
from mtgdice.rules.sources import SeededSource


@dataclass(frozen=True, slots=True)
class CoinSimulation:
    """Counts over ``rolls`` simulated resolutions of a flip; ``..._squared`` sums give the spread.

    >>> from mtgdice.rules.coins import Until
    >>> sim = simulate_flips(FlipInstruction(call=True, until=Until.LOSE), rolls=200, seed=3)
    >>> sim.rolls, sim.lost
    (200, 200)
    """

    rolls: int
    won: int
    won_squared: int
    lost: int
    executions: int
    executions_squared: int
    outcomes: tuple[int, ...]
    results: dict[str, int]
    triggers: dict[str, int]

    def mean_and_error(self, total: int, squared: int) -> tuple[float, float]:
        """The mean per resolution and its standard error."""
        mean = total / self.rolls
        variance = max(squared / self.rolls - mean * mean, 0.0)
        return mean, math.sqrt(variance / self.rolls)

    def to_json(self) -> dict[str, object]:
        return {
            "sides": "coin",
            "rolls": self.rolls,
            "won": self.won,
            "lost": self.lost,
            "executions": self.executions,
            "outcomes": list(self.outcomes),
            "results": dict(self.results),
            "triggers": dict(self.triggers),
        }


def simulate_flips(
    instruction: FlipInstruction,
    *,
    rolls: int,
    seed: int = 0,
    board: Board | None = None,
    policy: str = "decline",
    amounts: Mapping[str, int] | None = None,
    players: int = 2,
    name: str = "coin",
) -> CoinSimulation:
    """Simulate ``rolls`` whole resolutions of ``instruction`` with a seeded source."""
    if rolls < 1:
        raise InputError("rolls", f"{rolls} is not a number of resolutions; give 1 or more")
    source = SeededSource(seed)
    chooser = CoinPolicy(policy)
    won = won_squared = lost = executions = executions_squared = 0
    outcomes = [0] * len(instruction.outcomes)
    results: Counter[str] = Counter()
    triggers: Counter[str] = Counter()
    for _ in range(rolls):
        resolution = flip(
            instruction, source=source, board=board, chooser=chooser, amounts=amounts, players=players, name=name
        )
        won += resolution.flips_won
        won_squared += resolution.flips_won**2
        lost += resolution.flips_lost
        executions += len(resolution.executions)
        executions_squared += len(resolution.executions) ** 2
        for side in resolution.executions[0].results:
            results[side.value] += 1
        for hit in resolution.triggers:
            triggers[hit.card] += 1
        for index, count in enumerate(_outcomes(instruction, resolution)):
            outcomes[index] += count
    return CoinSimulation(
        rolls, won, won_squared, lost, executions, executions_squared, tuple(outcomes), dict(results), dict(triggers)
    )


def _outcomes(instruction: FlipInstruction, resolution: FlipResolution) -> list[int]:
    """For each outcome: whether it held (or, for one read per flip, for how many flips)."""
    first = resolution.executions[0]
    every = [coin for execution in resolution.executions for coin in execution.counted]
    found: list[int] = []
    for index, outcome in enumerate(instruction.outcomes):
        if outcome.over_all and outcome.each:
            found.append(outcome.meeting(every))
        elif outcome.over_all and outcome.reads in (CoinReads.WON, CoinReads.LOST):
            found.append(int(outcome.holds(every)))
        elif outcome.each:
            found.append(outcome.meeting(first.counted))
        else:
            found.append(int(index in first.outcomes))
    return found
