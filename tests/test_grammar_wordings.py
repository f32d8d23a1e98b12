"""The wordings issue 9 lists, each compiled as the rules mean it (or reported), and its roll resolved.

Every text here is synthetic (no card's sentence); each family is tried with other names, numbers
and die sizes so that no test passes on one spelling only.
"""

from __future__ import annotations

import pytest

from mtgdice.rules import (
    Board,
    FaceIs,
    Permanent,
    ResultModifier,
    Scope,
    ScriptedChooser,
    ScriptedSource,
    Trigger,
    resolve,
)
from mtgdice.text import compile_text


@pytest.mark.parametrize(
    ("text", "main", "more"),
    [
        ("Roll a d20 and a d6.", 20, [(1, 6)]),
        ("Roll a d12 and two d4.", 12, [(2, 4)]),
        ("Roll two d8, a d6 and a d4.", 8, [(1, 6), (1, 4)]),
        ("Roll a twenty-sided die and a six-sided die.", 20, [(1, 6)]),
    ],
)
def test_dice_of_several_kinds_are_one_roll(text: str, main: int, more: list[tuple[int, int]]) -> None:
    card = compile_text(text)
    assert card.unsupported == ()
    (roll,) = card.rolls
    assert roll.die.sides == main
    assert [(group.count.constant, group.die.sides) for group in roll.also] == more
    faces = [1] * (roll.count.constant + sum(n for n, _ in more))
    execution = resolve(roll, source="Card", dice=ScriptedSource(faces)).executions[0]
    assert [die.die.sides for die in execution.dice] == [main] * roll.count.constant + [
        sides for n, sides in more for _ in range(n)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Roll a d20. 1-9 | Draw a card. 10-20 | Draw two cards.",
        "Roll a d20.\n1\u20149 | Draw a card. 10\u201420 | Draw two cards.",
        "Roll a d20.\n1\u20139 | Draw a card. 10\u201319 | Draw two cards. 20 | Draw three cards.",
    ],
)
def test_a_table_on_one_line_is_a_table(text: str) -> None:
    card = compile_text(text)
    assert card.unsupported == ()
    table = card.rolls[0].table
    assert table is not None and table.rows[0].low == 1 and table.rows[0].high == 9
    assert table.rows[0].text == "Draw a card."
    assert table.rows[1].low == 10
    assert resolve(card.rolls[0], source="Card", dice=ScriptedSource([12])).executions[0].row == 1


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Roll two dice.", "names no number of sides"),
        ("Roll X dice, where X is the number of Goblins you control.", "names no number of sides"),
        ("Roll a d0.", "0 sides"),
        ("Roll 99999999999999999999999 d6.", "digits"),
        ("Roll a d6. Roll a 99999999999999999999999-sided die.", "digits"),
    ],
)
def test_a_wording_the_rules_refuse_is_unsupported_not_an_error(text: str, reason: str) -> None:
    card = compile_text(text)
    assert card.unsupported and reason in card.unsupported[-1]


def test_a_permanent_with_an_unsupported_sentence_does_not_break_resolve() -> None:
    odd = compile_text("Whenever you roll dice, draw a card. Roll three dice.", name="Odd")
    roll = compile_text("Roll a d6.").rolls[0]
    board = Board.from_zones(battlefield=(Permanent("Odd", odd.effects),))
    assert resolve(roll, source="Card", dice=ScriptedSource([4]), board=board).executions[0].dice[0].result == 4


@pytest.mark.parametrize(
    ("text", "scope", "delta", "either"),
    [
        ("You may pay {1} to increase or decrease the result of a die any player rolled by 1.", Scope.ANY, 1, True),
        ("You may pay 2 life to increase the result of a d20 an opponent rolled by 2.", Scope.OPPONENT, 2, False),
        ("You may tap ~ to decrease the result of a die you rolled by 3.", Scope.YOU, -3, False),
        (
            "After any player rolls a die, you may pay {2}. If you do, increase or decrease the result by 1.",
            Scope.ANY,
            1,
            True,
        ),
        (
            "After an opponent rolls a die, you may pay 1 life. If you do, decrease the result by 2.",
            Scope.OPPONENT,
            -2,
            False,
        ),
        ("Increase the result of each die an opponent rolls by 1.", Scope.OPPONENT, 1, False),
        ("Increase the result of each die any player rolls by 2.", Scope.ANY, 2, False),
    ],
)
def test_modifiers_name_whose_dice(text: str, scope: Scope, delta: int, either: bool) -> None:
    card = compile_text(text, name="Tinker")
    assert card.unsupported == ()
    (effect,) = card.effects
    assert isinstance(effect, ResultModifier)
    assert (effect.scope, effect.delta, effect.either_direction) == (scope, delta, either)


def test_an_optional_modifier_on_anyones_die_applies_to_an_opponents_roll() -> None:
    modifier = compile_text("You may pay {1} to increase the result of a die any player rolled by 1.").effects[0]
    roll = compile_text("Roll a d20.").rolls[0]
    board = Board.from_zones(battlefield=(Permanent("Tinker", (modifier,)),))
    resolution = resolve(roll, source="Card", dice=ScriptedSource([10]), board=board, chooser=ScriptedChooser([True]))
    assert resolution.executions[0].dice[0].result == 11


@pytest.mark.parametrize(
    ("text", "nth", "value"),
    [
        ("Whenever you roll your third die each turn, if its result is 6, draw a card.", 3, 6),
        ("Whenever you roll your second die each turn, if its result is 1, you lose 1 life.", 2, 1),
        ("Whenever you roll your 4th die this turn, if its result is 20, create a Treasure token.", 4, 20),
    ],
)
def test_an_intervening_condition_on_its_result(text: str, nth: int, value: int) -> None:
    (trigger,) = compile_text(text).effects
    assert trigger.nth_this_turn == nth  # type: ignore[attr-defined]
    assert trigger.condition is not None and trigger.condition.describe() == str(value)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (
            "Roll X d6, where X is the number of creature cards in your graveyard that were put there from the "
            "battlefield this turn.",
            "creature cards in graveyard that were put there from battlefield this turn",
        ),
        (
            "Roll X d4, where X is the number of artifacts and enchantments you control.",
            "artifacts and enchantments you control",
        ),
        (
            "Roll a d8 for each opponent who was dealt damage this turn, then draw a card.",
            "opponents who was dealt damage this turn",
        ),
    ],
)
def test_amounts_keep_their_whole_noun_phrase(text: str, name: str) -> None:
    (roll,) = compile_text(text).rolls
    assert roll.count.name == name


@pytest.mark.parametrize(
    ("text", "unread"),
    [
        ("Roll two d6 and ignore the highest roll.", "ignore the highest roll"),
        ("Roll a d20 and you may reroll it once.", "reroll it once"),
        ("Roll a d6 and a planar die.", "a planar die"),
        ("Roll a d12, then reroll any number of dice.", "reroll any number of dice"),
    ],
)
def test_a_tail_the_grammar_does_not_read_is_reported_with_the_part(text: str, unread: str) -> None:
    card = compile_text(text)
    assert len(card.unsupported) == 1 and unread in card.unsupported[0]


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ("Roll three d8 and keep the two highest dice.", [(3, 8, 0, 2, None)]),
        ("Roll four d6 and ignore the lowest roll and add 2.", [(4, 6, 1, None, 2)]),
        ("Roll a d20 and add 3 to the result, then roll a d4.", [(1, 20, 0, None, 3), (1, 4, 0, None, None)]),
        ("Roll five d10 and ignore all but the highest 2 rolls and subtract 1.", [(5, 10, 0, 2, -1)]),
    ],
)
def test_tails_are_read_in_sequence(text: str, shape: list[tuple[int, int, int, int | None, int | None]]) -> None:
    card = compile_text(text)
    assert card.unsupported == ()
    got = [
        (r.count.constant, r.die.sides, r.ignore_lowest, r.keep_highest, r.modifier.constant if r.modifier else None)
        for r in card.rolls
    ]
    assert got == shape


@pytest.mark.parametrize(
    ("text", "face", "scope"),
    [
        ("Whenever you roll {CHAOS} on the planar die, scry 1.", "chaos", Scope.YOU),
        ("Whenever a player rolls a blank on the planar die, draw a card.", "blank", Scope.ANY),
        ("Whenever an opponent rolls {PLANESWALKER} on the planar die, you gain 3 life.", "planeswalk", Scope.OPPONENT),
    ],
)
def test_a_face_on_the_planar_die_is_a_trigger_on_that_face(text: str, face: str, scope: Scope) -> None:
    card = compile_text(text)
    assert card.unsupported == ()
    (trigger,) = card.effects
    assert isinstance(trigger, Trigger) and trigger.planar and trigger.scope is scope
    assert isinstance(trigger.condition, FaceIs) and trigger.condition.face.value == face
