"""``mtgdice roll --card`` at the whole table: other seats' zones, the roller and controller, the
turn's memory across rolls, waiting replacements; bad flags are one line naming the flag, exit 2,
and nothing is logged."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

MTGDICE = str(Path(sys.executable).with_name("mtgdice"))


def roll(cards_path: str, *args: str, db: Path | None = None) -> subprocess.CompletedProcess[str]:
    log = ["--db", str(db)] if db is not None else ["--no-log"]
    command = [MTGDICE, "roll", "--cards", cards_path, *log, *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)


def outcome(cards_path: str, *args: str) -> dict[str, Any]:
    run = roll(cards_path, "--json", *args)
    assert run.returncode == 0, run.stderr
    found: dict[str, Any] = json.loads(run.stdout)
    return found


def test_another_seat_rolls_with_its_own_permanents(cards_path: str) -> None:
    # GO TO JAIL: "that player rolls"; seat 1's Pixie Guide adds a die, seat 0's Brazen Dwarf sees nothing.
    got = outcome(
        cards_path, "--card", "GO TO JAIL", "--roller", "1", "--with", "Brazen Dwarf",
        "--seat", "1:battlefield=Pixie Guide; Brazen Dwarf", "--seed", "4",
    )  # fmt: skip
    dice = got["rolls"][0]["dice"]
    assert len(dice) == 3 and sum(die["ignored"] for die in dice) == 1
    assert {die.get("roller") for die in dice} == {"opponent"}
    assert got["triggers"] == ["Brazen Dwarf"]
    assert got["turn"]["dice_rolled"] == [0, 2]


def first_faces(seed: int, count: int) -> list[int]:
    """The first d20 faces ``roll --seed`` draws (the seeded source, drawn here in process)."""
    from mtgdice.rules import Die, SeededSource

    source = SeededSource(seed)
    return [int(source.roll(Die(20))) for _ in range(count)]  # type: ignore[arg-type]


def test_a_graveyard_of_another_seat_acts_only_for_its_owner(cards_path: str) -> None:
    seed = next(seed for seed in range(10_000) if first_faces(seed, 1) == [20])
    got = outcome(
        cards_path, "--card", "Hoarding Ogre", "--seat", "1:graveyard=Critical Hit; Critical Hit", "--seed", str(seed)
    )
    assert got["rolls"][0]["dice"][0]["natural"] == 20 and got["triggers"] == []
    mine = outcome(cards_path, "--card", "Hoarding Ogre", "--graveyard", "Critical Hit", "--seed", str(seed))
    assert mine["triggers"] == ["Critical Hit"]


def test_the_turn_is_written_and_read_back(cards_path: str, tmp_path: Path) -> None:
    first, second = tmp_path / "turn1.json", tmp_path / "turn2.json"
    outcome(cards_path, "--card", "Hoarding Ogre", "--with", "Pixie Guide", "--seed", "1", "--turn-out", str(first))
    assert json.loads(first.read_text())["dice_rolled"] == [1, 0]  # the ignored die never happened
    outcome(cards_path, "--card", "Hoarding Ogre", "--turn", str(first), "--seed", "2", "--turn-out", str(second))
    assert json.loads(second.read_text())["dice_rolled"] == [2, 0]


def test_a_pending_replacement_is_used_up(cards_path: str, tmp_path: Path) -> None:
    # Pixie Guide's replacement as if it waited, controlled by seat 1 and targeting seat 0.
    got = outcome(cards_path, "--card", "Hoarding Ogre", "--pending", "1>0:Pixie Guide", "--seed", "3")
    assert len(got["rolls"][0]["dice"]) == 2 and got["pending"] == []
    untouched = outcome(cards_path, "--card", "Hoarding Ogre", "--pending", "0>1:Pixie Guide", "--seed", "3")
    assert len(untouched["rolls"][0]["dice"]) == 1
    assert [item["card"] for item in untouched["pending"]] == ["Pixie Guide"]


BAD = [
    (["--card", "Hoarding Ogre", "--controller", "3"], "--controller"),
    (["--card", "GO TO JAIL", "--roller", "2"], "--roller"),
    (["--card", "Hoarding Ogre", "--roller", "1"], "--roller"),
    (["--card", "Hoarding Ogre", "--seat", "9:graveyard=Critical Hit"], "--seat '9:graveyard=Critical Hit'"),
    (["--card", "Hoarding Ogre", "--seat", "1:hand=Critical Hit"], "--seat '1:hand=Critical Hit'"),
    (["--card", "Hoarding Ogre", "--seat", "1:graveyard=Critical Hitt"], "--seat 1:graveyard 'Critical Hitt'"),
    (["--card", "Hoarding Ogre", "--seat", "2=Pixie Guide", "--players", "2"], "--players"),
    (["--card", "Hoarding Ogre", "--pending", "0>1:Critical Hit"], "--pending '0>1:Critical Hit'"),
    (["--card", "Hoarding Ogre", "--pending", "Pixie Guide"], "--pending 'Pixie Guide'"),
    (["--card", "Hoarding Ogre", "--pending", "0>5:Pixie Guide"], "--pending '0>5:Pixie Guide'"),
    (["--card", "Hoarding Ogre", "--players", "9"], "--players"),
    (["--card", "Hoarding Ogre", "--with", "Pixie Guide@0"], "--with 'Pixie Guide@0'"),
]


@pytest.mark.parametrize(("args", "flag"), BAD, ids=[flag for _, flag in BAD])
def test_bad_table_flags(cards_path: str, tmp_path: Path, args: list[str], flag: str) -> None:
    db = tmp_path / "rolls.sqlite"
    run = roll(cards_path, *args, db=db)
    assert run.returncode == 2, (run.stdout, run.stderr)
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr and flag in lines[0], run.stderr
    if db.exists():
        with sqlite3.connect(db) as connection:
            tables = {row[0] for row in connection.execute("select name from sqlite_master where type = 'table'")}
            logged = connection.execute("select count(*) from rolls").fetchone()[0] if "rolls" in tables else 0
        assert logged == 0


TOO_MANY = [
    (["--players", "10"], "--players", "1<=x<=8"),
    (["--players", str(10**17)], "--players", "1<=x<=8"),
    (["--seat", "8=Pixie Guide"], "--seat '8=Pixie Guide'", "at most 8 players"),
]


@pytest.mark.parametrize(("args", "flag", "bound"), TOO_MANY, ids=["ten", "huge", "ninth-seat"])
def test_the_table_is_bounded_at_the_flags(cards_path: str, args: list[str], flag: str, bound: str) -> None:
    run = roll(cards_path, "--card", "Hoarding Ogre", *args)
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 2 and len(lines) == 1, run.stderr
    assert flag in lines[0] and bound in lines[0], run.stderr


def test_a_bad_turn_file_names_the_flag_and_the_field(cards_path: str, tmp_path: Path) -> None:
    turn = tmp_path / "turn.json"
    turn.write_text(json.dumps({"dice_roled": [1]}))
    run = roll(cards_path, "--card", "Hoarding Ogre", "--turn", str(turn))
    assert run.returncode == 2 and f"--turn {turn}" in run.stderr and "dice_roled" in run.stderr, run.stderr
