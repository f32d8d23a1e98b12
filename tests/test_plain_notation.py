"""One notation everywhere: the plain-dice reader (rerolls, explosions, repeats, labels, multiplying),
its limits, and the same reading in the command line, the JSON API and a room's dice box."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mtgdice.io.render import plain_lines
from mtgdice.rules.errors import InputError, RollLimitError
from mtgdice.rules.plain import MAX_PLAIN_DRAWS, roll_plain
from mtgdice.rules.sources import ScriptedSource, SeededSource
from mtgdice.text.notation import instruction_text, parse_plain

# notation, scripted faces, the totals they give, what each drawn die became (k kept, d dropped, r rerolled, x exploded)
CASES = [
    ("4d6r1", [1, 1, 3, 4, 5, 6], [18], "r r k k k k"),
    ("4d6ro1", [1, 1, 3, 4, 5], [13], "r k k k k"),
    ("3d6r<3", [2, 5, 1, 2, 6, 4], [15], "r k r r k k"),
    ("2d6r<=2", [3, 2, 2, 6], [9], "k r r k"),
    ("3d6!", [6, 6, 2, 3, 4], [21], "k x x k k"),
    ("2d6!>4", [5, 6, 1, 2], [14], "k x x k"),
    ("2d10!>=9kh1", [9, 3, 4], [9], "k d d"),
    ("6x 4d6kh3", [6, 5, 4, 1] * 6, [15] * 6, "k k k d " * 6),
    ("2d8*3+1", [4, 7], [34], "k k"),
    ("d20+2 # to hit", [11], [13], "k"),
    ("2x d6 - 1", [4, 2], [3, 1], "k k"),
    ("4dF!", [3, 3, 1, 2, 2, 2], [1], "k x x k k k"),
]


@pytest.mark.parametrize(("notation", "faces", "totals", "fates"), CASES, ids=[case[0] for case in CASES])
def test_plain_rolls_read_their_faces(notation: str, faces: list[int], totals: list[int], fates: str) -> None:
    plain = parse_plain(notation)
    result = roll_plain(plain, ScriptedSource(list(faces)))
    assert list(result.totals) == totals
    shown = []
    for term in result.terms:
        for die in getattr(term, "dice", ()):
            shown.append("r" if die.rerolled else "x" if die.exploded and die.kept else "k" if die.kept else "d")
    assert " ".join(shown) == fates.strip()
    assert [face for _, face in result.draws] == faces  # every face drawn is in the record, in order
    assert parse_plain(plain.notation) == plain  # the canonical notation reads back the same


@pytest.mark.parametrize(
    ("notation", "needle"),
    [
        ("d6r<7", "rerolls every face"),
        ("d6!>0", "explodes on every face"),
        ("4d6r1r2", "second reroll"),
        ("101x d6", "1 to 100"),
        ("100x 101d6", "limit of 10000"),
        ("d6*1001", "1 to 1000"),
        ("d20 #", "label"),
        ("d20 # " + "x" * 61, "label"),
        ("3*d6", "not dice notation"),
    ],
)
def test_bad_notation_is_one_line_naming_dice(notation: str, needle: str) -> None:
    with pytest.raises(InputError) as raised:
        parse_plain(notation)
    assert str(raised.value).startswith("dice: ") and needle in str(raised.value) and "\n" not in str(raised.value)


def test_draws_are_bounded_whatever_the_faces() -> None:
    # A d2 exploding on 2 fed nothing but 2s: each die stops at 100 explosions, the roll at the draw limit.
    with pytest.raises(RollLimitError, match=f"more than {MAX_PLAIN_DRAWS} faces"):
        roll_plain(parse_plain("1000d2!"), ScriptedSource([2] * (MAX_PLAIN_DRAWS + 10)))
    one = roll_plain(parse_plain("d2!"), ScriptedSource([2] * 200))
    assert len(one.draws) == 101  # the die and its 100 explosions


def test_what_a_card_prints_is_a_magic_roll_and_the_rest_plain() -> None:
    assert instruction_text(parse_plain("2d10")) == "Roll 2 d10."
    assert instruction_text(parse_plain("D20 - 1")) == "Roll a d20 and subtract 1 from the result."
    for plain in ("4d6dl1", "2d6+1", "adv", "d6r1", "d20 # hit", "2x d20", "d6*2"):
        assert instruction_text(parse_plain(plain)) is None, plain


def test_the_command_line_shows_rerolled_and_exploded_dice() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "mtgdice.cli", "roll", "--no-log", "--seed", "4", "--json", "--", "6x 4d6kh3 # stats"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    outcome = json.loads(run.stdout)
    assert outcome["label"] == "stats" and len(outcome["totals"]) == 6 and sum(outcome["totals"]) == outcome["total"]
    assert {term["set"] for term in outcome["terms"]} == set(range(6))
    expected = roll_plain(parse_plain("6x 4d6kh3 # stats"), SeededSource(4))
    assert outcome["totals"] == list(expected.totals)


# -- the same reader in a room ---------------------------------------------------------------------


@pytest.fixture
def room(tmp_path: Path) -> Any:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from mtgdice.web import create_app

    client = TestClient(create_app(tmp_path / "rolls.sqlite", None, rate=0))
    room_id = client.post("/rooms", follow_redirects=False).headers["location"].rsplit("/", 1)[1]
    client.post(f"/r/{room_id}/join", data={"name": "Alice"}, follow_redirects=False)
    return client, room_id


@pytest.mark.parametrize("notation", ["4d6dl1", "2d6+1", "adv", "3d6r1!", "6x 4d6kh3 # stats", "2d8*2"])
def test_the_room_dice_box_reads_what_the_command_line_reads(room: Any, notation: str) -> None:
    client, room_id = room
    rolled = client.post(f"/r/{room_id}/roll", data={"kind": "dice", "dice": notation})
    assert rolled.status_code == 200, rolled.text
    exported = json.loads(client.get(f"/api/rooms/{room_id}/log").text)
    logged = exported["rolls"][-1]
    assert logged["request"] == {"kind": "plain", "notation": parse_plain(notation).notation}
    # The page shows the roll as the command line prints it, from the same faces.
    faces = [face for _, face in logged["faces"]]
    again = roll_plain(parse_plain(notation), ScriptedSource(faces))
    page = client.get(f"/r/{room_id}").text
    for text, _ in plain_lines(again):
        assert text.strip() in page
    from mtgdice.log import verify_export

    assert verify_export(exported).failed is False


def test_a_room_rolls_what_a_card_prints_through_the_rules(room: Any) -> None:
    client, room_id = room
    assert client.post(f"/r/{room_id}/roll", data={"kind": "dice", "dice": "2d10"}).status_code == 200
    logged = json.loads(client.get(f"/api/rooms/{room_id}/log").text)["rolls"][-1]
    assert logged["request"]["kind"] == "dice" and "rolls" in logged["outcome"]


def test_the_api_reads_the_same_notation(room: Any) -> None:
    client, _ = room
    made = client.post("/api/rooms").json()
    headers = {"Authorization": f"Bearer {made['token']}"}
    rolled = client.post(
        f"/api/rooms/{made['id']}/rolls", json={"kind": "plain", "notation": "4d6r1kh3"}, headers=headers
    )
    assert rolled.status_code == 200, rolled.text
    assert rolled.json()["notation"] == "4d6r1kh3"
    bad = client.post(f"/api/rooms/{made['id']}/rolls", json={"kind": "plain", "notation": "d6r<9"}, headers=headers)
    assert bad.status_code == 400 and "rerolls every face" in bad.json()["error"]
