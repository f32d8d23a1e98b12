"""Results-table rows are checked when built (CR 706.3a), and a per-die pair replacement limited to
one kind of die leaves the others alone: written to kill mutants of ``rules/tables.py`` and
``rules/effects/replacement.py`` that survived the mutation run (bench/results/mutation-*.md)."""

from __future__ import annotations

import pytest

from mtgdice.rules import (
    Amount,
    Board,
    Die,
    Permanent,
    PolicyChooser,
    ResultsTable,
    RollInstruction,
    Row,
    ScriptedSource,
    resolve,
)
from mtgdice.rules.effects.replacement import PairEachDie
from mtgdice.rules.errors import CardTextError


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ((Row(5, 4),), "'5—4': its range is empty"),
        ((Row(1, None), Row(5, 6)), "only the last row can be open"),
        ((Row(1, 3), Row(3, 6)), "'3—6': overlaps or comes before the row above it"),
        ((Row(1, None),), None),
        ((Row(1, 2), Row(3, None)), None),
        ((Row(4, 4), Row(5, 6)), None),
        ((Row(4, 4), Row(4, 6)), "overlaps"),
    ],
    ids=["empty", "open not last", "shares a value", "open alone", "open last", "single then next", "single twice"],
)
def test_rows_are_checked(rows: tuple[Row, ...], message: str | None) -> None:
    if message is None:
        assert ResultsTable(rows).rows == rows
    else:
        with pytest.raises(CardTextError, match=message.replace("—", ".")):
            ResultsTable(rows)


def _dice(sides: int, faces: list[int], board: Board) -> int:
    resolution = resolve(
        RollInstruction(Amount(1), Die(sides)),
        source="Test",
        dice=ScriptedSource(faces),
        board=board,
        chooser=PolicyChooser("maximize"),
    )
    return len(resolution.executions[0].dice)


def test_a_pair_replacement_for_one_kind_of_die_leaves_the_others() -> None:
    only_d20 = Board.from_zones(battlefield=(Permanent("Pairs", (PairEachDie(sides=20),)),))
    assert _dice(20, [3, 17], only_d20) == 2
    assert _dice(6, [3], only_d20) == 1
