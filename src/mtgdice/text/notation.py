"""Dice notation for people: plain rolls (``3d6+2``, ``4d6dl1``, ``adv``) and roll-instruction text.

:func:`parse_plain` reads the notation dice bots know into a :class:`~mtgdice.rules.plain.PlainRoll`
(a plain roll: no Magic effect applies to it). :func:`dice_text` writes ``2d10``, ``d6+1`` or
``planar`` as the sentence a card would print ("Roll 2 d10."), for the places that roll such dice
through the rules (the planar die, the web table's dice).

The plain notation, case and spaces aside::

    roll  := term (("+" | "-") term)*
    term  := [N] "d" (S | "%" | "F") [select [K]]  |  N  |  "adv"  |  "dis"
    select := "kh" | "kl" | "dh" | "dl" | "k" (keep highest) | "d" (drop lowest)

``d%`` is a d100, ``dF`` a Fudge die (-1, 0, +1), ``adv`` and ``dis`` are ``2d20kh1`` and
``2d20kl1``; K defaults to 1. This module leaves out rolling (``mtgdice.rules.plain``).
"""

from __future__ import annotations

import re

from mtgdice.rules.errors import InputError
from mtgdice.rules.plain import Constant, DiceGroup, PlainRoll, Selection, Term

_DICE = re.compile(r"^(?P<count>\d{0,5})d(?P<sides>\d{1,6})(?P<modifier>[+-]\d{1,4})?$")
PLANAR_TEXT = "Roll the planar die."
PLANAR_WORDS = ("planar", "planar die", "the planar die")


def dice_text(spec: str, max_count: int | None = None) -> str:
    """``2d10``, ``d20``, ``d6+1``, ``planar`` as the text of a roll instruction.

    >>> dice_text("2d10"), dice_text("d6-1"), dice_text("planar")
    ('Roll 2 d10.', 'Roll a d6 and subtract 1 from the result.', 'Roll the planar die.')
    >>> dice_text("d0")
    Traceback (most recent call last):
      ...
    mtgdice.rules.errors.InputError: dice: 'd0' needs 1 or more sides; write NdS such as 2d10, d20, d6+1
    """
    if max_count is None:
        from mtgdice.rules.resolution import MAX_DICE  # here: plain notation does not load the rules pipeline

        max_count = MAX_DICE
    words = spec.strip().lower()
    if words in PLANAR_WORDS:
        return PLANAR_TEXT
    match = _DICE.match(words)
    if match is None:
        raise InputError("dice", f"{spec[:20]!r} is not a roll; write NdS such as 2d10, d20, d6+1, or planar")
    count = int(match.group("count") or 1)
    sides = int(match.group("sides"))
    if sides < 1:
        raise InputError("dice", f"{spec!r} needs 1 or more sides; write NdS such as 2d10, d20, d6+1")
    if not 1 <= count <= max_count:
        raise InputError("dice", f"{spec!r}: roll 1 to {max_count} dice at once")
    text = f"Roll {'a' if count == 1 else count} d{sides}"
    modifier = int(match.group("modifier") or 0)
    if modifier and count != 1:
        raise InputError("dice", f"{spec!r}: a modifier applies to one die; roll {count}d{sides} without it")
    if modifier > 0:
        text += f" and add {modifier} to the result"
    elif modifier < 0:
        text += f" and subtract {-modifier} from the result"
    return text + "."


MAX_NOTATION_LENGTH = 500
"""Longest plain notation read (bounded time)."""

_TERM = re.compile(
    r"\s*(?:(?P<word>advantage|adv|disadvantage|dis)"
    r"|(?P<count>\d+)?d(?P<sides>\d+|%|f)(?:(?P<select>kh|kl|dh|dl|k|d)(?P<selected>\d+)?)?"
    r"|(?P<number>\d+))\s*",
    re.IGNORECASE,
)
_SIGN = re.compile(r"\s*([+-])")
_SELECTIONS = {"kh": Selection.KEEP_HIGHEST, "k": Selection.KEEP_HIGHEST, "kl": Selection.KEEP_LOWEST}
_SELECTIONS |= {"dh": Selection.DROP_HIGHEST, "dl": Selection.DROP_LOWEST, "d": Selection.DROP_LOWEST}
_HINT = "write dice notation such as 3d6+2, d20, 4d6dl1, 2d20kh1, d%, 4dF or adv"


def parse_plain(notation: str) -> PlainRoll:
    """Read plain dice notation; a one-line :class:`InputError` (field ``dice``) names what is wrong.

    >>> parse_plain("3d6 + 2").notation, parse_plain("adv-1").notation, parse_plain("D%").notation
    ('3d6+2', '2d20kh1-1', 'd%')
    >>> parse_plain("2x6")
    Traceback (most recent call last):
      ...
    mtgdice.rules.errors.InputError: dice: '2x6' is not dice notation at 'x6'; write dice notation such as 3d6+2, ...
    """
    if len(notation) > MAX_NOTATION_LENGTH:
        raise InputError("dice", f"{len(notation)} characters of notation; write at most {MAX_NOTATION_LENGTH}")
    shown = repr(notation if len(notation) <= 40 else notation[:39] + "…")
    if not notation.strip():
        raise InputError("dice", f"no dice given; {_HINT}")
    terms: list[Term] = []
    position, sign = 0, 1
    while True:
        match = _TERM.match(notation, position)
        if match is None or match.end() == match.start():
            rest = notation[position:].strip()
            if not rest:
                raise InputError("dice", f"{shown} ends with a sign; {_HINT}")
            if not terms and rest[0] in "+-":
                raise InputError("dice", f"{shown}: a roll starts with dice or a number, not a sign; {_HINT}")
            raise InputError("dice", f"{shown} is not dice notation at {rest[:12]!r}; {_HINT}")
        terms.append(_term(match, sign, shown))
        position = match.end()
        if position == len(notation):
            break
        signed = _SIGN.match(notation, position)
        if signed is None:
            rest = notation[position:][:12]
            if notation[position - 1].isspace():
                raise InputError("dice", f"{shown}: expected + or - before {rest!r}; {_HINT}")
            raise InputError("dice", f"{shown} is not dice notation at {rest!r}; {_HINT}")
        sign = 1 if signed.group(1) == "+" else -1
        position = signed.end()
    return PlainRoll(tuple(terms))


def _term(match: re.Match[str], sign: int, shown: str) -> Term:
    word = match.group("word")
    if word is not None:
        advantage = word.lower().startswith("adv")
        return DiceGroup(2, 20, selection=Selection.KEEP_HIGHEST if advantage else Selection.KEEP_LOWEST, sign=sign)
    if match.group("number") is not None:
        return Constant(int(match.group("number")), sign)
    count = int(match.group("count") or 1)
    kind = match.group("sides").lower()
    fudge = kind == "f"
    sides = 3 if fudge else (100 if kind == "%" else int(kind))
    if sides < 1:
        raise InputError("dice", f"{shown}: a die needs 1 or more sides; {_HINT}")
    select = match.group("select")
    if select is None:
        return DiceGroup(count, sides, fudge, sign=sign)
    return DiceGroup(count, sides, fudge, _SELECTIONS[select.lower()], int(match.group("selected") or 1), sign)
