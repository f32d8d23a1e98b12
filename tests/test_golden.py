"""Golden tests: every card of ``../shared/cards/dice-cards.json`` against a hand-written fixture.

The fixtures (``fixtures/golden/cards.json``) were written from the Oracle text of each card, not
from the compiler's output. Each fixture lists only the fields it checks; this module compares
exactly those: the rolls in text order (their number must match), the effects in text order (when
listed, their number must match), ``unsupported == []`` for every card, and notes where asked.
A fixture value ``{"re": PATTERN}`` matches a string by regular expression.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from mtgdice.io.compiled import card_json
from mtgdice.text import compile_text
from shared_data import shared_path

FIXTURES = Path(__file__).parent / "fixtures" / "golden" / "cards.json"
GOLDEN: list[dict[str, Any]] = json.loads(FIXTURES.read_text(encoding="utf-8"))["cards"]


def golden_id(fixture: dict[str, Any]) -> str:
    """The test id of a fixture: its key in ASCII (accents dropped), so that a test id handed back to
    pytest (as mutmut does, one id per mutant) names the same test."""
    ascii_key = unicodedata.normalize("NFKD", fixture["key"]).encode("ascii", "ignore").decode("ascii")
    return ascii_key


def card_text(card: dict[str, Any]) -> str:
    if card.get("oracle_text") is not None:
        return str(card["oracle_text"])
    return "\n".join(face.get("oracle_text", "") for face in card.get("card_faces", []))


@pytest.fixture(scope="module")
def dev_cards() -> list[dict[str, Any]]:
    return json.loads(shared_path("cards", "dice-cards.json").read_text(encoding="utf-8"))


def matches(expected: Any, actual: Any) -> bool:
    if isinstance(expected, dict) and set(expected) == {"re"}:
        return isinstance(actual, str) and re.search(expected["re"], actual) is not None
    return bool(expected == actual)


def compare(where: str, expected: dict[str, Any], actual: dict[str, Any], defaults: dict[str, Any]) -> list[str]:
    problems = []
    for key, want in expected.items():
        got = actual.get(key, defaults.get(key, "<missing>"))
        if not matches(want, got):
            problems.append(f"{where}.{key}: expected {want!r}, got {got!r}")
    return problems


def test_one_fixture_per_card(dev_cards: list[dict[str, Any]]) -> None:
    assert len(GOLDEN) == len(dev_cards) == 119
    assert sorted(f["index"] for f in GOLDEN) == list(range(len(dev_cards)))
    for fixture in GOLDEN:
        assert fixture["key"].split(" #")[0] == dev_cards[fixture["index"]]["name"]
        assert fixture.get("why"), fixture["key"]


@pytest.mark.parametrize("fixture", GOLDEN, ids=[golden_id(f) for f in GOLDEN])
def test_golden(fixture: dict[str, Any], dev_cards: list[dict[str, Any]]) -> None:
    card = dev_cards[fixture["index"]]
    compiled = card_json(
        compile_text(
            card_text(card),
            name=card["name"],
            layout=card.get("layout", "normal"),
            type_line=card.get("type_line", ""),
        )
    )
    problems: list[str] = []
    if compiled["unsupported"] != []:
        problems.append(f"unsupported: expected [], got {compiled['unsupported']!r}")
    rolls = fixture.get("rolls")
    if rolls is not None:
        if len(rolls) != len(compiled["rolls"]):
            problems.append(
                f"rolls: expected {len(rolls)} roll(s), got {len(compiled['rolls'])}: "
                f"{[r.get('text') for r in compiled['rolls']]!r}"
            )
        for i, (want, got) in enumerate(zip(rolls, compiled["rolls"], strict=False)):
            problems += compare(f"rolls[{i}]", want, got, {})
    effects = fixture.get("effects")
    if effects is not None:
        if len(effects) != len(compiled["effects"]):
            problems.append(
                f"effects: expected {len(effects)} effect(s) "
                f"{[e.get('kind') for e in effects]}, got "
                f"{[(e.get('kind'), e.get('text')) for e in compiled['effects']]!r}"
            )
        for i, (want, got) in enumerate(zip(effects, compiled["effects"], strict=False)):
            problems += compare(f"effects[{i}]", want, got, {"level": 1, "once_each_turn": False})
    if "effects_len" in fixture and len(compiled["effects"]) != fixture["effects_len"]:
        problems.append(
            f"effects: expected {fixture['effects_len']} effect(s), got "
            f"{[(e.get('kind'), e.get('text')) for e in compiled['effects']]!r}"
        )
    if fixture.get("notes_nonempty") and not compiled["notes"]:
        problems.append("notes: expected a note explaining why no dice are rolled, got []")
    assert not problems, f"{fixture['key']} ({fixture['why']}):\n  " + "\n  ".join(problems)
