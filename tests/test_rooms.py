"""Rooms in the database, in process: what a room stores, batches and their transactions, the schema,
and the fan-out's order, gaps and slow sockets. (Real servers and kills: ``test_room_faults.py``.)"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from mtgdice.fair.commit import Room  # noqa: E402
from mtgdice.game import Game, RollSpec  # noqa: E402
from mtgdice.game.snapshot import GameState, state_from_json, state_json  # noqa: E402
from mtgdice.log import RollLog, faces_of, open_log, record_of, verify_export  # noqa: E402
from mtgdice.log.store import SCHEMA_VERSION  # noqa: E402
from mtgdice.rules.errors import InputError  # noqa: E402
from mtgdice.web import create_app  # noqa: E402
from mtgdice.web import fanout as fanout_module  # noqa: E402
from mtgdice.web.fanout import Fanout  # noqa: E402
from mtgdice.web.rooms import RoomRecord, Rooms, Table  # noqa: E402
from mtgdice.web.work import WorkPool  # noqa: E402

SPELLBOOK = {"card": "Wizard's Spellbook", "battlefield": ["Pixie Guide"]}


# -- what a room stores -----------------------------------------------------------------------------


def test_a_game_snapshot_rebuilds_the_same_game(catalog: Any) -> None:
    game = Game(catalog)
    alice, bob = game.add_player("Alice"), game.add_player("Bob")
    game.add_card(alice.id, "Wizard's Spellbook")
    thumb = game.add_card(alice.id, "Krark's Other Thumb", zone="graveyard")
    game.update_card(alice.id, thumb.id, tapped=True, counters=(("lore", 2),), stored=(3, 17))
    game.add_card(bob.id, "Barbarian Class", level=3)
    game.set_plane("Example Plane", "Whenever chaos ensues, roll a d6.")
    game.next_turn()
    game.used.add("once-key")
    game.dice_rolled[bob.id] = 3
    game.planar_rolls = 2
    state = GameState.of(game)
    again = state_from_json(json.loads(json.dumps(state_json(state)))).game(catalog)
    assert GameState.of(again) == state
    assert again.add_card(alice.id, "Pixie Guide").id == game.add_card(alice.id, "Pixie Guide").id  # ids go on
    from mtgdice.fair.commit import CommitRevealSource

    spec = RollSpec.plain("2d10")
    first = game.resolve_roll(bob.id, spec, CommitRevealSource(bytes(32), (), 5), (), catalog)
    second = again.resolve_roll(bob.id, spec, CommitRevealSource(bytes(32), (), 5), (), catalog)
    assert first == second  # the rebuilt game resolves a roll exactly as the original


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda data: data.update(turn=0), "turn"),
        (lambda data: data.update(format=9), "format"),
        (lambda data: data["players"][0]["battlefield"][0].update(tapped="yes"), "players[0].battlefield[0].tapped"),
        (lambda data: data["players"][0].pop("name"), "players[0].name"),
        (lambda data: data.update(dice_rolled=[["p1"]]), "dice_rolled[0]"),
    ],
)
def test_a_bad_stored_game_names_its_field(change: Any, field: str) -> None:
    game = Game()
    game.add_card(game.add_player("Alice").id, "A card", text="Roll a d6.")
    data = state_json(GameState.of(game))
    change(data)
    with pytest.raises(InputError) as raised:
        state_from_json(data)
    assert str(raised.value).startswith(field)


def test_the_database_keeps_token_hashes_not_tokens(tmp_path: Path, catalog: Any) -> None:
    db = tmp_path / "rolls.sqlite"
    client = TestClient(create_app(db, catalog, rate=0))
    room = client.post("/api/rooms").json()
    created = client.post("/rooms", follow_redirects=False)
    page_room = created.headers["location"].rsplit("/", 1)[1]
    client.post(f"/r/{page_room}/join", data={"name": "Alice"}, follow_redirects=False)
    cookie = client.cookies.get("mtgdice_player")
    assert cookie
    with sqlite3.connect(db) as raw:
        stored = " ".join(str(row) for row in raw.execute("SELECT * FROM rooms").fetchall())
    assert room["token"] not in stored and cookie not in stored
    assert client.get(f"/r/{page_room}").text.count('data-testid="board"') == 1  # the cookie still works


# -- batches ----------------------------------------------------------------------------------------


def test_rolls_that_arrive_together_share_a_commit_in_nonce_order(tmp_path: Path, catalog: Any) -> None:
    log = RollLog(tmp_path / "rolls.sqlite")
    rooms = Rooms(log, catalog)
    commits: list[int] = []
    begin = log.begin_room

    def counting(room_id: str, version: int) -> Any:
        commits.append(version)
        return begin(room_id, version)

    log.begin_room = counting  # type: ignore[method-assign]

    async def burst() -> list[Any]:
        state, _ = await rooms.create()
        return list(await asyncio.gather(*(rooms.api_roll(state, dict(SPELLBOOK)) for _ in range(20))))

    finished = asyncio.run(burst())
    assert [done.proof.nonce for done in finished] == list(range(20))
    logged = list(log.rolls())
    assert [roll.id for roll in logged] == sorted(done.id for done in finished)
    assert [roll.nonce for roll in logged] == list(range(20))  # the log's order is the nonce order
    assert len(commits) < 20  # rolls that waited together were one transaction
    log.close()


def test_rooms_committing_together_share_one_sqlite_transaction(tmp_path: Path, catalog: Any) -> None:
    log = RollLog(tmp_path / "rolls.sqlite")
    rooms = Rooms(log, catalog, work=WorkPool(workers=8))  # a thread for each room: their commits can meet
    groups: list[int] = []
    write_group = log._write_group
    held: list[bool] = [True]

    def waiting() -> int:
        with log._waiting_lock:
            return len(log._waiting)

    def recording(units: Any) -> None:
        groups.append(len(units))
        if held and held.pop():
            # The burst's first commit holds the writer until the seven other rooms' commits wait
            # behind it (polled, a bounded number of times: a hang guard, not a timing assertion).
            for _ in range(3000):
                if waiting() >= 7:
                    break
                time.sleep(0.01)
        write_group(units)

    log._write_group = recording  # type: ignore[method-assign]

    async def burst() -> list[str]:
        states = [(await rooms.create())[0] for _ in range(8)]
        await asyncio.gather(*(rooms.api_roll(state, dict(SPELLBOOK)) for state in states for _ in range(5)))
        return [state.id for state in states]

    for room_id in asyncio.run(burst()):
        assert [roll.nonce for roll in log.rolls(room_id)] == [0, 1, 2, 3, 4]
    assert groups[0] == 1 and 7 in groups[1:], groups  # the seven that waited were one SQLite commit
    log.close()


def test_one_room_failing_in_a_group_commit_leaves_the_others_whole(tmp_path: Path) -> None:
    from mtgdice.log.store import RoomChanged, _RoomCommit

    log = RollLog(tmp_path / "rolls.sqlite")
    rooms = {name: Room.open(name) for name in ("a", "b")}
    for name, fair in rooms.items():
        log.create_room(fair, RoomRecord(name, "0" * 64, fair).to_json())
    good = _RoomCommit(log.begin_room("a", 1), [], rooms["a"].next_source()[1], "{}")
    stale = _RoomCommit(log.begin_room("b", 7), [], rooms["b"].next_source()[1], "{}")  # not b's version
    log._write_group([stale, good])
    assert isinstance(stale.error, RoomChanged) and good.error is None
    assert log.room_version("a") == 2 and log.room_version("b") == 1
    log.close()


def test_a_failed_commit_stores_nothing_and_the_room_goes_on(tmp_path: Path, catalog: Any) -> None:
    log = RollLog(tmp_path / "rolls.sqlite")
    rooms = Rooms(log, catalog)

    async def scenario() -> tuple[Any, Any, Any]:
        state, _ = await rooms.create()
        done = await rooms.api_roll(state, dict(SPELLBOOK))
        original = log._write_room

        def broken(*args: Any) -> Any:
            raise sqlite3.OperationalError("disk I/O error")

        log._write_room = broken  # type: ignore[method-assign]
        with pytest.raises(sqlite3.OperationalError):
            await rooms.api_roll(state, dict(SPELLBOOK))
        log._write_room = original  # type: ignore[method-assign]
        after = await rooms.api_roll(state, dict(SPELLBOOK))
        return state, done, after

    state, done, after = asyncio.run(scenario())
    assert (done.proof.nonce, after.proof.nonce) == (0, 1)  # the failed roll's nonce was never stored
    assert [roll.nonce for roll in log.rolls()] == [0, 1]
    assert log.load_room_state(state.id).version == state.version == 3  # type: ignore[union-attr]
    log.close()


def test_a_refused_action_fails_alone(tmp_path: Path, catalog: Any) -> None:
    log = RollLog(tmp_path / "rolls.sqlite")
    rooms = Rooms(log, catalog)

    def bad(table: Table) -> None:
        raise InputError("card_id", "no such card")

    async def scenario() -> list[Any]:
        state, _ = await rooms.create()
        return list(
            await asyncio.gather(rooms.act(state, bad), rooms.api_roll(state, dict(SPELLBOOK)), return_exceptions=True)
        )

    refused, rolled = asyncio.run(scenario())
    assert isinstance(refused, InputError) and rolled.proof.nonce == 0
    log.close()


def test_a_room_reads_back_from_its_row(tmp_path: Path) -> None:
    log = RollLog(tmp_path / "rolls.sqlite")
    rooms = Rooms(log, None)

    async def scenario() -> tuple[RoomRecord, RoomRecord]:
        state, _ = await rooms.create()
        await rooms.join(state, "Alice", "alices")
        rolled = await rooms.roll(state, "p1", RollSpec.plain("d20"))
        assert rolled.proof.nonce == 0  # type: ignore[union-attr]
        return state.record, RoomRecord.stored(state.id, log.load_room_state(state.id))  # type: ignore[arg-type]

    kept, loaded = asyncio.run(scenario())
    assert loaded == kept
    assert loaded.fair.next_nonce == 1 and loaded.fair.client_seeds == ("alices",)
    log.close()


# -- the schema -------------------------------------------------------------------------------------

SCHEMA_1_LOG = """
CREATE TABLE rolls (id INTEGER PRIMARY KEY AUTOINCREMENT, room TEXT, time TEXT NOT NULL, player TEXT,
  source TEXT NOT NULL, card TEXT, row INTEGER, commitment TEXT, client_seeds TEXT NOT NULL, nonce INTEGER,
  faces TEXT NOT NULL, request TEXT NOT NULL, outcome TEXT NOT NULL);
CREATE TABLE commitments (room TEXT, commitment TEXT NOT NULL, seed TEXT, from_nonce INTEGER NOT NULL,
  to_nonce INTEGER, committed_at TEXT NOT NULL, revealed_at TEXT);
CREATE TABLE rooms (room TEXT PRIMARY KEY, server_seed TEXT NOT NULL, client_seeds TEXT NOT NULL,
  next_nonce INTEGER NOT NULL, first_nonce INTEGER NOT NULL, updated TEXT NOT NULL);
INSERT INTO rolls (room, time, source, client_seeds, faces, request, outcome)
  VALUES ('old', '2026-01-01T00:00:00+00:00', 'secure', '[]', '[[6,4]]', '{"text":"Roll a d6."}',
          '{"rolls":[{"dice":[{"sides":6,"natural":4,"result":4,"ignored":false}],"results":[4],"row":null}]}');
PRAGMA user_version = 1;
"""


def test_a_schema_1_log_is_migrated_when_it_opens(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as raw:
        raw.executescript(SCHEMA_1_LOG)
    with RollLog(path) as log:
        assert log.schema_versions() == [1, 2, 3, 4] and SCHEMA_VERSION == 4
        (old,) = log.rolls()
        assert old.faces == ((6, 4),) and old.turn is None and old.provenance.seed is None  # the rolls it had are kept
        record, _ = record_of(old, None)  # read through the codec and resolved again with their faces
        assert record.outcome is not None and faces_of(record.outcome) == old.faces
        log.save_room(Room.open("table"))
        assert log.integrity_check() == "ok"
    with RollLog(path) as log:  # opening it again changes nothing
        assert log.schema_versions() == [1, 2, 3, 4]


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    RollLog(path).close()
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA user_version = 7")
    with pytest.raises(InputError, match="schema 7"):
        RollLog(path)


def test_postgres_schema_rooms_and_export(postgres: str) -> None:
    with open_log(postgres) as log:
        assert log.schema_versions() == [2, 3, SCHEMA_VERSION] and log.shared  # schema 2 made whole, then 3 and 4
        rooms = Rooms(log, None)

        async def scenario() -> str:
            state, _ = await rooms.create()
            await rooms.join(state, "Alice")
            for _ in range(3):
                await rooms.roll(state, "p1", RollSpec.plain("d20"))
            await rooms.reveal(state)
            return state.id

        room_id = asyncio.run(scenario())
        report = verify_export(log.export_json(room_id))
        assert report.ok and len(report.verified) == 3, [c.line() for c in report.checks] + list(report.errors)
        assert [roll.turn for roll in log.rolls(room_id)] == [1, 1, 1]
        assert log.integrity_check() == "ok"
    with open_log(postgres) as again:  # migrating twice does nothing
        assert again.schema_versions() == [2, 3, SCHEMA_VERSION]


def test_postgres_locks_a_room_for_one_worker_at_a_time(postgres: str) -> None:
    with open_log(postgres) as first, open_log(postgres) as second:
        fair = Room.open("shared")
        first.create_room(fair, RoomRecord("shared", "0" * 64, fair).to_json())
        held = first.begin_room("shared", 1)
        assert held.fresh is None
        import threading

        got: list[Any] = []
        waiter = threading.Thread(target=lambda: got.append(second.begin_room("shared", 1)))
        waiter.start()
        waiter.join(timeout=0.5)
        assert waiter.is_alive()  # the second worker waits for the room's row
        held.commit([], fair.next_source()[1], RoomRecord("shared", "0" * 64, fair).to_json())
        waiter.join(timeout=10)
        (late,) = got
        assert late.fresh is not None and late.fresh.version == 2 and late.fresh.fair.next_nonce == 1
        late.abort()


# -- fan-out ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("covered", "expected"),
    [
        (5, ["two", "catch-up", "six"]),  # the database had version 5 already: 4 and 5 are not sent again
        (4, ["two", "catch-up", "five", "six"]),  # read when 4 was the latest: 5 follows it
    ],
)
def test_fanout_catches_up_on_a_missing_version_before_any_later_one(
    monkeypatch: pytest.MonkeyPatch, covered: int, expected: list[str]
) -> None:
    monkeypatch.setattr(fanout_module, "GAP_SECONDS", 0.05)
    caught_up: list[str] = []

    async def on_gap(room: str) -> tuple[int, list[str]]:
        caught_up.append(room)
        return covered, ["catch-up"]

    async def scenario() -> list[str | None]:
        fanout = Fanout(on_gap)
        socket = fanout.join("r", base=1)
        fanout.deliver("r", 2, ["two"])
        fanout.deliver("r", 4, ["four"])  # 3 has not come (its worker died after committing it, or is slow)
        fanout.deliver("r", 5, ["five"])
        for _ in range(200):  # until the catch-up is sent (a guard against a hang, not a timing claim)
            if caught_up and not fanout.rooms["r"].catching_up:
                break
            await asyncio.sleep(0.01)
        fanout.deliver("r", 3, ["three, late"])  # covered by the catch-up: never shown after later rolls
        fanout.deliver("r", 6, ["six"])
        return [socket.queue.get_nowait() for _ in range(socket.queue.qsize())]

    assert asyncio.run(scenario()) == expected
    assert caught_up == ["r"]


def test_a_slow_socket_is_dropped_not_queued_without_bound() -> None:
    async def scenario() -> tuple[int, bool, bool]:
        fanout = Fanout()
        slow, fast = fanout.join("r", base=0), fanout.join("r", base=0)
        for seq in range(1, fanout_module.SOCKET_QUEUE + 10):
            fanout.deliver("r", seq, [f"m{seq}"])
            while fast.queue.qsize():
                fast.queue.get_nowait()
        return slow.queue.qsize(), slow.dropped, slow in fanout.rooms["r"].sockets

    size, dropped, still_there = asyncio.run(scenario())
    assert size == fanout_module.SOCKET_QUEUE + 1 and dropped and not still_there  # its last item: the drop


def test_health_reports_the_database_and_the_broker(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "rolls.sqlite", rate=0))
    assert client.get("/health").json() == {"status": "ok", "database": "ok", "broker": "ok", "worker": os.getpid()}
    broken = TestClient(create_app(tmp_path / "other.sqlite", rate=0, broker="redis://127.0.0.1:9/0"))
    response = broken.get("/health")
    assert response.status_code == 503
    body = response.json()
    assert body["database"] == "ok" and body["broker"].startswith("error")


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        (["--workers", "2"], "--workers"),
        (["--broker", "http://127.0.0.1:1"], "--broker"),
        (["--broker", "redis://127.0.0.1:1/0"], "--broker"),
        (["--database", "postgresql://nobody@127.0.0.1:1/none"], "database"),
    ],
)
def test_serve_refuses_what_it_cannot_run_in_one_line(arguments: list[str], field: str, tmp_path: Path) -> None:
    import subprocess
    import sys

    command = [
        sys.executable,
        "-m",
        "mtgdice.cli",
        "serve",
        "--port",
        "1",
        "--no-cards",
        "--database",
        str(tmp_path / "r.sqlite"),
    ]
    done = subprocess.run([*command, *arguments], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"mtgdice: error: {field}") and "Traceback" not in done.stderr


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_reveals_and_rolls_in_one_batch_all_verify(
    engine: str, tmp_path: Path, catalog: Any, request: pytest.FixtureRequest
) -> None:
    database = tmp_path / "rolls.sqlite" if engine == "sqlite" else request.getfixturevalue("postgres")
    with open_log(database) as log:
        rooms = Rooms(log, catalog)

        async def scenario() -> str:
            state, _ = await rooms.create()
            await rooms.api_roll(state, dict(SPELLBOOK))
            roll, reveal = (lambda: rooms.api_roll(state, dict(SPELLBOOK))), (lambda: rooms.reveal(state))
            await asyncio.gather(roll(), reveal(), roll(), reveal(), roll())  # together: one batch, one transaction
            await rooms.reveal(state)
            return state.id

        room_id = asyncio.run(scenario())
        exported = log.export_json(room_id)
        report = verify_export(exported, cards=catalog)
        assert report.ok and len(report.verified) == 4, [check.line() for check in report.checks]
        spans = [(c["from_nonce"], c["to_nonce"]) for c in exported["commitments"]]
        # Each seed's nonces, one after another, and the one in use now. (An API roll's request is
        # compiled in a worker before it joins the room's queue, so the reveals may come first.)
        assert len(spans) == 4 and spans[0][0] == 0 and spans[-1] == (4, None)
        assert all(end == start for (_, end), (start, _) in zip(spans, spans[1:], strict=False))


# -- issue 12: empty rooms, deadlines -------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_an_empty_room_goes_after_minutes_and_a_used_one_stays(
    engine: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    from mtgdice.web.rooms import EMPTY_ROOM_S

    log = open_log(tmp_path / "rolls.sqlite" if engine == "sqlite" else request.getfixturevalue("postgres"))
    rooms = Rooms(log, None)

    async def scenario() -> tuple[list[str], int, int]:
        empty, _ = await rooms.create()
        joined, _ = await rooms.create()
        await rooms.join(joined, "Alice")
        rolled, _ = await rooms.create()
        await rooms.api_roll(rolled, {"text": "Roll a d6."})
        young = await rooms.sweep()  # nothing is old enough yet
        old = await rooms.sweep(older_than=0)
        return [empty.id, joined.id, rolled.id], young, old

    (empty, joined, rolled), young, old = asyncio.run(scenario())
    assert EMPTY_ROOM_S <= 15 * 60 and (young, old) == (0, 1)
    assert log.load_room_state(empty) is None and empty not in rooms.rooms
    assert log.commitments(empty) == []  # its unused commitment went with it
    assert log.load_room_state(joined) is not None and log.load_room_state(rolled) is not None
    log.close()


def test_a_roll_over_its_deadline_spends_no_nonce(tmp_path: Path) -> None:
    from mtgdice.rules.budget import Budget
    from mtgdice.rules.errors import RollLimitError

    log = RollLog(tmp_path / "rolls.sqlite")
    rooms = Rooms(log, None, budget=Budget(dice=10**12, options=10**12, seconds=0.5))
    endless = {"text": "Roll 10000 d6. If you roll a 6, repeat this process."}

    async def scenario() -> Any:
        state, _ = await rooms.create()
        with pytest.raises(RollLimitError, match="took more than the 0.5 s"):
            await rooms.api_roll(state, dict(endless))
        return await rooms.api_roll(state, {"text": "Roll a d6."})

    after = asyncio.run(scenario())
    assert after.proof.nonce == 0 and [roll.nonce for roll in log.rolls()] == [0]
    log.close()


def test_a_roll_in_a_batch_does_not_wait_for_a_heavy_roll_after_it(tmp_path: Path) -> None:
    from mtgdice.rules.budget import Budget
    from mtgdice.rules.errors import RollLimitError

    log = RollLog(tmp_path / "rolls.sqlite")
    rooms = Rooms(log, None, budget=Budget(dice=10**12, options=10**12, seconds=3.0))
    endless = {"text": "Roll 10000 d6. If you roll a 6, repeat this process."}
    seen: dict[str, Any] = {}

    async def scenario() -> tuple[Any, Any]:
        state, _ = await rooms.create()

        async def quick() -> Any:
            answer = await rooms.api_roll(state, {"text": "Roll a d6."})
            seen["heavy done"] = heavy.done()  # when the quick roll was answered
            return answer

        quick_answer = asyncio.ensure_future(quick())  # queued together, the quick roll first: one batch
        heavy = asyncio.ensure_future(rooms.api_roll(state, dict(endless)))
        try:
            heavy_answer: Any = await heavy
        except RollLimitError as error:
            heavy_answer = error
        return await quick_answer, heavy_answer

    quick, heavy = asyncio.run(scenario())
    assert quick.proof.nonce == 0  # committed without the heavy roll ...
    assert seen == {"heavy done": False}  # ... and answered while the heavy roll was still to be answered
    assert isinstance(heavy, RollLimitError) and "took more than the 3 s" in str(
        heavy
    )  # it led the next batch, to its deadline
    assert [roll.nonce for roll in log.rolls()] == [0]
    log.close()
