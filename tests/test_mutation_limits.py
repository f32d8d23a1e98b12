"""The limits docs/limits.md promises are the ones the rules apply, and each one is refused at the
value past it with the one-line error it documents (field, limit, what to do instead).

The tables of docs/limits.md are read here, not copied: a constant changed in src/ without the
documentation (or a mutant of it) fails. Written to kill the budget and limit mutants of the
mutation run (bench/results/mutation-2026-12-02-*.md).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mtgdice.rules.budget import CLI_BUDGET, WEB_BUDGET, Budget, Meter
from mtgdice.rules.errors import RollLimitError

LIMITS = Path(__file__).resolve().parents[1] / "docs" / "limits.md"


def _number(cell: str) -> float | None:
    cell = cell.strip()
    if cell == "none":
        return None
    return float(cell.replace(" ", "").replace("\u202f", ""))


def _budget_table() -> dict[str, tuple[float | None, float | None]]:
    rows = {}
    for line in LIMITS.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\| `(\w+)` \| [^|]+ \| ([^|]+) \| ([^|]+) \|$", line)
        if match:
            rows[match[1]] = (_number(match[2]), _number(match[3]))
    return rows


def test_the_budgets_are_those_documented() -> None:
    documented = _budget_table()
    fields = ("dice", "options", "runs", "cells", "rolls", "draws", "seconds")
    assert sorted(documented) == sorted(fields)
    for name in fields:
        cli, web = documented[name]
        assert getattr(CLI_BUDGET, name) == cli, name
        assert getattr(WEB_BUDGET, name) == web, name
    assert Budget() == CLI_BUDGET


def test_the_rules_limits_are_those_documented() -> None:
    from mtgdice.odds.enumerate import MAX_RUNS
    from mtgdice.rules import MAX_EXECUTIONS
    from mtgdice.rules.plain import MAX_PLAIN_DICE, MAX_PLAIN_SIDES, MAX_PLAIN_TERMS
    from mtgdice.rules.resolution import MAX_DICE, MAX_REROLLS

    def spaced(number: int) -> str:
        return f"{number:,}".replace(",", " ")

    text = LIMITS.read_text(encoding="utf-8")
    assert f"| dice in one physical roll | {spaced(MAX_DICE)} |" in text
    assert f"| executions of one instruction (roll again, repeat) | {spaced(MAX_EXECUTIONS)} |" in text
    assert f"`roll again: more than {MAX_EXECUTIONS} executions`" in text
    assert f"| rerolls in one execution | {spaced(MAX_REROLLS)} |" in text
    assert f"`reroll: more than {MAX_REROLLS} rerolls`" in text
    plain = f"{spaced(MAX_PLAIN_DICE)} dice, {spaced(MAX_PLAIN_SIDES)} sides, {MAX_PLAIN_TERMS} terms"
    assert f"| plain dice | {plain} |" in text
    assert f"| exact odds by enumeration | {spaced(MAX_RUNS)} face sequences |" in text


def test_runs_are_counted_up_to_the_limit_and_refused_past_it() -> None:
    meter = Meter(Budget(runs=3))
    meter.spend_runs()
    meter.spend_runs(2)
    assert meter.runs == 3
    with pytest.raises(RollLimitError) as caught:
        meter.spend_runs()
    assert str(caught.value) == (
        "budget: more than 3 resolutions for one answer; "
        "estimate this roll with 'mtgdice simulate', or use a smaller board"
    )


def test_rolls_are_counted_up_to_the_limit_and_refused_past_it() -> None:
    meter = Meter(Budget(rolls=10))
    meter.spend_rolls(4)
    meter.spend_rolls(6)
    with pytest.raises(RollLimitError) as caught:
        meter.spend_rolls(1)
    assert str(caught.value) == "budget: 11 rolls is more than the 10 one request may make"


def test_draws_are_counted_up_to_the_limit_and_refused_past_it() -> None:
    meter = Meter(Budget(draws=5))
    meter.spend_draws(5)
    assert meter.draws == 5
    with pytest.raises(RollLimitError) as caught:
        meter.spend_draws(1)
    assert str(caught.value) == "budget: more than 5 dice drawn by this request; ask for fewer rolls or dice"


def test_cells_dice_and_options_are_checked_at_once() -> None:
    meter = Meter(Budget(cells=8, dice=2, options=7))
    meter.check_cells(8, "a table")
    meter.check_dice(2)
    meter.check_options(7)
    with pytest.raises(RollLimitError) as caught:
        meter.check_cells(9, "a table")
    assert str(caught.value) == "budget: a table would hold 9 values at once, more than the 8 allowed"
    with pytest.raises(RollLimitError) as caught:
        meter.check_dice(3)
    assert str(caught.value) == "budget: more than 2 dice drawn in one resolution; roll fewer dice or repeat less"
    with pytest.raises(RollLimitError) as caught:
        meter.check_options(8)
    assert str(caught.value) == "budget: more than 7 options asked in one resolution; a smaller board"


def test_the_deadline_is_the_start_plus_the_seconds() -> None:
    assert Meter().deadline is None
    meter = Meter(Budget(seconds=2.5), started=100.0)
    assert meter.deadline == 102.5
    Meter(Budget(seconds=3600.0)).check_time()  # well inside its hour
    Meter().check_time()  # no deadline at all
    late = Meter(Budget(seconds=0.5), started=0.0)  # started at the clock's origin: long past
    with pytest.raises(RollLimitError) as caught:
        late.check_time()
    assert str(caught.value) == (
        "budget: this request took more than the 0.5 s it may take; "
        "ask for less (fewer dice, fewer rolls, a smaller board)"
    )
