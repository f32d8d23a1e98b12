"""Triggered abilities at the rules level (CR 603, 706): a purpose the roll must have, the fields of a
"one or more dice" triggering, a die another player rerolled staying part of the roll (Pippa ruling),
and a triggering counted twice in one execution of a chain. Written for survivors of the mutation
run of 2026-12-02 (bench/results/mutation-2026-12-02-s2.md).
"""

from __future__ import annotations

from fractions import Fraction

from mtgdice.odds.chain import expectations
from mtgdice.odds.enumerate import Summary
from mtgdice.rules import (
    Amount,
    Board,
    Die,
    InRange,
    Permanent,
    RerollPermission,
    RollInstruction,
    ScriptedChooser,
    ScriptedSource,
    TurnState,
    resolve,
)
from mtgdice.rules.effects.base import Event
from mtgdice.rules.effects.trigger import Trigger
from mtgdice.rules.players import Decider, Scope
from mtgdice.rules.zones import Zone


def _hits(instruction: RollInstruction, faces: list[int], board: Board, answers: list[object] = ()) -> list[object]:  # type: ignore[assignment]
    resolution = resolve(
        instruction, source="Test", dice=ScriptedSource(faces), board=board, chooser=ScriptedChooser(list(answers))
    )
    return list(resolution.triggers)


def test_a_trigger_for_one_purpose_meets_only_rolls_of_that_purpose() -> None:
    board = Board.from_zones(battlefield=(Permanent("Initiative", (Trigger(purpose="initiative"),)),))
    assert _hits(RollInstruction(Amount(1), Die(20)), [7], board) == []
    (hit,) = _hits(RollInstruction(Amount(1), Die(20), purpose="initiative"), [7], board)
    assert hit.card == "Initiative"


def test_a_one_or_more_dice_triggering_names_its_zone_and_execution() -> None:
    from mtgdice.rules import ResultsTable, Row

    board = Board.from_zones(graveyard=(Permanent("Any", (Trigger(event=Event.DICE_ROLLED, zone=Zone.GRAVEYARD),)),))
    again = ResultsTable((Row(1, 3, roll_again=True), Row(4, 6)))
    hits = _hits(RollInstruction(Amount(2), Die(6), table=again), [1, 1, 5, 6], board)
    assert [(hit.card, hit.zone, hit.die, hit.execution) for hit in hits] == [  # type: ignore[attr-defined]
        ("Any", Zone.GRAVEYARD, None, 0),
        ("Any", Zone.GRAVEYARD, None, 1),
    ]


def test_a_die_another_player_rerolled_stays_part_of_my_roll() -> None:
    # The opponent rerolls my 1 and rolls the new die (Pippa ruling): it shows 5, and "whenever you
    # roll one or more dice, if one is a 5" sees it as part of my roll.
    theirs = RerollPermission(condition=InRange(1, 1), scope=Scope.ANY, rerolled_by=Decider.CONTROLLER)
    five = Trigger(event=Event.DICE_ROLLED, condition=InRange(5, 5))
    board = Board.from_zones(battlefield=(Permanent("Five", (five,)),), opponents=(Permanent("Spite", (theirs,)),))
    hits = _hits(RollInstruction(Amount(1), Die(6)), [1, 5], board, [True])
    assert [hit.card for hit in hits] == ["Five"]  # type: ignore[attr-defined]


def test_a_triggering_counted_twice_in_a_chain() -> None:
    # Half the executions roll again and trigger twice: x = 1 + x / 2 = 2 executions, 2 * (1/2 * 2) = 2.
    twice = Summary(None, None, None, False, True, frozenset(), (("Hit", 2),))
    stop = Summary(None, None, None, False, False)
    assert expectations(TurnState(), lambda state: {twice: Fraction(1, 2), stop: Fraction(1, 2)}) == (
        Fraction(2),
        {"Hit": Fraction(2)},
    )
