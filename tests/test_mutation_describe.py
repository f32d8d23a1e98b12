"""What ``compile`` shows of each effect and condition: the whole description, field by field.

The golden fixtures (tests/test_golden.py) check the fields each card's text sets; here every effect
kind is built with each field away from its default, and its flat description is compared whole
(names, order and values), as docs/design.md and the JSON interface list them: ``kind``, ``step``,
``zone``, ``scope``, ``level`` (when not 1), ``once_each_turn`` (when true), the kind's details,
``text``. Conditions read as a player would say them ("natural 20", "5+", "2 or less", "1-2",
"1 or 2"). Written to kill the ``_details``/``describe`` mutants of the mutation run
(bench/results/mutation-2026-12-02-*.md).
"""

from __future__ import annotations

from typing import Any

import pytest

from mtgdice.rules.conditions import AnyOf, FaceIs, InRange, NaturalMax
from mtgdice.rules.dice import PlanarFace
from mtgdice.rules.effects.base import Cost, Event
from mtgdice.rules.effects.coin import CoinTrigger, PairEachCoin, ReflipPermission
from mtgdice.rules.effects.face import FaceCountsAs
from mtgdice.rules.effects.modifier import ResultModifier
from mtgdice.rules.effects.passive import Passive
from mtgdice.rules.effects.replacement import ExtraDice, IgnoreMode, PairEachDie
from mtgdice.rules.effects.reroll import RerollPermission
from mtgdice.rules.effects.trigger import Trigger
from mtgdice.rules.players import Decider, Scope
from mtgdice.rules.tables import Row
from mtgdice.rules.zones import Zone


@pytest.mark.parametrize(
    ("condition", "words"),
    [
        (InRange(20, 20, natural=True), "natural 20"),
        (InRange(5, None), "5+"),
        (InRange(None, 2), "2 or less"),
        (InRange(1, 2), "1-2"),
        (InRange(10, None, natural=True), "natural 10+"),
        (InRange(None, 3, natural=True), "natural 3 or less"),
        (NaturalMax(), "highest natural result"),
        (FaceIs(PlanarFace.CHAOS), "chaos"),
        (AnyOf((InRange(1, 1), InRange(6, None))), "1 or 6+"),
    ],
    ids=["natural single", "open above", "open below", "range", "natural open", "natural below", "max", "face", "any"],
)
def test_a_condition_reads_as_said(condition: Any, words: str) -> None:
    assert condition.describe() == words


@pytest.mark.parametrize(
    ("row", "label"),
    [(Row(20, 20), "20"), (Row(15, None), "15+"), (Row(1, 9), "1\u20149")],
    ids=["single", "open", "range"],
)
def test_a_row_is_labelled_as_printed(row: Row, label: str) -> None:
    assert row.label == label


def _common(kind: str, step: str, **more: Any) -> dict[str, Any]:
    return {"kind": kind, "step": step, **more}


def test_an_optional_modifier_in_either_direction_with_a_cost() -> None:
    effect = ResultModifier(
        delta=2,
        optional=True,
        either_direction=True,
        cost=Cost("pay 1 life"),
        sides=20,
        zone=Zone.GRAVEYARD,
        scope=Scope.ANY,
        level=3,
        once_each_turn=True,
        text="+2",
    )
    assert list(effect.describe().items()) == list(
        {
            **_common("modifier", "modify", zone="graveyard", scope="any", level=3, once_each_turn=True),
            "delta": 2,
            "optional": True,
            "either_direction": True,
            "cost": "pay 1 life",
            "sides": 20,
            "text": "+2",
        }.items()
    )


def test_a_static_modifier_leaves_level_and_once_out() -> None:
    assert ResultModifier(delta=-1).describe() == {
        "kind": "modifier",
        "step": "modify",
        "zone": "battlefield",
        "scope": "you",
        "delta": -1,
        "optional": False,
        "either_direction": False,
        "cost": None,
        "sides": None,
        "text": "",
    }


def test_a_reroll_permission_of_several_dice_rolled_by_its_controller() -> None:
    effect = RerollPermission(
        condition=InRange(None, 2),
        sides=6,
        cost=Cost("pay 2 life"),
        many=True,
        rerolled_by=Decider.CONTROLLER,
        activated=True,
        again=False,
        scope=Scope.OPPONENT,
    )
    assert list(effect.describe().items()) == [
        ("kind", "reroll"),
        ("step", "reroll"),
        ("zone", "battlefield"),
        ("scope", "opponent"),
        ("condition", "2 or less"),
        ("sides", 6),
        ("cost", "pay 2 life"),
        ("many", True),
        ("activated", True),
        ("rerolled_by", "controller"),
        ("again", False),
        ("text", ""),
    ]


def test_a_plain_reroll_permission() -> None:
    details = RerollPermission().describe()
    assert (details["condition"], details["cost"], details["many"], details["rerolled_by"], details["again"]) == (
        None,
        None,
        False,
        "roller",
        True,
    )


def test_extra_dice_chosen_by_an_opponent() -> None:
    effect = ExtraDice(extra=2, ignore=IgnoreMode.CHOSEN, chosen_by=Decider.OPPONENT, sides=20, optional=True)
    assert list(effect.describe().items())[4:] == [
        ("extra", 2),
        ("ignore", "chosen"),
        ("chosen_by", "opponent"),
        ("sides", 20),
        ("optional", True),
        ("text", ""),
    ]
    assert list(ExtraDice().describe().items())[:4] == [
        ("kind", "extra dice"),
        ("step", "count"),
        ("zone", "battlefield"),
        ("scope", "you"),
    ]


def test_a_pair_for_each_die_of_one_kind() -> None:
    assert PairEachDie(sides=6).describe() == {
        "kind": "pair each die",
        "step": "each die",
        "zone": "battlefield",
        "scope": "you",
        "sides": 6,
        "text": "",
    }


def test_a_trigger_with_every_detail() -> None:
    effect = Trigger(
        event=Event.DICE_ROLLED,
        condition=NaturalMax(),
        sides=20,
        planar=False,
        nth_this_turn=3,
        doubles=True,
        purpose="initiative",
        effect="draw a card",
        numeric_effect=True,
        zone=Zone.COMMAND,
    )
    assert list(effect.describe().items()) == [
        ("kind", "trigger"),
        ("step", "trigger"),
        ("zone", "command"),
        ("scope", "you"),
        ("event", "dice rolled"),
        ("nth_this_turn", 3),
        ("doubles", True),
        ("purpose", "initiative"),
        ("condition", "highest natural result"),
        ("sides", 20),
        ("planar", False),
        ("effect", "draw a card"),
        ("numeric_effect", True),
        ("text", ""),
    ]


def test_a_bare_trigger_has_no_purpose_and_no_condition() -> None:
    details = Trigger(planar=True).describe()
    assert (details["event"], details["purpose"], details["condition"], details["planar"]) == (
        "die rolled",
        None,
        None,
        True,
    )


def test_a_face_that_counts_as_another() -> None:
    effect = FaceCountsAs(face=PlanarFace.BLANK, counts_as=PlanarFace.PLANESWALK)
    assert list(effect.describe().items())[4:] == [("face", "blank"), ("counts_as", "planeswalk"), ("text", "")]
    assert effect.describe()["kind"] == "face counts as" and effect.describe()["step"] == "face"


def test_a_passive_ability_keeps_its_own_details_after_what_and_why() -> None:
    effect = Passive(what="rolled this turn", note="read by the game", details={"count": 2})
    assert list(effect.describe().items())[4:] == [
        ("what", "rolled this turn"),
        ("note", "read by the game"),
        ("count", 2),
        ("text", ""),
    ]
    assert effect.describe()["step"] == "none"


def test_the_coin_effects() -> None:
    assert list(PairEachCoin(extra=2).describe().items())[:2] == [("kind", "pair each coin"), ("step", "coin")]
    assert PairEachCoin(extra=2).describe()["extra"] == 2
    reflip = ReflipPermission(cost=Cost("pay 1 life"), activated=True).describe()
    assert (reflip["kind"], reflip["cost"], reflip["activated"]) == ("reflip", "pay 1 life", True)
    assert ReflipPermission().describe()["cost"] is None
    assert CoinTrigger(won=True, effect="draw").describe()["event"] == "won flip"
    assert CoinTrigger(won=False, batch=True).describe()["event"] == "lost flips"
    assert CoinTrigger(won=False, effect="mill").describe()["effect"] == "mill"
