"""A reroll permission folded into the composed odds (odds/compose.py) when the rerolled die meets an
optional or waiting "extra die, ignore the lowest" again (CR 706.2b: a reroll is a new roll of that
die, and the replacements apply to it as to any roll), and a board kept without some effects
(``Board.keeping``) that still holds its waiting replacements.

The expected laws are counted by hand: the highest of two d6 is k with probability (2k - 1)/36; a
die showing 1-3 is rerolled once (probability 9/36 = 1/4 for the highest of two), and the new roll
is again the highest of two, so a final k >= 4 has (2k - 1)/36 x (1 + 1/4) and a final k <= 3 has
(2k - 1)/36 x 1/4. Written to kill survivors of the mutation run
(bench/results/mutation-2026-12-02-s2.md: ``_settler``, ``Board.keeping``).
"""

from __future__ import annotations

from fractions import Fraction

from mtgdice.odds import Problem
from mtgdice.odds.compose import composed_distribution
from mtgdice.rules import (
    Amount,
    Board,
    Die,
    ExtraDice,
    PairEachDie,
    Permanent,
    PolicyChooser,
    RollInstruction,
    TurnState,
)
from mtgdice.rules.board import Waiting
from mtgdice.rules.budget import Meter
from mtgdice.rules.conditions import InRange
from mtgdice.rules.effects import RerollPermission, Trigger
from mtgdice.rules.effects.base import Event
from mtgdice.rules.players import YOU
from mtgdice.rules.transforms import Transform
from mtgdice.rules.zones import Zone

D6 = RollInstruction(Amount(1), Die(6))
REROLL_LOW_ONCE = RerollPermission(condition=InRange(1, 3), again=False)


def _highest_of_two_rerolled_once() -> dict[int, Fraction]:
    top = {k: Fraction(2 * k - 1, 36) for k in range(1, 7)}
    low = sum(top[k] for k in (1, 2, 3))
    return {k: top[k] * ((1 if k >= 4 else 0) + low) for k in range(1, 7)}


def _values(board: Board, policy: str) -> dict[int, Fraction]:
    problem = Problem(D6, "~", board, PolicyChooser(policy), {}, TurnState(), meter=Meter())
    found = composed_distribution(problem)
    assert found is not None, "the composed path answers this board (no fall back to enumeration)"
    distribution, method = found
    assert method == "composed"
    out: dict[int, Fraction] = {}
    for summary, p in distribution.items():
        assert isinstance(summary.value, int)
        out[summary.value] = out.get(summary.value, Fraction(0)) + p
    return out


def test_hand_count_of_the_expected_law_sums_to_one() -> None:
    law = _highest_of_two_rerolled_once()
    assert sum(law.values()) == 1 and law[6] == Fraction(55, 144)


def test_an_accepted_optional_extra_die_meets_the_reroll_again() -> None:
    # accept takes the extra die, and the reroll of a 1-3, whose new roll takes the extra die again.
    board = Board.from_zones(
        battlefield=(Permanent("May add", (ExtraDice(optional=True),)), Permanent("Low", (REROLL_LOW_ONCE,)))
    )
    assert _values(board, "accept") == _highest_of_two_rerolled_once()


def test_a_declined_optional_extra_die_and_reroll_leave_one_plain_die() -> None:
    board = Board.from_zones(
        battlefield=(Permanent("May add", (ExtraDice(optional=True),)), Permanent("Low", (REROLL_LOW_ONCE,)))
    )
    assert _values(board, "decline") == {k: Fraction(1, 6) for k in range(1, 7)}


def _waiting_board() -> Board:
    waiting = Waiting(Permanent("Next roll", (ExtraDice(), REROLL_LOW_ONCE)), YOU)
    return Board(Board.from_zones().seats, (waiting,))


def test_a_waiting_extra_die_meets_the_reroll_again() -> None:
    assert _values(_waiting_board(), "accept") == _highest_of_two_rerolled_once()


def test_keeping_holds_on_to_the_waiting_card_with_a_blank_for_what_it_drops() -> None:
    kept = _waiting_board().keeping(lambda effect: effect.transform() is not Transform.MIXTURE)
    (waiting,) = kept.pending
    assert waiting.card.name == "Next roll" and waiting.controller == YOU
    holders = list(kept.holders())
    assert [(h.zone, h.permanent.name, h.ability) for h in holders] == [
        (Zone.PENDING, "Next roll", 0),
        (Zone.PENDING, "Next roll", 1),
    ]
    assert isinstance(holders[0].effect, ExtraDice) and not isinstance(holders[1].effect, RerollPermission)


def test_two_paired_dice_read_each_by_a_trigger_count_their_sixes() -> None:
    # Two d6, each rolled with a partner and one of the pair ignored (decline keeps either die,
    # a fair d6 either way); "whenever you roll a 6" sees the two counted dice only (CR 706.6:
    # an ignored die was never rolled): no 6 with 25/36, one with 10/36, two with 1/36.
    board = Board.from_zones(
        battlefield=(
            Permanent("Pairs", (PairEachDie(),)),
            Permanent("Sixes", (Trigger(event=Event.DIE_ROLLED, condition=InRange(6, 6)),)),
        )
    )
    problem = Problem(RollInstruction(Amount(2), Die(6)), "~", board, PolicyChooser(), {}, TurnState(), meter=Meter())
    found = composed_distribution(problem)
    assert found is not None and found[1] == "composed"
    sixes: dict[int, Fraction] = {}
    for summary, p in found[0].items():
        count = sum(times for card, times in summary.triggers if card == "Sixes")
        sixes[count] = sixes.get(count, Fraction(0)) + p
    assert sixes == {0: Fraction(25, 36), 1: Fraction(10, 36), 2: Fraction(1, 36)}
