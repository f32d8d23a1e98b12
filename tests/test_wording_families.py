"""Wording families read this round, each in several Oracle-style texts written here (never one
card's sentence): dice written in notation on a card, replacements and modifiers that act on other
players' dice, each player who rolled a value, choosing stored results to roll again, and reminder
text that defines the roll. The expected structure is written from the text, not from the compiler.
"""

from __future__ import annotations

from typing import Any

import pytest

from mtgdice.io.compiled import card_json
from mtgdice.text import compile_text

NOTATION = [
    ("Roll 2d6. If the total is 7, draw a card.", (2, 6, None)),
    ("When ~ enters, roll 1d20+2.", (1, 20, 2)),
    ("{T}: Roll 3d4-1. You gain life equal to the total.", (3, 4, -1)),
    ("Target opponent rolls 2d8. ~ deals damage to that player equal to the total.", (2, 8, None)),
    ("Roll d12. If you roll a 12, draw two cards.", (1, 12, None)),
]


@pytest.mark.parametrize(("text", "expected"), NOTATION, ids=[str(i) for i in range(len(NOTATION))])
def test_dice_in_notation(text: str, expected: tuple[int, int, int | None]) -> None:
    card = compile_text(text, name="Tester")
    assert card.unsupported == ()
    (roll,) = card.rolls
    modifier = roll.modifier.constant if roll.modifier is not None else None
    assert (roll.count.constant, roll.die.sides, modifier) == expected


OTHER_PLAYERS = [
    # (text, effect kind, scope)
    (
        "If an opponent would roll one or more dice, that player rolls that many dice plus one and ignores "
        "the lowest roll.",
        "extra dice",
        "opponent",
    ),
    ("If a player would roll a d20, they instead roll two d20s and ignore the lower roll.", "extra dice", "any"),
    (
        "If an opponent would roll a die, that player rolls two of that die and ignores one of those rolls.",
        "pair each die",
        "opponent",
    ),
    ("Increase the result of each die an opponent rolls by 1.", "modifier", "opponent"),
    ("Decrease the result of each die your opponents roll by 2.", "modifier", "opponent"),
    ("Whenever an opponent rolls a die, you may pay {1}. If you do, decrease the result by 1.", "modifier", "opponent"),
    ("After a player rolls a d6, you may pay {2}. If you do, increase or decrease the result by 1.", "modifier", "any"),
    ("Whenever another player rolls one or more dice, scry 1.", "trigger", "opponent"),
    ("Whenever a player rolls a 6, that player draws a card.", "trigger", "any"),
    ("Whenever an opponent rolls a natural 1, ~ deals 2 damage to that player.", "trigger", "opponent"),
]


@pytest.mark.parametrize(("text", "kind", "scope"), OTHER_PLAYERS, ids=[str(i) for i in range(len(OTHER_PLAYERS))])
def test_effects_on_other_players_dice(text: str, kind: str, scope: str) -> None:
    card = compile_text(text, name="Tester")
    assert card.unsupported == ()
    (effect,) = card.effects
    assert (effect.kind, effect.scope.value) == (kind, scope)


@pytest.mark.parametrize(
    "text",
    [
        "Each opponent rolls a d6. Each opponent who rolled a 1 loses 2 life.",
        "Each player rolls a d20. Each player who rolled 15 or higher draws a card.",
        "Each player rolls two d4. Each player who rolls a 4 creates a Treasure token.",
    ],
)
def test_each_player_who_rolled(text: str) -> None:
    card = compile_text(text, name="Tester")
    assert card.unsupported == ()
    (roll,) = card.rolls
    (outcome,) = roll.outcomes
    assert outcome.condition is not None and outcome.reads.value == "each"


@pytest.mark.parametrize(
    "text",
    [
        "{1}: Choose one of ~'s stored results and reroll it.",
        "{2}, {T}: Choose any number of the results stored on ~ and reroll them.",
        "At the beginning of your upkeep, choose up to two of its stored results and reroll them.",
    ],
)
def test_choosing_stored_results_to_roll_again(text: str) -> None:
    card = compile_text("Roll three d6 and store those results on ~.\n" + text, name="Tester")
    assert card.unsupported == ()
    first, again = card.rolls
    assert first.store and again.reroll_stored and again.die.sides == 6


DEFINED: list[tuple[str, dict[str, Any]]] = [
    (
        "When ~ enters, it makes a strength check. (Roll a d20.) If the result is 15 or higher, draw a card.",
        {"sides": 20},
    ),
    ("{T}: Make an insight check. (Roll a d12 and add the number of cards in your hand.)", {"sides": 12}),
    ("Flip a coin. (Flip a coin.) If you win the flip, scry 2.", {"sides": "coin"}),
]


@pytest.mark.parametrize(("text", "expected"), DEFINED, ids=[str(i) for i in range(len(DEFINED))])
def test_reminder_text_that_defines_a_roll(text: str, expected: dict[str, Any]) -> None:
    card = compile_text(text, name="Tester")
    assert card.unsupported == ()
    rolls = card_json(card)["rolls"]
    assert rolls and rolls[0]["sides"] == expected["sides"]
