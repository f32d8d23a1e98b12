"""The decisions ``resolve()`` asks (rules/resolution.py), read whole: the question, the options, the
values a policy reads and who answers.

Each decision is asked of the player the rules name (the roller for a pair and for the order of
replacements, CR 616.1; the controller for "choose one result" and an optional roll again, CR
706.3c), shows the dice as labels, and carries the values the stated policies compare: the result
each option leads to — for "ignore which", the result the *other* die leaves. The expected texts are
written from those requirements. Written to kill the prompt mutants of ``rules/resolution.py`` in
the mutation run (bench/results/mutation-2026-12-02-*.md).
"""

from __future__ import annotations

from typing import Any

from mtgdice.rules import (
    Amount,
    Board,
    Die,
    ExtraDice,
    InRange,
    Permanent,
    ResultsTable,
    RollInstruction,
    Row,
    ScriptedChooser,
    ScriptedSource,
    resolve,
)
from mtgdice.rules.choices import Ask, Decision, Topic
from mtgdice.rules.effects.replacement import IgnoreMode, PairEachDie
from mtgdice.rules.players import OPPONENT, YOU, Decider


def _asked(instruction: RollInstruction, faces: list[int], answers: list[Any], board: Board | None = None) -> Any:
    chooser = ScriptedChooser(answers)
    resolution = resolve(instruction, source="Test", dice=ScriptedSource(faces), board=board, chooser=chooser)
    return chooser.asked, resolution


def _shape(decision: Decision) -> tuple[Any, ...]:
    return decision.ask, decision.topic, decision.player, decision.prompt, decision.options, decision.values


def test_choose_one_result() -> None:
    asked, resolution = _asked(RollInstruction(Amount(2), Die(10), choose=True), [3, 8], [1])
    assert [_shape(d) for d in asked] == [
        (Ask.PICK_ONE, Topic.CHOOSE_RESULT, YOU, "Choose one result", ("3 (d10)", "8 (d10)"), (3, 8))
    ]
    assert resolution.executions[0].chosen == 1


def test_an_optional_roll_again_names_its_row() -> None:
    table = ResultsTable((Row(1, 3), Row(4, None, roll_again=True, roll_again_optional=True)))
    asked, resolution = _asked(RollInstruction(Amount(1), Die(6), table=table), [5, 2], [True])
    assert [_shape(d) for d in asked] == [(Ask.YES_NO, Topic.ROLL_AGAIN, YOU, "Roll again (4+)?", ("no", "yes"), ())]
    assert len(resolution.executions) == 2


def test_an_optional_repeat_asks_to_repeat() -> None:
    instruction = RollInstruction(Amount(1), Die(6), repeat_when=InRange(6, 6), repeat_optional=True)
    asked, resolution = _asked(instruction, [6], [False])
    assert [_shape(d) for d in asked] == [
        (Ask.YES_NO, Topic.ROLL_AGAIN, YOU, "Repeat this process?", ("no", "yes"), ())
    ]
    assert len(resolution.executions) == 1 and not resolution.executions[0].again


def test_a_pair_asks_the_roller_which_die_to_ignore_showing_what_each_answer_leaves() -> None:
    board = Board.from_zones(battlefield=(Permanent("Pair", (PairEachDie(),)),))
    asked, resolution = _asked(RollInstruction(Amount(1), Die(6)), [3, 5], [0], board)
    assert [_shape(d) for d in asked] == [
        (Ask.PICK_ONE, Topic.IGNORE, YOU, "Ignore which of these dice?", ("3 (d6)", "5 (d6)"), (5, 3))
    ]
    assert resolution.executions[0].results == (5,)


def test_three_dice_of_a_group_ask_which_one_to_keep() -> None:
    board = Board.from_zones(battlefield=(Permanent("Pairs", (PairEachDie(), PairEachDie())),))
    asked, resolution = _asked(RollInstruction(Amount(1), Die(6)), [2, 6, 4], [2], board)
    assert [_shape(d) for d in asked] == [
        (Ask.PICK_ONE, Topic.KEEP, YOU, "Keep which of these 3 dice?", ("2 (d6)", "6 (d6)", "4 (d6)"), (2, 6, 4))
    ]
    assert resolution.executions[0].results == (4,)


def test_tied_lowest_dice_ask_which_one_goes() -> None:
    board = Board.from_zones(battlefield=(Permanent("Low", (ExtraDice(extra=1),)),))
    asked, resolution = _asked(RollInstruction(Amount(2), Die(6)), [4, 6, 4], [1], board)
    assert [_shape(d) for d in asked] == [
        (Ask.PICK_ONE, Topic.IGNORE, YOU, "Ignore which of the tied lowest (4)?", ("4 (d6)", "4 (d6)"), ())
    ]
    fates = [die.counted for die in resolution.executions[0].dice]
    assert fates == [True, True, False]  # the second 4 (the third die) went


def test_an_extra_die_an_opponent_picks_asks_that_opponent() -> None:
    chosen = ExtraDice(ignore=IgnoreMode.CHOSEN, chosen_by=Decider.OPPONENT)
    board = Board.from_zones(battlefield=(Permanent("Pick", (chosen,)),))
    asked, resolution = _asked(RollInstruction(Amount(1), Die(6)), [2, 5], [1], board)
    assert [_shape(d) for d in asked] == [
        (Ask.PICK_ONE, Topic.IGNORE, OPPONENT, "Ignore which die (Pick)?", ("2 (d6)", "5 (d6)"), (5, 2))
    ]
    assert asked[0].source == "Pick"
    assert resolution.executions[0].results == (2,)


def test_the_order_of_different_replacements_is_asked_of_the_roller() -> None:
    board = Board.from_zones(battlefield=(Permanent("Low", (ExtraDice(),)), Permanent("Pair", (PairEachDie(),))))
    asked, _ = _asked(RollInstruction(Amount(1), Die(6)), [1, 2, 3, 4], [1, 0, 0], board)
    order = asked[0]
    assert _shape(order) == (
        Ask.PICK_ONE,
        Topic.ORDER,
        YOU,
        "Which replacement applies first (CR 616.1)?",
        ("Low (extra dice)", "Pair (pair each die)"),
        (),
    )


def test_identical_replacements_are_not_ordered() -> None:
    board = Board.from_zones(battlefield=(Permanent("Low", (ExtraDice(),)), Permanent("Low 2", (ExtraDice(),))))
    asked, resolution = _asked(RollInstruction(Amount(1), Die(6)), [1, 2, 3], [], board)
    assert asked == []
    assert resolution.executions[0].results == (3,)
