"""Verifying exported room logs (mtgdice.log.verify and ``mtgdice verify``)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mtgdice.cli import cli as app
from mtgdice.errors import InputError
from mtgdice.fair import Room
from mtgdice.jsonio import resolve_json
from mtgdice.log import RollLog, Status, verify_export
from rolling import record

REQUESTS: list[dict[str, Any]] = [
    {"card": "Berserker's Frenzy", "battlefield": ["Pixie Guide"]},
    {"card": "Berserker's Frenzy", "battlefield": ["Krark's Other Thumb"]},
    {"text": "Roll a d20. If you roll 1, roll again."},
    {"text": "Roll the planar die."},
    {"text": "Roll a d6."},
]
runner = CliRunner()


def room_log(tmp_path: Path, catalog: Any, rolls: int = 10, reveal: bool = True) -> dict[str, Any]:
    """An honest exported log: ``rolls`` rolls under one seed, revealed or not, then one more seed."""
    with RollLog(tmp_path / "rolls.sqlite") as log:
        room = Room.open("table", ("alice", "bob"))
        log.record_commitment("table", room.commitment, room.first_nonce)
        for number in range(rolls):
            request = REQUESTS[number % len(REQUESTS)]
            source, room = room.next_source()
            record(log, request, catalog, source, room="table", player="bob")
        if reveal:
            revealed, room = room.rotate()
            log.record_reveal("table", revealed.seed, revealed.end_nonce)
            log.record_commitment("table", room.commitment, room.first_nonce)
        return json.loads(json.dumps(log.export_json("table")))


def first_numbered(data: dict[str, Any]) -> tuple[int, int]:
    """(roll index, face index) of the first numbered face in the log."""
    for i, roll in enumerate(data["rolls"]):
        for j, (sides, _) in enumerate(roll["faces"]):
            if sides != "planar":
                return i, j
    raise AssertionError("no numbered face")


def test_honest_log_verifies(tmp_path: Path, catalog: Any) -> None:
    report = verify_export(room_log(tmp_path, catalog))
    assert report.ok and len(report.verified) == 10 and report.warnings == ()
    assert report.summary() == "10 verified, 0 bad, 0 unverifiable, of 10 rolls"


def test_unrevealed_seed_is_unverifiable_not_valid(tmp_path: Path, catalog: Any) -> None:
    report = verify_export(room_log(tmp_path, catalog, reveal=False))
    assert not report.ok and report.bad == () and len(report.unverifiable) == 10
    assert "unverifiable until reveal" in report.unverifiable[0].line()


def test_one_altered_face_is_caught(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    i, j = first_numbered(data)
    sides, face = data["rolls"][i]["faces"][j]
    data["rolls"][i]["faces"][j][1] = face % sides + 1
    report = verify_export(data)
    assert len(report.bad) == 1 and len(report.verified) == 9
    line = report.bad[0].line()
    roll_id = data["rolls"][i]["id"]
    assert line.startswith(f"roll {roll_id} (nonce {data['rolls'][i]['nonce']}): bad: face {j + 1} is ")
    assert f"the revealed seed gives {face} on a d{sides}" in line


def test_an_altered_outcome_is_caught(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    die = data["rolls"][2]["outcome"]["rolls"][0]["dice"][0]
    die["natural"] = die["natural"] % 20 + 1
    [bad] = verify_export(data).bad
    assert bad.id == data["rolls"][2]["id"] and "outcome die 1 shows" in bad.reason


def test_an_altered_planar_face_is_caught(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    roll = data["rolls"][3]
    roll["faces"][0][1] = "chaos" if roll["faces"][0][1] != "chaos" else "blank"
    [bad] = verify_export(data).bad
    assert "planar die" in bad.reason


def test_a_wrong_seed_rejects_every_roll_under_it(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    data["commitments"][0]["seed"] = bytes(32).hex()
    report = verify_export(data)
    assert len(report.bad) == 10
    assert all("does not hash to commitment" in check.reason for check in report.bad)


def test_a_wrong_seed_that_also_matches_a_forged_commitment_is_caught(tmp_path: Path, catalog: Any) -> None:
    """A forger who replaces seed and commitment together still fails: the faces do not follow."""
    from mtgdice.fair import commitment

    data = room_log(tmp_path, catalog)
    forged = bytes(32)
    old = data["commitments"][0]["commitment"]
    data["commitments"][0].update(seed=forged.hex(), commitment=commitment(forged))
    for roll in data["rolls"]:
        roll["commitment"] = commitment(forged) if roll["commitment"] == old else roll["commitment"]
    report = verify_export(data)
    expected_bad = {
        roll["id"] for roll in data["rolls"] if [list(pair) for pair in roll["faces"]] != forged_faces(forged, roll)
    }
    assert {check.id for check in report.bad} == expected_bad and len(expected_bad) >= 4
    assert {check.id for check in report.verified} == {roll["id"] for roll in data["rolls"]} - expected_bad


def forged_faces(seed: bytes, roll: dict[str, Any]) -> list[list[Any]]:
    """The faces a forged seed gives a roll (a single planar die can match by chance: 4/6 blank)."""
    from mtgdice.fair import derive_faces, draw_json
    from mtgdice.rules import Die

    dice = [Die(None if sides == "planar" else sides) for sides, _ in roll["faces"]]
    faces = derive_faces(seed, roll["client_seeds"], roll["nonce"], dice)
    return [
        draw_json(("planar" if die.sides is None else die.sides, face)) for die, face in zip(dice, faces, strict=True)
    ]


def test_missing_dice_and_extra_dice(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    short = copy.deepcopy(data)
    short["rolls"][0]["faces"].pop()
    assert "bad" in verify_export(short).checks[0].line()
    dropped = copy.deepcopy(data)
    dropped["rolls"][0]["outcome"]["rolls"][0]["dice"].pop()
    assert "faces were drawn" in verify_export(dropped).bad[0].reason


def test_duplicated_roll_and_left_out_rolls(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    duplicated = copy.deepcopy(data)
    duplicated["rolls"].append({**duplicated["rolls"][4], "id": 99})
    [bad] = verify_export(duplicated).bad
    assert bad.id == 99 and "already used by roll" in bad.reason
    gapped = copy.deepcopy(data)
    del gapped["rolls"][5]
    report = verify_export(gapped)
    assert report.ok and report.warnings and "nonce 5" in report.warnings[0]


def test_log_in_the_minimal_documented_format(tmp_path: Path, catalog: Any) -> None:
    """Rolls without a commitment field are matched to a seed by nonce range."""
    data = room_log(tmp_path, catalog)
    keep = {"id", "nonce", "client_seeds", "request", "outcome", "faces"}
    minimal = {
        "room": data["room"],
        "commitments": [
            {k: c[k] for k in ("commitment", "seed", "from_nonce", "to_nonce")} for c in data["commitments"]
        ],
        "rolls": [{k: v for k, v in roll.items() if k in keep} for roll in data["rolls"]],
    }
    assert verify_export(minimal).ok
    minimal["commitments"][0]["to_nonce"] = 3
    report = verify_export(minimal)
    assert {check.status for check in report.checks[3:]} == {Status.BAD}
    assert "0 commitments cover nonce 3" in report.checks[3].reason


def test_other_sources_are_unverifiable(tmp_path: Path) -> None:
    with RollLog(tmp_path / "rolls.sqlite") as log:
        request = {"text": "Roll a d6."}
        log.append(request=request, outcome=resolve_json({**request, "dice": [3]}, None), source="scripted", room="t")
        report = verify_export(log.export_json("t"))
    assert report.checks[0].status is Status.UNVERIFIABLE and "scripted" in report.checks[0].reason


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([], "log"),
        ({"rolls": []}, "commitments"),
        ({"commitments": [], "rolls": {}}, "rolls"),
        ({"commitments": [{"commitment": "xy"}], "rolls": []}, "commitments[0].commitment"),
        ({"commitments": [{"commitment": "a" * 64, "seed": "zz", "from_nonce": 0}], "rolls": []}, "seed"),
        ({"commitments": [], "rolls": [3]}, "rolls[0]"),
    ],
)
def test_malformed_logs_are_input_errors(data: Any, field: str) -> None:
    with pytest.raises(InputError, match=field.replace("[", r"\[").replace("]", r"\]")):
        verify_export(data)


# -- the command ------------------------------------------------------------------------------------


def write(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_cli_verify_accepts_an_honest_log(tmp_path: Path, catalog: Any) -> None:
    result = runner.invoke(app, ["verify", write(tmp_path, room_log(tmp_path, catalog))])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "10 verified, 0 bad, 0 unverifiable, of 10 rolls"


def test_cli_verify_rejects_one_altered_face(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    i, j = first_numbered(data)
    sides, face = data["rolls"][i]["faces"][j]
    data["rolls"][i]["faces"][j][1] = face % sides + 1
    result = runner.invoke(app, ["verify", write(tmp_path, data)])
    assert result.exit_code == 1
    bad_lines = [line for line in result.output.splitlines() if ": bad: " in line]
    assert bad_lines == [line for line in bad_lines if line.startswith(f"roll {data['rolls'][i]['id']} ")]
    assert len(bad_lines) == 1 and f"face {j + 1} is" in bad_lines[0]


def test_cli_verify_rejects_a_wrong_seed(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog, rolls=4)
    data["commitments"][0]["seed"] = "00" * 32
    result = runner.invoke(app, ["verify", write(tmp_path, data), "--json"])
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert [roll["status"] for roll in report["rolls"]] == ["bad"] * 4 and report["ok"] is False


def test_cli_verify_unrevealed_and_bad_input(tmp_path: Path, catalog: Any) -> None:
    result = runner.invoke(app, ["verify", write(tmp_path, room_log(tmp_path, catalog, rolls=3, reveal=False))])
    assert result.exit_code == 3 and result.output.count("unverifiable until reveal") == 3
    (tmp_path / "junk.json").write_text("{not json", encoding="utf-8")
    junk = runner.invoke(app, ["verify", str(tmp_path / "junk.json")])
    assert junk.exit_code == 2 and "not valid JSON" in junk.output
    missing = runner.invoke(app, ["verify", str(tmp_path / "missing.json")])
    assert missing.exit_code == 2 and "cannot read" in missing.output


def test_faces_compare_strictly_and_commitments_are_unique(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog, rolls=1)
    roll = data["rolls"][0]
    sneaky = copy.deepcopy(data)
    sneaky["rolls"][0]["faces"][0][1] = float(roll["faces"][0][1])
    assert verify_export(sneaky).bad
    twice = copy.deepcopy(data)
    twice["commitments"].append(dict(twice["commitments"][0]))
    with pytest.raises(InputError, match="listed twice"):
        verify_export(twice)
