"""Each player rolls and results are compared ("the player with the highest result", "reroll to break
ties"), at the rules level: who stands, and which dice a tie-break rerolls (CR 706.2b: a rerolled die
never happened). The seats are those of the JSON interface (0 is "you", the others in turn order).
Written after the mutation run found ``_standing`` of rules/resolution.py unread by a test that
checks the dice (bench/results/mutation-2026-12-02-s2.md).
"""

from __future__ import annotations

from typing import Any

from mtgdice.rules import Amount, Die, ResultModifier, RollInstruction, ScriptedSource, resolve
from mtgdice.rules.board import Board, Permanent
from mtgdice.rules.instruction import Comparison, Extreme, Roller


def _each(extreme: Extreme, break_ties: bool, faces: list[int], players: int, board: Board | None = None) -> Any:
    instruction = RollInstruction(
        Amount(1), Die(6), roller=Roller.EACH_PLAYER, compare=Comparison(extreme, break_ties=break_ties)
    )
    return resolve(instruction, source="Test", dice=ScriptedSource(faces), players=players, board=board).executions[0]


def test_the_highest_stands() -> None:
    execution = _each(Extreme.HIGHEST, False, [3, 6, 2], 3)
    assert execution.standing == (1,)
    assert [(die.natural, die.roller) for die in execution.dice] == [(3, 0), (6, 1), (2, 2)]


def test_the_lowest_stands_and_ties_stand_together_without_a_tie_break() -> None:
    assert _each(Extreme.LOWEST, False, [4, 4, 2], 3).standing == (2,)
    assert _each(Extreme.LOWEST, False, [2, 4, 2], 3).standing == (0, 2)
    assert _each(Extreme.HIGHEST, False, [5, 5], 2).standing == (0, 1)


def test_a_tie_break_rerolls_only_the_tied_players_dice() -> None:
    # Seats 0 and 2 tie for the highest (5); seat 1's 3 stays. The rerolls: 2 for seat 0, 6 for seat 2.
    execution = _each(Extreme.HIGHEST, True, [5, 3, 5, 2, 6], 3)
    assert execution.standing == (2,)
    assert [(die.natural, die.roller, die.counted) for die in execution.dice] == [
        (5, 0, False),
        (3, 1, True),
        (5, 2, False),
        (2, 0, True),
        (6, 2, True),
    ]


def test_a_tie_break_goes_on_until_one_player_stands() -> None:
    execution = _each(Extreme.LOWEST, True, [1, 1, 4, 4, 3, 2], 2)
    assert execution.standing == (1,)
    assert [die.natural for die in execution.dice if die.counted] == [3, 2]


def test_results_are_compared_after_modifiers() -> None:
    # Seat 0's +3 (CR 706.2: the result counts) turns 2 into 5, above seat 1's 4.
    board = Board.from_zones(battlefield=(Permanent("Plus", (ResultModifier(delta=3),)),))
    assert _each(Extreme.HIGHEST, False, [2, 4], 2, board).standing == (0,)


def test_a_lone_roller_compares_with_nobody() -> None:
    assert _each(Extreme.HIGHEST, True, [3], 1).standing == ()
