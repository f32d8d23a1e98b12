"""Coin flips at the rules level (CR 705, rules/coins.py): the decisions a flip asks, read whole, and
what a reflip leaves. A call is asked of the flipper before the coin is flipped (CR 705.1); a coin
with a partner asks which to ignore, showing for each answer whether the coin left wins (1) or not
(0); three coins ask which one to keep; a reflip permission names the side showing, the card and
its cost, and the reflipped coin "never happened" (it is marked rerolled, the new coin points back
at it). Written to kill the coin mutants of the mutation run (bench/results/mutation-2026-12-02-*.md).
"""

from __future__ import annotations

from typing import Any

import pytest

from mtgdice.rules import Board, Permanent, ScriptedChooser, ScriptedSource
from mtgdice.rules.choices import Ask, Topic
from mtgdice.rules.coins import CoinFace, FlipInstruction, flip
from mtgdice.rules.dice import Fate
from mtgdice.rules.effects.base import Cost
from mtgdice.rules.effects.coin import PairEachCoin, ReflipPermission
from mtgdice.rules.errors import RollLimitError
from mtgdice.rules.players import YOU

HEADS, TAILS = 1, 2  # the faces a dice source gives for a coin


def _flip(faces: list[int], answers: list[Any], board: Board | None = None) -> tuple[list[Any], Any]:
    chooser = ScriptedChooser(answers)
    resolution = flip(FlipInstruction(call=True), source=ScriptedSource(faces), chooser=chooser, board=board)
    asked = [(d.ask, d.topic, d.player, d.prompt, d.options, d.values) for d in chooser.asked]
    return asked, resolution.executions[0]


def test_a_call_is_asked_of_the_flipper() -> None:
    asked, execution = _flip([TAILS], [0])
    assert asked == [(Ask.PICK_ONE, Topic.CALL, YOU, "Call the flip: heads or tails?", ("heads", "tails"), ())]
    (coin,) = execution.coins
    assert (coin.side, coin.call, coin.won, coin.counted) == (CoinFace.TAILS, CoinFace.HEADS, False, True)


def test_a_coin_and_its_partner_ask_which_to_ignore() -> None:
    board = Board.from_zones(battlefield=(Permanent("Thumb", (PairEachCoin(),)),))
    asked, execution = _flip([TAILS, HEADS], [0, 0], board)
    assert asked[1] == (Ask.PICK_ONE, Topic.IGNORE, YOU, "Ignore which of these coins?", ("tails", "heads"), (1.0, 0.0))
    assert [coin.fate for coin in execution.coins] == [Fate.IGNORED, Fate.COUNTED]
    assert execution.won == 1


def test_three_coins_ask_which_one_to_keep() -> None:
    board = Board.from_zones(battlefield=(Permanent("Thumbs", (PairEachCoin(extra=2),)),))
    asked, execution = _flip([TAILS, HEADS, TAILS], [1, 1], board)  # call tails, keep the heads
    assert asked[1] == (
        Ask.PICK_ONE,
        Topic.KEEP,
        YOU,
        "Keep which of these 3 coins?",
        ("tails", "heads", "tails"),
        (1.0, 0.0, 1.0),
    )
    assert [coin.fate for coin in execution.coins] == [Fate.IGNORED, Fate.COUNTED, Fate.IGNORED]
    assert (execution.won, execution.lost) == (0, 1)


def test_a_reflip_names_the_side_the_card_and_the_cost() -> None:
    board = Board.from_zones(battlefield=(Permanent("Luck", (ReflipPermission(cost=Cost("pay 1 life")),)),))
    asked, execution = _flip([TAILS, HEADS], [0, True, False], board)
    assert [entry[3] for entry in asked[1:]] == [
        "Reflip the coin showing tails (Luck, pay 1 life)?",
        "Reflip the coin showing heads (Luck, pay 1 life)?",
    ]
    assert all(entry[:3] == (Ask.YES_NO, Topic.REFLIP, YOU) for entry in asked[1:])
    first, second = execution.coins
    assert (first.fate, second.fate, second.reflips, second.call) == (Fate.REROLLED, Fate.COUNTED, 0, CoinFace.HEADS)
    assert execution.won == 1


def test_a_free_reflip_has_no_cost_part() -> None:
    board = Board.from_zones(battlefield=(Permanent("Luck", (ReflipPermission(),)),))
    asked, _ = _flip([TAILS], [0, False], board)
    assert asked[1][3] == "Reflip the coin showing tails (Luck)?"


def test_reflips_without_end_stop_at_the_limit() -> None:
    from mtgdice.rules.resolution import MAX_REROLLS

    board = Board.from_zones(battlefield=(Permanent("Luck", (ReflipPermission(),)),))
    chooser = ScriptedChooser([0] + [True] * (MAX_REROLLS + 5))
    with pytest.raises(RollLimitError) as caught:
        flip(
            FlipInstruction(call=True), source=ScriptedSource([TAILS] * (MAX_REROLLS + 5)), chooser=chooser, board=board
        )
    assert str(caught.value) == f"reflip: more than {MAX_REROLLS} reflips in one flip; the loop was stopped"
