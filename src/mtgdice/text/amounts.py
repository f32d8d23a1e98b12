"""Naming variable amounts the way json-interface.md says ("Amounts").

A name is the noun phrase of the text, lower case, without "the number of", articles and
possessives; "X's Y" becomes "Y of X"; "each player being attacked" becomes "players being
attacked".
"""

from __future__ import annotations

import re

_MASS_NOUNS = frozenset({"mana", "life", "damage", "energy", "loyalty"})
_POSSESSIVE = r"^(?P<owner>(?:that|this|the|target|each|enchanted|equipped) [a-z' -]+?|~)'s (?P<thing>.+)$"
"""A possessive amount ("that spell's mana value"): compiled when first used (few texts name one),
like the other patterns here."""


def amount_name(phrase: str) -> str:
    """The name of the amount a phrase describes.

    >>> amount_name("the number of cards in your hand")
    'cards in hand'
    >>> amount_name("that spell's mana value")
    'mana value of that spell'
    >>> amount_name("the total mana value of those cards")
    'total mana value of those cards'
    >>> amount_name("each player being attacked")
    'players being attacked'
    """
    words = phrase.strip().lower().rstrip(".")
    words = re.sub(r"^(?:the )?number of ", "", words)
    possessive = re.match(_POSSESSIVE, words)
    if possessive:
        words = f"{possessive.group('thing')} of {possessive.group('owner')}"
    each = re.match(r"^each (?P<noun>\w+)(?P<rest>.*)$", words)
    if each:
        noun = each.group("noun")
        plural = noun if noun.endswith("s") or noun in _MASS_NOUNS else noun + "s"
        words = plural + each.group("rest")
    words = re.sub(r"\b(?:the|a|an|your|their|its|his|her)\b ?", "", words)
    return re.sub(r"\s+", " ", words).strip()
