"""Nothing about dice or coins is dropped in silence: ``mtgdice.text.detector`` against the compiler.

The detector (``src/mtgdice/text/detector.py``) shares nothing with the grammar: its own words for
dice and coins, and each language's lexicon words. Every sentence it marks must be read by the
grammar (it is part of a compiled roll, flip, outcome, row or effect) or listed in ``unsupported``.
Checked over every card file the project has (the dev dice cards, the coin cards, the unseen cards,
the Scryfall fixtures), over the generated Oracle-style dice texts of ``oracle_variants.py``, and over
coin texts generated here (who flips, how many coins, until, outcomes, triggers, clause order), whose
structure is written from their parameters. And it catches sentences the grammar does not know.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgdice.io.compiled import card_json
from mtgdice.text import compile_text, detector
from mtgdice.text.translate import compile_foreign
from oracle_variants import variants
from shared_data import SHARED_ROOT
from test_detector import accounted, compiled_texts

FIXTURES = Path(__file__).parent / "fixtures"
CARD_FILES = [
    SHARED_ROOT / "cards" / "dice-cards.json",
    SHARED_ROOT / "cards" / "coin-cards.json",
    FIXTURES / "unseen_cards.json",
    FIXTURES / "cards" / "oracle-cards.json",
    FIXTURES / "cards" / "all-cards.json",
]
REMINDER = re.compile(r"\((?!(?:Roll|Flip) )[^()]*\)")
"""Reminder text, except reminder text that is a roll or flip instruction (read as the roll it defines)."""
SENTENCE_END = re.compile(r"(?<=[.!?])[\"”]?\s+(?=[\"“(]?[A-Z0-9•{\[~])")
ROW_PREFIX = re.compile(r"^(?:•\s*)?\d+(?:\s*(?:[—–-]\s*\d+|\+))?\s*(?:\||[—–-]\s)\s*")


def card_text(card: dict[str, Any]) -> str:
    if card.get("oracle_text") is not None:
        return str(card["oracle_text"])
    return "\n".join(face.get("oracle_text", "") for face in card.get("card_faces", []))


def marked_sentences(text: str) -> list[str]:
    """The sentences of ``text`` the detector marks, ability by ability (line by line)."""
    found: list[str] = []
    for line in text.split("\n"):
        line = ROW_PREFIX.sub("", REMINDER.sub("", line).replace("(", "").replace(")", "")).strip()
        sentences = [part.strip() for part in SENTENCE_END.split(line) if part.strip()]
        found += [sentences[index] for index in detector.marked(sentences)]
    return found


def _bodies(sentence: str) -> list[str]:
    """The sentence, and what follows its activation cost, ability word or opening quote (the
    compiler keeps a roll's or flip's own sentence without them)."""
    found = [sentence]
    for mark in ('"', ": ", " \u2014 "):
        if mark in sentence:
            found.append(sentence.split(mark, 1)[1])
    return found


def dropped(text: str, name: str) -> list[str]:
    """The marked sentences that are neither compiled nor reported."""
    out = card_json(compile_text(text, name=name))
    compiled, unsupported = compiled_texts(out)
    for roll in out["rolls"]:
        compiled += [outcome.get("text") or "" for outcome in roll.get("outcomes") or []]
    for effect in out["effects"]:
        compiled.append(effect.get("effect") or "")
    items = compiled + unsupported
    return [s for s in marked_sentences(text) if not any(accounted(b, items, name) for b in _bodies(s))]


def _cards() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for path in CARD_FILES:
        if path.exists():
            found += [(path.name, card) for card in json.loads(path.read_text(encoding="utf-8"))]
    return found


CARDS = _cards()


def test_every_card_file_is_read() -> None:
    assert {source for source, _ in CARDS} >= {"dice-cards.json", "coin-cards.json", "unseen_cards.json"}


# Cards printed in another language are checked by test_foreign_sentences_are_never_dropped.
ENGLISH = [(source, card) for source, card in CARDS if card.get("lang", "en") == "en"]


@pytest.mark.parametrize(
    ("source", "card"), ENGLISH, ids=[f"{source}:{card['name']}" for source, card in ENGLISH]
)  # fmt: skip
def test_no_marked_sentence_of_a_card_is_dropped(source: str, card: dict[str, Any]) -> None:
    assert dropped(card_text(card), card["name"]) == []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variants)
def test_no_marked_sentence_of_a_generated_dice_text_is_dropped(variant: tuple[str, str, dict[str, Any]]) -> None:
    text, name, _expected = variant
    assert dropped(text, name) == []


# -- coin texts in Oracle style, generated ------------------------------------------------------------

NUMBERS = ("a", "two", "three", "four", "five")
LEADS = ("", "{2}, {T}: ", "Whenever ~ attacks, ", "At the beginning of your upkeep, ", "When ~ enters, ")
EFFECTS = ("draw a card", "you gain 2 life", "create a Treasure token", "scry 1", "~ deals 2 damage to you")


@st.composite
def coin_texts(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A flip with outcomes, written from parameters, and the structure it must compile to."""
    count = draw(st.integers(1, 5))
    flipper, verb = draw(st.sampled_from([("", "flip"), ("each player ", "flips"), ("target opponent ", "flips")]))
    until = draw(st.sampled_from([None, "lose", "win"])) if count == 1 and not flipper else None
    lead = draw(st.sampled_from(LEADS))
    first = f"{flipper}{verb} {NUMBERS[count - 1]} coin{'s' if count > 1 else ''}"
    if until is not None:
        first += f" until you {until} a flip"
    sentence = (lead + first) if lead else first
    sentences = [sentence[:1].upper() + sentence[1:] + "."]
    outcomes: list[tuple[str, bool]] = []
    who = "that player" if flipper == "target opponent " else "you"
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["if", "for each", "each at the end", "side"]))
        effect = draw(st.sampled_from(EFFECTS))
        won = draw(st.booleans())
        word = ("wins" if won else "loses") if who == "that player" else ("win" if won else "lose")
        if kind == "if":
            sentences.append(f"If {who} {word} the flip, {effect}.")
            outcomes.append(("won" if won else "lost", False))
        elif kind == "for each" and not flipper:
            sentences.append(f"For each flip you {word}, {effect}.")
            outcomes.append(("won" if won else "lost", True))
        elif kind == "each at the end" and not flipper:
            sentences.append(f"{effect[:1].upper() + effect[1:]} for each flip you {'won' if won else 'lost'}.")
            outcomes.append(("won" if won else "lost", True))
        else:
            side = "heads" if won else "tails"
            subject = "the coin" if count == 1 and not flipper else "all the coins" if not flipper else None
            if subject is None:
                sentences.append(f"Each player whose coin comes up {side} loses 1 life.")
                outcomes.append((side, True))
            else:
                sentences.append(f"If {subject} come{'s' if subject == 'the coin' else ''} up {side}, {effect}.")
                outcomes.append((side, False))
    reads = {when for when, _ in outcomes}
    call = until is not None or bool(reads & {"won", "lost"}) or not reads & {"heads", "tails"}
    expected = {
        "count": count,
        "until": until,
        "call": call,
        "flipper": {"": "you", "each player ": "each player", "target opponent ": "that player"}[flipper],
        "outcomes": outcomes,
    }
    return " ".join(sentences), expected


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(coin_texts())
def test_generated_coin_texts_compile_to_their_structure(case: tuple[str, dict[str, Any]]) -> None:
    text, expected = case
    compiled = compile_text(text, name="Brass Gambler")
    assert compiled.unsupported == (), text
    (roll,) = card_json(compiled)["rolls"]
    assert roll["sides"] == "coin"
    for key in ("count", "until", "call", "flipper"):
        assert roll[key] == expected[key], (key, text)
    assert [(o["when"], o["each"]) for o in roll["outcomes"]] == expected["outcomes"], text
    assert dropped(text, "Brass Gambler") == []


# -- sentences the grammar does not know -------------------------------------------------------------

UNKNOWN = [
    "Whenever a die you rolled lands on its edge, draw a card.",
    "Turn a die you rolled this turn to its opposite face.",
    "Flip a coin. Return a card from your graveyard to your hand if the coin lands on its edge.",
    "Whenever a coin you flipped stands upright, you win the game.",
    "Heads or tails decides who starts.",
    "Swap the results of two dice you rolled this turn.",
]


@pytest.mark.parametrize("text", UNKNOWN)
def test_a_new_dice_or_coin_sentence_is_reported(text: str) -> None:
    compiled = compile_text(text, name="Tester")
    assert compiled.unsupported, text
    assert dropped(text, "Tester") == []


def test_one_entry_per_sentence_with_every_reason() -> None:
    compiled = compile_text("Roll a d0 and flip a coin until you lose a flip.", name="Tester")
    (entry,) = compiled.unsupported
    assert "d0" in entry


@pytest.mark.parametrize(
    "text",
    [
        "コインが縁で立つまでコインを投げる。",
        "Würfle so lange, bis der Würfel auf der Kante landet.",
        "Wirf eine Münze, bis sie auf der Kante landet.",
        "Lanza una moneda al aire y atrápala.",
    ],
)
def test_foreign_sentences_are_never_dropped(text: str) -> None:
    assert compile_foreign(text, "Tester").unsupported != ()


@pytest.mark.parametrize(
    ("text", "reads"),
    [
        ("Wirf eine Münze. Falls du den Münzwurf gewinnst, ziehe eine Karte.", ["won"]),
        ("Wirf drei Münzen.", []),
        ("Lanza una moneda. Si pierdes el lanzamiento, sacrifica esta criatura.", ["lost"]),
        ("Lancez une pièce. Si vous gagnez le lancer, piochez une carte.", ["won"]),
    ],
)
def test_foreign_flips_compile(text: str, reads: list[str]) -> None:
    card = compile_foreign(text, "Tester")
    assert card.unsupported == ()
    (flip,) = card.flips
    assert [outcome.reads.value for outcome in flip.outcomes] == reads


def test_a_reminder_that_defines_a_roll_is_read_as_that_roll() -> None:
    compiled = compile_text(
        "When ~ enters, it makes a dexterity check. (Roll a d20.) If the result is 12 or higher, draw a card.",
        name="Nimble Rogue",
    )
    assert compiled.unsupported == ()
    (roll,) = compiled.rolls
    assert roll.die.sides == 20 and len(roll.outcomes) == 1


@pytest.mark.parametrize("lang", ["de", "es", "ja"])
def test_a_table_on_one_line_reads_as_on_its_own_lines(lang: str) -> None:
    one_line, lines = {
        "de": ("Wirf einen W12. 1–6 | Ziehe eine Karte. 7–12 | Ziehe zwei Karten.", "\n"),
        "es": ("Tira un d12. 1–6 | Roba una carta. 7–12 | Roba dos cartas.", "\n"),
        "ja": ("d12を振る。1～6｜カードを1枚引く。7～12｜カードを2枚引く。", "\n"),
    }[lang]
    split = re.sub(r"(?<=[.。])\s*(?=\d+\s*[–～])", lines, one_line)
    assert split != one_line
    first, second = compile_foreign(one_line, "Tester"), compile_foreign(split, "Tester")
    rows = [[(row.low, row.high) for row in roll.table.rows] for roll in first.rolls if roll.table is not None]
    assert rows == [[(1, 6), (7, 12)]]
    assert first.rolls == second.rolls and first.unsupported == second.unsupported == ()
