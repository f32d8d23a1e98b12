"""A stand-in for the held-out set: real coin and dice cards outside the shared card files, and
Oracle-style texts of the same wording families written here.

``fixtures/unseen_real_cards.json`` holds real cards (name and Oracle text from each card's
``Oracle:`` line in Card-Forge/forge, path and commit beside it) that are in neither
``../shared/cards/coin-cards.json`` nor ``dice-cards.json``. Each card's expected structure was
read off its rules text by hand (CR 705, 706): the flips (count, call, until, times, who flips,
what each outcome reads), the rolls, the kinds of effects, and the sentences the compiler must
list as unsupported because the engine does not model them (each with its reason).

:data:`VARIANTS` are texts of the same families in other words (who flips or rolls, how many,
the order of clauses), so that what passes is the family and not one card's sentence.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mtgdice.io.compiled import card_json
from mtgdice.text import compile_text
from shared_data import shared_path

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "unseen_real_cards.json").read_text(encoding="utf-8"))
CARDS: list[dict[str, Any]] = FIXTURE["cards"]
REASONS: dict[str, str] = FIXTURE["unsupported_reasons"]


def structure(compiled: dict[str, Any]) -> dict[str, Any]:
    """The fields an expectation names, from a ``compile --json`` object."""
    flips, rolls = [], []
    for roll in compiled["rolls"]:
        if roll["sides"] == "coin":
            keys = ("count", "call", "until", "times", "flipper")
            outcomes = [[o["when"], o["each"], o["all"]] for o in roll["outcomes"]]
            flips.append({key: roll[key] for key in keys} | {"outcomes": outcomes})
        else:
            found = {"count": roll["count"], "sides": roll["sides"], "roller": roll["roller"]}
            found |= {"modified": roll["modifier"] is not None, "table": roll["table"]}
            rolls.append(found | {"outcomes": [o["reads"] for o in roll["outcomes"]]})
    effects = [[e["kind"], e.get("event", e.get("what")), e["scope"]] for e in compiled["effects"]]
    return {"flips": flips, "rolls": rolls, "effects": effects, "unsupported": list(compiled["unsupported"])}


def expected(expect: dict[str, Any]) -> dict[str, Any]:
    """An expectation with its unnamed parts filled in: no flips, rolls, effects or unsupported."""
    rolls = [
        {"roller": "you", "modified": False, "table": None, "outcomes": []} | roll for roll in expect.get("rolls", [])
    ]
    flips = [
        {"call": True, "until": None, "times": None, "flipper": "you", "outcomes": []} | flip
        for flip in expect.get("flips", [])
    ]
    return {
        "flips": flips,
        "rolls": rolls,
        "effects": expect.get("effects", []),
        "unsupported": expect.get("unsupported", []),
    }


def test_the_fixture_holds_no_card_of_the_shared_files() -> None:
    shared = {
        card["name"]
        for name in ("coin-cards.json", "dice-cards.json")
        for card in json.loads(shared_path("cards", name).read_text(encoding="utf-8"))
    }
    names = [card["name"] for card in CARDS]
    assert len(names) == len(set(names))
    assert not shared & set(names)


def test_every_unsupported_sentence_has_its_reason() -> None:
    listed = {sentence for card in CARDS for sentence in card["expect"]["unsupported"]}
    listed |= {sentence for _text, expect in VARIANTS for sentence in expect.get("unsupported", [])}
    assert listed == set(REASONS) | set(OUT_OF_SCOPE)


@pytest.mark.parametrize("card", CARDS, ids=[card["name"] for card in CARDS])
def test_a_real_card_compiles_to_the_structure_its_text_says(card: dict[str, Any]) -> None:
    compiled = card_json(compile_text(card["oracle_text"], name=card["name"]))
    assert structure(compiled) == expected(card["expect"])


# -- the same families in other words -----------------------------------------------------------------

WON, LOST = ["won", False, False], ["lost", False, False]

OUT_OF_SCOPE = {
    "If you win exactly two of the flips, draw a card.": "an outcome on an exact number of flips is not modelled",
}

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    # Another player, named by a noun phrase, flips or rolls (not "you").
    (
        "At the beginning of the upkeep of enchanted creature's controller, that player flips a coin. "
        "If they lose the flip, sacrifice that creature.",
        {"flips": [{"count": 1, "flipper": "that player", "outcomes": [LOST]}]},
    ),
    (
        "Whenever a creature blocks, its controller flips a coin. If they win the flip, it gets +1/+1 until end of "
        "turn.",
        {"flips": [{"count": 1, "flipper": "that player", "outcomes": [WON]}]},
    ),
    (
        "Whenever ~ attacks, defending player flips two coins. For each flip that player loses, ~ gets +1/+0 until "
        "end of turn.",
        {"flips": [{"count": 2, "flipper": "that player", "outcomes": [["lost", True, False]]}]},
    ),
    (
        "{T}: Target opponent may flip a coin. If that player wins the flip, they draw a card.",
        {"flips": [{"count": 1, "flipper": "that player", "outcomes": [WON]}]},
    ),
    (
        "When ~ dies, an opponent flips a coin. If the player loses the flip, they discard a card.",
        {"flips": [{"count": 1, "flipper": "that player", "outcomes": [LOST]}]},
    ),
    (
        "Enchanted creature's controller flips three coins at the beginning of their upkeep. For each flip they "
        "lose, they lose 1 life.",
        {"flips": [{"count": 3, "flipper": "that player", "outcomes": [["lost", True, False]]}]},
    ),
    (
        "Whenever a creature attacks, its controller rolls a d6. If the result is 1, tap that creature.",
        {"rolls": [{"count": 1, "sides": 6, "roller": "that player", "outcomes": ["result"]}]},
    ),
    ("Defending player rolls two d20.", {"rolls": [{"count": 2, "sides": 20, "roller": "that player"}]}),
    (
        "Target opponent may roll a d4. If the result is 4, they draw a card.",
        {"rolls": [{"count": 1, "sides": 4, "roller": "target opponent", "outcomes": ["result"]}]},
    ),
    # A named player's roll with a modifier in the third person ("adds", "subtracts").
    (
        "Its controller rolls a d20 and adds the number of creatures they control.",
        {"rolls": [{"count": 1, "sides": 20, "roller": "that player", "modified": True}]},
    ),
    (
        "Target player rolls a d10 and subtracts 2.",
        {"rolls": [{"count": 1, "sides": 10, "roller": "target player", "modified": True}]},
    ),
    # Doubles in other words (CR 706.5).
    (
        "Roll two d6. If both results are the same, draw a card.",
        {"rolls": [{"count": 2, "sides": 6, "outcomes": ["doubles"]}]},
    ),
    (
        "At the beginning of your upkeep, roll three d4. If the dice show the same number, you gain 4 life.",
        {"rolls": [{"count": 3, "sides": 4, "outcomes": ["doubles"]}]},
    ),
    # Each opponent flips.
    (
        "Each opponent flips a coin. Each opponent who loses the flip discards a card.",
        {"flips": [{"count": 1, "flipper": "each opponent", "outcomes": [["lost", True, False]]}]},
    ),
    (
        "At the beginning of your end step, each opponent flips two coins. For each flip an opponent wins, you lose "
        "1 life.",
        {"flips": [{"count": 2, "flipper": "each opponent", "outcomes": [["won", True, False]]}]},
    ),
    # An outcome for each flipper who won or lost.
    (
        "Each player flips a coin. Each player who loses the flip loses 2 life.",
        {"flips": [{"count": 1, "flipper": "each player", "outcomes": [["lost", True, False]]}]},
    ),
    (
        "You and target opponent each flip a coin. Each player who won the flip draws a card.",
        {"flips": [{"count": 1, "flipper": "you and target opponent", "outcomes": [["won", True, False]]}]},
    ),
    (
        "Each player flips two coins. ~ deals 2 damage to each player who lost a flip.",
        {"flips": [{"count": 2, "flipper": "each player", "outcomes": [["lost", True, False]]}]},
    ),
    # N or more of the flips.
    (
        "Flip four coins. If you win two or more of the flips, draw two cards.",
        {"flips": [{"count": 4, "outcomes": [WON]}]},
    ),
    (
        "Whenever ~ becomes blocked, flip three coins. If you lose two or more of them, sacrifice ~.",
        {"flips": [{"count": 3, "outcomes": [LOST]}]},
    ),
    # A coin flipped twice.
    (
        "Flip a coin twice. For each flip you win, draw a card.",
        {"flips": [{"count": 1, "times": 2, "outcomes": [["won", True, False]]}]},
    ),
    (
        "When ~ enters, target player flips a coin twice. If that player loses a flip, they sacrifice a land.",
        {"flips": [{"count": 1, "times": 2, "flipper": "that player", "outcomes": [LOST]}]},
    ),
    # An amount equal to the number of flips won or lost.
    (
        "Flip a coin until you lose a flip. ~ deals damage to any target equal to the number of flips you won.",
        {"flips": [{"count": 1, "until": "lose", "outcomes": [["won", True, False]]}]},
    ),
    (
        "Flip five coins. You gain life equal to the number of flips you lost.",
        {"flips": [{"count": 5, "outcomes": [["lost", True, False]]}]},
    ),
    (
        "Flip three coins. Create a number of Treasure tokens equal to the number of coins that came up heads.",
        {"flips": [{"count": 3, "call": False, "outcomes": [["heads", True, False]]}]},
    ),
    # How many coins: a number equal to an amount.
    (
        "Flip a number of coins equal to the number of cards in your hand. For each flip you win, draw a card.",
        {"flips": [{"count": "cards in hand", "outcomes": [["won", True, False]]}]},
    ),
    (
        "Target opponent flips a number of coins equal to the number of lands they control. For each flip that "
        "player loses, they sacrifice a land.",
        {"flips": [{"count": "lands they control", "flipper": "that player", "outcomes": [["lost", True, False]]}]},
    ),
    # Which flips an outcome needs: "if you win," alone, either flip, at least N, all N, none.
    (
        "Flip a coin. If you win, draw a card. If you lose, discard a card.",
        {"flips": [{"count": 1, "outcomes": [WON, LOST]}]},
    ),
    (
        "At the beginning of your upkeep, target player flips a coin. If they lose, ~ deals 2 damage to them.",
        {"flips": [{"count": 1, "flipper": "that player", "outcomes": [LOST]}]},
    ),
    ("Flip two coins. If you lose either flip, sacrifice ~.", {"flips": [{"count": 2, "outcomes": [LOST]}]}),
    ("Flip four coins. If you win at least two flips, draw a card.", {"flips": [{"count": 4, "outcomes": [WON]}]}),
    ("Flip five coins. If you lose at least 3 of them, discard a card.", {"flips": [{"count": 5, "outcomes": [LOST]}]}),
    (
        "Flip three coins. If you win all three flips, draw three cards.",
        {"flips": [{"count": 3, "outcomes": [["won", False, True]]}]},
    ),
    (
        "Flip two coins. If you lose both of them, ~ deals 3 damage to you.",
        {"flips": [{"count": 2, "outcomes": [["lost", False, True]]}]},
    ),
    # Winning no flip is losing every flip, and the other way round.
    (
        "Flip two coins. If you win neither flip, you lose 2 life.",
        {"flips": [{"count": 2, "outcomes": [["lost", False, True]]}]},
    ),
    (
        "{T}: Flip three coins. If you lose no flips, draw a card.",
        {"flips": [{"count": 3, "outcomes": [["won", False, True]]}]},
    ),
    # Flipping again by choice after a flip won or lost.
    (
        "Flip a coin. If you win the flip, you may flip a coin again.",
        {"flips": [{"count": 1, "until": "lose", "outcomes": [WON]}]},
    ),
    (
        "{2}: Flip a coin. If you lose the flip, ~ deals 1 damage to you and you may flip again.",
        {"flips": [{"count": 1, "until": "win", "outcomes": [LOST]}]},
    ),
    # A trigger on flipping itself: recognised (the rules apply triggers on flips won or lost only).
    (
        "Whenever you flip one or more coins, scry 1.",
        {"effects": [["passive", "flip trigger", "you"]]},
    ),
    (
        "Whenever a player flips a coin, that player gains 1 life.",
        {"effects": [["passive", "flip trigger", "any"]]},
    ),
    (
        "Whenever an opponent flips one or more coins, ~ deals 1 damage to that player.",
        {"effects": [["passive", "flip trigger", "opponent"]]},
    ),
    # Out of scope, listed with its reason.
    (
        "Flip three coins. If you win exactly two of the flips, draw a card.",
        {
            "flips": [{"count": 3}],
            "unsupported": ["If you win exactly two of the flips, draw a card."],
        },
    ),
]


@pytest.mark.parametrize(("text", "expect"), VARIANTS, ids=[str(i) for i in range(len(VARIANTS))])
def test_an_oracle_style_variant_compiles_to_its_structure(text: str, expect: dict[str, Any]) -> None:
    compiled = card_json(compile_text(text, name="Tester"))
    assert structure(compiled) == expected(expect)


@pytest.mark.parametrize(("text", "expect"), VARIANTS, ids=[str(i) for i in range(len(VARIANTS))])
def test_a_variant_reads_back_from_its_canonical_wording(text: str, expect: dict[str, Any]) -> None:
    card = compile_text(text, name="Tester")
    again = structure(card_json(compile_text(card.describe(), name="Tester")))
    assert again | {"unsupported": []} == expected(expect) | {"unsupported": []}


def test_a_flip_won_or_lost_that_no_production_reads_is_listed_not_dropped() -> None:
    # A sentence after a flip that names no coin but a flip won or lost (detector.speaks_of_winning).
    compiled = compile_text("Flip two coins. If you lose exactly one of them, draw a card.", name="Tester")
    assert compiled.unsupported == ("If you lose exactly one of them, draw a card.",)
    # Life and the game are won and lost too, and dice are not coins: nothing to list.
    assert compile_text("Flip a coin. If you win the flip, draw a card. You lose 1 life.").unsupported == ()
    assert compile_text("Roll a d6. If you lose, draw a card.").unsupported == ()
