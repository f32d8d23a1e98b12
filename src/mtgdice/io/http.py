"""The HTTP API's bodies as typed models: what ``mtgdice serve`` reads and writes, and their JSON Schema.

Each JSON body of the web app's API is a :class:`msgspec.Struct` here: the bodies a client sends
(:class:`NewRoomBody`, :class:`SeedBody`), the answers (:class:`RoomCreated`, :class:`SeedsAnswer`,
:class:`RollStamp` beside the roll's outcome, :class:`Revealed`, the exported log (:func:`log_component`),
:class:`Health`) and the one-line error (:class:`ErrorBody`); the room pages' URL-encoded forms
are described the same way (:data:`FORMS`). :func:`decode` reads a body into its model with a
one-line :class:`~mtgdice.errors.InputError` naming the field; :func:`encode` writes one;
:func:`components` gives their JSON Schemas for the OpenAPI document (``mtgdice.web.openapi``).

The roll's request (``resolve``'s request object) and outcome have models of their own elsewhere;
their components come from their models (:func:`outcome_component`, :func:`request_component`).
What this module leaves out: routes, status codes and paths (the web app's), and reading a roll's
request (:mod:`mtgdice.io.jsonio`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal, TypeVar, cast

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from mtgdice.errors import InputError

__all__ = [
    "BODIES",
    "FORMS",
    "AnswerForm",
    "CardChangeForm",
    "CardForm",
    "ErrorBody",
    "Health",
    "JoinForm",
    "log_component",
    "LOG_PREFIX",
    "NewRoomBody",
    "ActivateForm",
    "PlaneForm",
    "Revealed",
    "RollForm",
    "RollProof",
    "RollStamp",
    "RoomCreated",
    "SeedBody",
    "SeedForm",
    "SeedsAnswer",
    "components",
    "decode",
    "roll_body",
    "encode",
    "outcome_component",
    "request_component",
    "ROOM_DICE",
]

T = TypeVar("T")

CLIENT_SEED = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=64,
        pattern=r"^[!-+\--~]+$",
        description="1 to 64 printable ASCII characters without spaces or commas",
        examples=["alice-42"],
    ),
]
"""A client seed as the API takes it (``mtgdice.fair.commit.check_client_seed`` is the rule)."""
HEX = Annotated[str, Meta(description="a SHA-256 hash, hex")]


class ErrorBody(Struct):
    """Every refusal of the API: one line naming the field and the problem.

    >>> encode(ErrorBody("client_seed: required"))
    b'{"error":"client_seed: required"}'
    """

    error: Annotated[str, Meta(description="FIELD: problem, one line", examples=["client_seed: required"])]


class NewRoomBody(Struct, forbid_unknown_fields=True):
    """``POST /api/rooms`` takes no fields (an empty body or ``{}``): client seeds come after the commitment."""


class RoomCreated(Struct):
    """A new room: its id, its token (shown once) and the commitment to its first server seed."""

    id: str
    token: Annotated[str, Meta(description="send it as 'Authorization: Bearer TOKEN'; the room keeps only its hash")]
    commitment: HEX


class SeedBody(Struct, forbid_unknown_fields=True):
    """A client seed for a room's next rolls.

    >>> decode(b'{"client_seed": "alice-42"}', SeedBody)
    SeedBody(client_seed='alice-42')
    """

    client_seed: CLIENT_SEED


class SeedsAnswer(Struct):
    """The room's client seeds now and the commitment they join."""

    client_seeds: list[str]
    commitment: HEX


class RollProof(Struct, omit_defaults=True):
    """What a roll is checked against: its dice source, nonce, commitment and client seeds; for a
    roll on a player's stream, the stream and the roll's number on it."""

    source: str
    nonce: int
    commitment: HEX
    client_seeds: list[str]
    stream: str | UnsetType = UNSET
    index: int | UnsetType = UNSET


class RollStamp(Struct):
    """What the API adds to a roll's outcome: its id in the log, its proof and its hash in the room's chain."""

    id: int
    proof: RollProof
    chain: HEX


class Revealed(Struct):
    """A revealed server seed: the commitment it answers, the nonces it served, the chain it
    reached, and the commitment to the next seed."""

    seed: Annotated[str, Meta(description="the revealed server seed, hex")]
    commitment: HEX
    from_nonce: int
    to_nonce: int
    count: int
    chain: HEX
    next_commitment: HEX


class Health(Struct):
    """Whether the database and the broker answer (each ``ok`` or ``error: ...``), and which worker answered."""

    status: Literal["ok", "error"]
    database: str
    broker: str
    worker: int


# -- the room pages' forms (application/x-www-form-urlencoded) -----------------------------------------

Zone = Literal["battlefield", "graveyard"]


class JoinForm(Struct, forbid_unknown_fields=True):
    """Join a room as a player (a cookie then carries the player's token), with a client seed or none."""

    name: Annotated[str, Meta(min_length=1, max_length=40)]
    client_seed: Annotated[str, Meta(max_length=64, pattern=r"^[!-+\--~]*$")] = ""


class CardForm(Struct, forbid_unknown_fields=True):
    """Add a card: a name from the card data, or a text (compiled now)."""

    zone: Zone = "battlefield"
    name: str = ""
    text: str = ""


class CardChangeForm(Struct, forbid_unknown_fields=True):
    """Change a card of the player's: remove it, tap or untap it, set its level or counters, move it."""

    action: Literal["remove", "tap", "level", "move", "counter"]
    level: int | UnsetType = UNSET
    zone: Zone | UnsetType = UNSET
    counter: str = ""
    count: Annotated[int, Meta(ge=0, le=999)] = 0


class ActivateForm(Struct, forbid_unknown_fields=True):
    """Activate a card's "the next time target player would roll ..." ability: the player (an id of
    the room's) whose next roll it replaces."""

    target: Annotated[str, Meta(max_length=40)] = ""


class PlaneForm(Struct, forbid_unknown_fields=True):
    """Set the plane: a name from the card data or a text; neither clears it."""

    name: str = ""
    text: str = ""


class SeedForm(Struct, forbid_unknown_fields=True):
    """A player's client seed, from the next roll on."""

    client_seed: CLIENT_SEED


class RollForm(Struct):
    """A roll from the page: a card's (``card_id``, which of its rolls, ``amount:NAME`` fields for
    its X), plain dice (``dice``, as ``mtgdice roll`` takes them), the planar die or a coin."""

    kind: Literal["card", "dice", "planar", "coin"]
    card_id: int | UnsetType = UNSET
    roll: int = 0
    dice: str = ""
    cause: Literal["action", "effect"] = "action"


class AnswerForm(Struct, forbid_unknown_fields=True):
    """An answer to the open question (one ``answer`` per choice); ``roller`` and ``nonce`` say which roll's."""

    answer: list[str] = []
    roller: str = ""
    nonce: int | UnsetType = UNSET


BODIES: tuple[type[Struct], ...] = (
    ErrorBody,
    NewRoomBody,
    RoomCreated,
    SeedBody,
    SeedsAnswer,
    RollProof,
    RollStamp,
    Revealed,
    Health,
)
"""The JSON bodies of the API."""
FORMS: tuple[type[Struct], ...] = (
    JoinForm,
    CardForm,
    CardChangeForm,
    ActivateForm,
    PlaneForm,
    SeedForm,
    RollForm,
    AnswerForm,
)
"""The room pages' forms."""


def outcome_component() -> tuple[dict[str, Any], dict[str, Any]]:
    """The ``Outcome`` component (a roll's outcome, ``resolve``'s output object, from the models of
    :mod:`mtgdice.io.outcome_model`, open to the fields an answer adds) and the definitions it refers to.

    >>> top, parts = outcome_component()
    >>> top["anyOf"][0], "DieShown" in parts
    ({'$ref': '#/components/schemas/DiceOutcome'}, True)
    """
    from mtgdice.io.schemas import components as published

    return published("outcome", closed=False)


LOG_PREFIX = "Log."
"""The exported log's definitions are named apart (its outcomes are closed; the roll answer's are open)."""


def log_component() -> tuple[dict[str, Any], dict[str, Any]]:
    """The exported room log (``GET /api/rooms/{id}/log``, what ``mtgdice verify`` checks) as the
    published ``log`` schema: its top and its definitions, each named with :data:`LOG_PREFIX`.

    >>> top, parts = log_component()
    >>> top, "Log.ExportedRoll" in parts
    ({'$ref': '#/components/schemas/Log.ExportedLog'}, True)
    """
    from mtgdice.io.schemas import components as published

    top, parts = published("log", ref_template="#/components/schemas/" + LOG_PREFIX + "{name}")
    return top, {LOG_PREFIX + name: schema for name, schema in parts.items()}


ROOM_DICE = ("dice", "planar", "coins", "random")
"""The ``resolve`` request's fields a room's roll leaves out: its faces come from the room's dice."""


def request_component() -> tuple[dict[str, Any], dict[str, Any]]:
    """The ``RollRequest`` component (a room roll's body: the ``resolve`` request of
    :mod:`mtgdice.io.request_model` without the fields of :data:`ROOM_DICE`, with the ``player``
    the log shows) and the definitions it refers to.

    >>> body, parts = request_component()
    >>> body["additionalProperties"], "dice" in body["properties"], "player" in body["properties"], "Turn" in parts
    (False, False, True, True)
    """
    from mtgdice.io.schemas import components as published

    _, parts = published("request")
    request = parts.pop("Request")
    fields = cast(dict[str, object], request["properties"])
    properties = {name: schema for name, schema in fields.items() if name not in ROOM_DICE}
    properties["player"] = {"type": "string", "maxLength": 40, "description": "who rolled, as the log shows it"}
    body = request | {
        "title": "RollRequest",
        "description": "a room's roll: a resolve request whose faces come from the room's dice",
        "properties": properties,
    }
    return body, parts


def components(ref_template: str = "#/components/schemas/{name}") -> dict[str, Any]:
    """The JSON Schemas of every body and form, by name, their references made with ``ref_template``.

    >>> schemas = components()
    >>> schemas["SeedBody"]["required"], schemas["RollStamp"]["properties"]["proof"]
    (['client_seed'], {'$ref': '#/components/schemas/RollProof'})
    """
    _, found = msgspec.json.schema_components((*BODIES, *FORMS), ref_template=ref_template)
    return found


_AT = re.compile(r" - at `\$\.?(?P<path>[^`]*)`$")
_NAMED = re.compile(r"(?P<what>missing required|contains unknown) field `(?P<name>.*)`$", re.DOTALL)


def decode(raw: bytes, model: type[T], field: str = "body") -> T:
    """A JSON body read into ``model`` (an empty body is ``{}``), or an :class:`InputError` naming the field.

    >>> decode(b"", NewRoomBody)
    NewRoomBody()
    >>> decode(b'{"client_seed": 7}', SeedBody)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    mtgdice.rules.errors.InputError: client_seed: expected `str`, got `int`; 1 to 64 printable ASCII characters ...
    >>> decode(b'{"seed": "x"}', SeedBody)
    Traceback (most recent call last):
      ...
    mtgdice.rules.errors.InputError: seed: not a field of this body
    """
    try:
        return msgspec.json.decode(raw if raw.strip() else b"{}", type=model)
    except msgspec.ValidationError as error:
        refused = _input_error(str(error), field)
        hint = _hints(model).get(refused.field)
        if not hint:
            raise refused from None
        problem = "not valid" if "matching regex" in refused.problem else refused.problem  # the hint says it in words
        raise InputError(refused.field, f"{problem}; {hint}") from None
    except msgspec.DecodeError as error:
        raise InputError(field, f"expected a JSON object: {str(error)[:200]}") from None


def _hints(model: type[Any]) -> dict[str, str]:
    """What each field of a model takes, as its schema describes it (an error says it too)."""
    import msgspec.inspect

    found = msgspec.inspect.type_info(model)
    if not isinstance(found, msgspec.inspect.StructType):
        return {}
    hints: dict[str, str] = {}
    for item in found.fields:
        schema = item.type.extra_json_schema if isinstance(item.type, msgspec.inspect.Metadata) else None
        if schema and "description" in schema:
            hints[item.name] = str(schema["description"])
    return hints


def _input_error(message: str, field: str) -> InputError:
    at = _AT.search(message)
    path = at.group("path") if at else ""
    problem = message[: at.start()] if at else message
    named = _NAMED.search(problem)
    if named is None:
        return InputError(path or field, problem[:1].lower() + problem[1:])
    name = named.group("name")
    name = name if name.isprintable() and name.strip() else json.dumps(name)  # "" and control characters named too
    name = f"{path}.{name}" if path else name
    return InputError(name, "required" if named.group("what") == "missing required" else "not a field of this body")


def encode(value: Any) -> bytes:
    """A body as JSON bytes.

    >>> encode(RoomCreated("r1", "t", "ab"))
    b'{"id":"r1","token":"t","commitment":"ab"}'
    """
    return msgspec.json.encode(value)


def roll_body(logged: str, rebuild: Callable[[], Mapping[str, object]], stamp: RollStamp) -> bytes:
    """The API's answer to a roll: ``{...the outcome..., "id", "proof", "chain"}``. The outcome's
    text as the log has it is reused (not written again); without it, ``rebuild()`` gives the outcome.

    >>> stamp = RollStamp(7, RollProof("room", 3, "ab", []), "cd")
    >>> roll_body('{"rolls":[]}', dict, stamp)
    b'{"rolls":[],"id":7,"proof":{"source":"room","nonce":3,"commitment":"ab","client_seeds":[]},"chain":"cd"}'
    """
    tail = msgspec.json.encode(stamp)
    if len(logged) > 2 and logged[0] == "{" and logged[-1] == "}":
        return logged[:-1].encode() + b"," + tail[1:]
    return msgspec.json.encode({**rebuild(), **msgspec.to_builtins(stamp)})
