"""The web app through FastAPI's TestClient: the JSON API (auth, limits, one-line errors, logging
before the response, reveal and verify), the websocket fan-out, and the pages' tokens and escaping."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from mtgdice.io.record import logged_outcome  # noqa: E402
from mtgdice.log import RollLog, verify_export  # noqa: E402
from mtgdice.web import create_app  # noqa: E402

HOSTILE_NAME = "<img src=x onerror=alert(1)>"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "rolls.sqlite"


@pytest.fixture
def client(db: Path, catalog: Any) -> TestClient:
    return TestClient(create_app(db, catalog, rate=0))


@pytest.fixture
def room(client: TestClient) -> dict[str, str]:
    response = client.post("/api/rooms")
    assert response.status_code == 201
    return response.json()  # type: ignore[no-any-return]


def auth(room: dict[str, str]) -> dict[str, str]:
    return {"Authorization": f"Bearer {room['token']}"}


def one_line_error(response: Any) -> str:
    text = response.text.strip()
    assert "\n" not in text and "Traceback" not in text
    message = json.loads(text)["error"]
    assert isinstance(message, str) and message
    return message


SPELLBOOK = {"card": "Wizard's Spellbook", "battlefield": ["Pixie Guide"]}


def test_create_room_publishes_a_commitment(room: dict[str, str]) -> None:
    assert set(room) == {"id", "token", "commitment"}
    assert re.fullmatch(r"[0-9a-f]{64}", room["commitment"])


def test_roll_needs_the_room_token(client: TestClient, room: dict[str, str]) -> None:
    path = f"/api/rooms/{room['id']}/rolls"
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": room["token"]}):
        response = client.post(path, json=SPELLBOOK, headers=headers)
        assert response.status_code == 401
        assert "token" in one_line_error(response)
    reveal = client.post(f"/api/rooms/{room['id']}/reveal")
    assert reveal.status_code == 401


def test_roll_outcome_has_the_resolve_shape_and_its_proof(client: TestClient, room: dict[str, str], db: Path) -> None:
    response = client.post(f"/api/rooms/{room['id']}/rolls", json=SPELLBOOK, headers=auth(room))
    assert response.status_code == 200
    outcome = response.json()
    assert {"rolls", "triggers", "stored"} <= set(outcome)
    dice = outcome["rolls"][0]["dice"]
    assert len(dice) == 2 and [die["ignored"] for die in dice].count(True) == 1
    assert outcome["proof"] == {
        "source": "commit-reveal/player",
        "nonce": 0,
        "commitment": room["commitment"],
        "client_seeds": [],
        "stream": "api",
        "index": 0,
    }
    # Committed to the log before the response: a fresh connection sees it.
    with RollLog(db) as log:
        logged = log.get(outcome["id"])
    assert logged.nonce == 0 and logged_outcome(logged)["rolls"] == outcome["rolls"]
    second = client.post(f"/api/rooms/{room['id']}/rolls", json=SPELLBOOK, headers=auth(room)).json()
    assert second["proof"]["nonce"] == 1


def test_reveal_then_the_log_verifies(client: TestClient, room: dict[str, str], catalog: Any) -> None:
    for _ in range(3):
        assert client.post(f"/api/rooms/{room['id']}/rolls", json=SPELLBOOK, headers=auth(room)).status_code == 200
    revealed = client.post(f"/api/rooms/{room['id']}/reveal", headers=auth(room)).json()
    assert revealed["commitment"] == room["commitment"] and revealed["to_nonce"] == 3
    assert revealed["next_commitment"] != room["commitment"]
    exported = client.get(f"/api/rooms/{room['id']}/log").json()
    assert [roll["nonce"] for roll in exported["rolls"]] == [0, 1, 2]
    report = verify_export(exported, cards=catalog)
    assert report.ok, [check.line() for check in report.checks]
    unchecked = verify_export(exported)  # without the card data the rolls that name cards are not proved
    assert not unchecked.ok and not unchecked.failed and len(unchecked.unverifiable) == 3


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (b'{"card": ', "body"),
        (b"[1, 2]", "body"),
        (b'{"card": 3}', "card"),
        (b'{"card": "Wizard\'s Spellbook", "roll": "first"}', "roll"),
        (b'{"card": "Wizard\'s Spellbook", "battlefield": "Pixie Guide"}', "battlefield"),
        (b'{"card": "Wizard\'s Spellbook", "dice": [20]}', "dice"),
        (b'{"card": "Wizard\'s Spelbook"}', "card"),
        (b'{"card": "Wizard\'s Spellbook", "choices": [true, "x"]}', "choices"),
    ],
)
def test_bad_input_is_a_one_line_error_naming_the_field(
    client: TestClient, room: dict[str, str], body: bytes, field: str
) -> None:
    response = client.post(
        f"/api/rooms/{room['id']}/rolls", content=body, headers={**auth(room), "content-type": "application/json"}
    )
    if response.status_code == 200:  # an unused answer is not an error
        assert field == "choices"
        return
    assert response.status_code == 400
    assert one_line_error(response).startswith(field)


def test_request_size_limit(client: TestClient, room: dict[str, str]) -> None:
    big = json.dumps({**SPELLBOOK, "padding": "x" * 70_000})
    response = client.post(f"/api/rooms/{room['id']}/rolls", content=big, headers=auth(room))
    assert response.status_code == 413
    assert "65536" in one_line_error(response)


def test_rate_limit(db: Path, catalog: Any) -> None:
    limited = TestClient(create_app(db, catalog, rate=1, burst=3))
    statuses = [limited.post("/api/rooms").status_code for _ in range(6)]
    assert statuses[:3] == [201, 201, 201] and 429 in statuses[3:]
    response = limited.post("/api/rooms")
    assert response.status_code == 429 and "rate limit" in one_line_error(response)
    assert response.headers["retry-after"] == "1"


def test_unknown_room_and_unknown_route(client: TestClient) -> None:
    response = client.post("/api/rooms/nope/rolls", json=SPELLBOOK, headers={"Authorization": "Bearer x"})
    assert response.status_code == 404 and "no room" in one_line_error(response)
    assert client.get("/api/nothing").status_code == 404


def test_websocket_receives_each_roll(client: TestClient, room: dict[str, str]) -> None:
    with client.websocket_connect(f"/ws/rooms/{room['id']}") as socket:
        outcome = client.post(
            f"/api/rooms/{room['id']}/rolls", json={**SPELLBOOK, "player": "tester"}, headers=auth(room)
        ).json()
        message = json.loads(socket.receive_text())
    assert message["kind"] == "roll" and message["id"] == outcome["id"] and "tester" in message["html"]
    assert f'id="roll-{outcome["id"]}"' in message["html"] and "<s " in message["html"]  # the ignored die struck


def join(client: TestClient, room_id: str, name: str) -> None:
    response = client.post(f"/r/{room_id}/join", data={"name": name}, follow_redirects=False)
    assert response.status_code == 303


def test_pages_need_the_player_cookie_and_escape_names(client: TestClient, db: Path, catalog: Any) -> None:
    created = client.post("/rooms", follow_redirects=False)
    room_id = created.headers["location"].rsplit("/", 1)[1]
    stranger = TestClient(client.app)
    response = stranger.post(f"/r/{room_id}/roll", data={"kind": "dice", "dice": "d20"})
    assert response.status_code == 401 and "join this room" in response.text
    join(client, room_id, HOSTILE_NAME)
    page = client.get(f"/r/{room_id}")
    assert HOSTILE_NAME not in page.text and "&lt;img src=x onerror=alert(1)&gt;" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    added = client.post(f"/r/{room_id}/cards", data={"name": "Hostile", "text": "<script>alert(2)</script> Roll a d6."})
    assert added.status_code == 200 and "<script>alert(2)" not in added.text and "&lt;script&gt;" in added.text
    other = TestClient(client.app)
    join(other, room_id, "Bob")
    assert other.post(f"/r/{room_id}/cards/1", data={"action": "remove"}).status_code == 400  # not Bob's card


def test_page_roll_with_a_question_then_answer(client: TestClient, catalog: Any) -> None:
    created = client.post("/rooms", follow_redirects=False)
    room_id = created.headers["location"].rsplit("/", 1)[1]
    join(client, room_id, "Alice")
    client.post(f"/r/{room_id}/cards", data={"name": "Krark's Other Thumb"})
    board = client.post(f"/r/{room_id}/cards", data={"name": "Wizard's Spellbook"}).text
    card_id = re.findall(r'name="card_id" value="(\d+)"', board)[-1]
    with client.websocket_connect(f"/ws/rooms/{room_id}") as socket:
        asked = client.post(f"/r/{room_id}/roll", data={"kind": "card", "card_id": card_id})
        assert 'data-testid="open-question"' in asked.text
        # A decision holds only its own roll: the roller rolls on meanwhile (this d6 asks its own question).
        meanwhile = client.post(f"/r/{room_id}/roll", data={"kind": "dice", "dice": "d6"})
        assert meanwhile.status_code == 200 and "2 waiting for you" in meanwhile.text
        answered = client.post(f"/r/{room_id}/answer", data={"answer": "1", "roller": "p1", "nonce": "0"})
        assert answered.status_code == 200 and "nonce 0" not in answered.text and "nonce 1" in answered.text
        message = json.loads(socket.receive_text())
        while message["kind"] != "roll":  # the status (next nonce) changed when the question opened
            message = json.loads(socket.receive_text())
    assert message["kind"] == "roll" and 'data-testid="row"' in message["html"]
    exported = client.get(f"/api/rooms/{room_id}/log").json()
    assert exported["rolls"][0]["request"]["choices"] == [1] and exported["rolls"][0]["nonce"] == 0
    client.post(f"/r/{room_id}/reveal")
    report = verify_export(client.get(f"/api/rooms/{room_id}/log").json(), cards=catalog)
    assert report.ok, [check.line() for check in report.checks] + list(report.errors)


def test_page_errors_are_one_line_fragments(client: TestClient) -> None:
    created = client.post("/rooms", follow_redirects=False)
    room_id = created.headers["location"].rsplit("/", 1)[1]
    join(client, room_id, "Alice")
    response = client.post(f"/r/{room_id}/roll", data={"kind": "dice", "dice": "2q10"}, headers={"HX-Request": "true"})
    assert response.status_code == 400 and response.headers["hx-retarget"] == "#flash"
    assert response.text.count("\n") <= 1 and "dice:" in response.text and "Traceback" not in response.text


def test_a_question_goes_to_the_player_whose_effect_asks(client: TestClient) -> None:
    created = client.post("/rooms", follow_redirects=False)
    room_id = created.headers["location"].rsplit("/", 1)[1]
    join(client, room_id, "Alice")
    bob = TestClient(client.app)
    join(bob, room_id, "Bob")
    bob.post(f"/r/{room_id}/cards", data={"name": "Pippa, Duchess of Dice"})
    rolled = client.post(f"/r/{room_id}/roll", data={"kind": "dice", "dice": "d6"})
    assert 'data-testid="waiting"' in rolled.text and "Bob" in rolled.text
    assert client.post(f"/r/{room_id}/answer", data={"answer": "1"}).status_code == 409  # not Alice's to answer
    asked = bob.get(f"/r/{room_id}/question")
    assert 'data-testid="open-question"' in asked.text and "Reroll" in asked.text
    assert bob.post(f"/r/{room_id}/answer", data={"answer": "0"}).status_code == 200
    exported = client.get(f"/api/rooms/{room_id}/log").json()
    assert len(exported["rolls"]) == 1 and exported["rolls"][0]["request"]["choices"] == [False]
    assert 'data-testid="waiting"' not in client.get(f"/r/{room_id}/question").text


def test_a_card_roll_with_a_variable_amount(client: TestClient) -> None:
    created = client.post("/rooms", follow_redirects=False)
    room_id = created.headers["location"].rsplit("/", 1)[1]
    join(client, room_id, "Alice")
    board = client.post(f"/r/{room_id}/cards", data={"name": "Hydradoodle"}).text
    assert 'name="amount:X"' in board
    card_id = re.findall(r'name="card_id" value="(\d+)"', board)[-1]
    missing = client.post(f"/r/{room_id}/roll", data={"kind": "card", "card_id": card_id})
    assert missing.status_code == 400 and "X" in missing.text
    rolled = client.post(f"/r/{room_id}/roll", data={"kind": "card", "card_id": card_id, "amount:X": "3"})
    assert rolled.status_code == 200
    exported = client.get(f"/api/rooms/{room_id}/log").json()
    assert exported["rolls"][0]["request"]["amounts"] == {"X": 3}
    assert len(exported["rolls"][0]["outcome"]["rolls"][0]["dice"]) == 3


# -- issue 12: what a room takes, what it logs, what one client may do -------------------------------


def test_client_seeds_come_only_after_the_commitment(client: TestClient, room: dict[str, str]) -> None:
    early = client.post("/api/rooms", json={"client_seeds": ["mine"]})
    assert early.status_code == 400 and one_line_error(early).startswith("client_seeds:")
    added = client.post(f"/api/rooms/{room['id']}/seeds", json={"client_seed": "mine"}, headers=auth(room))
    assert added.status_code == 200 and added.json() == {"client_seeds": ["mine"], "commitment": room["commitment"]}
    rolled = client.post(f"/api/rooms/{room['id']}/rolls", json={"text": "Roll a d6."}, headers=auth(room)).json()
    assert rolled["proof"]["client_seeds"] == ["mine"] and rolled["proof"]["commitment"] == room["commitment"]
    unauthorised = client.post(f"/api/rooms/{room['id']}/seeds", json={"client_seed": "x"})
    assert unauthorised.status_code == 401


def test_each_roll_records_whose_request_spent_its_nonce(client: TestClient, room: dict[str, str]) -> None:
    client.post(f"/api/rooms/{room['id']}/rolls", json={"text": "Roll a d6.", "player": "Bob"}, headers=auth(room))
    page = client.post("/rooms", follow_redirects=False).headers["location"].split("/")[-1]
    client.post(f"/r/{page}/join", data={"name": "Alice"})
    client.post(f"/r/{page}/roll", data={"kind": "dice", "dice": "d20"})
    api_roll = client.get(f"/api/rooms/{room['id']}/log").json()["rolls"][0]
    page_roll = client.get(f"/api/rooms/{page}/log").json()["rolls"][0]
    assert (api_roll["by"], api_roll["player"]) == ("api", "Bob")  # the player named is not who spent it
    assert (page_roll["by"], page_roll["player"]) == ("p1", "Alice")


def test_a_page_roll_logs_its_board_by_card_name_and_text_hash(client: TestClient, catalog: Any) -> None:
    room_id = client.post("/rooms", follow_redirects=False).headers["location"].split("/")[-1]
    client.post(f"/r/{room_id}/join", data={"name": "Alice"})
    client.post(f"/r/{room_id}/cards", data={"name": "Pixie Guide"})
    client.post(f"/r/{room_id}/cards", data={"name": "Own card", "text": "Whenever you roll a d20, add 1."})
    board = client.post(f"/r/{room_id}/cards", data={"name": "Wizard's Spellbook"}).text
    card_id = re.findall(r'name="card_id" value="(\d+)"', board)[-1]
    client.post(f"/r/{room_id}/roll", data={"kind": "card", "card_id": card_id, "roll": "0"})
    client.post(f"/r/{room_id}/reveal")
    exported = client.get(f"/api/rooms/{room_id}/log").json()
    logged = exported["rolls"][0]["request"]
    battlefield = logged["seats"][0]["battlefield"]  # the room's table: Alice in seat 0
    named = [item for item in battlefield if "oracle_hash" in item]
    assert [item["card"] for item in named] == ["Pixie Guide", "Wizard's Spellbook"]
    assert all("text" not in item for item in named)
    assert [item.get("text") for item in battlefield if "text" in item] == ["Whenever you roll a d20, add 1."]
    assert "oracle_hash" in logged and "text" not in logged  # the rolled card, by reference
    assert verify_export(exported, cards=catalog).ok


def test_quotas_per_client_on_rooms_and_exports(db: Path, catalog: Any) -> None:
    from mtgdice.web.guard import QUOTAS

    limited = TestClient(create_app(db, catalog, rate=1000, burst=1000))
    created = [limited.post("/api/rooms") for _ in range(QUOTAS["rooms"].burst + 1)]
    assert [r.status_code for r in created[:-1]] == [201] * QUOTAS["rooms"].burst
    assert created[-1].status_code == 429 and one_line_error(created[-1]).startswith("quota: ")
    room_id = created[0].json()["id"]
    exports = [limited.get(f"/api/rooms/{room_id}/log").status_code for _ in range(QUOTAS["export"].burst + 1)]
    assert exports == [200] * QUOTAS["export"].burst + [429]
    assert limited.get("/").status_code == 200  # the pages stay open to the client


def test_the_limiter_never_forgets_a_throttled_client_because_others_came() -> None:
    from mtgdice.web.guard import Buckets, Quota

    buckets = Buckets(Quota(1.0, 3, "requests"), size=100)
    assert [buckets.take("greedy", now=0.0) for _ in range(4)] == [True, True, True, False]
    for i in range(10_000):  # many other addresses (the issue: after 10 000, everyone was reset)
        buckets.take(f"10.0.{i // 250}.{i % 250}", now=0.0)
        if i % 50 == 0:
            assert not buckets.take("greedy", now=0.0)  # still throttled: it stays among the recent
    assert len(buckets.seen) == 100


def test_client_seeds_end_at_a_reveal_and_players_add_new_ones_for_the_new_commitment(
    client: TestClient, catalog: Any
) -> None:
    """A seed known before the server draws its next seed must not be used with it: each reveal
    clears the players' seeds, and the page takes a new one for the new commitment."""
    created = client.post("/rooms", follow_redirects=False)
    room_id = created.headers["location"].rsplit("/", 1)[1]
    client.post(f"/r/{room_id}/join", data={"name": "Alice", "client_seed": "alice-1"})
    client.post(f"/r/{room_id}/roll", data={"kind": "dice", "dice": "d20"})
    client.post(f"/r/{room_id}/reveal")
    status = client.get(f"/r/{room_id}").text
    assert "no client seeds yet" in status and "alice-1" not in status.split('data-testid="commitment"')[1][:300]
    client.post(f"/r/{room_id}/roll", data={"kind": "dice", "dice": "d20"})  # server seed alone
    seeded = client.post(f"/r/{room_id}/seed", data={"client_seed": "alice-2"})
    assert seeded.status_code == 200 and "client seeds: alice-2" in seeded.text
    client.post(f"/r/{room_id}/roll", data={"kind": "dice", "dice": "d20"})
    client.post(f"/r/{room_id}/reveal")
    exported = client.get(f"/api/rooms/{room_id}/log").json()
    assert [roll["client_seeds"] for roll in exported["rolls"]] == [["alice-1"], [], ["alice-2"]]
    report = verify_export(exported, cards=catalog)
    assert report.ok, [check.line() for check in report.checks] + list(report.errors)
    stranger = TestClient(client.app)
    assert stranger.post(f"/r/{room_id}/seed", data={"client_seed": "x"}).status_code in (401, 403)
