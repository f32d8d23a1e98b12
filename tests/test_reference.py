"""The naive reference (tests/reference/) on its own numbers, and as a detector.

First the reference against odds worked out by hand from CR 706 (so it is not trusted blindly);
then, for each effect kind of ``mtgdice.rules.effects`` (and the table and conditions they read),
the kind is broken by monkeypatching its method and the comparison with mtgdice's public odds
must turn red on a roll that uses it — while it is green on the same rolls unpatched.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from reference.naive import Board, NotCovered, Refused, condition, read_roll, reference_odds
from reference_check import compare

F = Fraction
PLUS_ONE = {"text": "Increase the result of each die you roll by 1.", "name": "Plus"}
REROLL_ONES = {"text": "If you roll a 1, you may reroll that die.", "name": "Again"}


def _roll(count: int, sides: int | str, **fields: Any) -> Any:
    data: dict[str, Any] = {"count": count, "sides": sides, "ignore_lowest": 0, "modifier": None, "table": None}
    data.update(fields)
    return read_roll(data, {})


# -- the reference against hand-computed odds --------------------------------------------------------


def test_advantage_on_a_d20_table() -> None:
    # Two d20, the higher counts: P(max <= k) = (k/20)^2.
    spellbook = _roll(1, 20, table=[[1, 9], [10, 19], [20, 20]])
    answer = reference_odds(spellbook, Board(extra=1), "decline")
    assert answer.rows == (F(81, 400), F(361 - 81, 400), F(39, 400))


def test_repeat_on_a_twenty_chains_geometrically() -> None:
    # x = 1 + x/20 with one d20; 1 + x * 39/400 with advantage.
    sword = _roll(1, 20, roll_again=True, repeat_when="20")
    assert reference_odds(sword, Board(), "decline").expected_executions == F(20, 19)
    assert reference_odds(sword, Board(extra=1), "decline").expected_executions == F(400, 361)


def test_optional_roll_again_only_under_accept() -> None:
    delina = _roll(
        1,
        20,
        table=[[1, 14], [15, 20]],
        roll_again=True,
        rows=[
            {"roll_again": False, "optional": False, "times": 1},
            {"roll_again": True, "optional": True, "times": 1},
        ],
    )
    # With advantage, P(max >= 15) = 1 - (14/20)^2 = 51/100: x = 1/(1 - 51/100).
    assert reference_odds(delina, Board(extra=1), "accept").expected_executions == F(100, 49)
    assert reference_odds(delina, Board(extra=1), "decline").expected_executions == 1


def test_rerolling_ones_until_they_are_not() -> None:
    die = _roll(1, 6)
    board = Board(rerolls=((condition("1"), None),))
    answer = reference_odds(die, board, "accept")
    assert answer.results == {face: F(1, 5) for face in range(2, 7)}
    assert reference_odds(die, board, "decline").results == {face: F(1, 6) for face in range(1, 7)}


def test_a_reroll_that_can_never_be_kept_is_refused() -> None:
    with pytest.raises(Refused):
        reference_odds(_roll(1, 1), Board(rerolls=((None, None),)), "accept")


def test_a_table_read_for_each_result() -> None:
    # Two d6 read one by one: P(at least one 2) = 1 - (5/6)^2 = 11/36; expected count 2/6.
    celebr = _roll(2, 6, table=[[2, 2], [3, 3], [4, 4], [5, 5], [6, 6]], table_each_result=True)
    answer = reference_odds(celebr, Board(), "decline")
    assert answer.rows_any == (F(11, 36),) * 5
    assert answer.rows == (F(1, 3),) * 5
    assert answer.no_row == F(1, 3)
    assert answer.doubles == F(1, 6)


def test_pairs_under_maximize_and_minimize() -> None:
    die = _roll(1, 4)
    best = reference_odds(die, Board(pairs=1), "maximize").results
    worst = reference_odds(die, Board(pairs=1), "minimize").results
    assert best == {1: F(1, 16), 2: F(3, 16), 3: F(5, 16), 4: F(7, 16)}
    assert worst == {1: F(7, 16), 2: F(5, 16), 3: F(3, 16), 4: F(1, 16)}


def test_the_reference_says_what_it_leaves_out() -> None:
    with pytest.raises(NotCovered, match="stored"):
        _roll(1, 6, store=True)
    with pytest.raises(NotCovered, match="condition"):
        condition("an even number")


# -- breaking each effect kind turns the comparison red ---------------------------------------------

Case = tuple[str, dict[str, Any], str]


def mismatches(catalog: Any, cases: list[Case]) -> int:
    """How many of ``cases`` (card, board zones, policy) mtgdice and the reference disagree on
    (mtgdice failing where the reference answers counts as a disagreement)."""
    found = 0
    for card, zones, policy in cases:
        try:
            differences = compare(catalog, card, 0, zones, {"X": 2}, policy)
        except NotCovered as reason:
            raise AssertionError(f"{card} on {zones}: the reference must cover this case ({reason})") from None
        except Exception:
            differences = ["mtgdice failed"]
        found += bool(differences)
    return found


def _break_extra_dice() -> tuple[Any, str, Callable[..., Any]]:
    from mtgdice.rules.effects.replacement import ExtraDice, RollPlan

    def replace(self: Any, plan: Any, holder: Any, context: Any) -> Any:  # adds the die, ignores nothing
        return RollPlan(plan.die, plan.roller, plan.slots + (1,) * self.extra, plan.lowest, plan.chosen)

    return ExtraDice, "replace", replace


def _break_extra_dice_transform() -> tuple[Any, str, Callable[..., Any]]:
    from mtgdice.rules.effects.replacement import ExtraDice

    # No transform declared: the odds fall back to enumerating faces through the broken ``replace``.
    return ExtraDice, "transform", lambda self: None


def _break_pairs() -> tuple[Any, str, Callable[..., Any]]:
    from mtgdice.rules.effects.replacement import PairEachDie

    return PairEachDie, "replace", lambda self, plan, holder, context: plan


def _break_pairs_transform() -> tuple[Any, str, Callable[..., Any]]:
    from mtgdice.rules.effects.replacement import PairEachDie

    return PairEachDie, "kept", staticmethod(lambda law, size, keep: law)  # as if one die were rolled


def _break_modifier() -> tuple[Any, str, Callable[..., Any]]:
    from mtgdice.rules.dice import Modifier
    from mtgdice.rules.effects.modifier import ResultModifier

    original = ResultModifier.modify

    def modify(self: Any, die: Any, holder: Any, context: Any) -> Any:
        found = original(self, die, holder, context)
        return None if found is None else Modifier(found.delta + 1, found.source)

    return ResultModifier, "modify", modify


def _break_highest() -> tuple[Any, str, Callable[..., Any]]:
    from mtgdice.rules.conditions import NaturalMax

    return NaturalMax, "holds", lambda self, roll: roll.natural == 1  # the lowest face instead


def _break_reroll() -> tuple[Any, str, Callable[..., Any]]:
    from mtgdice.rules.effects.reroll import RerollPermission

    return RerollPermission, "consider", lambda self, die, holder, context: False


def _break_reroll_transform() -> tuple[Any, str, Callable[..., Any]]:
    from mtgdice.rules.effects.reroll import RerollPermission

    return RerollPermission, "settle", lambda self, law, new, die: law  # as if never rerolled


def _break_trigger() -> tuple[Any, str, Callable[..., Any]]:
    from mtgdice.rules.effects.trigger import Trigger

    original = Trigger.hits
    return Trigger, "hits", lambda self, events, holder: original(self, events, holder) * 2


def _break_trigger_sight() -> tuple[Any, str, Callable[..., Any]]:
    from mtgdice.rules.effects.trigger import Trigger

    return Trigger, "sees_die", lambda self, die: True  # every die meets every condition


def _break_table() -> tuple[Any, str, Callable[..., Any]]:
    from mtgdice.rules.tables import ResultsTable

    original = ResultsTable.row_for
    return ResultsTable, "row_for", lambda self, result: original(self, None if result is None else result + 1)


def _break_range() -> tuple[Any, str, Callable[..., Any]]:
    from mtgdice.rules.conditions import InRange

    original = InRange.holds
    return InRange, "holds", lambda self, roll: not original(self, roll)


SPELLBOOK: Case = ("Wizard's Spellbook", {}, "decline")
Break = Callable[[], tuple[Any, str, Callable[..., Any]]]
BREAKS: dict[str, tuple[Break | tuple[Break, ...], list[Case]]] = {
    "extra dice": (
        (_break_extra_dice, _break_extra_dice_transform),
        [("Hoarding Ogre", {"battlefield": ["Pixie Guide"]}, "decline"), SPELLBOOK],
    ),
    "pair each die": (
        (_break_pairs, _break_pairs_transform),
        [("Hoarding Ogre", {"battlefield": ["Krark's Other Thumb"]}, "maximize"), SPELLBOOK],
    ),
    "modifier": (_break_modifier, [("Six-Sided Die", {"battlefield": [PLUS_ONE]}, "decline"), SPELLBOOK]),
    "highest natural result": (
        _break_highest,
        [
            ("Six-Sided Die", {"battlefield": ["Pixie Guide", "Netherese Puzzle-Ward"]}, "decline")
        ],  # 1 and 6 alike on one die
    ),
    "pair each die (composed)": (
        _break_pairs_transform,
        [("Hoarding Ogre", {"battlefield": ["Krark's Other Thumb"]}, "maximize"), SPELLBOOK],
    ),
    "reroll": (
        (_break_reroll, _break_reroll_transform),
        [("Six-Sided Die", {"battlefield": [REROLL_ONES]}, "accept"), SPELLBOOK],
    ),
    "reroll (composed)": (_break_reroll_transform, [("Six-Sided Die", {"battlefield": [REROLL_ONES]}, "accept")]),
    "trigger count": (
        _break_trigger,
        [
            ("Hoarding Ogre", {"graveyard": ["Critical Hit"]}, "decline"),
            ("Neverwinter Hydra", {"battlefield": [{"card": "Barbarian Class", "level": 2}]}, "decline"),
        ],
    ),
    "trigger condition": (_break_trigger_sight, [("Hoarding Ogre", {"graveyard": ["Critical Hit"]}, "decline")]),
    "results table": (_break_table, [SPELLBOOK, ("Six-Sided Die", {}, "decline")]),
    "result condition": (
        _break_range,
        [("Sword of Dungeons & Dragons", {}, "decline"), ("Six-Sided Die", {"battlefield": [REROLL_ONES]}, "accept")],
    ),
}


@pytest.mark.parametrize("kind", list(BREAKS))
def test_breaking_an_effect_kind_turns_the_comparison_red(
    kind: str, catalog: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    makers, cases = BREAKS[kind]
    assert mismatches(catalog, cases) == 0, "the reference and mtgdice disagree before anything is broken"
    broken_names = []
    for make in makers if isinstance(makers, tuple) else (makers,):
        owner, name, broken = make()
        monkeypatch.setattr(owner, name, broken)
        broken_names.append(f"{owner.__name__}.{name}")
    from mtgdice.rules import resolution

    # The rules keep each board's effects and the plans no decision shaped (a cache by board): start
    # afresh, so that the broken method is met again.
    monkeypatch.setattr(resolution, "_EFFECTS", {})
    assert mismatches(catalog, cases) > 0, f"breaking {' and '.join(broken_names)} left every comparison green"


def test_two_copies_of_a_once_each_turn_modifier_are_each_used_once(catalog: Any) -> None:
    from reference_check import mtgdice_odds

    night = "Night Shift of the Living Dead"
    exact = mtgdice_odds(catalog, {"card": "Six-Sided Die", "battlefield": [night, night]}, "accept")
    # Each copy may add 1 once each turn (its own ability): a 1 becomes a 3 under "accept".
    assert dict(exact.results) == {face + 2: Fraction(1, 6) for face in range(1, 7)}
