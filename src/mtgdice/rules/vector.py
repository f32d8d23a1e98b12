"""The steps of one execution over numpy arrays: many simulated rolls at once (docs/design.md, architecture).

Each function here is the array form of a step of ``rules/resolution.py`` and calls the array form
each effect class provides beside its scalar behaviour (``Replacement.vectorised``,
``ModifierEffect.delta_for_all``, ``Condition.holds_array``, ``ResultsTable.rows_array``,
``Trigger.count_array``). :func:`vector_plan` says whether a roll can go this way at all: only
when the chooser is a stateless policy, the die is numbered and every effect on the board has an
array form (default-deny: an effect class without one, or with an undeclared footprint, sends the
simulation to the per-roll ``resolve()`` loop). The simulation (``mtgdice.sim``) only draws the
faces, runs the executions in rounds and counts.

numpy is imported only when these functions run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mtgdice.rules.board import Board, Holder
from mtgdice.rules.choices import Ask, Chooser, Decision, PolicyChooser, Topic
from mtgdice.rules.dice import Die
from mtgdice.rules.effects.face import FaceEffect
from mtgdice.rules.effects.modifier import ModifierEffect
from mtgdice.rules.effects.passive import Passive
from mtgdice.rules.effects.replacement import RollPlan
from mtgdice.rules.effects.trigger import Trigger
from mtgdice.rules.footprint import Footprint
from mtgdice.rules.instruction import RollInstruction
from mtgdice.rules.players import YOU
from mtgdice.rules.resolution import TurnState, effects_of, plan_of

if TYPE_CHECKING:
    from mtgdice.rules.arrays import Ints, Mask, Small


@dataclass(frozen=True, slots=True)
class VectorPlan:
    """Everything the array steps need, found once from the rule objects."""

    instruction: RollInstruction
    plan: RollPlan
    sides: int
    delta: int
    row_again: Mask | None  # per row (and a last False for "no row")
    row_times: Ints | None  # executions asked for per row
    repeat_accepted: bool
    triggers: tuple[Holder[Trigger], ...]

    @property
    def counted(self) -> int:
        return len(self.plan.slots) - self.plan.lowest

    @property
    def may_repeat(self) -> bool:
        """Whether an execution can ask for another (a roll-again row taken, or a repeat)."""
        return self.repeat_accepted or (self.row_again is not None and bool(self.row_again.any()))


def vector_plan(
    instruction: RollInstruction,
    board: Board,
    chooser: Chooser,
    amounts: Mapping[str, int],
    turn: TurnState,
) -> VectorPlan | None:
    """The array plan of ``instruction`` on ``board``, or ``None`` when the roll must be resolved
    one by one (see the module docstring)."""
    if not isinstance(chooser, PolicyChooser):
        return None
    found = instruction.footprint()
    if found & (Footprint.CHOOSES_RESULT | Footprint.STORED | Footprint.EACH_PLAYER | Footprint.MIXED):
        return None
    if instruction.table_each_result or instruction.purpose:
        return None
    die = instruction.die_for(amounts)
    if die.sides is None:
        return None
    effects = effects_of(board)
    if effects.rerolls or effects.coins:
        return None
    for holder in board.holders():
        footprint = holder.effect.footprint()
        if footprint & (Footprint.UNDECLARED | Footprint.TURN_STATE | Footprint.LIMITED):
            return None
    if not all(holder.effect.vectorised() for holder in effects.replacements):
        return None
    delta = instruction.modifier.value(amounts) if instruction.modifier is not None else 0
    for modifier in effects.modifiers:
        added = _delta(modifier, die)
        if added is None:
            return None
        delta += added
    for holder in board.holders():
        effect = holder.effect
        known = isinstance(effect, (Trigger, ModifierEffect, FaceEffect, Passive)) or holder in effects.replacements
        if not known:
            return None
    triggers: list[Holder[Trigger]] = []
    for holder in effects.triggers:
        if not isinstance(holder.effect, Trigger) or holder.effect.nth_this_turn is not None:
            return None
        if holder.effect.purpose or holder.effect.planar:
            continue  # never meets this roll: no purpose, a numbered die
        triggers.append(holder)  # type: ignore[arg-type]
    plan = plan_of(instruction, board=board, chooser=chooser, amounts=amounts, turn=turn)
    if plan.chosen or set(plan.slots) - {1} or not plan.slots:
        return None
    import numpy as np

    table = instruction.table
    row_again = row_times = None
    if table is not None and table.roll_again:
        accepted = _accepts(chooser)
        row_again = np.array(
            [row.roll_again and (accepted or not row.roll_again_optional) for row in table.rows] + [False]
        )
        row_times = np.array([row.roll_again_times for row in table.rows] + [0], dtype=np.int64)
    repeat_accepted = instruction.repeat_when is not None and (not instruction.repeat_optional or _accepts(chooser))
    return VectorPlan(instruction, plan, die.sides, delta, row_again, row_times, repeat_accepted, tuple(triggers))


def _delta(holder: Holder[ModifierEffect], die: Die) -> int | None:
    return holder.effect.delta_for_all(die, holder)


def _accepts(chooser: PolicyChooser) -> bool:
    """How a stateless policy answers an optional roll again (it shows no values: the same answer
    for every roll)."""
    return bool(chooser.decide(Decision(Ask.YES_NO, Topic.ROLL_AGAIN, YOU, "Roll again?", ("no", "yes"))))


@dataclass(frozen=True, slots=True)
class VectorExecution:
    """One execution of many rolls: per lane the value read, the row (-1: none), doubles, how many
    more executions it asks for, and the triggerings per card."""

    value: Ints
    row: Ints
    doubles: Mask
    again: Ints
    triggers: tuple[tuple[str, Ints], ...]
    bounds: tuple[int, int] | None = None
    """The least and greatest value the plan can read (known from the plan: no pass over the lanes)."""


def execute_arrays(plan: VectorPlan, faces: Small) -> VectorExecution:
    """Steps 4 to 10 over ``faces`` (dice x lanes, the physical roll in draw order)."""
    import numpy as np

    # Step 4: ignore the lowest by face (CR 706.6); which of tied dice does not change a value.
    counted = plan.counted
    kept = faces
    if plan.plan.lowest and counted > 1:
        kept = np.sort(faces, axis=0)[faces.shape[0] - counted :]
    elif plan.plan.lowest:
        # The highest die, row by row: contiguous passes, cheaper than a reduction down the columns.
        top = faces[0].copy()
        for others in faces[1:]:
            np.maximum(top, others, out=top)
        kept = top[None, :]
    table = plan.instruction.table
    shape = (faces.shape[1],)
    if counted == 1:
        # One counted die: its result is the value read (CR 706.3a), one array for both.
        value: Ints = kept[0].astype(np.int64)
        if plan.delta:
            value += plan.delta  # Steps 5-6: every counted die gets the same modifiers (CR 706.2)
        reads_natural = plan.delta and (plan.instruction.repeat_when is not None or plan.triggers)
        natural: Ints = (value - plan.delta if reads_natural else value)[None, :]  # only read by those
        result: Ints = value[None, :]
    else:
        natural = np.asarray(kept, dtype=np.int64)
        # Steps 5-6: every counted die gets the same modifiers here (CR 706.2).
        result = natural + plan.delta
        # Step 7: the table is read by the total of the counted dice (CR 706.3a).
        value = np.asarray(result.sum(axis=0), dtype=np.int64)
    row: Ints = table.rows_array(value) if table is not None else np.broadcast_to(np.int64(-1), shape)
    # Step 9: doubles (CR 706.5).
    doubles: Mask = (
        np.asarray((natural == natural[0]).all(axis=0), dtype=np.bool_)
        if counted >= 2
        else np.broadcast_to(np.False_, shape)
    )
    # Step 8: roll again and repeat (CR 706.3c).
    again: Ints = np.broadcast_to(np.int64(0), shape)  # read-only: replaced, never written
    if plan.row_again is not None and plan.row_times is not None:
        again = np.where(plan.row_again[row], plan.row_times[row], 0)
    repeat = plan.instruction.repeat_when
    if repeat is not None and plan.repeat_accepted:
        hit = repeat.holds_array(natural, result, plan.sides).any(axis=0)
        again = np.where(hit & (again == 0), 1, again)
    # Step 10: triggers read the counted dice.
    counts = []
    for holder in plan.triggers:
        if not holder.sees(YOU):
            continue
        fired = holder.effect.count_array(natural, result, plan.sides, doubles)
        assert fired is not None
        counts.append((holder.name, fired))
    bounds = (counted * (1 + plan.delta), counted * (plan.sides + plan.delta))
    return VectorExecution(value, row, doubles, again, tuple(counts), bounds)
