"""Each odds path holds values against the request's ``cells`` budget (docs/limits.md) and, past it,
refuses with the one-line error that says what would hold how many values: dice times faces for a
roll's laws ("3 d20": 60), four values a face for the faces of a die ("the faces of a d20": 80), dice
times dice times faces for counting totals ("counting the totals of 3 d20": 180). A budget large
enough answers. Written to kill the ``check_cells`` description mutants of ``odds/`` in the mutation
run (bench/results/mutation-2026-12-02-s2.md).
"""

from __future__ import annotations

import pytest

from mtgdice.odds import odds
from mtgdice.rules import Amount, Board, Die, ExtraDice, Permanent, RollInstruction
from mtgdice.rules.budget import Budget, Meter
from mtgdice.rules.effects.replacement import IgnoreMode
from mtgdice.rules.errors import RollLimitError

CHOSEN = Board.from_zones(battlefield=(Permanent("Pick", (ExtraDice(ignore=IgnoreMode.CHOSEN),)),))


@pytest.mark.parametrize(
    ("dice", "board", "cells", "message"),
    [
        (1, Board(), 10, "budget: 1 d20 would hold 20 values at once, more than the 10 allowed"),
        (3, Board(), 50, "budget: 3 d20 would hold 60 values at once, more than the 50 allowed"),
        (
            3,
            Board(),
            70,
            "budget: counting the totals of 3 d20 would hold 180 values at once, more than the 70 allowed",
        ),
        (1, CHOSEN, 50, "budget: the faces of a d20 would hold 80 values at once, more than the 50 allowed"),
    ],
    ids=["one die", "three dice", "three dice counted by totals", "faces enumerated"],
)
def test_a_path_past_the_cells_budget_says_what_would_hold_how_much(
    dice: int, board: Board, cells: int, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mtgdice.odds import enumerate as enumeration

    # A die's faces are counted once per process and kept (they hold no new values afterwards):
    # start without them, whatever ran before in this process.
    monkeypatch.setattr(enumeration, "_FACE_WEIGHTS", {})
    with pytest.raises(RollLimitError) as caught:
        odds(RollInstruction(Amount(dice), Die(20)), board=board, meter=Meter(Budget(cells=cells)))
    assert str(caught.value) == message


@pytest.mark.parametrize(("dice", "board"), [(1, Board()), (3, Board()), (1, CHOSEN)], ids=["one", "three", "chosen"])
def test_a_budget_large_enough_answers(dice: int, board: Board) -> None:
    found = odds(RollInstruction(Amount(dice), Die(20)), board=board, meter=Meter(Budget(cells=400)))
    assert sum(dict(found.results).values()) == 1
