"""A roll request as values: what to roll, at which table, with which amounts and answers.

A :class:`RollRequest` is what the JSON ``resolve`` request says (spec/json-interface.md), typed:
the game builds one from its table, the JSON reader (:mod:`mtgdice.io.jsonio`) from a request object,
the CLI from its flags, the log stores one and replays it. Its table is ``seats`` (every player's
zones in turn order, seat 0 first), ``pending`` (replacements that wait) and ``turn`` (what the
turn remembers); the earlier request form (``battlefield``, ``opponents``, ...) is read into the
same seats (seat 0 and seat 1). :func:`prepare` turns it into rule objects — the source card
compiled, the roll instruction (or coin flip) it picks, the :class:`~mtgdice.rules.Board` — and
:func:`resolve_request` resolves it with a dice source and a chooser. Kinds of roll: a card's
instruction, plain dice (notation such as ``2d10``), the planar die (as a special action or not),
a coin flip (CR 705).

Errors name the request's fields (``seats[1].battlefield[0]``, ``amounts.X``); shells say them in
their own terms. This module leaves out JSON (``jsonio``) and where card data comes from (``cards``).
"""

from __future__ import annotations

import contextvars
import enum
import functools
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

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
    Resolution,
    RollInstruction,
    Seat,
    TurnState,
    flip,
    resolve,
)
from mtgdice.rules.board import MAX_SEATS, PlayerZones, Waiting
from mtgdice.rules.budget import Meter
from mtgdice.rules.effects.replacement import Replacement
from mtgdice.rules.plain import PlainResult, PlainRoll, roll_plain
from mtgdice.text import CompiledCard
from mtgdice.text.notation import dice_text
from mtgdice.text.translate import compile_foreign

Outcome = Resolution | FlipResolution | PlainResult
"""What resolving a request comes to: a resolution of dice, a coin flip, or a plain roll."""


class CardSource(Protocol):
    """Anything that finds a card by name (``mtgdice.cards.CardCatalog``)."""

    def lookup(self, name: str) -> Any: ...


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
class CardRef:
    """A card by its name in the card data, or by its own ``text`` (then ``name`` is what it is called)."""

    name: str
    text: str | None = None
    layout: str = "normal"


@dataclass(frozen=True, slots=True)
class ZoneItem:
    """A card in a zone with its state: Class level, counters, tapped, stored results (CR 706.8),
    a value noted on it for later turns."""

    card: CardRef
    level: int = 1
    counters: tuple[tuple[str, int], ...] | None = None
    tapped: bool = False
    stored: tuple[int, ...] | None = None
    noted: int | None = None

    def __post_init__(self) -> None:
        if self.level < 1:
            raise InputError("level", f"expected 1 or more, got {self.level} (a Class starts at level 1)")


@dataclass(frozen=True, slots=True)
class SeatItems:
    """One player's zones as a request gives them: battlefield, graveyard, command zone."""

    battlefield: tuple[ZoneItem, ...] = ()
    graveyard: tuple[ZoneItem, ...] = ()
    command: tuple[ZoneItem, ...] = ()


@dataclass(frozen=True, slots=True)
class PendingItem:
    """A replacement created earlier that waits for the next roll it applies to: the card whose
    ability made it, its controller and the player it targets (json-interface.md ``pending``)."""

    card: CardRef
    controller: Seat = YOU
    target: Seat | None = None


TWO_SEATS = (SeatItems(), SeatItems())


@dataclass(frozen=True, slots=True)
class RollRequest:
    """One request to roll.

    ``card`` and ``roll`` pick a card's roll instruction; ``notation`` is plain dice; ``action``
    marks the planar die rolled as the special action (CR 901.9); ``call`` is the side called for
    a coin flip that is won or lost (CR 705.1). ``seats`` are the players' zones in turn order
    (``players`` is how many); ``seated`` says the request gave them as ``seats`` (version 3:
    the source's own ability sees its roll from its controller's battlefield); ``controller``
    controls the source; ``roller`` is the player a "that player rolls" text names; ``pending``
    the replacements that wait; ``turn`` what the turn has done so far.

    >>> RollRequest(RollKind.DICE, notation="2d10").label
    '2d10'
    """

    kind: RollKind = RollKind.CARD
    card: CardRef | None = None
    roll: int = 0
    notation: str = ""
    seats: tuple[SeatItems, ...] = TWO_SEATS
    seated: bool = False
    controller: Seat = YOU
    roller: Seat | None = None
    pending: tuple[PendingItem, ...] = ()
    amounts: tuple[tuple[str, int], ...] = ()
    choices: tuple[object, ...] = ()
    turn: TurnState = TurnState()
    action: bool = False
    call: CoinFace | None = None
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    """Fields a shell adds for itself (``policy`` for odds); never read by the rules."""

    def __post_init__(self) -> None:
        if not 1 <= len(self.seats) <= MAX_SEATS:
            raise InputError("seats", f"{len(self.seats)} players; a table has 1 to {MAX_SEATS}")
        for name, seat in (("controller", self.controller), ("roller", self.roller)):
            if seat is not None and not 0 <= seat < len(self.seats):
                raise InputError(name, _no_seat(seat, len(self.seats)))
        for i, item in enumerate(self.pending):
            for name, seat in (("controller", item.controller), ("target", item.target)):
                if seat is not None and not 0 <= seat < len(self.seats):
                    raise InputError(f"pending[{i}].{name}", _no_seat(seat, len(self.seats)))

    @property
    def players(self) -> int:
        """How many players are at the table."""
        return len(self.seats)

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

    def needs_cards(self) -> bool:
        """Whether resolving this request looks a card up by name."""
        refs = [item.card for items in self.seats for zone in _zones(items) for item in zone]
        refs.extend(item.card for item in self.pending)
        if self.kind is RollKind.CARD and self.card is not None:
            refs.append(self.card)
        return any(ref.text is None for ref in refs)


def _no_seat(seat: int, players: int) -> str:
    return f"seat {seat} does not exist; this table has {players} player(s), seats 0 to {players - 1}"


def _zones(items: SeatItems) -> tuple[tuple[ZoneItem, ...], ...]:
    return (items.battlefield, items.graveyard, items.command)


def empty_seats(players: int) -> tuple[SeatItems, ...]:
    """``players`` seats with nothing in their zones (checked against :data:`MAX_SEATS`)."""
    if not 1 <= players <= MAX_SEATS:
        raise InputError("players", f"{players} players; a table has 1 to {MAX_SEATS}")
    return (SeatItems(),) * players


@dataclass(frozen=True, slots=True)
class Prepared:
    """A request as rule objects: the source card (for card rolls), what to roll, the board."""

    name: str
    compiled: CompiledCard | None
    instruction: RollInstruction | None
    flip: FlipInstruction | None
    board: Board
    amounts: Mapping[str, int]
    plain: PlainRoll | None = None


@functools.lru_cache(maxsize=4096)
def _compiled(text: str, name: str, layout: str, type_line: str) -> CompiledCard:
    # Oracle text is English; printed text in another language goes through its lexicon.
    return compile_foreign(text, name, layout=layout, type_line=type_line)


def compile_record(record: Any) -> CompiledCard:
    """Compile a card record (anything with ``name``, ``oracle_text``, ``layout``, ``type_line``)."""
    return _compiled(
        getattr(record, "oracle_text", "") or "",
        record.name,
        getattr(record, "layout", "normal") or "normal",
        getattr(record, "type_line", "") or "",
    )


def compile_ref(ref: CardRef, field: str, cards: CardSource | None) -> CompiledCard:
    """The compiled card a reference names (its own text, or the card data's)."""
    return _card(ref, field, cards)[0]


_PERMANENT_TYPES = frozenset({"artifact", "battle", "creature", "enchantment", "land", "planeswalker"})


def _card(ref: CardRef, field: str, cards: CardSource | None) -> tuple[CompiledCard, bool]:
    """The compiled card and whether it is a permanent card (its type line names a permanent
    type; a card given by its text is taken as one, json-interface.md v3)."""
    if ref.text is not None:
        return _compiled(ref.text, ref.name, ref.layout, ""), True
    if not ref.name.strip():
        raise InputError(field, "give the card's name as 'card', or its text as 'text'")
    if cards is None:
        raise InputError("cards", "no card data: pass --cards PATH or set MTGDICE_CARDS")
    try:
        record = cards.lookup(ref.name)
    except LookupError as error:
        raise InputError(field, str(error).removeprefix("card: ")) from None
    type_line = (getattr(record, "type_line", "") or "").casefold()
    return compile_record(record), bool(_PERMANENT_TYPES & set(type_line.replace("—", " ").split()))


def permanent_from(compiled: CompiledCard, item: ZoneItem) -> Permanent:
    """A compiled card with a zone item's state, as the rules see it."""
    store_rolls = [roll for roll in compiled.rolls if roll.store]
    return Permanent(
        compiled.name or item.card.name,
        compiled.effects,
        item.level,
        item.counters,
        item.tapped,
        item.stored,
        store_rolls[0].die if store_rolls else None,
        item.noted,
    )


def permanent_of(item: ZoneItem, field: str, cards: CardSource | None) -> Permanent:
    return permanent_from(compile_ref(item.card, field, cards), item)


def _field(request: RollRequest, seat: int, zone: str) -> str:
    """How the request named a zone: ``seats[1].graveyard`` in version 3, else the earlier field
    (``pending`` for the waiting replacements, seat -1)."""
    if seat < 0:
        return zone
    if request.seated:
        return f"seats[{seat}].{zone}"
    if seat == 0:
        return zone
    return "opponents"


FieldNamer = Callable[[int, str, int], str]
"""How an edge names a zone item for its errors: (seat, zone, position) -> ``seats[1].graveyard[0]``,
``--seat 1:graveyard 'NAME'``, ... (each edge names its own field); seat -1 and zone ``pending``
name a waiting replacement."""

_TABLES: dict[tuple[object, ...], tuple[CardSource | None, Board]] = {}
MAX_TABLES = 256


def board_of(request: RollRequest, cards: CardSource | None, namer: FieldNamer | None = None) -> Board:
    """The request's seats and waiting replacements as a :class:`Board`: the table's entry point.

    A card enters the table here and is compiled once; a table already entered with the same cards
    in the same state (a room rolling again, a batch of requests at one table) is the same
    :class:`Board` object, so nothing is compiled or built again per roll.
    """
    key = (request.seats, request.pending)
    known = _TABLES.get(key)
    if known is not None and known[0] is cards:
        return known[1]
    board = _enter(request, cards, namer or (lambda seat, zone, i: f"{_field(request, seat, zone)}[{i}]"))
    if len(_TABLES) >= MAX_TABLES:
        _TABLES.clear()
    _TABLES[key] = (cards, board)
    return board


def _enter(request: RollRequest, cards: CardSource | None, namer: FieldNamer) -> Board:
    seats: list[PlayerZones] = []
    for seat, items in enumerate(request.seats):

        def zone(name: str, listed: tuple[ZoneItem, ...], seat: int = seat) -> tuple[Permanent, ...]:
            return tuple(permanent_of(item, namer(seat, name, i), cards) for i, item in enumerate(listed))

        seats.append(
            PlayerZones(
                zone("battlefield", items.battlefield),
                zone("graveyard", items.graveyard),
                zone("command", items.command),
            )
        )
    pending: list[Waiting] = []
    for i, item in enumerate(request.pending):
        where = namer(-1, "pending", i)
        compiled = compile_ref(item.card, where, cards)
        replacements = tuple(effect for effect in compiled.effects if isinstance(effect, Replacement))
        if not replacements:
            raise InputError(
                where,
                f"{compiled.name or 'this text'} has no replacement effect on a roll; pending lists only "
                "replacements that wait for a later roll",
            )
        card = permanent_from(compiled, ZoneItem(item.card))
        pending.append(Waiting(replace(card, effects=replacements), item.controller, item.target))
    return Board(tuple(seats), tuple(pending))


PLANAR_ROLL = RollInstruction(Amount(1), PLANAR_DIE, text="Roll the planar die.")


def instruction_of(
    request: RollRequest, cards: CardSource | None
) -> tuple[CompiledCard | None, RollInstruction | FlipInstruction]:
    """The instruction a request picks: its card's (``roll``: a roll or a flip, in text order),
    plain dice, or the planar die."""
    compiled, instruction, _ = _instruction(request, cards)
    return compiled, instruction


def _instruction(
    request: RollRequest, cards: CardSource | None
) -> tuple[CompiledCard | None, RollInstruction | FlipInstruction, bool]:
    if request.kind is RollKind.PLANAR:
        return None, PLANAR_ROLL, False
    if request.kind is RollKind.DICE:
        compiled = _compiled(dice_text(request.notation), "", "normal", "")
        return compiled, compiled.rolls[0], False
    if request.card is None:
        raise InputError("card", "give the card's name as 'card', or its text as 'text'")
    compiled, permanent = _card(request.card, "card", cards)
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
    """Whether an instruction is an ability of its permanent on the battlefield: not a roll made
    as the permanent enters (CR 614.1c) nor one of an ability that works from another zone (as it
    dies, from the graveyard) — json-interface.md v3, the source."""
    words = instruction.text.casefold().replace(",", " ").split()
    if words[:1] == ["as"] and any(word.startswith("enter") for word in words):
        return False
    return not ({"dies", "graveyard"} & set(words))


def prepare(request: RollRequest, cards: CardSource | None, namer: FieldNamer | None = None) -> Prepared:
    """The rule objects a request stands for."""
    amounts = dict(request.amounts)
    if request.roller is not None and request.kind in (RollKind.PLAIN, RollKind.COIN, RollKind.PLANAR):
        raise InputError("roller", f"a {request.label} has no text naming another player; leave roller out")
    if request.kind is RollKind.PLAIN:
        from mtgdice.text.notation import parse_plain

        return Prepared(request.label, None, None, None, Board(), amounts, parse_plain(request.notation))
    board = board_of(request, cards, namer)
    if request.kind is RollKind.COIN:
        return Prepared("coin", None, None, FlipInstruction(call=request.call is not None), board, amounts)
    compiled, instruction, permanent = _instruction(request, cards)
    name = compiled.name if compiled is not None and compiled.name else request.label
    placed = request.seated and compiled is not None and permanent and _from_battlefield(instruction)
    if placed:
        # The source's own ability resolves: it is on its controller's battlefield (json-interface.md v3).
        assert request.card is not None and compiled is not None
        board = _with_source(board, request.controller, permanent_from(compiled, ZoneItem(request.card)))
    if isinstance(instruction, FlipInstruction):  # a card's coin flip (CR 705)
        if request.roller is not None and request.roller != request.controller:
            raise InputError(
                "roller", f"{name} has its controller flip; give roller only for a text that names another player"
            )
        return Prepared(name, compiled, None, instruction, board, amounts)
    if request.roller is not None and not instruction.roller.names_a_player and request.roller != request.controller:
        raise InputError(
            "roller",
            f"{name} has its controller roll ({instruction.roller.value}); "
            "give roller only for a text that names another player",
        )
    if request.seated and request.roller is None and instruction.roller.names_a_player:
        raise InputError("roller", f"{name} has {instruction.roller.value} roll; give that player's seat as roller")
    return Prepared(name, compiled, instruction, None, board, amounts)


_SOURCED: dict[tuple[int, Seat, str, int], tuple[Board, Board]] = {}


def _with_source(board: Board, controller: Seat, source: Permanent) -> Board:
    """:meth:`Board.with_source`, the same object for the same table and source (kept like the table)."""
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
    prepared: Prepared, request: RollRequest, source: DiceSource, chooser: Chooser, meter: Meter | None = None
) -> Outcome:
    """Resolve a prepared request with ``source`` and ``chooser``, within ``meter``'s budget (else
    the one :func:`metered` set, else the command line's)."""
    meter = meter if meter is not None else _METER.get()
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
    """Resolve ``request`` with faces from ``source`` and decisions from ``chooser`` (within ``meter``)."""
    return resolve_prepared(prepare(request, cards), request, source, chooser, meter)
