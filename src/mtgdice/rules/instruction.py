"""A roll instruction (CR 706.1, 706.3b): everything one ability says about one roll.

The instruction names the kind and number of dice, the modifier printed with it, how many of
the lowest rolls it ignores itself, whether the roller chooses one result, the results table
(CR 706.3) and when to roll again or repeat (CR 706.3c), and whether its results are stored on
the permanent or reroll the stored ones (CR 706.8). ``purpose`` names a roll made for a game
action ("visit attractions"), which triggers only abilities that ask for it. ``outcomes`` keeps the other instructions
based on the result ("if the result is 3 or less, ...", "if you rolled doubles, ...") for
renderers and the odds engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mtgdice.rules.amounts import Amount
from mtgdice.rules.conditions import Condition
from mtgdice.rules.dice import Die
from mtgdice.rules.tables import ResultsTable


@dataclass(frozen=True, slots=True)
class Outcome:
    """An instruction based on the result that is not a table row.

    ``condition`` is on the die result (or ``None``); ``doubles`` means "if you rolled doubles";
    ``reads`` names what the text uses: ``"result"``, ``"total"``, ``"difference"``, ``"each"``,
    ``"chosen"``, ``"other"``, ``"count"``; ``times`` asks for exactly that many counted dice meeting
    the condition ("if you rolled 6 exactly seven times").
    """

    text: str
    condition: Condition | None = None
    doubles: bool = False
    reads: str = "result"
    times: int | None = None


@dataclass(frozen=True, slots=True)
class RollInstruction:
    """One roll instruction, compiled from text.

    >>> from mtgdice.rules.tables import Row
    >>> spellbook = RollInstruction(Amount(1), Die(20), table=ResultsTable((Row(1, 9), Row(10, 19), Row(20, 20))))
    >>> spellbook.die.name, spellbook.count.value({})
    ('d20', 1)
    """

    count: Amount
    die: Die
    sides_amount: Amount | None = None
    ignore_lowest: int = 0
    keep_highest: int | None = None
    modifier: Amount | None = None
    choose: bool = False
    table: ResultsTable | None = None
    table_each_result: bool = False
    repeat_when: Condition | None = None
    repeat_optional: bool = False
    store: bool = False
    reroll_stored: bool = False
    roller: str = "you"
    purpose: str = ""
    outcomes: tuple[Outcome, ...] = ()
    text: str = ""

    @property
    def roll_again(self) -> bool:
        """Whether a row says to roll again or the text says to repeat (CR 706.3c)."""
        return self.repeat_when is not None or (self.table is not None and self.table.roll_again)

    def die_for(self, amounts: Mapping[str, int]) -> Die:
        """The kind of die, reading a variable number of sides if the card has one."""
        if self.sides_amount is None:
            return self.die
        return Die(self.sides_amount.value(amounts))
