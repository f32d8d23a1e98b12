"""The web app's OpenAPI document (``/openapi.json``) and the typed bodies it is made from (``mtgdice.io.http``).

The document lists every route of the app's routers (and the static files; the websocket in its
description), every reference in it resolves, its bodies are the models' schemas, and the bodies the
API reads are refused in one line naming the field. The live check of answers against the document
is ``test_openapi_schemathesis.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.routing import APIWebSocketRoute  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from starlette.routing import Route  # noqa: E402

from mtgdice.errors import InputError  # noqa: E402
from mtgdice.io.http import BODIES, FORMS, NewRoomBody, SeedBody, decode, outcome_component  # noqa: E402
from mtgdice.web import api, pages, sockets  # noqa: E402
from mtgdice.web.app import create_app  # noqa: E402

METHODS = {"get", "post", "put", "patch", "delete", "head", "options"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path_factory.mktemp("openapi") / "rolls.sqlite")) as client:
        yield client


@pytest.fixture(scope="module")
def document(client: TestClient) -> dict[str, Any]:
    answer = client.get("/openapi.json")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("application/json")
    found: dict[str, Any] = answer.json()
    return found


def routers_routes() -> tuple[set[tuple[str, str]], set[str]]:
    """What the routers define, read from them (not from the app the document is made from)."""
    http: set[tuple[str, str]] = {("get", "/static/{path}")}  # the mount of the pages' files
    websockets: set[str] = set()
    for router in (api.router, pages.router, sockets.router):
        for route in router.routes:
            if isinstance(route, APIWebSocketRoute):
                websockets.add(route.path)
            else:
                assert isinstance(route, Route), route  # an APIRoute, or the API's roll (a plain route)
                http |= {(method.lower(), route.path) for method in route.methods - {"HEAD"}}
    return http, websockets


def test_the_document_lists_every_route_of_the_app(document: dict[str, Any]) -> None:
    http, websockets = routers_routes()
    listed = {(method, path) for path, item in document["paths"].items() for method in item if method in METHODS}
    assert listed == http
    assert websockets and all(f"WS {path}" in document["info"]["description"] for path in websockets)


def refs(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "$ref":
                yield item
            else:
                yield from refs(item)
    elif isinstance(value, list):
        for item in value:
            yield from refs(item)


def test_every_reference_resolves_and_the_bodies_are_the_models(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    for ref in refs(document):
        assert ref.startswith("#/components/schemas/") and ref.removeprefix("#/components/schemas/") in schemas, ref
    assert {model.__name__ for model in (*BODIES, *FORMS)} <= set(schemas)
    assert schemas["SeedBody"]["properties"]["client_seed"]["maxLength"] == 64
    # The roll's answer is the outcome (one component, from one function) with the roll's stamp beside it.
    outcome, parts = outcome_component()
    assert schemas["Outcome"] == outcome and set(parts) <= set(schemas)
    assert {"$ref": "#/components/schemas/DiceOutcome"} in outcome["anyOf"]
    answer = document["paths"]["/api/rooms/{room_id}/rolls"]["post"]["responses"]["200"]
    assert answer["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/RollAnswer"}
    assert {"$ref": "#/components/schemas/Outcome"} in schemas["RollAnswer"]["allOf"]
    forms = document["paths"]["/r/{room_id}/join"]["post"]["requestBody"]["content"]
    assert forms == {"application/x-www-form-urlencoded": {"schema": {"$ref": "#/components/schemas/JoinForm"}}}


def test_every_route_lists_the_refusals_it_can_give(document: dict[str, Any]) -> None:
    for path, item in document["paths"].items():
        for method, operation in item.items():
            statuses = set(operation["responses"])
            where = f"{method.upper()} {path}"
            if "{room_id}" in path:
                assert {"400", "404", "409", "503"} <= statuses, where
            if operation.get("security"):
                assert "401" in statuses, where
            if not path.startswith("/static/"):
                assert {"413", "429"} <= statuses, where
            for status, response in operation["responses"].items():
                if status.startswith("4") or (status == "503" and path != "/health"):
                    content = response["content"]
                    assert content["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorBody"}, where


def test_the_answers_fit_their_schemas(client: TestClient, document: dict[str, Any]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schemas = document["components"]["schemas"]

    def check(answer: Any, name: str) -> None:
        schema = {**schemas[name], "components": {"schemas": schemas}}
        jsonschema.validate(answer.json(), schema)

    room = client.post("/api/rooms")
    check(room, "RoomCreated")
    auth = {"Authorization": f"Bearer {room.json()['token']}"}
    room_id = room.json()["id"]
    check(client.post(f"/api/rooms/{room_id}/seeds", json={"client_seed": "alice-42"}, headers=auth), "SeedsAnswer")
    rolled = client.post(f"/api/rooms/{room_id}/rolls", json={"text": "Roll a d20."}, headers=auth)
    check(rolled, "RollAnswer")
    assert rolled.json()["proof"]["client_seeds"] == ["alice-42"]
    check(client.post(f"/api/rooms/{room_id}/reveal", headers=auth), "Revealed")
    check(client.get(f"/api/rooms/{room_id}/log"), "Log.ExportedLog")
    check(client.get("/health"), "Health")
    refused = client.post(f"/api/rooms/{room_id}/seeds", json={"client_seed": "a,b"}, headers=auth)
    assert refused.status_code == 400
    check(refused, "ErrorBody")


SEED_RULE = "1 to 64 printable ASCII characters without spaces or commas"


@pytest.mark.parametrize(
    ("raw", "model", "message"),
    [
        (b'{"client_seed": 7}', SeedBody, "client_seed: expected `str`, got `int`; " + SEED_RULE),
        (
            b'{"client_seed": "a b"}',
            SeedBody,
            "client_seed: not valid; " + SEED_RULE,
        ),
        (b"{}", SeedBody, "client_seed: required; " + SEED_RULE),
        (b"", SeedBody, "client_seed: required; " + SEED_RULE),
        (b'{"client_seed": "a", "extra": 1}', SeedBody, "extra: not a field of this body"),
        (b'{"\\f\\n": 1}', NewRoomBody, '"\\f\\n": not a field of this body'),
        (b'{"": 1}', NewRoomBody, '"": not a field of this body'),
        (b"[1]", NewRoomBody, "body: expected `object`, got `array`"),
        (b'{"client_seed": ', SeedBody, "body: expected a JSON object: input data was truncated"),
    ],
)
def test_a_body_is_refused_in_one_line_naming_the_field(raw: bytes, model: type, message: str) -> None:
    with pytest.raises(InputError) as refused:
        decode(raw, model)
    assert str(refused.value).lower() == message.lower() and "\n" not in str(refused.value)


def page_player(client: TestClient) -> str:
    room = client.post("/rooms", follow_redirects=False).headers["location"].rsplit("/", 1)[1]
    assert client.post(f"/r/{room}/join", data={"name": "Alice"}, follow_redirects=False).status_code == 303
    assert client.post(f"/r/{room}/cards", data={"text": "Roll a d20.", "name": "Test die"}).status_code == 200
    return room


@pytest.mark.parametrize(
    ("method", "path", "data", "field"),
    [
        ("post", "/r/{room}/roll", {"kind": "card", "card_id": "1", "roll": "-1"}, "roll"),  # not the last roll
        ("get", "/r/{room}/odds?card_id=1&roll=-5", None, "roll"),
        ("get", "/r/{room}/odds?card_id=x", None, "card_id"),
        ("get", "/r/{room}/odds", None, "card_id"),
        ("post", "/r/{room}/cards/one", {"action": "tap"}, "card_id"),
        ("get", "/r/{room}/nothing-here", None, "path"),
    ],
)
def test_refused_parameters_are_one_line_naming_them(
    client: TestClient, method: str, path: str, data: dict[str, str] | None, field: str
) -> None:
    room = page_player(client)
    answer = client.request(method.upper(), path.format(room=room), data=data)
    assert answer.status_code in (400, 404), answer.text
    assert f">{field}: " in answer.text and answer.text.count("\n") <= 1, answer.text


def test_the_api_refuses_a_control_character_field_by_name(client: TestClient) -> None:
    room = client.post("/api/rooms").json()
    answer = client.post(
        f"/api/rooms/{room['id']}/rolls",
        content=json.dumps({"text": "Roll a d20.", "x\fy": 1}),
        headers={"Authorization": f"Bearer {room['token']}", "content-type": "application/json"},
    )
    assert answer.status_code == 400 and answer.json()["error"].startswith('"x\\fy": not a field')


def test_the_document_is_read_by_schemathesis(document: dict[str, Any], tmp_path: Path) -> None:
    schemathesis = pytest.importorskip("schemathesis")
    loaded = schemathesis.openapi.from_dict(document)
    labels = {result.ok().label for result in loaded.get_all_operations()}
    assert len(labels) == sum(len(item) for item in document["paths"].values())
