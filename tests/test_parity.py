"""Even and odd results (a real family: "for each odd result, ...", "... for each even result"):
read as a condition on each die, never as "every die" (which counted each die for both rows)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from mtgdice import ScriptedSource, compile_text, resolve
from mtgdice.rules import Parity, Reads


def outcomes(text: str) -> list[tuple[str, Reads, object]]:
    card = compile_text(text)
    return [(o.text, o.reads, o.condition) for roll in card.rolls for o in roll.outcomes]


def test_each_odd_and_each_even_result_are_conditions_on_each_die() -> None:
    read = outcomes(
        "When this enters, roll X six-sided dice. For each odd result, create a 1/1 token. "
        "For each even result, put a +1/+1 counter on ~."
    )
    assert [(reads, condition) for _, reads, condition in read] == [
        (Reads.EACH, Parity(even=False)),
        (Reads.EACH, Parity(even=True)),
    ]


def test_the_effect_may_come_before_for_each_even_result() -> None:
    read = outcomes("Roll three six-sided dice. Create a Treasure token for each even result.")
    assert [(reads, condition) for _, reads, condition in read] == [(Reads.EACH, Parity(even=True))]


@pytest.mark.parametrize(("word", "even"), [("even", True), ("odd", False)])
def test_if_the_result_or_total_is_even_or_odd(word: str, even: bool) -> None:
    assert [(r, c) for _, r, c in outcomes(f"Roll a d20. If the result is {word}, draw a card.")] == [
        (Reads.RESULT, Parity(even=even))
    ]
    assert [(r, c) for _, r, c in outcomes(f"Roll two d6. If the total is {word}, draw a card.")] == [
        (Reads.TOTAL, Parity(even=even))
    ]


def test_each_row_holds_only_when_a_die_of_its_kind_is_rolled() -> None:
    """Resolved with every face sequence of three d6: the odd row holds when some die is odd, the
    even row when some die is even (read by hand from the faces), never both for three odd dice."""
    card = compile_text("Roll three six-sided dice. For each odd result, draw a card. For each even result, scry 1.")
    for faces in product(range(1, 7), repeat=3):
        execution = resolve(card.rolls[0], source="Example", dice=ScriptedSource(list(faces))).executions[0]
        expected = tuple(
            i for i, any_of in enumerate((any(f % 2 for f in faces), any(f % 2 == 0 for f in faces))) if any_of
        )
        assert execution.outcomes == expected, faces


def test_the_chance_of_an_even_total_of_two_d6_is_one_half() -> None:
    even = Parity(even=True)
    hits = sum(1 for a, b in product(range(1, 7), repeat=2) if even.holds_value(a + b))
    assert Fraction(hits, 36) == Fraction(1, 2)


def test_a_real_card_with_both_rows_reads_each_row_by_parity() -> None:
    """A real card of the unseen fixture (its Oracle text), rows in the card's order: even, then odd."""
    import json
    from pathlib import Path

    cards = json.loads((Path(__file__).parent / "fixtures" / "unseen_cards.json").read_text(encoding="utf-8"))
    (text,) = [c["oracle_text"] for c in cards if "For each even result" in c.get("oracle_text", "")]
    assert [(reads, condition) for _, reads, condition in outcomes(text)] == [
        (Reads.EACH, Parity(even=True)),
        (Reads.EACH, Parity(even=False)),
    ]
