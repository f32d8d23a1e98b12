"""Preparing Oracle text for the dice grammar: reminder text, self references, numbers, dashes.

The compiler matches lower-case text in which number words are digits ("two d20" → "2 d20",
"six-sided" → "6-sided"), every dash is an em dash, quotes are straight, and the card's own
name or "this creature" is ``~``. The original wording is kept beside it for messages.
This module knows English words only; other languages are lexicons in ``text/lexicons``.
"""

from __future__ import annotations

import re
from functools import lru_cache

NUMBER_WORDS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "hundred": 100,
    "one hundred": 100,
    "a hundred": 100,
}


def _alternation(words: list[str]) -> str:
    """A pattern for any of ``words``, written as a tree of their common beginnings, each longer
    word tried before its prefix ("eighteen" before "eight"): the matcher tests one letter per
    branch instead of every word at every place.

    >>> _alternation(["eight", "eighteen", "two"])
    '(?:eight(?:een)?|two)'
    """
    if words == [""]:
        return ""
    branches = []
    for letter in sorted({word[0] for word in words if word}):
        rests = [word[1:] for word in words if word[:1] == letter]
        longer = [rest for rest in rests if rest]
        tail = _alternation(longer) if longer else ""
        if "" in rests and tail:  # the word may end here: what follows is optional
            tail = (tail if tail.startswith("(?:") else f"(?:{tail})") + "?"
        branches.append(re.escape(letter) + tail)
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


_NUMBER_WORD = re.compile(r"\b(" + _alternation(list(NUMBER_WORDS)) + r")\b")
_PARENTHESIS = re.compile(r"[()]")
_PUNCTUATION = str.maketrans(
    {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', **dict.fromkeys("\u2012\u2013\u2015\u2212", "\u2014")}
)
"""Curly quotes to straight ones, every dash to an em dash (one pass, no pattern)."""
_CHANGED = "".join(chr(code) for code in _PUNCTUATION)
"""The characters :data:`_PUNCTUATION` changes."""
_SELF = re.compile(
    r"\bthis (?:creature|artifact|enchantment|equipment|vehicle|card|permanent|land|spell|"
    r"planeswalker|plane|phenomenon|host|contraption|attraction|class)\b"
)
"""In lower case (the matching form is lowered first)."""
_SPACES = re.compile(r"[ \t]+")


_DEFINING_REMINDER = re.compile(r"\((?P<roll>(?:Roll|Flip) [^()]*?)[.!]?\)")


def promote_defining_reminders(text: str) -> str:
    """Reminder text that is itself a roll or flip instruction ("make a charisma check. (Roll a
    d20.)") defines the roll the ability makes: it becomes rules text, a sentence of its own.

    >>> promote_defining_reminders("Make a strength check. (Roll a d20.) If the result is 15, draw.")
    'Make a strength check. Roll a d20. If the result is 15, draw.'
    """
    if "(" not in text:
        return text
    return _DEFINING_REMINDER.sub(lambda found: found.group("roll") + ".", text)


def strip_reminder(text: str) -> str:
    """Remove reminder text in parentheses (it explains rules and never adds any).

    >>> strip_reminder("Roll a d20 (a twenty-sided die). If you roll a 20, draw a card.")
    'Roll a d20. If you roll a 20, draw a card.'
    """
    if "(" not in text:
        return text
    # One pass over the parentheses with a stack (linear however deep they nest): every matched
    # pair goes, with the spaces before it; an unmatched "(" or ")" stays.
    spans: list[tuple[int, int]] = []
    opened: list[int] = []
    for paren in _PARENTHESIS.finditer(text):
        if paren.group() == "(":
            opened.append(paren.start())
        elif opened:
            start = opened.pop()
            while start > 0 and text[start - 1].isspace():
                start -= 1
            spans.append((start, paren.end()))
    kept: list[str] = []
    position = 0
    for start, end in sorted(spans):
        if end <= position:
            continue  # inside a group already removed
        kept.append(text[position : max(start, position)])
        position = end
    kept.append(text[position:])
    return "".join(kept)


def standard_punctuation(text: str) -> str:
    """Curly quotes to straight ones, every dash to an em dash, runs of spaces to one."""
    # Each change is looked for before it is made (most texts need neither; translating a text
    # that is not ASCII costs a dictionary look-up per character); the characters
    # :data:`_PUNCTUATION` changes are none of them ASCII.
    if not text.isascii() and any(character in text for character in _CHANGED):
        text = text.translate(_PUNCTUATION)
    return _SPACES.sub(" ", text) if "  " in text or "\t" in text else text


def self_names(name: str) -> tuple[str, ...]:
    """The ways a card names itself: its full name, each face, and a legendary short name.

    >>> self_names("Ayla, Keeper of Dice")
    ('Ayla, Keeper of Dice', 'Ayla')
    """
    names: list[str] = []
    for face in (part.strip() for part in name.split("//")):
        if face and face not in names:
            names.append(face)
        short = face.split(",")[0].strip()
        if short and short != face and len(short) >= 3 and short not in names:
            names.append(short)
    return tuple(names)


def replace_self(text: str, name: str) -> str:
    """Write the card's own name as ``~`` (CR 201.5: a card's name in its text means itself).

    "This creature" and the like become ``~`` in the matching form (:func:`for_matching`), so
    the original wording survives for people."""
    for own in sorted(self_names(name), key=len, reverse=True):
        # Case matters: a card named "Eight-Sided Die" names itself so; "an eight-sided die" is a die.
        text = _replace_word(text, own)
    return text


def _is_word(char: str) -> bool:
    """A word character as a regular expression's ``\\w`` reads it."""
    return char.isalnum() or char == "_"


def _replace_word(text: str, own: str) -> str:
    """``own`` written ``~`` wherever it stands as a word of its own: no word character or
    apostrophe before it, no word character after (the same as the pattern ``(?<![\\w'])own(?!\\w)``,
    without compiling one pattern per card name)."""
    if not own:
        return text
    kept: list[str] = []
    position = start = 0
    while (found := text.find(own, start)) >= 0:
        end = found + len(own)
        before = text[found - 1] if found else ""
        after = text[end] if end < len(text) else ""
        if (before and (_is_word(before) or before == "'")) or (after and _is_word(after)):
            start = found + 1
            continue
        kept += (text[position:found], "~")
        position = start = end
    return "".join(kept) + text[position:] if kept else text


def words_to_numbers(text: str) -> str:
    """Number words as digits, for matching: "two d20" → "2 d20", "twenty-sided" → "20-sided".

    >>> words_to_numbers("roll two twenty-sided dice")
    'roll 2 20-sided dice'
    """
    return _NUMBER_WORD.sub(lambda match: str(NUMBER_WORDS[match.group(1).lower()]), text)


_NUMBER_RANGE = re.compile(r"(?<=\d)\s*-\s*(?=\d)")
_LIST_DASH = re.compile(r"^(\s*(?:\u2022\s*)?\d+\+?(?:\s*\u2014\s*\d+|\s+or\s+\d+)?)\s+-\s+")


def for_matching(text: str) -> str:
    """The form the grammar reads: lower case, standard punctuation, numbers as digits, and
    "this creature" (or artifact, card, ...) written ``~`` like the card's name.

    Hyphens between numbers are range dashes ("1-9" reads as "1—9"), and so is a spaced hyphen
    after a list item's number ("2 - menace").

    >>> for_matching("1-9 | Create two tokens.")
    '1—9 | create 2 tokens.'

    Dice written in notation read as words: "roll 2d6" is "roll 2 d6", "+1" after them "and add 1".

    >>> for_matching("Roll 2d6+1.")
    'roll 2 d6 and add 1.'
    """
    # The compiler asks again for the same sentences (abilities, rules, costs): short texts are
    # remembered, so memory stays bounded (a card's whole text may be 20 000 characters).
    return _matching_form(text) if len(text) <= _CACHED_LENGTH else _matching_form.__wrapped__(text)


_CACHED_LENGTH = 600


@lru_cache(maxsize=4096)
def _matching_form(text: str) -> str:
    # Lower case first, so every pattern below is case-sensitive; each runs only where its
    # first word or character occurs (most sentences need few of them).
    text = standard_punctuation(text).lower()
    if "this " in text:
        text = _SELF.sub("~", text)
    if _NOTATION_HINT.search(text):
        text = _NOTATION.sub(_notation_words, text)
    if "roll d" in text or "rolls d" in text:
        text = _BARE_DIE.sub("\\1 a \\2", text)
    if "-" in text:
        text = _LIST_DASH.sub("\\1 \u2014 ", _NUMBER_RANGE.sub("\u2014", text))
    return words_to_numbers(text).strip()


_NOTATION = re.compile(r"(?<![\w/+-])(\d*)d(\d+)([+-]\d+)?(?![\w/])")
"""Dice notation on a card, in lower case: ``2d6``, ``d20``, ``1d4+1`` (not inside a word, a mana
cost or "+1/+1")."""


_NOTATION_HINT = re.compile(r"d\d")
_BARE_DIE = re.compile(r"\b((?:re)?rolls?) (d\d+)\b")
"""A die in notation with no count after "roll" ("roll d12"): one die (in lower case)."""


def _notation_words(found: re.Match[str]) -> str:
    count, sides, modifier = found.group(1), found.group(2), found.group(3)
    written = f"{count} d{sides}" if count else f"d{sides}"
    if not modifier:
        return written
    return f"{written} and {'add' if modifier[0] == '+' else 'subtract'} {modifier[1:]}"
