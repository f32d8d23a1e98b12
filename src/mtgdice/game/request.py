"""A roll request as values: what to roll, on which board, with which amounts and answers.

A :class:`RollRequest` is what the JSON ``resolve`` request says (spec/json-interface.md), typed:
the game builds one from its tables, the JSON reader (:mod:`mtgdice.io.jsonio`) from a request object,
the log stores one and replays it. :func:`prepare` turns it into rule objects — the source card
compiled, the roll instruction (or coin flip) it picks, the board — and :func:`resolve_request`
resolves it with a dice source and a chooser. Kinds of roll: a card's instruction, plain dice
(notation such as ``2d10``), the planar die (as a special action or not), a coin flip (CR 705).

Errors name the request's fields (``battlefield[0]``, ``amounts.X``); shells say them in their own
terms. This module leaves out JSON (``jsonio``) and where card data comes from (``cards``).
"""

from __future__ import annotations

import contextvars
import enum
import functools
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from mtgdice.errors import InputError
from mtgdice.rules import (
    PLANAR_DIE,
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
    Zone,
    flip,
    resolve,
)
from mtgdice.rules.budget import Meter
from mtgdice.rules.plain import PlainResult, PlainRoll, roll_plain
from mtgdice.rules.zones import in_zone
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
    and for the opponents' zone which opponent controls it (``seat``, 1 = the first)."""

    card: CardRef
    level: int = 1
    counters: tuple[tuple[str, int], ...] | None = None
    tapped: bool = False
    stored: tuple[int, ...] | None = None
    seat: Seat | None = None


@dataclass(frozen=True, slots=True)
class RollRequest:
    """One request to roll.

    ``card`` and ``roll`` pick a card's roll instruction; ``notation`` is plain dice; ``action``
    marks the planar die rolled as the special action (CR 901.9); ``call`` is the side called for
    a coin flip that is won or lost (CR 705.1). ``used``, ``dice_rolled`` and ``planar_actions``
    are what the turn has done so far.

    >>> RollRequest(RollKind.DICE, notation="2d10").label
    '2d10'
    """

    kind: RollKind = RollKind.CARD
    card: CardRef | None = None
    roll: int = 0
    notation: str = ""
    battlefield: tuple[ZoneItem, ...] = ()
    opponents: tuple[ZoneItem, ...] = ()
    graveyard: tuple[ZoneItem, ...] = ()
    command: tuple[ZoneItem, ...] = ()
    amounts: tuple[tuple[str, int], ...] = ()
    choices: tuple[object, ...] = ()
    used: frozenset[str] = frozenset()
    dice_rolled: int = 0
    planar_actions: int = 0
    players: int = 2
    action: bool = False
    call: CoinFace | None = None
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    """Fields a shell adds for itself (``policy`` for odds); never read by the rules."""

    def zone(self, zone: Zone) -> tuple[ZoneItem, ...]:
        return in_zone(self, zone)

    @property
    def turn(self) -> TurnState:
        return TurnState(self.used, self.dice_rolled, self.planar_actions)

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
        refs = [item.card for zone in (self.battlefield, self.opponents, self.graveyard, self.command) for item in zone]
        if self.kind is RollKind.CARD and self.card is not None:
            refs.append(self.card)
        return any(ref.text is None for ref in refs)


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
    if ref.text is not None:
        return _compiled(ref.text, ref.name, ref.layout, "")
    if not ref.name.strip():
        raise InputError(field, "give the card's name as 'card', or its text as 'text'")
    if cards is None:
        raise InputError("cards", "no card data: pass --cards PATH or set MTGDICE_CARDS")
    try:
        record = cards.lookup(ref.name)
    except LookupError as error:
        raise InputError(field, str(error).removeprefix("card: ")) from None
    return compile_record(record)


def permanent_of(item: ZoneItem, field: str, cards: CardSource | None) -> Permanent:
    compiled = compile_ref(item.card, field, cards)
    store_rolls = [roll for roll in compiled.rolls if roll.store]
    return Permanent(
        compiled.name or item.card.name,
        compiled.effects,
        item.level,
        item.counters,
        item.tapped,
        item.stored,
        store_rolls[0].die if store_rolls else None,
        item.seat,
    )


def board_of(request: RollRequest, cards: CardSource | None) -> Board:
    """The four zones of a request as a :class:`Board`."""

    def zone(name: str, items: tuple[ZoneItem, ...]) -> tuple[Permanent, ...]:
        return tuple(permanent_of(item, f"{name}[{i}]", cards) for i, item in enumerate(items))

    return Board(
        zone("battlefield", request.battlefield),
        zone("opponents", request.opponents),
        zone("graveyard", request.graveyard),
        zone("command", request.command),
    )


PLANAR_ROLL = RollInstruction(Amount(1), PLANAR_DIE, text="Roll the planar die.")


def instruction_of(
    request: RollRequest, cards: CardSource | None
) -> tuple[CompiledCard | None, RollInstruction | FlipInstruction]:
    """The instruction a request picks: its card's (``roll``: a roll or a flip, in text order),
    plain dice, or the planar die."""
    if request.kind is RollKind.PLANAR:
        return None, PLANAR_ROLL
    if request.kind is RollKind.DICE:
        compiled = _compiled(dice_text(request.notation), "", "normal", "")
        return compiled, compiled.rolls[0]
    if request.card is None:
        raise InputError("card", "give the card's name as 'card', or its text as 'text'")
    compiled = compile_ref(request.card, "card", cards)
    instructions = compiled.instructions
    if not instructions:
        reason = f"; {compiled.notes[0]}" if compiled.notes else ""
        unsupported = f"; not understood: {compiled.unsupported[0]!r}" if compiled.unsupported else ""
        raise InputError("card", f"{compiled.name or 'this text'} has no roll instruction{reason}{unsupported}")
    if request.roll >= len(instructions):
        raise InputError(
            "roll",
            f"{compiled.name} has {len(instructions)} roll instruction(s), "
            f"numbered 0 to {len(instructions) - 1}; got {request.roll}",
        )
    return compiled, instructions[request.roll]


def prepare(request: RollRequest, cards: CardSource | None) -> Prepared:
    """The rule objects a request stands for."""
    amounts = dict(request.amounts)
    if request.kind is RollKind.PLAIN:
        from mtgdice.text.notation import parse_plain

        return Prepared(request.label, None, None, None, Board(), amounts, parse_plain(request.notation))
    board = board_of(request, cards)
    if request.kind is RollKind.COIN:
        return Prepared("coin", None, None, FlipInstruction(call=request.call is not None), board, amounts)
    compiled, instruction = instruction_of(request, cards)
    name = compiled.name if compiled is not None and compiled.name else request.label
    if isinstance(instruction, FlipInstruction):  # a card's coin flip (CR 705)
        return Prepared(name, compiled, None, instruction, board, amounts)
    return Prepared(name, compiled, instruction, None, board, amounts)


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
    )


def resolve_request(
    request: RollRequest, cards: CardSource | None, source: DiceSource, chooser: Chooser, meter: Meter | None = None
) -> Outcome:
    """Resolve ``request`` with faces from ``source`` and decisions from ``chooser`` (within ``meter``)."""
    return resolve_prepared(prepare(request, cards), request, source, chooser, meter)
