"""Resolving one roll instruction, CR 706 step by step (docs/design.md).

:func:`resolve` carries out an instruction against a board, with faces from a ``DiceSource`` and
decisions from a ``Chooser``. One execution is:

1. the instruction (kind and number of dice, CR 706.1);
2. replacement effects on the roll (CR 616), ordered by the roller when of different kinds;
3. the physical roll, every die a record with an identity;
4. ignoring (CR 706.6): each group's choice, then the lowest (roller picks among ties), then
   dice other players pick;
5. the reroll window, then the ±N window (CR 706.2b), decisions die by die in roll order;
6. results (CR 706.2): natural + modifiers; when each player rolled, the lowest or highest;
7. choosing one result, then the results table (CR 706.3a);
8. roll again / repeat (CR 706.3c), bounded by :data:`MAX_EXECUTIONS`;
9. doubles (CR 706.5);
10. events and triggers: ``DieRolled`` per counted die, ``DiceRolled`` once per roller.

Each step is a short method of :class:`_Resolution`; the effects do their own work at their step
(:mod:`mtgdice.rules.effects`) through the context the resolution gives them. Stored results
(CR 706.8) are read before step 1 and written after the last execution. This module does no
parsing, no I/O and no printing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast

from mtgdice.rules.board import MAX_SEATS, Board, Holder, Permanent
from mtgdice.rules.budget import Meter
from mtgdice.rules.choices import Answer, Ask, Chooser, Decision, PolicyChooser, Topic
from mtgdice.rules.dice import Die, DieRoll, Face, Fate, Modifier, PlanarFace
from mtgdice.rules.effects.base import EffectBase, Step
from mtgdice.rules.effects.coin import CoinEffect
from mtgdice.rules.effects.face import FaceEffect
from mtgdice.rules.effects.modifier import ModifierEffect
from mtgdice.rules.effects.replacement import Replacement, RollPlan
from mtgdice.rules.effects.reroll import RerollEffect
from mtgdice.rules.effects.trigger import RollEvents, TriggeredAbility, TriggerHit
from mtgdice.rules.errors import DieSizeError, InputError, NoSuchSeatError, RollLimitError
from mtgdice.rules.instruction import Extreme, Reads, Roller, RollInstruction, outcomes_holding
from mtgdice.rules.memory import Recall, permanent_name, totals_of, with_totals
from mtgdice.rules.memory import total as memory_total
from mtgdice.rules.players import YOU, Seat
from mtgdice.rules.records import builder, direct_init
from mtgdice.rules.sources import DiceSource
from mtgdice.rules.zones import Zone

MAX_DICE = 10_000
"""Most dice one roll may physically roll (instruction dice plus every extra die)."""

MAX_EXECUTIONS = 1_000
"""Most executions of one instruction ("roll again", "repeat this process") before RollLimitError."""

MAX_REROLLS = 1_000
"""Most rerolls within one execution before RollLimitError."""


@dataclass(frozen=True, slots=True)
class TurnState:
    """What this turn has done already (json-interface.md ``turn``).

    ``used``: "once each turn" abilities used, by card name and ability (``"Card#i"``);
    ``used_permanents``: permanents whose "once each turn" abilities were used, by their turn name
    (``"Card#k"``, the k-th permanent of that name, :meth:`Board.ordinals`); ``dice_rolled``: the
    counted dice seat 0 rolled this turn and ``others_rolled`` those of seats 1, 2, ... (CR 706.6:
    ignored and rerolled-away dice never happened); ``planar_actions``: planar-die special actions
    taken (CR 901.9b); ``totals``: totals rolled this turn by permanent, for an ability that
    compares its total with them; ``flips``: coin flips won and lost by seat
    (:mod:`mtgdice.rules.memory` writes both).
    """

    used: frozenset[str] = frozenset()
    dice_rolled: int = 0
    planar_actions: int = 0
    others_rolled: tuple[int, ...] = ()
    used_permanents: frozenset[str] = frozenset()
    totals: tuple[tuple[str, tuple[int, ...]], ...] = ()
    flips: tuple[tuple[int, int], ...] = ()

    def rolled(self, seat: Seat) -> int:
        """Counted dice ``seat`` rolled this turn.

        >>> TurnState(dice_rolled=2, others_rolled=(1,)).rolled(Seat(1))
        1
        """
        if seat == YOU:
            return self.dice_rolled
        return self.others_rolled[seat - 1] if seat - 1 < len(self.others_rolled) else 0


@direct_init
@dataclass(frozen=True, slots=True)
class Execution:
    """One carrying out of the instruction: every die physically rolled, in order, and what it led to.

    ``chosen`` indexes ``results`` (the chosen result, when the instruction chooses one); ``row``
    is the matched results-table row (``None``: no table, no match, or a table read per result,
    then ``rows``); ``outcomes`` indexes the instruction's outcomes that hold; ``again_times`` is
    how many more executions a roll again or repeat asks for; ``standing`` are the seats with the
    lowest or highest result when each player rolled.

    >>> from mtgdice import ScriptedSource, compile_text, resolve
    >>> card = compile_text("Roll two d12 and ignore the lower roll.\\n1\u20146 | Scry 1.\\n7\u201412 | Scry 2.")
    >>> execution = resolve(card.rolls[0], source="Example", dice=ScriptedSource([4, 11])).executions[0]
    >>> [(die.natural, die.fate.value) for die in execution.dice], execution.results, execution.row
    ([(4, 'ignored'), (11, 'counted')], (11,), 1)
    """

    dice: tuple[DieRoll, ...]
    chosen: int | None = None
    row: int | None = None
    rows: tuple[int | None, ...] | None = None
    doubles: bool = False
    again: bool = False
    outcomes: tuple[int, ...] = ()
    again_times: int = 1
    standing: tuple[Seat, ...] = ()

    @property
    def counted(self) -> tuple[DieRoll, ...]:
        return tuple(roll for roll in self.dice if roll.counted)

    @property
    def results(self) -> tuple[int | PlanarFace, ...]:
        """The counted results in roll order; a planar die gives its face."""
        return tuple(roll.shown for roll in self.counted)

    @property
    def total(self) -> int | None:
        return total_of(self.counted)

    @property
    def table_value(self) -> int | None:
        """What a results table read once is read with (CR 706.3a): the chosen result, the only
        counted result, or the total when several dice count (docs/design.md §7)."""
        return read_once(self.counted, self.chosen)

    @property
    def tabulated(self) -> int | str | None:
        """What the odds engine counts an execution by: :attr:`table_value`, or a planar face's name."""
        counted = self.counted
        if self.chosen is not None or len(counted) == 1:
            shown = counted[self.chosen or 0].shown
            return shown.value if isinstance(shown, PlanarFace) else shown
        return total_of(counted)


def total_of(dice: Sequence[DieRoll]) -> int | None:
    """The total of counted results, ``None`` with no die or a planar die among them."""
    total = 0
    for roll in dice:
        result = roll.result
        if result is None:
            return None
        total += result
    return total if dice else None


@direct_init
@dataclass(frozen=True, slots=True)
class Resolution:
    """Everything that happened: executions, triggerings, stored results, decisions asked, and
    the turn afterwards.

    >>> from mtgdice import ScriptedSource, compile_text, resolve
    >>> card = compile_text("Roll a d6.\\n1\u20143 | Scry 1.\\n4\u20146 | Draw a card.")
    >>> outcome = resolve(card.rolls[0], source="Example", dice=ScriptedSource([5]))
    >>> len(outcome.executions), outcome.executions[0].row, outcome.triggers, outcome.source
    (1, 1, (), 'scripted')
    """

    executions: tuple[Execution, ...]
    triggers: tuple[TriggerHit, ...]
    stored: Mapping[str, tuple[int, ...]]
    used: frozenset[str]
    source: str
    decisions: tuple[tuple[Decision, Answer], ...] = ()
    dice_rolled: int = 0
    planar_cost: int | None = None
    planar_actions: int = 0
    others_rolled: tuple[int, ...] = ()
    used_permanents: frozenset[str] = frozenset()
    pending_used: frozenset[int] = frozenset()
    """Positions of the waiting replacements (``Board.pending``) this resolution used up."""
    totals: tuple[tuple[str, tuple[int, ...]], ...] = ()
    flips: tuple[tuple[int, int], ...] = ()
    noted: tuple[tuple[str, int], ...] = ()
    """Values this resolution noted on permanents ("note that total"), by the turn's permanent name."""

    @property
    def turn(self) -> TurnState:
        """The turn state after this resolution, for the next roll of the same turn."""
        return TurnState(
            self.used,
            self.dice_rolled,
            self.planar_actions,
            self.others_rolled,
            self.used_permanents,
            self.totals,
            self.flips,
        )


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
    players: int = 2,
    action: bool = False,
    meter: Meter | None = None,
    controller: Seat = YOU,
    roller: Seat | None = None,
) -> Resolution:
    """Resolve ``instruction`` of the card named ``source`` (CR 706).

    ``limit`` stops after that many executions even when another is due (the last execution's
    ``again`` says so); the odds engine uses ``limit=1`` to study one execution at a time.
    ``players`` is how many players are at the table (for "each player rolls"); ``action`` marks
    a planar-die roll made as the special action (CR 901.9b: it counts toward the next one's cost).
    ``meter`` is the request's work budget (:mod:`mtgdice.rules.budget`; default: the CLI's, no
    deadline): dice drawn and options shown in this resolution, and the request's deadline.
    ``controller`` is the seat that controls the source (the instruction's "you"); ``roller`` the
    seat a "that player rolls" / "target player rolls" text names (without one, the controller).
    The table has ``players`` seats, or as many as ``board`` has if that is more.

    >>> from mtgdice.rules.amounts import Amount
    >>> from mtgdice.rules.sources import ScriptedSource
    >>> from mtgdice.rules.tables import ResultsTable, Row
    >>> ogre = RollInstruction(Amount(1), Die(20), table=ResultsTable((Row(1, 9), Row(10, 19), Row(20, 20))))
    >>> outcome = resolve(ogre, source="Ogre", dice=ScriptedSource([12]))
    >>> outcome.executions[0].results, outcome.executions[0].row
    ((12,), 1)
    """
    if board is not None and len(board.seats) > players:
        players = len(board.seats)
    if not 1 <= players <= MAX_SEATS:
        raise InputError("players", f"{players} players; a table has 1 to {MAX_SEATS} players")
    if controller or roller is not None:
        for name, seat in (("controller", controller), ("roller", roller)):
            if seat is not None and not 0 <= seat < players:
                raise NoSuchSeatError(name, seat, players)
    return _Resolution(
        instruction,
        source,
        dice,
        board or _NO_BOARD,
        chooser or _DECLINE,
        amounts or _NO_AMOUNTS,
        turn or _NEW_TURN,
        limit,
        players,
        action,
        meter,
        controller,
        roller,
    ).run()


def plan_of(
    instruction: RollInstruction,
    *,
    board: Board | None = None,
    chooser: Chooser | None = None,
    amounts: Mapping[str, int] | None = None,
    turn: TurnState | None = None,
    roller: Seat = YOU,
) -> RollPlan:
    """Steps 1 and 2 alone: the plan of the first physical roll of ``roller`` (CR 616), before any
    die is drawn — what the odds engine and the simulation count the dice of.

    >>> from mtgdice.rules.amounts import Amount
    >>> plan_of(RollInstruction(Amount(3), Die(20), keep_highest=1)).lowest
    2
    """
    values = amounts or _NO_AMOUNTS
    count = instruction.count.value(values)
    die = instruction.die_for(values)
    _check_roll(count, die)
    board = board or _NO_BOARD
    effects = effects_of(board)
    if not effects.replacements:
        # CR 616: nothing replaces the roll, so its plan is the instruction's own (no decision to
        # ask), kept for the board's next roll as ``_plan`` keeps it.
        key = (count, die.sides, roller, instruction.ignore_lowest, instruction.keep_highest)
        plan = effects.plans.get(key)
        if plan is None:
            plan = RollPlan(die, roller, (1,) * count, instruction.ignore_lowest)
            plan = _keeping(plan, instruction.keep_highest, die, roller)
            if len(effects.plans) < 64:
                effects.plans[key] = plan
        return plan
    work = _Resolution(instruction, "~", _NO_DICE, board, chooser or _DECLINE, values, turn or _NEW_TURN, 1, 2, False)
    return work._plan(count, die, roller, instruction.ignore_lowest, instruction.keep_highest)


def _keeping(plan: RollPlan, keep_highest: int | None, die: Die, roller: Seat) -> RollPlan:
    """An instruction's "keep the N highest" on the planned roll of ``die`` by ``roller``: the
    others are its lowest (CR 706.6)."""
    if keep_highest is None or die.planar:
        return plan
    return RollPlan(plan.die, roller, plan.slots, max(plan.lowest, len(plan.slots) - keep_highest), plan.chosen)


class _NoDice:
    name = "none"

    def roll(self, die: Die) -> Face:
        raise RollLimitError("plan_of draws no die")


_NO_DICE = _NoDice()
# The records a roll makes, built without per-field descriptor calls (records.builder): the same classes.
_DIE_ROLL = builder(DieRoll)
_EXECUTION = builder(Execution)
_RESOLUTION = builder(Resolution)
_NO_METER = Meter()
_NO_METER_DICE = _NO_METER.budget.dice
_NO_METER_OPTIONS = _NO_METER.budget.options
_COUNTED = Fate.COUNTED
_IGNORED = Fate.IGNORED
_NO_BOARD = Board()
_DECLINE = PolicyChooser()
_NO_AMOUNTS: Mapping[str, int] = {}
_NEW_TURN = TurnState()
_YOU_ROLL = Roller.YOU
_NONE_USED: frozenset[str] = frozenset()
_NONE_USED_UP: frozenset[int] = frozenset()
_NONE_MADE: frozenset[tuple[str, int]] = frozenset()


@dataclass(frozen=True, slots=True)
class Effects:
    """A board's functioning effects by step, in zone order (the ±N ones: static first)."""

    replacements: tuple[Holder[Replacement], ...]
    rerolls: tuple[Holder[RerollEffect], ...]
    modifiers: tuple[Holder[ModifierEffect], ...]
    faces: tuple[Holder[FaceEffect], ...]
    triggers: tuple[Holder[TriggeredAbility], ...]
    coins: tuple[Holder[CoinEffect], ...]
    plans: dict[tuple[int, int | None, Seat, int, int | None], RollPlan] = field(default_factory=dict, compare=False)
    """Plans of rolls that no decision shaped (a plan depends on the board and the roll alone)."""


_EFFECTS: dict[int, tuple[Board, Effects]] = {}


def effects_of(board: Board) -> Effects:
    """The board's effects by step; boards are frozen, so the grouping is kept for the next roll."""
    cached = _EFFECTS.get(id(board))
    if cached is not None and cached[0] is board:
        return cached[1]
    replacements: list[Holder[Replacement]] = []
    rerolls: list[Holder[RerollEffect]] = []
    modifiers: list[Holder[ModifierEffect]] = []
    faces: list[Holder[FaceEffect]] = []
    triggers: list[Holder[TriggeredAbility]] = []
    coins: list[Holder[CoinEffect]] = []
    for holder in board.holders():
        effect: EffectBase = holder.effect
        if isinstance(effect, Replacement):
            replacements.append(cast("Holder[Replacement]", holder))
        elif isinstance(effect, RerollEffect):
            rerolls.append(cast("Holder[RerollEffect]", holder))
        elif isinstance(effect, ModifierEffect):
            modifiers.append(cast("Holder[ModifierEffect]", holder))
        elif isinstance(effect, FaceEffect):
            faces.append(cast("Holder[FaceEffect]", holder))
        elif isinstance(effect, TriggeredAbility):
            triggers.append(cast("Holder[TriggeredAbility]", holder))
        elif isinstance(effect, CoinEffect):
            coins.append(cast("Holder[CoinEffect]", holder))
        elif effect.step is not Step.NONE:
            raise TypeError(f"{type(effect).__name__} acts at step {effect.step.value} but has no step base class")
    modifiers.sort(key=lambda holder: holder.effect.offered)  # CR 706.2b: static ones, then those offered
    grouped = Effects(
        tuple(replacements), tuple(rerolls), tuple(modifiers), tuple(faces), tuple(triggers), tuple(coins)
    )
    if len(_EFFECTS) >= 256:
        _EFFECTS.clear()
    _EFFECTS[id(board)] = (board, grouped)
    return grouped


class Decisions:
    """Asking the chooser, keeping every decision with its answer, and once-each-turn uses and
    costs paid during one resolution (the part of the context that dice and coins share)."""

    __slots__ = (
        "chooser",
        "asked",
        "used",
        "used_permanents",
        "tapped",
        "counters_paid",
        "meter",
        "options_shown",
        "options_limit",
    )

    def __init__(
        self,
        chooser: Chooser,
        used: frozenset[str],
        meter: Meter | None = None,
        used_permanents: frozenset[str] = frozenset(),
    ) -> None:
        self.chooser = chooser
        self.asked: list[tuple[Decision, Answer]] = []
        self.used: set[str] = set(used)
        self.used_permanents: set[str] = set(used_permanents)
        self.tapped: set[str] = set()
        self.counters_paid: dict[tuple[str, str], int] = {}
        self.meter = meter or _NO_METER
        self.options_shown = 0
        self.options_limit = self.meter.budget.options if meter is not None else _NO_METER_OPTIONS

    def current_dice(self) -> tuple[DieRoll, ...]:
        """The dice a decision shows (those of the roll in progress)."""
        return ()

    def ask(self, decision: Decision) -> Answer:
        self.options_shown += len(decision.options)
        if self.options_shown > self.options_limit:
            self.meter.check_options(self.options_shown)
        answer = self.chooser.decide(decision)
        self.asked.append((decision, answer))
        return answer

    def ask_yes(
        self,
        topic: Topic,
        prompt: str,
        *,
        player: Seat,
        holder: Holder[EffectBase] | None = None,
        values: Sequence[float | None] = (),
    ) -> bool:
        decision = _decision(Ask.YES_NO, topic, player, prompt, ("no", "yes"), values, holder, self.current_dice())
        return bool(self.ask(decision))

    def ask_one(
        self,
        topic: Topic,
        prompt: str,
        options: Sequence[str],
        *,
        player: Seat,
        values: Sequence[float | None] = (),
        invert: bool = False,
        holder: Holder[EffectBase] | None = None,
    ) -> int:
        if len(options) < 2:
            return 0
        if invert and values:
            # The option ignores a die: the value it leads to is the best of the others.
            values = _best_others(values)
        answer = self.ask(_decision(Ask.PICK_ONE, topic, player, prompt, options, values, holder, self.current_dice()))
        assert isinstance(answer, int)
        return answer

    def ask_subset(
        self,
        topic: Topic,
        prompt: str,
        options: Sequence[str],
        *,
        player: Seat,
        holder: Holder[EffectBase] | None = None,
    ) -> tuple[int, ...]:
        answer = self.ask(_decision(Ask.PICK_ANY, topic, player, prompt, options, (), holder, self.current_dice()))
        assert isinstance(answer, tuple)
        return answer

    def may_use(self, holder: Holder[EffectBase], die: Die | None = None) -> bool:
        effect = holder.effect
        sides = getattr(effect, "sides", None)
        if die is not None and sides is not None and sides != die.sides:
            return False
        if effect.once_each_turn and (holder.once_key in self.used or holder.ordinal in self.used_permanents):
            return False
        cost = getattr(effect, "cost", None)
        if cost is None:
            return True
        permanent = holder.permanent
        if cost.tap and (permanent.tapped or holder.key in self.tapped):
            return False  # tapped already, or tapped to pay for an earlier use in this resolution
        if cost.counter is not None:
            have = permanent.counter(cost.counter)
            paid = self.counters_paid.get((holder.key, cost.counter), 0)
            if have is not None and have - paid < 1:
                return False  # one counter removed per use
        return True

    def use(self, holder: Holder[EffectBase]) -> None:
        effect = holder.effect
        if effect.once_each_turn:
            self.used.add(holder.once_key)
            if holder.ordinal:
                self.used_permanents.add(holder.ordinal)
        cost = getattr(effect, "cost", None)
        if cost is not None and cost.tap:
            self.tapped.add(holder.key)
        if cost is not None and cost.counter is not None:
            key = (holder.key, cost.counter)
            self.counters_paid[key] = self.counters_paid.get(key, 0) + 1


def _decision(
    ask: Ask,
    topic: Topic,
    player: Seat,
    prompt: str,
    options: Sequence[str],
    values: Sequence[float | None],
    holder: Holder[EffectBase] | None,
    dice: tuple[DieRoll, ...],
) -> Decision:
    if holder is None:
        return Decision(ask, topic, player, prompt, tuple(options), tuple(values), "", dice)
    return Decision(
        ask, topic, player, prompt, tuple(options), tuple(values), holder.name, dice, holder.zone, holder.position
    )


class _Resolution(Decisions):
    """The state of one resolution, and the context effects act through (``RollContext``)."""

    __slots__ = (
        "instruction",
        "source_name",
        "dice_source",
        "board",
        "amounts",
        "turn",
        "limit",
        "players",
        "action",
        "effects",
        "next_index",
        "rerolls",
        "dice_counted",
        "records",
        "base",
        "made",
        "drawn",
        "dice_limit",
        "controller",
        "rollers",
        "pending_used",
        "memory_name",
        "recall",
        "rolled_totals",
        "noted",
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
        limit: int | None,
        players: int,
        action: bool,
        meter: Meter | None = None,
        controller: Seat = YOU,
        roller: Seat | None = None,
    ) -> None:
        Decisions.__init__(self, chooser, turn.used, meter, turn.used_permanents)
        self.instruction = instruction
        self.source_name = source_name
        self.dice_source = dice_source
        self.board = board
        self.amounts = amounts
        self.turn = turn
        self.limit = limit
        self.players = players
        self.action = action
        cached = _EFFECTS.get(id(board))
        self.effects = cached[1] if cached is not None and cached[0] is board else effects_of(board)
        self.next_index = 0
        self.rerolls = 0
        self.dice_counted: dict[Seat, int] = {}
        self.controller = controller
        # Who rolls: the controller, the player the text names, or every player from the controller.
        self.rollers = (
            (controller,) if instruction.roller is _YOU_ROLL else instruction.roller.seats(players, controller, roller)
        )
        # Made on the first use (most rolls use none): an empty frozenset until then.
        self.pending_used: set[int] | frozenset[int] = _NONE_USED_UP
        # What the turn and the source permanent remember, for outcomes that compare the total with it.
        self.memory_name = ""
        self.recall: Recall | None = None
        self.rolled_totals: list[int] = []
        self.noted: int | None = None
        if instruction.remembers or instruction.notes or _reads_noted(instruction):
            self.memory_name, noted = _source_memory(board, controller, source_name)
            self.recall = Recall(totals_of(turn.totals, self.memory_name), noted)
        self.records: list[DieRoll] = []
        self.base = 0
        self.made: set[tuple[str, int]] | frozenset[tuple[str, int]] = _NONE_MADE
        self.drawn = 0
        self.dice_limit = _NO_METER_DICE if meter is None else self.meter.budget.dice

    # -- the context effects see --------------------------------------------------------------

    @property
    def dice(self) -> tuple[DieRoll, ...]:
        return tuple(self.records)

    def current_dice(self) -> tuple[DieRoll, ...]:
        return tuple(self.records)

    def made_by(self, die: DieRoll, holder: Holder[EffectBase]) -> bool:
        return die.rerolls is not None and (holder.key, die.rerolls) in self.made

    def reroll(self, die: DieRoll, roller: Seat, holder: Holder[EffectBase] | None) -> None:
        self.rerolls += 1
        if self.rerolls > MAX_REROLLS:
            raise RollLimitError(f"reroll: more than {MAX_REROLLS} rerolls in one roll; the loop was stopped")
        self._set(die.index, fate=Fate.REROLLED)
        if holder is not None:
            made = self.made if isinstance(self.made, set) else set()
            made.add((holder.key, die.index))
            self.made = made
        # A reroll is a new roll of that die: the replacements meet it again (docs/design.md §5).
        first = len(self.records)
        self._roll(self._plan(1, die.die, roller))
        for position in range(first, len(self.records)):
            self._set(self.base + position, rerolls=die.index)

    # -- the whole resolution -------------------------------------------------------------------

    def run(self) -> Resolution:
        instruction = self.instruction
        stored: dict[str, tuple[int, ...]] = {}
        die = instruction.die if instruction.sides_amount is None else instruction.die_for(self.amounts)
        amount = instruction.count
        count = (
            0 if instruction.reroll_stored else amount.constant if amount.name is None else amount.value(self.amounts)
        )
        if not 0 <= count <= MAX_DICE or (die.sides is not None and die.sides < 1):
            _check_roll(count, die)
        planar_cost = self._planar_action(die) if self.action else None

        slots: tuple[int, ...] = ()
        holder: Permanent | None = None
        if instruction.reroll_stored:
            # CR 706.8b: the subset to reroll is chosen first; rerolling it is one roll.
            holder = self._stored_holder()
            if holder is None or not holder.stored:
                return self._finish((), (), stored, planar_cost)
            slots = self.ask_subset(
                Topic.STORED,
                f"Which stored results of {holder.name} to reroll?",
                tuple(str(value) for value in holder.stored),
                player=self.controller,
            )
            if not slots:
                return self._finish((), (), stored, planar_cost)
            count = len(slots)
            die = holder.stored_die or die

        executions: list[Execution] = []
        triggers: list[TriggerHit] = []
        can_trigger = bool(self.effects.triggers)
        limit = MAX_EXECUTIONS + 1 if self.limit is None else self.limit
        pending = 1
        while pending:
            pending -= 1
            if len(executions) >= MAX_EXECUTIONS:
                raise RollLimitError(
                    f"roll again: more than {MAX_EXECUTIONS} executions of one instruction; "
                    "the loop was stopped (answer false to an optional roll again, or give other dice)"
                )
            execution, counted = self._execute(count, die)
            if can_trigger:
                triggers.extend(self._triggers(execution, counted, len(executions)))
            else:
                done = self.dice_counted  # the Nth die this turn, with nothing to trigger
                for roll in counted:
                    done[roll.roller] = done.get(roll.roller, 0) + 1
            executions.append(execution)
            if execution.again:
                pending += execution.again_times
            if len(executions) >= limit:
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
        return self._finish(tuple(executions), tuple(triggers) if triggers else (), stored, planar_cost)

    def _planar_action(self, die: Die) -> int | None:
        if not self.action:
            return None
        if not die.planar:
            raise InputError("action", "the special action rolls the planar die and no other (CR 901.9a)")
        return self.turn.planar_actions  # CR 901.9b: the Nth roll this turn costs N-1 generic mana

    def _finish(
        self,
        executions: tuple[Execution, ...],
        triggers: tuple[TriggerHit, ...],
        stored: dict[str, tuple[int, ...]],
        planar_cost: int | None,
    ) -> Resolution:
        turn = self.turn
        counted = self.dice_counted
        others = turn.others_rolled
        if len(counted) > 1 or (counted and YOU not in counted):
            seats = max(self.players, len(others) + 1)
            others = tuple(turn.rolled(Seat(seat)) + counted.get(Seat(seat), 0) for seat in range(1, seats))
        used = self.used
        return _RESOLUTION(
            executions,
            triggers,
            stored,
            turn.used if len(used) == len(turn.used) else frozenset(used),  # used only grows from turn.used
            self.dice_source.name,
            tuple(self.asked) if self.asked else (),
            turn.dice_rolled + counted.get(YOU, 0),
            planar_cost,
            turn.planar_actions + (planar_cost is not None),
            others,
            frozenset(self.used_permanents) if self.used_permanents else _NONE_USED,
            frozenset(self.pending_used) if self.pending_used else _NONE_USED_UP,
            with_totals(turn.totals, self.memory_name, self.rolled_totals) if self.rolled_totals else turn.totals,
            turn.flips,
            ((self.memory_name, self.noted),) if self.noted is not None else (),
        )

    def _stored_holder(self) -> Permanent | None:
        for permanent in self.board.seat(self.controller).battlefield:
            if permanent.name.casefold() == self.source_name.casefold() and permanent.stored is not None:
                return permanent
        return None

    # -- one execution --------------------------------------------------------------------------

    def _execute(self, count: int, die: Die) -> tuple[Execution, list[DieRoll]]:
        instruction = self.instruction
        effects = self.effects
        if self.meter is not _NO_METER and self.meter.budget.seconds is not None:
            self.meter.check_time()  # a request with a deadline
        self.records = []
        self.base = self.next_index
        self.rerolls = 0
        rollers = self.rollers
        # Steps 1-4: the instruction, its replacements, the physical roll and ignoring. Dice of
        # other kinds in the same roll are planned kind by kind (no ruling says otherwise), after it.
        plans = effects.plans
        for roller in rollers:
            ignore, keep = instruction.ignore_lowest, instruction.keep_highest
            plan = plans.get((count, die.sides, roller, ignore, keep)) or self._plan(count, die, roller, ignore, keep)
            self._roll(plan)
            for group in instruction.also:
                more = group.count.value(self.amounts)
                _check_roll(more, group.die)
                self._roll(self._plan(more, group.die, roller))
        # Step 5: reroll window, then ±N window (CR 706.2b).
        if effects.rerolls:
            self._reroll_window(0)
        if effects.modifiers or instruction.modifier is not None:
            self._modify_window(0)
        # Step 6: with several players rolling, who has the lowest or highest result.
        standing = self._standing(rollers) if instruction.compare is not None else ()
        counted = [roll for roll in self.records if roll.fate is _COUNTED]
        # Step 7: choose one result, then the table (CR 706.3a).
        chosen = self._choose(counted) if instruction.choose else None
        row: int | None = None
        rows: tuple[int | None, ...] | None = None
        table = instruction.table
        if table is not None:
            if instruction.table_each_result:
                rows = tuple(table.row_for(roll.result) for roll in counted)
            else:
                row = table.row_for(
                    counted[0].result if chosen is None and len(counted) == 1 else read_once(counted, chosen)
                )
        # Step 9: doubles (CR 706.5), of one roller's dice (dice of two players are never doubles).
        doubles = len(counted) >= 2 and (
            _doubles(counted)
            if len(rollers) == 1
            else any(_doubles([r for r in counted if r.roller == seat]) for seat in rollers)
        )
        outcomes = (
            outcomes_holding(instruction.outcomes, counted, doubles, standing, self.controller, self.recall)
            if instruction.outcomes
            else ()
        )
        if self.recall is not None:
            self._remember(counted, outcomes)
        # Step 8: roll again / repeat (CR 706.3c).
        again, times = False, 1
        if instruction.repeat_when is not None or (
            table is not None and row is not None and table.rows[row].roll_again
        ):
            again, times = self._again(row, counted)
        execution = _EXECUTION(tuple(self.records), chosen, row, rows, doubles, again, outcomes, times, standing)
        return execution, counted

    def _remember(self, counted: Sequence[DieRoll], outcomes: tuple[int, ...]) -> None:
        """What this execution leaves in the turn's memory (:mod:`mtgdice.rules.memory`): its total
        among the totals rolled for this ability, once its own outcomes compared it with the others;
        the total noted on the permanent when a noting outcome held."""
        value = memory_total(counted)
        assert self.recall is not None
        if value is None:
            return
        if self.instruction.remembers:
            self.rolled_totals.append(value)
            self.recall = self.recall.after(value)
        if any(self.instruction.outcomes[index].reads is Reads.NOTE for index in outcomes):
            self.noted = value
            self.recall = Recall(self.recall.earlier, value)

    def _choose(self, counted: Sequence[DieRoll]) -> int | None:
        if not self.instruction.choose or not counted:
            return None
        return self.ask_one(
            Topic.CHOOSE_RESULT,
            "Choose one result",
            tuple(roll.label for roll in counted),
            player=self.controller,
            values=tuple(roll.value for roll in counted),
        )

    def _again(self, row: int | None, counted: Sequence[DieRoll]) -> tuple[bool, int]:
        instruction = self.instruction
        table = instruction.table
        again = False
        times = 1
        if table is not None and row is not None and table.rows[row].roll_again:
            matched = table.rows[row]
            if not matched.roll_again_optional or self.ask_yes(
                Topic.ROLL_AGAIN, f"Roll again ({matched.label})?", player=self.controller
            ):
                again, times = True, matched.roll_again_times
        repeat = instruction.repeat_when
        if repeat is not None and any(repeat.holds(roll) for roll in counted):
            again = True
            if instruction.repeat_optional:
                again = self.ask_yes(Topic.ROLL_AGAIN, "Repeat this process?", player=self.controller)
        return again, times

    # -- step 2 ---------------------------------------------------------------------------------

    def _plan(
        self, count: int, die: Die, roller: Seat, ignore_lowest: int = 0, keep_highest: int | None = None
    ) -> RollPlan:
        """CR 616: the replacements that see ``roller``'s roll, each once; the roller orders those
        of different kinds (CR 616.1), identical ones apply in zone order without a question."""
        key = (count, die.sides, roller, ignore_lowest, keep_highest)
        known = self.effects.plans.get(key)
        if known is not None:
            return known
        asked = len(self.asked)
        plan = RollPlan(die, roller, (1,) * count, ignore_lowest)
        # Copies of one effect (equal rule objects) apply alike, so each round asks each group once
        # whether it applies: many copies of a card cost linear time, not quadratic.
        groups: dict[object, list[tuple[int, Holder[Replacement]]]] = {}
        waiting = False
        for place, holder in enumerate(self.effects.replacements):
            if holder.sees(roller):
                if holder.zone is Zone.PENDING:
                    if holder.position in self.pending_used:
                        continue  # used up by an earlier roll of this resolution
                    waiting = True
                groups.setdefault(_same_effect(holder.effect), []).append((place, holder))
        while groups:
            applying = [members for members in groups.values() if members[0][1].effect.applies(plan)]
            if not applying:
                break
            heads = [members[0] for members in applying]
            if len({head.effect.behaviour() for _, head in heads}) > 1:
                # CR 616.1: the affected player orders them; every applicable one is an option, in zone order.
                applicable = sorted(member for members in applying for member in members)
                pick = self.ask_one(
                    Topic.ORDER,
                    "Which replacement applies first (CR 616.1)?",
                    tuple(f"{holder.name} ({holder.effect.kind})" for _, holder in applicable),
                    player=roller,
                )
                place, holder = applicable[pick]
            else:
                place, holder = min(heads)  # identical ones apply in zone order
            group = groups[_same_effect(holder.effect)]
            group.remove((place, holder))
            if not group:
                del groups[_same_effect(holder.effect)]
            if holder.zone is Zone.PENDING:
                used_up = self.pending_used if isinstance(self.pending_used, set) else set()
                used_up.add(holder.position)  # the first roll it applies to uses it up
                self.pending_used = used_up
            plan = holder.effect.replace(plan, holder, self)
        if plan.dice_count > MAX_DICE:
            raise RollLimitError(
                f"count: {plan.dice_count} dice in one roll is more than the limit of {MAX_DICE}; roll fewer dice"
            )
        plan = _keeping(plan, keep_highest, die, roller)
        if len(self.asked) == asked and not waiting and len(self.effects.plans) < 64:
            self.effects.plans[key] = plan  # no decision shaped it: the same roll gets the same plan
        return plan

    # -- steps 3 and 4 --------------------------------------------------------------------------

    def _roll(self, plan: RollPlan) -> None:
        """Step 3, the physical roll (each die's partners right after it), then step 4 on it."""
        records = self.records
        first = len(records)
        die, roller, draw = plan.die, plan.roller, self.dice_source.roll
        total = plan.dice_count
        self.drawn += total
        if self.drawn > self.dice_limit:
            self.meter.check_dice(self.drawn)
        start = self.next_index
        grouped = total != len(plan.slots)
        lowest = plan.lowest
        if lowest and not grouped and not plan.chosen and die.sides is not None:
            # CR 706.6, the lowest ignored, with no decision to ask: when the ``lowest`` lowest faces
            # are each a single die (no tie to break), they are the dice below the first face kept,
            # and each die's record is made once with its fate (what ``_ignore`` would find).
            faces = [draw(die) for _ in range(total)]
            self.next_index += total
            if lowest == 1 and total > 1:
                low = min(faces)  # type: ignore[type-var]
                if faces.count(low) == 1:
                    index = start
                    for face in faces:
                        records.append(
                            _DIE_ROLL(index, die, face, (), _IGNORED if face == low else _COUNTED, None, roller)
                        )
                        index += 1
                    return
            else:
                order = sorted(faces)  # type: ignore[type-var]
                ignored = min(lowest, total)
                if all(order[k] != order[k + 1] for k in range(min(ignored, total - 1))):
                    kept_from = order[ignored] if ignored < total else None
                    for index, face in enumerate(faces, start):
                        fate = _IGNORED if kept_from is None or face < kept_from else _COUNTED  # type: ignore[operator]
                        records.append(_DIE_ROLL(index, die, face, (), fate, None, roller))
                    return
            for index, face in enumerate(faces, start):
                records.append(_DIE_ROLL(index, die, face, (), _COUNTED, None, roller))
            self._ignore(plan, first, grouped)
            return
        for index in range(start, start + total):
            records.append(_DIE_ROLL(index, die, draw(die), (), _COUNTED, None, roller))
        self.next_index += total
        if grouped or lowest or plan.chosen:
            self._ignore(plan, first, grouped)

    def _ignore(self, plan: RollPlan, first: int, grouped: bool) -> None:
        """CR 706.6: decide which dice of this roll count, by the face shown."""
        # First each group's free choice, in roll order.
        start = first
        for size in plan.slots if grouped else ():
            group = [self.base + position for position in range(start, start + size)]
            start += size
            dice = [self.records[i - self.base] for i in group]
            if size == 2:
                # One die of a pair is ignored: the roller names it (json-interface.md choices).
                pick = self.ask_one(
                    Topic.IGNORE,
                    "Ignore which of these dice?",
                    tuple(roll.label for roll in dice),
                    player=plan.roller,
                    values=tuple(roll.value for roll in dice),
                    invert=True,
                )
                self._set(group[pick], fate=Fate.IGNORED)
            elif size > 2:
                # N partners: N+1 dice of which one counts; the roller names the one to keep (the
                # same choice as ignoring N one by one, asked once so that many copies stay cheap).
                keep = self.ask_one(
                    Topic.KEEP,
                    f"Keep which of these {size} dice?",
                    tuple(roll.label for roll in dice),
                    player=plan.roller,
                    values=tuple(roll.value for roll in dice),
                )
                for position, index in enumerate(group):
                    if position != keep:
                        self._set(index, fate=Fate.IGNORED)
        # Then the lowest: the instruction's own count and every replacement's in one count.
        # A numbered die's face is its natural result; the planar die has none to compare (CR 706.7).
        live = [] if plan.die.planar else [roll for roll in self.records[first:] if roll.fate is _COUNTED]
        for _ in range(min(plan.lowest, len(live))):
            low = min(roll.face for roll in live)  # type: ignore[type-var]
            tied = [roll for roll in live if roll.face == low]
            pick = 0
            if len(tied) > 1:
                pick = self.ask_one(
                    Topic.IGNORE,
                    f"Ignore which of the tied lowest ({low})?",
                    tuple(roll.label for roll in tied),
                    player=plan.roller,
                )
            live.remove(tied[pick])
            self._set(tied[pick].index, fate=Fate.IGNORED)
        # Then each extra die whose ignored roll a player chooses.
        for chosen in plan.chosen:
            live = [roll for roll in self.records[first:] if roll.counted]
            if len(live) <= 1:
                break
            pick = self.ask_one(
                Topic.IGNORE,
                f"Ignore which die ({chosen.holder.name})?",
                tuple(roll.label for roll in live),
                player=chosen.by.seat(plan.roller, chosen.holder.controller),
                values=tuple(roll.value for roll in live),
                invert=True,
                holder=chosen.holder,
            )
            self._set(live[pick].index, fate=Fate.IGNORED)

    def _set(
        self,
        index: int,
        *,
        fate: Fate | None = None,
        modifiers: tuple[Modifier, ...] | None = None,
        rerolls: int | None = None,
    ) -> None:
        """Replace die ``index`` by a changed copy (an execution's records are in draw order)."""
        roll = self.records[index - self.base]
        self.records[index - self.base] = _DIE_ROLL(
            roll.index,
            roll.die,
            roll.face,
            roll.modifiers if modifiers is None else modifiers,
            roll.fate if fate is None else fate,
            roll.rerolls if rerolls is None else rerolls,
            roll.roller,
        )

    # -- step 5 ---------------------------------------------------------------------------------

    def _reroll_window(self, start: int) -> None:
        """CR 706.2b: rerolls first, die by die in roll order (a new roll joins the end), each die
        offered to the permissions in zone order; then "one or more dice" permissions."""
        permissions = self.effects.rerolls
        if not permissions:
            return
        position = start
        while position < len(self.records):
            roll = self.records[position]
            position += 1
            if not roll.counted:
                continue
            for holder in permissions:
                if holder.effect.consider(roll, holder, self):
                    break
        for holder in permissions:
            holder.effect.consider_batch(self.records[start:], holder, self)

    def _modify_window(self, start: int) -> None:
        """CR 706.2b second: effects that increase or decrease by a specified amount. The printed
        modifier and static ones apply to every counted numbered die; optional ones are offered
        after the result is visible (CR 706.2a), die by die, in zone order."""
        instruction = self.instruction
        printed = instruction.modifier.value(self.amounts) if instruction.modifier is not None else None
        modifiers = self.effects.modifiers
        if printed is None and not modifiers:
            return
        for position in range(start, len(self.records)):
            roll = self.records[position]
            if not roll.counted or roll.natural is None:
                continue
            if printed is not None:
                self._set(roll.index, modifiers=roll.modifiers + (Modifier(printed, self.source_name),))
            for holder in modifiers:
                added = holder.effect.modify(self.records[position], holder, self)
                if added is not None:
                    self._set(roll.index, modifiers=self.records[position].modifiers + (added,))

    # -- step 6 ---------------------------------------------------------------------------------

    def _standing(self, rollers: tuple[Seat, ...]) -> tuple[Seat, ...]:
        """The seats with the lowest or highest result; tied ones reroll when the text says so."""
        compare = self.instruction.compare
        if compare is None or len(rollers) < 2:
            return ()
        while True:
            totals = {seat: total_of([r for r in self.records if r.counted and r.roller == seat]) for seat in rollers}
            numbers = [value for value in totals.values() if value is not None]
            if not numbers:
                return ()
            extreme = min(numbers) if compare.extreme is Extreme.LOWEST else max(numbers)
            standing = tuple(seat for seat, value in totals.items() if value == extreme)
            if len(standing) == 1 or not compare.break_ties:
                return standing
            first = len(self.records)
            for roll in [r for r in self.records if r.counted and r.roller in standing]:
                self.reroll(roll, roll.roller, None)
            self._reroll_window(first)
            self._modify_window(first)

    # -- step 10 --------------------------------------------------------------------------------

    def _triggers(self, execution: Execution, counted: Sequence[DieRoll], number: int) -> list[TriggerHit]:
        if not counted:
            return []
        # The Nth die this turn: each roller's counted dice of this turn and earlier executions.
        done = self.dice_counted
        triggers = self.effects.triggers
        if not triggers:
            for roll in counted:
                done[roll.roller] = done.get(roll.roller, 0) + 1
            return []
        nth: dict[int, int] = {}
        for roll in counted:
            seat = roll.roller
            count = done.get(seat, 0) + 1
            done[seat] = count
            nth[roll.index] = self.turn.rolled(seat) + count
        seen = tuple(counted)
        if self.effects.faces:
            seen = tuple(_face_seen(roll, self.effects.faces) for roll in counted)
        events = RollEvents(seen, self.rollers, execution.doubles, self.instruction.purpose, nth, number)
        hits: list[TriggerHit] = []
        for holder in triggers:
            hits.extend(holder.effect.hits(events, holder))
        return hits


def _same_effect(effect: EffectBase) -> object:
    """A key equal for equal rule objects (frozen dataclasses), unique for one that cannot be hashed."""
    try:
        hash(effect)
    except TypeError:
        return id(effect)
    return effect


def read_once(counted: Sequence[DieRoll], chosen: int | None) -> int | None:
    """The value a table read once is read with (CR 706.3a, docs/design.md §7)."""
    if chosen is not None:
        return counted[chosen].result
    if len(counted) == 1:
        return counted[0].result
    # Several dice count and the table is read once: by their total (docs/design.md §7).
    return total_of(counted)


def _doubles(counted: Sequence[DieRoll]) -> bool:
    """CR 706.5: two or more counted dice, all showing the same result."""
    if len(counted) < 2:
        return False
    first = counted[0].result
    return first is not None and all(roll.result == first for roll in counted)


def _face_seen(roll: DieRoll, faces: Sequence[Holder[FaceEffect]]) -> DieRoll:
    for holder in faces:
        seen = holder.effect.seen(roll)
        if seen is not None:
            return seen
    return roll


def _best_others(values: Sequence[float | None]) -> tuple[float | None, ...]:
    """For each option, the best of the other values (what ignoring that option's die leaves)."""
    known = [(value, index) for index, value in enumerate(values) if value is not None]
    if not known:
        return tuple(None for _ in values)
    ordered = sorted(known, reverse=True)
    best, best_index = ordered[0]
    second = ordered[1][0] if len(ordered) > 1 else None
    return tuple(second if index == best_index else best for index in range(len(values)))


def _check_roll(count: int, die: Die) -> None:
    if count < 0:
        raise InputError("count", f"{count} dice cannot be rolled; the number of dice must be 0 or more")
    if count > MAX_DICE:
        raise RollLimitError(f"count: {count} dice in one roll is more than the limit of {MAX_DICE}; roll fewer dice")
    if die.sides is not None and die.sides < 1:
        raise DieSizeError(die.sides)


def _reads_noted(instruction: RollInstruction) -> bool:
    return any(outcome.reads is Reads.NOTED for outcome in instruction.outcomes)


def _source_memory(board: Board, controller: Seat, name: str) -> tuple[str, int | None]:
    """The source permanent's name in the turn's memory (``NAME#k``, :meth:`Board.ordinals`) and the
    value noted on it: the first permanent of its name on its controller's battlefield (the source
    itself, json-interface.md v3), else the first of its name anywhere, else its name alone."""
    folded = name.casefold()
    ordinals = board.ordinals()
    found: tuple[str, int | None] | None = None
    for (seat, zone, position), ordinal in ordinals.items():
        permanent = board.seats[seat].zone(zone)[position]
        if permanent.name.casefold() != folded:
            continue
        base, _, k = ordinal.rpartition("#")
        candidate = (permanent_name(base, int(k)), permanent.noted)
        if seat == controller and zone is Zone.BATTLEFIELD:
            return candidate
        found = found or candidate
    return found or (name, None)
