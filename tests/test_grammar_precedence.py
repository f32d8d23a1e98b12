"""First match, declared: where two sentence rules read the same sentence, the compiler's
``PRECEDENCE`` must name the pair (the winner first, with the reason).

Each sentence of the known cards, of the synthetic wording families and of generated Oracle texts
is given to every sentence rule on its own (a copy of the compiler and of the ability's state), and
the rules that read it are the overlap. ``_rule_follow_up`` is the fallback and overlaps by design.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings

from mtgdice.errors import CardTextError
from mtgdice.text import compile_text
from mtgdice.text import compiler as compiler_module
from mtgdice.text.normalize import for_matching
from oracle_variants import variants
from shared_data import shared_path
from test_grammar_rules import FAMILIES

FALLBACK = "_rule_follow_up"
RULES = [rule.__name__ for rule in compiler_module._SENTENCE_RULES]
DECLARED = {(first, second) for first, second, _ in compiler_module.PRECEDENCE}


@contextmanager
def overlaps() -> Iterator[dict[tuple[str, str], str]]:
    """While the block runs, every compiled sentence is also tried by each rule alone."""
    found: dict[tuple[str, str], str] = {}
    real = compiler_module._Compiler.sentence

    def sentence(self: Any, original: str, ability: Any, cost: str | None, state: Any = None) -> None:
        given_state = state or compiler_module._State(cost=cost)
        text = for_matching(original).rstrip(".").strip()
        if text:
            readers = [
                rule.__name__
                for rule in compiler_module._SENTENCE_RULES
                if _reads(rule, copy.deepcopy(self), text, original.strip(), copy.deepcopy(given_state))
            ]
            for i, first in enumerate(readers):
                for second in readers[i + 1 :]:
                    found.setdefault((first, second), original.strip())
        real(self, original, ability, cost, state)

    compiler_module._Compiler.sentence = sentence  # type: ignore[method-assign]
    try:
        yield found
    finally:
        compiler_module._Compiler.sentence = real  # type: ignore[method-assign]


def _reads(rule: Any, compiler: Any, text: str, original: str, state: Any) -> bool:
    """Whether a rule claims the sentence: it reads it, or reads it and the rules refuse it."""
    try:
        return bool(rule(compiler, text, original, state))
    except (CardTextError, ValueError):
        return True


def undeclared(found: dict[tuple[str, str], str]) -> list[str]:
    return sorted(
        f"{a} and {b}: {text!r}" for (a, b), text in found.items() if b != FALLBACK and (a, b) not in DECLARED
    )


def _known_cards() -> list[dict[str, Any]]:
    unseen = Path(__file__).parent / "fixtures" / "unseen_cards.json"
    return json.loads(shared_path("cards", "dice-cards.json").read_text(encoding="utf-8")) + json.loads(
        unseen.read_text(encoding="utf-8")
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
    # Every declaration is still needed, and agrees with the order the rules are tried in.
    assert DECLARED <= set(found)
    assert all(RULES.index(a) < RULES.index(b) for a, b in DECLARED)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variants)
def test_overlaps_on_generated_texts_are_declared(variant: tuple[str, str, dict[str, Any]]) -> None:
    text, name, expected = variant
    with overlaps() as found:
        compile_text(text, name=name, layout=expected.get("layout", "normal"))
    assert undeclared(found) == []


def test_an_undeclared_overlap_is_reported() -> None:
    found = {("_rule_doubles", "_rule_conditional"): "If you rolled doubles, ...", ("_rule_roll", FALLBACK): "x"}
    assert undeclared(found) == ["_rule_doubles and _rule_conditional: 'If you rolled doubles, ...'"]
