"""The table model in real browsers (Debian chromium driven by Playwright) against a real uvicorn
server on 127.0.0.1: an activated replacement waits on both players' pages and is used up by the
next roll it applies to; a card's coin instruction is flipped and both pages show the flips; what
the turn remembers is shown and kept across two rolls, and forgotten at the next turn.

The browser, the server (started in its own process group and stopped with all of it) and the
players come from ``test_browser``; every test has pytest-timeout's guard and Playwright's waits.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from test_browser import WAIT_MS, Player, _open_room, browser, players, server  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

BEEBLE = (
    "{1}, {T}: The next time target player would roll one or more dice this turn, instead they roll that many "
    "dice plus one and you choose one of those rolls to ignore."
)
COINER = "{T}: Flip a coin. If you win the flip, draw a card. If you lose the flip, you lose 1 life."
GROWER = (
    "{1}{G}: Roll two six-sided dice. If the total of those results is equal to any other total you have "
    "rolled this turn for this ability, sacrifice it."
)


def _add_text_card(player: Player, name: str, text: str) -> Any:
    player.page.locator("summary", has_text="Add a card by its text").click()
    player.page.get_by_test_id("text-card-name").fill(name)
    player.page.get_by_test_id("text-card-text").fill(text)
    player.page.get_by_test_id("text-card-add").click()
    card = player.card(name)
    card.wait_for(timeout=WAIT_MS)
    return card


def test_an_activated_replacement_is_used_up_by_the_next_roll(server: str, players: tuple[Player, Player]) -> None:  # noqa: F811
    from playwright.sync_api import expect

    alice, bob = players
    _open_room(server, alice, bob)
    beeble = _add_text_card(bob, "Beeble", BEEBLE)
    expect(beeble.get_by_test_id("activate-target")).to_have_value("p1")  # Alice, the other player
    beeble.get_by_test_id("activate").click()
    for player in (alice, bob):  # pushed to Alice's open page
        expect(player.page.get_by_test_id("waiting-replacement")).to_contain_text(
            "Bob’s Beeble → Alice’s next roll", timeout=WAIT_MS
        )
    alice.page.get_by_test_id("roll-d20").click()
    question = bob.page.get_by_test_id("open-question")
    expect(question).to_contain_text("Ignore which", timeout=WAIT_MS)  # the replacement's controller picks
    question.get_by_test_id("answer").first.click()
    roll = alice.page.get_by_test_id("roll").first
    roll.wait_for(timeout=WAIT_MS)
    expect(roll.get_by_test_id("die")).to_have_count(2)
    expect(roll.get_by_test_id("struck")).to_have_count(1)
    for player in (alice, bob):
        expect(player.page.get_by_test_id("waiting-replacement")).to_have_count(0, timeout=WAIT_MS)
    alice.page.get_by_test_id("roll-d20").click()  # used up: the next roll is one die
    expect(alice.page.get_by_test_id("roll")).to_have_count(2, timeout=WAIT_MS)
    expect(alice.page.get_by_test_id("roll").first.get_by_test_id("die")).to_have_count(1)
    assert alice.errors == [] and bob.errors == []


def test_a_coin_cards_flip_is_shown_to_both_players(server: str, players: tuple[Player, Player]) -> None:  # noqa: F811
    from playwright.sync_api import expect

    alice, bob = players
    _open_room(server, alice, bob)
    coiner = _add_text_card(alice, "Coiner", COINER)
    assert coiner.get_by_test_id("roll-card").count() == 0 and coiner.get_by_test_id("odds-card").count() == 0
    coiner.get_by_test_id("flip-card").click()
    question = alice.page.get_by_test_id("open-question")
    expect(question).to_contain_text("Call the flip", timeout=WAIT_MS)
    question.get_by_test_id("answer").filter(has_text="heads").click()
    for player in (alice, bob):
        roll = player.page.get_by_test_id("roll").first
        roll.wait_for(timeout=WAIT_MS)
        expect(roll.get_by_test_id("coin-flip")).to_have_count(1)
        expect(roll.get_by_test_id("coin-flip")).to_contain_text("called heads")
        side = roll.locator(".face").inner_text().strip()
        outcome = "won" if side == "heads" else "lost"
        expect(roll.get_by_test_id("coin-won")).to_have_text(outcome)
        expect(roll.get_by_test_id("row")).to_contain_text("win the flip" if outcome == "won" else "lose the flip")
        won, lost = (1, 0) if outcome == "won" else (0, 1)
        expect(player.page.get_by_test_id("memory-flips")).to_have_text(
            f"Alice won {won} and lost {lost} coin flip", timeout=WAIT_MS
        )
    assert alice.errors == [] and bob.errors == []


def test_the_turns_totals_are_shown_and_kept_across_two_rolls(server: str, players: tuple[Player, Player]) -> None:  # noqa: F811
    from playwright.sync_api import expect

    alice, bob = players
    _open_room(server, alice, bob)
    grower = _add_text_card(alice, "Grower", GROWER)
    seen: list[int] = []
    for count in (1, 2):
        grower.get_by_test_id("roll-card").click()
        expect(bob.page.get_by_test_id("roll")).to_have_count(count, timeout=WAIT_MS)
        roll = bob.page.get_by_test_id("roll").first
        total = sum(int(value) for value in roll.locator(".result").all_inner_texts())
        matched = total in seen
        expect(roll.get_by_test_id("outcome")).to_have_count(1 if matched else 0)
        if not matched:
            seen.append(total)
        shown = ", ".join(str(value) for value in seen)
        for player in (alice, bob):
            expect(player.page.get_by_test_id("memory-totals")).to_have_text(
                re.compile(f"Grower.s totals rolled for its ability: {shown}$"), timeout=WAIT_MS
            )
    alice.page.get_by_test_id("next-turn").click()
    for player in (alice, bob):
        expect(player.page.get_by_test_id("turn")).to_have_text("2", timeout=WAIT_MS)
        expect(player.page.get_by_test_id("memory-totals")).to_have_count(0, timeout=WAIT_MS)
    assert alice.errors == [] and bob.errors == []
