"""Rooms as players use them, in process: counters and Class levels on a card, decisions that hold
only their own roll, identical options shown once, and faces bound to who rolls them (an inserted
roll moves no other player's faces)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

import mtgdice.fair.commit  # noqa: E402
from mtgdice.fair.commit import PlayerSource  # noqa: E402
from mtgdice.game import RollSpec  # noqa: E402
from mtgdice.log import RollLog, verify_export  # noqa: E402
from mtgdice.rules.dice import Die  # noqa: E402
from mtgdice.web import create_app  # noqa: E402
from mtgdice.web.rooms import MAX_WAITING, PendingRoll, Rooms  # noqa: E402
from mtgdice.web.views import Pages  # noqa: E402


def _room(client: TestClient, *names: str) -> tuple[str, list[TestClient]]:
    room_id = client.post("/rooms", follow_redirects=False).headers["location"].rsplit("/", 1)[1]
    players = []
    for name in names:
        player = TestClient(client.app)
        player.post(f"/r/{room_id}/join", data={"name": name}, follow_redirects=False)
        players.append(player)
    return room_id, players


def _card_ids(html: str) -> list[int]:
    return sorted({int(found) for found in re.findall(r'/cards/(\d+)"', html)})


def test_counters_of_any_kind_and_levels_only_on_a_class(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "rolls.sqlite", None, rate=0))
    room_id, (alice,) = _room(client, "Alice")
    classy = alice.post(
        f"/r/{room_id}/cards", data={"name": "Some Class", "text": "Roll a d6.\n{1}{R}: Level 2\nRoll a d8."}
    )
    plain = alice.post(f"/r/{room_id}/cards", data={"name": "Plain", "text": "Roll a d4."})
    class_id, plain_id = _card_ids(plain.text)
    assert classy.text.count('data-testid="level"') == 1 and "level 3" not in classy.text
    for kind, count in (("+1/+1", 3), ("Charge", 2), ("lore", 1), ("charge", 0)):
        changed = alice.post(
            f"/r/{room_id}/cards/{plain_id}", data={"action": "counter", "counter": kind, "count": str(count)}
        )
        assert changed.status_code == 200, changed.text
    assert re.search(r'data-testid="counters">3 \+1/\+1, 1 lore<', changed.text)
    refused = {
        "level on a non-Class": (plain_id, {"action": "level", "level": "2"}, "only a Class"),
        "level above the card's": (class_id, {"action": "level", "level": "3"}, "levels 1 to 2"),
        "a kind that is no kind": (plain_id, {"action": "counter", "counter": "<b>", "count": "1"}, "counter kind"),
        "too many": (plain_id, {"action": "counter", "counter": "time", "count": "1000"}, "0 to 999"),
    }
    for case, (card_id, data, needle) in refused.items():
        response = alice.post(f"/r/{room_id}/cards/{card_id}", data=data)
        assert response.status_code == 400 and needle in response.text, case
    assert alice.post(f"/r/{room_id}/cards/{class_id}", data={"action": "level", "level": "2"}).status_code == 200


def test_identical_options_are_shown_once_with_either() -> None:
    from types import SimpleNamespace

    question = SimpleNamespace(ask="pick one", prompt="Ignore which?", options=("9 (d20)", "9 (d20)", "4 (d20)"))
    pending = SimpleNamespace(question=question, nonce=3, roller="p1")
    html = Pages().render(
        "_question.html", room=SimpleNamespace(id="r"), pending=pending, roller=None, asked=1, waiting=[]
    )
    buttons = re.findall(r'value="(\d)" data-testid="answer">([^<]*)<', html)
    assert buttons == [("0", "9 (d20) (either)"), ("2", "4 (d20)")]


def test_a_decision_holds_only_its_own_roll(tmp_path: Path, catalog: Any) -> None:
    client = TestClient(create_app(tmp_path / "rolls.sqlite", catalog, rate=0))
    room_id, (alice, bob) = _room(client, "Alice", "Bob")
    bob.post(f"/r/{room_id}/cards", data={"name": "Pippa, Duchess of Dice"})
    first = alice.post(f"/r/{room_id}/roll", data={"kind": "dice", "dice": "d20"})
    assert 'data-testid="decider">Bob<' in first.text
    for _ in range(MAX_WAITING - 1):  # Alice rolls on while Bob decides; never blamed for his question
        rolled = alice.post(f"/r/{room_id}/roll", data={"kind": "dice", "dice": "d20"})
        assert rolled.status_code == 200 and "error" not in rolled.text
    assert alice.post(f"/r/{room_id}/roll", data={"kind": "dice", "dice": "2d6+1"}).status_code == 200
    bob.post(f"/r/{room_id}/roll", data={"kind": "dice", "dice": "d6"})  # Bob rolls too, his question open
    over = alice.post(f"/r/{room_id}/roll", data={"kind": "dice", "dice": "d20"})
    assert over.status_code == 409 and "by Bob" in over.text and "your last roll" not in over.text
    # Alice cannot answer Bob's question; Bob answers one by its roll, then the oldest.
    wrong = alice.post(f"/r/{room_id}/answer", data={"answer": "0", "roller": "p1", "nonce": "0"})
    assert wrong.status_code == 409 and "Bob&#39;s to answer" in wrong.text
    assert bob.post(f"/r/{room_id}/answer", data={"answer": "0", "roller": "p1", "nonce": "3"}).status_code == 200
    assert bob.post(f"/r/{room_id}/answer", data={"answer": "0"}).status_code == 200
    page = alice.get(f"/r/{room_id}").text
    assert page.count('data-testid="waiting"') == MAX_WAITING - 2
    client.post(f"/r/{room_id}/reveal")
    assert alice.post(f"/r/{room_id}/reveal").status_code == 200
    report = verify_export(json.loads(client.get(f"/api/rooms/{room_id}/log").text), cards=catalog)
    assert report.ok, [check.line() for check in report.checks] + list(report.errors)


# -- faces bound to who rolls ----------------------------------------------------------------------


def _alice_faces(tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch, inserted: int) -> list[Any]:
    """Alice's faces over three d20 rolls in a room whose seed is fixed, with ``inserted`` rolls by
    others (the API, and a seed the API adds) before each of hers."""
    monkeypatch.setattr(mtgdice.fair.commit, "new_seed", lambda: bytes(range(32)))
    log = RollLog(tmp_path / f"{name}.sqlite")
    rooms = Rooms(log, None)

    async def play() -> list[Any]:
        state, _ = await rooms.create()
        alice, _ = await rooms.join(state, "Alice", "alice-seed")
        await rooms.join(state, "Bob")
        faces = []
        for _ in range(3):
            for _ in range(inserted):
                await rooms.add_seed(state, f"operator-{inserted}")
                await rooms.api_roll(state, {"kind": "plain", "notation": "d20"})
                await rooms.roll(state, "p2", RollSpec.plain("d20"))
            done = await rooms.roll(state, alice, RollSpec.plain("d20"))
            assert not isinstance(done, PendingRoll)
            faces.append(
                done.proof.to_json() | {"faces": [die.natural for die in done.roll.resolution.executions[0].dice]}
            )
        return faces

    try:
        return asyncio.run(play())
    finally:
        log.close()


def test_an_inserted_roll_leaves_another_players_next_faces_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = _alice_faces(tmp_path, "alone", monkeypatch, 0)
    crowded = _alice_faces(tmp_path, "crowded", monkeypatch, 2)
    assert [roll["nonce"] for roll in alone] == [0, 1, 2] and [roll["nonce"] for roll in crowded] == [4, 9, 14]
    assert [roll["faces"] for roll in alone] == [roll["faces"] for roll in crowded]
    # They are the faces of Alice's own stream: her id, her roll number, her own seed.
    expected = [[PlayerSource(bytes(range(32)), "p1", index, "alice-seed").roll(Die(20))] for index in range(3)]
    assert [roll["faces"] for roll in alone] == expected
    assert [(roll["stream"], roll["index"], roll["client_seeds"]) for roll in crowded] == [
        ("p1", index, ["alice-seed"]) for index in range(3)
    ]


def test_verify_finds_a_stream_roll_moved_to_another_player(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "rolls.sqlite", None, rate=0))
    room_id, (alice, bob) = _room(client, "Alice", "Bob")
    for player in (alice, bob, alice):
        player.post(f"/r/{room_id}/roll", data={"kind": "dice", "dice": "d20"})
    alice.post(f"/r/{room_id}/reveal")
    exported = json.loads(client.get(f"/api/rooms/{room_id}/log").text)
    assert verify_export(exported).ok
    assert {roll["source"] for roll in exported["rolls"]} == {"commit-reveal/player"}
    moved = json.loads(json.dumps(exported))
    moved["rolls"][1]["by"] = "p1"  # Bob's roll claimed for Alice: her roll numbers shift
    report = verify_export(moved)
    assert not report.ok and any("the revealed seed gives" in check.reason for check in report.bad)
