"""Whole resolutions: roll again and repeat (CR 706.3c) solved exactly, never truncated.

One execution's distribution depends on the earlier ones only through the turn state (the
once-each-turn effects already used, and how many dice were rolled this turn up to the highest
"Nth die" a trigger asks for: ``Summary.state``). So the resolution is an absorbing Markov chain
over turn states: from state ``s`` an execution asks for ``t`` more
executions ("roll again" is one, "repeat this process two more times" two, and each of those can
ask again: a branching chain) in state ``s'`` with probability ``P(again t, used = s')``, or
stops. The expected number of executions and of triggerings per card solve
``x = b + sum(p * t * x(s'))`` exactly with Fractions; with a single state that is
``b / (1 - m)``, ``m`` the expected number of executions one execution asks for. When ``m`` is 1
or more the expectation is infinite, and said so. ``t`` executions started together from a state
that further executions can still change would each start from a different state; that case is
refused rather than approximated.

This module leaves out how one execution's distribution is found (``enumerate``, ``fast``).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from mtgdice.odds.enumerate import Summary
from mtgdice.rules import TurnState
from mtgdice.rules.errors import RollLimitError

MAX_STATES = 512
"""Most turn states the chain may visit."""

Distribution = dict[Summary, Fraction]


def expectations(
    start: TurnState, distribution_at: Callable[[TurnState], Distribution]
) -> tuple[Fraction, dict[str, Fraction]]:
    """Expected executions and expected triggerings per card of a whole resolution from ``start``.

    >>> one = Summary(None, None, 20, False, True)
    >>> stop = Summary(None, None, 5, False, False)
    >>> expectations(TurnState(), lambda state: {one: Fraction(1, 20), stop: Fraction(19, 20)})[0]
    Fraction(20, 19)
    >>> two = Summary(None, None, 6, False, True, again_times=2)
    >>> expectations(TurnState(), lambda state: {two: Fraction(1, 6), stop: Fraction(5, 6)})[0]
    Fraction(3, 2)
    """
    first = distribution_at(start)
    if not any(summary.again for summary in first):
        # One execution, always: the expectations are the first execution's own.
        triggered: dict[str, Fraction] = {}
        for summary, p in first.items():
            for card, count in summary.triggers:
                triggered[card] = triggered.get(card, Fraction(0)) + p * count
        return Fraction(1), triggered
    states = [start]
    index = {start: 0}
    found: list[Distribution] = []
    position = 0
    while position < len(states):
        distribution = distribution_at(states[position])
        found.append(distribution)
        for summary in distribution:
            if summary.again and summary.state not in index:
                if len(states) >= MAX_STATES:
                    raise RollLimitError(f"odds: more than {MAX_STATES} turn states; the chain is too large to solve")
                index[summary.state] = len(states)
                states.append(summary.state)
        position += 1
    cards = sorted({card for distribution in found for summary in distribution for card, _ in summary.triggers})
    size = len(states)
    # Rows of (I - P) | b, with b = (1, triggers per card...).
    matrix: list[list[Fraction]] = []
    for row, distribution in enumerate(found):
        line = [Fraction(0)] * size
        line[row] += 1
        constants = [Fraction(1)] + [Fraction(0)] * len(cards)
        for summary, p in distribution.items():
            if summary.again:
                line[index[summary.state]] -= p * summary.again_times
            for card, count in summary.triggers:
                constants[1 + cards.index(card)] += p * count
        matrix.append(line + constants)
    for distribution in found:
        for summary in distribution:
            if summary.again and summary.again_times > 1 and not _settled(found[index[summary.state]], summary.state):
                raise RollLimitError(
                    "odds: a repeat asks for several executions from a turn state later executions can still "
                    "change; this roll is not solved exactly (estimate it with 'mtgdice simulate')"
                )
    solution = _solve(matrix, size)
    if any(line[0] < 0 for line in solution):
        raise RollLimitError(
            "odds: the roll never stops on average (each execution asks for one or more further executions "
            "on average), so the expected number of executions is infinite"
        )
    answer = solution[0]
    return answer[0], {card: answer[1 + i] for i, card in enumerate(cards)}


def _settled(distribution: Distribution, state: TurnState) -> bool:
    """Whether nothing further changes the turn state from ``state`` (every execution keeps it)."""
    return all(summary.state == state for summary in distribution)


def _solve(matrix: list[list[Fraction]], size: int) -> list[list[Fraction]]:
    """Gauss-Jordan elimination on ``[A | B]``; the rows of ``A^-1 B``."""
    for column in range(size):
        pivot = next((r for r in range(column, size) if matrix[r][column] != 0), None)
        if pivot is None:
            raise RollLimitError(
                "odds: the roll never stops (roll again is certain from some state); "
                "answer no to an optional roll again (policy decline)"
            )
        matrix[column], matrix[pivot] = matrix[pivot], matrix[column]
        lead = matrix[column][column]
        matrix[column] = [value / lead for value in matrix[column]]
        for r in range(size):
            if r != column and matrix[r][column] != 0:
                factor = matrix[r][column]
                matrix[r] = [a - factor * b for a, b in zip(matrix[r], matrix[column], strict=True)]
    return [line[size:] for line in matrix]
