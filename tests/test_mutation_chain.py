"""The roll-again chain of ``odds/chain.py`` (CR 706.3c) on small chains solved by hand.

Each case gives one execution's distribution per turn state and the expectations written out from
``x(s) = 1 + sum p * t * x(s')`` (executions) and the same with each card's triggerings as the
constant: a single state, two states (the once-each-turn use moves the chain to a second one), a
repeat of two, and the three refusals (a repeat from a state that still changes, an infinite mean,
too many states). Written to kill the ``odds/chain.py`` mutants of the mutation run
(bench/results/mutation-2026-12-02-*.md).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from mtgdice.odds import chain
from mtgdice.odds.chain import expectations
from mtgdice.odds.enumerate import Summary
from mtgdice.rules import TurnState
from mtgdice.rules.errors import RollLimitError

START = TurnState()
USED = TurnState(frozenset({"Once#0"}))


def _summary(again: bool, *, times: int = 1, used: frozenset[str] = frozenset(), triggers=(), rolled: int = 0):  # type: ignore[no-untyped-def]
    return Summary(None, None, None, False, again, used, tuple(triggers), (), times, rolled)


def test_one_execution_counts_its_own_triggerings() -> None:
    twice = _summary(False, triggers=(("Hit", 2),))
    never = _summary(False)
    assert expectations(START, lambda state: {twice: Fraction(1, 4), never: Fraction(3, 4)}) == (
        Fraction(1),
        {"Hit": Fraction(1, 2)},
    )


def test_a_roll_again_on_a_twenty_is_geometric() -> None:
    # x = 1 + x / 20: 20/19 executions; the natural 20 triggers 1/20 per execution: 1/19.
    again = _summary(True, triggers=(("Hit", 1),))
    stop = _summary(False)
    executions, triggers = expectations(START, lambda state: {again: Fraction(1, 20), stop: Fraction(19, 20)})
    assert (executions, triggers) == (Fraction(20, 19), {"Hit": Fraction(1, 19)})


def test_two_states_solved_together() -> None:
    # From the start: half the time roll again with the once-each-turn ability used (state 1),
    # triggering A; else stop. From state 1: a third of the time roll again (still state 1); every
    # execution there triggers B once.
    # x0 = 1 + x1 / 2, x1 = 1 + x1 / 3: x1 = 3/2, x0 = 7/4.
    # A: a0 = 1/2 (only the first execution can); B: b1 = 1 + b1 / 3 = 3/2, b0 = b1 / 2 = 3/4.
    used = frozenset({"Once#0"})

    def at(state: TurnState) -> dict[Summary, Fraction]:
        if state == START:
            return {_summary(True, used=used, triggers=(("A", 1),)): Fraction(1, 2), _summary(False): Fraction(1, 2)}
        assert state == USED
        return {
            _summary(True, used=used, triggers=(("B", 1),)): Fraction(1, 3),
            _summary(False, used=used, triggers=(("B", 1),)): Fraction(2, 3),
        }

    assert expectations(START, at) == (Fraction(7, 4), {"A": Fraction(1, 2), "B": Fraction(3, 4)})


def test_a_repeat_of_two_from_a_settled_state() -> None:
    # x = 1 + 2 * x / 6: 3/2 executions; a trigger on the repeat row: (1/6) * 3/2 = 1/4.
    two = _summary(True, times=2, triggers=(("Six", 1),))
    stop = _summary(False)
    assert expectations(START, lambda state: {two: Fraction(1, 6), stop: Fraction(5, 6)}) == (
        Fraction(3, 2),
        {"Six": Fraction(1, 4)},
    )


def test_a_repeat_from_a_state_that_still_changes_is_refused() -> None:
    used = frozenset({"Once#0"})

    def at(state: TurnState) -> dict[Summary, Fraction]:
        if state == START:
            return {_summary(True, times=2, used=used): Fraction(1, 2), _summary(False): Fraction(1, 2)}
        # From the used state, half the executions move on to a third state.
        return {_summary(False, used=used, rolled=1): Fraction(1, 2), _summary(False, used=used): Fraction(1, 2)}

    with pytest.raises(RollLimitError) as caught:
        expectations(START, at)
    assert str(caught.value) == (
        "odds: a repeat asks for several executions from a turn state later executions can still "
        "change; this roll is not solved exactly (estimate it with 'mtgdice simulate')"
    )


def test_a_repeat_of_two_from_a_state_that_keeps_still_is_solved() -> None:
    # The same repeat from a used state that stays as it is: x0 = 1 + 2 x1 / 2, x1 = 1 + 0 = 1.
    used = frozenset({"Once#0"})

    def at(state: TurnState) -> dict[Summary, Fraction]:
        if state == START:
            return {_summary(True, times=2, used=used): Fraction(1, 2), _summary(False): Fraction(1, 2)}
        return {_summary(False, used=used): Fraction(1)}

    assert expectations(START, at) == (Fraction(2), {})


def test_a_mean_of_more_than_one_further_execution_is_refused() -> None:
    # A repeat of two three quarters of the time: 3/2 further executions per execution.
    two = _summary(True, times=2)
    with pytest.raises(RollLimitError) as caught:
        expectations(START, lambda state: {two: Fraction(3, 4), _summary(False): Fraction(1, 4)})
    assert str(caught.value) == (
        "odds: the roll never stops on average (each execution asks for one or more further executions "
        "on average), so the expected number of executions is infinite"
    )


def test_a_certain_roll_again_is_refused() -> None:
    with pytest.raises(RollLimitError, match="roll again is certain from some state"):
        expectations(START, lambda state: {_summary(True): Fraction(1)})


@pytest.mark.parametrize(("states", "refused"), [(4, False), (5, True)], ids=["at the limit", "past it"])
def test_the_number_of_states_is_bounded(monkeypatch: pytest.MonkeyPatch, states: int, refused: bool) -> None:
    # Each execution rolls again half the time into the next state (one more die rolled this turn)
    # until the last state, which stops: ``states`` states in all.
    monkeypatch.setattr(chain, "MAX_STATES", 4)

    def at(state: TurnState) -> dict[Summary, Fraction]:
        if state.dice_rolled == states - 1:
            return {_summary(False, rolled=state.dice_rolled): Fraction(1)}
        return {_summary(True, rolled=state.dice_rolled + 1): Fraction(1, 2), _summary(False): Fraction(1, 2)}

    if refused:
        with pytest.raises(RollLimitError) as caught:
            expectations(START, at)
        assert str(caught.value) == "odds: more than 4 turn states; the chain is too large to solve"
    else:
        # x3 = 1, x2 = 1 + 1/2, x1 = 1 + 3/4, x0 = 1 + 7/8.
        assert expectations(START, at) == (Fraction(15, 8), {})
