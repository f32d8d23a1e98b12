"""Outcome sentences on the total of several dice: "if the total is 7", and "if you rolled N" after a
roll of several dice (Spark Fiend: "If you rolled 2, 3, or 12 ... If you rolled any other total, note
that total" — 12 cannot be one six-sided die, and "any other total" says what was compared).

CR 706.2: a die's result is its natural result after modifiers, and the total is of those results;
CR 706.6: an ignored die was never rolled, so it is in no total. Read per die ("any of those
results"), counted ("exactly seven times"), by a single die, or by a results table, a sentence keeps
its own reading. The exact odds are checked against the brute-force oracle, the naive reference
(tests/reference/, written apart from the rules) and a seeded run of ``resolve``.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from mtgdice.io.jsonio import compile_json
from mtgdice.odds import odds
from mtgdice.rules import AnyOf, InRange, Reads, ScriptedSource, SeededSource, resolve
from mtgdice.rules.board import Board, Permanent, PlayerZones
from mtgdice.text import compile_text
from reference.naive import Item, read_board, read_roll, reference_odds
from reference_check import outcome_odds

SEVEN = "Roll two six-sided dice. If the total is 7, draw a card."
ROLLED_SEVEN = "Roll two six-sided dice. If you rolled 7, draw a card."
GUIDE = "If you would roll one or more dice, instead roll that many dice plus one and ignore the lowest roll."
PLUS_ONE = "Increase the result of each die you roll by 1."
FIXTURE = Path(__file__).parent / "fixtures" / "unseen_cards.json"


def _fiend_text() -> str:
    cards: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return next(card["oracle_text"] for card in cards if card["name"] == "Spark Fiend")


def _reads(text: str) -> list[tuple[Reads, Any]]:
    card = compile_text(text, name="Card")
    assert card.unsupported == (), card.unsupported
    return [(outcome.reads, outcome.condition) for outcome in card.rolls[0].outcomes]


def _board(*texts: str) -> Board:
    permanents = tuple(Permanent(f"P{i}", compile_text(text, name=f"P{i}").effects) for i, text in enumerate(texts))
    return Board((PlayerZones(permanents),))


# -- the compiler ---------------------------------------------------------------------------------


def test_the_total_and_what_several_dice_rolled_read_the_total() -> None:
    assert _reads(SEVEN) == [(Reads.TOTAL, InRange(7, 7))]
    assert _reads("Roll two six-sided dice. If the total of those results is 7 or more, draw a card.") == [
        (Reads.TOTAL, InRange(7, None))
    ]
    assert _reads(ROLLED_SEVEN) == [(Reads.TOTAL, InRange(7, 7))]
    assert _reads("Roll X six-sided dice. If you rolled 10 or more, draw a card.") == [(Reads.TOTAL, InRange(10, None))]


def test_sentences_that_read_one_die_or_count_dice_keep_their_reading() -> None:
    assert _reads("Roll a six-sided die. If you rolled 6, draw a card.") == [(Reads.RESULT, InRange(6, 6))]
    assert _reads("Roll two twenty-sided dice and ignore the lowest roll. If you rolled 20, draw a card.") == [
        (Reads.RESULT, InRange(20, 20))
    ]
    assert _reads("Roll two six-sided dice. If any of those results is 6, draw a card.") == [
        (Reads.RESULT, InRange(6, 6))
    ]
    counted = _reads("Roll seven six-sided dice. If you rolled 6 exactly seven times, you win the game.")
    assert counted == [(Reads.COUNT, InRange(6, 6))]


def test_spark_fiend_reads_its_totals() -> None:
    fiend = compile_text(_fiend_text(), name="Spark Fiend")
    assert fiend.unsupported == ()
    enters, upkeep = fiend.rolls
    assert [(o.reads, o.condition) for o in enters.outcomes] == [
        (Reads.TOTAL, AnyOf((InRange(2, 2), InRange(3, 3), InRange(12, 12)))),
        (Reads.TOTAL, AnyOf((InRange(7, 7), InRange(11, 11)))),
        (Reads.NOTE, None),
    ]
    assert [o.reads for o in upkeep.outcomes] == [Reads.TOTAL, Reads.NOTED, Reads.OTHERWISE]
    assert upkeep.outcomes[0].condition == InRange(7, 7)


# -- the rules -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("faces", "holds"), [([3, 4], True), ([6, 1], True), ([3, 3], False), ([6, 6], False)])
def test_a_total_of_seven_holds_on_the_sum(faces: list[int], holds: bool) -> None:
    roll = compile_text(SEVEN, name="Card").rolls[0]
    execution = resolve(roll, source="Card", dice=ScriptedSource(faces)).executions[0]
    assert (0 in execution.outcomes) is holds


@pytest.mark.parametrize(
    ("faces", "row", "noted"),
    [([6, 6], 0, None), ([1, 1], 0, None), ([3, 4], 1, None), ([5, 6], 1, None), ([2, 2], 2, 4)],
)
def test_spark_fiend_rows_by_total(faces: list[int], row: int, noted: int | None) -> None:
    roll = compile_text(_fiend_text(), name="Spark Fiend").rolls[0]
    resolution = resolve(roll, source="Spark Fiend", dice=ScriptedSource(faces))
    assert resolution.executions[0].outcomes == (row,)
    assert resolution.noted == ((("Spark Fiend", noted),) if noted is not None else ())


def test_the_total_is_of_counted_results_after_modifiers() -> None:
    roll = compile_text(SEVEN, name="Card").rolls[0]
    # CR 706.6: the ignored lowest die (the 6 is kept, the 1 ignored) is in no total.
    ignored = resolve(roll, source="Card", dice=ScriptedSource([1, 3, 4]), board=_board(GUIDE))
    assert 0 in ignored.executions[0].outcomes
    kept = resolve(roll, source="Card", dice=ScriptedSource([6, 3, 4]), board=_board(GUIDE))
    assert 0 not in kept.executions[0].outcomes  # 6 + 4 counted: 10
    # CR 706.2: each result gets the +1, so 3 and 2 make 4 + 3 = 7.
    plus = resolve(roll, source="Card", dice=ScriptedSource([3, 2]), board=_board(PLUS_ONE))
    assert 0 in plus.executions[0].outcomes
    assert (
        0
        not in resolve(roll, source="Card", dice=ScriptedSource([3, 4]), board=_board(PLUS_ONE)).executions[0].outcomes
    )


# -- exact odds: the engine, the oracle, the naive reference, a seeded run --------------------------


def _reference(text: str, board_texts: tuple[str, ...]) -> tuple[Fraction | None, ...]:
    data = compile_json({"text": text, "name": "Card"}, None)
    items = [
        Item("battlefield", f"P{i}", tuple(compile_json({"text": t, "name": f"P{i}"}, None)["effects"]), 1)
        for i, t in enumerate(board_texts)
    ]
    return reference_odds(read_roll(data["rolls"][0], {}), read_board(items), "decline").outcomes


def _seeded(text: str, board: Board, runs: int) -> list[int]:
    roll = compile_text(text, name="Card").rolls[0]
    source = SeededSource(706)
    hits = [0] * len(roll.outcomes)
    for _ in range(runs):
        for index in resolve(roll, source="Card", dice=source, board=board, limit=1).executions[0].outcomes:
            hits[index] += 1
    return hits


FIEND_ENTERS = (
    "When this creature enters, roll two six-sided dice. If you rolled 2, 3, or 12, sacrifice it. If you rolled "
    "7 or 11, draw a card. If you rolled any other total, note that total."
)
CASES = [
    (SEVEN, (), [Fraction(1, 6)]),
    (ROLLED_SEVEN, (), [Fraction(1, 6)]),
    (FIEND_ENTERS, (), [Fraction(4, 36), Fraction(8, 36), Fraction(24, 36)]),
    # Three dice, the lowest ignored: 7 from the two highest of three d6 (CR 706.6).
    (SEVEN, (GUIDE,), [Fraction(27, 216)]),
    (SEVEN, (PLUS_ONE,), [Fraction(4, 36)]),  # a natural total of 5: four ways
]


@pytest.mark.parametrize(("text", "board_texts", "expected"), CASES)
def test_exact_odds_of_outcomes_on_the_total(text: str, board_texts: tuple[str, ...], expected: list[Fraction]) -> None:
    roll = compile_text(text, name="Card").rolls[0]
    board = _board(*board_texts)
    auto = odds(roll, source="Card", board=board)
    brute = odds(roll, source="Card", board=board, method="brute")
    assert brute.method == "brute force"
    found = [outcome_odds(auto, i) for i in range(len(roll.outcomes))]
    assert found == expected, auto.method
    assert [outcome_odds(brute, i) for i in range(len(roll.outcomes))] == expected
    assert list(_reference(text, board_texts)) == expected
    runs = 4_000
    for hits, p in zip(_seeded(text, board, runs), expected, strict=True):
        error = float(p * (1 - p) / runs) ** 0.5
        assert abs(hits / runs - float(p)) <= 5 * error, (hits, p)
