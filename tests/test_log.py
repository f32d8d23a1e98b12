"""The roll log (mtgdice.log.store): real SQLite files, durability, export, replay, the CLI."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mtgdice.cli import cli as app
from mtgdice.errors import InputError
from mtgdice.fair.commit import GENESIS, Room, seed_hash
from mtgdice.io.record import commitment_json, logged_request, shown
from mtgdice.log import Proof, RollLog, RollRecord, default_db_path, replay, verify_export
from mtgdice.rules import PlanarFace, ScriptedSource
from mtgdice.rules.plain import DiceGroup, PlainRoll, roll_plain
from rolling import record
from shared_data import shared_path

D6 = {"text": "Roll a d6."}
PLANAR = {"text": "Roll the planar die."}


def scripted(dice: tuple[int, ...] = (), planar: tuple[str, ...] = ()) -> ScriptedSource:
    return ScriptedSource(dice, planar)


def plain_record(face: int = 4) -> RollRecord:
    source, plain = ScriptedSource([face]), PlainRoll((DiceGroup(1, 6),))
    return RollRecord.of(plain, roll_plain(plain, source), source)


@pytest.fixture
def log(tmp_path: Path) -> Any:
    with RollLog(tmp_path / "rolls.sqlite") as opened:
        yield opened


def fill_room(log: RollLog, requests: list[dict[str, Any]], cards: Any = None, room_id: str = "table") -> Room:
    room = Room.open(room_id, ("alice", "bob"))
    log.save_room(room)
    for request in requests:
        source, room = room.next_source()
        record(log, request, cards, source, room=room_id, player="alice")
    return room


# -- appending and reading --------------------------------------------------------------------------


def test_pragmas_and_schema(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folder" / "rolls.sqlite"
    RollLog(path).close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert raw.execute("PRAGMA user_version").fetchone()[0] == 4  # schema 4: each roll's seed
    with RollLog(path) as log:
        assert log._connection.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL: survives a power cut
        assert log.integrity_check() == "ok"


def test_normal_sync_on_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MTGDICE_LOG_SYNC", "normal")
    with RollLog(tmp_path / "rolls.sqlite") as log:
        assert log._connection.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL: survives SIGKILL


def test_append_get_list(log: RollLog) -> None:
    first = record(log, D6, None, scripted((4,)), player="alice")
    second = record(log, PLANAR, None, scripted(planar=("chaos",)), room="t")
    assert (first, second) == (1, 2)
    roll = log.get(first)
    assert roll.faces == ((6, 4),) and logged_request(roll) == D6 and roll.player == "alice" and roll.room is None
    assert roll.time.endswith("+00:00") and roll.nonce is None and shown(roll).results == ((4,),)
    assert roll.source == "scripted" and roll.provenance.seed is None
    assert log.get(second).faces == (("planar", PlanarFace.CHAOS),)
    assert [r.id for r in log.list()] == [2, 1]
    assert [r.id for r in log.list(room="t")] == [2]
    assert [r.id for r in log.list(limit=1)] == [2]
    with pytest.raises(InputError, match="no roll 99"):
        log.get(99)


def test_card_and_row_are_kept_for_listing(log: RollLog, catalog: Any) -> None:
    request = {"card": "Berserker's Frenzy", "battlefield": ["Pixie Guide"]}
    roll_id = record(log, request, catalog, scripted((20, 7, 3)))
    roll = log.get(roll_id)
    assert roll.card == "Berserker's Frenzy"
    assert roll.row == 1 and roll.faces == ((20, 20), (20, 7), (20, 3))


def test_a_seeded_roll_keeps_its_seed(log: RollLog) -> None:
    from mtgdice.rules import SeededSource

    roll_id = record(log, D6, None, SeededSource(1234))
    roll = log.get(roll_id)
    assert roll.source == "seeded" and roll.provenance.seed == 1234


def test_rows_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "rolls.sqlite"
    with RollLog(path) as log:
        room = fill_room(log, [D6, PLANAR, D6])
    with RollLog(path) as log:
        rolls = list(log.rolls("table"))
        assert [roll.nonce for roll in rolls] == [0, 1, 2]
        assert rolls[0].commitment == room.commitment and rolls[0].client_seeds == ("alice", "bob")


def test_bad_faces_and_commitment_inputs(log: RollLog) -> None:
    good = plain_record()
    with pytest.raises(InputError, match=r"faces\[0\]"):
        log.append(dataclasses.replace(good, faces=((6, 7),)))
    for proof, field in ((Proof("ab" * 32, (), -1), "nonce"), (Proof("xyz", (), 0), "commitment")):
        with pytest.raises(InputError, match=field):
            log.append(dataclasses.replace(good, provenance=dataclasses.replace(good.provenance, proof=proof)))
    assert log.list() == []


def test_a_nonce_is_logged_once(log: RollLog) -> None:
    room = Room.open("table")
    source = room.source()
    record(log, D6, None, source, room="table")
    with pytest.raises(InputError, match="already logged"):
        record(log, D6, None, source, room="table")
    assert len(log.list()) == 1


def test_reveal(log: RollLog) -> None:
    room = fill_room(log, [D6, D6])
    reveal, room = room.rotate()
    assert log.record_reveal("table", reveal.seed) == reveal.commitment
    [entry] = [commitment_json(logged) for logged in log.commitments("table")]
    assert entry == {
        "commitment": reveal.commitment, "seed_hash": seed_hash(reveal.seed), "covers": GENESIS,
        "seed": reveal.seed.hex(), "from_nonce": 0, "to_nonce": 2, "count": 2,
        "chain": log.chain_head("table"), "room": "table",
    }  # fmt: skip
    assert entry["chain"] != GENESIS and entry["chain"] == log.export_json("table")["rolls"][-1]["chain"]
    with pytest.raises(InputError, match="never used"):
        log.record_reveal("table", bytes(32))
    with pytest.raises(InputError, match="never used"):
        log.record_reveal("other room", reveal.seed)


def test_export_json_is_what_verify_reads(log: RollLog) -> None:
    room = fill_room(log, [D6, PLANAR, D6])
    record(log, D6, None, scripted((2,)), room="elsewhere")
    data = log.export_json("table")
    assert data["room"] == "table" and [roll["nonce"] for roll in data["rolls"]] == [0, 1, 2]
    assert set(data["rolls"][0]) >= {"id", "nonce", "client_seeds", "request", "outcome", "faces"}
    assert data["commitments"][0]["seed"] is None
    assert verify_export(data).summary() == "0 verified, 0 bad, 3 unverifiable, of 3 rolls"
    reveal, room = room.rotate()
    log.record_reveal("table", reveal.seed, reveal.end_nonce)
    report = verify_export(json.loads(json.dumps(log.export_json("table"))))
    assert report.ok and len(report.verified) == 3
    assert len(log.export_json(None)["rolls"]) == 4


def test_export_csv(log: RollLog) -> None:
    fill_room(log, [D6, PLANAR])
    buffer = io.StringIO()
    assert log.export_csv("table", buffer) == 2
    rows = list(csv.DictReader(io.StringIO(buffer.getvalue())))
    assert [row["nonce"] for row in rows] == ["0", "1"]
    assert json.loads(rows[1]["faces"])[0][0] == "planar"
    assert json.loads(rows[0]["request"]) == D6
    assert rows[0]["player"] == "alice" and rows[0]["source"] == "commit-reveal"


def test_default_db_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MTGDICE_DB", str(tmp_path / "x.sqlite"))
    assert default_db_path() == tmp_path / "x.sqlite"
    monkeypatch.delenv("MTGDICE_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "mtgdice" / "rolls.sqlite"


def test_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "junk.sqlite"
    path.write_bytes(b"not sqlite at all" * 100)
    with pytest.raises(InputError, match="cannot open the roll log"):
        RollLog(path)


# -- replay -----------------------------------------------------------------------------------------


def test_replay_reproduces_every_logged_outcome(log: RollLog, catalog: Any) -> None:
    requests = [
        {"card": "Berserker's Frenzy", "battlefield": ["Pixie Guide"]},
        {"card": "Berserker's Frenzy", "battlefield": ["Krark's Other Thumb"], "choices": [1]},
        {"text": "Roll a d20. If you roll 1, roll again."},
        PLANAR,
    ] * 5
    fill_room(log, requests, catalog)
    results = list(replay(log.rolls(), catalog))
    assert len(results) == 20 and all(result.same for result in results), [r.line() for r in results]


def test_replay_reports_a_changed_outcome(log: RollLog, catalog: Any) -> None:
    roll_id = record(log, D6, None, scripted((4,)))
    extra = record(log, D6, None, scripted((4,)))
    with sqlite3.connect(log.path) as raw:  # the file edited by hand
        outcome = json.loads(raw.execute("SELECT outcome FROM rolls WHERE id = ?", (roll_id,)).fetchone()[0])
        outcome["rolls"][0]["results"] = [5]
        raw.execute("UPDATE rolls SET outcome = ? WHERE id = ?", (json.dumps(outcome), roll_id))
        raw.execute("UPDATE rolls SET faces = '[[6,4],[6,1]]' WHERE id = ?", (extra,))
    raw.close()
    results = {result.id: result for result in replay(log.rolls(), catalog)}
    assert results[roll_id].differences == ("rolls[0].results[0]: logged 5, now 4",)
    assert "1 of 2 logged faces left unused" in results[extra].line()


# -- durability -------------------------------------------------------------------------------------

CHILD = textwrap.dedent(
    """
    import sys
    from mtgdice.fair.commit import Room
    from mtgdice.io.jsonio import request_from_json
    from mtgdice.log import RollLog
    from mtgdice.game.request import resolve_request
    from mtgdice.rules import ScriptedChooser

    def record(log, request, cards, source, **where):
        typed = request_from_json(request, cards)
        return log.record(typed, resolve_request(typed, cards, source, ScriptedChooser()), source, **where)

    log = RollLog(sys.argv[1])
    room = Room.open("table", ("alice",))
    request = {"text": "Roll two d20 and ignore the lower roll."}
    while True:
        source, room = room.next_source()
        roll_id = record(log, request, None, source, room="table")
        print(roll_id, flush=True)
    """
)


def test_acknowledged_rolls_survive_sigkill(tmp_path: Path) -> None:
    path = tmp_path / "rolls.sqlite"
    script = tmp_path / "child.py"
    script.write_text(CHILD, encoding="utf-8")
    child = subprocess.Popen([sys.executable, str(script), str(path)], stdout=subprocess.PIPE, text=True)
    acknowledged: list[int] = []
    assert child.stdout is not None
    try:
        deadline = time.monotonic() + 180  # a guard against a stalled child, not a timing claim
        while len(acknowledged) < 150 and time.monotonic() < deadline:
            line = child.stdout.readline()
            if not line:
                break
            acknowledged.append(int(line))
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    acknowledged += [int(line) for line in child.stdout.read().split()]
    child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    assert len(acknowledged) >= 150, f"only {len(acknowledged)} rolls acknowledged: the child stalled"
    with RollLog(path) as log:
        assert log.integrity_check() == "ok"
        logged = {roll.id for roll in log.rolls()}
        assert set(acknowledged) <= logged
        assert verify_export(log.export_json("table")).bad == ()


def test_append_rate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Not a benchmark gate: every append is a durable commit, so this is bounded by fsync."""
    rolled = plain_record()
    with RollLog(tmp_path / "rolls.sqlite") as log:
        start = time.perf_counter()
        for _ in range(200):
            log.append(rolled)
        elapsed = time.perf_counter() - start
        assert len(list(log.rolls())) == 200  # 200 appends, 200 rows: the work done
    with capsys.disabled():
        print(f"\n  roll log: {200 / elapsed:.0f} durable appends/s (reported, not asserted)")


# -- the CLI ----------------------------------------------------------------------------------------

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path, catalog: Any) -> Path:
    path = tmp_path / "rolls.sqlite"
    with RollLog(path) as log:
        room = fill_room(log, [{"card": "Berserker's Frenzy"}, PLANAR, D6], catalog)
        reveal, room = room.rotate()
        log.record_reveal("table", reveal.seed, reveal.end_nonce)
    return path


def test_cli_log_list_show_export(db: Path, tmp_path: Path) -> None:
    listed = runner.invoke(app, ["log", "list", "--db", str(db)], env={"COLUMNS": "160"})
    assert listed.exit_code == 0 and "Berserker's Frenzy" in listed.output and "commit-reveal" in listed.output
    as_json = runner.invoke(app, ["log", "list", "--db", str(db), "--json", "--limit", "2"])
    assert [roll["id"] for roll in json.loads(as_json.output)] == [3, 2]
    shown = runner.invoke(app, ["log", "show", "2", "--db", str(db)])
    assert json.loads(shown.output)["faces"][0][0] == "planar"
    out = tmp_path / "table.json"
    exported = runner.invoke(app, ["log", "export", "--db", str(db), "--room", "table", "-o", str(out)])
    assert exported.exit_code == 0 and len(json.loads(out.read_text())["rolls"]) == 3
    as_csv = runner.invoke(app, ["log", "export", "--db", str(db), "--format", "csv"])
    assert as_csv.output.splitlines()[0].startswith("id,time,room")
    assert len(as_csv.output.strip().splitlines()) == 4


def test_cli_log_errors(db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MTGDICE_DB", str(db))
    assert runner.invoke(app, ["log", "list"]).exit_code == 0
    missing = runner.invoke(app, ["log", "list", "--db", str(tmp_path / "none.sqlite")])
    assert missing.exit_code == 2 and "no roll log" in missing.output
    assert not (tmp_path / "none.sqlite").exists()
    bad_format = runner.invoke(app, ["log", "export", "--format", "xml"])
    assert bad_format.exit_code == 2 and "json or csv" in bad_format.output
    unknown = runner.invoke(app, ["log", "show", "42"])
    assert unknown.exit_code == 2 and "no roll 42" in unknown.output


def test_cli_replay(db: Path) -> None:
    cards = str(shared_path("cards", "dice-cards.json"))
    same = runner.invoke(app, ["replay", "--db", str(db), "--cards", cards])
    assert same.exit_code == 0, same.output
    assert "3 of 3 rolls replay" in same.output
    with sqlite3.connect(db) as raw:
        outcome = json.loads(raw.execute("SELECT outcome FROM rolls WHERE id = 3").fetchone()[0])
        outcome["rolls"][0]["results"] = [99]
        raw.execute("UPDATE rolls SET outcome = ? WHERE id = 3", (json.dumps(outcome),))
    changed = runner.invoke(app, ["replay", "--db", str(db), "--cards", cards])
    assert changed.exit_code == 1 and "roll 3: differs: rolls[0].results[0]: logged 99" in changed.output


def test_cli_replay_without_card_data_says_what_it_could_not_check(db: Path, tmp_path: Path) -> None:
    no_cards = {
        "MTGDICE_CARDS": None,
        "MTGDICE_INDEX": str(tmp_path / "no-index.sqlite"),
        "MTGDICE_EMBEDDED_CARDS": "0",
    }
    result = runner.invoke(app, ["replay", "--db", str(db)], env=no_cards)
    assert result.exit_code == 3, result.output
    assert "2 of 3 rolls replay" in result.output  # the planar die and the d6 need no card data
    assert "1 rolls not checked" in result.output and "mtgdice cards import" in result.output
    assert "error" not in result.output


# -- room state -------------------------------------------------------------------------------------


def test_room_state_survives_a_restart_and_never_reuses_a_nonce(tmp_path: Path) -> None:
    path = tmp_path / "rolls.sqlite"
    with RollLog(path) as log:
        room = Room.open("table", ("alice",))
        log.save_room(room)
        for _ in range(3):
            source, room = room.next_source()
            record(log, D6, None, source, room="table")
        # The server dies here without saving the room again.
    with RollLog(path) as log:
        loaded = log.load_room("table")
        assert loaded is not None
        assert (loaded.next_nonce, loaded.commitment, loaded.client_seeds) == (3, room.commitment, ("alice",))
        assert log.commitments("table")[0].seed is None
        assert all(entry["seed"] is None for entry in log.export_json("table")["commitments"])
        reveal, rotated = loaded.rotate()
        log.record_reveal("table", reveal.seed, reveal.end_nonce)
        log.save_room(rotated)
    with RollLog(path) as log:
        again = log.load_room("table")
        assert again is not None and (again.first_nonce, again.next_nonce) == (3, 3)
        assert [entry.to_nonce for entry in log.commitments("table")] == [3, None]
        assert log.load_room("elsewhere") is None
        assert verify_export(log.export_json("table")).ok


WRITER = textwrap.dedent(
    """
    import sys
    from mtgdice.fair.commit import Room
    from mtgdice.io.jsonio import request_from_json
    from mtgdice.log import RollLog
    from mtgdice.game.request import resolve_request
    from mtgdice.rules import ScriptedChooser

    def record(log, request, cards, source, **where):
        typed = request_from_json(request, cards)
        return log.record(typed, resolve_request(typed, cards, source, ScriptedChooser()), source, **where)

    log = RollLog(sys.argv[1])
    room = Room.open(sys.argv[2])
    log.save_room(room)
    request = {"text": "Roll a d20."}
    for _ in range(int(sys.argv[3])):
        source, room = room.next_source()
        record(log, request, None, source, room=sys.argv[2])
    """
)


def test_processes_share_one_log(tmp_path: Path) -> None:
    path = tmp_path / "rolls.sqlite"
    script = tmp_path / "writer.py"
    script.write_text(WRITER, encoding="utf-8")
    RollLog(path).close()
    writers = [subprocess.Popen([sys.executable, str(script), str(path), f"room-{n}", "60"]) for n in range(3)]
    assert [writer.wait(timeout=120) for writer in writers] == [0, 0, 0]
    with RollLog(path) as log:
        assert log.rooms() == ["room-0", "room-1", "room-2"]
        assert [len(list(log.rolls(f"room-{n}"))) for n in range(3)] == [60, 60, 60]
        assert log.integrity_check() == "ok"


def test_no_roll_under_a_revealed_seed(log: RollLog) -> None:
    room = fill_room(log, [D6])
    reveal, _ = room.rotate()
    log.record_reveal("table", reveal.seed, reveal.end_nonce)
    source = room.source()  # the old room, by mistake
    with pytest.raises(InputError, match="already revealed"):
        record(log, D6, None, source, room="table")


# -- what logging a plain roll loads ---------------------------------------------------------------

PROBE = """
import json, sys
from mtgdice.cli import main
try:
    main(["roll", "d20"])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def test_logging_a_plain_roll_loads_no_magic_rules_nor_the_request_reader(tmp_path: Path) -> None:
    """``roll d20`` writes its record through the codec, which loads neither the request reader,
    the compiler, the resolver of Magic rolls, nor verify."""
    env = {**os.environ, "MTGDICE_DB": str(tmp_path / "rolls.sqlite")}
    run = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60, env=env)
    modules = set(json.loads(run.stderr.strip().splitlines()[-1]))
    assert {"mtgdice.io.record", "mtgdice.log.store"} <= modules  # it was logged, through the codec
    heavy = ("mtgdice.io.jsonio", "mtgdice.game.request", "mtgdice.text.compiler", "mtgdice.rules.resolution",
             "mtgdice.rules.coins", "mtgdice.log.verify", "pydantic", "msgspec")  # fmt: skip
    assert sorted(name for name in modules if name.startswith(heavy)) == []
    with RollLog(tmp_path / "rolls.sqlite") as log:
        (roll,) = log.rolls()
    assert roll.source == "secure" and len(roll.faces) == 1 and roll.faces[0][0] == 20


# -- one record, to the log and back ---------------------------------------------------------------

ROUND_TRIP = [
    {"text": "Roll a d20. If you roll 1, roll again."},
    {"text": "Roll two d20 and ignore the lower roll.", "battlefield": [{"text": "Whenever you roll a 20, draw."}]},
    {"kind": "coin"},
    {"kind": "planar", "action": True, "planar_actions": 2},
    {"kind": "dice", "notation": "2d10"},
    {"card": "Berserker's Frenzy", "battlefield": ["Pixie Guide", "Krark's Other Thumb"], "choices": [1, 0]},
]


@pytest.mark.parametrize("request_object", ROUND_TRIP, ids=lambda r: str(r.get("text") or r.get("card") or r["kind"]))
def test_a_record_comes_back_from_the_log_as_it_went_in(
    log: RollLog, catalog: Any, request_object: dict[str, Any]
) -> None:
    from mtgdice.game.request import resolve_request
    from mtgdice.io.jsonio import request_from_json
    from mtgdice.io.outcome import outcome_json
    from mtgdice.log import faces_of, record_of
    from mtgdice.rules import ScriptedChooser, SeededSource

    request = request_from_json(request_object, catalog)
    for seed in range(4):
        source = SeededSource(seed)
        outcome = resolve_request(request, catalog, source, ScriptedChooser(request.choices))
        written = RollRecord.of(request, outcome, source, room="table", player="alice", turn=3)
        logged = log.get(log.append(written, cards=catalog))
        back, _ = record_of(logged, catalog)
        assert back.request == request and back.provenance == written.provenance == logged.provenance
        assert back.faces == written.faces == faces_of(outcome) and back.outcome is not None
        assert outcome_json(back.outcome) == outcome_json(outcome)
        assert written.provenance.seed == seed and written.provenance.source.value == "seeded"
