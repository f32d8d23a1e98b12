"""Which sentences speak of dice or coins: a detector that shares nothing with the grammar.

The compiler must never drop a dice or coin sentence in silence (json-interface.md): every
sentence this detector marks is either read by a production of the grammar or listed in
``unsupported`` with its reason. For that promise to mean something the detector is written apart
from the grammar, with its own small vocabulary:

- English: die, dice, ``dN``, ``N-sided``, the planar die, roll / reroll in every form, "chaos
  ensues", coin(s), heads, tails, flip / reflip in every form (not "flip it", the flip of a
  Kamigawa flip card), "result(s)" in a text that speaks of dice or coins elsewhere, and
  win/lose in every form (not of life or the game) in a text that speaks of coins elsewhere;
- every other language: the ``dice_words`` and ``coin_words`` of its lexicon
  (``text/lexicons/<code>.json``).

It reads plain text (reminder text is the caller's business: a reminder that defines a roll is
read as that roll by the compiler). What it leaves out: what a sentence means.
"""

from __future__ import annotations

import re
from functools import cache

# Each pattern is compiled when first used (:func:`_pattern`): importing the compiler does not pay for them.
_ENGLISH = (
    r"\b(?:dice|die|d\d+s?|\d+-sided|planar die|re-?roll(?:s|ed|ing)?|roll(?:s|ed|ing)?|chaos ensues"
    r"|coins?|heads|tails|re-?flip(?:s|ped|ping)?)\b"
)
"""The English dice and coin words."""
_FLIP = r"\bflip(?:s|ped|ping)?\b"
_CARD_FLIP = r"\s+(?:it|~|this|them|target)(?!\w)"
"""What follows "flip" when a card is flipped (Kamigawa flip cards), not a coin: "flip it", "flip ~"."""
_RESULT = r"\bresults?\b"
_COIN = r"\b(?:coins?|heads|tails|re-?flip(?:s|ped|ping)?)\b"
_WON_OR_LOST = r"\b(?:win|wins|won|lose|loses|lost)\b(?!\s+(?:(?:\d+|x|that much|that many)\s+)?life\b|\s+the game\b)"
"""A flip won or lost, not life or the game."""


@cache
def _pattern(source: str) -> re.Pattern[str]:
    return re.compile(source, re.IGNORECASE)


@cache
def _foreign() -> tuple[re.Pattern[str], ...]:
    """Each lexicon's dice and coin words (one pattern per language)."""
    # Here, not at the top: the compiler asks in English only, and these imports are heavy.
    import json
    from importlib import resources

    patterns: list[re.Pattern[str]] = []
    folder = resources.files("mtgdice.text.lexicons")
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if not entry.name.endswith(".json") or entry.name == "en.json":
            continue
        data = json.loads(entry.read_text(encoding="utf-8"))
        parts = [part for part in (data.get("dice_words"), data.get("coin_words")) if part]
        if parts:
            patterns.append(re.compile("|".join(f"(?:{part})" for part in parts), re.IGNORECASE))
    return tuple(patterns)


def speaks(sentence: str, *, languages: bool = True) -> bool:
    """Whether a sentence speaks of dice or coins, in English or (``languages``) any language with
    a lexicon. The compiler reads English (other languages are translated before it), so it asks
    without the lexicons.

    >>> speaks("Flip a coin."), speaks("If you win the flip, draw a card."), speaks("Flying")
    (True, True, False)
    >>> speaks("Würfle einen W20."), speaks("Flip ~.")
    (True, False)
    """
    if _pattern(_ENGLISH).search(sentence):
        return True
    if any(not _pattern(_CARD_FLIP).match(sentence, found.end()) for found in _pattern(_FLIP).finditer(sentence)):
        return True
    if not languages:
        return False
    lowered = sentence.lower()
    return any(pattern.search(lowered) for pattern in _foreign())


def speaks_of_result(sentence: str) -> bool:
    """Whether a sentence names a result: marked only inside a text that :func:`speaks` elsewhere.

    >>> speaks_of_result("Scry X, where X is that result.")
    True
    """
    return _pattern(_RESULT).search(sentence) is not None


def speaks_of_coins(text: str) -> bool:
    """Whether a text names coins or their flips (in English).

    >>> speaks_of_coins("Flip two coins."), speaks_of_coins("Roll a d6."), speaks_of_coins("Flip ~.")
    (True, False, False)
    """
    if _pattern(_COIN).search(text):
        return True
    return any(not _pattern(_CARD_FLIP).match(text, found.end()) for found in _pattern(_FLIP).finditer(text))


def speaks_of_winning(sentence: str) -> bool:
    """Whether a sentence names flips won or lost: marked only inside a text that speaks of coins
    elsewhere (life and the game are won and lost too).

    >>> speaks_of_winning("If you lose two of them, sacrifice ~."), speaks_of_winning("You lose 2 life.")
    (True, False)
    """
    return _pattern(_WON_OR_LOST).search(sentence) is not None


def marked(sentences: list[str], *, languages: bool = True) -> list[int]:
    """The indices of the sentences of one text that speak of dice or coins: each that
    :func:`speaks`, each that names a result when another does, and each that names a flip won or
    lost when another names coins.

    >>> marked(["Roll a d6.", "Scry X, where X is that result.", "Flying."])
    [0, 1]
    >>> marked(["Flip two coins.", "If you win both, draw a card.", "You lose 1 life."])
    [0, 1]
    """
    strong = [index for index, sentence in enumerate(sentences) if speaks(sentence, languages=languages)]
    if not strong:
        return []
    coins = any(speaks_of_coins(sentences[index]) for index in strong)
    return [
        index
        for index, sentence in enumerate(sentences)
        if index in strong or speaks_of_result(sentence) or (coins and speaks_of_winning(sentence))
    ]
