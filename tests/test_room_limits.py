"""Limits that hold across workers: rate limits and quotas shared through Redis (two apps on one
broker allow what one allows), websockets capped per room and per client address, with an idle
timeout, and players and seats bounded at the edge."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from mtgdice.web import create_app  # noqa: E402
from mtgdice.web.limits import SocketCaps  # noqa: E402

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def broker(services: Any) -> Iterator[str]:
    """A Redis database of these tests' own (number 5), emptied before and after."""
    import redis

    url = services.broker.rsplit("/", 1)[0] + "/5"
    own = redis.Redis.from_url(url)
    own.flushdb()
    try:
        yield url
    finally:
        own.flushdb()
        own.close()


def _created(client: TestClient) -> int:
    return client.post("/api/rooms").status_code


def test_two_workers_on_one_broker_allow_what_one_allows(tmp_path: Path, broker: str) -> None:
    # The rooms quota (10 at once per client) shared: whichever worker a client reaches, 10 in all.
    first = create_app(tmp_path / "one.sqlite", None, rate=1000, burst=1000, broker=broker)
    second = create_app(tmp_path / "two.sqlite", None, rate=1000, burst=1000, broker=broker)
    with TestClient(first) as one, TestClient(second) as two:
        statuses = [_created(one if turn % 2 else two) for turn in range(16)]
    assert statuses.count(201) == 10 and statuses.count(429) == 6, statuses
    assert statuses[:10] == [201] * 10  # refused only once the shared bucket is empty


def test_without_a_broker_each_process_counts_alone(tmp_path: Path) -> None:
    first = create_app(tmp_path / "one.sqlite", None, rate=1000, burst=1000)
    second = create_app(tmp_path / "two.sqlite", None, rate=1000, burst=1000)
    with TestClient(first) as one, TestClient(second) as two:
        statuses = [_created(one if turn % 2 else two) for turn in range(16)]
    assert statuses.count(201) == 16  # the single-process default: per process (8 each, under 10)


def _socket_refused(client: TestClient, room: str) -> bool:
    try:
        with client.websocket_connect(f"/ws/rooms/{room}"):
            return False
    except WebSocketDisconnect as closed:
        return closed.code == 1008


@pytest.mark.parametrize("shared", [False, True], ids=["one process", "two workers on a broker"])
def test_websockets_are_capped_per_room_and_per_client(tmp_path: Path, shared: bool, request: Any) -> None:
    broker = request.getfixturevalue("broker") if shared else None
    caps = SocketCaps(room=3, client=2)
    # Two workers serve the same rooms (one database); each has its own sockets, the counts are shared.
    apps = [create_app(tmp_path / "rolls.sqlite", None, broker=broker, sockets=caps) for _ in range(2 if shared else 1)]
    with TestClient(apps[0]) as one, TestClient(apps[-1]) as two:
        room = one.post("/api/rooms").json()["id"]
        with one.websocket_connect(f"/ws/rooms/{room}"), two.websocket_connect(f"/ws/rooms/{room}"):
            assert _socket_refused(one, room) and _socket_refused(two, room)  # 2 from this client address
        with one.websocket_connect(f"/ws/rooms/{room}"):  # closed ones no longer count
            pass
    wide = SocketCaps(room=2, client=10)
    with TestClient(create_app(tmp_path / "wide.sqlite", None, broker=broker, sockets=wide)) as client:
        room = client.post("/api/rooms").json()["id"]
        other = client.post("/api/rooms").json()["id"]
        with client.websocket_connect(f"/ws/rooms/{room}"), client.websocket_connect(f"/ws/rooms/{room}"):
            assert _socket_refused(client, room)  # the room's cap
            with client.websocket_connect(f"/ws/rooms/{other}"):  # another room is not full
                pass


def test_an_idle_websocket_is_closed(tmp_path: Path) -> None:
    caps = SocketCaps(idle_s=0.3)
    with TestClient(create_app(tmp_path / "rolls.sqlite", None, sockets=caps)) as client:
        room = client.post("/api/rooms").json()["id"]
        with client.websocket_connect(f"/ws/rooms/{room}") as socket:
            message = socket.receive()
        assert message == {"type": "websocket.close", "code": 1001, "reason": "idle"}


@pytest.mark.parametrize(
    ("extra", "field", "bound"),
    [({"players": 10}, "players", "at most 8, got 10"), ({"players": 10**17}, "players", "at most 8"),
     ({"players": 0}, "players", "1 or more, got 0"), ({"players": True}, "players", "a whole number"),
     ({"seats": [{}] * 9}, "seats", "9 items; expected at most 8")],
    ids=["ten", "huge", "zero", "bool", "nine-seats"],
)  # fmt: skip
def test_players_and_seats_are_bounded_at_the_edge(
    tmp_path: Path, extra: dict[str, Any], field: str, bound: str
) -> None:
    # The request model's own bounds (io/request_model.py), said in one line that names the field.
    with TestClient(create_app(tmp_path / "rolls.sqlite", None, rate=0)) as client:
        made = client.post("/api/rooms").json()
        headers = {"Authorization": f"Bearer {made['token']}"}
        body = {"kind": "plain", "notation": "d20", **extra}
        refused = client.post(f"/api/rooms/{made['id']}/rolls", json=body, headers=headers)
        error = refused.json()["error"]
        assert refused.status_code == 400 and error.startswith(f"{field}: ") and "\n" not in error
        assert bound in error
        assert client.get(f"/api/rooms/{made['id']}/log").json()["rolls"] == []  # nothing logged
