"""The server under the issue's adversarial requests: a real ``mtgdice serve`` on 127.0.0.1.

Each test reproduces a measurement of issue 12 (bounded, loopback only): heavy requests run in
worker threads while the loop keeps answering the home page; the request head and body limits and
timeouts; refusals before a nonce is spent; ``X-Forwarded-For`` ignored unless its proxy is named.
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
pytest.importorskip("fastapi")
pytestmark = pytest.mark.timeout(600)  # live servers: a hung one fails this test, not the suite
from live_server import live_server, start, stop  # noqa: E402
from mtgdice.web.guard import HEAD_TIMEOUT_S, MAX_BODY, MAX_HEAD  # noqa: E402
from room_client import Player, post_json  # noqa: E402
from shared_data import shared_path  # noqa: E402

REPEAT = {"text": "Roll 10000 d6. If you roll a 6, repeat this process."}  # the 64-byte roll
THUMBS = {"text": "Roll a d20.", "battlefield": ["Krark's Other Thumb"] * 800}  # the 18 KB board
MOST_THUMBS = {"text": "Roll a d20.", "battlefield": ["Krark's Other Thumb"] * 2790}  # just under the body limit


def cards() -> Path:
    return shared_path("cards", "dice-cards.json")


def request(
    url: str, method: str = "GET", body: Any = None, headers: dict[str, str] | None = None, timeout: float = 30
) -> tuple[int, str, float]:
    """Status, body text and seconds taken; HTTP errors are answers too."""
    data = json.dumps(body).encode() if body is not None else None
    sent = {"Content-Type": "application/json", **(headers or {})}
    started = time.monotonic()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data, sent, method=method), timeout=timeout) as answer:
            return answer.status, answer.read().decode(), time.monotonic() - started
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), time.monotonic() - started


def raw(url: str, payload: bytes, wait: float = 5) -> bytes:
    """Send ``payload`` on a new connection and read until the server closes it (or ``wait`` passes)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=wait) as connection:
        connection.sendall(payload)
        received = b""
        try:
            while chunk := connection.recv(65536):
                received += chunk
        except (TimeoutError, ConnectionResetError):
            pass
    return received


def status_of(response: bytes) -> int:
    match = re.match(rb"HTTP/1\.1 (\d{3})", response)
    assert match, response[:200]
    return int(match.group(1))


def one_line_error(text: str) -> str:
    assert "\n" not in text.strip() and "Traceback" not in text
    message = json.loads(text)["error"]
    assert isinstance(message, str) and message
    return message


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with live_server(cards(), tmp_path_factory.mktemp("hardening") / "rolls.sqlite") as (url, _):
        yield url


def new_room(url: str) -> dict[str, Any]:
    return post_json(f"{url}/api/rooms", {})


def test_heavy_requests_run_off_the_loop_and_end_within_their_deadline(server: str) -> None:
    room = new_room(server)
    token = {"Authorization": f"Bearer {room['token']}"}
    rolls = f"{server}/api/rooms/{room['id']}/rolls"
    player = Player(server, new_room(server)["id"])
    player.join("Alice")
    for name in ("Wizard's Spellbook", "Pixie Guide", "Krark's Other Thumb"):
        board = player.post("/cards", name=name)
    card_id = re.findall(r'name="card_id" value="(\d+)"', board)[0]
    heavy: dict[str, tuple[int, str, float]] = {}

    def run(name: str, *args: Any, **kwargs: Any) -> None:
        heavy[name] = request(*args, **kwargs)

    def odds() -> None:
        started = time.monotonic()
        try:
            text = player.get(f"/odds?card_id={card_id}&roll=0")
            heavy["odds panel"] = (200, text, time.monotonic() - started)
        except urllib.error.HTTPError as error:
            heavy["odds panel"] = (error.code, error.read().decode(), time.monotonic() - started)

    threads = [
        threading.Thread(target=run, args=("repeat roll", rolls, "POST", REPEAT, token)),
        threading.Thread(target=run, args=("800 thumbs", rolls, "POST", THUMBS, token)),
        threading.Thread(target=run, args=("2790 thumbs", rolls, "POST", MOST_THUMBS, token)),
        threading.Thread(target=odds),
    ]
    for thread in threads:
        thread.start()
    home: list[float] = []
    amid = 0  # home page answers asked and answered while a heavy request was in flight
    while any(thread.is_alive() for thread in threads):
        in_flight = {thread for thread in threads if thread.is_alive()}
        status, _, took = request(f"{server}/", timeout=60)
        assert status == 200
        home.append(took)
        amid += any(thread.is_alive() for thread in in_flight)
        time.sleep(0.05)
    for thread in threads:
        thread.join()
    print(f"home page: {len(home)} answers, {amid} amid heavy requests, slowest {max(home):.3f} s (not asserted)")
    assert sorted(heavy) == ["2790 thumbs", "800 thumbs", "odds panel", "repeat roll"]  # each one answered
    for name, (status, text, took) in heavy.items():
        print(f"{name}: {status} in {took:.2f} s (not asserted): {text.strip()[:120]}")
        assert status in (200, 400, 422), (name, status, text[:300])
        if status != 200:
            assert "budget" in one_line_error(text) or "limit" in one_line_error(text)
    assert amid > 0  # the loop answered the home page while heavy work was still running
    assert heavy["repeat roll"][0] == 400  # 10 000 dice a round, again and again: over the web's dice budget
    # Nothing was spent by the refused rolls: the next roll's nonce counts only the rolls answered.
    status, text, _ = request(rolls, "POST", {"text": "Roll a d6."}, token)
    taken = sum(heavy[name][0] == 200 for name in ("800 thumbs", "2790 thumbs"))
    assert status == 200 and json.loads(text)["proof"]["nonce"] == taken


def test_the_request_head_is_limited_in_size_and_in_time(server: str) -> None:
    big = b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (MAX_HEAD + 1) + b"\r\n\r\n"
    assert status_of(raw(server, big)) == 431
    many = b"GET / HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(100)) + b"\r\n"
    assert status_of(raw(server, many)) == 431
    half = raw(server, b"GET / HTTP/1.1\r\nHost: x\r\nX-Half", wait=HEAD_TIMEOUT_S + 120)
    assert status_of(half) == 408  # dropped by the server's head timeout (our socket waits far longer), not held
    assert request(f"{server}/")[0] == 200  # and the server goes on


def test_a_chunked_body_over_the_limit_is_413_and_spends_nothing(server: str) -> None:
    room = new_room(server)
    host, port = server.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    chunks = (b'{"text": "Roll a d6.", "player": "' + b"x" * 1024 for _ in range(MAX_BODY // 1024 + 2))
    connection.request(
        "POST",
        f"/api/rooms/{room['id']}/rolls",
        body=chunks,
        headers={"Authorization": f"Bearer {room['token']}", "Content-Type": "application/json"},
        encode_chunked=True,
    )
    answer = connection.getresponse()
    assert answer.status == 413 and "request body" in one_line_error(answer.read().decode())
    connection.close()
    status, text, _ = request(
        f"{server}/api/rooms/{room['id']}/rolls",
        "POST",
        {"text": "Roll a d6."},
        {"Authorization": f"Bearer {room['token']}"},
    )
    assert status == 200 and json.loads(text)["proof"]["nonce"] == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ('{"text": "Roll a d6.", "player": "\\ud800"}', "player"),
        ('{"text": "Roll a d6.", "card": "\\udfff"}', "card"),
        ('{"text": "Roll a d' + "9" * 5000 + '."}', "text"),
        ('{"text": "Roll a d6.", "turn": ' + "9" * 5000 + "}", "turn"),
        ('{"text": "Roll a d6.", "x": ' + "[" * 100_000 + "]" * 100_000 + "}", "nesting"),
    ],
    ids=["lone surrogate in player", "lone surrogate in card", "giant integer in text", "giant integer", "deep"],
)
def test_input_that_escaped_validation_is_a_400_before_the_nonce(server: str, body: str, field: str) -> None:
    room = new_room(server)
    token = {"Authorization": f"Bearer {room['token']}", "Content-Type": "application/json"}
    url = f"{server}/api/rooms/{room['id']}/rolls"
    with pytest.raises(urllib.error.HTTPError) as refused:  # refused, not worked on (the nonce below)
        urllib.request.urlopen(urllib.request.Request(url, body.encode(), token, method="POST"), timeout=120)
    assert refused.value.code in (400, 413), refused.value.code
    message = one_line_error(refused.value.read().decode())
    assert refused.value.code == 413 or any(word in message for word in (field, "nesting", "digits", "surrogate")), (
        message
    )
    status, text, _ = request(url, "POST", {"text": "Roll a d6."}, token)
    assert status == 200 and json.loads(text)["proof"]["nonce"] == 0  # the refused request left no gap


def test_x_forwarded_for_is_ignored_unless_its_proxy_is_named(tmp_path: Path) -> None:
    def accepted(extra: list[str]) -> int:
        url, process = start(
            cards(), tmp_path / f"rolls{len(extra)}.sqlite", extra=["--rate-limit", "5", "--burst", "10", *extra]
        )
        try:
            count = 0
            for i in range(60):
                status, _, _ = request(f"{url}/health", headers={"X-Forwarded-For": f"10.0.{i // 250}.{i % 250}"})
                count += status == 200
            return count
        finally:
            stop(process)

    ignored = accepted([])
    trusted = accepted(["--forwarded-allow-ips", "127.0.0.1"])
    print(f"X-Forwarded-For rotated over 60 requests: {ignored} accepted by default, {trusted} with the proxy named")
    assert ignored < 20  # the burst and what refills in the test's few seconds; the header changed nothing
    assert trusted == 60  # each forwarded address is its own client once the proxy is trusted


def board_of(count: int) -> list[str]:
    """``count`` dice cards that a d20 roll resolves beside without a question no choice answers."""
    from mtgdice.cards.catalog import CardCatalog
    from mtgdice.errors import MtgDiceError
    from mtgdice.fair.commit import Room
    from mtgdice.io.jsonio import resolve_json

    catalog = CardCatalog.from_path(str(cards()))
    fine = []
    for card in json.loads(cards().read_text(encoding="utf-8")):
        try:
            resolve_json({"text": "Roll a d20.", "battlefield": [card["name"]]}, catalog, Room.open("x").source())
        except MtgDiceError:
            continue
        fine.append(card["name"])
    return fine[:count]


def test_a_large_room_log_is_streamed_small_and_exports_do_not_stall_others(server: str) -> None:
    names = board_of(60)
    room = new_room(server)
    token = {"Authorization": f"Bearer {room['token']}"}
    for _ in range(150):  # the room: 150 rolls with a 60-card board (its export was 37 MB)
        status, text, _ = request(
            f"{server}/api/rooms/{room['id']}/rolls", "POST", {"text": "Roll a d20.", "battlefield": names}, token
        )
        assert status == 200, text[:200]
    host, port = server.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.request("GET", f"/api/rooms/{room['id']}/log")
    answer = connection.getresponse()
    body = answer.read()
    assert answer.status == 200 and answer.getheader("transfer-encoding") == "chunked"
    exported = json.loads(body)
    print(f"export of {len(exported['rolls'])} rolls with a 60-card board: {len(body) / 1e6:.2f} MB")
    assert len(body) < 3_000_000 and len(exported["rolls"]) > 100
    results: list[int] = []
    threads = [
        threading.Thread(target=lambda: results.append(request(f"{server}/api/rooms/{room['id']}/log")[0]))
        for _ in range(6)
    ]
    for thread in threads:
        thread.start()
    home = []
    amid = 0  # home page answers asked and answered while an export was in flight
    while any(thread.is_alive() for thread in threads):
        in_flight = [thread for thread in threads if thread.is_alive()]
        home.append(request(f"{server}/", timeout=60)[2])
        amid += any(thread.is_alive() for thread in in_flight)
    for thread in threads:
        thread.join()
    print(f"6 exports at once: {sorted(results)}; home page: {amid} answers amid them (slowest not asserted)")
    assert len(results) == 6 and set(results) <= {200, 503}
    assert amid > 0  # the exports did not stall the loop: the home page was answered while they streamed
