"""Survivors of the mutation run of 2026-12-02 (bench/results/mutation-2026-12-02-s2.md), killed here
with the value the rules or the interface give:

- plain dice: dice are numbered across every group of a roll; a number past the limit is refused
  naming ``dice``;
- errors and answers: a die size error keeps the size it refused; an answer checked with no field
  named says ``choices`` (the JSON field of answers);
- the lazy names of ``mtgdice.rules`` are found on first use;
- a condition on a value (not a die): ``holds_value``;
- what an effect kind declares it does not do: a pair of coins offers no reflip, a pair of dice is not
  drawn by the vectorised simulation (the roller's choice is a decision);
- the settled-dice path (two different reroll permissions, docs/odds.md): a static modifier counted
  once, two dice summed with their doubles (CR 706.5), and the totals path of plain dice, each
  compared with enumeration of every face sequence by ``itertools.product``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

import mtgdice.rules as rules
from mtgdice.odds import odds
from mtgdice.rules import (
    Amount,
    Board,
    Die,
    InRange,
    Permanent,
    RerollPermission,
    ResultModifier,
    RollInstruction,
    ScriptedSource,
)
from mtgdice.rules.choices import Ask, Decision, Topic, check_answer
from mtgdice.rules.errors import ChoiceError, DieSizeError, InputError
from mtgdice.rules.plain import roll_plain
from mtgdice.rules.players import YOU
from mtgdice.text.notation import parse_plain


def test_plain_dice_are_numbered_across_every_group() -> None:
    result = roll_plain(parse_plain("1d6+2d6+1d6"), ScriptedSource([1, 2, 3, 4]))
    (terms,) = result.sets
    assert [[die.index for die in term.dice] for term in terms] == [[0], [1, 2], [3]]


def test_a_number_past_the_limit_is_refused_naming_dice() -> None:
    from mtgdice.rules.plain import MAX_PLAIN_CONSTANT

    with pytest.raises(InputError) as caught:
        parse_plain(f"d6+{MAX_PLAIN_CONSTANT + 1}")
    assert str(caught.value) == (
        f"dice: the number {MAX_PLAIN_CONSTANT + 1} is out of range (0 to {MAX_PLAIN_CONSTANT})"
    )


def test_a_die_size_error_keeps_the_size() -> None:
    assert DieSizeError(0).sides == 0
    assert DieSizeError(-4).sides == -4


def test_an_answer_checked_without_a_field_names_choices() -> None:
    with pytest.raises(ChoiceError) as caught:
        check_answer(Decision(Ask.YES_NO, Topic.REROLL, YOU, "Reroll?"), 3)
    assert str(caught.value) == "choices: Reroll? needs true or false, got 3"


def test_a_lazy_name_is_imported_on_first_use(monkeypatch: pytest.MonkeyPatch) -> None:
    from mtgdice.rules.resolution import MAX_EXECUTIONS, resolve

    monkeypatch.delitem(vars(rules), "MAX_EXECUTIONS", raising=False)
    monkeypatch.delitem(vars(rules), "resolve", raising=False)
    assert rules.MAX_EXECUTIONS == MAX_EXECUTIONS
    assert rules.resolve is resolve
    assert vars(rules)["resolve"] is resolve  # kept for the next use


def test_a_range_holds_for_values_inside_it() -> None:
    condition = InRange(4, 5)
    assert [condition.holds_value(v) for v in (None, 3, 4, 5, 6)] == [False, False, True, True, False]


def test_a_pair_of_coins_offers_no_reflip_and_a_pair_of_dice_is_not_vectorised() -> None:
    from mtgdice.rules.effects.coin import PairEachCoin
    from mtgdice.rules.effects.replacement import PairEachDie

    holder = next(Board.from_zones(battlefield=(Permanent("Thumb", (PairEachCoin(),)),)).holders())
    assert PairEachCoin().consider_coin("heads", YOU, holder, None) is False  # type: ignore[arg-type]
    assert PairEachDie().vectorised() is False


ONES = RerollPermission(condition=InRange(1, 1))
TWOS = RerollPermission(condition=InRange(2, 2))


def _board(*effects: object) -> Board:
    return Board.from_zones(battlefield=tuple(Permanent(f"E{i}", (e,)) for i, e in enumerate(effects)))  # type: ignore[arg-type]


def test_two_permissions_and_a_static_modifier_count_the_modifier_once() -> None:
    # The die settles on 3..6 (1s and 2s rerolled until they are not), then +1: 4..7, each 1/4.
    found = odds(RollInstruction(Amount(1), Die(6)), board=_board(ONES, TWOS, ResultModifier(delta=1)), policy="accept")
    assert found.method == "settled dice"
    assert dict(found.results) == {value: Fraction(1, 4) for value in range(4, 8)}


def test_two_settled_dice_are_summed_with_their_doubles() -> None:
    # Each die uniform on 3..6: the total of two, and doubles (CR 706.5) 4 of 16.
    found = odds(RollInstruction(Amount(2), Die(6)), board=_board(ONES, TWOS), policy="accept")
    assert found.method == "settled dice"
    totals = Counter(a + b for a, b in itertools.product(range(3, 7), repeat=2))
    assert dict(found.results) == {total: Fraction(n, 16) for total, n in totals.items()}
    assert found.doubles == Fraction(1, 4)


@pytest.mark.parametrize("sides", [4, 6])
def test_plain_totals_equal_enumeration(sides: int) -> None:
    found = odds(RollInstruction(Amount(3), Die(sides)))
    assert found.method == "totals"
    sequences = list(itertools.product(range(1, sides + 1), repeat=3))
    totals = Counter(sum(sequence) for sequence in sequences)
    assert dict(found.results) == {total: Fraction(n, len(sequences)) for total, n in totals.items()}
    assert found.doubles == Fraction(sides, len(sequences))  # all three alike
