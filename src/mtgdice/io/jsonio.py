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
import re
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Literal, Union

from mtgdice.errors import InputError
from mtgdice.game.request import (
    CardSource,
    Outcome,
    RollKind,
    RollRequest,
    compile_card,
    empty_board,
    enter_card,
    enter_source,
    enter_waiting,
    no_seat,
    resolve_request,
)
from mtgdice.io.outcome import (
    JSON,
    JSONObject,
    die_json,
    dumps,
    execution_json,
    flip_json,
    outcome_json,
    resolution_json,
)
from mtgdice.io.request_model import Card as WireCard
from mtgdice.io.request_model import PendingCard, Request
from mtgdice.io.request_model import Turn as WireTurn
from mtgdice.rules import (
    Board,
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
from mtgdice.rules.board import Permanent, PlayerZones, Waiting
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
    "wire_request",
    "zone_item_json",
]

MAX_REQUEST_BYTES = 1_000_000
"""Largest JSON request read (bounded memory); larger input is refused with an error."""

ZONES = ("battlefield", "opponents", "graveyard", "command")
SEAT_ZONES = ("battlefield", "graveyard", "command")


def parse_request(raw: str | bytes, field: str = "input") -> JSONObject:
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


# -- reading a request: msgspec checks the shapes, then the table is built ---------------------------


def check_fields(data: Mapping[str, object], allowed: Iterable[str], where: str = "") -> None:
    """Refuse a field that is not one of ``allowed``, suggesting the nearest known one.

    >>> check_fields({"batlefield": []}, ("battlefield", "graveyard"))
    Traceback (most recent call last):
      ...
    mtgdice.rules.errors.InputError: batlefield: not a field of this request; did you mean "battlefield"?
    """
    for key in data:
        if key not in allowed:
            raise _unknown_field(str(key), sorted(allowed), where)


def _unknown_field(key: str, known: Sequence[str], where: str) -> InputError:
    near = difflib.get_close_matches(key, known, n=1)
    hint = f'; did you mean "{near[0]}"?' if near else f"; the fields are {', '.join(known)}"
    shown = key if key.isprintable() and key.strip() else json.dumps(key)  # "" and control characters named too
    name = f"{where}.{shown}" if where else shown
    return InputError(name[:80], f"not a field of this {'item' if where else 'request'}{hint}")


def wire_request(data: Mapping[str, object] | Request, *, allow: Iterable[str] = ()) -> Request:
    """The request object as the typed wire model (:class:`~mtgdice.io.request_model.Request`),
    every field's shape checked; fields named in ``allow`` (a shell's own) are left out of it.

    >>> wire_request({"card": "Lucky Sprite", "roll": 1}).roll
    1
    >>> wire_request({"card": "Lucky Sprite", "roll": "one"})
    Traceback (most recent call last):
      ...
    mtgdice.rules.errors.InputError: roll: expected a whole number, got a string "one"
    """
    import msgspec

    if isinstance(data, Request):
        return data
    extra = frozenset(allow)
    fields = {key: value for key, value in data.items() if key not in extra}
    try:
        return msgspec.convert(fields, Request)
    except msgspec.ValidationError as error:
        raise _wire_error(str(error), fields) from None


_AT = re.compile(r"^(?P<problem>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.DOTALL)
_STEP = re.compile(r"\.(?P<name>\w+)|\[(?P<index>\d+)\]|\[(?P<key>\.\.\.)\]")
_WORDS = {
    "int": "a whole number",
    "str": "a string",
    "bool": "true or false",
    "array": "a list",
    "object": "an object",
    "null": "null",
    "float": "a number with a fraction",
}


def _wire_error(message: str, data: Mapping[str, object]) -> InputError:
    """msgspec's complaint as our one-line error: the JSON path as the field, the problem in words."""
    import msgspec

    matched = _AT.match(message)
    problem, path = (matched.group("problem"), matched.group("path") or "") if matched else (message, "")
    annotation: object = Request
    value: object = data
    where = ""
    for step in _STEP.finditer(path):
        annotation = _unwrap(annotation, value)
        if step.group("name") is not None:
            name = step.group("name")
            hints = typing.get_type_hints(annotation, include_extras=True) if isinstance(annotation, type) else {}
            annotation = hints.get(name, object)
            value = value.get(name) if isinstance(value, Mapping) else None
            where = f"{where}.{name}" if where else name
        elif step.group("index") is not None:
            index = int(step.group("index"))
            annotation = (typing.get_args(annotation) or (object,))[0]
            value = value[index] if isinstance(value, list) and index < len(value) else None
            where = f"{where}[{index}]"
        else:  # a key of an object: the first whose value does not fit
            item_type = (typing.get_args(annotation) or (object, object))[-1]
            items = value.items() if isinstance(value, Mapping) else ()
            for key, item in items:
                try:
                    msgspec.convert(item, item_type)
                except msgspec.ValidationError:
                    where, annotation, value = f"{where}.{key}", item_type, item
                    break
    unknown = re.fullmatch(r"Object contains unknown field `(?P<key>[^`]*)`", problem)
    if unknown is not None:
        struct = _unwrap(annotation, value)
        known = sorted(getattr(struct, "__struct_fields__", ()))
        return _unknown_field(unknown.group("key"), known, where)
    return InputError(where or "input", _in_words(problem, value, _choices(annotation)))


def _unwrap(annotation: object, value: object) -> object:
    """The type an annotation means for ``value``: ``Annotated`` stripped, the union member that
    takes an object when ``value`` is one, else a list, else the first that is not ``None``."""
    while typing.get_origin(annotation) is Annotated:
        annotation = typing.get_args(annotation)[0]
    members = typing.get_args(annotation) if typing.get_origin(annotation) in (Union, types.UnionType) else ()
    if not members:
        return annotation
    wanted = dict if isinstance(value, Mapping) else list if isinstance(value, list) else None
    for member in members:
        bare = _unwrap(member, None)
        origin = typing.get_origin(bare) or bare
        if wanted is dict and (origin is dict or hasattr(bare, "__struct_fields__")):
            return bare
        if wanted is list and origin is list:
            return bare
    return next((_unwrap(m, None) for m in members if m is not type(None)), annotation)


def _choices(annotation: object) -> tuple[str, ...]:
    """The values a ``Literal`` field takes (through ``Annotated`` and ``| None``), else none."""
    bare = _unwrap(annotation, "")
    return tuple(str(choice) for choice in typing.get_args(bare)) if typing.get_origin(bare) is Literal else ()


def _in_words(problem: str, value: object, choices: tuple[str, ...] = ()) -> str:
    """msgspec's problem (``Expected `int` >= 1``) in our words, with the value that was given."""
    shown = json.dumps(value)[:40]
    if (found := re.fullmatch(r"Expected `(?P<want>[^`]*)`, got `(?P<got>[^`]*)`", problem)) is not None:
        wants = " or ".join(_WORDS.get(part.strip(), part.strip()) for part in found.group("want").split("|"))
        got = _WORDS.get(found.group("got"), found.group("got"))
        return f"expected {wants}, got {got}" + (f" {shown}" if found.group("got") in ("str", "float") else "")
    if (found := re.fullmatch(r"Expected `int` (?P<op>>=|<=|<|>) (?P<bound>-?\d+)", problem)) is not None:
        bound, op = int(found.group("bound")), found.group("op")
        limit = {">=": f"{bound} or more", "<=": f"at most {bound}"}.get(op, f"{op} {bound}")
        return f"expected {limit}, got {shown}"
    if found := re.fullmatch(r"Expected `(?P<kind>array|str|object)` of length (?P<op>>=|<=) (?P<bound>\d+)", problem):
        count = len(value) if isinstance(value, (list, str, Mapping)) else 0
        most = "at least" if found.group("op") == ">=" else "at most"
        unit = {"array": "items", "str": "characters", "object": "fields"}[found.group("kind")]
        return f"{count} {unit}; expected {most} {found.group('bound')}"
    if problem.startswith("Invalid enum value"):
        listed = ", ".join(f'"{choice}"' for choice in choices)
        return f"{shown} is not one of {listed}" if choices else f"{shown} is not one of the values this field takes"
    return problem[:1].lower() + problem[1:]


def request_from_json(
    data: Mapping[str, object] | Request, cards: CardSource | None = None, *, allow: Iterable[str] = ()
) -> RollRequest:
    """A typed request from a ``resolve`` request object (``allow``: more fields a shell reads).
    Its cards enter the table here: looked up in ``cards`` by name (or given by their text) and
    compiled, once; a name with no card data is an error naming ``cards``.

    >>> request = request_from_json({"text": "Roll a d6.", "battlefield": [{"text": "Roll a d4.", "name": "B"}]})
    >>> request.seats[0].battlefield[0].name, request.card.compiled.rolls[0].die.name
    ('B', 'd6')
    """
    wire = wire_request(data, allow=allow)
    extra = {key: data[key] for key in frozenset(allow) if isinstance(data, Mapping) and key in data}
    kind = RollKind(wire.kind)
    seated = wire.seats is not None
    seats = _seats(wire, cards) if seated else _earlier_seats(wire, cards)
    players = len(seats)
    card = None
    if kind is RollKind.CARD:
        name, text = _named(wire.card, wire.text, wire.name, "card")
        card = enter_source(name, cards, "card", text=text, layout=wire.layout)
    return RollRequest(
        kind=kind,
        card=card,
        roll=wire.roll,
        notation=wire.notation,
        board=Board(seats, _pending(wire.pending, players, cards)),
        seated=seated,
        controller=_seat(wire.controller, "controller", players),
        roller=_seat(wire.roller, "roller", players) if wire.roller is not None else None,
        amounts=tuple(wire.amounts.items()),
        choices=tuple(wire.choices),
        turn=_turn(wire, players),
        action=wire.action,
        call=CoinFace(wire.call) if wire.call is not None else None,
        extra=extra,
    )


def _named(card: str | None, text: str | None, name: str | None, field: str) -> tuple[str, str | None]:
    """A card reference's name and its own text (``None``: look the name up)."""
    if text is not None:
        return name or card or "", text
    if card is None or not card.strip():
        raise InputError(field, "give the card's name as 'card', or its text as 'text'")
    return card, None


def _entered(entry: str | WireCard, field: str, cards: CardSource | None) -> Permanent:
    if isinstance(entry, str):
        return enter_card(_named(entry, None, None, field)[0], cards, field)
    name, text = _named(entry.card, entry.text, entry.name, field)
    return enter_card(
        name,
        cards,
        field,
        text=text,
        layout=entry.layout,
        level=entry.level,
        counters=tuple(entry.counters.items()) if entry.counters is not None else None,
        tapped=entry.tapped,
        stored=tuple(entry.stored) if entry.stored is not None else None,
        noted=entry.noted,
    )


def _zone(entries: Sequence[str | WireCard] | None, field: str, cards: CardSource | None) -> tuple[Permanent, ...]:
    return tuple(_entered(entry, f"{field}[{i}]", cards) for i, entry in enumerate(entries or ()))


def _seat(seat: int, field: str, players: int) -> Seat:
    """A seat number below ``players``."""
    if seat >= players:
        raise InputError(field, no_seat(seat, players))
    return Seat(seat)


def _seats(wire: Request, cards: CardSource | None) -> tuple[PlayerZones, ...]:
    """Version 3 ``seats``: every player's zones in turn order."""
    earlier = [key for key in (*ZONES, "players") if getattr(wire, key) is not None]
    if earlier:
        raise InputError(
            "seats", f'give the zones either as "seats" or as "{earlier[0]}" and the other earlier fields, not both'
        )
    assert wire.seats is not None
    return tuple(
        PlayerZones(
            _zone(seat.battlefield, f"seats[{i}].battlefield", cards),
            _zone(seat.graveyard, f"seats[{i}].graveyard", cards),
            _zone(seat.command, f"seats[{i}].command", cards),
        )
        for i, seat in enumerate(wire.seats)
    )


def _earlier_seats(wire: Request, cards: CardSource | None) -> tuple[PlayerZones, ...]:
    """The earlier zones as seats: seat 0 has battlefield, graveyard, command; each opponents item
    is on the battlefield of its ``seat`` (default 1). ``players`` is the seat count."""
    opponents: list[tuple[int, Permanent]] = []
    for i, entry in enumerate(wire.opponents or ()):
        seat = entry.seat if not isinstance(entry, str) else 1
        opponents.append((seat, _entered(entry, f"opponents[{i}]", cards)))
    players = wire.players if wire.players is not None else 2
    count = max([players, 2 if opponents else 1, *(seat + 1 for seat, _ in opponents)])
    seats = list(empty_board(count).seats)
    seats[0] = PlayerZones(
        _zone(wire.battlefield, "battlefield", cards),
        _zone(wire.graveyard, "graveyard", cards),
        _zone(wire.command, "command", cards),
    )
    for seat in range(1, count):
        seats[seat] = PlayerZones(tuple(permanent for where, permanent in opponents if where == seat))
    return tuple(seats)


def _pending(items: Sequence[PendingCard], players: int, cards: CardSource | None) -> tuple[Waiting, ...]:
    waiting: list[Waiting] = []
    for i, item in enumerate(items):
        field = f"pending[{i}]"
        controller = _seat(item.controller, f"{field}.controller", players)
        target = _seat(item.target, f"{field}.target", players) if item.target is not None else None
        name, text = _named(item.card, item.text, item.name, field)
        waiting.append(enter_waiting(name, cards, field, controller, target, text=text, layout=item.layout))
    return tuple(waiting)


def turn_from_json(turn: Mapping[str, JSON], players: int) -> TurnState:
    """A ``turn`` object (as the output gives it, to pass to the next request of the turn)."""
    return _turn(wire_request({"turn": turn}), players)


def _turn(wire: Request, players: int) -> TurnState:
    """What the turn remembers: ``turn`` (version 3) and the earlier top-level fields."""
    turn = wire.turn if wire.turn is not None else WireTurn()
    for key in ("dice_rolled", "planar_actions"):
        if getattr(turn, key) is not None and getattr(wire, key) is not None:
            raise InputError(f"turn.{key}", f'give it in "turn" or as the earlier top-level "{key}", not both')
    permanents: set[str] = set()
    for name in turn.used:
        base, mark, k = name.rpartition("#")
        permanents.add(name if mark and k.isdigit() and base else f"{name}#0")
    rolled: list[int] = [wire.dice_rolled or 0]
    if turn.dice_rolled is not None:
        if len(turn.dice_rolled) > players:
            raise InputError(
                "turn.dice_rolled", f"{len(turn.dice_rolled)} counts for a table of {players} player(s); one per seat"
            )
        rolled = list(turn.dice_rolled) or [0]
    if len(turn.flips) > players:
        raise InputError("turn.flips", f"{len(turn.flips)} entries for a table of {players} player(s); one per seat")
    planar = turn.planar_actions if turn.planar_actions is not None else wire.planar_actions or 0
    return TurnState(
        frozenset(wire.used),
        rolled[0],
        planar,
        tuple(rolled[1:]),
        frozenset(permanents),
        tuple((name, tuple(values)) for name, values in turn.totals.items()),
        tuple((flips.won, flips.lost) for flips in turn.flips),
    )


def amounts_from(data: Mapping[str, object] | Request) -> dict[str, int]:
    """The request's ``amounts``, checked."""
    return dict(wire_request({"amounts": data.get("amounts") or {}} if isinstance(data, Mapping) else data).amounts)


def source_from(data: Mapping[str, object] | Request) -> DiceSource:
    """``dice``, ``planar`` and ``coins`` as a scripted source, or a secure one with ``random``."""
    wire = wire_request(
        {key: data[key] for key in ("dice", "planar", "coins", "random") if key in data}
        if isinstance(data, Mapping)
        else data
    )
    if wire.random:
        return SecureSource()
    numbers = list(wire.dice) + [CoinFace(value).face for value in wire.coins]
    return ScriptedSource(numbers, [PlanarFace(value) for value in wire.planar])


# -- the request's parts, for shells that read a request object -----------------------------------


def card_from(data: Mapping[str, object] | Request, field: str, cards: CardSource | None) -> CompiledCard:
    """A compiled card from ``{"card": name}`` or ``{"text": ..., "name": ...}`` (the card fields of a request)."""
    if isinstance(data, Mapping):
        data = wire_request({key: data[key] for key in ("card", "text", "name", "layout") if key in data})
    name, text = _named(data.card, data.text, data.name, field)
    return compile_card(name, text, field, cards, data.layout)


def compile_json(data: Mapping[str, JSON] | Request, cards: CardSource | None) -> JSONObject:
    """The ``compile`` output for ``{"card": name}`` or ``{"text": ..., "name": ...}``."""
    from mtgdice.io.compiled import card_json

    return card_json(card_from(data, "card", cards))


def resolve_json(
    data: Mapping[str, JSON] | Request,
    cards: CardSource | None,
    source: DiceSource | None = None,
    chooser: Chooser | None = None,
) -> JSONObject:
    """Resolve a ``resolve`` request object and return the outcome object of json-interface.md (the
    record of the roll, as the log keeps it; :func:`resolve_table_json` adds what the table keeps)."""
    return outcome_json(_resolved(data, cards, source, chooser)[1])


def resolve_table_json(
    data: Mapping[str, JSON] | Request,
    cards: CardSource | None,
    source: DiceSource | None = None,
    chooser: Chooser | None = None,
) -> JSONObject:
    """What ``mtgdice resolve`` answers: the outcome object and the table after it (json-interface.md
    v3: ``turn``, ``pending``, ``noted``)."""
    request, outcome = _resolved(data, cards, source, chooser)
    return outcome_json(outcome) | table_json(request, outcome)


def _resolved(
    data: Mapping[str, JSON] | Request, cards: CardSource | None, source: DiceSource | None, chooser: Chooser | None
) -> tuple[RollRequest, Outcome]:
    wire = wire_request(data)
    request = request_from_json(wire, cards)
    try:
        outcome = resolve_request(
            request,
            cards,
            source or source_from(wire),
            chooser or ScriptedChooser(request.choices),
        )
    except MissingAmountError as error:  # the rules name the amount; the request names its field
        raise InputError(f"amounts.{error.amount}", f"{error.problem}; add it to amounts") from None
    except DieSizeError as error:
        raise InputError("sides", error.problem) from None
    return request, outcome


def table_json(request: RollRequest, outcome: Outcome) -> JSONObject:
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
        "pending": [pending_json(waiting) for i, waiting in enumerate(request.pending) if i not in used_up],
        "noted": noted,
    }


def save_json(path: str, value: JSON, field: str) -> None:
    """Write ``value`` to the file ``path`` as one line of JSON (what a shell keeps for the next
    call, such as the ``turn`` after a roll); a file that cannot be written is an error naming ``field``."""
    try:
        with open(path, "w", encoding="utf-8") as file:
            file.write(dumps(value) + "\n")
    except OSError as error:
        raise InputError(field, error.strerror or "cannot be written") from None


# -- writing ---------------------------------------------------------------------------------------


def _card_json(card: Permanent) -> JSONObject:
    """How a card is named in a request: ``card`` (looked up by name), or its own ``text``."""
    if card.text is None:
        return {"card": card.name}
    data: JSONObject = {"text": card.text}
    if card.name:
        data["name"] = card.name
    if card.layout != "normal":
        data["layout"] = card.layout
    return data


def zone_item_json(card: Permanent) -> JSON:
    """A permanent as a request's zone item: the card alone, or an object with its state."""
    data = _card_json(card)
    if card.level != 1:
        data["level"] = card.level
    if card.counters is not None:
        data["counters"] = dict(card.counters)
    if card.tapped:
        data["tapped"] = True
    if card.stored is not None:
        data["stored"] = list(card.stored)
    if card.noted is not None:
        data["noted"] = card.noted
    return data["card"] if list(data) == ["card"] else data


def turn_json(turn: TurnState, players: int) -> JSONObject:
    """The ``turn`` object of json-interface.md v3: what the turn remembers, for the next request."""
    rolled = [turn.rolled(Seat(seat)) for seat in range(max(players, len(turn.others_rolled) + 1))]
    return {
        "used": sorted(turn.used_permanents),
        "dice_rolled": rolled,
        "planar_actions": turn.planar_actions,
        "totals": {name: list(values) for name, values in turn.totals},
        "flips": [{"won": won, "lost": lost} for won, lost in turn.flips],
    }


def pending_json(waiting: Waiting) -> JSONObject:
    """A waiting replacement: ``card`` names it (beside its ``text`` when given so), its seats."""
    data: JSONObject = {"card": waiting.card.name}
    if waiting.card.text is not None:
        data["text"] = waiting.card.text
    if waiting.card.layout != "normal":
        data["layout"] = waiting.card.layout
    data["controller"] = waiting.controller
    if waiting.target is not None:
        data["target"] = waiting.target
    return data


def request_json(request: RollRequest) -> JSONObject:
    """The request object of a typed request (what :func:`request_from_json` reads back).

    >>> request_json(RollRequest(RollKind.DICE, notation="2d10"))
    {'kind': 'dice', 'notation': '2d10'}
    """
    data: JSONObject = {}
    if request.kind is not RollKind.CARD:
        data["kind"] = request.kind.value
    if request.card is not None:
        data.update(_card_json(request.card.card))
    if request.roll:
        data["roll"] = request.roll
    if request.notation:
        data["notation"] = request.notation
    if request.kind is RollKind.PLAIN:  # plain dice: no board, no turn applies to them
        return data
    turn = request.turn
    if request.seated:
        data["seats"] = [
            {zone: [zone_item_json(card) for card in cards] for zone, cards in _zones(seat) if cards}
            for seat in request.seats
        ]
    else:
        for zone, cards in _zones(request.seats[0]):
            if cards:
                data[zone] = [zone_item_json(card) for card in cards]
        opponents: list[JSON] = []
        for seat, zones in enumerate(request.seats[1:], start=1):
            for card in zones.battlefield:
                written = zone_item_json(card)
                if seat != 1:
                    item: JSONObject = {"card": written} if isinstance(written, str) else dict(written)  # type: ignore[arg-type]
                    item["seat"] = seat
                    written = item
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
        data["pending"] = [pending_json(waiting) for waiting in request.pending]
    if request.amounts:
        data["amounts"] = dict(request.amounts)
    if request.choices:
        data["choices"] = [_answer_json(answer) for answer in request.choices]
    if turn.used:
        data["used"] = sorted(turn.used)
    if turn.others_rolled or turn.used_permanents or turn.totals or turn.flips:
        data["turn"] = turn_json(turn, request.players)
    else:
        if turn.dice_rolled:
            data["dice_rolled"] = turn.dice_rolled
        if turn.planar_actions:
            data["planar_actions"] = turn.planar_actions
    if request.action:
        data["action"] = True
    if request.call is not None:
        data["call"] = request.call.value
    return data


def _zones(seat: PlayerZones) -> tuple[tuple[str, tuple[Permanent, ...]], ...]:
    return (("battlefield", seat.battlefield), ("graveyard", seat.graveyard), ("command", seat.command))


def _answer_json(answer: object) -> JSON:
    """An answer of ``choices`` as written: yes/no, an index, a list of indices."""
    if isinstance(answer, bool | int):
        return answer
    if isinstance(answer, list | tuple):
        return [int(index) for index in answer]
    raise InputError("choices", f"{answer!r} is not an answer (true/false, an index, a list of indices)")
