"""Two cards that each reroll a 6 once (CR 706.2b: "once" keeps a permission off the die its own
reroll rolled, not off a die another card's reroll rolled): under ``accept`` every 6 is rerolled by
the card that did not roll it, so the roll ends on the first face that is not a 6, each of 1-5 with
probability 1/5; under ``decline`` it is a plain d6. Counted by hand. The odds' search meets, past
the first roll, a filled die that is itself rerolled (odds/enumerate.py ``Search._probe``). Written
to kill a survivor of the mutation run (bench/results/mutation-2026-12-02-s2.md).
"""

from __future__ import annotations

from fractions import Fraction

from mtgdice.odds import odds
from mtgdice.rules import Amount, Board, Die, Permanent, RollInstruction
from mtgdice.rules.conditions import InRange
from mtgdice.rules.effects import RerollPermission

SIX_ONCE = RerollPermission(condition=InRange(6, 6), again=False)
BOARD = Board.from_zones(battlefield=(Permanent("First", (SIX_ONCE,)), Permanent("Second", (SIX_ONCE,))))
D6 = RollInstruction(Amount(1), Die(6))


def test_two_cards_rerolling_a_six_once_end_on_the_first_other_face() -> None:
    assert dict(odds(D6, board=BOARD, policy="accept").results) == {face: Fraction(1, 5) for face in range(1, 6)}


def test_declined_they_leave_a_plain_d6() -> None:
    assert dict(odds(D6, board=BOARD, policy="decline").results) == {face: Fraction(1, 6) for face in range(1, 7)}
