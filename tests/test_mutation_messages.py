"""The words a player reads: each decision's question and each one-line error of ``rules/`` and
``odds/``, read whole.

A question names the die as it stands (its result, its kind, its natural result when a modifier
changed it), the card that offers the choice and the cost of saying yes; an error names the field
or the limit and what to do instead (STYLE.md 6). The expected texts are written here from those
requirements and the numbers of each case (the die, the limit, the count), so a mutant that drops a
word, a number or the cost fails. Written to kill the message mutants the mutation run found
(bench/results/mutation-2026-12-02-*.md)."""

from __future__ import annotations

from typing import Any

import pytest

from mtgdice.rules import (
    Amount,
    Board,
    Die,
    ExtraDice,
    InRange,
    Permanent,
    RerollPermission,
    ResultModifier,
    RollInstruction,
    ScriptedChooser,
    ScriptedSource,
    resolve,
)
from mtgdice.rules.choices import Ask, Decision, Topic, check_answer
from mtgdice.rules.effects.base import Cost
from mtgdice.rules.errors import (
    ChoiceError,
    DiceExhaustedError,
    DieSizeError,
    InputError,
    MissingAmountError,
    NoSuchSeatError,
    RollLimitError,
)
from mtgdice.rules.players import OPPONENT, YOU, Decider, Scope


def _asked(board: Board, faces: list[int], answers: list[Any], count: int = 1, sides: int = 6) -> list[Decision]:
    chooser = ScriptedChooser(answers)
    resolve(
        RollInstruction(Amount(count), Die(sides)),
        source="Test",
        dice=ScriptedSource(faces),
        board=board,
        chooser=chooser,
    )
    return chooser.asked


def _mine(name: str, *effects: Any) -> Board:
    return Board.from_zones(battlefield=(Permanent(name, effects),))


# Questions ---------------------------------------------------------------------------------------


def test_a_reroll_question_names_the_die_and_the_card() -> None:
    (asked,) = _asked(_mine("Again", RerollPermission(condition=InRange(1, 1))), [1, 4], [True])
    assert asked.prompt == "Reroll the 1 (d6) (Again)?"
    assert (asked.ask, asked.topic, asked.player, asked.source) == (Ask.YES_NO, Topic.REROLL, YOU, "Again")


def test_a_costed_reroll_question_names_its_cost() -> None:
    costed = RerollPermission(condition=InRange(1, 2), cost=Cost("pay 1 life"))
    (asked,) = _asked(_mine("Pay", costed), [2, 5], [False])
    assert asked.prompt == "Reroll the 2 (d6) (Pay, pay 1 life)?"


def test_a_reroll_of_several_dice_asks_once_which_ones() -> None:
    many = RerollPermission(many=True, cost=Cost("pay 2 life"))
    (asked,) = _asked(_mine("Many", many), [3, 5, 6], [[0]], count=2)
    assert asked.prompt == "Reroll which dice (Many, pay 2 life)?"
    assert (asked.ask, asked.topic, asked.options) == (Ask.PICK_ANY, Topic.REROLL_WHICH, ("3 (d6)", "5 (d6)"))


def test_a_reroll_of_several_dice_without_a_cost_names_only_the_card() -> None:
    (asked,) = _asked(_mine("Many", RerollPermission(many=True)), [3, 5, 6], [[]], count=2)
    assert asked.prompt == "Reroll which dice (Many)?"


def test_a_modifier_question_names_the_die_and_the_cost() -> None:
    costed = ResultModifier(delta=2, optional=True, cost=Cost("pay 1 life"))
    (asked,) = _asked(_mine("Boost", costed), [4], [False])
    assert asked.prompt == "Use Boost on the 4 (d6), pay 1 life?"
    assert (asked.topic, asked.values) == (Topic.MODIFY, (4, 6))


def test_a_free_modifier_question_has_no_cost_part() -> None:
    (asked,) = _asked(_mine("Boost", ResultModifier(delta=1, optional=True)), [4], [False])
    assert asked.prompt == "Use Boost on the 4 (d6)?"


def test_the_direction_question_names_the_die_as_it_stands() -> None:
    either = ResultModifier(delta=1, optional=True, either_direction=True)
    static = ResultModifier(delta=2)  # applied first (CR 706.2b: static, then offered)
    board = Board.from_zones(battlefield=(Permanent("Plus", (static,)), Permanent("Night", (either,))))
    modify, direction = _asked(board, [3], [True, 0])
    assert modify.prompt == "Use Night on the 5 (d6, natural 3)?"
    assert direction.prompt == "Increase or decrease the 5 (d6, natural 3)?"
    assert (direction.ask, direction.options, direction.values) == (Ask.PICK_ONE, ("increase", "decrease"), (6, 4))
    assert direction.player == YOU and direction.source == "Night"


def test_an_optional_extra_die_asks_how_many_dice_instead() -> None:
    (asked,) = _asked(_mine("Maybe", ExtraDice(optional=True)), [4, 2, 5], [True], count=2)
    assert asked.prompt == "Roll 3 instead of 2 (Maybe)?"
    assert (asked.ask, asked.topic, asked.player, asked.source) == (Ask.YES_NO, Topic.REPLACE, YOU, "Maybe")


def test_an_opponents_reroll_question_goes_to_that_opponent() -> None:
    theirs = RerollPermission(condition=InRange(6, 6), scope=Scope.OPPONENT, rerolled_by=Decider.CONTROLLER)
    board = Board.from_zones(opponents=(Permanent("Spite", (theirs,)),))
    (asked,) = _asked(board, [6, 2], [True])
    assert asked.prompt == "Reroll the 6 (d6) (Spite)?" and asked.player == OPPONENT


# Errors ------------------------------------------------------------------------------------------


def _decision(ask: Ask, options: tuple[str, ...] = ()) -> Decision:
    return Decision(ask, Topic.REROLL, YOU, "Reroll?", options)


@pytest.mark.parametrize(
    ("ask", "options", "answer", "message"),
    [
        (Ask.YES_NO, (), 1, "choices[3]: Reroll? needs true or false, got 1"),
        (Ask.PICK_ONE, ("a", "b"), True, "choices[3]: Reroll? needs an index, got True"),
        (Ask.PICK_ONE, ("a", "b"), 2, "choices[3]: Reroll? has options 0 to 1, got 2"),
        (Ask.PICK_ONE, ("a", "b"), -1, "choices[3]: Reroll? has options 0 to 1, got -1"),
        (Ask.PICK_ANY, ("a", "b"), 1, "choices[3]: Reroll? needs a list of indices, got 1"),
        (Ask.PICK_ANY, ("a", "b"), [True], "choices[3]: Reroll? needs a list of indices, got [True]"),
        (Ask.PICK_ANY, ("a", "b"), [1, 1], "choices[3]: Reroll? lists an index twice: [1, 1]"),
        (Ask.PICK_ANY, ("a", "b", "c"), [0, 3], "choices[3]: Reroll? has options 0 to 2, got 3"),
    ],
    ids=["yes-no", "index-bool", "index-high", "index-negative", "list-int", "list-bool", "twice", "list-high"],
)
def test_a_wrong_answer_is_refused_naming_where_and_what(
    ask: Ask, options: tuple[str, ...], answer: Any, message: str
) -> None:
    with pytest.raises(ChoiceError) as caught:
        check_answer(_decision(ask, options), answer, "choices[3]")
    assert str(caught.value) == message


def test_right_answers_pass_and_a_subset_comes_back_sorted() -> None:
    assert check_answer(_decision(Ask.YES_NO), False) is False
    assert check_answer(_decision(Ask.PICK_ONE, ("a", "b")), 1) == 1
    assert check_answer(_decision(Ask.PICK_ANY, ("a", "b", "c")), [2, 0]) == (0, 2)


def test_the_error_classes_word_their_one_line() -> None:
    assert str(InputError("dice[2]", "7 is not a face")) == "dice[2]: 7 is not a face"
    assert str(InputError("", "no field")) == "no field"
    assert str(MissingAmountError("X")) == "amount 'X': this roll needs its value"
    assert (
        str(NoSuchSeatError("roller", 3, 2))
        == "roller: seat 3 does not exist; this table has 2 player(s), seats 0 to 1"
    )
    assert str(DieSizeError(0)) == "die: a die with 0 sides cannot be rolled; a die has 1 or more sides"


def test_used_up_dice_say_how_many_were_given_and_what_to_add() -> None:
    with pytest.raises(DiceExhaustedError) as caught:
        resolve(RollInstruction(Amount(3), Die(20)), source="Test", dice=ScriptedSource([4, 5]))
    assert str(caught.value) == "dice: all 2 faces given were used and another d20 is rolled; add more values to dice"


def test_a_face_the_die_does_not_have_is_refused_by_position() -> None:
    with pytest.raises(InputError) as caught:
        resolve(RollInstruction(Amount(2), Die(6)), source="Test", dice=ScriptedSource([3, 7]))
    assert str(caught.value) == "dice[1]: 7 is not a face of a d6 (faces are 1 to 6)"


def test_a_table_of_too_many_players_is_refused() -> None:
    with pytest.raises(InputError) as caught:
        resolve(RollInstruction(Amount(1), Die(6)), source="Test", dice=ScriptedSource([3]), players=0)
    assert str(caught.value).startswith("players: 0 players; a table has 1 to ")


def test_a_roller_outside_the_table_is_refused_by_role() -> None:
    with pytest.raises(NoSuchSeatError) as caught:
        resolve(RollInstruction(Amount(1), Die(6)), source="Test", dice=ScriptedSource([3]), roller=2)  # type: ignore[arg-type]
    assert str(caught.value) == "roller: seat 2 does not exist; this table has 2 player(s), seats 0 to 1"
    with pytest.raises(NoSuchSeatError) as caught:
        resolve(RollInstruction(Amount(1), Die(6)), source="Test", dice=ScriptedSource([3]), controller=5)  # type: ignore[arg-type]
    assert str(caught.value).startswith("controller: seat 5 does not exist")


def test_a_negative_count_and_a_sideless_die_are_refused() -> None:
    with pytest.raises(InputError) as caught:
        resolve(RollInstruction(Amount.named("X"), Die(6)), source="Test", dice=ScriptedSource([]), amounts={"X": -1})
    assert str(caught.value) == "count: -1 dice cannot be rolled; the number of dice must be 0 or more"
    with pytest.raises(DieSizeError):
        resolve(RollInstruction(Amount(1), Die(0)), source="Test", dice=ScriptedSource([1]))


def test_a_missing_amount_is_named() -> None:
    with pytest.raises(MissingAmountError) as caught:
        resolve(RollInstruction(Amount.named("X"), Die(6)), source="Test", dice=ScriptedSource([1]))
    assert str(caught.value) == "amount 'X': this roll needs its value"


def test_too_many_dice_name_the_limit_and_the_way_on() -> None:
    from mtgdice.rules.resolution import MAX_DICE

    with pytest.raises(RollLimitError) as caught:
        resolve(RollInstruction(Amount(MAX_DICE + 1), Die(6)), source="Test", dice=ScriptedSource([]))
    assert str(caught.value) == (
        f"count: {MAX_DICE + 1} dice in one roll is more than the limit of {MAX_DICE}; roll fewer dice"
    )


def test_a_roll_again_without_end_stops_at_the_limit_with_the_way_out() -> None:
    from mtgdice.rules import MAX_EXECUTIONS, ResultsTable, Row

    again = RollInstruction(Amount(1), Die(6), table=ResultsTable((Row(1, 6, roll_again=True),)))
    with pytest.raises(RollLimitError) as caught:
        resolve(again, source="Test", dice=ScriptedSource([3] * (MAX_EXECUTIONS + 2)))
    assert str(caught.value) == (
        f"roll again: more than {MAX_EXECUTIONS} executions of one instruction; "
        "the loop was stopped (answer false to an optional roll again, or give other dice)"
    )


def test_odds_name_a_method_that_does_not_exist() -> None:
    from mtgdice.odds import odds

    with pytest.raises(InputError) as caught:
        odds(RollInstruction(Amount(1), Die(6)), method="fast")
    assert str(caught.value) == "method: 'fast' is not a method; use auto or brute"


def test_odds_of_a_certain_roll_again_say_it_never_stops() -> None:
    from mtgdice.odds import odds
    from mtgdice.rules import ResultsTable, Row

    again = RollInstruction(Amount(1), Die(6), table=ResultsTable((Row(1, 6, roll_again=True),)))
    with pytest.raises(RollLimitError) as caught:
        odds(again)
    assert str(caught.value) == (
        "odds: the roll never stops (roll again is certain from some state); "
        "answer no to an optional roll again (policy decline)"
    )


def test_odds_of_a_reroll_of_every_face_say_the_rerolls_never_stop() -> None:
    from mtgdice.odds import odds

    board = _mine("Always", RerollPermission())
    with pytest.raises(RollLimitError) as caught:
        odds(RollInstruction(Amount(1), Die(6)), board=board, policy="accept")
    assert str(caught.value) == (
        "odds: every new roll meets the reroll condition again, so the rerolls never stop; "
        "decline the reroll (policy decline)"
    )


def test_odds_too_large_to_enumerate_name_the_count_and_the_way_on() -> None:
    # Five d20 and an extra die, ignoring the lowest, with a trigger that reads each die: not composed
    # and too many first rolls (20^6 > the 200 000 runs of the budget) to enumerate.
    from mtgdice.odds import odds
    from mtgdice.rules.effects.trigger import Trigger

    board = Board.from_zones(
        battlefield=(Permanent("Low", (ExtraDice(),)), Permanent("Twenty", (Trigger(condition=InRange(20, 20)),)))
    )
    with pytest.raises(RollLimitError) as caught:
        odds(RollInstruction(Amount(5), Die(20)), board=board)
    assert str(caught.value) == (
        "odds: 20^6 face sequences for the first roll alone are more than the 200000 this roll's decisions "
        "let the odds engine enumerate; estimate it with 'mtgdice simulate' instead"
    )
