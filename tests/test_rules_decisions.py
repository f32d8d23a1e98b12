"""Rules decisions of DESIGN.md §3 beyond the public suite, through the JSON interface with dev cards.

Each test names the decision it pins down; the README's "Rules decisions" lists them.
"""

from __future__ import annotations

import collections
from typing import Any


def dice(outcome: dict[str, Any], roll: int = 0) -> list[tuple[Any, ...]]:
    return [
        (d["natural"] if d["sides"] != "planar" else d["face"], d["result"], d["ignored"], d.get("rerolled", False))
        for d in outcome["rolls"][roll]["dice"]
    ]


def test_reroll_by_an_opponents_permanent_makes_them_the_roller(run: Any) -> None:
    # Pippa ruling: the rerolling player is the roller; the roller's "you" abilities ignore the new die.
    outcome = run(
        {
            "card": "Hoarding Ogre",
            "battlefield": ["Night Shift of the Living Dead"],
            "opponents": ["Pippa, Duchess of Dice"],
            "dice": [3, 6],
            "choices": [True],
        }
    )
    assert outcome["rolls"][0]["dice"][1]["roller"] == "opponent"
    assert outcome["triggers"] == []
    own = run(
        {
            "card": "Hoarding Ogre",
            "battlefield": ["Night Shift of the Living Dead", "Pippa, Duchess of Dice"],
            "dice": [3, 6],
            "choices": [True],
        }
    )
    assert own["triggers"] == ["Night Shift of the Living Dead"]


def test_a_tap_cost_is_paid_once_per_resolution(run: Any) -> None:
    outcome = run(
        {"card": "Hoarding Ogre", "battlefield": ["Goblin Bookie"], "dice": [3, 4, 5], "choices": [True, True]}
    )
    assert [d[3] for d in dice(outcome)] == [True, False]
    assert len(outcome["decisions"]) == 1
    tapped = run(
        {
            "card": "Hoarding Ogre",
            "battlefield": [{"card": "Goblin Bookie", "tapped": True}],
            "dice": [3],
            "choices": [True],
        }
    )
    assert tapped["decisions"] == []


def test_once_each_turn_is_remembered_across_resolutions(run: Any) -> None:
    first = run(
        {"card": "Hoarding Ogre", "battlefield": ["Night Shift of the Living Dead"], "dice": [9], "choices": [True, 0]}
    )
    assert first["rolls"][0]["results"] == [10] and first["rolls"][0]["row"] == 1
    second = run(
        {
            "card": "Hoarding Ogre",
            "battlefield": ["Night Shift of the Living Dead"],
            "dice": [9],
            "choices": [True, 0],
            "used": first["used"],
        }
    )
    assert second["decisions"] == [] and second["rolls"][0]["results"] == [9]


def test_reroll_one_or_more_dice_is_one_subset_decision(run: Any) -> None:
    outcome = run(
        {
            "card": "Neverwinter Hydra",
            "amounts": {"X": 3},
            "battlefield": ["Monitor Monitor"],
            "dice": [1, 6, 2, 5, 4],
            "choices": [[0, 2]],
        }
    )
    assert dice(outcome) == [
        (1, 1, False, True),
        (6, 6, False, False),
        (2, 2, False, True),
        (5, 5, False, False),
        (4, 4, False, False),
    ]
    assert outcome["rolls"][0]["results"] == [6, 5, 4]


def test_an_extra_die_whose_ignored_roll_is_chosen_works_with_any_die(run: Any) -> None:
    outcome = run(
        {"card": "Fractured Powerstone", "command": ["Probability Flux"], "planar": ["chaos", "blank"], "choices": [0]}
    )
    assert dice(outcome) == [("chaos", None, True, False), ("blank", None, False, False)]


def test_a_blank_that_counts_as_chaos_triggers_chaos_abilities(run: Any) -> None:
    outcome = run(
        {"card": "Fractured Powerstone", "command": ["Stairs to Infinity", "Chaotic Aether"], "planar": ["blank"]}
    )
    assert collections.Counter(outcome["triggers"]) == {"Stairs to Infinity": 2}


def test_a_list_read_for_each_result(run: Any) -> None:
    outcome = run({"card": "Celebr-8000", "dice": [1, 5]})
    assert outcome["rolls"][0]["rows"] == [None, 3] and outcome["rolls"][0]["row"] is None


def test_stored_results_with_an_extra_die_store_only_the_counted(run: Any) -> None:
    outcome = run({"card": "Centaur of Attention", "battlefield": ["Pixie Guide"], "dice": [4, 1, 6, 2, 5, 3]})
    assert outcome["stored"] == {"Centaur of Attention": [4, 6, 2, 5, 3]}


def test_the_nth_die_this_turn_counts_counted_dice_only(run: Any) -> None:
    text = "Whenever you roll your third die each turn, draw a card."
    board = [{"text": text, "name": "Third"}, "Pixie Guide"]
    outcome = run({"card": "Neverwinter Hydra", "amounts": {"X": 3}, "battlefield": board, "dice": [1, 2, 3, 4]})
    # Four dice rolled, one ignored: the third counted die is the third die this turn.
    assert outcome["triggers"] == ["Third"]


def test_choose_one_result_answered(run: Any) -> None:
    outcome = run({"card": "Grave Endeavor", "dice": [3, 8], "choices": [1]})
    assert outcome["rolls"][0]["chosen"] == 1 and outcome["rolls"][0]["results"] == [3, 8]


def test_repeat_with_advantage_rolls_two_dice_each_time(run: Any) -> None:
    outcome = run({"card": "Sword of Dungeons & Dragons", "battlefield": ["Pixie Guide"], "dice": [20, 4, 7, 11]})
    assert [len(r["dice"]) for r in outcome["rolls"]] == [2, 2]
    assert [r["results"] for r in outcome["rolls"]] == [[20], [11]]


def test_a_reroll_once_permission_does_not_apply_to_its_own_reroll() -> None:
    from mtgdice.rules import Board, InRange, Permanent, PolicyChooser, RerollPermission, ScriptedSource, resolve
    from mtgdice.text import compile_text

    roll = compile_text("Roll a six-sided die.").rolls[0]
    once = Board.from_zones(battlefield=(Permanent("Once", (RerollPermission(condition=InRange(1, 1), again=False),)),))
    again = Board.from_zones(battlefield=(Permanent("Again", (RerollPermission(condition=InRange(1, 1)),)),))
    accept = PolicyChooser("accept")
    assert resolve(roll, source="S", dice=ScriptedSource([1, 1]), board=once, chooser=accept).executions[0].results == (
        1,
    )
    outcome = resolve(roll, source="S", dice=ScriptedSource([1, 1, 4]), board=again, chooser=accept)
    assert outcome.executions[0].results == (4,)


def test_policies_see_both_directions_of_an_optional_modifier() -> None:
    from mtgdice.rules import Board, Permanent, PolicyChooser, ScriptedSource, resolve
    from mtgdice.text import compile_text

    night = compile_text(
        "After you roll a die, you may pay 1 life. If you do, increase or decrease the result by 1."
    ).effects
    roll = compile_text("Roll a d20.").rolls[0]
    board = Board.from_zones(battlefield=(Permanent("Night", night),))
    results = {
        policy: resolve(roll, source="S", dice=ScriptedSource([10]), board=board, chooser=PolicyChooser(policy))
        .executions[0]
        .results
        for policy in ("decline", "accept", "maximize", "minimize")
    }
    assert results == {"decline": (10,), "accept": (11,), "maximize": (11,), "minimize": (9,)}


def test_doubles_and_intervening_if_triggers() -> None:
    from mtgdice.rules import Board, Permanent, ScriptedSource, resolve
    from mtgdice.text import compile_text

    doubles = Permanent("D", compile_text("Whenever you roll doubles, draw a card.").effects)
    natural = Permanent(
        "N", compile_text("Whenever you roll one or more dice, if you rolled a natural 20, draw a card.").effects
    )
    board = Board.from_zones(battlefield=(doubles, natural))
    two = compile_text("Roll two d20.").rolls[0]

    def fired(faces: list[int]) -> list[str]:
        return [hit.card for hit in resolve(two, source="S", dice=ScriptedSource(faces), board=board).triggers]

    # A batch trigger fires once however many dice meet its condition.
    assert fired([20, 20]) == ["D", "N"] and fired([3, 20]) == ["N"] and fired([3, 4]) == []


def test_exactly_n_times_counts_the_dice(run: Any) -> None:
    two = run({"card": "Luck Bobblehead", "amounts": {"X": 2}, "dice": [6, 6]})
    seven = run({"card": "Luck Bobblehead", "amounts": {"X": 7}, "dice": [6] * 7})
    # Outcome 0 is "a Treasure for each even result" (6 is even: it holds for both); outcome 1, "if you
    # rolled 6 exactly seven times", holds only for seven 6s.
    assert two["rolls"][0]["outcomes"] == [0] and seven["rolls"][0]["outcomes"] == [0, 1]
