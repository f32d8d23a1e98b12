"""Nothing keyed on one card: every grammar production runs over the 119 dev cards, and a production
that fires on exactly one of them must be a wording family, shown by at least three synthetic texts
here ("rule" below is a production of ``mtgdice.text.grammar``).

The synthetic texts are written in Oracle style with other names, numbers and die sizes than the
card the rule reads; each must use the rule and compile with nothing unsupported. A rule that
reads one card's sentence with its name written ``~`` would fail here: its other texts would not
use it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import pytest

from grammar_trace import RULES, tracing
from mtgdice.text import compile_text
from mtgdice.text.normalize import for_matching
from mtgdice.text.parsing import Rule
from shared_data import shared_path

QUOTED_ABILITIES = (
    'Creatures you control have "{T}: Roll a d6. If the result is 6, draw a card."',
    'Target creature gains "Whenever you roll a 1, sacrifice this creature." until end of turn.',
    'Equipped creature has "{2}: Roll a d20. If you roll a 20, it deals 3 damage to any target."',
)
"""Abilities granted in quotes, compiled on their own (the dice mention that sends them there is
``grammar.mentions_dice``, a test over tokens rather than a production)."""

FAMILIES: dict[str, tuple[str, ...]] = {
    # Totals the turn or the permanent remembers (rules/memory.py), in Oracle style, none a real card's sentence.
    "REMEMBERED_TOTAL": (
        "{2}: Roll two six-sided dice. If the total is equal to any other total you have rolled this turn for "
        "this ability, sacrifice ~.",
        "{T}: Roll three d4. If the total of those results is the same as any other total you have rolled this "
        "turn for this ability, draw a card.",
        "{1}{R}: Roll 2d8. If you rolled any other total you have rolled this turn for this ability, ~ deals 2 "
        "damage to you.",
    ),
    "NOTE_TOTAL": (
        "When ~ enters, roll two d6. If you rolled 7, sacrifice ~. If you rolled any other total, note that total.",
        "At the beginning of your upkeep, roll 3 d4. If you rolled 12, draw a card. If you rolled any other "
        "total, note the total.",
        "{T}: Roll two d10. If you rolled 20, gain 5 life. If you rolled any other total, note that result.",
    ),
    "NOTED_TOTAL": (
        "At the beginning of your upkeep, roll two d6. If you roll the noted total, draw a card.",
        "{2}: Roll 2d8. If the total is the noted total, ~ gets +3/+3 until end of turn.",
        "Whenever ~ attacks, roll three d4. If you rolled the noted result, sacrifice ~.",
    ),
    # Coins (CR 705): written here in Oracle style, none of them a real card's sentence.
    "FLIPS": (
        "{2}, {T}: Flip a coin. If you win the flip, draw a card.",
        "When ~ enters, each player flips 2 coins.",
        "At the beginning of your end step, flip three coins. For each flip you lose, you lose 1 life.",
    ),
    "FLIP_UNTIL": (
        "Flip a coin until you win a flip. You lose 1 life for each flip you lost.",
        "{1}{R}: Flip a coin until you lose a flip. Scry 1 for each flip you won.",
        "Flip two coins until you lose a flip or choose to stop flipping. Draw a card for each flip you won.",
    ),
    "FLIP_TIMES": (
        "Flip a coin X times or until you lose a flip, whichever comes first. Draw a card for each flip you won.",
        "Flip a coin 3 times or until you win a flip. If you win 1 or more flips, gain 2 life.",
        "Choose a number. Flip a coin that many times. For each flip you win, create a Treasure token.",
    ),
    "FLIP_FOR_EACH": (
        "Flip a coin for each creature you control. For each flip you win, draw a card.",
        "When ~ dies, flip a coin for each card in your hand. If you win 2 or more flips, return ~ to your hand.",
        "{4}: Flip a coin for each opponent you have. For each flip you lose, sacrifice a land.",
    ),
    "COIN_IF": (
        "Flip a coin. If you lose the flip, ~ deals 2 damage to you.",
        "{T}: Flip two coins. If you win 2 or more flips, draw three cards.",
        "Whenever ~ attacks, flip five coins. If you win all the flips, roll a d20.",
    ),
    "COIN_SIDE_IF": (
        "Flip a coin. If it comes up tails, roll a d6 and ~ deals that much damage to you.",
        "Flip two coins. If both coins come up tails, draw 3 cards.",
        "At the beginning of your upkeep, flip a coin. If the coin comes up heads, put a +1/+1 counter on ~.",
    ),
    "COIN_EACH": (
        "Flip four coins. Create a 1/1 Goblin token for each coin that comes up tails.",
        "Each player flips a coin. Each player whose coin comes up heads draws 2 cards.",
        "Flip 3 coins. You gain X life, where X is the number of coins that came up heads.",
    ),
    "COIN_REPEAT": (
        "Each player flips a coin. Each player whose coin comes up tails loses 2 life. Repeat this process "
        "until all coins come up heads.",
        "You and target opponent each flip a coin. Repeat this process until both coins come up heads.",
        "You and target player each flip a coin. ~ deals 3 damage to each player whose coin comes up tails. "
        "Repeat this process until both players' coins come up heads on the same flip.",
    ),
    "COIN_TRIGGER": (
        "Whenever you lose a coin flip, you gain 2 life.",
        "Whenever an opponent wins a coin flip, ~ deals 1 damage to that player.",
        "Whenever a player wins a coin flip, put 3 +1/+1 counters on ~.",
    ),
    "FIRST_FLIP": (
        "The first time you flip one or more coins each turn, you win those flips.",
        "The first time an opponent flips a coin each turn, that coin comes up tails.",
        "The first time you flip a coin each turn, draw 2 cards.",
    ),
    "FOR_EACH_AFTER": (
        "Roll three six-sided dice. Draw a card for each odd result.",
        "{2}, {T}: Roll X d8. Put a +1/+1 counter on target creature for each even result.",
        "When ~ enters, roll four d4. You gain 2 life for each result of 4.",
    ),
    "DOUBLES": (
        "Roll two d6. If both results are the same, draw a card.",
        "At the beginning of your upkeep, roll three d4. If the dice show the same number, you gain 4 life.",
        "{2}, {T}: Roll two d8. If you rolled doubles, ~ deals 8 damage to any target.",
    ),
    "FLIP_TRIGGER": (
        "Whenever a player flips a coin, that player gains 1 life.",
        "Whenever you flip one or more coins, scry 2.",
        "Whenever an opponent flips a coin, ~ deals 3 damage to that player.",
    ),
    "COIN_FOLLOW_UP": (
        "Flip a coin. If you win the flip, draw a card. Double the number of cards with each flip.",
        "Flip 2 coins. If you lose the flip, sacrifice ~. Scry 1 after each flip.",
        "Flip a coin. If you win the flip, gain 3 life. This repeats with each flip.",
    ),
    "ROW_AGAIN": (
        "Roll a d6.\n1\u20145 | Draw a card.\n6 | Draw a card and roll again.",
        "Roll a d12.\n1\u201411 | You gain 2 life.\n12 | Create a Treasure token. You may repeat this process.",
        "Roll a d4.\n1\u20143 | Scry 1.\n4 | Scry 2, then repeat this process 2 more times.",
    ),
    "LEVEL_LINE": (
        "Roll a d20.\n1\u20149 | Draw a card.\n10\u201420 | Draw two cards.\n{2}{R}: Level 2\nIf you would roll a d20, instead roll two d20s and ignore the lower roll.",
        "Whenever you roll a 1, draw a card.\n{1}{U}: Level 2\nIncrease the result of each die you roll by 1.",
        "Roll a d6.\n{3}{G}{G}: Level 3\nWhenever you roll one or more dice, you gain 1 life.",
    ),
    "COST_COUNTER": (
        "After you roll a die, you may remove a charge counter from ~. If you do, increase or decrease the result by 1.",
        "After you roll a die, you may remove a +1/+1 counter from ~. If you do, increase the result by 2.",
        "After a player rolls a die, you may remove a luck counter from ~. If you do, decrease the result by 1.",
    ),
    "PLANAR_ROLL": (
        "{T}: Roll the planar die.",
        "{2}, {T}: Roll the planar die. Activate only as a sorcery.",
        "When ~ enters, roll the planar die.",
    ),
    "IMPLICIT_ROLL": (
        "~ deals damage equal to the result of a six-sided die roll to any target.",
        "You gain life equal to the result of a d8 roll.",
        "Target player mills cards equal to the result of a d4 roll.",
    ),
    "REROLL_STORED": (
        "At the beginning of your upkeep, you may reroll any number of ~'s stored results.",
        "{T}: Reroll each of ~'s stored results.",
        "Whenever ~ attacks, reroll up to two of its stored results.",
    ),
    "TAIL_PLUS_EACH": (
        "{4}, {T}: Roll a d6 plus an additional d6 for each artifact you control.",
        "Roll a d8 plus an additional d8 for each opponent you attacked this turn.",
        "Roll a d4 plus an additional d4 for each Goblin you control.",
    ),
    "WHERE_X": (
        "Roll X d6, where X is the number of artifacts you control.",
        "{T}: Roll X d4, where X is the number of cards in your hand.",
        "Roll X twenty-sided dice, where X is the number of opponents you have.",
    ),
    "TAIL_IGNORE": (
        "Roll two d20 and ignore the lower roll.",
        "Roll four d6 and ignore the lowest roll.",
        "Roll five d10 and ignore all but the highest 2 rolls.",
    ),
    "TAIL_CHOOSE": (
        "Roll two d8 and choose one result. Draw cards equal to that result.",
        "Roll three d6 and choose one result. You gain life equal to that result.",
        "Roll two d12 and choose one of those results. Scry X, where X is that result.",
    ),
    "TAIL_STORE": (
        "When ~ enters, roll three d6 and store those results on it.",
        "{T}: Roll a d20 and store that result on ~.",
        "When ~ enters, roll four d4 and install those results on it.",
    ),
    "REPEAT": (
        "Roll a d20. If you roll a 20, repeat this process.",
        "Roll a d6. If the result is 5 or higher, you may repeat this process.",
        "Roll a d10. If you roll a 1, repeat this process.",
    ),
    "EXACTLY": (
        "Roll five d6. If you rolled 6 exactly three times, you win the game.",
        "Roll X d4, where X is the number of Elves you control. If you rolled 4 exactly two times, draw a card.",
        "Roll ten d10. If you rolled 1 exactly four times, you lose 4 life.",
    ),
    "REROLL_TIES": (
        "Each player rolls a d20. The player with the highest result draws a card. Roll again to break ties.",
        "Each opponent rolls a d6. The opponent with the lowest result loses 2 life. Reroll any ties.",
        "Each player rolls a six-sided die. The player with the lowest result discards a card. Players who tied reroll to break ties.",
    ),
    "STANDING": (
        "Each player rolls a d20. The player with the highest result draws a card.",
        "Each opponent rolls a d6. The opponent with the lowest result loses 2 life.",
        "Each player rolls a d12. Target creature deals damage to the player with the lowest roll.",
    ),
    "HIGHEST_NATURAL": (
        "Whenever you roll a die's highest natural result, draw a card.",
        "Whenever you roll the highest natural result on a die, you gain 2 life.",
        "Whenever a player rolls a die's highest natural result, ~ deals 1 damage to that player.",
    ),
    "SYMBOLIC_CONDITION": (
        "Roll a d6. If the result is equal to ~'s power, draw a card.",
        "Roll a d20. If the result is greater than the number of cards in your hand, you gain 3 life.",
        "Roll a d4. If the result is less than target creature's toughness, destroy it.",
    ),
    "HOW_EXTRA_CHOSEN": (
        "If a player would roll one or more dice, instead they roll that many dice plus one and ignore one.",
        "If you would roll one or more dice, instead roll that many dice plus one and an opponent chooses one of them to ignore.",
        "If an opponent would roll one or more dice, instead they roll that many dice plus two and ignore two.",
    ),
    "HOW_PAIR": (
        "If you would roll a die, instead roll two of those dice and ignore one of those results.",
        "If a player would roll a d20, instead they roll two of that die and ignore one of the results.",
        "If an opponent would roll a six-sided die, instead they roll two of those dice and ignore one of those rolls.",
    ),
    "HOW_THEN": (
        "If you would roll one or more six-sided dice, instead roll them and you may exchange one result with ~'s power.",
        "If you would roll one or more d20s, instead roll them and you may turn one result upside down.",
        "If a player would roll one or more dice, instead they roll them and you may swap two of the results.",
    ),
    "STATIC_MODIFIER": (
        "Increase the result of each die you roll by 2.",
        "Decrease the result of each d20 an opponent rolls by 1.",
        "Increase the result of each die rolled by 3.",
    ),
    "REROLL_IF": (
        "If you roll a 3 on a six-sided die, you may reroll that die.",
        "If you roll a 1 on a d20, you may reroll it.",
        "If you roll a 2 or less on a d8, you may reroll that die.",
    ),
    "TRIGGER_PASSIVE_VOICE": (
        "Whenever a 6 is rolled on a six-sided die, draw a card.",
        "Whenever a 20 is rolled on a d20, you gain 5 life.",
        "Whenever a 1 is rolled, ~ deals 1 damage to each opponent.",
    ),
    "PLANAR_WHAT": (
        "Whenever you roll the planar die, draw a card.",
        "Whenever a player rolls the planar die, you gain 1 life.",
        "Whenever an opponent rolls planar die, scry 1.",
    ),
    "FROM_GRAVEYARD": (
        "Whenever you roll a 20, you may return ~ from your graveyard to your hand.",
        "Whenever you roll a natural 1, put ~ from your graveyard onto the battlefield.",
        "Whenever you roll doubles, you may cast ~ from your graveyard this turn.",
    ),
    "FACE": (
        "Each {CHAOS} roll of the planar die counts as a blank roll.",
        "Every blank result of the planar die is treated as a {PLANESWALKER} result.",
        "Each {PLANESWALKER} face of the planar die counts as a {CHAOS} face.",
    ),
    "FACE_CONDITION": (
        "Whenever you roll {CHAOS}, draw a card.",
        "Whenever an opponent rolls {PLANESWALKER}, you gain 2 life.",
        "Whenever a player rolls a blank, scry 1.",
    ),
    "PLANAR_DIE": (
        "Whenever an opponent rolls the planar die, you gain 2 life.",
        "Whenever a player rolls the planar die, ~ deals 1 damage to that player.",
        "Whenever you roll the planar die, create a 1/1 Spirit token.",
    ),
    "FACE_COUNTS_AS": (
        "Each {PLANESWALKER} roll of the planar die is a blank roll.",
        "Every blank roll of the planar die counts as a {CHAOS} roll.",
        "Each {CHAOS} result of the planar die is a {PLANESWALKER} result until end of turn.",
    ),
    "PROTECTION": (
        "~ has protection from die rolls.",
        "Enchanted creature has protection from dice.",
        "Creatures you control get +1/+1 and have protection from die rolls until end of turn.",
    ),
    "ROLLED_THIS_TURN": (
        "At the beginning of your end step, if you rolled a die this turn, draw a card.",
        "~ gets +2/+2 as long as you've rolled two or more dice this turn.",
        "At the beginning of each end step, if a player rolled 1 or more dice this turn, you gain 1 life.",
    ),
    "STACK_DICE": (
        "When ~ enters, stack three dice on top of it.",
        "~ gets +1/+0 for each die in its stack.",
        "When the stack falls, ~ deals 2 damage to you.",
    ),
    "STORE_SENTENCE": (
        "{T}: Roll a six-sided die. Install the result on ~.",
        "When ~ enters, roll a d20. Store the result on ~.",
        "{2}: Roll a d4. Store that result on it.",
    ),
    "USE_STORED": (
        "You may remove a result from ~ to use it for a die you rolled.",
        "You may use a stored result on ~ as the result of a d20 you rolled.",
        "You may uninstall a result from it to use it instead of a die.",
    ),
    "TAIL_ALSO": (
        "Roll a d20 and a d6.",
        "Roll a d12 and two d4.",
        "Roll two d8, a d6 and a d4.",
    ),
    "COSTED_MODIFIER": (
        "You may pay {1} to increase or decrease the result of a die any player rolled by 1.",
        "You may pay 2 life to increase the result of a d20 an opponent rolled by 2.",
        "You may tap ~ to decrease the result of a die you rolled by 3.",
    ),
    "NTH_DIE": (
        "Whenever you roll your third die each turn, if its result is 6, draw a card.",
        "Whenever you roll your second die each turn, you lose 1 life.",
        "Whenever you roll your 4th die this turn, create a Treasure token.",
    ),
}


def card_text(card: dict[str, Any]) -> str:
    return card.get("oracle_text") or "\n".join(face.get("oracle_text", "") for face in card.get("card_faces", []))


@pytest.fixture(scope="module")
def fired_by_rule() -> dict[str, set[str]]:
    cards = json.loads(shared_path("cards", "dice-cards.json").read_text(encoding="utf-8"))
    assert len(cards) == 119
    by_rule: dict[str, set[str]] = {name: set() for name in RULES}
    for card in cards:
        with tracing() as fired:
            compile_text(
                card_text(card),
                name=card["name"],
                layout=card.get("layout", "normal"),
                type_line=card.get("type_line", ""),
            )
        for name in fired:
            by_rule[name].add(card["name"])
    return by_rule


def one_card_rules(by_rule: Mapping[str, set[str]], families: Mapping[str, tuple[str, ...]]) -> list[str]:
    """The rules that fire on exactly one card and have fewer than three synthetic texts."""
    return sorted(
        f"{rule} fires only on {next(iter(cards))!r}"
        for rule, cards in by_rule.items()
        if len(cards) == 1 and len(families.get(rule, ())) < 3
    )


def test_no_rule_fires_on_exactly_one_card_unless_it_is_a_family(fired_by_rule: dict[str, set[str]]) -> None:
    assert one_card_rules(fired_by_rule, FAMILIES) == []


def test_the_check_finds_a_one_card_rule() -> None:
    by_rule = {"WIDE": {"A", "B"}, "NARROW": {"C"}, "COVERED": {"D"}, "UNUSED": set()}
    families = {"COVERED": ("x", "y", "z"), "NARROW": ("x", "y")}
    assert one_card_rules(by_rule, families) == ["NARROW fires only on 'C'"]


def test_tracing_sees_the_rules_a_compilation_uses() -> None:
    with tracing() as fired:
        compile_text("Roll two d20 and ignore the lower roll.")
    assert {"ROLL", "TAIL_IGNORE"} <= fired and "TRIGGER" not in fired
    assert all(isinstance(production, Rule) for production in RULES.values())


def test_families_name_real_rules_and_vary() -> None:
    for rule, texts in FAMILIES.items():
        assert rule in RULES, rule
        assert len(texts) >= 3 and len(set(texts)) == len(texts), rule
        # Different numbers, die sizes or faces: the texts are not one sentence with its words moved.
        assert len({tuple(re.findall(r"\d+|\{[a-z]+\}", for_matching(text))) for text in texts}) >= 2, rule


@pytest.mark.parametrize(
    ("rule", "text"),
    [(rule, text) for rule, texts in FAMILIES.items() for text in texts],
    ids=[f"{rule}-{i}" for rule, texts in FAMILIES.items() for i in range(len(texts))],
)
def test_a_family_text_uses_its_rule_and_compiles(rule: str, text: str) -> None:
    with tracing() as fired:
        card = compile_text(text, name="Tester")
    assert rule in fired
    assert card.unsupported == ()
    assert card.instructions or card.effects


@pytest.mark.parametrize("text", QUOTED_ABILITIES)
def test_a_quoted_ability_compiles(text: str) -> None:
    card = compile_text(text, name="Tester")
    assert card.unsupported == ()
    assert card.rolls or card.effects


def test_every_production_writes_itself_in_grammar_notation() -> None:
    """The grammar is the documentation: each production prints as ``NAME := body``."""
    for name, production in RULES.items():
        assert production.name == name
        written = production.production()
        assert written.startswith(f"{name} := ") and len(written) > len(name) + 4, name
