"""Coin flips read by hand (CR 705): what a flip instruction does with its defaults, a fixed call,
an "or choose to stop", a win trigger, a limit of executions and the sides an outcome counts, and
the exact coin odds where the counted coin is not a fair one (a partner coin chosen by the policy).

Every expected value is counted by hand from the scripted faces (face 1 heads, 2 tails) or from
two fair coins (four equally likely pairs). Written to kill the coin survivors of the mutation run
(bench/results/mutation-2026-12-02-s2.md, "Coin odds and coin flips").
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from mtgdice.odds.coins import CoinPolicy, coin_odds
from mtgdice.rules import Board, Permanent, ScriptedChooser, ScriptedSource
from mtgdice.rules.amounts import Amount
from mtgdice.rules.choices import Ask, Topic
from mtgdice.rules.coins import CoinFace, CoinReads, FlipInstruction, FlipOutcome, Flipper, Until, flip
from mtgdice.rules.effects.coin import CoinTrigger, PairEachCoin
from mtgdice.rules.errors import InputError
from mtgdice.rules.players import OPPONENT, YOU

HEADS, TAILS = 1, 2  # the faces a dice source gives for a coin


def _thumb() -> Board:
    """A board whose one effect flips two coins for each coin and ignores one (a partner coin)."""
    return Board.from_zones(battlefield=(Permanent("Thumb", (PairEachCoin(),)),))


def test_each_player_flips_in_a_two_player_game_by_default() -> None:
    instruction = FlipInstruction(flipper=Flipper.EACH_PLAYER)
    resolution = flip(instruction, source=ScriptedSource([HEADS, TAILS, HEADS]))
    # Two players unless told otherwise: you and one opponent, one coin each.
    assert [coin.flipper for coin in resolution.coins] == [YOU, OPPONENT]
    assert resolution.results == (CoinFace.HEADS, CoinFace.TAILS)


def test_a_negative_number_of_times_is_refused_naming_the_field_and_the_number() -> None:
    instruction = FlipInstruction(times=Amount(name="X"))
    with pytest.raises(InputError) as raised:
        flip(instruction, source=ScriptedSource([HEADS]), amounts={"X": -3})
    assert raised.value.field == "amounts"
    assert "-3" in str(raised.value) and "\n" not in str(raised.value)


def test_the_call_given_with_the_flip_is_the_call_and_nobody_is_asked() -> None:
    chooser = ScriptedChooser([0])  # would call heads if asked
    resolution = flip(FlipInstruction(call=True), source=ScriptedSource([TAILS]), chooser=chooser, call=CoinFace.TAILS)
    assert resolution.call is CoinFace.TAILS and resolution.won == (True,)
    assert chooser.asked == []


def test_flip_again_is_asked_as_an_optional_carrying_out_again() -> None:
    chooser = ScriptedChooser([0, True, 0, False])  # call heads, flip again, call heads, stop
    instruction = FlipInstruction(call=True, until=Until.CHOSEN)
    resolution = flip(instruction, source=ScriptedSource([HEADS, TAILS]), chooser=chooser)
    again = [decision for decision in chooser.asked if decision.ask is Ask.YES_NO]
    assert [decision.topic for decision in again] == [Topic.ROLL_AGAIN, Topic.ROLL_AGAIN]
    assert len(resolution.executions) == 2 and resolution.won == (True, False)


def test_a_win_trigger_names_the_coin_that_won() -> None:
    board = Board.from_zones(battlefield=(Permanent("Watcher", (CoinTrigger(),)),))
    instruction = FlipInstruction(Amount(3), call=True)
    # Called heads for each of three coins: tails, heads, heads → coins 1 and 2 win.
    resolution = flip(instruction, source=ScriptedSource([TAILS, HEADS, HEADS]), board=board, call=CoinFace.HEADS)
    assert [(hit.card, hit.coin) for hit in resolution.triggers] == [("Watcher", 1), ("Watcher", 2)]


def test_a_limit_of_executions_still_gives_the_resolution() -> None:
    instruction = FlipInstruction(call=True, until=Until.LOSE)
    # Won, won, won: "until you lose" would go on; the limit stops it after two executions.
    resolution = flip(instruction, source=ScriptedSource([HEADS] * 3), call=CoinFace.HEADS, limit=2)
    assert len(resolution.executions) == 2 and resolution.flips_won == 2


@pytest.mark.parametrize(
    ("faces", "both_heads", "both_tails", "heads", "tails"),
    [([HEADS, HEADS], True, False, 2, 0), ([HEADS, TAILS], False, False, 1, 1), ([TAILS, TAILS], False, True, 0, 2)],
    ids=["HH", "HT", "TT"],
)
def test_outcomes_count_the_side_they_name(
    faces: list[int], both_heads: bool, both_tails: bool, heads: int, tails: int
) -> None:
    outcomes = (
        FlipOutcome("if both coins come up heads", CoinReads.HEADS, every=True),
        FlipOutcome("if both coins come up tails", CoinReads.TAILS, every=True),
    )
    execution = flip(FlipInstruction(Amount(2), outcomes=outcomes), source=ScriptedSource(faces)).executions[0]
    assert execution.outcomes == tuple(i for i, held in enumerate((both_heads, both_tails)) if held)
    counted = execution.counted
    assert (FlipOutcome("", CoinReads.HEADS, each=True).meeting(counted), outcomes[1].meeting(counted)) == (
        heads,
        tails,
    )


def _called(policy: str) -> CoinFace:
    """The call the policy makes (the first of a flip's decisions)."""
    resolution = flip(FlipInstruction(call=True), source=ScriptedSource([HEADS]), chooser=CoinPolicy(policy))
    call = resolution.call
    assert call is not None
    return call


def test_minimize_keeps_the_losing_coin_of_a_pair() -> None:
    # Two fair coins, one kept: minimize keeps a loser whenever there is one, so the flip is won
    # only when both coins win (1 pair in 4); every other policy keeps a winner (3 in 4).
    instruction = FlipInstruction(call=True)
    assert coin_odds(instruction, board=_thumb(), policy="minimize").first_won == (
        (0, Fraction(3, 4)),
        (1, Fraction(1, 4)),
    )
    for policy in ("decline", "accept", "maximize"):
        assert coin_odds(instruction, board=_thumb(), policy=policy).expected_won == Fraction(3, 4), policy


def test_heads_over_the_whole_flip_count_the_kept_coins_that_show_heads() -> None:
    # One called coin with a partner, kept to win (decline): the kept coin matches the call in 3 of
    # the 4 pairs. Counted over the whole resolution (one execution here), "for each heads" is then
    # 3/4 if the call is heads and 1/4 if it is tails; "for each tails" the rest.
    outcomes = (
        FlipOutcome("for each heads", CoinReads.HEADS, each=True, over_all=True),
        FlipOutcome("for each tails", CoinReads.TAILS, each=True, over_all=True),
    )
    odds = coin_odds(FlipInstruction(call=True, outcomes=outcomes), board=_thumb(), policy="decline")
    matching = Fraction(3, 4)
    expected = (matching, 1 - matching) if _called("decline") is CoinFace.HEADS else (1 - matching, matching)
    assert odds.outcomes == expected


def test_heads_until_you_lose_with_a_partner_coin() -> None:
    # Each execution wins with 3/4 (a partner coin kept to win); "until you lose" runs a geometric
    # number of executions, mean 1 / (1/4) = 4, of which on average 3 won and 1 lost. A won coin
    # shows the call, a lost one the other side.
    outcomes = (FlipOutcome("for each heads", CoinReads.HEADS, each=True, over_all=True),)
    odds = coin_odds(FlipInstruction(call=True, until=Until.LOSE, outcomes=outcomes), board=_thumb())
    assert (odds.expected_executions, odds.expected_won, odds.expected_lost) == (4, 3, 1)
    assert odds.outcomes == ((Fraction(3),) if _called("decline") is CoinFace.HEADS else (Fraction(1),))
