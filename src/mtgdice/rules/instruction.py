"""A roll instruction (CR 706.1, 706.3b): everything one ability says about one roll.

The instruction names the kind and number of dice, the modifier printed with it, how many of
the lowest rolls it ignores itself, whether the roller chooses one result, the results table
(CR 706.3) and when to roll again or repeat (CR 706.3c), and whether its results are stored on
the permanent or reroll the stored ones (CR 706.8). ``purpose`` names a roll made for a game
action ("visit attractions"), which triggers only abilities that ask for it. ``outcomes`` keeps
the other instructions based on the result ("if the result is 3 or less, ...", "if you rolled
doubles, ...", "if one or more opponents had the highest result, ..."); each one says itself
whether it holds for an execution. ``roller`` says who rolls: the player resolving it, or every
player (then ``compare`` finds the lowest or highest result, rerolling ties when told to).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mtgdice.rules.amounts import Amount
from mtgdice.rules.conditions import Condition, holds_for_total
from mtgdice.rules.dice import Die, DieRoll
from mtgdice.rules.footprint import Footprint
from mtgdice.rules.players import YOU, Scope, Seat
from mtgdice.rules.tables import ResultsTable
from mtgdice.rules.zones import Zone

if TYPE_CHECKING:
    from mtgdice.rules.memory import Recall


class Reads(enum.Enum):
    """What an outcome sentence uses of an execution."""

    RESULT = "result"
    TOTAL = "total"
    """The total of the counted dice ("if the total is 7", "if you rolled 12" after several dice); with
    no condition, a sentence that uses the total."""
    DIFFERENCE = "difference"
    EACH = "each"
    CHOSEN = "chosen"
    OTHER = "other"
    COUNT = "count"
    DOUBLES = "doubles"
    OTHERWISE = "otherwise"
    TIES = "ties"
    STANDING = "standing"
    REMEMBERED = "remembered"
    """The total equals another total rolled this turn for this ability (``turn.totals``)."""
    NOTED = "noted"
    """The total equals the value noted on the permanent (``noted``)."""
    NOTE = "note"
    """ "If you rolled any other total, note that total": holds as "otherwise" does, and notes the total."""


_FIRST_SEAT = YOU
_RECALLED = frozenset({Reads.REMEMBERED, Reads.NOTED})


class Roller(enum.Enum):
    """Who an instruction has roll: the source's controller ("you"), a player the text names, or
    every player (or opponent) in turn order starting from the controller."""

    YOU = "you"
    THAT_PLAYER = "that player"
    TARGET_PLAYER = "target player"
    TARGET_OPPONENT = "target opponent"
    EACH_PLAYER = "each player"
    EACH_OPPONENT = "each opponent"

    @property
    def names_a_player(self) -> bool:
        """Whether the text has another player roll, named by the request (``roller``)."""
        return self in (Roller.THAT_PLAYER, Roller.TARGET_PLAYER, Roller.TARGET_OPPONENT)

    def seats(self, players: int, controller: Seat = _FIRST_SEAT, named: Seat | None = None) -> tuple[Seat, ...]:
        """The seats that roll, in turn order from ``controller``, at a table of ``players``;
        ``named`` is the player a "that player" / "target player" text names.

        >>> Roller.EACH_PLAYER.seats(3, Seat(1)), Roller.EACH_OPPONENT.seats(3), Roller.YOU.seats(3, Seat(2))
        ((1, 2, 0), (1, 2), (2,))
        """
        if self is Roller.EACH_PLAYER:
            return tuple(Seat((controller + step) % players) for step in range(players))
        if self is Roller.EACH_OPPONENT:
            return tuple(Seat((controller + step) % players) for step in range(1, players))
        if self.names_a_player and named is not None:
            return (named,)
        return (controller,)


class Extreme(enum.Enum):
    """Which result a comparison of players' results looks for."""

    LOWEST = "lowest"
    HIGHEST = "highest"


@dataclass(frozen=True, slots=True)
class Comparison:
    """ "The player with the lowest result"; ``break_ties``: "reroll to break ties"."""

    extreme: Extreme
    break_ties: bool = False


@dataclass(frozen=True, slots=True)
class Outcome:
    """An instruction based on the result that is not a table row.

    ``condition`` is on the die result, or on the total of the counted dice when ``reads`` is
    ``Reads.TOTAL`` (or ``None``); ``doubles`` means "if you rolled doubles";
    ``reads`` names what the text uses; ``times`` asks for exactly that many counted dice meeting
    the condition ("if you rolled 6 exactly seven times"); ``who`` and ``extreme`` ask which
    players had the lowest or highest result ("if one or more opponents had the highest result").
    """

    text: str
    condition: Condition | None = None
    doubles: bool = False
    reads: Reads = Reads.RESULT
    times: int | None = None
    who: Scope | None = None
    extreme: Extreme | None = None

    def holds(
        self,
        counted: Sequence[DieRoll],
        doubles: bool,
        standing: Sequence[Seat],
        controller: Seat = YOU,
        recall: Recall | None = None,
    ) -> bool:
        """Whether this outcome's condition holds for an execution's counted dice (``controller``:
        the "you" of "if one or more opponents had the highest result"; ``recall``: what the turn
        and the permanent remember, for an outcome that compares the total with it)."""
        if self.reads in _RECALLED:
            return recall is not None and recall.holds(self.reads is Reads.NOTED, counted)
        if self.doubles:
            return doubles
        if self.who is not None:
            return any(self.who.sees(controller, seat) for seat in standing)
        if self.condition is None:
            return False
        if self.reads is Reads.TOTAL:
            from mtgdice.rules.memory import total  # here: reading card text needs no turn memory

            # CR 706.2, 706.6: the total of the counted dice's results; ignored dice are not counted.
            return holds_for_total(self.condition, total(counted))
        meeting = sum(1 for roll in counted if self.condition.holds(roll))
        return meeting == self.times if self.times is not None else meeting > 0


def outcomes_holding(
    outcomes: Sequence[Outcome],
    counted: Sequence[DieRoll],
    doubles: bool,
    standing: Sequence[Seat],
    controller: Seat = YOU,
    recall: Recall | None = None,
) -> tuple[int, ...]:
    """The indices of the outcomes that hold for an execution. "Otherwise, ..." (and "if you rolled
    any other total, note that total") holds when none of the conditional outcomes since the
    previous "otherwise" did.

    >>> from mtgdice.rules.conditions import InRange
    >>> roll = DieRoll(0, Die(6), 2)
    >>> outcomes_holding((Outcome("high", InRange(5, None)), Outcome("else", reads=Reads.OTHERWISE)), [roll], False, ())
    (1,)
    """
    found: list[int] = []
    held_since = False
    for index, outcome in enumerate(outcomes):
        if outcome.reads is Reads.OTHERWISE or outcome.reads is Reads.NOTE:
            if not held_since:
                found.append(index)
            held_since = False
        elif outcome.holds(counted, doubles, standing, controller, recall):
            found.append(index)
            held_since = True
    return tuple(found)


@dataclass(frozen=True, slots=True)
class DiceGroup:
    """More dice of another kind rolled in the same roll ("roll a d20 and a d6")."""

    count: Amount
    die: Die


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
    roller: Roller = Roller.YOU
    compare: Comparison | None = None
    also: tuple[DiceGroup, ...] = ()
    purpose: str = ""
    outcomes: tuple[Outcome, ...] = ()
    text: str = ""
    functions_from: Zone | None = field(default=Zone.BATTLEFIELD, compare=False)
    """Where the ability that rolls functions from: the battlefield, another zone (the graveyard:
    as it dies, from there), or ``None`` for a roll made as its permanent enters (CR 614.1c). Read
    where a source is placed on the table (json-interface.md v3); not part of what the roll is."""

    @property
    def remembers(self) -> bool:
        """Whether the instruction remembers its totals this turn ("any other total you have rolled
        this turn for this ability"): each execution's total goes into ``turn.totals``."""
        return any(outcome.reads is Reads.REMEMBERED for outcome in self.outcomes)

    @property
    def notes(self) -> bool:
        """Whether an outcome notes the total on the permanent ("note that total")."""
        return any(outcome.reads is Reads.NOTE for outcome in self.outcomes)

    @property
    def counts_several(self) -> bool:
        """Whether an execution counts more than one die (a variable number of dice may be several):
        then what "you rolled" is the total of the counted dice, not one result.

        >>> RollInstruction(Amount(2), Die(6)).counts_several
        True
        >>> RollInstruction(Amount(2), Die(20), ignore_lowest=1).counts_several
        False
        """
        if self.choose:
            return False
        if self.also:
            return True
        if self.keep_highest is not None:
            return self.keep_highest > 1
        return not self.count.fixed or self.count.constant - self.ignore_lowest > 1

    @property
    def roll_again(self) -> bool:
        """Whether a row says to roll again or the text says to repeat (CR 706.3c)."""
        return self.repeat_when is not None or (self.table is not None and self.table.roll_again)

    @property
    def amounts(self) -> tuple[str, ...]:
        """Names of the variable amounts this instruction needs, in the order it reads them."""
        names: list[str] = []
        for amount in (self.count, self.sides_amount, self.modifier, *(group.count for group in self.also)):
            if amount is not None and amount.name is not None and amount.name not in names:
                names.append(amount.name)
        return tuple(names)

    def die_for(self, amounts: Mapping[str, int]) -> Die:
        """The kind of die, reading a variable number of sides if the card has one."""
        if self.sides_amount is None:
            return self.die
        return Die(self.sides_amount.value(amounts))

    def footprint(self) -> Footprint:
        """What the instruction itself reads of its roll, beyond counting and the table by value.

        >>> RollInstruction(Amount(2), Die(10), choose=True).footprint() == Footprint.CHOOSES_RESULT
        True
        """
        found = Footprint.NONE
        if self.choose:
            found |= Footprint.CHOOSES_RESULT
        if self.table_each_result or self.repeat_when is not None:
            found |= Footprint.READS_DIE
        if any(outcome.condition is not None for outcome in self.outcomes):
            # An outcome on the total reads this too: the totals shortcuts key an execution by its
            # table row and doubles only, so they must not take it (each multiset is resolved).
            found |= Footprint.READS_DIE
        if self.repeat_optional or (self.table is not None and any(r.roll_again_optional for r in self.table.rows)):
            found |= Footprint.DECIDES
        if self.store or self.reroll_stored:
            found |= Footprint.STORED
        if self.roller in (Roller.EACH_PLAYER, Roller.EACH_OPPONENT) or self.compare is not None:
            found |= Footprint.EACH_PLAYER
        if self.ignore_lowest or self.keep_highest is not None:
            found |= Footprint.IGNORES_LOWEST
        if self.also:
            found |= Footprint.MIXED
        return found
