"""Two players in one room, in real browsers (Debian chromium driven by Playwright), against a real
uvicorn server on 127.0.0.1: a roll by one is pushed into the other's open page (no reload), with every
die's natural result, the ignored die struck through and the matched row; hostile names and card
texts show as text and run nothing. Saves ``test-artifacts/room.png``.

Needs ``apt-get install chromium`` and ``pip install playwright``. Without them these tests skip,
or fail when the environment variable ``CI`` is set.
"""

from __future__ import annotations

import json
import os
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from live_server import ServerError, live_server
from shared_data import shared_path

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

WAIT_MS = 60_000
"""How long a page may take to show what it must (Playwright's milliseconds): a guard against a hang
on a busy machine, not a timing claim; the module's tests have pytest-timeout's too (conftest)."""

CHROMIUM = Path(os.environ.get("MTGDICE_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
HOSTILE_NAME = "<img src=x onerror=alert(1)>"
HOSTILE_TEXT = "<script>alert(2)</script> Roll a d6."


def _missing(reason: str) -> None:
    message = f"browser tests need {reason}"
    if os.environ.get("CI"):
        pytest.fail(message + " (CI is set, so this is a failure)")
    pytest.skip(message)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright: pip install playwright")
    if not CHROMIUM.exists():
        _missing(f"chromium at {CHROMIUM}: apt-get install -y chromium")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    cards = shared_path("cards", "dice-cards.json")
    db = tmp_path_factory.mktemp("browser") / "rolls.sqlite"
    try:
        with live_server(cards, db) as (url, _):
            _warm_up(url)
            yield url
    except ServerError as error:
        pytest.fail(str(error))


def _warm_up(url: str) -> None:
    """One API roll first, so the timed roll does not pay for first-use imports and caches."""
    request = urllib.request.Request(url + "/api/rooms", data=b"{}", method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        room = json.load(response)
    body = json.dumps({"card": "Wizard's Spellbook", "battlefield": ["Pixie Guide"]}).encode()
    roll = urllib.request.Request(
        f"{url}/api/rooms/{room['id']}/rolls",
        data=body,
        method="POST",
        headers={"Authorization": f"Bearer {room['token']}"},
    )
    with urllib.request.urlopen(roll, timeout=10) as response:
        assert response.status == 200


class Player:
    """One browser context: its page and the dialogs it saw."""

    def __init__(self, browser: Any) -> None:
        # bypass_csp: the escaping must hold on its own (and wait_for_function needs eval).
        self.context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
        self.page = self.context.new_page()
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.confirm = False  # accept the page's own confirm() questions (the reveal asks one)
        self.page.on("dialog", self._dialog)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        if self.confirm and dialog.type == "confirm":
            dialog.accept()
        else:
            dialog.dismiss()

    def join(self, url: str, name: str) -> None:
        self.page.goto(url)
        self.page.get_by_test_id("join-name").fill(name)
        self.page.get_by_test_id("join").click()
        self.page.wait_for_selector("body[data-ws='open']", timeout=WAIT_MS)

    def add_card(self, query: str, name: str) -> None:
        self.page.get_by_test_id("card-search").fill(query)
        self.page.get_by_test_id("search-result").filter(has_text=name).first.click()
        self.page.get_by_test_id("board").get_by_text(name, exact=True).wait_for(timeout=WAIT_MS)

    def card(self, name: str) -> Any:
        return self.page.get_by_test_id("card").filter(has=self.page.get_by_text(name, exact=True))


@pytest.fixture
def players(browser: Any) -> Iterator[tuple[Player, Player]]:
    alice, bob = Player(browser), Player(browser)
    try:
        yield alice, bob
    finally:
        alice.context.close()
        bob.context.close()


def _open_room(server: str, alice: Player, bob: Player, alice_name: str = "Alice") -> str:
    alice.page.goto(server + "/")
    alice.page.get_by_test_id("create-room").click()
    alice.page.get_by_test_id("join-name").wait_for()
    room_url = alice.page.url
    alice.join(room_url, alice_name)
    bob.join(room_url, "Bob")
    return room_url


def test_a_roll_is_pushed_to_the_other_player(server: str, players: tuple[Player, Player]) -> None:
    alice, bob = players
    _open_room(server, alice, bob, alice_name=HOSTILE_NAME)
    alice.add_card("pixie", "Pixie Guide")
    alice.add_card("spellbook", "Wizard's Spellbook")

    before = bob.page.get_by_test_id("roll").count()
    button = alice.card("Wizard's Spellbook").get_by_test_id("roll-card")
    button.wait_for()
    bob.page.evaluate("window.__before_the_roll = true")  # gone if Bob's page were loaded again
    started = time.monotonic()
    button.click()
    bob.page.wait_for_function(
        f"document.querySelectorAll('[data-testid=roll]').length > {before}", timeout=WAIT_MS, polling=20
    )
    print(f"roll reached the other player in {(time.monotonic() - started) * 1000:.0f} ms (not asserted)")
    assert bob.page.evaluate("window.__before_the_roll === true"), "Bob's page was loaded again: not pushed"
    assert bob.page.locator("body[data-ws='open']").count() == 1  # it came on the page's open socket

    roll = bob.page.get_by_test_id("roll").first
    assert roll.get_by_test_id("die").count() == 2  # Pixie Guide: one die more, the lowest ignored
    struck = roll.get_by_test_id("struck")
    assert struck.count() == 1 and struck.first.inner_text().strip().isdigit()
    assert roll.locator(".die:not(.ignored) .result").first.inner_text().strip().isdigit()
    assert "ignored" in roll.locator(".die.ignored").inner_text()
    assert "|" in roll.get_by_test_id("row").first.inner_text()
    assert HOSTILE_NAME in roll.locator(".player").inner_text()  # the hostile name, as text

    # The hostile name shows literally everywhere and runs nothing.
    bob.page.get_by_test_id("table").get_by_text(HOSTILE_NAME, exact=True).wait_for(timeout=WAIT_MS)
    assert alice.dialogs == [] and bob.dialogs == []
    assert alice.errors == [] and bob.errors == []

    # The odds panel: exact row chances for the roll on the current board.
    alice.card("Wizard's Spellbook").get_by_test_id("odds-card").click()
    alice.page.get_by_test_id("odds-table").wait_for(timeout=WAIT_MS)
    assert "%" in alice.page.get_by_test_id("odds-table").inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    alice.page.screenshot(path=str(ARTIFACTS / "room.png"), full_page=True)


def test_hostile_card_text_renders_as_text(server: str, players: tuple[Player, Player]) -> None:
    alice, bob = players
    _open_room(server, alice, bob)
    alice.page.locator("summary", has_text="Add a card by its text").click()
    alice.page.get_by_test_id("text-card-name").fill("<b>Hostile</b>")
    alice.page.get_by_test_id("text-card-text").fill(HOSTILE_TEXT)
    alice.page.get_by_test_id("text-card-add").click()
    card = alice.card("<b>Hostile</b>")
    card.wait_for(timeout=WAIT_MS)
    assert HOSTILE_TEXT in card.locator(".card-text").inner_text()
    card.get_by_test_id("roll-card").click()
    roll = bob.page.get_by_test_id("roll").filter(has_text="<b>Hostile</b>")
    roll.wait_for(timeout=WAIT_MS)
    bob.page.get_by_test_id("table").get_by_text("<b>Hostile</b>").wait_for(timeout=WAIT_MS)
    assert bob.page.locator("#table b").count() == 0 and bob.page.locator("script:not([src])").count() == 0
    assert alice.dialogs == [] and bob.dialogs == [] and alice.errors == [] and bob.errors == []


def test_a_question_is_answered_in_the_page(server: str, players: tuple[Player, Player]) -> None:
    alice, bob = players
    _open_room(server, alice, bob)
    alice.add_card("other thumb", "Krark's Other Thumb")
    alice.add_card("spellbook", "Wizard's Spellbook")
    alice.card("Wizard's Spellbook").get_by_test_id("roll-card").click()
    question = alice.page.get_by_test_id("open-question")
    question.wait_for(timeout=WAIT_MS)
    assert "Ignore which" in question.inner_text()
    assert bob.page.get_by_test_id("roll").count() == 0  # nothing is shown before the roll is final
    question.get_by_test_id("answer").first.click()
    bob.page.get_by_test_id("roll").first.wait_for(timeout=WAIT_MS)
    roll = bob.page.get_by_test_id("roll").first
    assert roll.get_by_test_id("struck").count() == 1 and roll.get_by_test_id("row").count() == 1
    assert alice.page.get_by_test_id("open-question").count() == 0


def test_planar_die_cost_rises_and_only_the_active_player_rolls(server: str, players: tuple[Player, Player]) -> None:
    alice, bob = players
    _open_room(server, alice, bob)
    from playwright.sync_api import expect

    for expected in ("0", "1", "2"):
        expect(alice.page.get_by_test_id("planar-cost")).to_contain_text(f"costs {expected} generic", timeout=WAIT_MS)
        count = bob.page.get_by_test_id("roll").count()
        alice.page.get_by_test_id("roll-planar").click()
        bob.page.wait_for_function(f"document.querySelectorAll('[data-testid=roll]').length > {count}", timeout=WAIT_MS)
    expect(alice.page.get_by_test_id("planar-cost")).to_contain_text("costs 3 generic", timeout=WAIT_MS)
    expect(bob.page.get_by_test_id("planar-cost")).to_contain_text("costs 3 generic", timeout=WAIT_MS)  # pushed
    bob.page.get_by_test_id("roll-planar").click()
    expect(bob.page.get_by_test_id("error")).to_contain_text("active player", timeout=WAIT_MS)
    bob.page.get_by_test_id("roll-d20").click()  # the next action clears the old banner
    expect(bob.page.get_by_test_id("error")).to_have_count(0, timeout=WAIT_MS)
    alice.page.get_by_test_id("next-turn").click()
    expect(bob.page.get_by_test_id("turn")).to_have_text("2", timeout=WAIT_MS)
    expect(bob.page.get_by_test_id("planar-cost")).to_contain_text("costs 0 generic", timeout=WAIT_MS)


def test_after_a_reveal_each_page_adds_a_new_seed_for_the_new_commitment(
    server: str, players: tuple[Player, Player]
) -> None:
    alice, bob = players
    _open_room(server, alice, bob)
    alice.page.get_by_test_id("roll-d20").click()
    alice.page.get_by_test_id("roll").first.wait_for(timeout=WAIT_MS)
    before = alice.page.get_by_test_id("commitment").inner_text()
    alice.confirm = True
    alice.page.get_by_test_id("reveal").click()
    for player in (alice, bob):
        player.page.wait_for_function(
            "(before) => { const c = document.querySelector('[data-testid=commitment]');"
            " return c && c.textContent.trim() !== before"
            " && /client seeds: [0-9a-f]{32}, [0-9a-f]{32}/.test(document.getElementById('status').textContent); }",
            arg=before,
            timeout=WAIT_MS,
        )
    assert alice.errors == [] and bob.errors == []


def test_the_page_has_a_favicon(server: str) -> None:
    with urllib.request.urlopen(server + "/", timeout=5) as page:
        assert 'rel="icon" href="/static/favicon.svg"' in page.read().decode()
    with urllib.request.urlopen(server + "/static/favicon.svg", timeout=5) as icon:
        assert icon.status == 200 and icon.read().startswith(b"<svg")


def test_the_dice_box_reads_the_notation_the_command_line_reads(server: str, players: tuple[Player, Player]) -> None:
    from playwright.sync_api import expect

    alice, bob = players
    _open_room(server, alice, bob)
    for notation, canonical, word in (
        ("4d6dl1", "4d6dl1 =", "dropped"),
        ("6x 4d6kh3 # stats", "6x4d6kh3 # stats =", "#6"),
    ):
        count = bob.page.get_by_test_id("roll").count()
        alice.page.get_by_test_id("dice-input").fill(notation)
        alice.page.get_by_test_id("dice-input").press("Enter")
        bob.page.wait_for_function(f"document.querySelectorAll('[data-testid=roll]').length > {count}", timeout=3000)
        roll = bob.page.get_by_test_id("roll").first
        expect(roll.get_by_test_id("plain-total")).to_contain_text(canonical)
        expect(roll.get_by_test_id("plain-dice")).to_contain_text(word)
    for notation in ("2d6+1", "adv", "3d6r1!"):
        alice.page.get_by_test_id("dice-input").fill(notation)
        alice.page.get_by_test_id("dice-input").press("Enter")
    expect(bob.page.get_by_test_id("plain-total")).to_have_count(5, timeout=3000)
    expect(alice.page.get_by_test_id("error")).to_have_count(0)
    assert alice.errors == [] and bob.errors == []


def test_counters_and_class_levels_on_the_board(server: str, players: tuple[Player, Player]) -> None:
    from playwright.sync_api import expect

    alice, bob = players
    _open_room(server, alice, bob)
    alice.add_card("barbarian class", "Barbarian Class")
    alice.add_card("pixie", "Pixie Guide")
    levels = alice.card("Barbarian Class").get_by_test_id("level").locator("option")
    assert levels.all_inner_texts() == ["level 1", "level 2", "level 3"]  # only up to the card's levels
    assert alice.card("Pixie Guide").get_by_test_id("level").count() == 0  # no level selector on a non-Class
    pixie = alice.card("Pixie Guide")
    pixie.get_by_test_id("counter-kind").fill("+1/+1")
    pixie.get_by_test_id("counter-count").fill("2")
    pixie.get_by_test_id("counter-set").click()
    expect(alice.card("Pixie Guide").get_by_test_id("counters")).to_have_text("2 +1/+1", timeout=3000)
    alice.card("Pixie Guide").get_by_test_id("counter-kind").fill("lore")
    alice.card("Pixie Guide").get_by_test_id("counter-set").click()
    expect(alice.card("Pixie Guide").get_by_test_id("counters")).to_have_text("2 +1/+1, 1 lore", timeout=3000)
    expect(bob.page.get_by_test_id("table")).to_contain_text("Pixie Guide (2 +1/+1) (1 lore)", timeout=3000)
    alice.card("Barbarian Class").get_by_test_id("level").select_option("3")
    alice.card("Barbarian Class").locator("form", has=alice.page.get_by_test_id("level")).locator("button").click()
    expect(bob.page.get_by_test_id("table")).to_contain_text("Barbarian Class (level 3)", timeout=3000)
    assert alice.errors == [] and bob.errors == []


def test_bobs_question_leaves_alice_rolling(server: str, players: tuple[Player, Player]) -> None:
    from playwright.sync_api import expect

    alice, bob = players
    _open_room(server, alice, bob)
    bob.add_card("pippa", "Pippa, Duchess of Dice")
    alice.page.get_by_test_id("roll-d20").click()
    # The question is Bob's: his page asks him, Alice's says who decides, and both status panels too.
    expect(bob.page.get_by_test_id("open-question")).to_contain_text("Reroll", timeout=3000)
    expect(alice.page.get_by_test_id("decider")).to_have_text("Bob", timeout=3000)
    expect(alice.page.get_by_test_id("deciding").first).to_contain_text("Bob is deciding for Alice", timeout=3000)
    expect(bob.page.get_by_test_id("deciding").first).to_contain_text("Bob is deciding for Alice", timeout=3000)
    # Alice rolls on: plain dice (no Magic effect, nothing for Bob to decide) finish at once ...
    alice.page.get_by_test_id("dice-input").fill("2d6+1")
    alice.page.get_by_test_id("dice-input").press("Enter")
    expect(bob.page.get_by_test_id("plain-total")).to_contain_text("2d6+1 =", timeout=3000)
    # ... and another d20 waits for Bob too, without an error that blames Alice.
    alice.page.get_by_test_id("roll-d20").click()
    expect(alice.page.get_by_test_id("waiting")).to_have_count(2, timeout=3000)
    expect(alice.page.get_by_test_id("error")).to_have_count(0)
    assert alice.page.get_by_test_id("open-question").count() == 0  # nothing for Alice to answer
    # Bob answers both; both rolls reach Alice.
    bob.page.get_by_test_id("open-question").get_by_test_id("answer").filter(has_text="no").click()
    expect(bob.page.get_by_test_id("open-question")).not_to_contain_text("1 of 2", timeout=3000)
    bob.page.get_by_test_id("open-question").get_by_test_id("answer").filter(has_text="no").click()
    expect(alice.page.get_by_test_id("roll")).to_have_count(3, timeout=3000)
    expect(alice.page.get_by_test_id("waiting")).to_have_count(0, timeout=3000)
    expect(bob.page.get_by_test_id("open-question")).to_have_count(0, timeout=3000)
    assert alice.errors == [] and bob.errors == []
