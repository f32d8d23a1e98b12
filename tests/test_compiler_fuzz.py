"""Fuzzing ``compile_text``: any text compiles or is refused with the documented error, quickly.

Inputs: the dev cards' Oracle texts mutated word by word (insert, delete, replace, swap lines,
splice in random dice phrases), table-like lines with random numbers and dashes, and arbitrary
Unicode with lone surrogates, giant integers in every numeric slot, deep punctuation. ``compile_text``
never raises on a text within the size limit: what it cannot read goes to ``unsupported``. The only
exception is :class:`mtgdice.errors.CardTextError` (a one-line ``ValueError``) for a text over
20 000 characters, refused at once. Work is bounded in work units, not seconds
(``work_units.calls``: the calls a compilation makes, the same on a busy machine): at most
:data:`WORK_PER_CHAR` calls per character of the text, plus :data:`WORK_BASE`, and growing linearly with the
text. The output must be the JSON object of json-interface.md.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgdice.errors import CardTextError
from mtgdice.io.compiled import card_json
from mtgdice.text import compile_text, mentions_dice
from mtgdice.text.compiler import MAX_TEXT
from mtgdice.text.normalize import strip_reminder
from shared_data import SHARED_ROOT
from work_units import calls

CARDS_PATH = SHARED_ROOT / "cards" / "dice-cards.json"
DEV_TEXTS = (
    [c.get("oracle_text") or "" for c in json.loads(CARDS_PATH.read_text(encoding="utf-8"))]
    if CARDS_PATH.exists()
    else ["Roll a d20.\n1\u20149 | Draw a card.\n10\u201420 | Draw two cards."]
)

DICE_PHRASES = [
    "roll a d20",
    "Roll two d20 and ignore the lower roll.",
    "roll X six-sided dice",
    "roll a six-sided die twice",
    "roll the planar die",
    "reroll any die",
    "Whenever you roll one or more dice,",
    "a natural 20",
    "instead roll that many dice plus one and ignore the lowest roll",
    "1\u20149 |",
    "15+ |",
    "20 |",
    "\u2022 2 \u2014",
    "roll again",
    "repeat this process",
    "and add the number of cards in your hand",
    "and subtract 3",
    "store those results on it",
    "reroll any number of its stored results",
    "increase or decrease the result by 1",
    "Whenever you roll a 4 or higher on a die,",
    "{CHAOS}",
    "roll 0 d0",
    "roll -1 d-6",
    "roll 99999999999999999999 d99999999999999999999",
    "roll a 0-sided die",
    "roll a d1",
    "1\u2014 |",
    "\u20149 |",
    "20\u20141 |",
    "+ |",
    "| |",
    "(",
    ")",
    '"',
    "\u2014",
    ":",
    "X",
    "roll",
    "dice",
    "die",
    "d",
    "-sided",
    "twice",
    "ignore",
    "choose one result",
    "where X is the result",
]
WORDS = st.sampled_from(DICE_PHRASES) | st.text(min_size=1, max_size=12)


@st.composite
def mutated_card_text(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(DEV_TEXTS))
    lines = text.split("\n")
    if len(lines) > 1 and draw(st.booleans()):
        lines = draw(st.permutations(lines))
    words = " \n ".join(lines).split(" ")
    for _ in range(draw(st.integers(0, 8))):
        op = draw(st.sampled_from(["insert", "delete", "replace", "phrase"]))
        at = draw(st.integers(0, max(len(words) - 1, 0)))
        if op == "insert":
            words.insert(at, draw(WORDS))
        elif op == "delete" and words:
            del words[at]
        elif op == "replace" and words:
            words[at] = draw(WORDS)
        else:
            words.insert(at, draw(st.sampled_from(DICE_PHRASES)))
    return " ".join(words).replace(" \n ", "\n")


table_line = st.builds(
    lambda lo, dash, hi, sep, body: f"{lo}{dash}{hi} {sep} {body}",
    st.integers(-5, 10**6),
    st.sampled_from(["\u2014", "\u2013", "-", "", "+", " or "]),
    st.one_of(st.just(""), st.integers(-5, 10**6).map(str)),
    st.sampled_from(["|", "\u2014", "-", ""]),
    st.sampled_from(["Draw a card.", "Roll again.", "", "You may roll again.", "Roll a d6."]),
)
table_text = st.builds(
    lambda head, rows: head + "\n" + "\n".join(rows),
    st.sampled_from(["Roll a d20.", "Roll two d6.", "Roll X d8 and add 1.", "Roll a six-sided die.", ""]),
    st.lists(table_line, max_size=8),
)
unicode_text = st.text(
    st.characters(blacklist_categories=("Cs",)) | st.sampled_from(list('\n|\u2014\u2013-+()"{}\u2022')),
    max_size=400,
)
mixed = st.lists(st.one_of(unicode_text, st.sampled_from(DICE_PHRASES)), max_size=12).map(" ".join)
names = st.one_of(st.just(""), st.text(max_size=20), st.sampled_from(["Roll", "Die", "d20", "X", "~", "("]))
layouts = st.sampled_from(["normal", "planar", "class", "", "\u2603"])


WORK_PER_CHAR = 40
"""Calls a compilation may make per character of its text (the dev cards take at most 6, the
pathological texts below 13): linear work, whatever the text."""
WORK_BASE = 5_000
"""Calls any compilation may make on top (a short text's fixed cost)."""


def bounded_work(text: str, **options: str) -> Any:
    """``compile_text(text, **options)`` (the card, or the error it raised), asserting its work bound."""
    compile_text("Roll a d20.")  # lazily built grammar and caches: not the work of ``text``
    work, card = calls(compile_text, text, **options)
    assert work <= WORK_PER_CHAR * len(text) + WORK_BASE, f"{work} calls for {len(text)} characters"
    return card


def check(text: str, name: str = "", layout: str = "normal", type_line: str = "") -> None:
    card = bounded_work(text, name=name, layout=layout, type_line=type_line)
    if isinstance(card, CardTextError):
        assert len(text) > MAX_TEXT, f"compile_text raised on {len(text)} characters: {card}"
        assert "\n" not in str(card)
        return
    if isinstance(card, Exception):
        raise card
    out: dict[str, Any] = card_json(card)
    json.dumps(out)
    assert set(out) >= {"name", "rolls", "effects", "unsupported"}
    assert all(isinstance(u, str) for u in out["unsupported"])
    for roll in out["rolls"]:
        assert isinstance(roll["count"], (int, str)) and not isinstance(roll["count"], bool)
        assert isinstance(roll["sides"], (int, str)) and not isinstance(roll["sides"], bool)
        if isinstance(roll["sides"], int):
            assert roll["sides"] >= 1, roll
        if roll["table"] is not None:
            for low, high in roll["table"]:
                assert isinstance(low, int), roll
                assert high is None or (isinstance(high, int) and high >= low), roll
    mentions_dice(text)


FUZZ = settings(
    deadline=None,  # no seconds: check() bounds each example's work in calls
    max_examples=150,
    suppress_health_check=[HealthCheck.too_slow],
)


@FUZZ
@given(mutated_card_text(), names)
def test_mutated_card_texts(text: str, name: str) -> None:
    check(text, name)


@FUZZ
@given(table_text)
def test_random_tables(text: str) -> None:
    check(text)


@FUZZ
@given(mixed, names, layouts, st.text(max_size=20))
def test_random_unicode(text: str, name: str, layout: str, type_line: str) -> None:
    check(text, name, layout, type_line)


giant = st.one_of(
    st.text("0123456789", min_size=10, max_size=6000),  # past int()'s 4300 digits too
    st.integers(-(10**30), -1).map(str),
    st.sampled_from(["0", "00", "1" * 4301]),
)
numeric_templates = st.sampled_from(
    [
        "Roll {n} d{n}.",
        "Roll a {n}-sided die and add {n}.",
        "Roll a d20.\n{n}\u2014{n} | Draw a card.\n{n}+ | Roll again {n} more times.",
        "Roll a d20. {n}-{n} | Draw a card. {n}-{n} | Draw two cards.",
        "Whenever you roll a {n} or higher, draw a card.",
        "Whenever you roll your {n}th die each turn, if its result is {n}, draw a card.",
        "Increase the result of each die you roll by {n}.",
        "If you would roll a d{n}, instead roll {n} d{n}s and ignore the lower roll.",
        "If you would flip a coin, instead flip {n} coins and ignore {n}.",
        "Roll five d6. If you rolled {n} exactly {n} times, you win the game.",
        "Roll {n} d6 and ignore all but the highest {n} rolls.",
        "{n}: Roll a d{n}. Level {n}",
    ]
)
giant_text = st.builds(lambda template, n: template.replace("{n}", n), numeric_templates, giant)
surrogates = st.text(
    st.characters(whitelist_categories=("Cs",)) | st.sampled_from(list("roll a d20 .|\u2014")), max_size=200
)
deep = st.builds(
    lambda opener, depth, middle: opener * depth + middle + {"(": ")", "[": "]", "{": "}", '"': '"'}[opener] * depth,
    st.sampled_from(["(", "[", "{", '"']),
    st.integers(1, 3000),
    st.sampled_from(["Roll a d20.", "roll", "", "1\u20149 | Draw a card."]),
)


@FUZZ
@given(giant_text)
def test_giant_numbers_are_unsupported_never_an_error(text: str) -> None:
    check(text)


@FUZZ
@given(surrogates, names)
def test_lone_surrogates(text: str, name: str) -> None:
    check(text, name)


@FUZZ
@given(deep)
def test_deep_punctuation(text: str) -> None:
    check(text)


def test_very_long_input_is_refused_quickly() -> None:
    text = ("Roll a d20 and add the number of cards in your hand. " * 400) + "\n1\u20149 | Draw a card."
    assert len(text) > 20_000
    work, refused = calls(compile_text, text, name="Long")
    assert isinstance(refused, CardTextError), "a text over 20 000 characters must raise CardTextError"
    assert isinstance(refused, ValueError)
    # Refused before it is read: the same few calls for a text ten times as long.
    assert (work, type(refused)) == (calls(compile_text, text * 10, name="Long")[0], CardTextError)
    assert work < 100


def linear(text: str) -> Any:
    """Compile ``text`` within the work bound, and check the work grows linearly: a quarter of the
    text costs at least a fifth of the whole's calls (a quadratic reading would cost a sixteenth)."""
    card = bounded_work(text)
    whole, _ = calls(compile_text, text)
    quarter, _ = calls(compile_text, text[: len(text) // 4])
    assert whole <= 5 * quarter + WORK_BASE, f"{whole} calls for the text, {quarter} for a quarter of it"
    return card


def test_just_over_the_limit_is_refused_and_at_the_limit_compiles() -> None:
    head = "Roll a d20.\n"
    try:
        compile_text(head + "x" * (20_001 - len(head)))
    except CardTextError:
        pass
    else:
        raise AssertionError("20 001 characters must raise CardTextError")
    card = bounded_work(head + "y" * (20_000 - len(head)))
    assert not isinstance(card, Exception), card
    assert card.rolls and card.rolls[0].die.sides == 20


@pytest.mark.timeout(300)  # a guard against a hang, not a timing claim
def test_pathological_regex_inputs_are_fast() -> None:
    """Long runs of the characters dice phrases are made of must not make the grammar backtrack:
    linear work (a backtracking regex that hangs inside one call is stopped by pytest-timeout)."""
    for chunk in ["roll ", "d2", "1\u20141 ", "1+ | ", "six-sided ", "a a a ", "- ", "((", "\u2022 "]:
        text = chunk * (19_000 // len(chunk))
        card = linear(text)
        assert not isinstance(card, Exception) or isinstance(card, CardTextError), (chunk, card)


@pytest.mark.timeout(300)  # a guard against a hang, not a timing claim
@pytest.mark.parametrize(
    "chunk",
    [
        "Roll a d6 and ",
        "roll a d20, ",
        "if you would roll a die, instead roll ",
        "after you roll a die, you may ",
        "if you roll a 1 or 2 or 3 or ",
        "Whenever you roll a 1, ",
    ],
)
def test_one_long_sentence_of_repeated_phrases_is_read_in_bounded_time_and_reported_once(chunk: str) -> None:
    """Hundreds of rolls or conditions in one sentence: read in sequence (no recursion per roll),
    in linear work, and the sentence, if not understood, is one entry of ``unsupported`` with every reason."""
    text = chunk * (19_000 // len(chunk))
    card = linear(text)
    assert not isinstance(card, Exception), (chunk, card)
    assert len(card.unsupported) <= 1


def _reminder_by_regex(text: str) -> str:
    """Reminder text as first defined: innermost "(...)" and the spaces before it, until none is left."""
    innermost = re.compile(r"\s*\([^()]*\)")
    previous = None
    while previous != text:
        previous, text = text, innermost.sub("", text)
    return text


@FUZZ
@given(st.text(st.sampled_from(list("ab ()\n\t.")), max_size=40) | mutated_card_text())
def test_reminder_text_goes_as_the_regex_definition_says(text: str) -> None:
    assert strip_reminder(text) == _reminder_by_regex(text)
