"""Small values of ``rules/``: seats and who decides, amounts, the planar special action, the direct
record constructor and the stated policies, each against what docs/design.md §15, the JSON interface
("Amounts") and CR 901.9 say. Written to kill the mutants of these helpers that no test reached in
the mutation run (bench/results/mutation-2026-12-02-*.md).
"""

from __future__ import annotations

import dataclasses

import pytest

from mtgdice.rules.amounts import Amount
from mtgdice.rules.choices import Ask, Decision, Policy, PolicyChooser, RollerBest, Topic, default_answer
from mtgdice.rules.errors import InputError, MissingAmountError
from mtgdice.rules.planar import check_planar_action, planar_action_cost
from mtgdice.rules.players import OPPONENT, YOU, Decider, Scope, Seat, seat_from_name, seat_name
from mtgdice.rules.records import direct_init
from mtgdice.rules.resolution import TurnState


@pytest.mark.parametrize(("seat", "name"), [(0, "you"), (1, "opponent"), (2, "opponent 2"), (7, "opponent 7")])
def test_seats_are_named_and_read_back(seat: int, name: str) -> None:
    assert seat_name(Seat(seat)) == name
    assert seat_from_name(name) == seat


@pytest.mark.parametrize("name", ["opponent 0", "opponent -1", "opponent x", "opponents 2", "me", "opponent2", ""])
def test_a_name_that_is_no_seat_is_refused(name: str) -> None:
    with pytest.raises(ValueError) as caught:
        seat_from_name(name)
    assert str(caught.value) == f"{name!r} is not a seat; use 'you', 'opponent' or 'opponent N'"


def test_whose_rolls_each_scope_sees() -> None:
    seen = {scope: (scope.sees(YOU, YOU), scope.sees(YOU, OPPONENT), scope.sees(OPPONENT, YOU)) for scope in Scope}
    assert seen == {
        Scope.YOU: (True, False, False),
        Scope.OPPONENT: (False, True, True),
        Scope.ANY: (True, True, True),
        Scope.TARGET: (False, False, False),  # known only once activated (pending)
    }


def test_who_decides() -> None:
    assert Decider.ROLLER.seat(Seat(2), Seat(1)) == 2
    assert Decider.CONTROLLER.seat(Seat(2), Seat(1)) == 1
    assert Decider.OPPONENT.seat(Seat(2), Seat(1)) == 1  # the controller, another player
    assert Decider.OPPONENT.seat(YOU, YOU) == 1  # the next seat
    assert Decider.OPPONENT.seat(Seat(3), Seat(3)) == 0  # an opponent's own effect: seat 0 opposes


def test_amounts_read_by_name_alias_and_loosely() -> None:
    assert Amount(3).value({}) == 3 and Amount(3).fixed and not Amount.named("X").fixed
    spent = Amount.named("mana spent", constant=1)
    assert spent.value({"mana spent": 4}) == 5
    assert Amount.named("cards in hand", sign=-1, constant=2).value({"cards in hand": 5}) == -3
    assert Amount.named("bobbleheads you control", aliases=("X",)).value({"X": 6}) == 6
    loose = Amount.named("the number of cards in your hand")
    assert loose.value({"Cards in hand": 2}) == 2
    assert Amount.named("Power of Creature", aliases=("Y",)).value({"the y": 9}) == 9
    with pytest.raises(MissingAmountError) as caught:
        Amount.named("toughness").value({"power": 1})
    assert str(caught.value) == "amount 'toughness': this roll needs its value"


@pytest.mark.parametrize(
    ("amount", "described", "signed"),
    [
        (Amount(2), 2, 2),
        (Amount(-1), -1, -1),
        (Amount.named("X"), "X", "+X"),
        (Amount.named("X", sign=-1), "-X", "-X"),
        (Amount.named("X", constant=1), "1 + X", "1 + X"),
        (Amount.named("X", sign=-1, constant=3), "3 - X", "3 - X"),
    ],
    ids=["number", "negative", "name", "minus name", "plus constant", "constant minus"],
)
def test_amounts_as_the_json_interface_writes_them(amount: Amount, described: object, signed: object) -> None:
    assert amount.describe() == described
    assert amount.describe_signed() == signed


def test_the_planar_special_action() -> None:
    # CR 901.9b: the first special action in a turn costs 0, each further one 1 more.
    assert [planar_action_cost(TurnState(planar_actions=n)) for n in range(3)] == [0, 1, 2]
    check_planar_action(True)
    with pytest.raises(InputError) as caught:
        check_planar_action(False, "opponent 2")
    assert str(caught.value) == (
        "player: only the active player (opponent 2) may roll the planar die as a special action; "
        "a roll an effect causes is not a special action"
    )
    with pytest.raises(InputError, match=r"\(the active player\)"):
        check_planar_action(False)


def test_the_direct_constructor_keeps_the_dataclass() -> None:
    @direct_init
    @dataclasses.dataclass(frozen=True, slots=True)
    class Roll:
        natural: int
        bonus: int = 2
        label: str = "d6"

    assert Roll(3) == Roll(natural=3, bonus=2, label="d6")
    assert (Roll(3, 4).bonus, Roll(3, label="d8").label, Roll(1, 0, "x")) == (4, "d8", Roll(1, 0, "x"))
    assert repr(Roll(5)).endswith("Roll(natural=5, bonus=2, label='d6')")
    assert Roll.__init__.__qualname__.endswith("Roll.__init__")
    with pytest.raises(dataclasses.FrozenInstanceError):
        Roll(1).natural = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        Roll()  # type: ignore[call-arg]

    @direct_init
    @dataclasses.dataclass(frozen=True, slots=True)
    class Empty:
        pass

    assert Empty() == Empty()


def test_the_direct_constructor_refuses_default_factories() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Listing:
        items: tuple[int, ...] = dataclasses.field(default_factory=tuple)

    with pytest.raises(TypeError) as caught:
        direct_init(Listing)
    assert str(caught.value) == "Listing.items: direct_init takes no default factories"


def _pick(player: int, values: tuple[float | None, ...]) -> Decision:
    return Decision(Ask.PICK_ONE, Topic.IGNORE, Seat(player), "Ignore which?", ("a", "b", "c")[: len(values)], values)


def test_the_rollers_best_for_their_own_picks_and_defaults_for_the_rest() -> None:
    best = RollerBest((YOU,))
    assert best.decide(_pick(0, (3, 9, 5))) == 1
    assert best.decide(_pick(1, (3, 9, 5))) == 0  # another player's pick: the first option
    assert best.decide(Decision(Ask.YES_NO, Topic.REROLL, YOU, "Reroll?", (), (2, 6))) is False
    assert best.decide(Decision(Ask.PICK_ANY, Topic.STORED, YOU, "Which?", ("a", "b"))) == ()
    assert best.name == "best"


def test_the_named_policies() -> None:
    yes_no = Decision(Ask.YES_NO, Topic.MODIFY, YOU, "Use it?", (), (4, 5))
    worse = Decision(Ask.YES_NO, Topic.MODIFY, YOU, "Use it?", (), (4, 3))
    unknown = Decision(Ask.YES_NO, Topic.REROLL, YOU, "Reroll?")
    some = Decision(Ask.PICK_ANY, Topic.REROLL_WHICH, YOU, "Which?", ("a", "b", "c"))
    answers = {
        policy: (
            PolicyChooser(policy).decide(yes_no),
            PolicyChooser(policy).decide(worse),
            PolicyChooser(policy).decide(unknown),
            PolicyChooser(policy).decide(_pick(0, (3, 9, 1))),
            PolicyChooser(policy).decide(some),
        )
        for policy in Policy
    }
    assert answers == {
        Policy.DECLINE: (False, False, False, 0, ()),
        Policy.ACCEPT: (True, True, True, 0, (0, 1, 2)),
        Policy.MAXIMIZE: (True, False, False, 1, ()),
        Policy.MINIMIZE: (False, True, False, 2, ()),
    }


def test_ties_and_missing_values_in_a_pick() -> None:
    assert PolicyChooser("maximize").decide(_pick(0, (5, None, 5))) == 0  # a tie: the first of them
    assert PolicyChooser("minimize").decide(_pick(0, (None, 7, 2))) == 2
    assert PolicyChooser("maximize").decide(_pick(0, (None, None))) == 0  # no values: the first option
    both = Decision(Ask.YES_NO, Topic.MODIFY, YOU, "Use it?", (), (4, 6, 2))  # either direction
    assert PolicyChooser("maximize").decide(both) is True and PolicyChooser("minimize").decide(both) is True
    blind = Decision(Ask.YES_NO, Topic.MODIFY, YOU, "Use it?", (), (4, None))
    assert PolicyChooser("maximize").decide(blind) is False
    assert default_answer(_pick(0, (1, 2))) == 0
