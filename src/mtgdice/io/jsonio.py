"""The JSON interface (spec/json-interface.md): request objects in, outcome objects out, checked at the edge.

:func:`request_from_json` reads a ``resolve`` request object into a typed
:class:`~mtgdice.game.request.RollRequest` — every field checked, an unknown one refused with the
nearest known name (``"batlefield"``: did you mean ``"battlefield"``?) — and :func:`request_json`
writes one back (the roll log stores it so). :func:`outcome_json` (from :mod:`mtgdice.io.outcome`,
where every outcome writer lives) writes a resolution or a coin flip as the outcome object;
:func:`resolve_json` does the three in a row. Every problem with the
input is an :class:`~mtgdice.errors.InputError` naming the field. Renderers for people live in
:mod:`mtgdice.io.render`; the rules live in ``rules``.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from mtgdice.errors import InputError
from mtgdice.game.request import (
    CardRef,
    CardSource,
    Outcome,
    PendingItem,
    RollKind,
    RollRequest,
    SeatItems,
    ZoneItem,
    compile_ref,
    empty_seats,
    resolve_request,
)
from mtgdice.io.outcome import (
    die_json,
    dumps,
    execution_json,
    flip_json,
    outcome_json,
    resolution_json,
)
from mtgdice.rules import (
    Chooser,
    CoinFace,
    DiceSource,
    FlipResolution,
    PlanarFace,
    Resolution,
    ScriptedChooser,
    ScriptedSource,
    Seat,
    SecureSource,
    TurnState,
)
from mtgdice.rules.board import MAX_SEATS
from mtgdice.rules.errors import DieSizeError, MissingAmountError
from mtgdice.text import CompiledCard

__all__ = [
    "MAX_REQUEST_BYTES",
    "CardSource",
    "amounts_from",
    "card_from",
    "compile_json",
    "die_json",
    "dumps",
    "execution_json",
    "flip_json",
    "outcome_json",
    "parse_request",
    "request_from_json",
    "request_json",
    "resolution_json",
    "resolve_json",
    "resolve_table_json",
    "source_from",
]

MAX_REQUEST_BYTES = 1_000_000
"""Largest JSON request read (bounded memory); larger input is refused with an error."""

ZONES = ("battlefield", "opponents", "graveyard", "command")
SEAT_ZONES = ("battlefield", "graveyard", "command")
REQUEST_FIELDS = frozenset(
    {
        "card",
        "seats",
        "controller",
        "roller",
        "turn",
        "pending",
        "text",
        "name",
        "layout",
        "roll",
        *ZONES,
        "amounts",
        "dice",
        "planar",
        "coins",
        "random",
        "choices",
        "used",
        "dice_rolled",
        "planar_actions",
        "players",
        "kind",
        "notation",
        "action",
        "call",
    }
)
"""Every field a ``resolve`` request may have (odds adds ``policy`` and ``method``)."""
ITEM_FIELDS = frozenset({"card", "text", "name", "layout", "level", "counters", "tapped", "stored", "noted", "seat"})
SEAT_ITEM_FIELDS = ITEM_FIELDS - {"seat"}
"""A zone item of ``seats``: its seat is where it is listed."""
TURN_FIELDS = frozenset({"used", "dice_rolled", "planar_actions", "totals", "flips"})
PENDING_FIELDS = frozenset({"card", "text", "name", "layout", "controller", "target"})
FLIP_FIELDS = frozenset({"won", "lost"})


def parse_request(raw: str | bytes, field: str = "input") -> dict[str, Any]:
    """Parse a JSON request object, with a one-line error for anything else.

    >>> parse_request('{"card": "Example"}')
    {'card': 'Example'}
    >>> parse_request("[1]")
    Traceback (most recent call last):
      ...
    mtgdice.rules.errors.InputError: input: expected a JSON object, got a list
    """
    if len(raw) > MAX_REQUEST_BYTES:
        raise InputError(field, f"{len(raw)} bytes is more than the {MAX_REQUEST_BYTES} a request may have")
    try:
        text = raw.decode("utf-8", "strict") if isinstance(raw, bytes | bytearray) else raw
    except UnicodeDecodeError as error:
        raise InputError(field, f"not UTF-8 text: {error.reason} at byte {error.start}") from None
    depth = _nesting(text)
    if depth > MAX_NESTING:
        raise InputError(field, f"nested {depth} deep, more than the {MAX_NESTING} a request may be")
    try:
        data = json.loads(text, parse_int=_whole, parse_float=_real, parse_constant=_constant)
    except json.JSONDecodeError as error:
        raise InputError(field, f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    if not isinstance(data, dict):
        raise InputError(field, f"expected a JSON object, got {_kind(data)}")
    _check_text(data, field)
    return data


MAX_NESTING = 32
"""Deepest nesting of lists and objects a request may have (a real one needs four)."""

MAX_DIGITS = 18
"""Most digits of a whole number in a request (a count, an amount, a face: far below 10^18)."""


def _nesting(text: str) -> int:
    """How deep lists and objects nest, outside strings (read before parsing: no recursion), when
    that matters: a text that opens at most :data:`MAX_NESTING` brackets in all (strings counted
    too) cannot nest deeper, and that count is returned without reading it character by character.

    >>> _nesting('{"a": [[1], "[[["]}'), _nesting("[" * 40 + '"[' + "]" * 40), _nesting('"' + "[" * 40 + '"')
    (6, 40, 0)
    """
    opened = text.count("[") + text.count("{")
    if opened <= MAX_NESTING:
        return opened
    depth = deepest = 0
    inside = escaped = False
    for char in text:
        if inside:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                inside = False
        elif char == '"':
            inside = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _whole(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise InputError("input", f"a number of {len(digits)} digits is larger than any this request needs")
    return int(digits)


def _real(digits: str) -> float:
    if len(digits) > 64:
        raise InputError(
            "input", f"a number written with {len(digits)} characters is longer than any this request needs"
        )
    return float(digits)


def _constant(name: str) -> object:
    raise InputError("input", f"{name} is not a JSON number")


def _check_text(value: object, field: str) -> None:
    """Every string of a request must be text that can be written back (no lone surrogates)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise InputError(field, f"a string holds a lone surrogate ({item[:20]!r}); send UTF-8 text") from None
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    return "a number"


def check_fields(data: Mapping[str, Any], allowed: Iterable[str], where: str = "") -> None:
    """Refuse a field that is not one of ``allowed``, suggesting the nearest known one.

    >>> check_fields({"batlefield": []}, REQUEST_FIELDS)
    Traceback (most recent call last):
      ...
    mtgdice.rules.errors.InputError: batlefield: not a field of this request; did you mean "battlefield"?
    """
    known = sorted(allowed)
    for key in data:
        if key in allowed:
            continue
        near = difflib.get_close_matches(str(key), known, n=1)
        hint = f'; did you mean "{near[0]}"?' if near else f"; the fields are {', '.join(known)}"
        shown = str(key) if str(key).isprintable() and str(key).strip() else json.dumps(str(key))  # "" named too
        name = f"{where}.{shown}" if where else shown
        raise InputError(name[:80], f"not a field of this {'item' if where else 'request'}{hint}")


# -- reading a request ------------------------------------------------------------------------------


def _int(value: object, field: str, low: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(field, f"expected a whole number, got {_kind(value)} {json.dumps(value)[:40]}")
    if low is not None and value < low:
        raise InputError(field, f"expected {low} or more, got {value}")
    return value


def _list(value: object, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise InputError(field, f"expected a list, got {_kind(value)}")
    return value


def _str(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise InputError(field, f"expected a string, got {_kind(value)}")
    return value


def _ref(item: Mapping[str, Any], field: str) -> CardRef:
    text = item.get("text")
    layout = item.get("layout", "normal")
    layout = layout if isinstance(layout, str) else "normal"
    if text is not None:
        name = item.get("name", item.get("card", "")) or ""
        return CardRef(_str(name, f"{field}.name"), _str(text, f"{field}.text"), layout)
    name = item.get("card")
    if not isinstance(name, str) or not name.strip():
        raise InputError(field, "give the card's name as 'card', or its text as 'text'")
    return CardRef(name)


def _item(value: object, field: str, allowed: frozenset[str] = SEAT_ITEM_FIELDS) -> ZoneItem:
    if isinstance(value, str):
        return ZoneItem(_ref({"card": value}, field))
    if not isinstance(value, dict):
        raise InputError(field, f"expected a card name or an object, got {_kind(value)}")
    check_fields(value, allowed, field)
    counters: tuple[tuple[str, int], ...] | None = None
    raw_counters = value.get("counters")
    if raw_counters is not None:
        if not isinstance(raw_counters, dict):
            raise InputError(
                f"{field}.counters", f'expected an object such as {{"+1/+1": 2}}, got {_kind(raw_counters)}'
            )
        counters = tuple(
            (str(kind), _int(number, f"{field}.counters.{kind}", 0)) for kind, number in raw_counters.items()
        )
    tapped = value.get("tapped", False)
    if not isinstance(tapped, bool):
        raise InputError(f"{field}.tapped", f"expected true or false, got {_kind(tapped)}")
    stored: tuple[int, ...] | None = None
    if value.get("stored") is not None:
        stored = tuple(_int(v, f"{field}.stored[{i}]") for i, v in enumerate(_list(value["stored"], f"{field}.stored")))
    noted = _int(value["noted"], f"{field}.noted") if value.get("noted") is not None else None
    return ZoneItem(
        _ref(value, field), _int(value.get("level", 1), f"{field}.level", 1), counters, tapped, stored, noted
    )


def _zone(data: Mapping[str, Any], zone: str, where: str = "") -> tuple[ZoneItem, ...]:
    field = f"{where}.{zone}" if where else zone
    items = _list(data.get(zone, []) or [], field)
    return tuple(_item(item, f"{field}[{i}]") for i, item in enumerate(items))


def _seat(value: object, field: str, players: int | None = None) -> Seat:
    """A seat number: a whole number from 0, below ``players`` when the table is known."""
    seat = _int(value, field, 0)
    if players is not None and seat >= players:
        raise InputError(
            field, f"seat {seat} does not exist; this table has {players} player(s), seats 0 to {players - 1}"
        )
    return Seat(seat)


def _seats(data: Mapping[str, Any]) -> tuple[SeatItems, ...]:
    """Version 3 ``seats``: every player's zones in turn order."""
    earlier = [key for key in (*ZONES, "players") if key in data]
    if earlier:
        raise InputError(
            "seats", f'give the zones either as "seats" or as "{earlier[0]}" and the other earlier fields, not both'
        )
    raw = _list(data["seats"], "seats")
    if not 1 <= len(raw) <= MAX_SEATS:
        raise InputError("seats", f"{len(raw)} seats; a table has 1 to {MAX_SEATS} players")
    seats: list[SeatItems] = []
    for i, value in enumerate(raw):
        where = f"seats[{i}]"
        if not isinstance(value, dict):
            raise InputError(where, f"expected an object with battlefield, graveyard, command, got {_kind(value)}")
        check_fields(value, SEAT_ZONES, where)
        seats.append(SeatItems(*(_zone(value, zone, where) for zone in SEAT_ZONES)))
    return tuple(seats)


def _earlier_seats(data: Mapping[str, Any]) -> tuple[SeatItems, ...]:
    """The earlier zones as seats: seat 0 has battlefield, graveyard, command; each opponents item
    is on the battlefield of its ``seat`` (default 1). ``players`` is the seat count."""
    players = _int(data.get("players", 2), "players", 1)
    if players > MAX_SEATS:
        raise InputError("players", f"{players} players is more than the {MAX_SEATS} a table may have")
    raw = _list(data.get("opponents", []) or [], "opponents")
    opponents: list[tuple[int, ZoneItem]] = []
    for i, value in enumerate(raw):
        field = f"opponents[{i}]"
        item = _item(value, field, ITEM_FIELDS)
        seat = _int(value.get("seat", 1), f"{field}.seat", 1) if isinstance(value, dict) else 1
        if seat >= MAX_SEATS:
            raise InputError(f"{field}.seat", f"seat {seat} does not exist; a table has at most {MAX_SEATS} players")
        opponents.append((seat, item))
    count = max([players, 2 if opponents else 1, *(seat + 1 for seat, _ in opponents)])
    seats = list(empty_seats(count))
    seats[0] = SeatItems(*(_zone(data, zone) for zone in SEAT_ZONES))
    for seat in range(1, count):
        seats[seat] = SeatItems(tuple(item for where, item in opponents if where == seat))
    return tuple(seats)


def _pending(data: Mapping[str, Any], players: int) -> tuple[PendingItem, ...]:
    items: list[PendingItem] = []
    for i, value in enumerate(_list(data.get("pending", []) or [], "pending")):
        field = f"pending[{i}]"
        if not isinstance(value, dict):
            raise InputError(
                field, f"expected an object with card (or text and name), controller, target, got {_kind(value)}"
            )
        check_fields(value, PENDING_FIELDS, field)
        target = value.get("target")
        items.append(
            PendingItem(
                _ref(value, field),
                _seat(value.get("controller", 0), f"{field}.controller", players),
                _seat(target, f"{field}.target", players) if target is not None else None,
            )
        )
    return tuple(items)


def turn_from_json(turn: Mapping[str, Any], players: int) -> TurnState:
    """A ``turn`` object (as the output gives it, to pass to the next request of the turn)."""
    return _turn({"turn": turn}, players)


def _turn(data: Mapping[str, Any], players: int) -> TurnState:
    """What the turn remembers: ``turn`` (version 3) and the earlier top-level fields."""
    turn = data.get("turn", {})
    if turn is None:
        turn = {}
    if not isinstance(turn, dict):
        raise InputError("turn", f"expected an object with {', '.join(sorted(TURN_FIELDS))}, got {_kind(turn)}")
    check_fields(turn, TURN_FIELDS, "turn")
    for key in ("dice_rolled", "planar_actions"):
        if key in turn and key in data:
            raise InputError(f"turn.{key}", f'give it in "turn" or as the earlier top-level "{key}", not both')
    used = frozenset(str(key) for key in _list(data.get("used", []) or [], "used"))
    permanents: set[str] = set()
    for i, name in enumerate(_list(turn.get("used", []) or [], "turn.used")):
        name = _str(name, f"turn.used[{i}]")
        base, mark, k = name.rpartition("#")
        permanents.add(name if mark and k.isdigit() and base else f"{name}#0")
    rolled: list[int] = [_int(data.get("dice_rolled", 0), "dice_rolled", 0)]
    if "dice_rolled" in turn:
        counts = _list(turn["dice_rolled"], "turn.dice_rolled")
        if len(counts) > players:
            raise InputError(
                "turn.dice_rolled", f"{len(counts)} counts for a table of {players} player(s); one per seat"
            )
        rolled = [_int(count, f"turn.dice_rolled[{i}]", 0) for i, count in enumerate(counts)] or [0]
    planar = _int(turn.get("planar_actions", data.get("planar_actions", 0)), "planar_actions", 0)
    totals_raw = turn.get("totals", {}) or {}
    if not isinstance(totals_raw, dict):
        raise InputError(
            "turn.totals", f"expected an object of permanents and lists of totals, got {_kind(totals_raw)}"
        )
    totals = tuple(
        (
            str(name),
            tuple(_int(v, f"turn.totals.{name}[{i}]") for i, v in enumerate(_list(values, f"turn.totals.{name}"))),
        )
        for name, values in totals_raw.items()
    )
    flips: list[tuple[int, int]] = []
    raw_flips = _list(turn.get("flips", []) or [], "turn.flips")
    if len(raw_flips) > players:
        raise InputError("turn.flips", f"{len(raw_flips)} entries for a table of {players} player(s); one per seat")
    for i, entry in enumerate(raw_flips):
        if not isinstance(entry, dict):
            raise InputError(f"turn.flips[{i}]", f'expected {{"won": N, "lost": N}}, got {_kind(entry)}')
        check_fields(entry, FLIP_FIELDS, f"turn.flips[{i}]")
        flips.append(
            (
                _int(entry.get("won", 0), f"turn.flips[{i}].won", 0),
                _int(entry.get("lost", 0), f"turn.flips[{i}].lost", 0),
            )
        )
    return TurnState(used, rolled[0], planar, tuple(rolled[1:]), frozenset(permanents), totals, tuple(flips))


def amounts_from(data: Mapping[str, Any]) -> dict[str, int]:
    value = data.get("amounts", {}) or {}
    if not isinstance(value, dict):
        raise InputError("amounts", f"expected an object of names and numbers, got {_kind(value)}")
    return {str(name): _int(number, f"amounts.{name}") for name, number in value.items()}


def request_from_json(data: Mapping[str, Any], *, allow: Iterable[str] = ()) -> RollRequest:
    """A typed request from a ``resolve`` request object (``allow``: more fields a shell reads).

    >>> request_from_json({"card": "Lucky Sprite", "battlefield": ["Dice Goblin"]}).seats[0].battlefield[0].card.name
    'Dice Goblin'
    """
    extra = frozenset(allow)
    check_fields(data, REQUEST_FIELDS | extra)
    kind_value = data.get("kind", "card")
    try:
        kind = RollKind(kind_value)
    except ValueError:
        raise InputError(
            "kind", f"{json.dumps(kind_value)[:40]} is not a kind; use card, dice, planar, coin or plain"
        ) from None
    card: CardRef | None = None
    if kind is RollKind.CARD:
        card = _ref(data, "card")
    call = data.get("call")
    if call is not None:
        try:
            call = CoinFace(call)
        except ValueError:
            raise InputError("call", f'expected "heads" or "tails", got {json.dumps(call)[:40]}') from None
    action = data.get("action", False)
    if not isinstance(action, bool):
        raise InputError("action", f"expected true or false, got {_kind(action)}")
    seated = "seats" in data
    seats = _seats(data) if seated else _earlier_seats(data)
    players = len(seats)
    roller = data.get("roller")
    return RollRequest(
        kind=kind,
        card=card,
        roll=_int(data.get("roll", 0), "roll", 0),
        notation=_str(data.get("notation", ""), "notation"),
        seats=seats,
        seated=seated,
        controller=_seat(data.get("controller", 0), "controller", players),
        roller=_seat(roller, "roller", players) if roller is not None else None,
        pending=_pending(data, players),
        amounts=tuple(amounts_from(data).items()),
        choices=tuple(_list(data.get("choices", []) or [], "choices")),
        turn=_turn(data, players),
        action=action,
        call=call,
        extra={key: data[key] for key in extra if key in data},
    )


def source_from(data: Mapping[str, Any]) -> DiceSource:
    """``dice``, ``planar`` and ``coins`` as a scripted source, or a secure one with ``random``."""
    if data.get("random") is True:
        return SecureSource()
    numbers = [_int(v, f"dice[{i}]", 1) for i, v in enumerate(_list(data.get("dice", []) or [], "dice"))]
    for i, value in enumerate(_list(data.get("coins", []) or [], "coins")):
        try:
            numbers.append(CoinFace(value).face)
        except ValueError:
            raise InputError(f"coins[{i}]", f'expected "heads" or "tails", got {json.dumps(value)[:40]}') from None
    faces: list[PlanarFace] = []
    for i, value in enumerate(_list(data.get("planar", []) or [], "planar")):
        try:
            faces.append(PlanarFace(value))
        except ValueError:
            raise InputError(
                f"planar[{i}]", f'expected "blank", "chaos" or "planeswalk", got {json.dumps(value)[:40]}'
            ) from None
    return ScriptedSource(numbers, faces)


# -- the request's parts, for shells that read a request object -----------------------------------


def card_from(data: Mapping[str, Any], field: str, cards: CardSource | None) -> CompiledCard:
    """A compiled card from ``{"card": name}`` or ``{"text": ..., "name": ...}``."""
    return compile_ref(_ref(data, field), field, cards)


def compile_json(data: Mapping[str, Any], cards: CardSource | None) -> dict[str, Any]:
    """The ``compile`` output for ``{"card": name}`` or ``{"text": ..., "name": ...}``."""
    from mtgdice.io.compiled import card_json

    return card_json(card_from(data, "card", cards))


def resolve_json(
    data: Mapping[str, Any],
    cards: CardSource | None,
    source: DiceSource | None = None,
    chooser: Chooser | None = None,
) -> dict[str, Any]:
    """Resolve a ``resolve`` request object and return the outcome object of json-interface.md (the
    record of the roll, as the log keeps it; :func:`resolve_table_json` adds what the table keeps)."""
    return outcome_json(_resolved(data, cards, source, chooser)[1])


def resolve_table_json(
    data: Mapping[str, Any],
    cards: CardSource | None,
    source: DiceSource | None = None,
    chooser: Chooser | None = None,
) -> dict[str, Any]:
    """What ``mtgdice resolve`` answers: the outcome object and the table after it (json-interface.md
    v3: ``turn``, ``pending``, ``noted``)."""
    request, outcome = _resolved(data, cards, source, chooser)
    return outcome_json(outcome) | table_json(request, outcome)


def _resolved(
    data: Mapping[str, Any], cards: CardSource | None, source: DiceSource | None, chooser: Chooser | None
) -> tuple[RollRequest, Outcome]:
    request = request_from_json(data)
    try:
        outcome = resolve_request(
            request,
            cards,
            source or source_from(data),
            chooser or ScriptedChooser(request.choices),
        )
    except MissingAmountError as error:  # the rules name the amount; the request names its field
        raise InputError(f"amounts.{error.amount}", f"{error.problem}; add it to amounts") from None
    except DieSizeError as error:
        raise InputError("sides", error.problem) from None
    return request, outcome


def table_json(request: RollRequest, outcome: Outcome) -> dict[str, Any]:
    """What the table keeps after a resolution (json-interface.md v3): ``turn`` as it stands, the
    ``pending`` replacements still waiting, and the ``noted`` values that changed."""
    used_up: frozenset[int] = frozenset()
    turn = request.turn
    noted: dict[str, int] = {}
    if isinstance(outcome, Resolution):
        turn, used_up = outcome.turn, outcome.pending_used
        noted = dict(outcome.noted)
    elif isinstance(outcome, FlipResolution):
        turn = outcome.turn  # the request's turn with the flip's uses and flips won and lost
    return {
        "turn": turn_json(turn, request.players),
        "pending": [pending_json(item) for i, item in enumerate(request.pending) if i not in used_up],
        "noted": noted,
    }


# -- writing ---------------------------------------------------------------------------------------


def _ref_json(ref: CardRef) -> dict[str, Any]:
    if ref.text is None:
        return {"card": ref.name}
    data: dict[str, Any] = {"text": ref.text}
    if ref.name:
        data["name"] = ref.name
    if ref.layout != "normal":
        data["layout"] = ref.layout
    return data


def _item_json(item: ZoneItem) -> dict[str, Any] | str:
    data = _ref_json(item.card)
    if item.level != 1:
        data["level"] = item.level
    if item.counters is not None:
        data["counters"] = dict(item.counters)
    if item.tapped:
        data["tapped"] = True
    if item.stored is not None:
        data["stored"] = list(item.stored)
    if item.noted is not None:
        data["noted"] = item.noted
    return data["card"] if list(data) == ["card"] else data


def turn_json(turn: TurnState, players: int) -> dict[str, Any]:
    """The ``turn`` object of json-interface.md v3: what the turn remembers, for the next request."""
    rolled = [turn.rolled(Seat(seat)) for seat in range(max(players, len(turn.others_rolled) + 1))]
    return {
        "used": sorted(turn.used_permanents),
        "dice_rolled": rolled,
        "planar_actions": turn.planar_actions,
        "totals": {name: list(values) for name, values in turn.totals},
        "flips": [{"won": won, "lost": lost} for won, lost in turn.flips],
    }


def pending_json(item: PendingItem) -> dict[str, Any]:
    """A waiting replacement: ``card`` names it (beside its ``text`` when given so), its seats."""
    data: dict[str, Any] = {"card": item.card.name}
    if item.card.text is not None:
        data["text"] = item.card.text
    if item.card.layout != "normal":
        data["layout"] = item.card.layout
    data["controller"] = item.controller
    if item.target is not None:
        data["target"] = item.target
    return data


def request_json(request: RollRequest) -> dict[str, Any]:
    """The request object of a typed request (what :func:`request_from_json` reads back).

    >>> request_json(RollRequest(RollKind.DICE, notation="2d10"))
    {'kind': 'dice', 'notation': '2d10'}
    """
    data: dict[str, Any] = {}
    if request.kind is not RollKind.CARD:
        data["kind"] = request.kind.value
    if request.card is not None:
        data.update(_ref_json(request.card))
    if request.roll:
        data["roll"] = request.roll
    if request.notation:
        data["notation"] = request.notation
    if request.kind is RollKind.PLAIN:  # plain dice: no board, no turn applies to them
        return data
    turn = request.turn
    if request.seated:
        data["seats"] = [
            {zone: [_item_json(item) for item in getattr(seat, zone)] for zone in SEAT_ZONES if getattr(seat, zone)}
            for seat in request.seats
        ]
    else:
        for zone in SEAT_ZONES:
            items = getattr(request.seats[0], zone)
            if items:
                data[zone] = [_item_json(item) for item in items]
        opponents: list[dict[str, Any] | str] = []
        for seat, items in enumerate(request.seats[1:], start=1):
            for item in items.battlefield:
                written = _item_json(item)
                if seat != 1:
                    written = {"card": written} if isinstance(written, str) else written
                    written["seat"] = seat
                opponents.append(written)
        if opponents:
            data["opponents"] = opponents
        if request.players != 2:
            data["players"] = request.players
    if request.controller:
        data["controller"] = request.controller
    if request.roller is not None:
        data["roller"] = request.roller
    if request.pending:
        data["pending"] = [pending_json(item) for item in request.pending]
    if request.amounts:
        data["amounts"] = dict(request.amounts)
    if request.choices:
        data["choices"] = list(request.choices)
    if turn.used:
        data["used"] = sorted(turn.used)
    if turn.others_rolled or turn.used_permanents or turn.totals or turn.flips:
        data["turn"] = turn_json(turn, request.players)
    else:
        for name in ("dice_rolled", "planar_actions"):
            if getattr(turn, name):
                data[name] = getattr(turn, name)
    if request.action:
        data["action"] = True
    if request.call is not None:
        data["call"] = request.call.value
    return data
