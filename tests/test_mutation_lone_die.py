"""A lone numbered die on the fast path (``odds.fast.fast_distribution``) holds its law against the ``cells`` budget (docs/limits.md:
"values a fast path ... holds at once"). The law of a d20 is at least its 20 faces and their 20
weights, so no budget under 40 values can hold it: such a request is refused with one line that
names the die and the budget, and a budget with room to spare answers 1/20 a face. Written to kill
a survivor of the mutation run (bench/results/mutation-2026-12-02-s2.md, ``fast._lone``).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from mtgdice.odds import Problem
from mtgdice.odds.fast import fast_distribution
from mtgdice.rules import Amount, Board, Die, PolicyChooser, RollInstruction, TurnState
from mtgdice.rules.budget import Budget, Meter
from mtgdice.rules.errors import RollLimitError

D20 = RollInstruction(Amount(1), Die(20))


def _fast(cells: int) -> dict[int, Fraction]:
    problem = Problem(D20, "~", Board(), PolicyChooser(), {}, TurnState(), meter=Meter(Budget(cells=cells)))
    found = fast_distribution(problem)
    assert found is not None
    out: dict[int, Fraction] = {}
    for summary, p in found[0].items():
        assert isinstance(summary.value, int)
        out[summary.value] = out.get(summary.value, Fraction(0)) + p
    return out


def test_a_budget_smaller_than_the_faces_and_their_weights_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from mtgdice.odds import enumerate as enumeration

    monkeypatch.setattr(enumeration, "_FACE_WEIGHTS", {})  # counted faces are kept per process
    with pytest.raises(RollLimitError) as caught:
        _fast(2 * 20 - 1)
    message = str(caught.value)
    assert "d20" in message and "39 allowed" in message and "\n" not in message


def test_a_budget_with_room_answers_one_in_twenty() -> None:
    assert _fast(20 * 20) == {face: Fraction(1, 20) for face in range(1, 21)}
