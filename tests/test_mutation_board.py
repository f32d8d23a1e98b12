"""The table as the rules see it (``rules/board.py``), the lazy names of ``mtgdice.rules``, plain-dice
comparisons and the results-table helpers, each against json-interface.md (seats, zones, ``turn``
names) and CR 706.3a. Written to kill the mutants of these that no test reached in the mutation run
(bench/results/mutation-2026-12-02-*.md).
"""

from __future__ import annotations

import pytest

import mtgdice.rules as rules
from mtgdice.rules.board import MAX_SEATS, Board, Permanent, PlayerZones, Waiting
from mtgdice.rules.effects.base import Cost
from mtgdice.rules.effects.modifier import ResultModifier
from mtgdice.rules.effects.replacement import ExtraDice
from mtgdice.rules.effects.trigger import Trigger
from mtgdice.rules.errors import InputError, NoSuchSeatError
from mtgdice.rules.footprint import Footprint
from mtgdice.rules.plain import Comparison, Condition
from mtgdice.rules.players import OPPONENT, YOU, Seat
from mtgdice.rules.tables import ResultsTable, Row
from mtgdice.rules.zones import Zone

GUIDE = Permanent("Guide", (ExtraDice(),))
HIT = Permanent("Hit", (Trigger(zone=Zone.GRAVEYARD),))
THEIRS = Permanent("Theirs", (ResultModifier(delta=1),))


def test_a_seat_past_the_table_is_empty_and_a_negative_one_is_refused() -> None:
    board = Board.from_zones(battlefield=(GUIDE,), opponents=(THEIRS,))
    assert board.seat(YOU).battlefield == (GUIDE,)
    assert board.seat(OPPONENT).battlefield == (THEIRS,)
    assert board.seat(Seat(5)) == PlayerZones()
    with pytest.raises(NoSuchSeatError) as caught:
        board.seat(Seat(-1))
    assert str(caught.value) == "seat: seat -1 does not exist; this table has 2 player(s), seats 0 to 1"


def test_too_many_seats_are_refused() -> None:
    Board((PlayerZones(),) * MAX_SEATS)
    with pytest.raises(InputError) as caught:
        Board((PlayerZones(),) * (MAX_SEATS + 1))
    assert str(caught.value) == f"seats: {MAX_SEATS + 1} players is more than the {MAX_SEATS} a table may have"


def test_cards_come_in_zone_order_then_seat_order() -> None:
    board = Board.from_zones(battlefield=(GUIDE,), opponents=(THEIRS,), graveyard=(HIT,))
    assert [(seat, zone, card.name) for seat, zone, card in board.cards()] == [
        (0, Zone.BATTLEFIELD, "Guide"),
        (1, Zone.BATTLEFIELD, "Theirs"),
        (0, Zone.GRAVEYARD, "Hit"),
    ]
    assert board.count() == 3


def test_turn_names_count_cards_of_one_name_across_seats() -> None:
    twin = Permanent("Guide")
    board = Board((PlayerZones((GUIDE, twin)), PlayerZones((Permanent("Guide"),), (HIT,))))
    assert board.ordinals() == {
        (0, Zone.BATTLEFIELD, 0): "Guide#0",
        (0, Zone.BATTLEFIELD, 1): "Guide#1",
        (1, Zone.BATTLEFIELD, 0): "Guide#2",
        (1, Zone.GRAVEYARD, 0): "Hit#0",
    }


def test_effects_function_in_their_zone_from_their_level() -> None:
    levelled = Permanent("Class", (ResultModifier(delta=1), ResultModifier(delta=2, level=2)), level=1)
    lost = Permanent("Lost", (Trigger(),))  # a battlefield ability of a card in the graveyard
    board = Board.from_zones(battlefield=(levelled,), graveyard=(HIT, lost), opponents=(THEIRS,))
    found = [(h.permanent.name, h.ability, h.controller, h.zone) for h in board.holders()]
    assert found == [
        ("Class", 0, YOU, Zone.BATTLEFIELD),
        ("Theirs", 0, OPPONENT, Zone.BATTLEFIELD),
        ("Hit", 0, YOU, Zone.GRAVEYARD),
    ]
    assert board.footprint() == Footprint.MODIFIES | Footprint.TRIGGERS


def test_waiting_replacements_are_met_last_and_left_once_used() -> None:
    first, second = Waiting(GUIDE, YOU, OPPONENT), Waiting(THEIRS, OPPONENT)
    board = Board(Board.from_zones().seats, (first, second))
    holders = list(board.holders())
    assert [(h.zone, h.position, h.controller, h.target) for h in holders] == [
        (Zone.PENDING, 0, YOU, OPPONENT),
        (Zone.PENDING, 1, OPPONENT, None),
    ]
    assert board.without_pending(frozenset({0})) == (second,)
    assert board.without_pending(frozenset()) == (first, second)


def test_the_source_joins_its_controllers_battlefield_once() -> None:
    board = Board.from_zones(battlefield=(GUIDE,))
    assert board.with_source(YOU, Permanent("guide")) is board  # already there (names fold case)
    joined = board.with_source(Seat(2), Permanent("Source"))
    assert joined.players == 3 and joined.seat(Seat(2)).battlefield == (Permanent("Source"),)


def test_keeping_leaves_blanks_so_abilities_keep_their_numbers() -> None:
    board = Board.from_zones(battlefield=(Permanent("Both", (ExtraDice(), ResultModifier(delta=1))),))
    kept = board.keeping(lambda effect: isinstance(effect, ResultModifier))
    (holder,) = [h for h in kept.holders() if isinstance(h.effect, ResultModifier)]
    assert holder.ability == 1
    assert kept.footprint() == Footprint.MODIFIES


def test_a_cost_limits_uses_only_when_it_has_state() -> None:
    assert Cost("pay 1 life").footprint() == Footprint.NONE
    assert Cost("tap", tap=True).footprint() == Footprint.LIMITED | Footprint.BOARD_STATE
    assert Cost("remove a counter", counter="charge").footprint() == Footprint.LIMITED | Footprint.BOARD_STATE


def test_the_lazy_names_of_the_rules_package() -> None:
    assert rules.MAX_EXECUTIONS == 1000
    assert "resolve" in dir(rules) and dir(rules) == sorted(dir(rules))
    with pytest.raises(AttributeError) as caught:
        rules.no_such_name  # noqa: B018
    assert str(caught.value) == "module 'mtgdice.rules' has no attribute 'no_such_name'"


@pytest.mark.parametrize(
    ("comparison", "met"),
    [
        (Comparison.EQUAL, (False, True, False)),
        (Comparison.BELOW, (True, False, False)),
        (Comparison.AT_MOST, (True, True, False)),
        (Comparison.ABOVE, (False, False, True)),
        (Comparison.AT_LEAST, (False, True, True)),
    ],
)
def test_plain_comparisons_at_and_around_the_number(comparison: Comparison, met: tuple[bool, ...]) -> None:
    condition = Condition(comparison, 3)
    assert tuple(condition.met(value) for value in (2, 3, 4)) == met


def test_rows_a_result_meets_and_the_results_no_row_meets() -> None:
    table = ResultsTable((Row(2, 3), Row(5, 5), Row(8, None)))
    assert [Row(2, 3).matches(v) for v in (None, 1, 2, 3, 4)] == [False, False, True, True, False]
    assert [Row(8, None).matches(v) for v in (7, 8, 80)] == [False, True, True]
    assert table.unreachable(range(1, 7)) == (2,)
    assert table.unreachable([2, 5, 9]) == ()
    assert table.uncovered(range(1, 10)) == (1, 4, 6, 7)
    assert table.row_for(None) is None
