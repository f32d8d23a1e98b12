"""Nothing about dice is silently dropped: an independent detector against the compiler.

The detector here has its own regular expression (it does not import the compiler's): a sentence
mentions dice when it names a die or dice, a ``dN``, an ``N-sided`` die, or rolling (roll, rolls,
rolled, rolling, reroll...), outside reminder text in parentheses. For every dev card of
``../shared/cards/dice-cards.json`` and every mutation of ``test_mutations.py``, each such sentence
must be accounted for by the compiler (json-interface.md: "Unknown text is never silently dropped"):

- compiled: it is (part of) the ``text`` of a roll or an effect, or of a table row or outcome of a
  roll; or
- reported: it is (part of) an entry of ``unsupported``.

Two allowances: a card whose dice are not rolled (a dexterity card that stacks dice) may account
for its sentences with a note; and a sentence in a results-table row counts as reported when
``unsupported`` reports that table as broken (e.g. rows out of order), since the compiler then
drops the whole table. A roll's ``text`` may leave out an activation cost or ability word: a compiled
text that contains every dice mention of the sentence accounts for it.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from mtgdice.io.compiled import card_json
from mtgdice.text import compile_text
from shared_data import SHARED_ROOT, shared_path
from test_mutations import MUTATIONS, Mutation, mutation_id

# Read at collection time to parametrise; tests call shared_path() for the skip/fail policy.
CARDS_PATH = SHARED_ROOT / "cards" / "dice-cards.json"

DICE_WORDS = re.compile(
    r"\b(?:dice|die|d\d+|(?:\w+|\d+)-sided|re-?roll(?:s|ed|ing)?|roll(?:s|ed|ing)?|planar die)\b",
    re.IGNORECASE,
)
REMINDER = re.compile(r"\([^()]*\)")
SENTENCE_END = re.compile(r"(?<=[.!?])[\"”]?\s+(?=[\"“]?[A-Z0-9•{\[])")
ROW_PREFIX = re.compile(r"^(?:•\s*)?(?:\d+(?:\s*(?:[—–-]\s*\d+|\+|\s+or\s+\d+))?\s*(?:\||[—–-])\s*)")
SELF_WORDS = re.compile(r"\bthis (?:creature|card|enchantment|artifact|equipment|vehicle|permanent|spell)\b")


def load_cards() -> list[dict[str, Any]]:
    return json.loads(CARDS_PATH.read_text(encoding="utf-8")) if CARDS_PATH.exists() else []


def dice_sentences_by_line(text: str, name: str) -> list[tuple[list[str], bool]]:
    """For each line of ``text``: its sentences that mention dice or rolling (reminder text
    removed), and whether the line is a results-table or list row."""
    names = [name, name.split(",")[0]] if name else []
    lines = []
    for line in text.split("\n"):
        line = REMINDER.sub("", line).strip()
        in_row = bool(ROW_PREFIX.match(line))
        line = ROW_PREFIX.sub("", line)
        found = []
        for sentence in SENTENCE_END.split(line):
            probe = sentence
            for n in names:
                probe = probe.replace(n, "~")  # a card named "Six-Sided Die" does not mention a die
            if sentence.strip() and DICE_WORDS.search(probe):
                found.append(sentence.strip())
        lines.append((found, in_row))
    return lines


def dice_sentences(text: str, name: str) -> list[str]:
    """Every sentence of ``text`` (reminder text removed) that mentions dice or rolling."""
    return [s for found, _ in dice_sentences_by_line(text, name) for s in found]


def norm(text: str, name: str) -> str:
    text = text.replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"')
    for n in sorted({name, name.split(",")[0]} - {""}, key=len, reverse=True):
        text = text.replace(n, "~")
    text = SELF_WORDS.sub("~", text.lower())
    text = re.sub(r"[^a-z0-9~+{} ]+", " ", text)
    return " ".join(text.split())


def compiled_texts(out: dict[str, Any]) -> tuple[list[str], list[str]]:
    compiled: list[str] = []
    for roll in out["rolls"]:
        compiled.append(roll.get("text") or "")
        for row in roll.get("rows") or []:
            compiled.append(f"{row.get('results', '')} {row.get('text', '')}")
            compiled.append(row.get("text") or "")
        for outcome in roll.get("outcomes") or []:
            compiled.append(outcome.get("text") or "")
    for effect in out["effects"]:
        compiled.append(effect.get("text") or "")
    return compiled, [str(u) for u in out["unsupported"]]


def accounted(sentence: str, items: list[str], name: str) -> bool:
    """Whether a compiled or reported text contains the sentence, or at least the part of it that
    mentions dice (a roll's text leaves out an activation cost or an ability word before it)."""
    s = norm(sentence, name)
    if not s:
        return True
    mentions = [m.span() for m in DICE_WORDS.finditer(s)]
    for item in items:
        i = norm(item, name)
        if not i:
            continue
        if s in i:
            return True
        start = s.find(i)
        if start >= 0 and mentions and all(start <= a and b <= start + len(i) for a, b in mentions):
            return True
        # A text that joins this sentence to the next ("roll a d6. Install the result on ~."): the
        # sentence from some word before its first mention of dice to its end begins the item.
        if mentions and any(i.startswith(s[k:]) for k in _word_starts(s, mentions[0][0])):
            return True
    return False


def _word_starts(s: str, limit: int) -> list[int]:
    return [m.start() for m in re.finditer(r"(?<!\S)\S", s) if m.start() <= limit]


def unaccounted(text: str, name: str, layout: str = "normal", type_line: str = "") -> list[str]:
    out = card_json(compile_text(text, name=name, layout=layout, type_line=type_line))
    compiled, unsupported = compiled_texts(out)
    missing = []
    for line_sentences, in_row in dice_sentences_by_line(text, name):
        for sentence in line_sentences:
            if accounted(sentence, compiled + unsupported, name):
                continue
            if in_row and any("results table" in u for u in unsupported):
                continue  # a row of a table the compiler reported as broken
            missing.append(sentence)
    if missing and not out["rolls"] and out["notes"]:
        return []  # dice that are not rolled (dexterity), explained in a note
    return missing


def test_shared_cards_present() -> None:
    assert len(json.loads(shared_path("cards", "dice-cards.json").read_text(encoding="utf-8"))) == len(CARDS)


def test_detector_finds_dice_sentences() -> None:
    assert dice_sentences("Flying\nRoll a d20. Draw a card.", "X") == ["Roll a d20."]
    assert dice_sentences("Seek. (You can roll the planar die.)", "X") == []
    assert dice_sentences("1—9 | Reroll it.", "X") == ["Reroll it."]
    assert dice_sentences("Six-Sided Die deals 3 damage to it.", "Six-Sided Die") == []
    assert dice_sentences("As ~ enters, roll a six-sided die twice.", "Y") != []


CARDS = load_cards()


@pytest.mark.parametrize(
    "index",
    range(len(CARDS)),
    ids=[c["name"] + (f" #{i}" if c["name"] == "Garbage Elemental" else "") for i, c in enumerate(CARDS)],
)
def test_dev_card_sentences_are_compiled_or_reported(index: int) -> None:
    card = CARDS[index]
    text = card.get("oracle_text") or "\n".join(f.get("oracle_text", "") for f in card.get("card_faces", []))
    missing = unaccounted(text, card["name"], card.get("layout", "normal"), card.get("type_line", ""))
    assert not missing, f"{card['name']}: dice sentences neither compiled nor in unsupported: {missing!r}"


@pytest.mark.parametrize("m", MUTATIONS, ids=mutation_id)
def test_mutation_sentences_are_compiled_or_reported(m: Mutation) -> None:
    missing = unaccounted(m.text, m.card.split(" #")[0])
    assert not missing, (
        f"{m.card} [{m.kind}]: dice sentences neither compiled nor in unsupported: {missing!r}\n{m.text}"
    )


TABLE_LINE = re.compile(r"^(?:•\s*)?\d+\s*(?:[—–-]\s*\d+|\+|\s+or\s+\d+)?\s*(?:\||[—–-]\s)\s*(?P<text>.*)$")


def unaccounted_rows(text: str, name: str, layout: str = "normal", type_line: str = "") -> list[str]:
    """Results-table lines ("1—9 | ...", "2 — menace") that are neither a row of a roll nor reported.

    A row's text rarely mentions dice, so the sentence detector above cannot see a row the compiler
    drops; this check can. A table reported as broken accounts for all its rows.
    """
    out = card_json(compile_text(text, name=name, layout=layout, type_line=type_line))
    rows = [norm(row.get("text") or "", name) for roll in out["rolls"] for row in roll.get("rows") or []]
    unsupported = [norm(u, name) for u in out["unsupported"]]
    if any("results table" in u for u in out["unsupported"]):
        return []
    missing = []
    for line in text.split("\n"):
        match = TABLE_LINE.match(REMINDER.sub("", line).strip())
        if match is None:
            continue
        body = norm(match.group("text"), name)
        if body and not any(body in r for r in rows) and not any(body in u for u in unsupported):
            missing.append(line)
    return missing


@pytest.mark.parametrize(
    "index",
    range(len(CARDS)),
    ids=[c["name"] + (f" #{i}" if c["name"] == "Garbage Elemental" else "") for i, c in enumerate(CARDS)],
)
def test_dev_card_table_rows_are_compiled_or_reported(index: int) -> None:
    card = CARDS[index]
    missing = unaccounted_rows(card.get("oracle_text") or "", card["name"], card.get("layout", "normal"))
    assert not missing, f"{card['name']}: table rows neither compiled nor in unsupported: {missing!r}"


@pytest.mark.parametrize("m", [m for m in MUTATIONS if m.kind in ("dashes", "ranges", "reorder")], ids=mutation_id)
def test_mutation_table_rows_are_compiled_or_reported(m: Mutation) -> None:
    missing = unaccounted_rows(m.text, m.card.split(" #")[0])
    assert not missing, f"{m.card} [{m.kind}]: table rows neither compiled nor in unsupported: {missing!r}\n{m.text}"
