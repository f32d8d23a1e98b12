"""A fuzz of the JSON reader and of a room's roll endpoint: giant integers, deep nesting, lone
surrogates, bad UTF-8 and misspelt fields mixed into requests. Each is read or refused with a
one-line ``InputError`` (never another exception), and the server answers 200 or 4xx, never 500,
and a refused request takes no nonce."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgdice.errors import InputError, MtgDiceError
from mtgdice.io.jsonio import parse_request, request_from_json

GIANT = st.integers(min_value=10, max_value=6000).map(lambda digits: "9" * digits)
DEEP = st.integers(min_value=1, max_value=100_000).map(lambda depth: "[" * depth + "]" * depth)
SURROGATE = st.sampled_from(["\\ud800", "\\udfff", "\\udbff\\u0041", "x\\ud83d"])
STRING = st.one_of(st.text(max_size=20).map(json.dumps), SURROGATE.map(lambda s: f'"{s}"'))
VALUE = st.one_of(GIANT, DEEP, STRING, st.sampled_from(["NaN", "Infinity", "-1", "1e400", "true", "null", "{}"]))
FIELD = st.sampled_from(["text", "card", "player", "turn", "amounts", "choices", "battlefield", "roll", "txet"])


@st.composite
def requests(draw: st.DrawFn) -> bytes:
    fields = draw(st.lists(st.tuples(FIELD, VALUE), max_size=4))
    body = ", ".join(f'"{name}": {value}' for name, value in fields)
    text = '{"text": "Roll a d6."' + (", " + body if body else "") + "}"
    raw = text.encode("utf-8")
    if draw(st.booleans()) and draw(st.booleans()):  # now and then, bytes that are not UTF-8
        cut = draw(st.integers(min_value=0, max_value=len(raw)))
        raw = raw[:cut] + draw(st.sampled_from([b"\xff", b"\xed\xa0\x80", b"\xc3"])) + raw[cut:]
    return raw


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_the_json_reader_reads_or_refuses_in_one_line(raw: bytes) -> None:
    try:
        request_from_json(parse_request(raw))
    except InputError as error:
        assert "\n" not in str(error) and len(str(error)) < 400
    except MtgDiceError:
        pass  # another one-line refusal of the request's meaning


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Any:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from mtgdice.web import create_app

    client = TestClient(create_app(Path(tmp_path_factory.mktemp("fuzz")) / "rolls.sqlite", None, rate=0))
    room = client.post("/api/rooms").json()
    return client, room, {"Authorization": f"Bearer {room['token']}", "Content-Type": "application/json"}


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(raw=requests())
def test_a_room_answers_every_fuzzed_roll_without_a_500_or_a_gap(api: Any, raw: bytes) -> None:
    client, room, headers = api
    before = len(client.get(f"/api/rooms/{room['id']}/log").json()["rolls"])
    response = client.post(f"/api/rooms/{room['id']}/rolls", content=raw, headers=headers)
    assert response.status_code in (200, 400, 413, 422), (response.status_code, response.text[:300])
    assert "Traceback" not in response.text
    rolls = client.get(f"/api/rooms/{room['id']}/log").json()["rolls"]
    assert len(rolls) == before + (response.status_code == 200)
    assert [roll["nonce"] for roll in rolls] == list(range(len(rolls)))  # contiguous: nothing refused took one
