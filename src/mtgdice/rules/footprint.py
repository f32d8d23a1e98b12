"""What an effect reads or changes of a roll: its footprint (docs/design.md, architecture).

Every effect class declares a :class:`Footprint`; so does the roll instruction itself. The odds
engine and the simulation take a shortcut only when the footprint of everything on the board is
inside what that shortcut can handle (:data:`MULTISET_SAFE` and the others below) — default-deny:
an effect class that declares nothing has :attr:`Footprint.UNDECLARED`, which no shortcut accepts,
so a new kind of effect is always resolved the exact way until someone says what it touches.

This module leaves out the shortcuts themselves (``mtgdice.odds``, ``mtgdice.sim``); it only names
the flags and which of them each kind of shortcut tolerates, next to the reason.
"""

from __future__ import annotations

import enum


class Footprint(enum.Flag):
    """The parts of a roll an effect (or an instruction) reads or changes.

    >>> (Footprint.ADDS_DICE | Footprint.IGNORES_LOWEST).within(MULTISET_SAFE)
    True
    >>> Footprint.UNDECLARED.within(MULTISET_SAFE)
    False
    """

    NONE = 0
    ADDS_DICE = enum.auto()
    """Changes how many dice are physically rolled (a replacement, CR 616)."""
    IGNORES_LOWEST = enum.auto()
    """Ignores dice by their face, lowest first (CR 706.6): blind to the order of the dice."""
    GROUPS = enum.auto()
    """Rolls each die with partners and ignores within each group, a choice made by position."""
    IGNORES_CHOSEN = enum.auto()
    """A player picks dice to ignore from the whole roll, by position."""
    REROLLS = enum.auto()
    """Draws new dice in the reroll window (CR 706.2b)."""
    LIMITED = enum.auto()
    """Usable a limited number of times in a resolution (once each turn, a tap, counters to remove):
    which die gets it depends on the order of the dice."""
    MODIFIES = enum.auto()
    """Adds the same amount to every die it sees (CR 706.2)."""
    MODIFIES_CHOSEN = enum.auto()
    """Adds an amount to the dice a player picks, one decision per die (CR 706.2a)."""
    FACES = enum.auto()
    """Changes what a planar face counts as."""
    READS_DIE = enum.auto()
    """Reads one die's value (a condition on a die, a table read per result)."""
    READS_POSITION = enum.auto()
    """Reads a die's position in the roll or in the turn ("your third die each turn")."""
    CHOOSES_RESULT = enum.auto()
    """Picks one counted result (the instruction's "choose one result"), by position."""
    TRIGGERS = enum.auto()
    """Produces triggerings."""
    TURN_STATE = enum.auto()
    """Reads or writes what the turn has done (once-each-turn uses)."""
    BOARD_STATE = enum.auto()
    """Reads a permanent's counters or tapped state."""
    DECIDES = enum.auto()
    """Asks a player a decision (answered by a stateless policy in the odds engine)."""
    CHANGES_ROLLER = enum.auto()
    """The die it makes is rolled by another player (Pippa ruling)."""
    STORED = enum.auto()
    """Reads or writes stored results (CR 706.8)."""
    EACH_PLAYER = enum.auto()
    """Several players roll and their results are compared."""
    MIXED = enum.auto()
    """One roll of dice of several kinds."""
    UNDECLARED = enum.auto()
    """The effect says nothing about itself: every shortcut must refuse it."""

    def within(self, allowed: Footprint) -> bool:
        """Whether every flag of this footprint is one ``allowed`` has."""
        return not (self.value & ~allowed.value)  # on the integers: no composite flag is built


MULTISET_SAFE = (
    Footprint.ADDS_DICE
    | Footprint.IGNORES_LOWEST
    | Footprint.REROLLS
    | Footprint.MODIFIES
    | Footprint.MODIFIES_CHOSEN
    | Footprint.FACES
    | Footprint.READS_DIE
    | Footprint.TRIGGERS
    | Footprint.TURN_STATE
    | Footprint.BOARD_STATE
    | Footprint.DECIDES
)
"""An execution depends on the first roll's faces only as a multiset. Decisions are answered by a
stateless policy from what each decision shows, so a decision about one die does not depend on
where that die is; anything limited, grouped, chosen by position or read by position is out."""

GROUPS_SAFE = (MULTISET_SAFE | Footprint.GROUPS) & ~Footprint.REROLLS
"""The first roll is identical independent groups (a die and its partners): each group can be
reduced to the die it keeps on its own, then the kept dice counted as a multiset. A reroll would
start a new group, so rerolls are out."""

TOTALS_SAFE = MULTISET_SAFE & ~(Footprint.READS_DIE | Footprint.REROLLS | Footprint.MODIFIES_CHOSEN | Footprint.FACES)
"""An execution depends on the counted dice only through their total and whether they are all
alike (CR 706.3a, 706.5): nothing reads one die and every die gets the same modifiers."""

DROPPABLE_REROLL = Footprint.REROLLS | Footprint.READS_DIE | Footprint.DECIDES
"""A reroll effect whose only work is which face each die ends on: no triggers, modifiers, limits,
state or other roller. Once each die's settled face is known (die by die, independently), such an
effect can be left off the board for the rest of the count."""

INDEPENDENT_SAFE = TOTALS_SAFE | Footprint.READS_DIE
"""With the droppable rerolls removed, what the rest of the board may touch for the dice to be
counted as independent settled dice."""
