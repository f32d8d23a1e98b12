"""Dice notation for people: plain rolls (``3d6+2``, ``4d6dl1``, ``adv``, ``6x 4d6kh3``) and
roll-instruction text.

:func:`parse_plain` reads the notation dice bots know into a :class:`~mtgdice.rules.plain.PlainRoll`
(a plain roll: no Magic effect applies to it); it is the one reader of dice notation, for the
command line, the JSON API and the rooms' dice box alike. :func:`instruction_text` says whether a
plain roll is one a card could print (``2d10``, ``d6+1``) and gives it as the card's sentence
("Roll 2 d10."), for the places that roll such dice through the rules (a room's dice box, the
table's dice); :func:`dice_text` does the same for text, the planar die included.

The plain notation, case and spaces aside::

    roll     := [R "x"] sum ["#" label]
    sum      := term (("+" | "-") term)*
    term     := dice  |  N  |  "adv"  |  "dis"
    dice     := [N] "d" (S | "%" | "F") modifier* ["*" M]
    modifier := ("r" | "ro") compare  |  "!" [compare]  |  select [K]
    compare  := ["=" | "<" | "<=" | ">" | ">="] N
    select   := "kh" | "kl" | "dh" | "dl" | "k" (keep highest) | "d" (drop lowest)

``d%`` is a d100, ``dF`` a Fudge die (-1, 0, +1), ``adv`` and ``dis`` are ``2d20kh1`` and
``2d20kl1``; K defaults to 1. ``r1`` rerolls ones (``ro1``: once), ``r<3`` values below 3 (``<``
and ``>`` are strict); ``!`` explodes on the highest face, ``!>5`` above 5; ``*M`` multiplies the
group; ``6x`` rolls the sum six times; a label follows ``#``. Each modifier at most once per group.
This module leaves out rolling (``mtgdice.rules.plain``).
"""

from __future__ import annotations

import re

from mtgdice.rules.errors import InputError
from mtgdice.rules.plain import Comparison, Condition, Constant, DiceGroup, PlainRoll, Selection, Term

PLANAR_TEXT = "Roll the planar die."
PLANAR_WORDS = ("planar", "planar die", "the planar die")


def dice_text(spec: str, max_count: int | None = None) -> str:
    """``2d10``, ``d20``, ``d6+1``, ``planar`` as the text of a roll instruction.

    >>> dice_text("2d10"), dice_text("d6-1"), dice_text("planar")
    ('Roll 2 d10.', 'Roll a d6 and subtract 1 from the result.', 'Roll the planar die.')
    >>> dice_text("4d6dl1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    mtgdice.rules.errors.InputError: dice: '4d6dl1' is plain dice, not a roll a card prints; write NdS ...
    """
    words = spec.strip().lower()
    if words in PLANAR_WORDS:
        return PLANAR_TEXT
    text = instruction_text(parse_plain(spec), max_count)
    if text is None:
        raise InputError(
            "dice", f"{spec[:20]!r} is plain dice, not a roll a card prints; write NdS such as 2d10, d20, d6+1"
        )
    return text


def instruction_text(plain: PlainRoll, max_count: int | None = None) -> str | None:
    """The sentence a card would print for ``plain`` (``2d10``, ``d6+1``), or None when no card
    prints such a roll (kept or dropped dice, rerolls, several groups, more than ``max_count``
    dice, a modifier on several dice ...): then it is plain dice, no Magic roll.

    >>> instruction_text(parse_plain("d20+2")), instruction_text(parse_plain("2d6+1"))
    ('Roll a d20 and add 2 to the result.', None)
    """
    if max_count is None:
        from mtgdice.rules.resolution import MAX_DICE  # here: plain notation does not load the rules pipeline

        max_count = MAX_DICE
    if plain.repeat != 1 or plain.label is not None or not 1 <= len(plain.terms) <= 2:
        return None
    group, *rest = plain.terms
    plain_group = DiceGroup(group.count, group.sides) if isinstance(group, DiceGroup) else None
    if group != plain_group or plain_group is None or not plain_group.count <= max_count:
        return None
    text = f"Roll {'a' if group.count == 1 else group.count} d{group.sides}"
    if rest:
        modifier = rest[0]
        if not isinstance(modifier, Constant) or group.count != 1:
            return None
        if modifier.value:
            verb = "add" if modifier.sign > 0 else "subtract"
            text += f" and {verb} {modifier.value} {'to' if modifier.sign > 0 else 'from'} the result"
    return text + "."


MAX_NOTATION_LENGTH = 500
"""Longest plain notation read (bounded time)."""

_REPEAT = re.compile(r"\s*(?P<repeat>\d+)\s*x\s*", re.IGNORECASE)
_TERM = re.compile(
    r"\s*(?:(?P<word>advantage|adv|disadvantage|dis)"
    r"|(?P<count>\d+)?d(?P<sides>\d+|%|f)"
    r"|(?P<number>\d+))\s*",
    re.IGNORECASE,
)
_COMPARE = r"(?P<op><=|>=|<|>|=)?(?P<value>\d+)"
_MODIFIERS = (
    ("reroll", re.compile(r"(?P<once>ro|r)" + _COMPARE, re.IGNORECASE)),
    ("explode", re.compile(r"!(?:" + _COMPARE + ")?")),
    ("select", re.compile(r"(?P<select>kh|kl|dh|dl|k|d)(?P<selected>\d+)?", re.IGNORECASE)),
)
_FACTOR = re.compile(r"\s*\*\s*(?P<factor>\d+)\s*")
_SIGN = re.compile(r"\s*([+-])")
_SELECTIONS = {"kh": Selection.KEEP_HIGHEST, "k": Selection.KEEP_HIGHEST, "kl": Selection.KEEP_LOWEST}
_SELECTIONS |= {"dh": Selection.DROP_HIGHEST, "dl": Selection.DROP_LOWEST, "d": Selection.DROP_LOWEST}
_COMPARISONS = {comparison.value: comparison for comparison in Comparison}
_HINT = "write dice notation such as 3d6+2, d20, 4d6dl1, 2d20kh1, 4d6r1, 3d6!, 6x 4d6kh3, d%, 4dF or adv"


def parse_plain(notation: str) -> PlainRoll:
    """Read plain dice notation; a one-line :class:`InputError` (field ``dice``) names what is wrong.

    >>> parse_plain("3d6 + 2").notation, parse_plain("adv-1").notation, parse_plain("D%").notation
    ('3d6+2', '2d20kh1-1', 'd%')
    >>> parse_plain("6x 4d6kh3 # stats").notation, parse_plain("4d6r<3!>5*2+1").notation
    ('6x4d6kh3 # stats', '4d6r<3!>5*2+1')
    >>> parse_plain("2x6")
    Traceback (most recent call last):
      ...
    mtgdice.rules.errors.InputError: dice: '2x6' is not dice notation: a roll needs dice, such as 3d6 or d20+1
    """
    if len(notation) > MAX_NOTATION_LENGTH:
        raise InputError("dice", f"{len(notation)} characters of notation; write at most {MAX_NOTATION_LENGTH}")
    shown = repr(notation if len(notation) <= 40 else notation[:39] + "…")
    expression, hashed, label_text = notation.partition("#")
    label = " ".join(label_text.split()) if hashed else None
    if hashed and not label:
        raise InputError("dice", f"{shown}: write a label after '#', or leave the '#' out")
    if not expression.strip():
        raise InputError("dice", f"no dice given; {_HINT}")
    repeat = 1
    position = 0
    repeated = _REPEAT.match(expression)
    if repeated is not None and repeated.end() < len(expression):
        repeat, position = int(repeated.group("repeat")), repeated.end()
    terms = _terms(expression, position, shown)
    if not any(isinstance(term, DiceGroup) for term in terms):
        raise InputError("dice", f"{shown} is not dice notation: a roll needs dice, such as 3d6 or d20+1")
    return PlainRoll(tuple(terms), repeat, label)


def _terms(notation: str, position: int, shown: str) -> list[Term]:
    terms: list[Term] = []
    sign = 1
    while True:
        match = _TERM.match(notation, position)
        if match is None or match.end() == match.start():
            rest = notation[position:].strip()
            if not rest:
                raise InputError("dice", f"{shown} ends with a sign; {_HINT}")
            if not terms and rest[0] in "+-":
                raise InputError("dice", f"{shown}: a roll starts with dice or a number, not a sign; {_HINT}")
            raise InputError("dice", f"{shown} is not dice notation at {rest[:12]!r}; {_HINT}")
        position = match.end()
        term: Term
        if match.group("sides") is not None:
            term, position = _dice(match, sign, notation, shown)
        else:
            term = _simple(match, sign)
        terms.append(term)
        if position == len(notation):
            return terms
        signed = _SIGN.match(notation, position)
        if signed is None:
            rest = notation[position:][:12]
            if notation[position - 1].isspace():
                raise InputError("dice", f"{shown}: expected + or - before {rest!r}; {_HINT}")
            raise InputError("dice", f"{shown} is not dice notation at {rest!r}; {_HINT}")
        sign = 1 if signed.group(1) == "+" else -1
        position = signed.end()


def _simple(match: re.Match[str], sign: int) -> Term:
    word = match.group("word")
    if word is not None:
        advantage = word.lower().startswith("adv")
        return DiceGroup(2, 20, selection=Selection.KEEP_HIGHEST if advantage else Selection.KEEP_LOWEST, sign=sign)
    return Constant(int(match.group("number")), sign)


def _dice(match: re.Match[str], sign: int, notation: str, shown: str) -> tuple[DiceGroup, int]:
    """A dice group and its modifiers (read just after its die), and where the notation goes on."""
    count = int(match.group("count") or 1)
    kind = match.group("sides").lower()
    fudge = kind == "f"
    sides = 3 if fudge else (100 if kind == "%" else int(kind))
    if sides < 1:
        raise InputError("dice", f"{shown}: a die needs 1 or more sides; {_HINT}")
    position = match.start("sides") + len(match.group("sides"))  # modifiers follow the die at once
    found: dict[str, re.Match[str]] = {}
    progress = True
    while progress:
        progress = False
        for name, pattern in _MODIFIERS:
            modifier = pattern.match(notation, position)
            if modifier is None:
                continue
            if name in found:
                raise InputError("dice", f"{shown}: {modifier.group(0)!r} is a second {name} of one group; {_HINT}")
            found[name] = modifier
            position, progress = modifier.end(), True
            break
    highest = 1 if fudge else sides
    reroll = explode = None
    once = False
    if "reroll" in found:
        once = found["reroll"].group("once").lower() == "ro"
        reroll = _condition(found["reroll"])
    if "explode" in found:
        explode = (
            _condition(found["explode"]) if found["explode"].group("value") else Condition(Comparison.EQUAL, highest)
        )
    selection, selected = None, 1
    if "select" in found:
        selection = _SELECTIONS[found["select"].group("select").lower()]
        selected = int(found["select"].group("selected") or 1)
    factor = 1
    multiplied = _FACTOR.match(notation, position)
    if multiplied is not None:
        factor, position = int(multiplied.group("factor")), multiplied.end()
    else:
        spaces = re.compile(r"\s*").match(notation, position)
        position = spaces.end() if spaces is not None else position
    group = DiceGroup(count, sides, fudge, selection, selected, sign, reroll, once, explode, factor)
    return group, position


def _condition(match: re.Match[str]) -> Condition:
    return Condition(_COMPARISONS[match.group("op") or "="], int(match.group("value")))
