"""Fast simulation of one execution of a roll instruction, vectorised with numpy.

:func:`simulate` rolls the first execution of an instruction on a board many times, in chunks,
with a seeded ``np.random.Generator(np.random.PCG64(seed))``, and counts what the odds engine
counts: each result (or total), each table row, no row, doubles, roll again, and triggerings per
card. The vectorised path covers numbered dice whose order cannot matter (the odds engine's
``order_free``) and with no reroll: ``n`` dice, extra dice that ignore the lowest, the
instruction's own ignore or keep highest, static and printed modifiers, tables, doubles,
repeat-when and triggers. It reads the rules from the rule objects themselves: the number of
dice and of counted dice and the modifier per die come from running ``resolve`` on a probe, and
every table row and condition is tabulated once per face by ``ResultsTable.row_for`` and
``Condition.holds``. Anything else falls back to looping ``resolve`` with a ``SeededSource``.

numpy is imported only when a simulation runs. This package leaves out whole resolutions
(expected executions: use :mod:`mtgdice.odds`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mtgdice.odds.enumerate import Problem, ResultKey, count_first_roll, summarize
from mtgdice.odds.fast import order_free
from mtgdice.rules import (
    Board,
    DieRoll,
    Event,
    Modifier,
    Policy,
    PolicyChooser,
    RerollPermission,
    RollInstruction,
    SeededSource,
    Trigger,
    TurnState,
    resolve,
)

CHUNK = 1 << 20
"""Rolls per vectorised chunk (bounded memory: about ``CHUNK * dice`` bytes)."""


@dataclass(frozen=True, slots=True)
class Simulation:
    """Counts over ``rolls`` simulated first executions.

    >>> from mtgdice.rules import Amount, Die
    >>> sim = simulate(RollInstruction(Amount(2), Die(6)), rolls=1000, seed=1)
    >>> sim.rolls, sum(sim.results.values())
    (1000, 1000)
    """

    rolls: int
    results: dict[ResultKey, int]
    rows: tuple[int, ...]
    no_row: int
    doubles: int
    again: int
    triggers: dict[str, int] = field(default_factory=dict)
    method: str = "vectorised"


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
) -> Simulation:
    """Simulate ``rolls`` first executions of ``instruction`` (see the module docstring)."""
    problem = Problem(
        instruction, source, board or Board(), PolicyChooser(policy), dict(amounts or {}), turn or TurnState()
    )
    plan = _plan(problem) if vectorised else None
    if plan is None:
        return _loop(problem, rolls, seed, progress)
    return _vectorised(problem, plan, rolls, seed, chunk, progress)


@dataclass(frozen=True, slots=True)
class _Plan:
    sides: int
    first: int
    counted: int
    delta: int
    row_of: Any  # numpy array: row index per result (offset), -1 for no row
    again_of: Any  # numpy bool array per natural face, or None
    row_again: Any  # numpy bool array per row, or None
    die_triggers: tuple[tuple[str, Any], ...]  # card, bool array per natural face
    batch_triggers: tuple[str, ...]


def _plan(problem: Problem) -> _Plan | None:
    import numpy as np

    instruction = problem.instruction
    die = instruction.die_for(dict(problem.amounts))
    if die.sides is None or not order_free(problem):
        return None
    active = list(problem.board.active())
    if any(isinstance(effect, RerollPermission) for _, _, _, effect in active):
        return None
    if any(
        isinstance(effect, Trigger)
        and (
            effect.nth_this_turn is not None
            or effect.purpose
            or (effect.event is Event.DICE_ROLLED and (effect.condition is not None or effect.doubles))
        )
        for _, _, _, effect in active
    ):
        return None  # batch triggers with a condition or doubles, Nth die, purposes: resolve() loop
    if instruction.table_each_result:
        return None
    first = count_first_roll(problem)
    if first == 0:
        return None
    probe = problem.run((1,) * first)
    execution = probe.executions[0]
    counted = len(execution.counted)
    natural = execution.counted[0].natural
    result = execution.counted[0].result
    assert natural is not None and result is not None
    delta = result - natural
    sides = die.sides

    def roll_of(face: int) -> DieRoll:
        return DieRoll(0, die, face, (Modifier(delta, problem.source),) if delta else ())

    low, high = counted * (1 + delta), counted * (sides + delta)
    table = instruction.table
    row_of = np.array(
        [
            table.row_for(value) if table is not None and table.row_for(value) is not None else -1
            for value in range(low, high + 1)
        ],
        dtype=np.int16,
    )
    again_of = None
    if instruction.repeat_when is not None:
        if instruction.repeat_optional and Policy(problem.chooser.policy) is not Policy.ACCEPT:  # type: ignore[attr-defined]
            again_of = np.zeros(sides + 1, dtype=bool)
        else:
            repeat = instruction.repeat_when
            again_of = np.array([False] + [repeat.holds(roll_of(face)) for face in range(1, sides + 1)])
    row_again = None
    if table is not None and table.roll_again:
        accept = Policy(problem.chooser.policy) is Policy.ACCEPT  # type: ignore[attr-defined]
        row_again = np.array(
            [row.roll_again and (accept or not row.roll_again_optional) for row in table.rows] + [False]
        )
    die_triggers: list[tuple[str, Any]] = []
    batch_triggers: list[str] = []
    for _, _, permanent, effect in active:
        if not isinstance(effect, Trigger) or effect.planar or (effect.sides is not None and effect.sides != sides):
            continue
        if effect.event is Event.DICE_ROLLED:
            batch_triggers.append(permanent.name)
            continue
        condition = effect.condition
        holds = [False] + [condition is None or condition.holds(roll_of(face)) for face in range(1, sides + 1)]
        die_triggers.append((permanent.name, np.array(holds)))
    return _Plan(sides, first, counted, delta, row_of, again_of, row_again, tuple(die_triggers), tuple(batch_triggers))


def _chunks(rolls: int, chunk: int, progress: bool, label: str) -> Any:
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


def _kept(faces: Any, counted: int) -> Any:
    import numpy as np

    first = faces.shape[0]
    if counted == first:
        return faces
    if counted == 1:
        top = faces[0]
        for row in faces[1:]:
            top = np.maximum(top, row)
        return top[None, :]
    return np.sort(faces, axis=0)[first - counted :]


def _vectorised(problem: Problem, plan: _Plan, rolls: int, seed: int, chunk: int, progress: bool) -> Simulation:
    import numpy as np

    generator = np.random.Generator(np.random.PCG64(seed))
    low = plan.counted * (1 + plan.delta)
    span = plan.row_of.shape[0]
    value_counts = np.zeros(span, dtype=np.int64)
    doubles = again = 0
    die_trigger_counts = [0] * len(plan.die_triggers)
    dtype = np.uint8 if plan.sides < 256 else np.int64
    for size in _chunks(rolls, chunk, progress, "simulating"):
        faces = generator.integers(1, plan.sides + 1, size=(plan.first, size), dtype=dtype)
        kept = _kept(faces, plan.counted)
        if plan.counted == 1:
            totals = kept[0]
            value_counts += np.bincount(totals, minlength=span + 1)[1 : span + 1]
        else:
            totals = kept.sum(axis=0, dtype=np.int64)
            value_counts += np.bincount(totals - plan.counted, minlength=span)[:span]
        if plan.counted >= 2:
            doubles += int(np.count_nonzero((kept == kept[0]).all(axis=0)))
        flag = None
        if plan.again_of is not None:
            flag = plan.again_of[kept].any(axis=0)
        if plan.row_again is not None:
            by_row = plan.row_again[plan.row_of[totals.astype(np.int64) - plan.counted]]
            flag = by_row if flag is None else flag | by_row
        if flag is not None:
            again += int(np.count_nonzero(flag))
        for position, (_, holds) in enumerate(plan.die_triggers):
            die_trigger_counts[position] += int(np.count_nonzero(holds[kept]))
    table = problem.instruction.table
    row_totals = [0] * (len(table.rows) if table is not None else 0)
    no_row = 0
    results: dict[ResultKey, int] = {}
    for offset, count in enumerate(value_counts.tolist()):
        if not count:
            continue
        results[offset + low] = count
        row = int(plan.row_of[offset])
        if row >= 0:
            row_totals[row] += count
        else:
            no_row += count
    triggers: dict[str, int] = {}
    for (card, _), count in zip(plan.die_triggers, die_trigger_counts, strict=True):
        triggers[card] = triggers.get(card, 0) + count
    for card in plan.batch_triggers:
        triggers[card] = triggers.get(card, 0) + rolls
    return Simulation(
        rolls,
        results,
        tuple(row_totals),
        no_row if table is not None else 0,
        doubles,
        again,
        {card: count for card, count in triggers.items() if count},
        "vectorised",
    )


def _loop(problem: Problem, rolls: int, seed: int, progress: bool) -> Simulation:
    dice = SeededSource(seed)
    table = problem.instruction.table
    rows = [0] * (len(table.rows) if table is not None else 0)
    results: dict[ResultKey, int] = {}
    no_row = doubles = again = 0
    triggers: dict[str, int] = {}
    for size in _chunks(rolls, 4096, progress, "resolving"):
        for _ in range(size):
            summary = summarize(
                resolve(
                    problem.instruction,
                    source=problem.source,
                    dice=dice,
                    board=problem.board,
                    chooser=problem.chooser,
                    amounts=problem.amounts,
                    turn=problem.turn,
                    limit=1,
                )
            )
            results[summary.value] = results.get(summary.value, 0) + 1
            if table is not None:
                for row in summary.rows if summary.rows is not None else (summary.row,):
                    if row is None:
                        no_row += 1
                    else:
                        rows[row] += 1
            doubles += summary.doubles
            again += summary.again
            for card, count in summary.triggers:
                triggers[card] = triggers.get(card, 0) + count
    return Simulation(rolls, results, tuple(rows), no_row, doubles, again, triggers, "resolve loop")
