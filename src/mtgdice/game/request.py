"""A roll request as values: what to roll, at which table, with which amounts and answers.

A :class:`RollRequest` is what the JSON ``resolve`` request says (spec/json-interface.md), typed:
the game builds one from its table, the JSON reader (:mod:`mtgdice.io.jsonio`) from a request object,
the CLI from its flags, the log stores one and replays it. Its table is the rules' own model, a
:class:`~mtgdice.rules.Board`: every player's zones in turn order, seat 0 first, and the
replacements that wait; the earlier request form (``battlefield``, ``opponents``, ...) is read into
the same seats. A card enters the table here, once, whichever edge brings it (:func:`enter_card`,
:func:`enter_source`, :func:`enter_waiting`): it is looked up by name in the card data (or given
by its own text) and compiled, and the request holds the result, never the name to look up again.
Dice notation is read as the request is made (``RollRequest.dice``). :func:`prepare`, once per
request, picks the roll instruction (or coin flip), places the source and sets the policy for
decisions nobody answers; :func:`resolve_prepared` then only resolves, with a dice source and a
chooser. Kinds of roll: a card's instruction, plain dice (notation such as ``2d10``), the planar
die (as a special action or not), a coin flip (CR 705).

Errors name the field the edge gave (``seats[1].battlefield[0]``, ``--with 'NAME'``, ``amounts.X``).
This module leaves out JSON (``jsonio``) and where card data comes from (``cards``).
"""

from __future__ import annotations

import contextvars
import enum
import functools
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Protocol

from mtgdice.errors import InputError
from mtgdice.rules import (
    PLANAR_DIE,
    YOU,
    Amount,
    Board,
    Chooser,
    CoinFace,
    DiceSource,
    FlipInstruction,
    FlipResolution,
    Permanent,
    Policy,
    PolicyChooser,
    Resolution,
    RollInstruction,
    ScriptedChooser,
    Seat,
    TurnState,
    flip,
    resolve,
)
from mtgdice.rules.board import MAX_SEATS, PlayerZones, Waiting
from mtgdice.rules.budget import Meter
from mtgdice.rules.choices import RollerBest
from mtgdice.rules.effects.replacement import Replacement
from mtgdice.rules.plain import PlainResult, PlainRoll, roll_plain
from mtgdice.rules.zones import Zone
from mtgdice.text import CompiledCard
from mtgdice.text.notation import dice_text, parse_plain
from mtgdice.text.translate import compile_foreign

Outcome = Resolution | FlipResolution | PlainResult
"""What resolving a request comes to: a resolution of dice, a coin flip, or a plain roll."""


class CardRecord(Protocol):
    """A card of the card data: its name (and, read when present, ``oracle_text``, ``layout``, ``type_line``)."""

    @property
    def name(self) -> str: ...


class CardSource(Protocol):
    """Anything that finds a card by name (``mtgdice.cards.CardCatalog``)."""

    def lookup(self, name: str) -> CardRecord: ...


class RollKind(enum.Enum):
    """What a request rolls: a card's instruction; dice written ``2d10`` rolled as a Magic roll
    on the board (the table's dice tray); the planar die; a coin; or plain dice notation, which
    is no Magic roll at all (``3d6+2``, ``4d6dl1``: nothing on the board applies)."""

    CARD = "card"
    DICE = "dice"
    PLANAR = "planar"
    COIN = "coin"
    PLAIN = "plain"


@dataclass(frozen=True, slots=True)
class SourceCard:
    """The card whose instruction a request resolves, entered once when the request was built: as a
    table holds it (``card``: its name, its own text when given so, no state) and its compiled
    instructions. ``permanent``: its type line names a permanent type (a card given by its text is
    taken as one, json-interface.md v3)."""

    card: Permanent
    compiled: CompiledCard
    permanent: bool = True

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def text(self) -> str | None:
        return self.card.text


TWO_SEATS = Board((PlayerZones(), PlayerZones()))


@dataclass(frozen=True, slots=True)
class RollRequest:
    """One request to roll.

    ``card`` and ``roll`` pick a card's roll instruction; ``notation`` is plain dice; ``action``
    marks the planar die rolled as the special action (CR 901.9); ``call`` is the side called for
    a coin flip that is won or lost (CR 705.1). ``board`` is the table: every player's zones in
    turn order and the replacements that wait, each card compiled when it entered
    (:func:`enter_card`); ``seated`` says the request gave the table as ``seats`` (version 3: the
    source's own ability sees its roll from its controller's battlefield); ``controller`` controls
    the source; ``roller`` is the player a "that player rolls" text names; ``turn`` what the turn
    has done so far.

    >>> RollRequest(RollKind.DICE, notation="2d10").label
    '2d10'
    """

    kind: RollKind = RollKind.CARD
    card: SourceCard | None = None
    roll: int = 0
    notation: str = ""
    board: Board = TWO_SEATS
    seated: bool = False
    controller: Seat = YOU
    roller: Seat | None = None
    amounts: tuple[tuple[str, int], ...] = ()
    choices: tuple[object, ...] = ()
    turn: TurnState = TurnState()
    action: bool = False
    call: CoinFace | None = None
    extra: Mapping[str, object] = field(default_factory=dict, compare=False, hash=False)
    """Fields a shell adds for itself (``policy`` for odds); never read by the rules."""
    dice: CompiledCard | PlainRoll | None = field(default=None, init=False, compare=False, repr=False)
    """The notation read once, as the request is made: for ``dice``, compiled as the sentence a card
    would print; for ``plain``, parsed as plain dice; ``None`` for the other kinds."""

    def __post_init__(self) -> None:
        try:
            if self.kind is RollKind.DICE:
                object.__setattr__(self, "dice", _compiled(dice_text(self.notation), "", "normal", ""))
            elif self.kind is RollKind.PLAIN:
                object.__setattr__(self, "dice", parse_plain(self.notation))
        except InputError as error:  # the notation's reader names no field of the request
            raise InputError("notation", error.problem) from None
        players = len(self.board.seats)
        if not 1 <= players <= MAX_SEATS:
            raise InputError("seats", f"{players} players; a table has 1 to {MAX_SEATS}")
        for name, seat in (("controller", self.controller), ("roller", self.roller)):
            if seat is not None and not 0 <= seat < players:
                raise InputError(name, no_seat(seat, players))
        for i, waiting in enumerate(self.board.pending):
            for name, seat in (("controller", waiting.controller), ("target", waiting.target)):
                if seat is not None and not 0 <= seat < players:
                    raise InputError(f"pending[{i}].{name}", no_seat(seat, players))

    @property
    def seats(self) -> tuple[PlayerZones, ...]:
        """Every player's zones in turn order."""
        return self.board.seats

    @property
    def pending(self) -> tuple[Waiting, ...]:
        """The replacements that wait for the next roll they apply to."""
        return self.board.pending

    @property
    def players(self) -> int:
        """How many players are at the table."""
        return len(self.board.seats)

    @property
    def used(self) -> frozenset[str]:
        return self.turn.used

    @property
    def label(self) -> str:
        """How a log or a page names what was rolled."""
        if self.kind in (RollKind.DICE, RollKind.PLAIN):
            return self.notation.strip().lower()
        if self.kind is RollKind.PLANAR:
            return "planar die"
        if self.kind is RollKind.COIN:
            return "coin"
        return self.card.name if self.card is not None and self.card.name else "text"


def no_seat(seat: int, players: int) -> str:
    """The problem of a seat that is not at a table of ``players``."""
    return f"seat {seat} does not exist; this table has {players} player(s), seats 0 to {players - 1}"


def empty_board(players: int) -> Board:
    """A table of ``players`` seats with nothing in their zones (checked against :data:`MAX_SEATS`)."""
    if not 1 <= players <= MAX_SEATS:
        raise InputError("players", f"{players} players; a table has 1 to {MAX_SEATS}")
    return Board((PlayerZones(),) * players)


@dataclass(frozen=True, slots=True)
class Prepared:
    """A request made ready to resolve, once, before any die is rolled: the request itself, the
    instruction it picks (``instruction``, ``flip`` or ``plain``, compiled when its card entered the
    table), the board with its source placed, and ``policy``, the chooser that takes the decisions
    nobody answers (``None``: the defaults of JSON ``choices``). :func:`resolve_prepared` reads
    nothing else."""

    request: RollRequest
    name: str
    compiled: CompiledCard | None
    instruction: RollInstruction | None
    flip: FlipInstruction | None
    board: Board
    amounts: Mapping[str, int]
    plain: PlainRoll | None = None
    policy: Chooser | None = None


# -- a card enters the table: looked up once, compiled once ------------------------------------------


@functools.lru_cache(maxsize=4096)
def _compiled(text: str, name: str, layout: str, type_line: str) -> CompiledCard:
    # Oracle text is English; printed text in another language goes through its lexicon.
    return compile_foreign(text, name, layout=layout, type_line=type_line)


def compile_record(record: CardRecord) -> CompiledCard:
    """Compile a card record (anything with ``name``, ``oracle_text``, ``layout``, ``type_line``)."""
    return _compiled(
        getattr(record, "oracle_text", "") or "",
        record.name,
        getattr(record, "layout", "normal") or "normal",
        getattr(record, "type_line", "") or "",
    )


_PERMANENT_TYPES = frozenset({"artifact", "battle", "creature", "enchantment", "land", "planeswalker"})


def compile_card(
    name: str, text: str | None, field: str, cards: CardSource | None, layout: str = "normal"
) -> CompiledCard:
    """The compiled card ``name`` (from the card data) or ``text`` (its own text; ``name`` is
    what it is called). Errors name ``field``."""
    return _card(name, text, layout, field, cards)[0]


_ENTERED: dict[tuple[int, str, str | None, str], tuple[CardSource | None, CompiledCard, bool, Permanent]] = {}
MAX_ENTERED = 4096


def _entered(
    name: str, text: str | None, layout: str, field: str, cards: CardSource | None
) -> tuple[CompiledCard, bool, Permanent]:
    """A card entering: compiled, whether it is a permanent card, and its :class:`Permanent` with
    no state — the same objects for the same card and card data (a batch of requests at one table
    looks nothing up again)."""
    key = (id(cards), name, text, layout)
    known = _ENTERED.get(key)
    if known is not None and known[0] is cards:
        return known[1], known[2], known[3]
    compiled, permanent = _card(name, text, layout, field, cards)
    entered = _permanent(compiled, name, text, layout)
    if len(_ENTERED) >= MAX_ENTERED:
        _ENTERED.clear()
    _ENTERED[key] = (cards, compiled, permanent, entered)
    return compiled, permanent, entered


def _card(name: str, text: str | None, layout: str, field: str, cards: CardSource | None) -> tuple[CompiledCard, bool]:
    """The compiled card and whether it is a permanent card (its type line names a permanent
    type; a card given by its text is taken as one, json-interface.md v3)."""
    if text is not None:
        return _compiled(text, name, layout, ""), True
    if not name.strip():
        raise InputError(field, "give the card's name as 'card', or its text as 'text'")
    if cards is None:
        raise InputError("cards", "no card data: pass --cards PATH or set MTGDICE_CARDS")
    try:
        record = cards.lookup(name)
    except LookupError as error:
        raise InputError(field, str(error).removeprefix("card: ")) from None
    type_line = (getattr(record, "type_line", "") or "").casefold()
    return compile_record(record), bool(_PERMANENT_TYPES & set(type_line.replace("—", " ").split()))


def _permanent(compiled: CompiledCard, name: str, text: str | None, layout: str) -> Permanent:
    store_rolls = [roll for roll in compiled.rolls if roll.store]
    return Permanent(
        compiled.name or name,
        compiled.effects,
        stored_die=store_rolls[0].die if store_rolls else None,
        text=text,
        layout=layout,
    )


def enter_card(
    name: str,
    cards: CardSource | None,
    field: str,
    *,
    text: str | None = None,
    layout: str = "normal",
    level: int = 1,
    counters: tuple[tuple[str, int], ...] | None = None,
    tapped: bool = False,
    stored: tuple[int, ...] | None = None,
    noted: int | None = None,
    card_id: int = 0,
) -> Permanent:
    """A card entering a zone of the table, as the rules see it: looked up by ``name`` in the card
    data (or given by its own ``text``), compiled once, with its state. The one way a card gets
    onto a table — from a JSON request, the command line's flags or a room; errors name ``field``
    (each edge's own: ``seats[1].graveyard[0]``, ``--with 'NAME'``, ``card``).

    >>> enter_card("Test", None, "card", text="Roll a d6.", level=2).level
    2
    """
    if level < 1:
        raise InputError(f"{field}.level", f"expected 1 or more, got {level} (a Class starts at level 1)")
    _, _, entered = _entered(name, text, layout, field, cards)
    if level == 1 and counters is None and not tapped and stored is None and noted is None and card_id == 0:
        return entered
    return replace(entered, level=level, counters=counters, tapped=tapped, stored=stored, noted=noted, id=card_id)


def enter_source(
    name: str, cards: CardSource | None, field: str = "card", *, text: str | None = None, layout: str = "normal"
) -> SourceCard:
    """The card whose instruction a request resolves, entered like any card (:func:`enter_card`).

    >>> enter_source("", None, text="Roll a d6.").compiled.rolls[0].die.name
    'd6'
    """
    compiled, permanent, entered = _entered(name, text, layout, field, cards)
    return SourceCard(entered, compiled, permanent)


def enter_waiting(
    name: str,
    cards: CardSource | None,
    field: str,
    controller: Seat = YOU,
    target: Seat | None = None,
    *,
    text: str | None = None,
    layout: str = "normal",
) -> Waiting:
    """A replacement created earlier that waits for the next roll it applies to (json-interface.md
    ``pending``): the card's replacement effects only; a card with none is an error naming ``field``."""
    compiled, _, card = _entered(name, text, layout, field, cards)
    replacements = tuple(effect for effect in compiled.effects if isinstance(effect, Replacement))
    if not replacements:
        raise InputError(
            field,
            f"{compiled.name or 'this text'} has no replacement effect on a roll; pending lists only "
            "replacements that wait for a later roll",
        )
    return Waiting(replace(card, effects=replacements), controller, target)


PLANAR_ROLL = RollInstruction(Amount(1), PLANAR_DIE, text="Roll the planar die.")


def instruction_of(
    request: RollRequest, cards: CardSource | None = None
) -> tuple[CompiledCard | None, RollInstruction | FlipInstruction]:
    """The instruction a request picks: its card's (``roll``: a roll or a flip, in text order),
    plain dice, or the planar die. (``cards`` is not read: the request's cards entered when it was built.)"""
    compiled, instruction, _ = _instruction(request)
    return compiled, instruction


def _instruction(request: RollRequest) -> tuple[CompiledCard | None, RollInstruction | FlipInstruction, bool]:
    if request.kind is RollKind.PLANAR:
        return None, PLANAR_ROLL, False
    if isinstance(request.dice, CompiledCard):  # dice notation, compiled when the request was made
        return request.dice, request.dice.rolls[0], False
    if request.card is None:
        raise InputError("card", "give the card's name as 'card', or its text as 'text'")
    compiled, permanent = request.card.compiled, request.card.permanent
    instructions = compiled.instructions
    if not instructions:
        reason = f"; {compiled.notes[0]}" if compiled.notes else ""
        unsupported = f"; not understood: {compiled.unsupported[0]!r}" if compiled.unsupported else ""
        raise InputError("card", f"{compiled.name or 'this text'} has no roll instruction{reason}{unsupported}")
    if not 0 <= request.roll < len(instructions):
        raise InputError(
            "roll",
            f"{compiled.name} has {len(instructions)} roll instruction(s), "
            f"numbered 0 to {len(instructions) - 1}; got {request.roll}",
        )
    return compiled, instructions[request.roll], permanent


def _from_battlefield(instruction: RollInstruction | FlipInstruction) -> bool:
    """Whether an instruction is an ability of its permanent on the battlefield, as the compiler
    declared it (``functions_from``): not a roll made as the permanent enters (CR 614.1c) nor one
    of an ability that works from another zone — json-interface.md v3, the source."""
    return instruction.functions_from is Zone.BATTLEFIELD


def prepare(request: RollRequest, cards: CardSource | None = None, *, policy: str | None = None) -> Prepared:
    """The rule objects a request stands for, with the chooser of the decisions nobody answers
    (``policy``: ``best`` or a :class:`~mtgdice.rules.Policy` by name; ``None``: the defaults of
    JSON ``choices``). (``cards`` is not read: every card of the request entered the table, looked
    up and compiled, when the request was built.)"""
    amounts = dict(request.amounts)
    if request.roller is not None and request.kind in (RollKind.PLAIN, RollKind.COIN, RollKind.PLANAR):
        raise InputError("roller", f"a {request.label} has no text naming another player; leave roller out")
    if isinstance(request.dice, PlainRoll):  # plain dice: no board applies, nothing is decided
        return Prepared(request, request.label, None, None, None, Board(), amounts, request.dice)
    board = request.board
    instruction: RollInstruction | FlipInstruction
    if request.kind is RollKind.COIN:
        name, compiled, instruction = "coin", None, FlipInstruction(call=request.call is not None)
    else:
        compiled, instruction, permanent = _instruction(request)
        name = compiled.name if compiled is not None and compiled.name else request.label
        _check_roller(request, instruction, name)
        if request.seated and request.card is not None and permanent and _from_battlefield(instruction):
            # The source's own ability resolves: it is on its controller's battlefield (json-interface.md v3).
            board = _with_source(board, request.controller, request.card.card)
    # The decisions nobody answers: "best" is the roller's best result for the rollers' own picks
    # (optional actions declined), any other name a policy of odds; none, the defaults of JSON choices.
    chooser: Chooser | None = None
    if policy == "best":
        chooser = RollerBest({request.controller} | ({request.roller} if request.roller is not None else set()))
    elif policy is not None:
        chooser = PolicyChooser(Policy(policy))
    if isinstance(instruction, FlipInstruction):  # a coin flip (CR 705), the card's or a plain coin
        return Prepared(request, name, compiled, None, instruction, board, amounts, policy=chooser)
    return Prepared(request, name, compiled, instruction, None, board, amounts, policy=chooser)


def _check_roller(request: RollRequest, instruction: RollInstruction | FlipInstruction, name: str) -> None:
    """A ``roller`` given only where the instruction's text names another player, and given there
    when the table is seated."""
    if isinstance(instruction, FlipInstruction):
        if request.roller is not None and request.roller != request.controller:
            raise InputError(
                "roller", f"{name} has its controller flip; give roller only for a text that names another player"
            )
        return
    if request.roller is not None and not instruction.roller.names_a_player and request.roller != request.controller:
        raise InputError(
            "roller",
            f"{name} has its controller roll ({instruction.roller.value}); "
            "give roller only for a text that names another player",
        )
    if request.seated and request.roller is None and instruction.roller.names_a_player:
        raise InputError("roller", f"{name} has {instruction.roller.value} roll; give that player's seat as roller")


MAX_TABLES = 256
_SOURCED: dict[tuple[int, Seat, str, int], tuple[Board, Board]] = {}


def _with_source(board: Board, controller: Seat, source: Permanent) -> Board:
    """:meth:`Board.with_source`, the same object for the same table and source (a room rolling
    again places its source once)."""
    key = (id(board), controller, source.name, id(source.effects))  # effects: the compiled card's own tuple
    known = _SOURCED.get(key)
    if known is not None and known[0] is board:
        return known[1]
    placed = board.with_source(controller, source)
    if len(_SOURCED) >= MAX_TABLES:
        _SOURCED.clear()
    _SOURCED[key] = (board, placed)
    return placed


_METER: contextvars.ContextVar[Meter | None] = contextvars.ContextVar("mtgdice_meter", default=None)


@contextmanager
def metered(meter: Meter) -> Iterator[Meter]:
    """Resolutions in this block that are given no meter spend ``meter``: a shell's request budget
    reaching resolutions it asks for through other code (the game's, for a room's page roll).

    >>> from mtgdice.rules.budget import Budget
    >>> from mtgdice.rules import SeededSource, ScriptedChooser
    >>> from mtgdice.rules.errors import RollLimitError
    >>> request = RollRequest(RollKind.DICE, notation="d6")
    >>> with metered(Meter(Budget(seconds=0.0))):
    ...     try:
    ...         resolve_request(request, None, SeededSource(1), ScriptedChooser())
    ...     except RollLimitError as error:
    ...         print(str(error).split(";")[0])
    budget: this request took more than the 0 s it may take
    """
    token = _METER.set(meter)
    try:
        yield meter
    finally:
        _METER.reset(token)


def resolve_prepared(
    prepared: Prepared,
    source: DiceSource,
    chooser: Chooser | None = None,
    meter: Meter | None = None,
    *,
    choices_field: str = "choices",
) -> Outcome:
    """Resolve a prepared request with ``source`` and ``chooser`` (else the request's ``choices``,
    then its policy; an answer that does not fit names ``choices_field``), within ``meter``'s budget
    (else the one :func:`metered` set, else the command line's)."""
    request = prepared.request
    meter = meter if meter is not None else _METER.get()
    if chooser is None:
        chooser = ScriptedChooser(request.choices, then=prepared.policy, field=choices_field)
    if prepared.plain is not None:
        return roll_plain(prepared.plain, source)
    if prepared.flip is not None:
        return flip(
            prepared.flip,
            source=source,
            board=prepared.board,
            chooser=chooser,
            amounts=prepared.amounts,
            turn=request.turn,
            call=request.call,
            players=request.players,
            name=prepared.name,
            controller=request.controller,
        )
    assert prepared.instruction is not None
    return resolve(
        prepared.instruction,
        source=prepared.name,
        dice=source,
        board=prepared.board,
        chooser=chooser,
        amounts=prepared.amounts,
        turn=request.turn,
        players=request.players,
        action=request.action,
        meter=meter,
        controller=request.controller,
        roller=request.roller,
    )


def resolve_request(
    request: RollRequest, cards: CardSource | None, source: DiceSource, chooser: Chooser, meter: Meter | None = None
) -> Outcome:
    """Resolve ``request`` with faces from ``source`` and decisions from ``chooser`` (within ``meter``).
    (``cards`` is not read: the request's cards entered the table when it was built.)"""
    return resolve_prepared(prepare(request), source, chooser, meter)
