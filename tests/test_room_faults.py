"""Rooms survive ``kill -9`` and restarts, and several workers serve one room: real servers, real databases.

Every test runs real ``mtgdice serve`` processes on 127.0.0.1 (``live_server``), with the SQLite
default or with PostgreSQL and Redis (started for the tests: ``conftest.services``), posts through
plain HTTP clients, kills a server with SIGKILL in the middle of a burst of rolls, and then checks
the databases: every acknowledged roll is logged exactly once with the outcome that was answered, no
nonce twice, the database passes its integrity check, and after a reveal ``mtgdice verify`` accepts
the exported log and rejects a tampered copy. Each phase has a time limit.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytestmark = pytest.mark.timeout(600)  # live servers: a hung one fails this test, not the suite

import room_client as client  # noqa: E402
from live_server import (  # noqa: E402
    printed,  # noqa: E402
    start,
    stop,
)
from mtgdice.io.record import logged_outcome  # noqa: E402
from mtgdice.log import open_log  # noqa: E402
from shared_data import shared_path  # noqa: E402


def cards() -> Path:
    return shared_path("cards", "dice-cards.json")


def kill(server: subprocess.Popen[bytes]) -> None:
    os.kill(server.pid, signal.SIGKILL)
    server.wait(timeout=10)


def verify_cli(tmp_path: Path, exported: dict[str, Any], name: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / name
    path.write_text(json.dumps(exported), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "mtgdice.cli", "verify", str(path), "--cards", str(cards())],
        capture_output=True,
        text=True,
        timeout=120,
    )


def check_log(database: str | Path, room: str, acknowledged: dict[int, dict[str, Any]]) -> list[int]:
    """Every acknowledged roll logged once with its answered outcome; nonces unique; the database sound."""
    with open_log(database) as log:
        assert log.integrity_check() == "ok"
        logged = list(log.rolls(room=room))
    ids = [roll.id for roll in logged]
    assert len(ids) == len(set(ids))
    by_id = {roll.id: roll for roll in logged}
    missing = sorted(set(acknowledged) - set(by_id))
    assert missing == [], f"{len(missing)} acknowledged rolls are not in the log"
    for roll_id, outcome in acknowledged.items():
        assert logged_outcome(by_id[roll_id])["rolls"] == outcome["rolls"]
        assert by_id[roll_id].nonce == outcome["proof"]["nonce"]
    nonces = [roll.nonce for roll in logged]
    assert len(nonces) == len(set(nonces)), "a nonce was handed out twice"
    # A roll that asks a decision keeps the nonce it drew when it asked and is logged once answered;
    # rolls without one are logged in the order of their nonces.
    in_order = [by_id[roll_id].nonce for roll_id in sorted(acknowledged)]
    assert in_order == sorted(in_order), "the log's order is not the nonce order"
    return [nonce for nonce in nonces if nonce is not None]


def reveal_and_verify(url: str, room: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    client.post_json(f"{url}/api/rooms/{room['id']}/reveal", {}, room["token"])
    exported = client.get_json(f"{url}/api/rooms/{room['id']}/log")
    accepted = verify_cli(tmp_path, exported, "room.json")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    tampered = json.loads(json.dumps(exported))
    die = tampered["rolls"][len(tampered["rolls"]) // 2]["outcome"]["rolls"][0]["dice"][0]
    die["natural"] = die["natural"] % 20 + 1
    die["result"] = die["natural"]
    rejected = verify_cli(tmp_path, tampered, "tampered.json")
    assert rejected.returncode != 0 and "bad" in rejected.stdout + rejected.stderr
    return exported


def build_table(url: str, room_id: str) -> tuple[client.Player, client.Player]:
    """Two players with boards (levels, tapped, counters of state), a second turn with a planar-die
    action taken, and an open decision: everything a room must keep."""
    alice, bob = client.Player(url, room_id), client.Player(url, room_id)
    alice.join("Alice")
    bob.join("Bob", client_seed="bobs-own-seed")
    alice.post("/cards", name="Krark's Other Thumb")
    board = alice.post("/cards", name="Wizard's Spellbook")
    spellbook = alice.card_ids(board)[-1]
    assert f'name="card_id" value="{spellbook}"' in board
    alice.post("/cards", name="Day Hand", text="Roll a d6. You may reroll it.", zone="graveyard")
    alice.post(f"/cards/{alice.card_ids(board)[0]}", action="tap")
    bob.post("/cards", name="Barbarian Class")
    bob_board = bob.post("/cards", name="Pixie Guide")
    bob.post(f"/cards/{bob.card_ids(bob_board)[0]}", action="level", level="2")
    alice.post("/turn")
    bob.post("/roll", kind="planar", cause="action")  # the next special action costs 1 (CR 901.9b)
    bob.post("/roll", kind="dice", dice="2d10")
    while 'data-testid="open-question"' in bob.get("/question"):  # tied lowest dice: Bob picks one to ignore
        bob.post("/answer", answer="0")
    asked = alice.post("/roll", kind="card", card_id=str(spellbook))  # Krark's Other Thumb asks
    assert 'data-testid="open-question"' in asked
    return alice, bob


def articles(page: str) -> dict[int, str]:
    """The rolls a page's history shows, by log id, as rendered."""
    return {int(found[0]): found[1] for found in re.findall(r'(?s)id="roll-(\d+)"(.*?)</article>', page)}


def table_view(alice: client.Player, bob: client.Player) -> dict[str, str]:
    """What each player's page shows of the table, without what a roll changes (next nonce, history)."""
    view = {}
    for name, player in (("alice", alice), ("bob", bob)):
        page = player.get("")
        view[f"{name} turn"] = client.section(page, "turn")
        view[f"{name} planar cost"] = client.section(page, "planar-cost")
        view[f"{name} commitment"] = re.findall(r"Commitment <code[^>]*>([0-9a-f]+)<", page)[0]
        before_status, rest = page.split('id="status"', 1)
        rest = rest.split("</section>", 1)[1]
        before_history, rest = rest.split('id="history"', 1)
        view[f"{name} page"] = before_status + before_history + rest.split("</section>", 1)[1]
        view[f"{name} question"] = player.get("/question")
    return view


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_a_room_is_back_after_sigkill_and_restart(engine: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    if engine == "sqlite":
        database: str | Path = tmp_path / "rolls.sqlite"
        broker = None
    else:
        database, broker = request.getfixturevalue("postgres"), request.getfixturevalue("services").broker
    url, server = start(cards(), database, broker=broker)
    burst: client.Burst | None = None
    try:
        room = client.post_json(url + "/api/rooms", {})
        alice, bob = build_table(url, room["id"])
        before = table_view(alice, bob)
        burst = client.Burst(room)
        burst.start(url, clients=4)
        burst.wait_for(120)
        kill(server)  # in the middle of the burst: the clients are still posting
        burst.stop()
        url, server = start(cards(), database, broker=broker, port=int(url.rsplit(":", 1)[1]))
        after = table_view(alice, bob)
        assert after == before  # players, tokens (their cookies), boards, turn, planar cost, the open question
        again = client.post_json(f"{url}/api/rooms/{room['id']}/rolls", client.SPELLBOOK, room["token"])
        assert again["proof"]["commitment"] == room["commitment"]  # the same seed goes on
        # An API roll draws from the API's own stream with its own seed (none); Bob's seed is kept for his rolls.
        assert again["proof"]["stream"] == "api" and again["proof"]["client_seeds"] == []
        assert "bobs-own-seed" in bob.get("")
        answered = alice.post("/answer", answer="1")  # the decision asked before the kill
        assert "open-question" not in answered
        nonces = check_log(database, room["id"], {**burst.acknowledged, again["id"]: again})
        assert len(nonces) >= 120 + 3
        exported = reveal_and_verify(url, room, tmp_path)
        assert len(exported["rolls"]) == len(nonces)
    finally:
        if burst is not None:
            burst.stop()
        stop(server)


def test_the_history_after_a_restart_is_rebuilt_from_the_log(tmp_path: Path) -> None:
    """A page's rolls after a restart come from the log, resolved again from their faces: shown the same."""
    database = tmp_path / "rolls.sqlite"
    url, server = start(cards(), database)
    try:
        room = client.post_json(url + "/api/rooms", {})
        alice, bob = build_table(url, room["id"])
        alice.post("/answer", answer="0")
        board = alice.get("")
        alice.post("/roll", kind="card", card_id=str(alice.card_ids(board)[1]))
        alice.post("/answer", answer="1")
        client.post_json(f"{url}/api/rooms/{room['id']}/rolls", {**client.SPELLBOOK, "player": "api"}, room["token"])
        history = articles(bob.get(""))
        assert len(history) >= 4 and any('data-testid="row"' in html for html in history.values())
        kill(server)
        url, server = start(cards(), database, port=int(url.rsplit(":", 1)[1]))
        assert articles(bob.get("")) == history
    finally:
        stop(server)


def test_two_workers_serve_one_room_and_one_is_killed(postgres: str, services: Any, tmp_path: Path) -> None:
    """Two workers on one room (PostgreSQL + Redis), a client on each and a socket on the second:
    kill -9 the first mid-burst; the second keeps serving; the first restarts and serves again."""
    pytest.importorskip("websockets")
    first_url, first = start(cards(), postgres, broker=services.broker)
    second_url, second = start(cards(), postgres, broker=services.broker)
    burst: client.Burst | None = None
    listener: subprocess.Popen[str] | None = None
    try:
        room = client.post_json(first_url + "/api/rooms", {})
        # The socket's reader is a process of its own, so it keeps up with the burst (a socket that
        # falls too far behind is dropped, by design).
        listener = subprocess.Popen(
            [sys.executable, "-c", LISTENER, f"{second_url.replace('http', 'ws')}/ws/rooms/{room['id']}"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert listener.stdout is not None and listener.stdout.readline().strip() == "ready"
        burst = client.Burst(room)
        burst.start(first_url, clients=2)
        burst.start(second_url, clients=2, keep_trying=True)
        burst.wait_for(60, url=first_url)
        burst.wait_for(60, url=second_url)
        kill(first)
        served = burst.by_url[second_url]
        burst.wait_for(served + 60, url=second_url)  # the other worker goes on serving the room
        first_url, first = start(cards(), postgres, broker=services.broker, port=int(first_url.rsplit(":", 1)[1]))
        restarted = client.Burst(room, acknowledged=burst.acknowledged, lock=burst.lock)
        restarted.start(first_url, clients=2)
        restarted.wait_for(40, url=first_url)  # the killed one serves the room again
        restarted.stop()
        burst.stop()
        acknowledged = dict(burst.acknowledged)
        # The listener stops once it has heard every acknowledged roll (or after its guard against a hang).
        out, _ = listener.communicate(json.dumps(sorted(acknowledged)) + "\n", timeout=180)
        heard = json.loads(out.strip().splitlines()[-1])
        seen, ended = heard["rolls"], heard["closed"]
        nonces = check_log(postgres, room["id"], acknowledged)
        assert nonces == list(range(len(nonces))), "the database handed out the nonces one by one"
        missing = sorted(set(acknowledged) - set(seen))
        assert missing == [], f"the socket on the second worker missed {len(missing)} acknowledged rolls ({ended})"
        first_seen = [roll_id for roll_id in dict.fromkeys(seen) if roll_id in acknowledged]
        assert first_seen == sorted(first_seen), "the socket saw the room's rolls out of order"
        reveal_and_verify(first_url, room, tmp_path)
        checked = subprocess.run(
            [str(Path(services_bin()) / "pg_amcheck"), "--heapallindexed", postgres],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert checked.returncode == 0, checked.stdout + checked.stderr
    finally:
        if burst is not None:
            burst.stop()
        if listener is not None and listener.poll() is None:
            listener.kill()
        stop(first)
        stop(second)


LISTENER = """
import asyncio, json, sys
import websockets

async def main():
    rolls, closed = [], None
    async with websockets.connect(sys.argv[1], max_size=2**22) as socket:
        print("ready", flush=True)
        loop = asyncio.get_running_loop()
        expected = loop.run_in_executor(None, sys.stdin.readline)  # the acknowledged ids, once the burst ended

        async def stop_once_heard():
            wanted = set(json.loads(await expected))
            for _ in range(1200):  # a guard against a hang (120 s), not a timing claim
                if wanted <= set(rolls):
                    break
                await asyncio.sleep(0.1)
            await socket.close()

        async def ping():  # as the pages do: a socket whose client says nothing for 2 minutes is closed
            try:
                while True:
                    await asyncio.sleep(20)
                    await socket.send("ping")
            except websockets.ConnectionClosed:
                return

        stopping = loop.create_task(stop_once_heard())
        pinging = loop.create_task(ping())
        try:
            async for raw in socket:
                message = json.loads(raw)
                if message.get("kind") == "roll":
                    rolls.append(message["id"])
        except websockets.ConnectionClosed as error:
            closed = error.rcvd.code if error.rcvd else None
        pinging.cancel()
        if socket.close_code not in (1000, None):
            closed = socket.close_code
    print(json.dumps({"rolls": rolls, "closed": closed}), flush=True)

asyncio.run(main())
"""


def services_bin() -> str:
    import services as servers

    return str(servers.pg_bin())


def test_workers_on_one_port_and_a_killed_worker_comes_back(postgres: str, services: Any) -> None:
    """``serve --workers 2``: both workers answer on the one port; uvicorn starts a killed one again."""
    url, server = start(cards(), postgres, broker=services.broker, workers=2)
    try:
        room = client.post_json(url + "/api/rooms", {})
        workers = wait_for_workers(server.pid, 2)
        burst = client.Burst(room)
        burst.start(url, clients=4, keep_trying=True)
        burst.wait_for(80)
        os.kill(workers[0], signal.SIGKILL)
        count = len(burst.acknowledged)
        burst.wait_for(count + 80)  # the port goes on answering
        wait_for_workers(server.pid, 2, besides=workers[0], why="the killed worker was not started again")
        burst.stop()
        check_log(postgres, room["id"], burst.acknowledged)
    finally:
        stop(server)


def wait_for_workers(parent: int, count: int, besides: int | None = None, why: str = "") -> list[int]:
    """The ``count`` workers of ``parent`` (other than ``besides``), once they are all running.

    The front page answers as soon as one worker does: the others may still be starting. The wait
    is a guard against a hang (generous, for a busy machine), never a timing claim."""
    deadline = time.monotonic() + WORKERS_START_S
    while len(found := [pid for pid in worker_pids(parent) if pid != besides]) < count:
        if time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert len(found) == count, f"{why or 'the workers did not start'}: {found} after {WORKERS_START_S} s"
    return found


WORKERS_START_S = 180


def worker_pids(parent: int) -> list[int]:
    """The live child processes of ``parent`` that run a worker (uvicorn's spawned processes)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == parent and fields[0] != "Z" and b"multiprocessing" in command and b"spawn" in command:
            found.append(int(entry.name))
    return sorted(found)


def test_sigterm_finishes_in_flight_rolls(tmp_path: Path) -> None:
    """A graceful stop (SIGTERM) during a burst: the server exits cleanly and every answered roll is logged."""
    database = tmp_path / "rolls.sqlite"
    url, server = start(cards(), database)
    try:
        room = client.post_json(url + "/api/rooms", {})
        burst = client.Burst(room)
        burst.start(url, clients=4)
        burst.wait_for(100)
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=120) in (0, -signal.SIGTERM)  # uvicorn re-raises the signal once stopped
        output = printed(server)
        assert "every roll in flight was finished" in output, output[-2000:]
        burst.stop()
        check_log(database, room["id"], burst.acknowledged)
    finally:
        stop(server)


def test_a_database_outage_is_503_and_nothing_acknowledged_is_lost(tmp_path: Path) -> None:
    """PostgreSQL stopped (immediate: as a crash) under load, then started again: every answer is
    200 or 503 (with Retry-After), the server recovers at its first successful reconnect (no 503
    after the first 200 that follows the restart), no acknowledged roll is lost, every room verifies."""
    import threading
    import urllib.error
    import urllib.request

    import services as servers

    if servers.available() is not None:
        pytest.skip(str(servers.available()))
    folder = Path(tempfile.mkdtemp(prefix="mtgdice-outage-"))
    server = None
    halt = threading.Event()
    lock = threading.Lock()
    answers: list[tuple[float, int, str | None]] = []  # (time, status, Retry-After)
    acknowledged: dict[str, dict[int, dict[str, Any]]] = {}
    try:
        own = servers.start(folder)
        database = servers.new_database(own.database)
        url, server = start(cards(), database)
        rooms = [client.post_json(url + "/api/rooms", {}) for _ in range(3)]
        for room in rooms:
            acknowledged[room["id"]] = {}

        def load(room: dict[str, Any]) -> None:
            body = json.dumps(client.SPELLBOOK).encode()
            headers = {"Content-Type": "application/json", "Authorization": f"Bearer {room['token']}"}
            while not halt.is_set():
                request = urllib.request.Request(
                    f"{url}/api/rooms/{room['id']}/rolls", data=body, headers=headers, method="POST"
                )
                try:
                    with urllib.request.urlopen(request, timeout=30) as response:
                        outcome = json.loads(response.read())
                        with lock:
                            answers.append((time.monotonic(), response.status, None))
                            acknowledged[room["id"]][outcome["id"]] = outcome
                except urllib.error.HTTPError as error:
                    with lock:
                        answers.append((time.monotonic(), error.code, error.headers.get("Retry-After")))
                    time.sleep(0.05)

        threads = [threading.Thread(target=load, args=(room,), daemon=True) for room in rooms for _ in range(2)]
        for thread in threads:
            thread.start()

        def wait_for(condition: Any, what: str, limit: float = 120) -> None:
            deadline = time.monotonic() + limit
            while not condition():
                assert time.monotonic() < deadline, f"timed out waiting for {what}"
                time.sleep(0.02)

        def ok_count() -> int:
            with lock:
                return sum(1 for _, status, _ in answers if status == 200)

        wait_for(lambda: ok_count() >= 60, "60 rolls before the outage")
        servers.stop_postgres(folder)
        stopped = len(answers)
        wait_for(lambda: sum(1 for _, status, _ in answers[stopped:] if status == 503) >= 10, "503s in the outage")
        servers.start_postgres(folder)
        restarted = time.monotonic()
        before = ok_count()
        wait_for(lambda: ok_count() >= before + 60, "60 rolls after the restart")
        halt.set()
        for thread in threads:
            thread.join(timeout=60)
        statuses = {status for _, status, _ in answers}
        assert statuses <= {200, 503}, f"answers other than 200 and 503: {sorted(statuses)}"
        assert all(retry == "1" for _, status, retry in answers if status == 503), "a 503 without Retry-After"
        after = [(at, status) for at, status, _ in answers if at > restarted]
        first_ok = next(at for at, status in after if status == 200)
        late = [status for at, status in after if at > first_ok and status == 503]
        assert late == [], f"{len(late)} 503s after the server had reconnected"
        for room in rooms:
            check_log(database, room["id"], acknowledged[room["id"]])
            client.post_json(f"{url}/api/rooms/{room['id']}/reveal", {}, room["token"])
            exported = client.get_json(f"{url}/api/rooms/{room['id']}/log")
            accepted = verify_cli(tmp_path, exported, f"{room['id']}.json")
            assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    finally:
        halt.set()
        if server is not None:
            stop(server)
        servers.stop(folder)
