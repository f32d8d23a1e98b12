"""The ``odds --json`` objects of a roll and of a flip (docs/odds.md), field by field, on cases
counted by hand: a d20 table with a natural-20 trigger, a table with a gap, a roll of no dice, and
called coin flips (binomial counts, a flip until one is lost, triggers per flip won and per batch).
Written to kill the ``to_json`` mutants of ``odds/`` in the mutation run
(bench/results/mutation-2026-12-02-*.md).
"""

from __future__ import annotations

from mtgdice.odds import odds
from mtgdice.odds.coins import coin_odds
from mtgdice.rules import Amount, Board, Die, InRange, Permanent, ResultsTable, RollInstruction, Row
from mtgdice.rules.coins import FlipInstruction, Until
from mtgdice.rules.effects.coin import CoinTrigger
from mtgdice.rules.effects.trigger import Trigger


def test_a_d20_table_with_a_natural_20_trigger() -> None:
    table = ResultsTable((Row(1, 9), Row(10, 19), Row(20, 20)))
    board = Board.from_zones(battlefield=(Permanent("Crit", (Trigger(condition=InRange(20, 20, natural=True)),)),))
    found = odds(RollInstruction(Amount(1), Die(20), table=table), board=board).to_json()
    assert found == {
        "rows": ["9/20", "1/2", "1/20"],
        "no_row": "0",  # a table every result meets
        "results": {str(value): "1/20" for value in range(1, 21)},
        "expected_executions": "1",
        "triggers": {"Crit": "1/20"},
    }
    assert list(found["results"]) == [str(value) for value in range(1, 21)]  # in increasing order


def test_a_table_with_a_gap_names_the_chance_of_no_row() -> None:
    table = ResultsTable((Row(1, 2), Row(5, 6)))
    found = odds(RollInstruction(Amount(1), Die(6), table=table)).to_json()
    assert (found["rows"], found["no_row"]) == (["1/3", "1/3"], "1/3")


def test_a_roll_of_no_dice_reads_none() -> None:
    found = odds(RollInstruction(Amount(0), Die(6))).to_json()
    assert found["results"] == {"none": "1"}
    assert found["rows"] == [] and found["no_row"] is None and found["triggers"] == {}  # no table: no row


def test_a_roll_again_on_a_six_counts_executions() -> None:
    # Roll again on a 6 (CR 706.3c): 1 / (1 - 1/6) = 6/5 executions.
    table = ResultsTable((Row(1, 5), Row(6, 6, roll_again=True)))
    assert odds(RollInstruction(Amount(1), Die(6), table=table)).to_json()["expected_executions"] == "6/5"


def test_three_called_flips() -> None:
    found = coin_odds(FlipInstruction(count=Amount(3), call=True)).to_json()
    assert found == {
        "sides": "coin",
        "outcomes": [],
        "results": {"heads": "1/2", "tails": "1/2"},
        "first_won": {"0": "1/8", "1": "3/8", "2": "3/8", "3": "1/8"},
        "expected_won": "3/2",
        "expected_lost": "3/2",
        "expected_executions": "1",
        "triggers": {},
        "method": "exact",
    }


def test_flips_until_one_is_lost() -> None:
    # A geometric count: on average one flip won before the flip lost, two executions.
    found = coin_odds(FlipInstruction(call=True, until=Until.LOSE)).to_json()
    assert (found["expected_won"], found["expected_lost"], found["expected_executions"]) == ("1", "1", "2")


def test_coin_triggers_per_flip_and_per_batch() -> None:
    board = Board.from_zones(
        battlefield=(
            Permanent("Each win", (CoinTrigger(won=True),)),
            Permanent("Any loss", (CoinTrigger(won=False, batch=True),)),
        )
    )
    found = coin_odds(FlipInstruction(count=Amount(3), call=True), board=board).to_json()
    # Each flip won triggers: 3/2 on average. "One or more flips lost" triggers once when any is lost: 7/8.
    assert found["triggers"] == {"Each win": "3/2", "Any loss": "7/8"}
