"""Dice notation for people (``2d10``, ``d20``, ``d6+1``, ``planar``) as roll-instruction text.

Plain rolls are written as the sentence a card would print ("Roll 2 d10.") and compiled like any
card text, so one code path resolves them and a log can replay them. This module leaves out
keep/drop notation ("2d20kh1"): in Magic that is an effect on the board, not part of the roll.
"""

from __future__ import annotations

import re

from mtgdice.rules.errors import InputError
from mtgdice.rules.resolve import MAX_DICE

_DICE = re.compile(r"^(?P<count>\d{0,5})d(?P<sides>\d{1,6})(?P<modifier>[+-]\d{1,4})?$")
PLANAR_TEXT = "Roll the planar die."
PLANAR_WORDS = ("planar", "planar die", "the planar die")


def dice_text(spec: str, max_count: int = MAX_DICE) -> str:
    """``2d10``, ``d20``, ``d6+1``, ``planar`` as the text of a roll instruction.

    >>> dice_text("2d10"), dice_text("d6-1"), dice_text("planar")
    ('Roll 2 d10.', 'Roll a d6 and subtract 1 from the result.', 'Roll the planar die.')
    >>> dice_text("d0")
    Traceback (most recent call last):
      ...
    mtgdice.rules.errors.InputError: dice: 'd0' needs 1 or more sides; write NdS such as 2d10, d20, d6+1
    """
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
