"""A work budget: how much one request may roll, ask, enumerate, hold and take in time.

Every path that can be asked for a lot checks the same :class:`Budget` through a :class:`Meter`:
``resolve`` (dice drawn and options shown in one resolution, the deadline), the odds engine
(resolutions run, values held by a fast path), the simulation (rolls, array cells per chunk) and
the fairness test. Going past a limit is one :class:`~mtgdice.rules.errors.RollLimitError` that
names the limit and says what to do instead; nothing is half done in a way anyone sees. The command
line works with :data:`CLI_BUDGET`; a web server with the smaller :data:`WEB_BUDGET`.

This module leaves out *where* the work is counted (each path counts its own) and how a server
runs work off its event loop.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from mtgdice.rules.errors import RollLimitError


@dataclass(frozen=True, slots=True)
class Budget:
    """Limits of one request.

    ``dice``: dice drawn by one resolution (every execution, extra die and reroll); ``options``:
    options shown across the decisions of one resolution; ``runs``: resolutions one odds answer may
    run; ``cells``: values a fast path, a simulation chunk or a fairness count may hold at once;
    ``rolls``: simulated resolutions or fairness rolls one request may make; ``draws``: dice all
    of those may draw together; ``seconds``: wall time for the whole request (``None``: none).

    >>> WEB_BUDGET.dice < CLI_BUDGET.dice
    True
    """

    dice: int = 250_000
    options: int = 2_000_000
    runs: int = 200_000
    cells: int = 4_000_000
    rolls: int = 100_000_000
    draws: int = 2_000_000_000
    seconds: float | None = None


CLI_BUDGET = Budget()
"""What a person at a terminal may ask for (bounded memory; a deadline only when asked for)."""

WEB_BUDGET = Budget(
    dice=100_000, options=100_000, runs=50_000, cells=2_000_000, rolls=1_000_000, draws=20_000_000, seconds=5.0
)
"""What one web request may ask for: a roll, an odds panel, well inside a worker's deadline."""


@dataclass(slots=True)
class Meter:
    """A budget being spent by one request.

    >>> meter = Meter(Budget(runs=2))
    >>> meter.spend_runs(2)
    >>> meter.spend_runs(1)
    Traceback (most recent call last):
      ...
    mtgdice.rules.errors.RollLimitError: budget: more than 2 resolutions for one answer; ...
    """

    budget: Budget = CLI_BUDGET
    started: float = field(default_factory=time.monotonic)
    runs: int = 0
    rolls: int = 0
    draws: int = 0

    @property
    def deadline(self) -> float | None:
        seconds = self.budget.seconds
        return None if seconds is None else self.started + seconds

    def check_time(self) -> None:
        """Refuse to go on past the deadline."""
        deadline = self.deadline
        if deadline is not None and time.monotonic() > deadline:
            raise RollLimitError(
                f"budget: this request took more than the {self.budget.seconds:g} s it may take; "
                "ask for less (fewer dice, fewer rolls, a smaller board)"
            )

    def spend_runs(self, runs: int = 1) -> None:
        self.runs += runs
        if self.runs > self.budget.runs:
            raise RollLimitError(
                f"budget: more than {self.budget.runs} resolutions for one answer; "
                "estimate this roll with 'mtgdice simulate', or use a smaller board"
            )

    def spend_rolls(self, rolls: int) -> None:
        self.rolls += rolls
        if self.rolls > self.budget.rolls:
            raise RollLimitError(
                f"budget: {self.rolls} rolls is more than the {self.budget.rolls} one request may make"
            )

    def spend_draws(self, draws: int) -> None:
        self.draws += draws
        if self.draws > self.budget.draws:
            raise RollLimitError(
                f"budget: more than {self.budget.draws} dice drawn by this request; ask for fewer rolls or dice"
            )

    def check_cells(self, cells: int, what: str) -> None:
        """Refuse to hold ``cells`` values at once for ``what``."""
        if cells > self.budget.cells:
            raise RollLimitError(
                f"budget: {what} would hold {cells} values at once, more than the {self.budget.cells} allowed"
            )

    def check_dice(self, dice: int) -> None:
        if dice > self.budget.dice:
            raise RollLimitError(
                f"budget: more than {self.budget.dice} dice drawn in one resolution; roll fewer dice or repeat less"
            )

    def check_options(self, options: int) -> None:
        if options > self.budget.options:
            raise RollLimitError(
                f"budget: more than {self.budget.options} options asked in one resolution; a smaller board"
            )
