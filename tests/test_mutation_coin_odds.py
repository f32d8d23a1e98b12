"""Exact coin odds (odds/coins.py, CR 705) counted by hand, and the "Nth die" cap of the odds engine:
written for survivors of the mutation run of 2026-12-02 (bench/results/mutation-2026-12-02-s2.md).
"""

from __future__ import annotations

import pytest

from mtgdice.odds import position_cap
from mtgdice.odds.coins import coin_odds
from mtgdice.rules import Amount, Board, Permanent
from mtgdice.rules.coins import FlipInstruction, Until
from mtgdice.rules.effects.coin import PairEachCoin
from mtgdice.rules.effects.trigger import Trigger
from mtgdice.rules.errors import RollLimitError


def test_the_highest_nth_die_any_trigger_asks_for() -> None:
    assert position_cap(Board()) == 0
    board = Board.from_zones(
        battlefield=(Permanent("Third", (Trigger(nth_this_turn=3),)), Permanent("Any", (Trigger(),))),
        graveyard=(Permanent("Fifth", (Trigger(nth_this_turn=5),)),),
    )
    assert position_cap(board) == 3  # the graveyard one does not function (a battlefield ability)


def test_a_called_coin_with_a_partner_keeps_the_winner() -> None:
    # Heads called (the first option), two coins, the winning one kept: heads unless both are tails.
    thumb = Board.from_zones(battlefield=(Permanent("Thumb", (PairEachCoin(),)),))
    found = coin_odds(FlipInstruction(call=True), board=thumb).to_json()
    assert found["results"] == {"heads": "3/4", "tails": "1/4"}
    assert found["first_won"] == {"0": "1/4", "1": "3/4"}


@pytest.mark.parametrize(
    "instruction",
    [
        FlipInstruction(count=Amount(0), until=Until.ALL_HEADS),
        FlipInstruction(count=Amount(0), call=True, until=Until.WIN),
    ],
    ids=["until all heads", "until a win"],
)
def test_a_flip_of_no_coins_until_something_never_stops(instruction: FlipInstruction) -> None:
    with pytest.raises(RollLimitError) as caught:
        coin_odds(instruction)
    assert str(caught.value) == "odds: this flip never stops (every execution asks for another)"
