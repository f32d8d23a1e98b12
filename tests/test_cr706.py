"""Comprehensive Rules 706 and the dice rulings, one test (or more) per subrule, named after it.

Each test checks what its rule says, through the compiler and ``resolve()`` with scripted dice.
Rule text: ../shared/seeds (June 2024 numbering: 706.5 doubles, 706.6 ignore, 706.7 planar, 706.8
stored results).
"""

from __future__ import annotations

import collections
from typing import Any

import pytest

from mtgdice.errors import InputError
from mtgdice.rules import (
    PLANAR_DIE,
    AnyOf,
    Board,
    Die,
    DieRoll,
    Fate,
    InRange,
    Modifier,
    NaturalMax,
    Permanent,
    PlanarFace,
    ScriptedChooser,
    ScriptedSource,
    SecureSource,
    SeededSource,
    resolve,
)
from mtgdice.text import compile_text

OGRE = "Whenever this creature attacks, roll a d20.\n1\u20149 | Create a Treasure token.\n10\u201419 | Create two Treasure tokens.\n20 | Create three Treasure tokens."
ADVANTAGE = "If you would roll one or more dice, instead roll that many dice plus one and ignore the lowest roll."
PLUS_TWO = "Increase the result of each die you roll by 2."
NATURAL_20 = "When you roll a natural 20, return this card from your graveyard to your hand."
BATCH = "Whenever you roll one or more dice, this creature deals 1 damage to each opponent."
PER_DIE = "Whenever you roll a die, put a number of luck counters on this enchantment equal to the result."


def card(text: str, name: str = "Example", **state: Any) -> Permanent:
    compiled = compile_text(text, name=name)
    return Permanent(name, compiled.effects, **state)


def roll_of(text: str, index: int = 0, name: str = "Source") -> Any:
    compiled = compile_text(text, name=name)
    assert compiled.unsupported == (), compiled.unsupported
    return compiled.rolls[index]


def run(
    text: str,
    dice: list[int],
    board: Board | None = None,
    choices: list[Any] | None = None,
    amounts: dict[str, int] | None = None,
    planar: list[str] | None = None,
    index: int = 0,
) -> Any:
    return resolve(
        roll_of(text, index),
        source="Source",
        dice=ScriptedSource(dice, planar or []),
        board=board,
        chooser=ScriptedChooser(choices or []),
        amounts=amounts,
    )


# -- 706.1 ---------------------------------------------------------------------------------------


def test_cr_706_1_instruction_names_kind_and_number_of_dice() -> None:
    roll = roll_of("Roll three d8. You gain life equal to the total of those results.")
    assert (roll.count.value({}), roll.die.sides) == (3, 8)
    outcome = resolve(roll, source="Source", dice=ScriptedSource([1, 8, 5]))
    assert [(d.die.sides, d.natural) for d in outcome.executions[0].dice] == [(8, 1), (8, 8), (8, 5)]


@pytest.mark.parametrize("sides", [1, 2, 3, 4, 6, 7, 8, 10, 12, 20, 100, 1000])
def test_cr_706_1a_an_n_sided_die_has_n_outcomes_numbered_1_to_n(sides: int) -> None:
    assert tuple(Die(sides).faces) == tuple(range(1, sides + 1))
    for phrase in (f"a d{sides}", f"a {sides}-sided die"):
        assert roll_of(f"Roll {phrase}.").die == Die(sides)


def test_cr_706_1a_a_die_needs_a_positive_number_of_sides() -> None:
    # The compiler refuses the roll: the sentence goes to unsupported with the reason (issue 9: never an error).
    refused = compile_text("Roll a 0-sided die.")
    assert refused.rolls == () and "cannot be rolled" in refused.unsupported[0]
    with pytest.raises(InputError):
        ScriptedSource([7]).roll(Die(6))


def test_cr_706_1b_digital_substitute_has_the_same_equally_likely_outcomes() -> None:
    # CR 706.1b: a fair substitute has exactly the die's outcomes, each equally likely.
    for source in (SecureSource(), SeededSource(706)):
        counts = collections.Counter(source.roll(Die(6)) for _ in range(6000))
        assert set(counts) == set(range(1, 7))
        assert all(800 < n < 1200 for n in counts.values()), counts
    seeded = SeededSource(1)
    planar = collections.Counter(seeded.roll(PLANAR_DIE) for _ in range(6000))
    assert set(planar) == set(PlanarFace)
    assert 3500 < planar[PlanarFace.BLANK] < 4500 and 800 < planar[PlanarFace.CHAOS] < 1200


# -- 706.2 ---------------------------------------------------------------------------------------


def test_cr_706_2_natural_result_is_the_face_and_result_adds_every_modifier() -> None:
    roll = roll_of("Roll a d20 and add the number of cards in your hand.\n1\u201414 | A.\n15+ | B.")
    outcome = resolve(
        roll,
        source="Source",
        dice=ScriptedSource([12]),
        amounts={"cards in hand": 4},
        board=Board.from_zones(battlefield=(card(PLUS_TWO),)),
    )
    die = outcome.executions[0].dice[0]
    assert die.natural == 12
    assert die.result == 12 + 4 + 2
    assert outcome.executions[0].row == 1


def test_cr_706_2a_optional_modifier_with_a_cost_is_offered_after_the_result_is_seen() -> None:
    night = "After you roll a die, you may pay 1 life. If you do, increase or decrease the result by 1. Do this only once each turn."
    board = Board.from_zones(battlefield=(card(night, "Shift"),))
    chooser = ScriptedChooser([True, 1])
    outcome = resolve(roll_of(OGRE), source="Source", dice=ScriptedSource([10]), board=board, chooser=chooser)
    asked = chooser.asked[0]
    assert "10" in asked.prompt  # the roller sees the result before deciding
    assert outcome.executions[0].dice[0].result == 9 and outcome.executions[0].row == 0
    declined = resolve(roll_of(OGRE), source="Source", dice=ScriptedSource([10]), board=board)
    assert declined.executions[0].dice[0].result == 10


def test_cr_706_2a_a_cost_that_cannot_be_paid_is_not_offered() -> None:
    xeno = "After you roll a die, you may remove a +1/+1 counter from this creature. If you do, increase or decrease the result by 1."
    empty = Board.from_zones(battlefield=(card(xeno, "Xeno", counters=(("+1/+1", 0),)),))
    chooser = ScriptedChooser([True, 0])
    outcome = resolve(roll_of(OGRE), source="Source", dice=ScriptedSource([19]), board=empty, chooser=chooser)
    assert chooser.asked == [] and outcome.executions[0].dice[0].result == 19
    full = Board.from_zones(battlefield=(card(xeno, "Xeno", counters=(("+1/+1", 2),)),))
    outcome = resolve(
        roll_of(OGRE), source="Source", dice=ScriptedSource([19]), board=full, chooser=ScriptedChooser([True, 0])
    )
    assert outcome.executions[0].dice[0].result == 20


def test_cr_706_2b_rerolls_are_considered_before_increases() -> None:
    clam = "If you roll a 3 on a six-sided die, you may reroll that die."
    board = Board.from_zones(battlefield=(card(clam, "Clam"), card(PLUS_TWO, "Plus")))
    six = "Roll a six-sided die."
    # A natural 3 is rerollable although +2 would make it 5: the reroll window comes first.
    outcome = run(six, [3, 6], board, [True])
    dice = outcome.executions[0].dice
    assert [d.fate for d in dice] == [Fate.REROLLED, Fate.COUNTED]
    assert dice[1].result == 8
    # A natural 1 becomes 3 only after the reroll window: no reroll is offered.
    chooser = ScriptedChooser([True])
    outcome = resolve(roll_of(six), source="Source", dice=ScriptedSource([1]), board=board, chooser=chooser)
    assert chooser.asked == [] and outcome.executions[0].dice[0].result == 3


# -- 706.3 ---------------------------------------------------------------------------------------


def test_cr_706_3_some_instructions_include_a_results_table() -> None:
    assert [(r.low, r.high) for r in roll_of(OGRE).table.rows] == [(1, 9), (10, 19), (20, 20)]


@pytest.mark.parametrize(
    ("face", "amount", "row"),
    [(1, 0, 0), (14, 0, 0), (15, 0, 1), (20, 0, 1), (12, 9, 1), (20, 30, 1)],
)
def test_cr_706_3a_rows_are_a_number_a_range_or_an_open_range(face: int, amount: int, row: int) -> None:
    text = "Roll a d20 and add the number of cards in your hand.\n1\u201414 | A.\n15+ | B."
    outcome = run(text, [face], amounts={"cards in hand": amount})
    assert outcome.executions[0].row == row


def test_cr_706_3a_a_result_in_no_row_does_nothing() -> None:
    text = "Roll a d20 and subtract the number of cards in your hand.\n1\u20149 | A.\n10\u201419 | B.\n20 | C."
    assert run(text, [3], amounts={"cards in hand": 5}).executions[0].row is None
    assert run(OGRE, [20], Board.from_zones(battlefield=(card(PLUS_TWO),))).executions[0].row is None


def test_cr_706_3a_a_list_is_a_results_table_too() -> None:
    listed = "Roll a six-sided die.\n1 \u2014 A.\n2 \u2014 B.\n3 \u2014 C.\n4 \u2014 D.\n5 \u2014 E.\n6 \u2014 F."
    assert run(listed, [5]).executions[0].row == 4


def test_cr_706_3b_roll_modifiers_and_table_are_one_ability() -> None:
    text = "Roll a d20 and add the number of cards in your hand. If the result is 0 or less, discard your hand.\n1\u20149 | A.\n10+ | B."
    compiled = compile_text(text)
    assert len(compiled.rolls) == 1 and compiled.unsupported == ()
    roll = compiled.rolls[0]
    assert roll.modifier is not None and roll.table is not None and len(roll.outcomes) == 1
    orphan = compile_text("Draw a card.\n1\u20149 | A.")
    assert orphan.rolls == () and len(orphan.unsupported) == 1


def test_cr_706_3c_roll_again_uses_the_same_kind_and_number_of_dice_and_modifiers() -> None:
    delina = "Whenever this creature attacks, roll a d20.\n1\u201414 | A.\n15\u201420 | B. You may roll again."
    board = Board.from_zones(battlefield=(card(ADVANTAGE, "Guide"), card(PLUS_TWO, "Plus")))
    outcome = run(delina, [16, 2, 11, 5], board, [True])
    first, second = outcome.executions
    assert [len(first.dice), len(second.dice)] == [2, 2]
    assert second.counted[0].natural == 11 and second.counted[0].result == 13
    assert second.dice[1].fate is Fate.IGNORED


# -- 706.4, 706.5 --------------------------------------------------------------------------------


def test_cr_706_4_without_a_table_the_text_says_how_the_result_is_used() -> None:
    roll = roll_of(
        "Whenever this creature deals combat damage to a player, roll a d20. You create a number of Treasure tokens equal to the result."
    )
    assert roll.table is None and [o.reads.value for o in roll.outcomes] == ["result"]


@pytest.mark.parametrize(("dice", "doubles"), [([4, 4], True), ([4, 5], False), ([2, 2, 2], True), ([2, 2, 3], False)])
def test_cr_706_5_doubles_means_every_result_equals_the_others(dice: list[int], doubles: bool) -> None:
    text = f"Roll {len(dice)} six-sided dice. If you rolled doubles, you win."
    outcome = run(text, dice)
    assert outcome.executions[0].doubles is doubles
    assert (0 in outcome.executions[0].outcomes) is doubles


# -- 706.6 ---------------------------------------------------------------------------------------


def test_cr_706_6_an_ignored_roll_never_happened() -> None:
    board = Board.from_zones(battlefield=(card(ADVANTAGE, "Guide"), card(PLUS_TWO, "Plus"), card(PER_DIE, "Luck")))
    outcome = run(OGRE, [5, 17], board)
    ignored, counted = outcome.executions[0].dice
    assert ignored.fate is Fate.IGNORED and ignored.modifiers == ()  # no effect applies to it
    assert counted.result == 19
    assert [hit.die for hit in outcome.triggers] == [counted.index]  # and nothing triggers on it


def test_cr_706_6_among_tied_lowest_the_player_chooses() -> None:
    board = Board.from_zones(battlefield=(card(ADVANTAGE, "Guide"),))
    assert [d.fate for d in run(OGRE, [7, 7], board).executions[0].dice] == [Fate.IGNORED, Fate.COUNTED]
    assert [d.fate for d in run(OGRE, [7, 7], board, [1]).executions[0].dice] == [Fate.COUNTED, Fate.IGNORED]


def test_cr_706_6_the_lowest_is_decided_by_the_face_before_any_modifier() -> None:
    # Ignoring comes before the ±N window (DESIGN.md §3.4): modifiers never touch the ignored die,
    # and the counted natural 20 still triggers a natural-20 ability.
    board = Board.from_zones(
        battlefield=(card("Increase the result of each die you roll by 1.", "Plus"),),
        graveyard=(card(NATURAL_20, "Crit"),),
    )
    outcome = run("Roll two d20 and ignore the lower roll.", [19, 20], board)
    ignored, counted = outcome.executions[0].dice
    assert (ignored.fate, ignored.result, counted.natural, counted.result) == (Fate.IGNORED, 19, 20, 21)
    assert [hit.card for hit in outcome.triggers] == ["Crit"]


# -- 706.7 ---------------------------------------------------------------------------------------


def test_cr_706_7_the_planar_die_triggers_roll_triggers_but_has_no_number() -> None:
    board = Board.from_zones(
        battlefield=(
            card(BATCH, "Batch"),
            card("Whenever you roll a 4 or higher, draw a card.", "High"),
            card(PER_DIE, "Luck"),
        ),
        graveyard=(card(NATURAL_20, "Crit"),),
    )
    outcome = run("Roll the planar die.", [], board, planar=["planeswalk"])
    die = outcome.executions[0].dice[0]
    assert die.natural is None and die.result is None
    assert sorted(hit.card for hit in outcome.triggers) == ["Batch", "Luck"]


def test_cr_706_7_ignore_the_lowest_compares_numbers_so_adds_no_planar_die() -> None:
    outcome = run(
        "Roll the planar die.", [], Board.from_zones(battlefield=(card(ADVANTAGE, "Guide"),)), planar=["chaos"]
    )
    assert len(outcome.executions[0].dice) == 1


# -- 706.8 ---------------------------------------------------------------------------------------

CENTAUR = (
    "When this creature enters, roll five six-sided dice and store those results on it.\n"
    "At the beginning of combat on your turn, you may reroll any number of this creature's stored results."
)


def test_cr_706_8_store_results_on_the_permanent() -> None:
    outcome = resolve(roll_of(CENTAUR, 0, "Centaur"), source="Centaur", dice=ScriptedSource([3, 3, 5, 1, 2]))
    assert outcome.stored == {"Centaur": (3, 3, 5, 1, 2)}


def test_cr_706_8a_a_stored_result_is_the_result_after_modifiers_of_a_noted_kind() -> None:
    outcome = resolve(
        roll_of(CENTAUR, 0, "Centaur"),
        source="Centaur",
        dice=ScriptedSource([3, 3, 5, 1, 2]),
        board=Board.from_zones(battlefield=(card(PLUS_TWO, "Plus"),)),
    )
    assert outcome.stored == {"Centaur": (5, 5, 7, 3, 4)}
    assert roll_of(CENTAUR, 1, "Centaur").die == Die(6)


def test_cr_706_8b_reroll_stored_results_is_one_roll_filling_the_chosen_slots() -> None:
    centaur = Permanent(
        "Centaur", compile_text(CENTAUR, name="Centaur").effects, stored=(3, 3, 5, 1, 2), stored_die=Die(6)
    )
    board = Board.from_zones(battlefield=(centaur, card(BATCH, "Batch")))
    outcome = resolve(
        roll_of(CENTAUR, 1, "Centaur"),
        source="Centaur",
        dice=ScriptedSource([6]),
        board=board,
        chooser=ScriptedChooser([[1]]),
    )
    # By identity, not by value: only the second 3 changes.
    assert outcome.stored == {"Centaur": (3, 6, 5, 1, 2)}
    assert [hit.card for hit in outcome.triggers] == ["Batch"] and len(outcome.executions) == 1
    nothing = resolve(roll_of(CENTAUR, 1, "Centaur"), source="Centaur", dice=ScriptedSource([]), board=board)
    assert nothing.executions == () and nothing.triggers == ()


def test_cr_706_8c_storing_and_rerolling_abilities_are_linked() -> None:
    text = CENTAUR.replace("six-sided", "eight-sided")
    compiled = compile_text(text, name="Centaur")
    assert compiled.rolls[0].store and compiled.rolls[1].reroll_stored
    assert compiled.rolls[1].die == compiled.rolls[0].die == Die(8)


# -- the dice rulings (seeds: Forgotten Realms rulings) ----------------------------------------------


def test_ruling_the_ability_says_what_to_do_with_the_result() -> None:
    assert roll_of(OGRE).table is not None
    assert roll_of("Roll a d20. Draw cards equal to the result.").outcomes[0].reads.value == "result"


def test_ruling_targets_are_chosen_before_the_roll_which_happens_on_resolution() -> None:
    text = "Choose target creature, then roll a d20.\n1\u20149 | Tap it.\n10\u201420 | Destroy it."
    compiled = compile_text(text)
    assert len(compiled.rolls) == 1 and "Choose target creature" in compiled.rolls[0].text
    source = ScriptedSource([12])
    assert source.used == (0, 0)  # nothing is rolled while the ability is put on the stack
    resolve(compiled.rolls[0], source="Source", dice=source)
    assert source.used == (1, 0)


def test_ruling_dice_are_named_by_their_faces() -> None:
    assert roll_of("Roll a d20.").die == roll_of("Roll a twenty-sided die.").die == roll_of("Roll a 20-sided die.").die


def test_ruling_dice_must_be_fair_digital_substitutes_allowed() -> None:
    for source in (SecureSource(), SeededSource(3)):
        faces = {source.roll(Die(20)) for _ in range(2000)}
        assert faces == set(range(1, 21))


def test_ruling_extra_dice_from_ignore_the_lowest_never_count_and_never_trigger() -> None:
    board = Board.from_zones(
        battlefield=(card(ADVANTAGE, "Guide"), card(PER_DIE, "Luck")), graveyard=(card(NATURAL_20, "Crit"),)
    )
    outcome = run(OGRE, [20, 20], board)
    assert [d.fate for d in outcome.executions[0].dice] == [Fate.IGNORED, Fate.COUNTED]
    assert collections.Counter(hit.card for hit in outcome.triggers) == {"Luck": 1, "Crit": 1}


def test_ruling_roll_again_uses_the_same_number_and_kind_of_dice() -> None:
    text = "Roll two d6.\n1\u20146 | A.\n7\u201412 | B. Roll again."
    outcome = run(text, [4, 5, 1, 1])
    assert [[d.die.sides for d in e.dice] for e in outcome.executions] == [[6, 6], [6, 6]]


def test_ruling_result_is_after_modifiers_natural_result_before() -> None:
    board = Board.from_zones(
        battlefield=(card(PLUS_TWO, "Plus"), card("Whenever you roll a 20, draw a card.", "Twenty")),
        graveyard=(card(NATURAL_20, "Crit"),),
    )
    outcome = run(OGRE, [18], board)
    assert [hit.card for hit in outcome.triggers] == ["Twenty"]
    outcome = run(OGRE, [20], board)
    assert [hit.card for hit in outcome.triggers] == ["Crit"]


def test_ruling_the_roll_and_its_effect_are_one_ability() -> None:
    # The row is decided in the same resolution as the roll: no decision point between them.
    chooser = ScriptedChooser([])
    outcome = resolve(roll_of(OGRE), source="Source", dice=ScriptedSource([15]), chooser=chooser)
    assert chooser.asked == [] and outcome.executions[0].row == 1


def test_ruling_the_planar_die_triggers_roll_triggers_but_has_no_number() -> None:
    planar = DieRoll(0, PLANAR_DIE, PlanarFace.CHAOS, (Modifier(2, "x"),))
    for condition in (InRange(1, None), InRange(None, 100), NaturalMax(), AnyOf((InRange(1, 1), InRange(6, 6)))):
        assert not condition.holds(planar)
    board = Board.from_zones(battlefield=(card(BATCH, "Batch"),))
    assert [hit.card for hit in run("Roll the planar die.", [], board, planar=["blank"]).triggers] == ["Batch"]
