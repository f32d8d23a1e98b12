"""Fast simulation of whole resolutions of a roll instruction, vectorised with numpy.

:func:`simulate` resolves an instruction on a board many times with a seeded
``np.random.Generator(np.random.PCG64(seed))`` and counts what the odds engine gives exactly: for
the first execution each result (or total), each table row, no row, doubles and roll again; over
the whole resolution — every roll again and every "repeat this process N more times" carried out,
repeats of repeats included — the number of executions and the triggerings per card.

Two ways, one set of rules. When :func:`mtgdice.rules.vector.vector_plan` finds an array form for
everything on the board, the executions run in rounds over arrays (``execute_arrays``: the rules'
own array steps) for every simulated resolution still going; otherwise each resolution is a call of
:func:`mtgdice.rules.resolution` with a ``SeededSource``. This module draws faces, runs rounds and
counts; it holds no rule of its own. numpy is imported when a simulation runs.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from mtgdice.odds.enumerate import ResultKey, summarize
from mtgdice.rules import (
    MAX_EXECUTIONS,
    Board,
    Policy,
    PolicyChooser,
    Resolution,
    RollInstruction,
    SeededSource,
    TurnState,
    plan_of,
    resolve,
)
from mtgdice.rules.budget import Meter
from mtgdice.rules.errors import InputError, RollLimitError
from mtgdice.rules.vector import VectorExecution, VectorPlan, execute_arrays, vector_plan

if TYPE_CHECKING:
    from mtgdice.rules.arrays import Ints

CHUNK = 1 << 20
"""Resolutions per vectorised chunk (bounded memory: about ``CHUNK * dice * 8`` bytes a round)."""


@dataclass(frozen=True, slots=True)
class Simulation:
    """Counts over ``rolls`` simulated resolutions.

    ``results``, ``rows``, ``no_row``, ``doubles`` and ``again`` count first executions (as the
    odds engine's rows do); ``executions`` and ``triggers`` count over whole resolutions, and the
    ``..._squared`` sums (of each resolution's count squared) give their spread.

    >>> from mtgdice.rules import Amount, Die
    >>> sim = simulate(RollInstruction(Amount(2), Die(6)), rolls=1000, seed=1)
    >>> sim.rolls, sum(sim.results.values()), sim.executions
    (1000, 1000, 1000)
    """

    rolls: int
    results: dict[ResultKey, int]
    rows: tuple[int, ...]
    no_row: int
    doubles: int
    again: int
    triggers: dict[str, int] = field(default_factory=dict)
    executions: int = 0
    method: str = "vectorised"
    executions_squared: int = 0
    triggers_squared: dict[str, int] = field(default_factory=dict)

    @property
    def expected_executions(self) -> float:
        return self.executions / self.rolls if self.rolls else 0.0

    def standard_error(self, total: int, squared: int) -> float:
        """The standard error of a per-resolution mean from its total and sum of squares."""
        if self.rolls < 2:
            return float("inf")
        mean = total / self.rolls
        variance = max(squared / self.rolls - mean * mean, 0.0) * self.rolls / (self.rolls - 1)
        return float((variance / self.rolls) ** 0.5)


def simulate(
    instruction: RollInstruction,
    *,
    rolls: int,
    seed: int = 0,
    source: str = "~",
    board: Board | None = None,
    policy: Policy | str = Policy.DECLINE,
    amounts: Mapping[str, int] | None = None,
    turn: TurnState | None = None,
    chunk: int = CHUNK,
    progress: bool = False,
    vectorised: bool = True,
    players: int = 2,
    meter: Meter | None = None,
) -> Simulation:
    """Simulate ``rolls`` whole resolutions of ``instruction`` (see the module docstring).

    ``meter`` is the request's work budget: the rolls it may make, the array cells a chunk may hold
    (chunks shrink to fit), the dice one resolution may draw and the deadline."""
    meter = meter or Meter()
    if rolls < 1:
        raise InputError("rolls", f"{rolls} rolls: simulate 1 or more")
    if seed < 0:
        raise InputError("seed", f"{seed}: a seed of the generator is 0 or more")
    meter.spend_rolls(rolls)
    board = board or Board()
    chooser = PolicyChooser(policy)
    values = dict(amounts or {})
    start = turn or TurnState()
    _check_results(instruction, board, chooser, values, start, rolls, max(players, board.players), meter)
    plan = vector_plan(instruction, board, chooser, values, start) if vectorised and players == 2 else None
    counts = _Counts(instruction)
    if plan is None:
        _loop(counts, instruction, source, board, chooser, values, start, players, rolls, seed, progress, meter)
        return counts.result(rolls, "resolve loop")
    meter.check_cells(plan.plan.dice_count, f"one simulated roll of {plan.plan.dice_count} dice")
    meter.spend_draws(rolls * plan.plan.dice_count)  # the first executions; repeats add as they come
    chunk = max(1, min(chunk, meter.budget.cells // max(1, plan.plan.dice_count)))
    _vectorised(counts, plan, rolls, seed, chunk, progress, meter)
    return counts.result(rolls, "vectorised")


def _check_results(
    instruction: RollInstruction,
    board: Board,
    chooser: PolicyChooser,
    values: Mapping[str, int],
    start: TurnState,
    rolls: int,
    players: int,
    meter: Meter,
) -> None:
    """Refuse, before any die is drawn, a simulation whose counts of results could hold more
    values than the budget's ``cells``: one per roll, at most one per total the dice can show."""
    die = instruction.die_for(values)
    if die.sides is None or rolls <= meter.budget.cells:
        return
    dice = plan_of(instruction, board=board, chooser=chooser, amounts=values, turn=start).dice_count * players
    distinct = min(rolls, dice * (die.sides - 1) + 1)
    if distinct > meter.budget.cells:
        raise RollLimitError(
            f"simulate: {rolls} rolls of {die.name} dice may give {distinct} different results, more than "
            f"the {meter.budget.cells} values one simulation may count; simulate at most {meter.budget.cells} rolls"
        )


class _Counts:
    """What a simulation counts, filled by either way."""

    def __init__(self, instruction: RollInstruction) -> None:
        table = instruction.table
        self.table = table
        self.rows = [0] * (len(table.rows) if table is not None else 0)
        self.no_row = 0
        self.results: dict[ResultKey, int] = {}
        self.doubles = 0
        self.again = 0
        self.executions = 0
        self.executions_squared = 0
        self.triggers: dict[str, int] = {}
        self.triggers_squared: dict[str, int] = {}

    def resolution(self, executions: int, triggers: Mapping[str, int]) -> None:
        """Count one resolution's executions and triggerings (``resolution_arrays`` for many)."""
        self.executions += executions
        self.executions_squared += executions * executions
        for card, count in triggers.items():
            if count:
                self.triggers[card] = self.triggers.get(card, 0) + count
                self.triggers_squared[card] = self.triggers_squared.get(card, 0) + count * count

    def resolution_arrays(self, executions: Ints, triggers: Mapping[str, Ints]) -> None:
        """The same for arrays of per-resolution counts."""
        self.executions += int(executions.sum())
        self.executions_squared += int((executions * executions).sum())
        self.trigger_arrays(triggers)

    def single_executions(self, resolutions: int, triggers: Mapping[str, Ints]) -> None:
        """The same for ``resolutions`` that each had one execution."""
        self.executions += resolutions
        self.executions_squared += resolutions
        self.trigger_arrays(triggers)

    def trigger_arrays(self, triggers: Mapping[str, Ints]) -> None:
        for card, counts in triggers.items():
            total = int(counts.sum())
            if total:
                self.triggers[card] = self.triggers.get(card, 0) + total
                self.triggers_squared[card] = self.triggers_squared.get(card, 0) + int((counts * counts).sum())

    def result(self, rolls: int, method: str) -> Simulation:
        return Simulation(
            rolls,
            dict(sorted(self.results.items(), key=_order)),
            tuple(self.rows),
            self.no_row if self.table is not None else 0,
            self.doubles,
            self.again,
            dict(sorted(self.triggers.items())),
            self.executions,
            method,
            self.executions_squared,
            dict(sorted(self.triggers_squared.items())),
        )


def _order(item: tuple[ResultKey, int]) -> tuple[bool, bool, int, str]:
    value = item[0]
    return value is None, isinstance(value, str), value if isinstance(value, int) else 0, str(value)


def _chunks(rolls: int, chunk: int, progress: bool, label: str) -> Iterator[int]:
    sizes = [min(chunk, rolls - start) for start in range(0, rolls, chunk)]
    if not progress:
        yield from sizes
        return
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task(label, total=rolls)
        for size in sizes:
            yield size
            bar.advance(task, size)


def _vectorised(
    counts: _Counts, plan: VectorPlan, rolls: int, seed: int, chunk: int, progress: bool, meter: Meter
) -> None:
    import numpy as np

    generator = np.random.Generator(np.random.PCG64(seed))
    dtype = np.uint8 if plan.sides < 256 else np.int64
    dice = plan.plan.dice_count
    for size in _chunks(rolls, chunk, progress, "simulating"):
        if not plan.may_repeat:
            meter.check_time()
            execution = execute_arrays(plan, generator.integers(1, plan.sides + 1, size=(dice, size), dtype=dtype))
            _first_counts(counts, execution)
            counts.single_executions(size, _summed(execution.triggers))
            continue
        pending = np.ones(size, dtype=np.int64)
        done = np.zeros(size, dtype=np.int64)
        fired_by: dict[str, Ints] = {}
        rounds = 0
        # Every lane runs the first round; later rounds only the lanes still going. A lane that
        # stops never restarts, so every lane of round k has run in rounds 1..k: ``rounds`` is the
        # most executions any resolution of the chunk has had (a whole-lane slice spares a copy).
        lanes: Any = slice(None)
        going = size
        while going:
            meter.check_time()
            rounds += 1
            if rounds > 1:
                meter.spend_draws(dice * going)
            if rounds * dice > meter.budget.dice:
                meter.check_dice(rounds * dice)
            if rounds > MAX_EXECUTIONS:
                raise RollLimitError(
                    f"roll again: more than {MAX_EXECUTIONS} executions of one instruction in a simulated "
                    "resolution; the loop was stopped"
                )
            faces = generator.integers(1, plan.sides + 1, size=(dice, going), dtype=dtype)
            execution = execute_arrays(plan, faces)
            done[lanes] += 1
            pending[lanes] += execution.again - 1
            for card, fired in execution.triggers:
                lane_counts = fired_by.setdefault(card, np.zeros(size, dtype=np.int64))
                lane_counts[lanes] += fired
            if rounds == 1:
                _first_counts(counts, execution)
                if not execution.again.any():
                    break
            lanes = np.flatnonzero(pending > 0)
            going = int(lanes.size)
        counts.resolution_arrays(done, fired_by)


def _summed(triggers: tuple[tuple[str, Ints], ...]) -> dict[str, Ints]:
    """Per-lane triggerings per card (a card may hold several triggers)."""
    summed: dict[str, Ints] = {}
    for card, fired in triggers:
        summed[card] = summed[card] + fired if card in summed else fired
    return summed


def _first_counts(counts: _Counts, execution: VectorExecution) -> None:
    import numpy as np

    if execution.bounds is not None:
        low, high = execution.bounds
    else:
        low, high = int(execution.value.min()), int(execution.value.max())
    span = high - low + 1
    if span > 4 * execution.value.size + 64:
        # Results spread over a range far wider than the sample (a d1000000000): count the values
        # present, in memory that grows with the sample, not with the die.
        present, tally = np.unique(execution.value, return_counts=True)
        for value, count in zip(present.tolist(), tally.tolist(), strict=True):
            counts.results[value] = counts.results.get(value, 0) + count
    else:
        if 0 <= low and high <= 4 * execution.value.size + 64:
            low = 0  # count from 0: spares a shifted copy of the values
        tallies = np.bincount(execution.value - low if low else execution.value)
        for offset in np.flatnonzero(tallies).tolist():
            value = low + offset
            counts.results[value] = counts.results.get(value, 0) + int(tallies[offset])
    if counts.table is not None:
        by_row = np.bincount(execution.row.astype(np.int64) + 1, minlength=len(counts.rows) + 1)
        counts.no_row += int(by_row[0])
        for index in range(len(counts.rows)):
            counts.rows[index] += int(by_row[index + 1])
    if execution.doubles.strides != (0,):  # a broadcast False: one die counted
        counts.doubles += int(np.count_nonzero(execution.doubles))
    if execution.again.strides != (0,):  # a broadcast 0: nothing asks again
        counts.again += int(np.count_nonzero(execution.again))


def _loop(
    counts: _Counts,
    instruction: RollInstruction,
    source: str,
    board: Board,
    chooser: PolicyChooser,
    amounts: Mapping[str, int],
    turn: TurnState,
    players: int,
    rolls: int,
    seed: int,
    progress: bool,
    meter: Meter,
) -> None:
    dice = SeededSource(seed)
    for size in _chunks(rolls, 256, progress, "resolving"):
        meter.check_time()
        for _ in range(size):
            resolution = resolve(
                instruction,
                source=source,
                dice=dice,
                board=board,
                chooser=chooser,
                amounts=amounts,
                turn=turn,
                players=players,
                meter=meter,
            )
            fired: dict[str, int] = {}
            for hit in resolution.triggers:
                fired[hit.card] = fired.get(hit.card, 0) + 1
            counts.resolution(len(resolution.executions), fired)
            meter.spend_draws(sum(len(execution.dice) for execution in resolution.executions))
            if not resolution.executions:
                continue
            first = summarize(_first(resolution))
            counts.results[first.value] = counts.results.get(first.value, 0) + 1
            if counts.table is not None:
                for row in first.rows if first.rows is not None else (first.row,):
                    if row is None:
                        counts.no_row += 1
                    else:
                        counts.rows[row] += 1
            counts.doubles += first.doubles
            counts.again += first.again


def _first(resolution: Resolution) -> Resolution:
    """The resolution cut to its first execution, as the odds engine summarises one execution."""
    first = resolution.executions[0]
    return replace(resolution, executions=(first,), triggers=tuple(h for h in resolution.triggers if h.execution == 0))
