"""Pinned bounds: the roll-again limit, exactly (an off-by-one on either side turns this red)."""

from __future__ import annotations

import pytest

from mtgdice.rules import Amount, Die, ResultsTable, RollInstruction, Row, ScriptedSource, resolve
from mtgdice.rules.errors import RollLimitError

AGAIN_ON_ONE = RollInstruction(Amount(1), Die(2), table=ResultsTable((Row(1, 1, roll_again=True), Row(2, 2))))
"""A d2 whose 1 rolls again and whose 2 stops (CR 706.3c)."""


def test_the_thousandth_execution_is_allowed() -> None:
    resolution = resolve(AGAIN_ON_ONE, source="Test", dice=ScriptedSource([1] * 999 + [2]))
    assert len(resolution.executions) == 1000
    assert resolution.executions[-1].again is False


def test_a_thousand_and_first_execution_is_refused() -> None:
    with pytest.raises(RollLimitError, match="more than 1000 executions"):
        resolve(AGAIN_ON_ONE, source="Test", dice=ScriptedSource([1] * 1000 + [2]))
