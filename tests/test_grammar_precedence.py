"""No production is tried first: where two productions of the grammar both read a whole sentence,
``grammar.PRECEDENCE`` must name the pair (the winner first, with the reason).

Each sentence of the known cards, of the synthetic wording families and of generated Oracle texts is
read by every sentence production that may stand where it stands (``grammar.readings``, what the
compiler itself asks), and the productions that read all of it are the overlap.
``grammar.FALLBACK`` reads a sentence only when nothing else does, and overlaps by design.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings

from mtgdice.text import compile_text, grammar
from mtgdice.text.parsing import tokenize
from oracle_variants import variants
from shared_data import shared_path
from test_grammar_rules import FAMILIES

DECLARED = {frozenset((winner, loser)) for winner, loser, _why in grammar.PRECEDENCE}


@contextmanager
def overlaps() -> Iterator[dict[frozenset[str], str]]:
    """While the block runs, every pair of productions that read the same sentence is recorded."""
    found: dict[frozenset[str], str] = {}
    real = grammar.readings

    def readings(s: Any, context: grammar.Context) -> list[grammar.Reading]:
        result = real(s, context)
        names = [reading.production for reading in result]
        for i, first in enumerate(names):
            for second in names[i + 1 :]:
                found.setdefault(frozenset((first, second)), s.text)
        return result

    grammar.readings = readings  # type: ignore[assignment]
    try:
        yield found
    finally:
        grammar.readings = real  # type: ignore[assignment]


def _same_place(s: Any, productions: tuple[Any, ...]) -> list[str]:
    """Places of a sentence where more than one of ``productions`` reads (heads or tails of a roll)."""
    clashes = []
    for j in range(len(s.words)):
        names = [p.name for p in productions if p.may_read(s, j) and p.attempt(s, j) is not None]
        if len(names) > 1:
            clashes.append(f"{' and '.join(names)} at {s.between(j, len(s.words))!r}")
    return clashes


@contextmanager
def clashes() -> Iterator[list[str]]:
    """While the block runs, every sentence read is checked for two heads or two tails at one place."""
    found: list[str] = []
    real = grammar.readings

    def readings(s: Any, context: grammar.Context) -> list[grammar.Reading]:
        found.extend(_same_place(s, grammar.HEADS) + _same_place(s, grammar.TAILS))
        return real(s, context)

    grammar.readings = readings  # type: ignore[assignment]
    try:
        yield found
    finally:
        grammar.readings = real  # type: ignore[assignment]


def test_a_rolls_heads_and_tails_never_both_read_at_one_place() -> None:
    """The roll scanner takes the one head or tail that reads where it stands: none is tried first."""
    with clashes() as found:
        for card in _known_cards():
            text = card.get("oracle_text") or "\n".join(f.get("oracle_text", "") for f in card.get("card_faces", []))
            compile_text(text, name=card["name"], layout=card.get("layout", "normal"))
        for texts in FAMILIES.values():
            for text in texts:
                compile_text(text, name="Tester")
    assert found == []


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variants)
def test_heads_and_tails_of_generated_texts_never_both_read_at_one_place(
    variant: tuple[str, str, dict[str, Any]],
) -> None:
    text, name, expected = variant
    with clashes() as found:
        compile_text(text, name=name, layout=expected.get("layout", "normal"))
    assert found == []


def undeclared(found: dict[frozenset[str], str]) -> list[str]:
    return sorted(
        f"{' and '.join(sorted(pair))}: {text!r}"
        for pair, text in found.items()
        if not grammar.FALLBACKS & pair and pair not in DECLARED
    )


def _known_cards() -> list[dict[str, Any]]:
    unseen = Path(__file__).parent / "fixtures" / "unseen_cards.json"
    return (
        json.loads(shared_path("cards", "dice-cards.json").read_text(encoding="utf-8"))
        + json.loads(shared_path("cards", "coin-cards.json").read_text(encoding="utf-8"))
        + json.loads(unseen.read_text(encoding="utf-8"))
    )


def test_overlaps_on_known_cards_and_families_are_declared() -> None:
    with overlaps() as found:
        for card in _known_cards():
            text = card.get("oracle_text") or "\n".join(f.get("oracle_text", "") for f in card.get("card_faces", []))
            compile_text(
                text, name=card["name"], layout=card.get("layout", "normal"), type_line=card.get("type_line", "")
            )
        for texts in FAMILIES.values():
            for text in texts:
                compile_text(text, name="Tester")
    assert undeclared(found) == []
    # Every declaration is still needed.
    assert DECLARED <= set(found)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variants)
def test_overlaps_on_generated_texts_are_declared(variant: tuple[str, str, dict[str, Any]]) -> None:
    text, name, expected = variant
    with overlaps() as found:
        compile_text(text, name=name, layout=expected.get("layout", "normal"))
    assert undeclared(found) == []


def test_an_undeclared_overlap_is_reported() -> None:
    found = {
        frozenset(("DOUBLES", "CONDITIONAL")): "if you rolled doubles, ...",
        frozenset(("ROLLS", grammar.FALLBACK)): "x",
    }
    assert undeclared(found) == ["CONDITIONAL and DOUBLES: 'if you rolled doubles, ...'"]


def test_a_declared_pair_is_read_by_its_winner() -> None:
    s, reading = grammar.read("if you roll a 6, repeat this process", grammar.Context(roll=True))
    assert isinstance(reading, grammar.Reading) and reading.production == "REPEAT"
    both = {r.production for r in grammar.readings(s, grammar.Context(roll=True))}
    assert both == {"REPEAT", "CONDITIONAL"}


def test_an_undeclared_conflict_is_unsupported_not_guessed() -> None:
    one = grammar.Reading("DOUBLES", None)
    other = grammar.Reading("CONDITIONAL", None)
    assert grammar.choose([one, other]) == [one, other]
    assert grammar.choose([one, grammar.Reading(grammar.FALLBACK, None)]) == one


def test_the_place_check_finds_two_readers() -> None:
    s = tokenize("roll 2 d20 and ignore the lowest roll")
    assert _same_place(s, grammar.TAILS) == []
    assert _same_place(s, (grammar.TAIL_IGNORE, grammar.TAIL_IGNORE)) == [
        "TAIL_IGNORE and TAIL_IGNORE at 'and ignore the lowest roll'"
    ]
