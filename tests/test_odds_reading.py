"""`mtgdice odds` reads a table the way the card reads it, and says which policy answered.

Celebr-8000 reads its table for each of two d6 ("For each result, ..."): the chance that menace
(a 2) comes up at all is 1 - (5/6)^2 = 11/36, and the expected number of 2s is 2/6 = 1/3. The
numbers are read from the output, and checked against the naive reference on boards that change
them.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from click.testing import CliRunner

from reference_check import reference_answer

CELEBR = "Celebr-8000"


def _odds(cards_path: str, *args: str, stdin: str = "") -> Any:
    from mtgdice.cli import cli

    result = CliRunner().invoke(cli, ["odds", *args, "--cards", cards_path], input=stdin)
    assert result.exit_code == 0, result.output
    return result


def test_json_gives_at_least_one_and_expected_per_row(cards_path: str) -> None:
    data = json.loads(_odds(cards_path, "--card", CELEBR, "--json").stdout)
    assert data["table_read"] == "each result"
    assert data["rows_at_least_one"][0] == "11/36"  # menace: at least one 2 among two d6
    assert data["rows_expected"][0] == "1/3"
    assert data["no_row_at_least_one"] == "11/36"  # a 1, which the card reads in another sentence
    assert data["policy"] == "decline"


@pytest.mark.parametrize(
    "zones",
    [
        {},
        {"battlefield": ["Pixie Guide"]},
        {"battlefield": [{"text": "Increase the result of each die you roll by 1.", "name": "Plus"}]},
    ],
    ids=["alone", "advantage", "plus one"],
)
def test_each_result_rows_equal_the_reference(cards_path: str, catalog: Any, zones: dict[str, Any]) -> None:
    data = json.loads(_odds(cards_path, "--json", stdin=json.dumps({"card": CELEBR, **zones})).stdout)
    answer = reference_answer(catalog, CELEBR, 0, zones, {}, "decline")
    assert [Fraction(p) for p in data["rows_at_least_one"]] == list(answer.rows_any)
    assert [Fraction(p) for p in data["rows_expected"]] == list(answer.rows)


def test_human_output_labels_both_numbers(cards_path: str) -> None:
    text = _odds(cards_path, "--card", CELEBR).stdout
    assert "at least one die" in text and "expected dice" in text
    assert "11/36" in text and "30.56%" in text
    assert "33.33%" not in text  # an expected count is not shown as a percent
    assert "policy: decline" in text
    assert "--policy" not in text  # no decision on this board: no hint


def test_a_board_with_choices_says_how_to_ask_for_another_policy(cards_path: str) -> None:
    text = _odds(cards_path, "--card", "Wizard's Spellbook", "--with", "Krark's Other Thumb").stdout
    assert "policy: decline" in text
    assert "--policy accept|maximize|minimize" in text
    text = _odds(
        cards_path, "--card", "Wizard's Spellbook", "--with", "Krark's Other Thumb", "--policy", "maximize"
    ).stdout
    assert "policy: maximize" in text and "--policy decline|accept|minimize" in text


def _panels(catalog: Any, request: dict[str, Any]) -> Any:
    from mtgdice.cli.odds import chart_panels, odds_request

    _, instruction, result, _ = odds_request(request, catalog)
    return chart_panels(result, instruction)


def test_the_chart_draws_what_the_card_reads(catalog: Any) -> None:
    (celebr,) = _panels(catalog, {"card": CELEBR})
    assert celebr.labels == ("2", "3", "4", "5", "6", "no row")  # rows per die, no totals 2-12
    assert [name for name, _ in celebr.series] == ["at least one die", "expected dice"]
    assert celebr.series[0][1][0] == pytest.approx(11 / 36)
    spellbook = _panels(catalog, {"card": "Wizard's Spellbook", "battlefield": ["Pixie Guide"]})
    assert [panel.xlabel for panel in spellbook] == ["result", "row"]
    (hydra,) = _panels(catalog, {"card": "Neverwinter Hydra", "amounts": {"X": 2}})
    assert hydra.xlabel == "total of the counted dice"
    assert hydra.labels[0] == "2" and hydra.labels[-1] == "12"


def test_the_chart_file_is_written(cards_path: str, tmp_path: Any) -> None:
    chart = tmp_path / "celebr.svg"
    _odds(cards_path, "--card", CELEBR, "--plot", str(chart))
    assert chart.read_text().lstrip().startswith("<?xml")
