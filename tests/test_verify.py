"""Verifying exported room logs (mtgdice.log.verify and ``mtgdice verify``): every tampering the
issue lists — faces, outcomes (results, row, ignored dice, triggers), card, player, a roll removed
in the middle or at the end with ``to_nonce`` lowered, rolls reordered, a whole log forged with a
new seed — makes it fail, and a commitment a player copied pins the log."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mtgdice.cli import cli as app
from mtgdice.errors import InputError
from mtgdice.fair.commit import GENESIS, Room, commitment, derive_faces, draw_json, new_seed, seed_hash
from mtgdice.io.jsonio import resolve_json
from mtgdice.io.record import roll_hash
from mtgdice.log import RollLog, Status, verify_export
from mtgdice.rules import Die, ScriptedSource
from rolling import record
from shared_data import shared_path

REQUESTS: list[dict[str, Any]] = [
    {"card": "Berserker's Frenzy", "battlefield": ["Pixie Guide"]},
    {"card": "Berserker's Frenzy", "battlefield": ["Krark's Other Thumb"]},
    {"text": "Roll a d20. If you roll 1, roll again."},
    {"text": "Roll the planar die."},
    {"text": "Roll a d6."},
]
runner = CliRunner()


def room_log(tmp_path: Path, catalog: Any, rolls: int = 10, reveal: bool = True, after: int = 0) -> dict[str, Any]:
    """An honest exported log: ``rolls`` rolls under one seed, revealed or not, then ``after`` more
    under the next seed (its commitment covers the first seed's rolls)."""
    with RollLog(tmp_path / "rolls.sqlite") as log:
        room = Room.open("table", ("alice", "bob"))
        log.save_room(room)
        for number in range(rolls):
            source, room = room.next_source()
            record(log, REQUESTS[number % len(REQUESTS)], catalog, source, room="table", player="bob", hashes=True)
        if reveal:
            revealed, room = room.logged(log.chain_head("table")).rotate()
            log.record_reveal("table", revealed)
            log.save_room(room)
            for number in range(after):
                source, room = room.next_source()
                record(log, REQUESTS[number % len(REQUESTS)], catalog, source, room="table", player="bob")
        return json.loads(json.dumps(log.export_json("table")))


def check(data: dict[str, Any], catalog: Any, pinned: str | None = None) -> Any:
    return verify_export(data, cards=catalog, pinned=pinned)


def forge(data: dict[str, Any], commitments_too: bool = True) -> dict[str, Any]:
    """What a forger who holds the seeds does after changing a log: every hash made to agree again
    (each roll's chain, and unless told not to each commitment's ``covers`` and value, each reveal's
    chain and count)."""
    head = GENESIS
    commitments = sorted(data["commitments"], key=lambda c: c["from_nonce"])
    for position, committed in enumerate(commitments):
        old = committed["commitment"]
        if commitments_too:
            committed["covers"] = head
            committed["commitment"] = commitment(committed["seed_hash"], committed["from_nonce"], head)
        for roll in data["rolls"]:
            if roll["commitment"] == old:
                roll["commitment"] = committed["commitment"]
                roll["chain"] = head = roll_hash(head, roll)
        if committed["seed"] is not None and commitments_too:
            committed["chain"] = head
            committed["count"] = committed["to_nonce"] - committed["from_nonce"]
        if position + 1 < len(commitments) and committed["to_nonce"] is not None:
            commitments[position + 1]["from_nonce"] = committed["to_nonce"]
    return data


def first_numbered(data: dict[str, Any]) -> tuple[int, int]:
    """(roll index, face index) of the first numbered face in the log."""
    for i, roll in enumerate(data["rolls"]):
        for j, (sides, _) in enumerate(roll["faces"]):
            if sides != "planar":
                return i, j
    raise AssertionError("no numbered face")


# -- honest logs ------------------------------------------------------------------------------------


def test_honest_log_verifies(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog, after=3)
    report = check(data, catalog)
    assert not report.failed and report.errors == () and report.warnings == ()
    assert report.summary() == "10 verified, 0 bad, 3 unverifiable, of 13 rolls"  # 3 under the open seed
    assert [c["count"] for c in data["commitments"]] == [10, None]
    assert data["commitments"][1]["covers"] == data["rolls"][9]["chain"] == data["commitments"][0]["chain"]
    pinned = check(data, catalog, pinned=data["commitments"][1]["commitment"])
    assert not pinned.failed and pinned.pinned == data["commitments"][1]["commitment"]


def test_an_honest_log_without_reveal_after_it(tmp_path: Path, catalog: Any) -> None:
    report = check(room_log(tmp_path, catalog), catalog)
    assert report.ok and report.summary() == "10 verified, 0 bad, 0 unverifiable, of 10 rolls"


def test_unrevealed_seed_is_unverifiable_not_valid(tmp_path: Path, catalog: Any) -> None:
    report = check(room_log(tmp_path, catalog, reveal=False), catalog)
    assert not report.ok and report.bad == () and len(report.unverifiable) == 10
    assert "unverifiable until reveal" in report.unverifiable[0].line()


def test_without_card_data_rolls_naming_cards_are_unverifiable(tmp_path: Path, catalog: Any) -> None:
    report = verify_export(room_log(tmp_path, catalog))
    assert not report.failed and len(report.unverifiable) == 4  # 4 of 10 rolls name Berserker's Frenzy
    assert all("--cards" in check.reason for check in report.unverifiable)


def test_card_data_with_another_text_is_not_taken_for_the_room_s(tmp_path: Path, catalog: Any) -> None:
    from mtgdice.cards.catalog import CardCatalog

    changed = [dict(card) for card in json.loads(Path(shared_path("cards", "dice-cards.json")).read_text())]
    for card in changed:
        if card["name"] == "Pixie Guide":
            card["oracle_text"] = card["oracle_text"].replace("plus one", "plus two")
    path = tmp_path / "other-cards.json"
    path.write_text(json.dumps(changed), encoding="utf-8")
    report = verify_export(room_log(tmp_path, catalog), cards=CardCatalog.from_path(str(path)))
    assert not report.failed and not report.ok
    assert any("is not the one the room used" in check.reason for check in report.unverifiable)


# -- faces, outcomes, fields ------------------------------------------------------------------------


def test_one_altered_face_is_caught(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    i, j = first_numbered(data)
    sides, face = data["rolls"][i]["faces"][j]
    data["rolls"][i]["faces"][j][1] = face % sides + 1
    report = check(data, catalog)
    assert len(report.bad) == 1 and len(report.verified) == 9
    line = report.bad[0].line()
    roll_id = data["rolls"][i]["id"]
    assert line.startswith(f"roll {roll_id} (nonce {data['rolls'][i]['nonce']}): bad: face {j + 1} is ")
    assert f"the revealed seed gives {face} on a d{sides}" in line


def test_an_altered_die_in_the_outcome_is_caught(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    die = data["rolls"][2]["outcome"]["rolls"][0]["dice"][0]
    die["natural"] = die["natural"] % 20 + 1
    [bad] = check(data, catalog).bad
    assert bad.id == data["rolls"][2]["id"] and "rolls[0].dice[0].natural: logged" in bad.reason


def test_an_altered_planar_face_is_caught(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    roll = data["rolls"][3]
    roll["faces"][0][1] = "chaos" if roll["faces"][0][1] != "chaos" else "blank"
    [bad] = check(data, catalog).bad
    assert "planar die" in bad.reason


def edit_results(roll: dict[str, Any]) -> None:
    roll["outcome"]["rolls"][0]["results"] = [99]


def edit_row(roll: dict[str, Any]) -> None:
    execution = roll["outcome"]["rolls"][0]
    execution["row"] = 0 if execution["row"] != 0 else 1


def edit_ignored(roll: dict[str, Any]) -> None:
    for die in roll["outcome"]["rolls"][0]["dice"]:
        die["ignored"] = not die["ignored"]


def edit_triggers(roll: dict[str, Any]) -> None:
    roll["outcome"]["triggers"] = [*roll["outcome"].get("triggers", []), "Critical Hit"]


def edit_card(roll: dict[str, Any]) -> None:
    roll["request"]["card"] = "Ancient Copper Dragon"
    del roll["request"]["oracle_hash"]  # kept, it would not be the new card's: unverifiable, exit 3


def test_a_card_edited_with_its_old_text_hash_is_not_verified(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    data["rolls"][0]["request"]["card"] = "Ancient Copper Dragon"
    report = check(forge(data), catalog)
    assert not report.ok and report.checks[0].status is Status.UNVERIFIABLE


def edit_modifier(roll: dict[str, Any]) -> None:
    die = roll["outcome"]["rolls"][0]["dice"][0]
    die["result"] = die["natural"] + 3
    die["modifiers"] = [{"delta": 3, "source": "Fake"}]


@pytest.mark.parametrize("edit", [edit_results, edit_row, edit_ignored, edit_triggers, edit_card, edit_modifier])
def test_an_outcome_edited_with_the_faces_kept_is_caught_even_with_its_hashes_made_to_agree(
    tmp_path: Path, catalog: Any, edit: Any
) -> None:
    data = room_log(tmp_path, catalog, after=2)
    edited = copy.deepcopy(data)
    edit(edited["rolls"][0])  # Berserker's Frenzy with Pixie Guide: a row, an ignored die
    [bad] = check(edited, catalog).bad
    assert bad.id == data["rolls"][0]["id"]
    rechained = check(forge(copy.deepcopy(edited), commitments_too=False), catalog)
    assert any("covers the chain" in error for error in rechained.errors)  # the next seed covers the old chain
    forged = forge(copy.deepcopy(edited))
    report = check(forged, catalog)
    assert [check_.id for check_ in report.bad] == [data["rolls"][0]["id"]] and report.errors == ()
    assert "resolv" in report.bad[0].reason


def test_the_player_edited_is_caught_by_the_chain_and_a_forged_chain_by_the_pinned_commitment(
    tmp_path: Path, catalog: Any
) -> None:
    data = room_log(tmp_path, catalog, after=2)
    pinned = data["commitments"][1]["commitment"]
    edited = copy.deepcopy(data)
    edited["rolls"][4]["player"] = "alice"
    report = check(edited, catalog)
    assert [c.id for c in report.bad] == [data["rolls"][4]["id"]] and "hash" in report.bad[0].reason
    rechained = check(forge(copy.deepcopy(edited), commitments_too=False), catalog)
    assert rechained.bad == () and any("covers the chain" in error for error in rechained.errors)
    forged = forge(edited)
    assert not check(forged, catalog).failed  # a forger who rewrites every hash: only a pin finds it
    caught = check(forged, catalog, pinned=pinned)
    assert caught.failed and "not in this log" in caught.errors[0]


# -- rolls removed, moved, added --------------------------------------------------------------------


def test_a_roll_removed_in_the_middle_fails(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    del data["rolls"][5]
    report = check(data, catalog)
    assert report.failed and any("nonce 5" in error for error in report.errors)
    assert report.bad and "hash" in report.bad[0].reason  # the roll after it no longer follows
    assert check(forge(data), catalog).failed  # the gap stays whatever the hashes say


def test_the_last_roll_removed_and_to_nonce_lowered_fails(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog, after=1)
    del data["rolls"][9]
    first, _ = data["commitments"]
    first["to_nonce"], first["count"] = 9, 9
    report = check(data, catalog)
    assert report.failed
    assert any("starts at nonce 10, not 9" in error for error in report.errors)
    assert any("revealed with the chain" in error or "covers the chain" in error for error in report.errors)
    # With no seed after it, the reveal's own chain and count still give it away:
    alone = room_log(tmp_path / "b", catalog)
    del alone["rolls"][9]
    alone["commitments"][0]["to_nonce"] = 9
    assert check(alone, catalog).failed


def test_rolls_reordered_fail(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    data["rolls"][2], data["rolls"][3] = data["rolls"][3], data["rolls"][2]
    report = check(data, catalog)
    assert report.failed and {c.id for c in report.bad} >= {data["rolls"][2]["id"], data["rolls"][3]["id"]}


def test_a_duplicated_roll_fails(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    data["rolls"].append({**data["rolls"][4], "id": 99})
    bad = {c.id: c.reason for c in check(data, catalog).bad}
    assert "already used by roll" in bad[99]


def test_a_whole_log_forged_with_a_new_seed_passes_only_without_the_commitment_the_players_saw(
    tmp_path: Path, catalog: Any
) -> None:
    """The server keeps every request, draws a new seed and writes a new log with new faces."""
    data = room_log(tmp_path, catalog)
    shown = data["commitments"][0]["commitment"]
    seed = new_seed()
    forged = copy.deepcopy(data)
    forged["commitments"][0].update(seed=seed.hex(), seed_hash=seed_hash(seed))
    for roll in forged["rolls"]:
        dice = [Die(None if sides == "planar" else sides) for sides, _ in roll["faces"]]
        faces = derive_faces(seed, roll["client_seeds"], roll["nonce"], dice)
        roll["faces"] = [draw_json((sides, face)) for (sides, _), face in zip(roll["faces"], faces, strict=True)]
        roll["outcome"] = resolve_json({**_request(roll), "dice": _numbers(roll), "planar": _planar(roll)}, catalog)
    forge(forged)
    assert not check(forged, catalog).failed
    assert check(forged, catalog, pinned=shown).failed


def _request(roll: dict[str, Any]) -> dict[str, Any]:
    from mtgdice.io.record import without_card_hashes

    return without_card_hashes(roll["request"])


def _numbers(roll: dict[str, Any]) -> list[int]:
    return [face for sides, face in roll["faces"] if sides != "planar"]


def _planar(roll: dict[str, Any]) -> list[str]:
    return [face for sides, face in roll["faces"] if sides == "planar"]


def test_a_wrong_seed_rejects_every_roll_under_it(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    data["commitments"][0]["seed"] = bytes(32).hex()
    report = check(data, catalog)
    assert len(report.bad) == 10
    assert all("does not hash to commitment" in check_.reason for check_ in report.bad)
    assert any("is not the one committed to" in error for error in report.errors)


def test_missing_dice_and_extra_dice(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    short = copy.deepcopy(data)
    short["rolls"][0]["faces"].pop()
    assert "bad" in check(short, catalog).checks[0].line()
    dropped = copy.deepcopy(data)
    dropped["rolls"][0]["outcome"]["rolls"][0]["dice"].pop()
    assert "rolls[0].dice: logged 2 items, now 3" in check(dropped, catalog).bad[0].reason


def test_a_log_without_a_hash_chain_is_not_proved(tmp_path: Path, catalog: Any) -> None:
    """The minimal format (no commitment field, no chain) is matched by nonce range, and proves less."""
    data = room_log(tmp_path, catalog)
    keep = {"id", "nonce", "client_seeds", "request", "outcome", "faces"}
    minimal = {
        "room": data["room"],
        "commitments": [
            {k: c[k] for k in ("commitment", "seed", "from_nonce", "to_nonce")} for c in data["commitments"]
        ],
        "rolls": [{k: v for k, v in roll.items() if k in keep} for roll in data["rolls"]],
    }
    report = check(minimal, catalog)
    assert len(report.verified) == 0 and report.bad  # the commitment is not the seed's hash alone
    old_style = copy.deepcopy(minimal)
    seed = bytes.fromhex(data["commitments"][0]["seed"])
    old_style["commitments"][0]["commitment"] = seed_hash(seed)  # as logs made before the chain were
    report = check(old_style, catalog)
    assert not report.failed and not report.ok and len(report.verified) == 10
    assert "no hash chain" in report.unproven[0] and "before it" in report.warnings[0]
    claimed = {**old_style, "format": "mtgdice-room-log/2"}
    assert check(claimed, catalog).failed  # a log that says it has a chain must have one


def test_commitments_follow_each_other_from_nonce_0(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog, after=1)
    late = copy.deepcopy(data)
    late["commitments"][0]["from_nonce"] = 1
    assert any("starts at nonce 1, not 0" in error for error in check(late, catalog).errors)
    unrevealed = copy.deepcopy(data)
    unrevealed["commitments"][0].update(seed=None, to_nonce=None)
    assert check(unrevealed, catalog).failed


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([], "log"),
        ({"rolls": []}, "commitments"),
        ({"commitments": [], "rolls": {}}, "rolls"),
        ({"commitments": [{"commitment": "xy"}], "rolls": []}, "commitments[0].commitment"),
        ({"commitments": [{"commitment": "a" * 64, "seed": "zz", "from_nonce": 0}], "rolls": []}, "seed"),
        ({"commitments": [{"commitment": "a" * 64, "covers": "zz"}], "rolls": []}, "commitments[0].covers"),
        ({"commitments": [], "rolls": [3]}, "rolls[0]"),
    ],
)
def test_malformed_logs_are_input_errors(data: Any, field: str) -> None:
    with pytest.raises(InputError, match=field.replace("[", r"\[").replace("]", r"\]")):
        verify_export(data)


def test_other_sources_are_replayed_not_verified(tmp_path: Path) -> None:
    """A roll of another source has no commitment: verify resolves it again from its faces."""
    with RollLog(tmp_path / "rolls.sqlite") as log:
        record(log, {"text": "Roll a d6."}, None, ScriptedSource([3]), room="t")
        data = json.loads(json.dumps(log.export_json("t")))
    report = verify_export(data)
    assert report.checks[0].status is Status.REPLAYED and "scripted" in report.checks[0].reason
    assert report.ok and report.summary() == "0 verified, 1 replayed, 0 bad, 0 unverifiable, of 1 rolls"
    data["rolls"][0]["outcome"]["rolls"][0]["results"] = [4]
    [bad] = verify_export(data).bad
    assert "rolls[0].results[0]: logged 4, now 3" in bad.reason


def test_faces_compare_strictly_and_commitments_are_unique(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog, rolls=1)
    roll = data["rolls"][0]
    sneaky = copy.deepcopy(data)
    sneaky["rolls"][0]["faces"][0][1] = float(roll["faces"][0][1])
    assert check(sneaky, catalog).bad
    twice = copy.deepcopy(data)
    twice["commitments"].append(dict(twice["commitments"][0]))
    with pytest.raises(InputError, match="listed twice"):
        verify_export(twice)


# -- the command ------------------------------------------------------------------------------------


def write(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def cards() -> list[str]:
    return ["--cards", str(shared_path("cards", "dice-cards.json"))]


def test_cli_verify_accepts_an_honest_log(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    result = runner.invoke(app, ["verify", write(tmp_path, data), *cards()])
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == "10 verified, 0 bad, 0 unverifiable, of 10 rolls"
    assert "--commitment" in result.output  # the hint: nothing pinned
    pinned = runner.invoke(
        app, ["verify", write(tmp_path, data), *cards(), "--commitment", data["commitments"][0]["commitment"]]
    )
    assert pinned.exit_code == 0 and "pinned" in pinned.output


def test_cli_verify_rejects_one_altered_face(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    i, j = first_numbered(data)
    sides, face = data["rolls"][i]["faces"][j]
    data["rolls"][i]["faces"][j][1] = face % sides + 1
    result = runner.invoke(app, ["verify", write(tmp_path, data), *cards()])
    assert result.exit_code == 1
    bad_lines = [line for line in result.output.splitlines() if ": bad: " in line]
    assert len(bad_lines) == 1 and bad_lines[0].startswith(f"roll {data['rolls'][i]['id']} ")
    assert f"face {j + 1} is" in bad_lines[0]


def test_cli_verify_rejects_a_wrong_seed_a_removed_roll_and_a_wrong_pin(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog, rolls=4)
    wrong = copy.deepcopy(data)
    wrong["commitments"][0]["seed"] = "00" * 32
    result = runner.invoke(app, ["verify", write(tmp_path, wrong), "--json", *cards()])
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert [roll["status"] for roll in report["rolls"]] == ["bad"] * 4 and report["ok"] is False
    removed = copy.deepcopy(data)
    del removed["rolls"][1]
    result = runner.invoke(app, ["verify", write(tmp_path, removed), *cards()])
    assert result.exit_code == 1 and "error: " in result.output and "nonce 1" in result.output
    result = runner.invoke(app, ["verify", write(tmp_path, data), *cards(), "--commitment", "ab" * 32])
    assert result.exit_code == 1 and "not in this log" in result.output
    result = runner.invoke(app, ["verify", write(tmp_path, data), "--commitment", "xyz"])
    assert result.exit_code == 2 and "--commitment" in result.output


def test_cli_verify_unrevealed_and_bad_input(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog, rolls=3, reveal=False)
    result = runner.invoke(app, ["verify", write(tmp_path, data), *cards()])
    assert result.exit_code == 3 and result.output.count("unverifiable until reveal") == 3
    (tmp_path / "junk.json").write_text("{not json", encoding="utf-8")
    junk = runner.invoke(app, ["verify", str(tmp_path / "junk.json")])
    assert junk.exit_code == 2 and "not valid JSON" in junk.output
    missing = runner.invoke(app, ["verify", str(tmp_path / "missing.json")])
    assert missing.exit_code == 2 and "cannot read" in missing.output


# -- found by review: a pin defeated by removing `covers`, coins, a roll of another room, huge nonces ---


def test_removing_covers_from_a_commitment_does_not_defeat_the_pin(tmp_path: Path, catalog: Any) -> None:
    """The last roll removed, the reveal lowered and the hashes recomputed, and the next commitment's
    `covers` deleted (so its value is never checked): the pinned commitment still fails the log."""
    data = room_log(tmp_path, catalog, after=1)
    first, second = data["commitments"]
    pinned = second["commitment"]
    del data["rolls"][9]
    first["to_nonce"], first["count"] = 9, 9
    forge(data, commitments_too=False)
    first["chain"] = data["rolls"][8]["chain"]
    second["from_nonce"] = 9
    del second["covers"]
    report = check(data, catalog, pinned=pinned)
    assert report.failed and any("binds neither its seed hash nor the chain" in error for error in report.errors)
    del second["seed_hash"]  # an attacker's "pre-chain" commitment in a chained log
    assert check(data, catalog, pinned=pinned).failed


def test_a_pre_chain_commitment_is_not_reported_as_pinning_rolls(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    data.pop("format", None)
    committed = data["commitments"][0]
    for key in ("seed_hash", "covers"):
        committed.pop(key)
    report = check(data, catalog, pinned=committed["commitment"])
    assert any("binds no chain" in error for error in report.errors)


def test_a_room_log_with_coins_and_plain_dice_verifies(tmp_path: Path, catalog: Any) -> None:
    requests: list[dict[str, Any]] = [
        {"kind": "coin"},
        {
            "kind": "coin",
            "call": "heads",
            "battlefield": [
                {"name": "Thumb", "text": "If you would flip a coin, instead flip two coins and ignore one."}
            ],
        },
        {"kind": "plain", "notation": "4d6dl1+2"},
        {"kind": "plain", "notation": "2dF"},
    ]
    with RollLog(tmp_path / "rolls.sqlite") as log:
        room = Room.open("table", ("alice",))
        log.save_room(room)
        for request in requests:
            source, room = room.next_source()
            record(log, request, catalog, source, room="table", player="alice")
        revealed, room = room.logged(log.chain_head("table")).rotate()
        log.record_reveal("table", revealed)
        log.save_room(room)
        data = json.loads(json.dumps(log.export_json("table")))
    report = check(data, catalog)
    assert report.ok, [check.line() for check in report.bad] + list(report.errors)
    flipped = copy.deepcopy(data)
    coin = flipped["rolls"][0]["outcome"]["flip"]["coins"][0]
    coin["side"] = "tails" if coin["side"] == "heads" else "heads"
    assert check(flipped, catalog).failed


def test_a_roll_moved_to_a_room_without_commitments_is_bad_not_a_crash(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    data["rolls"][3]["room"] = "another"
    report = check(data, catalog)
    assert report.failed and any(c.id == data["rolls"][3]["id"] and c.status is Status.BAD for c in report.bad)


def test_a_huge_to_nonce_is_reported_without_building_its_range(tmp_path: Path, catalog: Any) -> None:
    data = room_log(tmp_path, catalog)
    data["commitments"][0]["to_nonce"] = 10**15
    data["commitments"][0]["count"] = None
    report = check(data, catalog)  # would need petabytes if the range were built
    assert report.failed and any("nonce 10, 11, 12" in error and "more" in error for error in report.errors)
    data["commitments"][0]["to_nonce"] = -5
    assert check(data, catalog).failed


def test_an_export_read_in_pieces_is_one_snapshot(tmp_path: Path, catalog: Any) -> None:
    """A reveal and a roll that land while an export is being streamed are not half in it."""
    with RollLog(tmp_path / "rolls.sqlite") as log:
        room = Room.open("table", ("alice",))
        log.save_room(room)
        for number in range(3):
            source, room = room.next_source()
            record(log, REQUESTS[number % len(REQUESTS)], catalog, source, room="table", player="alice")
        revealed, room = room.logged(log.chain_head("table")).rotate()
        log.record_reveal("table", revealed)
        log.save_room(room)
        pieces = log.export_text("table", batch=1)
        head = next(pieces)  # the head is out: commitments and the last roll it covers
        revealed, room = room.logged(log.chain_head("table")).rotate()
        log.record_reveal("table", revealed)
        log.save_room(room)
        source, room = room.next_source()
        record(log, {"text": "Roll a d6."}, catalog, source, room="table", player="alice")
        streamed = json.loads(head + "".join(pieces))
        assert len(streamed["rolls"]) == 3 and len(streamed["commitments"]) == 2
        assert check(streamed, catalog).ok
        assert len(log.export_json("table")["rolls"]) == 4  # the next export has the new roll


def test_the_cli_s_own_log_export_passes_verify(tmp_path: Path) -> None:
    """End to end on a real SQLite file: rolls of the CLI (no commitment) are exported and verified
    by replaying their faces; exit 0, with one line saying what was not proved. An edited outcome fails."""
    db = str(tmp_path / "rolls.sqlite")
    env = {"MTGDICE_DB": db, "MTGDICE_CARDS": str(shared_path("cards", "dice-cards.json"))}
    rolls = [
        ["roll", "d20"],
        ["roll", "--seed", "7", "3d6+2", "4dF"],
        ["roll", "coin"],
        ["roll", "planar"],
        ["roll", "--card", "Berserker's Frenzy", "--with", "Pixie Guide", "--no-ask"],
    ]
    for args in rolls:
        rolled = runner.invoke(app, args, env=env)
        assert rolled.exit_code == 0, rolled.output
    exported = tmp_path / "cli.json"
    assert runner.invoke(app, ["log", "export", "-o", str(exported)], env=env).exit_code == 0
    data = json.loads(exported.read_text(encoding="utf-8"))
    assert [roll["source"] for roll in data["rolls"]] == ["secure", "seeded", "seeded", "secure", "secure", "secure"]
    result = runner.invoke(app, ["verify", str(exported), *cards()], env=env)
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[-1] == "0 verified, 6 replayed, 0 bad, 0 unverifiable, of 6 rolls"
    assert [line for line in lines if line.startswith("note:")] == [
        "note: 6 rolls have no commitment (the CLI's or another source's): nothing proves their faces fair; each "
        "was resolved again from its faces and gives its logged outcome"
    ]
    data["rolls"][0]["outcome"]["terms"][0]["rolls"][0]["face"] = 21
    edited = runner.invoke(app, ["verify", write(tmp_path, data), *cards()], env=env)
    assert edited.exit_code == 1 and "roll 1: bad: resolved again" in edited.output
