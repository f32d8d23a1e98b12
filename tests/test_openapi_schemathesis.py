"""The web app's OpenAPI document, checked against a real ``mtgdice serve`` by schemathesis.

A server on 127.0.0.1 (its own SQLite file and process group, stopped at the end, also when its
start deadline passes: ``live_server``) serves ``/openapi.json``; schemathesis draws requests for
every operation of it (a bounded, derandomized number) and checks each answer: no 5xx, a status
the document lists, the content type it names, a body that fits its schema. A room, its token, a
player's cookie and a card exist, so most requests reach past 401 and 404; some keep a drawn room
id, to see the 404 too. A plain test checks the document lists every route of the app.
"""

from __future__ import annotations

import html
import re
import sys
import urllib.parse
import urllib.request
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
pytest.importorskip("fastapi")
schemathesis = pytest.importorskip("schemathesis")
pytestmark = pytest.mark.timeout(300, method="signal")  # a hung server fails this module, not the suite

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from live_server import start, stop  # noqa: E402
from mtgdice.web.openapi import OPERATIONS, Operation  # noqa: E402
from room_client import post_json  # noqa: E402
from shared_data import shared_path  # noqa: E402

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
EXAMPLES = 8
"""Requests drawn per operation (and per generation mode): bounded work, not a time."""
DRAWN_ROOM = 5
"""One request in this many keeps the room id (card id, file name) schemathesis drew: an unknown one, 404."""
STATIC = "room.js"
"""A file the pages load."""


@dataclass(frozen=True)
class Served:
    """The live server and what exists in it: a room, its API token, a player's cookie, their card."""

    url: str
    room: str
    token: str
    cookie: str
    card: int


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _join(url: str, room: str) -> str:
    """Join ``room`` as a player; the player's cookie."""
    body = urllib.parse.urlencode({"name": "Tester"}).encode()
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        opener.open(urllib.request.Request(f"{url}/r/{room}/join", body, method="POST"), timeout=30)
    except urllib.error.HTTPError as answer:  # the 303 to the room's page, not followed
        assert answer.code == 303, answer.read()
        cookie = answer.headers["set-cookie"].split(";", 1)[0]
        name, _, value = cookie.partition("=")
        assert name == "mtgdice_player" and value
        return value
    raise AssertionError("joining a room answers 303 with the player's cookie")


def _add_card(served: Served) -> None:
    body = urllib.parse.urlencode({"text": "Roll a d20.", "name": "Test die"}).encode()
    request = urllib.request.Request(f"{served.url}/r/{served.room}/cards", body, method="POST")
    request.add_header("Cookie", f"mtgdice_player={served.cookie}")
    with urllib.request.urlopen(request, timeout=60) as answer:
        assert answer.status == 200


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    database = tmp_path_factory.mktemp("openapi") / "rolls.sqlite"
    url, process = start(shared_path("cards", "dice-cards.json"), database)
    try:
        room = post_json(f"{url}/api/rooms", {})
        served = Served(url, room["id"], room["token"], _join(url, room["id"]), 1)
        _add_card(served)
        yield served
    finally:
        stop(process)


@pytest.fixture(scope="module")
def api_schema(served: Served) -> Any:
    return schemathesis.openapi.from_url(f"{served.url}/openapi.json")


def _keep_drawn(value: object) -> bool:
    return zlib.crc32(repr(value).encode()) % DRAWN_ROOM == 0


def _assert_one_line_naming_a_field(response: Any) -> None:
    """A refusal is one line, ``FIELD: problem`` (JSON for the API and the guard, an HTML fragment on pages)."""
    content_type = response.headers.get("content-type") or [""]  # schemathesis: every header's values
    if content_type[0].startswith("application/json"):
        message = response.json()["error"]
    else:
        found = re.fullmatch(r'<p class="error"[^>]*>(.*)</p>\s*', response.text, re.DOTALL)
        assert found is not None, f"not a one-line error fragment: {response.text[:300]!r}"
        message = html.unescape(found.group(1))
    field, colon, problem = message.partition(": ")
    assert "\n" not in message and colon and field.strip() and problem.strip(), f"not FIELD: problem: {message!r}"


def _can_be_invalid(spec: Operation, path: str) -> bool:
    """Whether schemathesis can draw a request that breaks the document: a body, or a parameter
    that is not any string (a room id is any string, so it can only be unknown, not invalid)."""
    return spec.body is not None or bool(spec.query) or "{card_id}" in path


RUNS = [
    pytest.param(method, path, mode, id=f"{method} {path} {mode.value}")
    for (method, path), spec in sorted(OPERATIONS.items())
    for mode in GenerationMode
    if mode is GenerationMode.POSITIVE or _can_be_invalid(spec, path)
]


@pytest.mark.parametrize(("method", "path", "mode"), RUNS)
def test_every_answer_fits_the_document_and_none_is_a_server_error(
    api_schema: Any, served: Served, method: str, path: str, mode: GenerationMode
) -> None:
    statuses: list[int] = []
    operation = api_schema[path][method]

    @given(case=operation.as_strategy(mode))
    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    def call(case: Any) -> None:
        known = {"room_id": served.room, "card_id": served.card, "path": STATIC}
        for parameters in (case.path_parameters or {}, case.query or {}):
            for name, value in parameters.items():
                if name in known and not _keep_drawn(value):
                    parameters[name] = known[name]
        response = case.call_and_validate(
            headers={"Authorization": f"Bearer {served.token}"},
            cookies={"mtgdice_player": served.cookie},
            checks=CHECKS,
            allow_redirects=False,
            timeout=60,
        )
        statuses.append(response.status_code)
        if 400 <= response.status_code < 500:
            _assert_one_line_naming_a_field(response)

    call()
    if mode is GenerationMode.POSITIVE:  # the room, token and cookie given took most requests past them
        assert set(statuses) - {401, 404}, f"{method} {path}: every answer was 401 or 404: {statuses}"


def test_schemathesis_reads_every_operation_of_the_served_document(api_schema: Any) -> None:
    labels = {result.ok().label for result in api_schema.get_all_operations()}
    assert labels == {f"{method} {path}" for method, path in OPERATIONS}
