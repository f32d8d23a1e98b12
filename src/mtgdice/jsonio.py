"""The JSON interface (spec/json-interface.md): requests in, outcomes out, validated at the edge.

``resolve_json`` takes a ``resolve`` request (a parsed JSON object), builds the board from card
names or texts, resolves the chosen roll instruction and returns the outcome object.
``compile_json`` does the same for ``compile``. Every problem with the input is an
:class:`~mtgdice.errors.InputError` naming the field. Renderers for people live in ``render.py``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any, Protocol

from mtgdice.errors import InputError
from mtgdice.rules import (
    YOU,
    Board,
    Chooser,
    DiceSource,
    DieRoll,
    Execution,
    Permanent,
    PlanarFace,
    Resolution,
    RollInstruction,
    ScriptedChooser,
    ScriptedSource,
    SecureSource,
    TurnState,
    resolve,
    seat_name,
)
from mtgdice.text import CompiledCard
from mtgdice.text.translate import compile_foreign

MAX_REQUEST_BYTES = 1_000_000
"""Largest JSON request read (bounded memory); larger input is refused with an error."""

ZONES = ("battlefield", "opponents", "graveyard", "command")


class CardSource(Protocol):
    """Anything that finds a card by name (``mtgdice.cards.CardCatalog``)."""

    def lookup(self, name: str) -> Any: ...


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
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        raise InputError(field, f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    except UnicodeDecodeError as error:
        raise InputError(field, f"not UTF-8 text: {error.reason}") from None
    if not isinstance(data, dict):
        raise InputError(field, f"expected a JSON object, got {_kind(data)}")
    return data


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


# -- compiling cards -------------------------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def _compiled(text: str, name: str, layout: str, type_line: str) -> CompiledCard:
    # Oracle text is English; printed text in another language goes through its lexicon.
    return compile_foreign(text, name, layout=layout, type_line=type_line)


def compile_card_record(record: Any) -> CompiledCard:
    """Compile a card record (anything with ``name``, ``oracle_text``, ``layout``, ``type_line``)."""
    return _compiled(
        getattr(record, "oracle_text", "") or "",
        record.name,
        getattr(record, "layout", "normal") or "normal",
        getattr(record, "type_line", "") or "",
    )


def card_from(item: Mapping[str, Any], field: str, cards: CardSource | None) -> CompiledCard:
    """A card from ``{"card": name}`` or ``{"text": ..., "name": ...}``."""
    if "text" in item and item["text"] is not None:
        text = item["text"]
        if not isinstance(text, str):
            raise InputError(f"{field}.text", f"expected a string, got {_kind(text)}")
        name = item.get("name", item.get("card", "")) or ""
        if not isinstance(name, str):
            raise InputError(f"{field}.name", f"expected a string, got {_kind(name)}")
        layout = item.get("layout", "normal")
        return _compiled(text, name, layout if isinstance(layout, str) else "normal", "")
    name = item.get("card")
    if not isinstance(name, str) or not name.strip():
        raise InputError(field, "give the card's name as 'card', or its text as 'text'")
    if cards is None:
        raise InputError("cards", "no card data: pass --cards PATH or set MTGDICE_CARDS")
    try:
        record = cards.lookup(name)
    except LookupError as error:
        message = str(error)
        raise InputError(field, message.removeprefix("card: ")) from None
    return compile_card_record(record)


def compile_json(request: Mapping[str, Any], cards: CardSource | None) -> dict[str, Any]:
    """The ``compile`` output for ``{"card": name}`` or ``{"text": ..., "name": ...}``."""
    return card_from(request, "card", cards).to_json()


# -- building the board ---------------------------------------------------------------------------


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


def _permanent(item: object, field: str, cards: CardSource | None) -> Permanent:
    if isinstance(item, str):
        item = {"card": item}
    if not isinstance(item, dict):
        raise InputError(field, f"expected a card name or an object, got {_kind(item)}")
    compiled = card_from(item, field, cards)
    level = _int(item.get("level", 1), f"{field}.level", 1)
    counters_value = item.get("counters")
    counters: tuple[tuple[str, int], ...] | None = None
    if counters_value is not None:
        if not isinstance(counters_value, dict):
            raise InputError(
                f"{field}.counters", f'expected an object such as {{"+1/+1": 2}}, got {_kind(counters_value)}'
            )
        counters = tuple(
            (str(kind), _int(number, f"{field}.counters.{kind}", 0)) for kind, number in counters_value.items()
        )
    tapped = item.get("tapped", False)
    if not isinstance(tapped, bool):
        raise InputError(f"{field}.tapped", f"expected true or false, got {_kind(tapped)}")
    stored_value = item.get("stored")
    stored: tuple[int, ...] | None = None
    stored_die = None
    store_rolls = [roll for roll in compiled.rolls if roll.store]
    if store_rolls:
        stored_die = store_rolls[0].die
    if stored_value is not None:
        stored = tuple(_int(v, f"{field}.stored[{i}]") for i, v in enumerate(_list(stored_value, f"{field}.stored")))
    return Permanent(
        compiled.name or str(item.get("card", "")), compiled.effects, level, counters, tapped, stored, stored_die
    )


def board_from(request: Mapping[str, Any], cards: CardSource | None) -> Board:
    """The four zones of a request as a :class:`Board`."""
    zones: dict[str, tuple[Permanent, ...]] = {}
    for zone in ZONES:
        items = _list(request.get(zone, []) or [], zone)
        zones[zone] = tuple(_permanent(item, f"{zone}[{i}]", cards) for i, item in enumerate(items))
    return Board(**zones)


def amounts_from(request: Mapping[str, Any]) -> dict[str, int]:
    value = request.get("amounts", {}) or {}
    if not isinstance(value, dict):
        raise InputError("amounts", f"expected an object of names and numbers, got {_kind(value)}")
    return {str(name): _int(number, f"amounts.{name}") for name, number in value.items()}


def source_from(request: Mapping[str, Any]) -> DiceSource:
    """``dice`` and ``planar`` as a scripted source, or a secure one with ``random``."""
    if request.get("random") is True:
        return SecureSource()
    numbers = [_int(v, f"dice[{i}]", 1) for i, v in enumerate(_list(request.get("dice", []) or [], "dice"))]
    faces: list[PlanarFace] = []
    for i, value in enumerate(_list(request.get("planar", []) or [], "planar")):
        try:
            faces.append(PlanarFace(value))
        except ValueError:
            raise InputError(
                f"planar[{i}]", f'expected "blank", "chaos" or "planeswalk", got {json.dumps(value)[:40]}'
            ) from None
    return ScriptedSource(numbers, faces)


def instruction_from(request: Mapping[str, Any], cards: CardSource | None) -> tuple[CompiledCard, RollInstruction]:
    """The source card and the roll instruction the request picks (``roll``, default 0)."""
    compiled = card_from(request, "card", cards)
    index = _int(request.get("roll", 0), "roll", 0)
    if not compiled.rolls:
        reason = f"; {compiled.notes[0]}" if compiled.notes else ""
        unsupported = f"; not understood: {compiled.unsupported[0]!r}" if compiled.unsupported else ""
        raise InputError("card", f"{compiled.name or 'this text'} has no roll instruction{reason}{unsupported}")
    if index >= len(compiled.rolls):
        raise InputError(
            "roll",
            f"{compiled.name} has {len(compiled.rolls)} roll instruction(s), "
            f"numbered 0 to {len(compiled.rolls) - 1}; got {index}",
        )
    return compiled, compiled.rolls[index]


def resolve_json(
    request: Mapping[str, Any],
    cards: CardSource | None,
    source: DiceSource | None = None,
    chooser: Chooser | None = None,
) -> dict[str, Any]:
    """Resolve a ``resolve`` request and return the outcome object of json-interface.md."""
    compiled, instruction = instruction_from(request, cards)
    board = board_from(request, cards)
    amounts = amounts_from(request)
    used = request.get("used", []) or []
    turn = TurnState(frozenset(str(key) for key in _list(used, "used")))
    resolution = resolve(
        instruction,
        source=compiled.name or "~",
        dice=source or source_from(request),
        board=board,
        chooser=chooser or ScriptedChooser(_list(request.get("choices", []) or [], "choices")),
        amounts=amounts,
        turn=turn,
    )
    return resolution_json(resolution)


# -- rendering an outcome as JSON -------------------------------------------------------------------


def die_json(roll: DieRoll) -> dict[str, Any]:
    """One physical die as json-interface.md writes it, with its modifiers and identity."""
    data: dict[str, Any] = {
        "sides": "planar" if roll.die.planar else roll.die.sides,
        "natural": roll.natural,
        "result": roll.result if roll.counted else roll.natural,
        "ignored": roll.fate.value == "ignored",
    }
    if roll.die.planar:
        face = roll.planar_face
        data["face"] = face.value if face is not None else None
    if roll.fate.value == "rerolled":
        data["rerolled"] = True
    if roll.modifiers and roll.counted:
        data["modifiers"] = [{"delta": m.delta, "source": m.source} for m in roll.modifiers]
    data["index"] = roll.index
    if roll.rerolls is not None:
        data["rerolls"] = roll.rerolls
    if roll.roller != YOU:
        data["roller"] = seat_name(roll.roller)
    return data


def execution_json(execution: Execution) -> dict[str, Any]:
    data: dict[str, Any] = {
        "dice": [die_json(roll) for roll in execution.dice],
        "results": [r.value if isinstance(r, PlanarFace) else r for r in execution.results],
        "row": execution.row,
        "doubles": execution.doubles,
    }
    if execution.rows is not None:
        data["rows"] = list(execution.rows)
    if execution.chosen is not None:
        data["chosen"] = execution.chosen
    if execution.total is not None and len(execution.counted) > 1:
        data["total"] = execution.total
    if execution.outcomes:
        data["outcomes"] = list(execution.outcomes)
    return data


def resolution_json(resolution: Resolution) -> dict[str, Any]:
    """The ``resolve`` output object."""
    return {
        "rolls": [execution_json(execution) for execution in resolution.executions],
        "triggers": [hit.card for hit in resolution.triggers],
        "stored": {name: list(values) for name, values in resolution.stored.items()},
        "source": resolution.source,
        "decisions": [
            {
                "ask": decision.ask.value,
                "topic": decision.topic.value,
                "prompt": decision.prompt,
                "answer": list(answer) if isinstance(answer, tuple) else answer,
            }
            for decision, answer in resolution.decisions
        ],
        "used": sorted(resolution.used),
    }


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)
