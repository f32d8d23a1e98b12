"""Two cards that each reroll a 6 once (CR 706.2b: "once" keeps a permission off the die its own
reroll rolled, not off a die another card's reroll rolled): under ``accept`` every 6 is rerolled by
the card that did not roll it, so the roll ends on the first face that is not a 6, each of 1-5 with
probability 1/5; under ``decline`` it is a plain d6. A 1 and a 6 rerolled once, each by its own
card, alternate between the cards. Counted by hand. The odds' search meets, past the first roll, a
filled die that is itself rerolled (odds/enumerate.py ``Search._probe``). Written to kill a survivor
of the mutation run (bench/results/mutation-2026-12-02-s2.md).
"""

from __future__ import annotations

from fractions import Fraction

from mtgdice.odds import odds
from mtgdice.rules import Amount, Board, Die, Permanent, RollInstruction
from mtgdice.rules.conditions import InRange
from mtgdice.rules.effects import RerollPermission
from mtgdice.rules.errors import RollLimitError

SIX_ONCE = RerollPermission(condition=InRange(6, 6), again=False)
BOARD = Board.from_zones(battlefield=(Permanent("First", (SIX_ONCE,)), Permanent("Second", (SIX_ONCE,))))
D6 = RollInstruction(Amount(1), Die(6))


def test_two_cards_rerolling_a_six_once_end_on_the_first_other_face() -> None:
    assert dict(odds(D6, board=BOARD, policy="accept").results) == {face: Fraction(1, 5) for face in range(1, 6)}


def test_declined_they_leave_a_plain_d6() -> None:
    assert dict(odds(D6, board=BOARD, policy="decline").results) == {face: Fraction(1, 6) for face in range(1, 7)}


def test_a_one_and_a_six_each_rerolled_once_by_its_own_card() -> None:
    # "Reroll a 1 once" and "reroll a 6 once" on two cards, accepted: a die either card's reroll
    # rolled can still be rerolled by the other card. From a die rolled by the 1-card: 1 stays
    # (that card is spent on it), 6 goes to the 6-card, 2-5 stay; symmetrically for the 6-card.
    # Solving the two states: a die rolled by the 1-card ends on 1 with 6/35, on 6 with 1/35 and on
    # each of 2-5 with 1/5 (and the mirror for the 6-card). The first roll: 2-5 stay (1/6 each), a
    # 1 or a 6 is rerolled: P(2..5) = 1/6 + 1/6 x 1/5 + 1/6 x 1/5 = 7/30, P(1) = P(6) =
    # 1/6 x 6/35 + 1/6 x 1/35 = 1/30.
    ones = RerollPermission(condition=InRange(1, 1), again=False)
    board = Board.from_zones(battlefield=(Permanent("Ones", (ones,)), Permanent("Sixes", (SIX_ONCE,))))
    # The exact search may decline a chain that alternates between two cards (issue 18, "Bad
    # input"): then with one line that names simulate as the way on, never another error.
    expected = {1: Fraction(1, 30), 6: Fraction(1, 30)} | {face: Fraction(7, 30) for face in range(2, 6)}
    assert sum(expected.values()) == 1
    try:
        found = odds(D6, board=board, policy="accept")
    except RollLimitError as refused:
        assert "simulate" in str(refused) and "\n" not in str(refused)
    else:
        assert dict(found.results) == expected
