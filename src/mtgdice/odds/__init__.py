"""Exact odds of a roll instruction (CR 706), driven by the same rule objects as ``resolve``.

:func:`odds` gives, as :class:`fractions.Fraction`, the probability of each results-table row
(and of no row), of each counted result or total, of doubles and of rolling again in the first
execution, and for the whole resolution the expected number of executions (roll again, repeat:
CR 706.3c, solved exactly) and of triggerings per card. Decisions follow a named policy
(``decline``, ``accept``, ``maximize``, ``minimize``).

One execution's distribution is composed from the transforms the effects declare, ``resolve``
running once per class of counted dice (``compose``); else counted by multisets, kept dice or
totals where the order of faces cannot matter (``fast``); else found by running
:func:`mtgdice.rules.resolution` with ``limit=1`` on every face sequence (``enumerate``, the
oracle). Executions are chained over turn states (``chain``). This package leaves out
sampling (``mtgdice.sim``) and rendering (``mtgdice.cli.odds``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from mtgdice.odds.chain import expectations
from mtgdice.odds.compose import METHOD as COMPOSED
from mtgdice.odds.compose import composed_weights
from mtgdice.odds.enumerate import Problem, ResultKey, Summary, brute_force, count_first_roll, summarize, weighted
from mtgdice.odds.fast import fast_distribution
from mtgdice.rules import Board, Policy, PolicyChooser, RollInstruction, TurnState
from mtgdice.rules.budget import Meter
from mtgdice.rules.resolution import effects_of

__all__ = [
    "Odds",
    "Problem",
    "ResultKey",
    "Summary",
    "brute_force",
    "count_first_roll",
    "execution_distribution",
    "execution_weights",
    "odds",
    "summarize",
]


@dataclass(frozen=True, slots=True)
class Odds:
    """Exact odds of one instruction on one board under one policy.

    ``rows`` has one probability per table row for the first execution (for a table read for
    each result: the expected number of counted results in that row); ``no_row`` is the
    probability that no row matches (``None`` without a table); ``results`` maps each counted
    result (or total, see :class:`Summary`) to its probability; ``triggers`` maps each card to
    its expected number of triggerings over the whole resolution.
    """

    rows: tuple[Fraction, ...]
    no_row: Fraction | None
    results: tuple[tuple[ResultKey, Fraction], ...]
    doubles: Fraction
    again: Fraction
    expected_executions: Fraction
    triggers: tuple[tuple[str, Fraction], ...]
    first: tuple[tuple[Summary, Fraction], ...]
    method: str

    def to_json(self) -> dict[str, object]:
        """The ``odds --json`` output object (docs/odds.md)."""
        return {
            "rows": [str(p) for p in self.rows],
            "no_row": None if self.no_row is None else str(self.no_row),
            "results": {_key(value): str(p) for value, p in self.results},
            "expected_executions": str(self.expected_executions),
            "triggers": {card: str(p) for card, p in self.triggers},
        }


_ZERO = Fraction(0)
_ONE = Fraction(1)


def _order(item: tuple[ResultKey, Fraction]) -> tuple[bool, bool, int, str]:
    value = item[0]
    return value is None, isinstance(value, str), value if isinstance(value, int) else 0, str(value)


def _key(value: ResultKey) -> str:
    return "none" if value is None else str(value)


def position_cap(board: Board) -> int:
    """The highest "Nth die this turn" a trigger on the board asks for (0: none)."""
    # Only triggered abilities count dice this turn; the board's grouping by step is kept by the rules.
    return max((getattr(holder.effect, "nth_this_turn", None) or 0 for holder in effects_of(board).triggers), default=0)


def execution_distribution(problem: Problem, method: str = "auto") -> tuple[dict[Summary, Fraction], str]:
    """One execution's exact distribution and the path that found it (``method``: auto or brute)."""
    ways, denominator, used = execution_weights(problem, method)
    return {summary: Fraction(count, denominator) for summary, count in ways.items()}, used


def execution_weights(problem: Problem, method: str = "auto") -> tuple[dict[Summary, int], int, str]:
    """:func:`execution_distribution` as ways over one common denominator, and the path."""
    if method not in ("auto", "brute"):
        from mtgdice.rules.errors import InputError

        raise InputError("method", f"{method!r} is not a method; use auto or brute")
    if method == "auto":
        composed = composed_weights(problem)
        if composed is not None:
            return composed[0], composed[1], COMPOSED
        found = fast_distribution(problem)
        if found is not None:
            return *weighted(found[0]), found[1]
    return *weighted(brute_force(problem)), "brute force"


def odds(
    instruction: RollInstruction,
    *,
    source: str = "~",
    board: Board | None = None,
    policy: Policy | str = Policy.DECLINE,
    amounts: Mapping[str, int] | None = None,
    turn: TurnState | None = None,
    method: str = "auto",
    meter: Meter | None = None,
) -> Odds:
    """The exact odds of ``instruction`` (see :class:`Odds`).

    >>> from mtgdice.rules import Amount, Die, ResultsTable, Row
    >>> ogre = RollInstruction(Amount(1), Die(20), table=ResultsTable((Row(1, 9), Row(10, 19), Row(20, 20))))
    >>> [str(p) for p in odds(ogre).rows]
    ['9/20', '1/2', '1/20']
    """
    chooser = PolicyChooser(policy)
    board = board or Board()
    meter = meter or Meter()
    values = dict(amounts or {})
    cap = position_cap(board)
    given = turn or TurnState()
    start = TurnState(given.used, min(given.dice_rolled, cap))
    cache: dict[TurnState, tuple[dict[Summary, int], int, str]] = {}
    fractions: dict[TurnState, dict[Summary, Fraction]] = {}

    def weights_at(state: TurnState) -> tuple[dict[Summary, int], int, str]:
        known = cache.get(state)
        if known is None:
            problem = Problem(instruction, source, board, chooser, values, state, meter=meter, position_cap=cap)
            cache[state] = known = execution_weights(problem, method)
        return known

    def at(state: TurnState) -> dict[Summary, Fraction]:
        known = fractions.get(state)
        if known is None:
            ways, denominator, _ = weights_at(state)
            fractions[state] = known = {summary: Fraction(count, denominator) for summary, count in ways.items()}
        return known

    # Sums of ways over the one denominator of the first execution: exact, with a fraction made only
    # for each number the answer holds.
    first, denominator, method_used = weights_at(start)
    table = instruction.table
    rows = [0] * (len(table.rows) if table is not None else 0)
    no_row = 0
    results: dict[ResultKey, int] = {}
    doubles = again = 0
    repeats = False
    triggered: dict[str, int] = {}
    for summary, share in first.items():
        if table is not None:
            for row in summary.rows if summary.rows is not None else (summary.row,):
                if row is None:
                    no_row += share
                else:
                    rows[row] += share
        results[summary.value] = results.get(summary.value, 0) + share
        if summary.doubles:
            doubles += share
        if summary.again:
            again += share
            repeats = True
        for card, count in summary.triggers:
            triggered[card] = triggered.get(card, 0) + share * count
    if repeats:
        executions, triggers = expectations(start, at)
    else:
        # One execution, always (chain.expectations says the same): the first execution's own counts.
        executions = _ONE
        triggers = {card: Fraction(count, denominator) for card, count in triggered.items()}
    probability = {share: Fraction(share, denominator) for share in {*first.values(), *results.values()}}
    probability.setdefault(0, _ZERO)

    def fraction(share: int) -> Fraction:
        known = probability.get(share)
        return known if known is not None else Fraction(share, denominator)

    found = [(value, probability[share]) for value, share in results.items()]
    # Results are integers but for planar faces and "none": those sort apart (``_order``).
    ordered = sorted(found) if all(type(value) is int for value, _ in found) else sorted(found, key=_order)
    return Odds(
        tuple(fraction(share) for share in rows),
        fraction(no_row) if table is not None else None,
        tuple(ordered),
        fraction(doubles),
        fraction(again),
        executions,
        tuple(sorted(triggers.items())),
        tuple((summary, probability[share]) for summary, share in first.items()),
        method_used,
    )
