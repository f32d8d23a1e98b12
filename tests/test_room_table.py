"""A room gains what the table model has, in process: the Activate button of a "the next time target
player would roll ..." card and its waiting replacement used up by the first roll it applies to; a card's
coin instructions flipped from the room's committed streams (calls asked, the board's coin effects
applied, every flip logged and verified); the turn's memory written by abilities kept across rolls.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from mtgdice.log import verify_export  # noqa: E402
from mtgdice.web import create_app  # noqa: E402

BEEBLE = (
    "{1}, {T}: The next time target player would roll one or more dice this turn, instead they roll that many "
    "dice plus one and you choose one of those rolls to ignore."
)
COINER = "{T}: Flip a coin. If you win the flip, draw a card. If you lose the flip, you lose 1 life."
THUMB = "If you would flip a coin, instead flip two coins and ignore one."
GROWER = (
    "{1}{G}: Roll two six-sided dice. If the total of those results is equal to any other total you have "
    "rolled this turn for this ability, sacrifice it."
)


def _room(client: TestClient, *names: str) -> tuple[str, list[TestClient]]:
    room_id = client.post("/rooms", follow_redirects=False).headers["location"].rsplit("/", 1)[1]
    players = []
    for name in names:
        player = TestClient(client.app)
        player.post(f"/r/{room_id}/join", data={"name": name}, follow_redirects=False)
        players.append(player)
    return room_id, players


def _add(player: TestClient, room_id: str, name: str, text: str) -> tuple[int, str]:
    html = player.post(f"/r/{room_id}/cards", data={"name": name, "text": text}).text
    card_id = max(int(found) for found in re.findall(r'/cards/(\d+)"', html))
    return card_id, html


def _rolls(player: TestClient, room_id: str) -> list[str]:
    return re.findall(r'<article class="roll".*?</article>', player.get(f"/r/{room_id}").text, re.S)


def test_an_activated_replacement_waits_for_its_targets_next_roll(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "rolls.sqlite", None, rate=0))
    room_id, (alice, bob) = _room(client, "Alice", "Bob")
    beeble, html = _add(bob, room_id, "Beeble", BEEBLE)
    assert html.count('data-testid="activate"') == 1
    assert re.search(r'<option value="p1" selected>Alice</option>', html)  # another player by default
    _, plain = _add(alice, room_id, "Plain", "{T}: Roll a d6.")
    assert 'data-testid="activate"' not in plain  # nothing to activate on it
    refused = alice.post(f"/r/{room_id}/cards/{beeble}/activate", data={"target": "p1"})
    assert refused.status_code == 400  # not Alice's card

    assert bob.post(f"/r/{room_id}/cards/{beeble}/activate", data={"target": "p1"}).status_code == 200
    for player in (alice, bob):
        page = player.get(f"/r/{room_id}").text
        assert re.search(r"waiting-replacement\"><strong>Bob</strong>&rsquo;s Beeble &rarr; Alice", page)
    # Bob's own roll is not Alice's: the replacement keeps waiting.
    bob.post(f"/r/{room_id}/roll", data={"kind": "dice", "dice": "d20"})
    assert 'data-testid="waiting-replacement"' in alice.get(f"/r/{room_id}").text
    assert _rolls(bob, room_id)[0].count('data-testid="die"') == 1
    # Alice's next roll: one die more, and Bob (the replacement's controller) picks the one to ignore.
    alice.post(f"/r/{room_id}/roll", data={"kind": "dice", "dice": "d20"})
    question = bob.get(f"/r/{room_id}/question").text
    assert 'data-testid="open-question"' in question and "Ignore which" in question
    assert bob.post(f"/r/{room_id}/answer", data={"answer": "0"}).status_code == 200
    rolled = _rolls(alice, room_id)[0]
    assert rolled.count('data-testid="die"') == 2 and rolled.count('data-testid="struck"') == 1
    assert 'data-testid="waiting-replacement"' not in alice.get(f"/r/{room_id}").text  # used up
    alice.post(f"/r/{room_id}/roll", data={"kind": "dice", "dice": "d20"})
    assert _rolls(alice, room_id)[0].count('data-testid="die"') == 1
    alice.post(f"/r/{room_id}/reveal")
    report = verify_export(json.loads(client.get(f"/api/rooms/{room_id}/log").text))
    assert report.ok, [check.line() for check in report.checks] + list(report.errors)


def test_a_coin_card_is_flipped_with_the_boards_coin_effects_and_verifies(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "rolls.sqlite", None, rate=0))
    room_id, (alice, bob) = _room(client, "Alice", "Bob")
    mixed, html = _add(alice, room_id, "Mixed", "{T}: Roll a d6.\n{1}: Flip a coin. If you win the flip, draw a card.")
    assert re.findall(r'name="roll" value="(\d)"', html)[-2:] == ["0", "1"]  # instructions in text order
    assert html.count('data-testid="flip-card"') == 1
    coiner, _ = _add(bob, room_id, "Coiner", COINER)
    _add(bob, room_id, "Thumb", THUMB)
    # Bob flips (seat 1): his call is asked, then which of his Thumb's two coins to ignore.
    asked = bob.post(f"/r/{room_id}/roll", data={"kind": "card", "card_id": str(coiner), "roll": "0"}).text
    assert "Call the flip" in asked
    asked = bob.post(f"/r/{room_id}/answer", data={"answer": "1"}).text  # tails
    assert "Ignore which of these coins" in asked
    bob.post(f"/r/{room_id}/answer", data={"answer": "0"})
    shown = _rolls(alice, room_id)[0]  # Alice sees Bob's flip
    assert shown.count('data-testid="coin-flip"') == 2 and shown.count('data-testid="struck"') == 1
    assert "called tails" in shown
    won = re.findall(r'data-testid="coin-won">(won|lost)<', shown)
    assert len(won) == 2
    rows = re.findall(r'data-testid="row">([^<]*)<', shown)
    kept_won = re.search(r'<strong class="face">(heads|tails)</strong>', shown)
    assert kept_won is not None
    expected = "If you win the flip" if kept_won.group(1) == "tails" else "If you lose the flip"
    assert len(rows) == 1 and rows[0].startswith(expected)
    status = alice.get(f"/r/{room_id}").text
    assert re.search(r'memory-flips">Bob won [01] and lost [01] coin flip<', status)
    # Alice flips her card's second instruction: the flip's call is hers, no Thumb of hers applies.
    alice.post(f"/r/{room_id}/roll", data={"kind": "card", "card_id": str(mixed), "roll": "1"})
    alice.post(f"/r/{room_id}/answer", data={"answer": "0"})
    assert _rolls(bob, room_id)[0].count('data-testid="coin-flip"') == 1
    alice.post(f"/r/{room_id}/reveal")
    exported = json.loads(client.get(f"/api/rooms/{room_id}/log").text)
    report = verify_export(exported)
    assert report.ok, [check.line() for check in report.checks] + list(report.errors)
    assert len(exported["rolls"]) == 2
    tampered = json.loads(json.dumps(exported))
    coin = tampered["rolls"][1]["outcome"]["flip"]["coins"][0]
    coin["side"] = "tails" if coin["side"] == "heads" else "heads"
    assert not verify_export(tampered).ok


def test_the_turns_totals_are_kept_across_rolls_until_the_next_turn(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "rolls.sqlite", None, rate=0))
    room_id, (alice, bob) = _room(client, "Alice", "Bob")
    grower, _ = _add(alice, room_id, "Grower", GROWER)
    seen: list[int] = []
    for _ in range(12):  # two d6 have 11 totals: some total comes again within 12 rolls
        alice.post(f"/r/{room_id}/roll", data={"kind": "card", "card_id": str(grower), "roll": "0"})
        roll = _rolls(bob, room_id)[0]
        results = [int(value) for value in re.findall(r'<strong class="result">(\d+)</strong>', roll)]
        total = sum(results)
        assert ("sacrifice it" in roll) == (total in seen), (total, seen)
        if total not in seen:
            seen.append(total)
        page = bob.get(f"/r/{room_id}").text
        totals = re.search(r'memory-totals">Grower&rsquo;s totals rolled for its ability: ([\d, ]+)<', page)
        assert totals is not None and [int(v) for v in totals.group(1).split(", ")] == seen
        if len(seen) < len(_rolls(bob, room_id)):
            break
    assert len(seen) < len(_rolls(bob, room_id))  # a total came again and its outcome showed
    alice.post(f"/r/{room_id}/turn")
    assert 'data-testid="memory-totals"' not in bob.get(f"/r/{room_id}").text
    alice.post(f"/r/{room_id}/reveal")  # each logged request carries the turn it was rolled in: it replays
    report = verify_export(json.loads(client.get(f"/api/rooms/{room_id}/log").text))
    assert report.ok, [check.line() for check in report.checks] + list(report.errors)


def test_a_flip_until_you_lose_shows_each_flip(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "rolls.sqlite", None, rate=0))
    room_id, (alice, bob) = _room(client, "Alice", "Bob")
    card, _ = _add(
        alice, room_id, "Streak", "{T}: Flip a coin until you lose a flip. Draw a card for each flip you won."
    )
    alice.post(f"/r/{room_id}/roll", data={"kind": "card", "card_id": str(card), "roll": "0"})
    calls = 0
    while "Call the flip" in alice.get(f"/r/{room_id}/question").text:
        alice.post(f"/r/{room_id}/answer", data={"answer": "0"})
        calls += 1
        assert calls <= 200
    shown = _rolls(bob, room_id)[0]
    won = re.findall(r'data-testid="coin-won">(won|lost)<', shown)
    assert len(won) == calls and won[-1] == "lost" and set(won[:-1]) <= {"won"}  # until the first loss
    assert f'data-testid="flips-won">{calls - 1}<' in shown
