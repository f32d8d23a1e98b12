"""Generalisation measured: the compiler passes the generator of Oracle-style card texts
(``oracle_variants.py``), each text against the structure written from its parameters."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings

from mtgdice.io.compiled import card_json
from mtgdice.text import compile_text
from oracle_variants import TEMPLATES, Variant, variants


def matches(expected: Any, actual: Any, where: str = "") -> list[str]:
    """Where ``actual`` differs from the partial ``expected`` (dicts: only the keys listed; lists: all)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where}: expected an object, got {actual!r}"]
        return [p for key, want in expected.items() for p in matches(want, actual.get(key, False), f"{where}.{key}")]
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{where}: expected {len(expected)} items, got {actual!r}"]
        return [
            p
            for i, (want, got) in enumerate(zip(expected, actual, strict=True))
            for p in matches(want, got, f"{where}[{i}]")
        ]
    return [] if expected == actual else [f"{where}: expected {expected!r}, got {actual!r}"]


def check(variant: Variant) -> None:
    text, name, expected = variant
    expected = dict(expected)
    layout = expected.pop("layout", "normal")
    out = card_json(compile_text(text, name=name, layout=layout))
    assert out["unsupported"] == [], text
    problems = matches(expected, out)
    assert problems == [], f"{text!r}: {problems}"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variants)
def test_generated_oracle_texts_compile_to_their_structure(variant: Variant) -> None:
    check(variant)


def test_the_comparison_sees_a_wrong_field() -> None:
    assert matches({"rolls": [{"sides": 20}]}, {"rolls": [{"sides": 6, "count": 1}]}) == [
        ".rolls[0].sides: expected 20, got 6"
    ]
    assert matches({"effects": []}, {"effects": [{"kind": "trigger"}]}) != []


def test_every_template_is_drawn() -> None:
    assert len(TEMPLATES) >= 15
