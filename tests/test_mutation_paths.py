"""Replacement plans that carry what an earlier replacement did, and the odds engine's choice of path.

Plans (CR 616.1, 706.6): a replacement applied after another keeps the dice the first one marked to
be ignored, and the dice it adds are rolled by the player who rolls the others. Paths (docs/odds.md,
"How the odds are composed"): a board of effects that declare a transform and touch no position,
limit or other player is composed; a board with a limited, positional, costed-with-state or
chosen-by-another-player effect is enumerated ("brute force"), and either way the answer equals the
naive reference (tests/reference/, written from CR 706 alone) or a hand count. A footprint that
forgets a flag sends such a board down a shortcut (the method changes); one that adds a flag sends a
composable board to the enumeration (the method changes too). Written to kill the plan and
footprint mutants of the mutation run (bench/results/mutation-2026-12-02-*.md).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from mtgdice.odds import odds
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
from mtgdice.rules.choices import Topic
from mtgdice.rules.effects.base import Cost
from mtgdice.rules.effects.replacement import IgnoreMode, PairEachDie
from mtgdice.rules.errors import RollLimitError
from mtgdice.rules.players import OPPONENT, YOU, Decider, Scope
from reference.naive import NotCovered
from reference_check import compare

D6 = RollInstruction(Amount(1), Die(6))


def _execution(board: Board, faces: list[int], chooser: Any = None, count: int = 1) -> Any:
    resolution = resolve(
        RollInstruction(Amount(count), Die(6)),
        source="Test",
        dice=ScriptedSource(faces),
        board=board,
        chooser=chooser or ScriptedChooser([]),
    )
    return resolution.executions[0]


def _board(*permanents: tuple[str, Any]) -> Board:
    return Board.from_zones(battlefield=tuple(Permanent(name, (effect,)) for name, effect in permanents))


# Plans -------------------------------------------------------------------------------------------


def test_ignore_the_lowest_after_an_opponents_pick_keeps_both_ignores() -> None:
    # Chosen first (the order question's first option), then the lowest: three dice, the lowest (2)
    # goes, and the opponent's pick (their first option, the 5) goes too: one die counts.
    board = _board(
        ("Chosen", ExtraDice(ignore=IgnoreMode.CHOSEN, chosen_by=Decider.OPPONENT)),
        ("Low", ExtraDice()),
    )
    chooser = ScriptedChooser([])
    execution = _execution(board, [5, 2, 4], chooser)
    assert execution.results == (4,)
    order, pick = chooser.asked
    assert order.topic is Topic.ORDER and order.options == ("Chosen (extra dice)", "Low (extra dice)")
    assert (pick.topic, pick.player, pick.options) == (Topic.IGNORE, OPPONENT, ("5 (d6)", "4 (d6)"))


def test_a_pair_for_each_die_after_a_chosen_ignore_keeps_the_chosen_ignore() -> None:
    # Chosen first: two dice; then each becomes a pair. Each pair keeps one die (first option
    # ignored), then the chooser ignores one of the two kept dice: one die counts.
    board = _board(("Chosen", ExtraDice(ignore=IgnoreMode.CHOSEN)), ("Pair", PairEachDie()))
    execution = _execution(board, [5, 2, 4, 1])
    assert len(execution.counted) == 1
    assert len(execution.dice) == 4


def test_an_extra_die_picked_to_ignore_is_rolled_by_the_roller() -> None:
    # The added die is the roller's like the others: "whenever you roll" modifiers see it.
    board = _board(("Chosen", ExtraDice(ignore=IgnoreMode.CHOSEN)), ("Plus", ResultModifier(delta=1)))
    execution = _execution(board, [5, 2], ScriptedChooser([1]))
    assert all(die.roller == YOU for die in execution.dice)
    assert execution.results == (6,)


def test_a_reroll_of_several_dice_by_its_controller_is_rolled_by_that_player() -> None:
    # Pippa ruling: the player who rerolls a die rolls the new die.
    theirs = RerollPermission(many=True, scope=Scope.ANY, rerolled_by=Decider.CONTROLLER)
    board = Board.from_zones(opponents=(Permanent("Spite", (theirs,)),))
    execution = _execution(board, [6, 6, 1], ScriptedChooser([[1]]), count=2)
    kept = execution.counted
    assert [die.natural for die in kept] == [6, 1]
    assert [die.roller for die in kept] == [YOU, OPPONENT]


def test_my_own_reroll_of_several_dice_is_rolled_by_me() -> None:
    mine = RerollPermission(many=True, rerolled_by=Decider.CONTROLLER)
    execution = _execution(_board(("Mine", mine)), [6, 2, 3], ScriptedChooser([[1]]), count=2)
    assert [die.roller for die in execution.counted] == [YOU, YOU]
    assert execution.results == (6, 3)


def test_a_declined_reroll_once_leaves_the_die_and_the_next_permission_still_asks() -> None:
    once = RerollPermission(condition=InRange(1, 1), again=False)
    board = _board(("Once", once), ("Again", RerollPermission(condition=InRange(1, 1))))
    chooser = ScriptedChooser([False, True])
    execution = _execution(board, [1, 5], chooser)
    assert execution.results == (5,)
    assert [asked.source for asked in chooser.asked] == ["Once", "Again"]


# Paths -------------------------------------------------------------------------------------------


def _d6_counts(board: Board, policy: str = "decline") -> tuple[str, dict[Any, Fraction]]:
    found = odds(D6, board=board, policy=policy)
    return found.method, dict(found.results)


def test_a_once_each_turn_modifier_is_enumerated_and_used_on_the_one_die() -> None:
    once = ResultModifier(delta=1, once_each_turn=True)
    method, results = _d6_counts(_board(("Once", once)))
    assert method == "brute force"
    assert results == {value: Fraction(1, 6) for value in range(2, 8)}


def test_a_static_modifier_is_composed() -> None:
    method, results = _d6_counts(_board(("Plus", ResultModifier(delta=2))))
    assert method == "composed"
    assert results == {value: Fraction(1, 6) for value in range(3, 9)}


def test_an_opponents_pick_is_enumerated() -> None:
    # Two d6, the opponent ignores the first offered (decline: first option): the second die counts.
    chosen = ExtraDice(ignore=IgnoreMode.CHOSEN, chosen_by=Decider.OPPONENT)
    method, results = _d6_counts(_board(("Chosen", chosen)))
    assert method == "brute force"
    assert results == {value: Fraction(1, 6) for value in range(1, 7)}


def test_ignoring_the_lowest_is_composed() -> None:
    # Highest of 2d6: P(v) = (2v - 1) / 36.
    method, results = _d6_counts(_board(("Low", ExtraDice())))
    assert method == "composed"
    assert results == {value: Fraction(2 * value - 1, 36) for value in range(1, 7)}


def test_an_optional_extra_die_is_taken_under_accept_and_composed() -> None:
    method, results = _d6_counts(_board(("Maybe", ExtraDice(optional=True))), policy="accept")
    assert method == "composed"
    assert results == {value: Fraction(2 * value - 1, 36) for value in range(1, 7)}


def test_a_reroll_with_a_tap_cost_is_enumerated() -> None:
    # Reroll a 1 or 2 by tapping (once): P(1) = P(2) = 1/3 * 1/6, P(3..6) = 1/6 + 1/3 * 1/6 = 2/9.
    tapped = RerollPermission(condition=InRange(1, 2), cost=Cost("tap", tap=True))
    method, results = _d6_counts(_board(("Tap", tapped)), policy="accept")
    assert method == "brute force"
    assert results == {1: Fraction(1, 18), 2: Fraction(1, 18), **{v: Fraction(2, 9) for v in range(3, 7)}}


def test_a_reroll_with_a_life_cost_is_composed() -> None:
    # Paying life changes nothing the roll reads: rerolling 1s until they are not, 1/5 each of 2..6.
    life = RerollPermission(condition=InRange(1, 1), cost=Cost("pay 1 life"))
    method, results = _d6_counts(_board(("Life", life)), policy="accept")
    assert method == "composed"
    assert results == {value: Fraction(1, 5) for value in range(2, 7)}


def test_a_reroll_by_another_player_is_enumerated() -> None:
    theirs = RerollPermission(condition=InRange(1, 1), scope=Scope.ANY, rerolled_by=Decider.CONTROLLER)
    board = Board.from_zones(opponents=(Permanent("Spite", (theirs,)),))
    method, results = _d6_counts(board, policy="accept")
    assert method == "brute force"
    assert results == {value: Fraction(1, 5) for value in range(2, 7)}


def test_a_reroll_of_several_dice_is_enumerated() -> None:
    many = RerollPermission(many=True)
    method, results = _d6_counts(_board(("Many", many)), policy="decline")
    assert method == "brute force"
    assert results == {value: Fraction(1, 6) for value in range(1, 7)}


def test_a_chosen_pair_is_composed_under_maximize() -> None:
    # Keep the higher of two d6: (2v - 1) / 36.
    method, results = _d6_counts(_board(("Pair", PairEachDie())), policy="maximize")
    assert method == "composed"
    assert results == {value: Fraction(2 * value - 1, 36) for value in range(1, 7)}


PLUS_ONE = {"text": "Increase the result of each die you roll by 1.", "name": "Plus"}
REROLL_ONES = {"text": "If you roll a 1, you may reroll that die.", "name": "Again"}


@pytest.mark.parametrize(
    ("card", "zones", "policy", "method"),
    [
        ("Hoarding Ogre", {"battlefield": ["Pixie Guide"]}, "decline", "composed"),
        ("Hoarding Ogre", {"battlefield": ["Krark's Other Thumb"]}, "maximize", "composed"),
        ("Six-Sided Die", {"battlefield": [REROLL_ONES]}, "accept", "composed"),
        ("Six-Sided Die", {"battlefield": [PLUS_ONE, "Pixie Guide"]}, "decline", "composed"),
        ("Hoarding Ogre", {"graveyard": ["Critical Hit"]}, "decline", "composed"),
    ],
    ids=["advantage", "pair", "reroll ones", "plus one and advantage", "natural 20 trigger"],
)
def test_composed_boards_do_not_fall_back_and_equal_the_reference(
    catalog: Any, card: str, zones: dict[str, Any], policy: str, method: str
) -> None:
    from reference_check import mtgdice_odds

    try:
        differences = compare(catalog, card, 0, zones, {}, policy)
    except NotCovered as reason:
        raise AssertionError(f"the reference must cover {card} on {zones}: {reason}") from None
    assert differences == []
    assert mtgdice_odds(catalog, {"card": card, **zones}, policy).method == method


SIXES = {"text": "If you roll a 6, you may reroll that die.", "name": "Sixes"}


@pytest.mark.parametrize(
    ("card", "zones"),
    [
        ("Hoarding Ogre", {"battlefield": [REROLL_ONES, SIXES]}),
        ("Hoarding Ogre", {"battlefield": [REROLL_ONES, SIXES], "graveyard": ["Critical Hit"]}),
        ("Six-Sided Die", {"battlefield": [REROLL_ONES, SIXES]}),
    ],
    ids=["two permissions", "two permissions and a trigger", "two permissions on a d6 card"],
)
def test_two_reroll_permissions_settle_each_die_and_equal_the_reference(
    catalog: Any, card: str, zones: dict[str, Any]
) -> None:
    # Two different permissions are not composed (docs/odds.md): each die is settled on its own by
    # a keyed search (odds/fast.py), not by brute force.
    from reference_check import mtgdice_odds

    assert compare(catalog, card, 0, zones, {}, "accept") == []
    assert mtgdice_odds(catalog, {"card": card, **zones}, "accept").method == "settled dice"


def test_two_reroll_permissions_on_a_d6_by_hand() -> None:
    # Rerolling 1s and 2s whenever they show: the die ends on 3..6, each 1/4.
    board = _board(
        ("Ones", RerollPermission(condition=InRange(1, 1))), ("Twos", RerollPermission(condition=InRange(2, 2)))
    )
    found = odds(D6, board=board, policy="accept")
    assert found.method == "settled dice"
    assert dict(found.results) == {value: Fraction(1, 4) for value in range(3, 7)}
    assert dict(odds(D6, board=board, policy="decline").results) == {v: Fraction(1, 6) for v in range(1, 7)}


def test_rerolls_of_a_die_kept_from_two_do_not_settle_by_enumeration() -> None:
    # The kept die of "roll two, ignore the lower" rerolled by two permissions: the search stops at
    # its depth and says so (docs/odds.md: not composed, and the enumeration cannot close the loop).
    from mtgdice.odds.enumerate import MAX_DEPTH

    board = _board(
        ("Low", ExtraDice()),
        ("Ones", RerollPermission(condition=InRange(1, 1))),
        ("Twos", RerollPermission(condition=InRange(2, 2))),
    )
    with pytest.raises(RollLimitError) as caught:
        odds(D6, board=board, policy="accept")
    assert str(caught.value) == (
        f"odds: more than {MAX_DEPTH} draws past the first roll in one execution; "
        "the rerolls do not settle, so the odds are not solved exactly; estimate it with 'mtgdice simulate'"
    )
