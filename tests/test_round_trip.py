"""Lossless round trip: a compiled card rendered in canonical English compiles back to the same
structure, for every real card we have and for structures hypothesis builds (the FEN round trip).

``canonical.structure`` is what must survive: everything but the card's own wording of its
abilities. The generated structures cover what the grammar can say: fixed, X and named counts,
dice of several kinds, ignore / keep / choose / modifiers / store, tables as charts and lists
with rows that roll again, repeats, outcomes of every kind, each player rolling, and the effects
(extra dice, pairs, rerolls, modifiers, triggers, planar faces, coins) with their scopes.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgdice.rules import (
    Amount,
    AnyOf,
    Comparison,
    Condition,
    Cost,
    Decider,
    DiceGroup,
    Die,
    Effect,
    Event,
    ExtraDice,
    Extreme,
    FaceCountsAs,
    FaceIs,
    IgnoreMode,
    InRange,
    NaturalMax,
    Outcome,
    PairEachCoin,
    PairEachDie,
    PlanarFace,
    Reads,
    ReflipPermission,
    RerollPermission,
    ResultModifier,
    ResultsTable,
    Roller,
    RollInstruction,
    Row,
    Scope,
    Trigger,
    Zone,
)
from mtgdice.text import compile_text
from mtgdice.text.canonical import render, structure
from mtgdice.text.compiler import CompiledCard
from shared_data import shared_path

UNSEEN = Path(__file__).parent / "fixtures" / "unseen_cards.json"


def _text(card: dict[str, Any]) -> str:
    return card.get("oracle_text") or "\n".join(face.get("oracle_text", "") for face in card.get("card_faces", []))


def _cards() -> list[dict[str, Any]]:
    dev = shared_path("cards", "dice-cards.json")
    cards = json.loads(dev.read_text(encoding="utf-8")) if dev.exists() else []
    return cards + json.loads(UNSEEN.read_text(encoding="utf-8"))


def assert_round_trip(card: CompiledCard, layout: str = "normal", type_line: str = "") -> None:
    text = render(card)
    again = compile_text(text, name=card.name, layout=layout, type_line=type_line)
    assert again.unsupported == (), text
    assert structure(again) == structure(card), text
    assert card.describe() == text


@pytest.mark.parametrize("card", _cards(), ids=lambda card: card["name"])
def test_every_known_card_round_trips(card: dict[str, Any]) -> None:
    kinds = {"layout": card.get("layout", "normal"), "type_line": card.get("type_line", "")}
    compiled = compile_text(_text(card), name=card["name"], **kinds)
    assert_round_trip(compiled, **kinds)


def test_the_round_trip_sees_a_lost_field() -> None:
    card = compile_text("Roll two d20 and ignore the lower roll.")
    lost = CompiledCard("", (RollInstruction(Amount(2), Die(20)),))
    assert structure(compile_text(render(lost))) != structure(card)


# -- generated structures ---------------------------------------------------------------------

SIDES = st.sampled_from([4, 6, 8, 10, 12, 20, 100])
NAMES = st.sampled_from(["", "Tester", "Ayla, Keeper of Dice", "Gearwright Owl"])
EFFECTS = st.sampled_from(
    ["draw a card", "you gain 2 life", "create a Treasure token", "it deals 1 damage to any target", "scry 1"]
)
ROW_TEXTS = st.sampled_from(
    [
        ("Draw a card.", False, False, 1),
        ("You gain 3 life.", False, False, 1),
        ("Create a Treasure token. Roll again.", True, False, 1),
        ("Scry 2. You may roll again.", True, True, 1),
        ("Draw a card, then repeat this process 2 more times.", True, False, 2),
    ]
)
NOUNS = st.sampled_from(["artifacts you control", "cards in hand", "opponents you have", "creatures you control"])


def _value_condition(natural: bool) -> st.SearchStrategy[Condition]:
    value = st.integers(1, 20)
    return st.one_of(
        value.map(lambda v: InRange(v, v, natural)),
        value.map(lambda v: InRange(v, None, natural)),
        value.map(lambda v: InRange(None, v, natural)),
        st.lists(value, min_size=2, max_size=3, unique=True).map(
            lambda vs: AnyOf(tuple(InRange(v, v, natural) for v in vs))
        ),
    )


conditions = st.one_of(_value_condition(False), _value_condition(True), st.just(NaturalMax()))
plain_conditions = _value_condition(False)


@st.composite
def tables(draw: st.DrawFn, sides: int) -> ResultsTable:
    cuts = sorted(draw(st.sets(st.integers(2, sides), max_size=min(4, sides - 1))))
    lows = [1, *cuts]
    rows = []
    for index, low in enumerate(lows):
        high: int | None = lows[index + 1] - 1 if index + 1 < len(lows) else sides
        if index + 1 == len(lows) and draw(st.booleans()):
            high = None
        text, again, optional, times = draw(ROW_TEXTS)
        rows.append(Row(low, high, text, again, optional, times))
    return ResultsTable(tuple(rows), listed=draw(st.booleans()))


@st.composite
def counts(draw: st.DrawFn) -> Amount:
    kind = draw(st.sampled_from(["fixed", "fixed", "x", "where", "equal", "plus"]))
    if kind == "fixed":
        return Amount(draw(st.integers(1, 12)))
    if kind == "x":
        return Amount.named("X")
    if kind == "where":
        return Amount.named(draw(NOUNS), aliases=("X",))
    if kind == "equal":
        return Amount.named(draw(NOUNS))
    return Amount.named(draw(NOUNS), constant=1)


@st.composite
def outcomes(draw: st.DrawFn, roll: RollInstruction) -> tuple[tuple[Outcome, ...], Comparison | None]:
    each_player = roll.roller in (Roller.EACH_PLAYER, Roller.EACH_OPPONENT)
    kinds = ["result", "condition", "total", "on total", "difference", "other", "doubles", "otherwise", "count", "each"]
    if roll.table is not None and roll.table.listed and roll.count != Amount(1):
        kinds.remove("each")  # "for each result of N" there reads the table for each result
    if each_player:
        kinds += ["standing", "who"]
    found: list[Outcome] = []
    compare: Comparison | None = None
    for kind in draw(st.lists(st.sampled_from(kinds), max_size=3)):
        if kind == "result":
            found.append(Outcome("", reads=Reads.RESULT))
        elif kind == "condition":
            found.append(Outcome("", draw(conditions), reads=Reads.RESULT))
        elif kind == "on total":  # "if the total is 7", "... 7 or more", "... 7 or 11"
            low, high = draw(st.integers(2, 12)), draw(st.integers(2, 12))
            condition = draw(
                st.sampled_from(
                    [InRange(low, low), InRange(low, None), AnyOf((InRange(low, low), InRange(high, high)))]
                )
            )
            found.append(Outcome("", condition, reads=Reads.TOTAL))
        elif kind in ("total", "difference", "other"):
            found.append(Outcome("", reads=Reads(kind)))
        elif kind == "doubles":
            found.append(Outcome("", doubles=True, reads=Reads.DOUBLES))
        elif kind == "otherwise":
            found.append(Outcome("", reads=Reads.OTHERWISE))
        elif kind == "count":
            value = draw(st.integers(1, 6))
            found.append(Outcome("", InRange(value, value), reads=Reads.COUNT, times=draw(st.integers(1, 8))))
        elif kind == "each":
            value = draw(st.integers(1, 6))
            found.append(Outcome("", draw(st.sampled_from([None, InRange(value, value)])), reads=Reads.EACH))
        else:
            extreme = draw(st.sampled_from(list(Extreme)))
            compare = compare or Comparison(extreme)
            who = draw(st.sampled_from([Scope.YOU, Scope.OPPONENT])) if kind == "who" else None
            found.append(Outcome("", reads=Reads.STANDING, who=who, extreme=extreme))
    if compare is not None and draw(st.booleans()):
        compare = Comparison(compare.extreme, break_ties=True)
        found.append(Outcome("", reads=Reads.TIES))
    return tuple(found), compare


@st.composite
def rolls(draw: st.DrawFn) -> RollInstruction:
    sides = draw(SIDES)
    roller = draw(st.sampled_from(list(Roller)))
    count = draw(counts())
    if roller is not Roller.YOU:
        count = Amount(draw(st.integers(1, 3)))
    roll = RollInstruction(count, Die(sides), roller=roller)
    changes: dict[str, Any] = {}
    if count.fixed and draw(st.booleans()):
        changes["also"] = tuple(
            DiceGroup(Amount(draw(st.integers(1, 3))), Die(draw(SIDES))) for _ in range(draw(st.integers(1, 2)))
        )
    if count.fixed and count.constant >= 2 and not changes.get("also"):
        tail = draw(st.sampled_from(["none", "ignore", "keep", "choose"]))
        if tail == "ignore":
            changes["ignore_lowest"] = draw(st.integers(1, count.constant - 1))
        elif tail == "keep":
            changes["keep_highest"] = draw(st.integers(1, count.constant - 1))
        elif tail == "choose":
            changes["choose"] = True
    if draw(st.booleans()):
        modifier = draw(st.one_of(st.integers(-5, 5).filter(bool).map(Amount), NOUNS.map(Amount.named)))
        changes["modifier"] = modifier
    changes["store"] = roller is Roller.YOU and draw(st.booleans())
    if draw(st.booleans()):
        changes["table"] = draw(tables(sides))
    elif draw(st.booleans()):
        changes["repeat_when"] = draw(plain_conditions)
        changes["repeat_optional"] = draw(st.booleans())
    roll = RollInstruction(**{**_fields(roll), **changes})
    found, compare = draw(outcomes(roll))
    return RollInstruction(**{**_fields(roll), "outcomes": found, "compare": compare})


def _fields(roll: RollInstruction) -> dict[str, Any]:
    return {name: getattr(roll, name) for name in RollInstruction.__dataclass_fields__}


scopes = st.sampled_from([Scope.YOU, Scope.OPPONENT, Scope.ANY])
# "Target player" is a scope of replacements only (one that waits for its activation, ``pending``).
replacement_scopes = st.sampled_from(list(Scope))
die_filter = st.one_of(st.none(), SIDES)
costs = st.sampled_from(
    ["pay {1}", "pay 2 life", "remove a +1/+1 counter from it", "tap an untapped creature you control"]
)


def _cost(words: str) -> Cost:
    """The cost as the rules see it, written here for the costs sampled: a counter removed, a tap."""
    counter = "+1/+1" if "counter" in words else None
    return Cost(words, counter, "tap" in words or "{T}" in words)


@st.composite
def effects(draw: st.DrawFn) -> Effect:
    kind = draw(st.sampled_from(["extra", "chosen", "pair", "static", "optional", "reroll", "trigger", "face", "coin"]))
    scope = draw(replacement_scopes if kind in ("extra", "chosen", "pair") else scopes)
    if kind == "extra":
        return ExtraDice(
            extra=draw(st.integers(1, 3)), sides=draw(die_filter), optional=draw(st.booleans()), scope=scope
        )
    if kind == "chosen":
        chooser = draw(st.sampled_from([Decider.ROLLER, Decider.OPPONENT, Decider.CONTROLLER]))
        return ExtraDice(
            extra=draw(st.integers(1, 3)),
            ignore=IgnoreMode.CHOSEN,
            chosen_by=chooser,
            sides=draw(die_filter),
            scope=scope,
        )
    if kind == "pair":
        return PairEachDie(sides=draw(die_filter), scope=scope)
    if kind == "static":
        return ResultModifier(delta=draw(st.integers(-3, 3).filter(bool)), sides=draw(die_filter), scope=scope)
    if kind == "optional":
        either = draw(st.booleans())
        delta = draw(st.integers(1, 3)) * (1 if either else draw(st.sampled_from([1, -1])))
        return ResultModifier(
            delta=delta,
            optional=True,
            either_direction=either,
            cost=_cost(draw(costs)),
            sides=draw(die_filter),
            scope=scope,
            once_each_turn=draw(st.booleans()),
        )
    if kind == "reroll":
        if draw(st.booleans()):
            return RerollPermission(condition=draw(plain_conditions), sides=draw(die_filter))
        many = draw(st.booleans())
        return RerollPermission(
            cost=_cost(draw(costs)),
            many=many,
            scope=Scope.YOU if many else draw(st.sampled_from([Scope.YOU, Scope.ANY])),
            once_each_turn=draw(st.booleans()),
        )
    if kind == "face":
        faces = st.sampled_from(list(PlanarFace))
        return FaceCountsAs(face=draw(faces), counts_as=draw(faces), scope=Scope.ANY)
    if kind == "coin":
        return PairEachCoin(extra=draw(st.integers(1, 3)), scope=scope)
    return draw(triggers(scope))


@st.composite
def triggers(draw: st.DrawFn, scope: Scope) -> Trigger:
    effect = draw(EFFECTS)
    shape = draw(st.sampled_from(["batch", "die", "condition", "doubles", "planar", "face", "nth", "visit"]))
    fields: dict[str, Any] = {}
    if shape == "batch":
        fields = {"event": Event.DICE_ROLLED, "sides": draw(die_filter)}
    elif shape == "die":
        fields = {"sides": draw(die_filter)}
    elif shape == "condition":
        fields = {"condition": draw(conditions), "sides": draw(die_filter)}
    elif shape == "doubles":
        fields = {"event": Event.DICE_ROLLED, "doubles": True}
    elif shape == "planar":
        fields = {"planar": True}
    elif shape == "face":
        fields = {"planar": True, "condition": FaceIs(draw(st.sampled_from(list(PlanarFace))))}
    elif shape == "nth":
        nth = draw(st.integers(1, 12))
        scope = Scope.YOU
        value = draw(st.one_of(st.none(), st.integers(1, 6)))
        if value is not None:
            effect = f"if its result is {value}, {effect}"
        fields = {"nth_this_turn": nth, "condition": InRange(value, value) if value is not None else None}
    else:
        fields = {"purpose": "visit attractions", "condition": draw(st.one_of(st.none(), plain_conditions))}
    numeric = False
    return Trigger(effect=effect, numeric_effect=numeric, scope=scope, **fields)


ROUND_TRIP = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@ROUND_TRIP
@given(NAMES, st.lists(rolls(), max_size=3), st.lists(effects(), max_size=4), st.sampled_from(["normal", "planar"]))
def test_generated_structures_round_trip(
    name: str, roll_list: list[RollInstruction], effect_list: list[Effect], layout: str
) -> None:
    if layout == "planar":  # a plane's abilities function in the command zone (CR 901)
        effect_list = [replace(effect, zone=Zone.COMMAND) for effect in effect_list]
    assert_round_trip(CompiledCard(name, tuple(roll_list), tuple(effect_list)), layout=layout)


@ROUND_TRIP
@given(st.lists(st.tuples(effects(), st.integers(1, 4)), min_size=1, max_size=4))
def test_generated_class_levels_round_trip(leveled: list[tuple[Effect, int]]) -> None:
    """Effects of a Class card's levels (CR 716), in level order as a Class prints them."""
    effect_list = [replace(effect, level=level) for effect, level in sorted(leveled, key=lambda pair: pair[1])]
    assert_round_trip(CompiledCard("Tester", (), tuple(effect_list)))


@ROUND_TRIP
@given(st.sampled_from(["{T}", "{2}{R}, {T}", "{1}, Sacrifice a creature"]), st.booleans(), st.booleans())
def test_generated_activated_rerolls_round_trip(cost: str, many: bool, coin: bool) -> None:
    reroll = RerollPermission(
        cost=_cost(cost), activated=True, many=many, rerolled_by=Decider.CONTROLLER, scope=Scope.ANY
    )
    effect_list: list[Effect] = [reroll]
    if coin:
        effect_list.insert(0, ReflipPermission(cost=_cost(cost), activated=True, scope=Scope.ANY))
    assert_round_trip(CompiledCard("Tester", (), tuple(effect_list)))
