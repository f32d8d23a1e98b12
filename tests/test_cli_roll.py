"""``mtgdice roll`` for people: each die's natural result, its modifiers, ignored dice and the row."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

MTGDICE = str(Path(sys.executable).with_name("mtgdice"))


def roll(*args: str) -> str:
    run = subprocess.run([MTGDICE, "roll", *args], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_a_card_roll_shows_natural_modifiers_ignored_dice_and_the_row(cards_path: str) -> None:
    text = roll(
        "--cards",
        cards_path,
        "--card",
        "Hoarding Ogre",
        "--with",
        "Pixie Guide; Squirrel-Powered Scheme",
        "--seed",
        "11",
        "--no-ask",
    )
    assert "Hoarding Ogre" in text and "ignored" in text
    assert "natural" in text and "Squirrel-Powered Scheme" in text  # the counted die's +2 and its source
    assert "Row " in text or "No row" in text
    assert "Dice source: seeded" in text


def test_plain_dice_planar_and_coin() -> None:
    text = roll("--seed", "3", "2d10", "planar", "coin")
    assert text.count("d10") >= 2 and "planar die" in text and "Coin:" in text


def test_every_roll_is_logged_and_replays(cards_path: str, tmp_path: Path) -> None:
    db = str(tmp_path / "rolls.sqlite")
    roll("--db", db, "--seed", "4", "2d10", "coin")
    roll("--db", db, "--cards", cards_path, "--card", "Hoarding Ogre", "--with", "Pixie Guide", "--no-ask")
    listed = subprocess.run([MTGDICE, "log", "list", "--db", db], capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0 and "Hoarding Ogre" in listed.stdout and "2d10" in listed.stdout
    replayed = subprocess.run(
        [MTGDICE, "replay", "--db", db, "--cards", cards_path], capture_output=True, text=True, timeout=60
    )
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "3 of 3 rolls replay" in replayed.stdout


def test_no_log_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "rolls.sqlite"
    roll("--db", str(db), "--no-log", "d20")
    assert not db.exists()


def test_a_decision_nobody_was_asked_is_named_with_what_was_taken(cards_path: str) -> None:
    args = ["--no-log", "--seed", "3", "--cards", cards_path, "--card", "Wizard's Spellbook", "--with"]
    command = [MTGDICE, "roll", *args, "Xenosquirrels+2"]
    quiet = subprocess.run(command, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert quiet.returncode == 0, quiet.stderr
    note = " ".join(quiet.stderr.split())
    assert "Not asked (no terminal): 1 decision(s) taken by policy 'best'" in note
    assert "Use Xenosquirrels" in note and "-> no" in note and "--choices" in note and "--policy" in note
    assert len(quiet.stderr.strip().splitlines()) == 1  # said once
    answered = subprocess.run(
        [*command, "--choices", "[false]"], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
    )
    assert answered.returncode == 0 and "Not asked" not in answered.stderr


def test_a_roll_is_in_the_log_before_it_is_shown(tmp_path: Path) -> None:
    """Killed while it prints, ``mtgdice roll`` has already logged the roll: its stdout is a pipe
    filled beforehand, so its first write blocks; the roll must be in the log while it is blocked."""
    import fcntl
    import os
    import signal
    import sqlite3
    import time

    db = tmp_path / "rolls.sqlite"
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETFL, os.O_NONBLOCK)
    try:
        while True:
            os.write(write_end, b"x" * 4096)
    except BlockingIOError:
        pass
    fcntl.fcntl(write_end, fcntl.F_SETFL, 0)  # the child's writes block, as on a terminal that does not read
    child = subprocess.Popen([MTGDICE, "roll", "--db", str(db), "--seed", "7", "d20"], stdout=write_end)
    os.close(write_end)
    logged = 0
    deadline = time.monotonic() + 60
    while child.poll() is None and time.monotonic() < deadline and not logged:
        time.sleep(0.1)
        if db.exists():
            with sqlite3.connect(db) as raw:
                try:
                    logged = raw.execute("SELECT count(*) FROM rolls").fetchone()[0]
                except sqlite3.OperationalError:  # the schema is being created
                    pass
    blocked = child.poll() is None
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=10)
    shown = b""
    while chunk := os.read(read_end, 65536):
        shown += chunk
    os.close(read_end)
    assert blocked, "the command ended: it did not block on its output"
    assert logged == 1  # in the log while its output had not gone out
    assert shown.strip(b"x") == b""  # and nothing of it was shown


def test_a_decision_nobody_answers_keeps_the_rollers_best_die(cards_path: str) -> None:
    """Krark's Other Thumb with no terminal and no --choices: the stated policy keeps the better die
    of the pair, a natural 20 included (taking the first option ignored the first die, 20 or not);
    --policy decline takes the first option."""
    base = [MTGDICE, "roll", "--no-log", "--json", "--cards", cards_path, "--card", "Hoarding Ogre"]
    base += ["--with", "Krark's Other Thumb"]

    def dice(*more: str) -> list[dict[str, Any]]:
        run = subprocess.run([*base, *more], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        assert run.returncode == 0, run.stderr
        found: list[dict[str, Any]] = json.loads(run.stdout)["rolls"][0]["dice"]
        return found

    from mtgdice.rules import Die, SeededSource

    def faces(seed: int) -> list[object]:
        source = SeededSource(seed)
        return [source.roll(Die(20)), source.roll(Die(20))]

    natural_twenty = next(seed for seed in range(10_000) if faces(seed)[0] == 20 and faces(seed)[1] != 20)
    rolled = dice("--seed", str(natural_twenty))
    assert [die["natural"] for die in rolled] == faces(natural_twenty)
    assert not rolled[0]["ignored"] and rolled[1]["ignored"]  # the roller's best of the pair: the 20
    declined = dice("--seed", str(natural_twenty), "--policy", "decline")
    assert declined[0]["natural"] == 20 and declined[0]["ignored"]
