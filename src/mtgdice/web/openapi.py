"""The web app's OpenAPI document: every route, its body, its answers and every status it can give.

:func:`openapi_document` walks the app's routes and describes each from :data:`OPERATIONS` (a
route with no entry there is an error, so a new route cannot go undocumented): the JSON API with
the room token (``Authorization: Bearer``), the pages with their URL-encoded forms and the player
cookie, the static files; the room's websocket is described in the document's description (OpenAPI
has no websockets). Bodies' schemas come from the typed models of :mod:`mtgdice.io.http`
(``#/components/schemas/...``); a roll's answer is its ``Outcome`` and the ``RollStamp`` beside it.
:func:`install` makes it the app's ``/openapi.json``.

What this module leaves out: the routes themselves (``api``, ``pages``, ``sockets``) and the models.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Literal

import fastapi.routing
from fastapi import FastAPI
from fastapi.routing import APIWebSocketRoute
from starlette.routing import BaseRoute, Mount, Route

from mtgdice.io.http import LOG_PREFIX, components, log_component, outcome_component, request_component
from mtgdice.io.outcome import JSONObject
from mtgdice.web.views import COOKIE

__all__ = ["OPERATIONS", "Operation", "app_routes", "install", "openapi_document"]

Auth = Literal["token", "player"] | None

GUARD = (408, 413, 429, 431)
"""Answered by the guard in front of every route (a slow or large request, a busy client, too many headers)."""
ROOM = (400, 404, 409, 503)
"""A room's routes: bad input, no such room, the room changed meanwhile, the database away."""

WHY = {
    200: "done",
    201: "created",
    303: "done; see the room's page",
    400: "bad input: one line naming the field",
    401: "the room's token (API) or the player's cookie (pages) is missing or wrong",
    404: "no such room, card or file",
    408: "the request was not received in time",
    409: "the room cannot do this now (a question is open, someone else changed it meanwhile)",
    413: "the body is larger than the server takes",
    429: "too many requests from this client (rate limits, quotas); see Retry-After",
    431: "too many or too large headers",
    503: "the database or the workers are busy or away; nothing was stored; see Retry-After",
}


@dataclass(frozen=True, slots=True)
class Operation:
    """One route as the document shows it: what it is for, its body, its answer and the statuses it gives."""

    summary: str
    tag: Literal["api", "pages", "static"]
    answer: int = 200
    answer_schema: JSONObject | None = None
    body: str | None = None
    """A component's name: a JSON body (``api``) or a form (``pages``)."""
    auth: Auth = None
    errors: tuple[int, ...] = ()
    query: tuple[tuple[str, JSONObject, bool], ...] = ()
    """Query parameters: name, schema, required."""
    description: str = ""
    examples: JSONObject = field(default_factory=dict)


def _ref(name: str) -> JSONObject:
    return {"$ref": f"#/components/schemas/{name}"}


INTEGER: JSONObject = {"type": "integer"}
OPERATIONS: dict[tuple[str, str], Operation] = {
    ("POST", "/api/rooms"): Operation(
        "Create a room", "api", 201, _ref("RoomCreated"), "NewRoomBody", errors=(400, 503),
        description="Client seeds are added once the commitment is published (POST .../seeds).",
    ),
    ("POST", "/api/rooms/{room_id}/seeds"): Operation(
        "Add the API's client seed (from the next roll on)", "api", 200, _ref("SeedsAnswer"), "SeedBody", "token",
        (401, *ROOM),
    ),
    ("POST", "/api/rooms/{room_id}/rolls"): Operation(
        "Roll with the room's dice", "api", 200, _ref("RollAnswer"), "RollRequest", "token", (401, *ROOM),
        description="A `resolve` request; the answer is its outcome with the roll's id, proof and chain hash.",
    ),
    ("POST", "/api/rooms/{room_id}/reveal"): Operation(
        "Reveal the server seed and commit to the next", "api", 200, _ref("Revealed"), None, "token", (401, *ROOM)
    ),
    ("GET", "/api/rooms/{room_id}/log"): Operation(
        "The room's exported log (streamed)", "api", 200, _ref(LOG_PREFIX + "ExportedLog"), errors=ROOM
    ),
    ("GET", "/health"): Operation(
        "Whether the database and the broker answer", "api", 200, _ref("Health"),
        description="503 with the same body when a part does not answer.",
    ),
    ("GET", "/"): Operation("The front page", "pages"),
    ("POST", "/rooms"): Operation("Create a room and go to its page", "pages", 303, errors=(503,)),
    ("GET", "/r/{room_id}"): Operation("A room's page (the join form for a new player)", "pages", errors=ROOM),
    ("POST", "/r/{room_id}/join"): Operation("Join the room as a player", "pages", 303, body="JoinForm", errors=ROOM),
    ("GET", "/r/{room_id}/search"): Operation(
        "Card names matching a query", "pages", auth="player", errors=(401, *ROOM),
        query=(("q", {"type": "string"}, False),),
    ),
    ("POST", "/r/{room_id}/cards"): Operation(
        "Add a card to the player's board", "pages", body="CardForm", auth="player", errors=(401, *ROOM)
    ),
    ("POST", "/r/{room_id}/cards/{card_id}"): Operation(
        "Change a card of the player's", "pages", body="CardChangeForm", auth="player", errors=(401, *ROOM)
    ),
    ("POST", "/r/{room_id}/cards/{card_id}/activate"): Operation(
        "Activate a card's waiting replacement", "pages", body="ActivateForm", auth="player", errors=(401, *ROOM)
    ),
    ("POST", "/r/{room_id}/plane"): Operation(
        "Set the plane", "pages", body="PlaneForm", auth="player", errors=(401, *ROOM)
    ),
    ("POST", "/r/{room_id}/seed"): Operation(
        "Set the player's client seed", "pages", body="SeedForm", auth="player", errors=(401, *ROOM)
    ),
    ("POST", "/r/{room_id}/turn"): Operation("End the turn", "pages", auth="player", errors=(401, *ROOM)),
    ("POST", "/r/{room_id}/roll"): Operation(
        "Roll (a card's roll, plain dice, the planar die, a coin)", "pages", body="RollForm", auth="player",
        errors=(401, *ROOM),
    ),
    ("POST", "/r/{room_id}/answer"): Operation(
        "Answer the open question", "pages", body="AnswerForm", auth="player", errors=(401, *ROOM)
    ),
    ("GET", "/r/{room_id}/question"): Operation(
        "The player's open question", "pages", auth="player", errors=(401, *ROOM)
    ),
    ("GET", "/r/{room_id}/odds"): Operation(
        "The odds of a card's roll", "pages", auth="player", errors=(401, *ROOM),
        query=(("card_id", INTEGER, True), ("roll", INTEGER, False)),
    ),
    ("POST", "/r/{room_id}/reveal"): Operation(
        "Reveal the server seed and commit to the next", "pages", auth="player", errors=(401, *ROOM)
    ),
    ("GET", "/static/{path}"): Operation("The pages' scripts and styles", "static", errors=(404,)),
}  # fmt: skip
"""Every HTTP route of the app, by method and path."""

SOCKETS = {
    "/ws/rooms/{room_id}": (
        'each committed change of the room, in order: JSON text messages `{"kind": "roll" | "status" | '
        '"table" | "question", "html": ..., ...}` (a roll\'s carries its log `id`). The server closes it with 4404 '
        "for an unknown room, 1008 over the caps on sockets per room and client, 1013 when the database is "
        "away or the client fell too far behind, 1001 after the idle timeout (send anything to stay)."
    )
}
"""The app's websockets (not expressible as OpenAPI operations), described in the document's description."""

DESCRIPTION = """Shared dice rooms: a JSON API for programs (`/api/...`, the room's token as
`Authorization: Bearer TOKEN`), the room pages players use (`/r/...`, htmx fragments, a player
cookie set when joining) and a websocket per room. Every error of the API is one line,
`{"error": "FIELD: problem"}`.
"""


def _error_content(tag: str) -> JSONObject:
    json_error: JSONObject = {"application/json": {"schema": _ref("ErrorBody")}}
    if tag == "api":
        return json_error
    # the app's own refusals on a page are one-line HTML fragments; the guard's are JSON
    return {"text/html": {"schema": {"type": "string"}}, **json_error}


def _operation(method: str, path: str, spec: Operation) -> JSONObject:
    content_type = "application/json" if spec.tag == "api" else "text/html"
    answer: JSONObject = {"description": WHY[spec.answer]}
    if spec.answer == 303:
        answer["headers"] = {"Location": {"schema": {"type": "string"}, "description": "the room's page"}}
    elif spec.tag == "static":
        answer["content"] = {"*/*": {"schema": {"type": "string"}}}
    else:
        answer["content"] = {content_type: {"schema": spec.answer_schema or {"type": "string"}}}
    responses: JSONObject = {str(spec.answer): answer}
    errors = set(spec.errors) | set(GUARD if spec.tag != "static" else ())
    if path == "/health":
        responses["503"] = {"description": "a part does not answer", "content": answer["content"]}
        errors.discard(503)
    for status in sorted(errors):
        responses[str(status)] = {"description": WHY[status], "content": _error_content(spec.tag)}
    parameters: list[JSONObject] = []
    for name in ("room_id", "card_id", "path"):
        if "{" + name + "}" in path:
            schema = INTEGER if name == "card_id" else {"type": "string"}
            parameters.append({"name": name, "in": "path", "required": True, "schema": schema})
    parameters += [
        {"name": name, "in": "query", "required": required, "schema": schema} for name, schema, required in spec.query
    ]
    name = path.strip("/").replace("/", "_").replace("{", "").replace("}", "") or "index"
    operation: JSONObject = {
        "operationId": f"{method.lower()}_{name}",
        "summary": spec.summary,
        "tags": [spec.tag],
        "responses": responses,
    }
    if spec.description:
        operation["description"] = spec.description
    if parameters:
        operation["parameters"] = parameters
    if spec.body is not None:
        media = "application/json" if spec.tag == "api" else "application/x-www-form-urlencoded"
        operation["requestBody"] = {
            "required": spec.body != "NewRoomBody",
            "content": {media: {"schema": _ref(spec.body)}},
        }
    if spec.auth is not None:
        operation["security"] = [{"roomToken" if spec.auth == "token" else "playerCookie": []}]
    return operation


def _schemas() -> JSONObject:
    schemas = components()
    outcome, outcome_parts = outcome_component()
    request, request_parts = request_component()
    _, log_parts = log_component()
    for parts in (outcome_parts, request_parts, log_parts):
        clash = {name for name in set(parts) & set(schemas) if parts[name] != schemas[name]}
        if clash:
            raise RuntimeError(f"the definitions {sorted(clash)} share names with others")
        schemas |= parts
    for schema in schemas.values():  # the models' docstring examples are for the package, not the document
        text = schema.get("description", "")
        if ">>>" in text:
            schema["description"] = text[: text.index(">>>")].strip()
    schemas["RollForm"]["patternProperties"] = {"^amount:": INTEGER}  # a card's X, by the amount's name
    schemas["RollForm"]["additionalProperties"] = False
    schemas["Outcome"] = outcome
    schemas["RollRequest"] = request
    schemas["RollAnswer"] = {
        "description": "the roll's outcome, its id in the room's log, its proof and its hash in the chain",
        "allOf": [_ref("Outcome"), _ref("RollStamp")],
    }
    return schemas


def app_routes(app: FastAPI) -> Iterator[tuple[BaseRoute, str, frozenset[str]]]:
    """Every route of ``app`` with its path and methods, the included routers' routes one by one."""
    contexts = getattr(fastapi.routing, "iter_route_contexts", None)  # FastAPI that keeps routers whole
    if contexts is None:
        for route in app.routes:
            yield route, getattr(route, "path", ""), frozenset(getattr(route, "methods", None) or ())
        return
    for context in contexts(app.routes):
        yield context.original_route, context.path or "", frozenset(context.methods or ())


def openapi_document(app: FastAPI, version: str = "") -> JSONObject:
    """The OpenAPI 3.1 document of ``app``: one operation per HTTP route, the websockets in the description.

    A route :data:`OPERATIONS` does not describe is an error (a :class:`TypeError` naming it).
    """
    paths: dict[str, JSONObject] = {}
    sockets: list[str] = []
    own = {app.openapi_url, app.docs_url, app.redoc_url, app.swagger_ui_oauth2_redirect_url} - {None}
    for route, path, methods in app_routes(app):
        if isinstance(route, APIWebSocketRoute):
            sockets.append(f"- `WS {path}`: {SOCKETS[path]}")
            continue
        if isinstance(route, Mount):
            found = [("GET", f"{path}/{{path}}")]
        elif path in own:  # FastAPI's own /openapi.json
            continue
        elif isinstance(route, Route):  # an APIRoute, or a plain one (the API's roll, which reads its own input)
            found = [(method, path) for method in sorted(methods - {"HEAD"})]
        else:
            raise TypeError(f"route: {route!r} is not an HTTP route, a mount or a websocket")
        for method, where in found:
            spec = OPERATIONS.get((method, where))
            if spec is None:
                raise TypeError(f"route: {method} {where} has no entry in mtgdice.web.openapi.OPERATIONS")
            paths.setdefault(where, {})[method.lower()] = _operation(method, where, spec)
    description = DESCRIPTION + "\nWebsockets:\n\n" + "\n".join(sockets) if sockets else DESCRIPTION
    return {
        "openapi": "3.1.0",
        "info": {"title": app.title, "version": version or app.version, "description": description},
        "paths": paths,
        "components": {
            "schemas": _schemas(),
            "securitySchemes": {
                "roomToken": {"type": "http", "scheme": "bearer", "description": "the token POST /api/rooms answered"},
                "playerCookie": {"type": "apiKey", "in": "cookie", "name": COOKIE},
            },
        },
    }


def install(app: FastAPI, version: str = "") -> None:
    """Serve :func:`openapi_document` as the app's OpenAPI (built once, on its first request)."""
    built: JSONObject = {}

    def document() -> JSONObject:
        if not built:
            built.update(openapi_document(app, version))
        return built

    replace: Callable[[], JSONObject] = document
    app.openapi = replace  # type: ignore[method-assign]
