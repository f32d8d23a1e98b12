"""How a results table reads in numbers: for a table read for each result (CR 706.3a, one lookup
per counted die), the chance that at least one die lands in each row and the expected number of
dice that do.

:attr:`Odds.rows <mtgdice.odds.Odds>` of such a table holds the expected numbers; the chance of
"at least one" is not a sum of those and is read here from the first execution's distribution
(:attr:`Odds.first`, each outcome listing one row per counted die). Whether a board leaves
decisions to the policy is :func:`has_choices`. This module computes nothing new about dice and
leaves out rendering (``mtgdice.cli.odds``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from mtgdice.odds.enumerate import Summary
from mtgdice.rules import Board, Footprint, RollInstruction

CHOICES = Footprint.DECIDES | Footprint.CHOOSES_RESULT | Footprint.IGNORES_CHOSEN
"""Footprints of a decision a policy answers (an optional action, a chosen die or result)."""


@dataclass(frozen=True, slots=True)
class EachResultRows:
    """Per row of a table read for each result: ``at_least_one`` is the probability that one or more
    counted results land in the row, ``expected`` the expected number of them; ``no_row_*`` the same
    for results in no row (a result no row lists, such as a 1 the card reads elsewhere)."""

    at_least_one: tuple[Fraction, ...]
    expected: tuple[Fraction, ...]
    no_row_at_least_one: Fraction
    no_row_expected: Fraction


def each_result_rows(first: Iterable[tuple[Summary, Fraction]], rows: int) -> EachResultRows:
    """The :class:`EachResultRows` of a first execution's distribution over a table of ``rows`` rows.

    >>> from mtgdice.odds import odds
    >>> from mtgdice.rules import Amount, Die, ResultsTable, Row
    >>> two = RollInstruction(Amount(2), Die(6), table=ResultsTable((Row(2, 2), Row(3, 6))), table_each_result=True)
    >>> reading = each_result_rows(odds(two).first, 2)
    >>> [str(p) for p in reading.at_least_one], [str(p) for p in reading.expected]
    (['11/36', '8/9'], ['1/3', '4/3'])
    """
    at_least_one = [Fraction(0)] * rows
    expected = [Fraction(0)] * rows
    no_row_any = no_row_expected = Fraction(0)
    for summary, p in first:
        landed = summary.rows if summary.rows is not None else (summary.row,)
        for row in landed:
            if row is None:
                no_row_expected += p
            else:
                expected[row] += p
        for row in set(landed):
            if row is None:
                no_row_any += p
            else:
                at_least_one[row] += p
    return EachResultRows(tuple(at_least_one), tuple(expected), no_row_any, no_row_expected)


def has_choices(instruction: RollInstruction, board: Board) -> bool:
    """Whether resolving ``instruction`` on ``board`` can ask a decision that a policy answers.

    >>> from mtgdice.rules import Amount, Die
    >>> has_choices(RollInstruction(Amount(2), Die(10), choose=True), Board())
    True
    >>> has_choices(RollInstruction(Amount(1), Die(20)), Board())
    False
    """
    return bool((instruction.footprint() | board.footprint()) & CHOICES)
