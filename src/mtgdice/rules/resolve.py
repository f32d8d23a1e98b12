"""Resolving one roll instruction, CR 706 step by step (DESIGN.md §3).

:func:`resolve` carries out an instruction against a board, with faces from a ``DiceSource`` and
decisions from a ``Chooser``. One execution is:

1. the instruction (kind and number of dice, CR 706.1);
2. replacement effects on the roll (CR 616): extra dice, per-die pairs;
3. the physical roll, every die a record with an identity;
4. ignoring (CR 706.6): pair choices, then the lowest (roller picks among ties);
5. the reroll window, then the ±N window (CR 706.2b), decisions die by die in roll order;
6. results (CR 706.2): natural + modifiers;
7. choosing one result, then the results table (CR 706.3a);
8. roll again / repeat (CR 706.3c), bounded by :data:`MAX_EXECUTIONS`;
9. doubles (CR 706.5);
10. events and triggers: ``DieRolled`` per counted die, ``DiceRolled`` once.

Stored results (CR 706.8) are read before step 1 and written after the last execution.
This module does no parsing, no I/O and no printing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

from mtgdice.rules.board import Board, Permanent, controller_of, sees
from mtgdice.rules.choices import Answer, Ask, Chooser, Decision, PolicyChooser, Topic
from mtgdice.rules.dice import Die, DieRoll, Face, Fate, Modifier, PlanarFace
from mtgdice.rules.effects import (
    Cost,
    Event,
    ExtraDice,
    FaceCountsAs,
    RerollPermission,
    ResultModifier,
    Step,
    Trigger,
    Zone,
)
from mtgdice.rules.errors import InputError, RollLimitError
from mtgdice.rules.instruction import RollInstruction
from mtgdice.rules.sources import DiceSource

MAX_DICE = 10_000
"""Most dice one roll may physically roll (instruction dice plus every extra die)."""

MAX_EXECUTIONS = 1_000
"""Most executions of one instruction ("roll again", "repeat this process") before RollLimitError."""

MAX_REROLLS = 1_000
"""Most rerolls within one execution before RollLimitError."""


@dataclass(frozen=True, slots=True)
class TurnState:
    """What this turn has done already: keys of "once each turn" effects used (``"Card#i"``) and
    how many dice the roller has rolled (counted dice only: ignored and rerolled-away dice never
    happened, CR 706.6)."""

    used: frozenset[str] = frozenset()
    dice_rolled: int = 0


@dataclass(frozen=True, slots=True)
class TriggerHit:
    """One triggering of a triggered ability: its card, zone, ability and the die (if per die)."""

    card: str
    zone: Zone
    trigger: Trigger
    die: int | None = None
    execution: int = 0


@dataclass(frozen=True, slots=True)
class Execution:
    """One carrying out of the instruction: every die physically rolled, in order, and what it led to.

    ``chosen`` indexes ``results`` (the chosen result, when the instruction chooses one); ``row``
    is the matched results-table row (``None``: no table, no match, or a table read per result,
    then ``rows``); ``outcomes`` indexes the instruction's outcomes that hold.
    """

    dice: tuple[DieRoll, ...]
    chosen: int | None = None
    row: int | None = None
    rows: tuple[int | None, ...] | None = None
    doubles: bool = False
    again: bool = False
    outcomes: tuple[int, ...] = ()
    again_times: int = 1

    @property
    def counted(self) -> tuple[DieRoll, ...]:
        return tuple(roll for roll in self.dice if roll.counted)

    @property
    def results(self) -> tuple[int | PlanarFace, ...]:
        """The counted results in roll order; a planar die gives its face."""
        return tuple(_result_or_face(roll) for roll in self.counted)

    @property
    def total(self) -> int | None:
        numbers = [roll.result for roll in self.counted]
        if not numbers or any(number is None for number in numbers):
            return None
        return sum(number for number in numbers if number is not None)


@dataclass(frozen=True, slots=True)
class Resolution:
    """Everything that happened: executions, triggerings, stored results, decisions asked."""

    executions: tuple[Execution, ...]
    triggers: tuple[TriggerHit, ...]
    stored: Mapping[str, tuple[int, ...]]
    used: frozenset[str]
    source: str
    decisions: tuple[tuple[Decision, Answer], ...] = ()
    dice_rolled: int = 0


def _result_or_face(roll: DieRoll) -> int | PlanarFace:
    result = roll.result
    if result is not None:
        return result
    face = roll.planar_face
    assert face is not None
    return face


def resolve(
    instruction: RollInstruction,
    *,
    source: str,
    dice: DiceSource,
    board: Board | None = None,
    chooser: Chooser | None = None,
    amounts: Mapping[str, int] | None = None,
    turn: TurnState | None = None,
    limit: int | None = None,
) -> Resolution:
    """Resolve ``instruction`` of the card named ``source`` (CR 706).

    ``limit`` stops after that many executions even when another is due (the last execution's
    ``again`` says so); the odds engine uses ``limit=1`` to study one execution at a time.

    >>> from mtgdice.rules.amounts import Amount
    >>> from mtgdice.rules.sources import ScriptedSource
    >>> from mtgdice.rules.tables import ResultsTable, Row
    >>> ogre = RollInstruction(Amount(1), Die(20), table=ResultsTable((Row(1, 9), Row(10, 19), Row(20, 20))))
    >>> outcome = resolve(ogre, source="Ogre", dice=ScriptedSource([12]))
    >>> outcome.executions[0].results, outcome.executions[0].row
    ((12,), 1)
    """
    return _Resolver(
        instruction,
        source,
        dice,
        board or _NO_BOARD,
        chooser or _DECLINE,
        amounts or _NO_AMOUNTS,
        turn or _NEW_TURN,
        limit,
    ).run()


_NO_BOARD = Board()
_DECLINE = PolicyChooser()
_NO_AMOUNTS: Mapping[str, int] = {}
_NEW_TURN = TurnState()


@dataclass(frozen=True, slots=True)
class _Found:
    """An effect found on the board, with where it is."""

    zone: Zone
    position: int
    permanent: Permanent
    effect: Any

    @property
    def key(self) -> str:
        """This card in this zone position (one permanent can be tapped once)."""
        return f"{self.permanent.name}#{self.position}@{self.zone.value}"

    @property
    def controller(self) -> str:
        return controller_of(self.zone)

    def sees(self, roller: str) -> bool:
        """Whether this effect sees a roll by ``roller`` (its scope against its controller)."""
        return sees(self.effect.scope, self.controller, roller)

    @property
    def once_key(self) -> str:
        effect_index = self.permanent.effects.index(self.effect)
        return f"{self.permanent.name}#{effect_index}"


@dataclass(frozen=True, slots=True)
class _Groups:
    """A board's functioning effects grouped by pipeline step, in zone order."""

    count: tuple[_Found, ...]
    each_die: tuple[_Found, ...]
    reroll: tuple[_Found, ...]
    modify: tuple[_Found, ...]
    face: tuple[_Found, ...]
    trigger: tuple[_Found, ...]


_STEP_GROUP = {
    Step.COUNT: 0,
    Step.EACH_DIE: 1,
    Step.REROLL: 2,
    Step.MODIFY: 3,
    Step.FACE: 4,
    Step.TRIGGER: 5,
}
_GROUPS: dict[int, tuple[Board, _Groups]] = {}


def _groups(board: Board) -> _Groups:
    """The board's effects by step; boards are frozen, so the grouping is kept for the next roll."""
    cached = _GROUPS.get(id(board))
    if cached is not None and cached[0] is board:
        return cached[1]
    lists: list[list[_Found]] = [[], [], [], [], [], []]
    for zone, position, permanent, effect in board.functioning():
        group = _STEP_GROUP.get(effect.step)
        if group is not None:
            lists[group].append(_Found(zone, position, permanent, effect))
    groups = _Groups(*(tuple(found) for found in lists))
    if len(_GROUPS) >= 256:
        _GROUPS.clear()
    _GROUPS[id(board)] = (board, groups)
    return groups


class _Resolver:
    """The state of one resolution: the dice drawn so far, decisions, once-each-turn uses."""

    __slots__ = (
        "instruction",
        "source_name",
        "dice_source",
        "board",
        "chooser",
        "amounts",
        "turn",
        "limit",
        "next_index",
        "rerolls",
        "dice_counted",
        "used",
        "tapped",
        "decisions",
        "groups",
        "rerolled",
    )

    def __init__(
        self,
        instruction: RollInstruction,
        source_name: str,
        dice_source: DiceSource,
        board: Board,
        chooser: Chooser,
        amounts: Mapping[str, int],
        turn: TurnState,
        limit: int | None = None,
    ) -> None:
        self.instruction = instruction
        self.source_name = source_name
        self.dice_source = dice_source
        self.board = board
        self.chooser = chooser
        self.amounts = amounts
        self.turn = turn
        self.limit = limit
        self.next_index = 0
        self.rerolls = 0
        self.dice_counted = 0
        self.used: set[str] = set(turn.used)
        self.tapped: set[str] = set()
        self.rerolled: set[tuple[str, int]] = set()
        self.decisions: list[tuple[Decision, Answer]] = []
        self.groups = _groups(board)

    # -- the whole resolution ---------------------------------------------------------------

    def run(self) -> Resolution:
        instruction = self.instruction
        stored: dict[str, tuple[int, ...]] = {}
        die = instruction.die_for(self.amounts)
        count = 0 if instruction.reroll_stored else instruction.count.value(self.amounts)
        _check_roll(count, die)

        slots: tuple[int, ...] = ()
        holder: Permanent | None = None
        if instruction.reroll_stored:
            # CR 706.8b: the subset to reroll is chosen first; rerolling it is one roll.
            holder = self._stored_holder()
            if holder is None or not holder.stored:
                return self._finish((), (), stored)
            slots = self._ask_subset(
                Topic.STORED,
                f"Which stored results of {holder.name} to reroll?",
                tuple(str(value) for value in holder.stored),
            )
            if not slots:
                return self._finish((), (), stored)
            count = len(slots)
            die = holder.stored_die or die

        executions: list[Execution] = []
        triggers: list[TriggerHit] = []
        pending = 1
        while pending:
            pending -= 1
            if len(executions) >= MAX_EXECUTIONS:
                raise RollLimitError(
                    f"roll again: more than {MAX_EXECUTIONS} executions of one instruction; "
                    "the loop was stopped (answer false to an optional roll again, or give other dice)"
                )
            execution = self._execute(count, die, len(executions))
            triggers.extend(self._triggers(execution, len(executions)))
            executions.append(execution)
            if execution.again:
                pending += execution.again_times
            if self.limit is not None and len(executions) >= self.limit:
                break

        if instruction.store and executions:
            stored[self.source_name] = tuple(roll.result for roll in executions[-1].counted if roll.result is not None)
        if instruction.reroll_stored and holder is not None and holder.stored is not None and executions:
            values = list(holder.stored)
            new = [roll.result for roll in executions[-1].counted if roll.result is not None]
            # CR 706.8b: the new results fill the chosen slots in roll order (by identity).
            for slot, value in zip(slots, new, strict=False):
                values[slot] = value
            stored[holder.name] = tuple(values)
        return self._finish(tuple(executions), tuple(triggers), stored)

    def _finish(
        self, executions: tuple[Execution, ...], triggers: tuple[TriggerHit, ...], stored: dict[str, tuple[int, ...]]
    ) -> Resolution:
        return Resolution(
            executions,
            triggers,
            stored,
            frozenset(self.used),
            self.dice_source.name,
            tuple(self.decisions),
            self.turn.dice_rolled + self.dice_counted,
        )

    def _stored_holder(self) -> Permanent | None:
        for permanent in self.board.battlefield:
            if permanent.name.casefold() == self.source_name.casefold() and permanent.stored is not None:
                return permanent
        return None

    # -- one execution ----------------------------------------------------------------------

    def _execute(self, count: int, die: Die, number: int) -> Execution:
        instruction = self.instruction
        # Steps 1-4: the instruction, its replacements, the physical roll and ignoring.
        records = self._physical_roll(count, die, instruction.ignore_lowest, instruction.keep_highest)
        # Step 5: reroll window, then ±N window (CR 706.2b).
        records = self._reroll_window(records)
        records = self._modify_window(records)
        counted = [roll for roll in records if roll.counted]
        # Step 7: choose one result, then the table (CR 706.3a).
        chosen: int | None = None
        if instruction.choose and counted:
            chosen = 0
            if len(counted) >= 2:
                labels = tuple(_label(roll) for roll in counted)
                chosen = self._ask_one(
                    Topic.CHOOSE_RESULT, "Choose one result", labels, tuple(_value(roll) for roll in counted)
                )
        row: int | None = None
        rows: tuple[int | None, ...] | None = None
        table = instruction.table
        if table is not None:
            if instruction.table_each_result:
                rows = tuple(table.row_for(roll.result) for roll in counted)
            else:
                row = table.row_for(self._table_value(counted, chosen))
        # Step 9: doubles (CR 706.5).
        results = [roll.result for roll in counted]
        doubles = len(results) >= 2 and results[0] is not None and all(r == results[0] for r in results)
        outcomes = self._outcomes(counted, doubles)
        # Step 8: roll again / repeat (CR 706.3c).
        again = False
        times = 1
        if table is not None and row is not None and table.rows[row].roll_again:
            again = True
            times = table.rows[row].roll_again_times
            if table.rows[row].roll_again_optional:
                again = self._ask_yes(Topic.ROLL_AGAIN, f"Roll again ({table.rows[row].label})?")
        if instruction.repeat_when is not None and any(instruction.repeat_when.holds(roll) for roll in counted):
            again = True
            if instruction.repeat_optional:
                again = self._ask_yes(Topic.ROLL_AGAIN, "Repeat this process?")
        return Execution(tuple(records), chosen, row, rows, doubles, again, outcomes, times)

    def _table_value(self, counted: Sequence[DieRoll], chosen: int | None) -> int | None:
        if chosen is not None:
            return counted[chosen].result
        if len(counted) == 1:
            return counted[0].result
        # Several dice count and the table is read once: by their total (DESIGN.md §3.7).
        values = [roll.result for roll in counted]
        if not values or any(value is None for value in values):
            return None
        return sum(value for value in values if value is not None)

    def _outcomes(self, counted: Sequence[DieRoll], doubles: bool) -> tuple[int, ...]:
        holding = []
        for index, outcome in enumerate(self.instruction.outcomes):
            if outcome.doubles:
                if doubles:
                    holding.append(index)
            elif outcome.condition is not None:
                meeting = sum(1 for roll in counted if outcome.condition.holds(roll))
                if (meeting == outcome.times) if outcome.times is not None else meeting > 0:
                    holding.append(index)
        return tuple(holding)

    # -- steps 2-4 --------------------------------------------------------------------------

    def _physical_roll(
        self, count: int, die: Die, ignore_lowest: int, keep_highest: int | None, roller: str = "you"
    ) -> list[DieRoll]:
        """Roll ``count`` of ``die`` through every replacement that sees ``roller``'s roll and decide
        which dice count."""
        # Step 2: replacements of "roll one or more dice" (CR 616); identical ones in zone order.
        total = count
        lowest = ignore_lowest
        chosen_ignores: list[_Found] = []
        if count >= 1:
            for found in self.groups.count:
                effect: ExtraDice = found.effect
                if not found.sees(roller) or (effect.sides is not None and effect.sides != die.sides):
                    continue
                if effect.ignore == "lowest" and die.planar:
                    # "Ignore the lowest" compares numbers: never the planar die (CR 706.7).
                    continue
                if effect.optional and not self._ask_yes(
                    Topic.REPLACE,
                    f"Roll {total + effect.extra} instead of {total} ({found.permanent.name})?",
                    source=found.permanent.name,
                ):
                    continue
                if effect.ignore == "lowest":
                    lowest += effect.extra
                else:
                    chosen_ignores.append(found)
                total += effect.extra
        if total > MAX_DICE:
            raise RollLimitError(
                f"count: {total} dice in one roll is more than the limit of {MAX_DICE}; roll fewer dice"
            )
        pairs = [
            found
            for found in self.groups.each_die
            if found.sees(roller) and (found.effect.sides is None or found.effect.sides == die.sides)
        ]
        # Step 3: the physical roll; each pair partner right after its die.
        per_die = 1 + len(pairs)
        records = [self._draw(die, roller) for _ in range(total * per_die)]
        # Step 4: ignore (CR 706.6). First each pair's free choice, in roll order.
        if pairs:
            for start in range(0, len(records), per_die):
                group = records[start : start + per_die]
                while len(group) > 1:
                    pick = self._ask_one(
                        Topic.IGNORE,
                        "Ignore which of these dice?",
                        tuple(_label(roll) for roll in group),
                        tuple(_value(roll) for roll in group),
                        invert=True,
                    )
                    _set_fate(records, group.pop(pick).index, Fate.IGNORED)
        # Then the lowest, the instruction's own count and every replacement's in one count.
        live = [roll for roll in records if roll.fate is Fate.COUNTED and roll.natural is not None]
        if keep_highest is not None and not die.planar:
            lowest = max(lowest, len(live) - keep_highest)
        for _ in range(min(lowest, len(live))):
            low = min(cast(int, roll.face) for roll in live)  # numbered dice: the face is the natural result
            tied = [roll for roll in live if roll.face == low]
            pick = 0
            if len(tied) > 1:
                pick = self._ask_one(
                    Topic.IGNORE, f"Ignore which of the tied lowest ({low})?", tuple(_label(roll) for roll in tied)
                )
            live.remove(tied[pick])
            _set_fate(records, tied[pick].index, Fate.IGNORED)
        # Then each extra die whose ignored roll a player chooses.
        for found in chosen_ignores:
            live = [roll for roll in records if roll.counted]
            if len(live) <= 1:
                break
            pick = self._ask_one(
                Topic.IGNORE,
                f"Ignore which die ({found.permanent.name})?",
                tuple(_label(roll) for roll in live),
                tuple(_value(roll) for roll in live),
                invert=True,
                player=found.effect.chosen_by,
            )
            _set_fate(records, live[pick].index, Fate.IGNORED)
        return records

    def _draw(self, die: Die, roller: str = "you") -> DieRoll:
        face: Face = self.dice_source.roll(die)
        roll = DieRoll(self.next_index, die, face, roller=roller)
        self.next_index += 1
        return roll

    # -- step 5 -----------------------------------------------------------------------------

    def _reroll_window(self, records: list[DieRoll]) -> list[DieRoll]:
        """CR 706.2b: rerolls first. A reroll is a new roll (replacements apply again); the old
        roll "never happened" (Unfinity ruling) but stays in the record as rerolled."""
        permissions = self.groups.reroll
        if not permissions:
            return records
        position = 0
        while position < len(records):
            roll = records[position]
            position += 1
            if not roll.counted:
                continue
            for found in permissions:
                effect: RerollPermission = found.effect
                if effect.many or not found.sees(roll.roller) or not self._may_use(found, roll.die):
                    continue
                if not effect.again and roll.rerolls is not None and (found.key, roll.rerolls) in self.rerolled:
                    continue  # "reroll ... once": not again on the die it rolled
                if effect.condition is not None and not effect.condition.holds(roll):
                    continue
                question = f"Reroll the {_label(roll)} ({found.permanent.name}{_cost_text(effect.cost)})?"
                if self._ask_yes(Topic.REROLL, question, source=found.permanent.name, player=found.controller):
                    self._use(found)
                    self.rerolled.add((found.key, roll.index))
                    records = self._reroll(records, roll, _rerolled_by(found, roll))
                    break
        for found in permissions:
            effect = found.effect
            if not effect.many or not self._may_use(found, None):
                continue
            live = [roll for roll in records if roll.counted and found.sees(roll.roller)]
            if not live:
                continue
            picked = self._ask_subset(
                Topic.REROLL_WHICH,
                f"Reroll which dice ({found.permanent.name}{_cost_text(effect.cost)})?",
                tuple(_label(roll) for roll in live),
            )
            if picked:
                self._use(found)
                for index in picked:
                    records = self._reroll(records, live[index], _rerolled_by(found, live[index]))
        return records

    def _reroll(self, records: list[DieRoll], roll: DieRoll, roller: str) -> list[DieRoll]:
        self.rerolls += 1
        if self.rerolls > MAX_REROLLS:
            raise RollLimitError(f"reroll: more than {MAX_REROLLS} rerolls in one roll; the loop was stopped")
        records = [_remade(r, fate=Fate.REROLLED) if r.index == roll.index else r for r in records]
        new = self._physical_roll(1, roll.die, 0, None, roller)
        return records + [_remade(r, rerolls=roll.index) for r in new]

    def _may_use(self, found: _Found, die: Die | None) -> bool:
        effect = found.effect
        if die is not None and effect.sides is not None and effect.sides != die.sides:
            return False
        if effect.once_each_turn and found.once_key in self.used:
            return False
        if effect.cost is not None and effect.cost.tap and found.key in self.tapped:
            return False  # tapped to pay for an earlier use in this resolution
        return _can_pay(effect.cost, found.permanent)

    def _use(self, found: _Found) -> None:
        if found.effect.once_each_turn:
            self.used.add(found.once_key)
        if found.effect.cost is not None and found.effect.cost.tap:
            self.tapped.add(found.key)

    def _modify_window(self, records: list[DieRoll]) -> list[DieRoll]:
        """CR 706.2b second: effects that increase or decrease by a specified amount.

        The printed modifier and static ones apply to every counted numbered die; optional ones
        are offered after the result is visible (CR 706.2a), die by die, in zone order."""
        instruction = self.instruction
        printed = instruction.modifier.value(self.amounts) if instruction.modifier is not None else None
        if printed is None and not self.groups.modify:
            return records
        result: list[DieRoll] = []
        for roll in records:
            if not roll.counted or roll.natural is None:
                result.append(roll)
                continue
            modifiers = list(roll.modifiers)
            if printed is not None:
                modifiers.append(Modifier(printed, self.source_name))
            for found in self.groups.modify:
                effect: ResultModifier = found.effect
                if not found.sees(roll.roller):
                    continue
                if effect.optional or (effect.sides is not None and effect.sides != roll.die.sides):
                    continue
                modifiers.append(Modifier(effect.delta, found.permanent.name))
            roll = _remade(roll, modifiers=tuple(modifiers))
            for found in self.groups.modify:
                effect = found.effect
                if not effect.optional or not found.sees(roll.roller) or not self._may_use(found, roll.die):
                    continue
                current = roll.result
                assert current is not None
                # values: the result if declined, then each result accepting can lead to.
                values: tuple[float | None, ...] = (current, current + effect.delta)
                if effect.either_direction:
                    values = (current, current + effect.delta, current - effect.delta)
                question = f"Use {found.permanent.name} on the {_label(roll)}{_cost_text(effect.cost)}?"
                if not self._ask_yes(Topic.MODIFY, question, values=values, source=found.permanent.name):
                    continue
                self._use(found)
                delta = effect.delta
                if effect.either_direction:
                    direction = self._ask_one(
                        Topic.DIRECTION,
                        f"Increase or decrease the {_label(roll)}?",
                        ("increase", "decrease"),
                        (current + effect.delta, current - effect.delta),
                    )
                    delta = effect.delta if direction == 0 else -effect.delta
                roll = _remade(roll, modifiers=roll.modifiers + (Modifier(delta, found.permanent.name),))
            result.append(roll)
        return result

    # -- step 10 ----------------------------------------------------------------------------

    def _triggers(self, execution: Execution, number: int) -> list[TriggerHit]:
        counted = execution.counted
        hits: list[TriggerHit] = []
        if not counted:
            return hits
        # The Nth die this turn counts counted dice of earlier executions and resolutions.
        first = self.turn.dice_rolled + self.dice_counted
        self.dice_counted += len(counted)
        if not self.groups.trigger:
            return hits
        faces = self._face_rules()
        nth = {roll.index: first + position + 1 for position, roll in enumerate(counted)}
        for found in self.groups.trigger:
            trigger: Trigger = found.effect
            if trigger.purpose and trigger.purpose != self.instruction.purpose:
                continue
            if trigger.event is Event.DICE_ROLLED:
                if trigger.doubles and not execution.doubles:
                    continue
                seen_dice = [_apply_faces(roll, faces) for roll in counted]
                if found.sees("you") and any(
                    _trigger_sees(trigger, roll) and (trigger.condition is None or trigger.condition.holds(roll))
                    for roll in seen_dice
                ):
                    hits.append(TriggerHit(found.permanent.name, found.zone, trigger, None, number))
                continue
            for roll in counted:
                seen = _apply_faces(roll, faces)
                if not found.sees(roll.roller) or not _trigger_sees(trigger, seen):
                    continue
                if trigger.condition is not None and not trigger.condition.holds(seen):
                    continue
                if trigger.nth_this_turn is not None and nth[roll.index] != trigger.nth_this_turn:
                    continue
                hits.append(TriggerHit(found.permanent.name, found.zone, trigger, roll.index, number))
        return hits

    def _face_rules(self) -> list[FaceCountsAs]:
        return [found.effect for found in self.groups.face]

    # -- decisions --------------------------------------------------------------------------

    def _ask(self, decision: Decision) -> Answer:
        answer = self.chooser.decide(decision)
        self.decisions.append((decision, answer))
        return answer

    def _ask_yes(
        self, topic: Topic, prompt: str, values: tuple[float | None, ...] = (), source: str = "", player: str = "you"
    ) -> bool:
        answer = self._ask(Decision(Ask.YES_NO, topic, player, prompt, ("no", "yes"), values, source))
        return bool(answer)

    def _ask_one(
        self,
        topic: Topic,
        prompt: str,
        options: tuple[str, ...],
        values: tuple[float | None, ...] = (),
        invert: bool = False,
        player: str = "roller",
    ) -> int:
        if len(options) < 2:
            return 0
        if invert and values:
            # The option ignores a die: the value it leads to is the best of the others.
            values = tuple(_best_other(values, index) for index in range(len(values)))
        answer = self._ask(Decision(Ask.PICK_ONE, topic, player, prompt, options, values))
        assert isinstance(answer, int)
        return answer

    def _ask_subset(self, topic: Topic, prompt: str, options: tuple[str, ...]) -> tuple[int, ...]:
        answer = self._ask(Decision(Ask.PICK_ANY, topic, "you", prompt, options))
        assert isinstance(answer, tuple)
        return answer


def _rerolled_by(found: _Found, roll: DieRoll) -> str:
    """Who rolls the new die: the effect's controller for "reroll any die" abilities (Pippa
    ruling: the rerolling player is the roller), otherwise whoever rolled the old one."""
    if found.effect.rerolled_by == "controller":
        return found.controller
    return roll.roller


def _best_other(values: tuple[float | None, ...], index: int) -> float | None:
    others = [value for i, value in enumerate(values) if i != index and value is not None]
    return max(others) if others else None


def _check_roll(count: int, die: Die) -> None:
    if count < 0:
        raise InputError("count", f"{count} dice cannot be rolled; the number of dice must be 0 or more")
    if count > MAX_DICE:
        raise RollLimitError(f"count: {count} dice in one roll is more than the limit of {MAX_DICE}; roll fewer dice")
    if die.sides is not None and die.sides < 1:
        raise InputError("sides", f"a die with {die.sides} sides cannot be rolled; a die has 1 or more sides")


def _remade(
    roll: DieRoll,
    *,
    fate: Fate | None = None,
    modifiers: tuple[Modifier, ...] | None = None,
    rerolls: int | None = None,
) -> DieRoll:
    """A changed copy of a die record (built directly: ``dataclasses.replace`` is slow here)."""
    return DieRoll(
        roll.index,
        roll.die,
        roll.face,
        roll.modifiers if modifiers is None else modifiers,
        roll.fate if fate is None else fate,
        roll.rerolls if rerolls is None else rerolls,
        roll.roller,
    )


def _set_fate(records: list[DieRoll], index: int, fate: Fate) -> None:
    for position, roll in enumerate(records):
        if roll.index == index:
            records[position] = _remade(roll, fate=fate)


def _label(roll: DieRoll) -> str:
    if roll.natural is None:
        return f"{roll.planar_face.value if roll.planar_face else '?'} (planar die)"
    result = roll.result
    if result != roll.natural:
        return f"{result} ({roll.die.name}, natural {roll.natural})"
    return f"{result} ({roll.die.name})"


def _value(roll: DieRoll) -> float | None:
    result = roll.result
    return float(result) if result is not None else None


def _cost_text(cost: Cost | None) -> str:
    return f", {cost.text}" if cost is not None else ""


def _can_pay(cost: Cost | None, permanent: Permanent) -> bool:
    if cost is None:
        return True
    if cost.tap and permanent.tapped:
        return False
    if cost.counter is not None:
        have = permanent.counter(cost.counter)
        if have is not None and have < 1:
            return False
    return True


def _trigger_sees(trigger: Trigger, roll: DieRoll) -> bool:
    if trigger.planar and not roll.die.planar:
        return False
    return trigger.sides is None or trigger.sides == roll.die.sides


def _apply_faces(roll: DieRoll, rules: Sequence[FaceCountsAs]) -> DieRoll:
    face = roll.planar_face
    if face is None:
        return roll
    for rule in rules:
        if rule.face is face:
            return replace(roll, face=rule.counts_as)
    return roll
