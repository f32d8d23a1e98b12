"""What abilities write into the turn's memory and onto permanents (json-interface.md v3 ``turn``,
``noted``), in one place.

A resolution reads and writes three memories besides the dice:

- **totals rolled this turn for an ability** ("if the total is equal to any other total you have
  rolled this turn for this ability, ..."): each execution of an instruction that reads them adds its
  total, after its own outcomes were read (the total is compared with the *other* totals); a roll
  again within the same resolution sees the totals before it. They are kept by permanent
  (``NAME``, or ``NAME#k`` for the k-th permanent of that name, :meth:`Board.ordinals`) and last
  until the turn ends. Only whether a total was rolled matters, so each is kept once.
- **a value noted on a permanent** ("if you rolled any other total, note that total"; "if you roll
  the noted total, ..."): the total of the execution whose noting outcome held; it belongs to the
  permanent and outlasts the turn (the output's ``noted``, the zone item's ``noted``).
- **coin flips won and lost this turn**, by seat (CR 705.1: only a called flip is won or lost; an
  ignored or reflipped-away coin never counts).

:class:`Recall` is what an execution's outcomes compare its total with. The turn itself is
:class:`mtgdice.rules.resolution.TurnState`; the functions here compute its new ``totals`` and
``flips`` (this module imports nothing that imports it, so the instruction can read a recall).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mtgdice.rules.dice import DieRoll
from mtgdice.rules.players import Seat

Totals = tuple[tuple[str, tuple[int, ...]], ...]
"""Totals rolled this turn by permanent (``turn.totals``), in the order the permanents first rolled."""
Flips = tuple[tuple[int, int], ...]
"""Coin flips won and lost this turn, by seat (``turn.flips``)."""


def total(counted: Sequence[DieRoll]) -> int | None:
    """The total of counted dice, ``None`` with no die or a planar die among them.

    >>> from mtgdice.rules.dice import Die
    >>> total([DieRoll(0, Die(6), 3), DieRoll(1, Die(6), 4)]), total([])
    (7, None)
    """
    found = 0
    for roll in counted:
        result = roll.result
        if result is None:
            return None
        found += result
    return found if counted else None


@dataclass(frozen=True, slots=True)
class Recall:
    """What an execution's outcomes compare its total with: the totals rolled earlier this turn for
    this ability (``earlier``) and the value noted on its permanent (``noted``).

    >>> from mtgdice.rules.dice import Die
    >>> dice = [DieRoll(0, Die(6), 3), DieRoll(1, Die(6), 4)]
    >>> Recall((7, 9)).holds(False, dice), Recall((9,), noted=7).holds(True, dice), Recall().holds(True, dice)
    (True, True, False)
    """

    earlier: tuple[int, ...] = ()
    noted: int | None = None

    def holds(self, noted: bool, counted: Sequence[DieRoll]) -> bool:
        """Whether the counted dice's total equals the noted value (``noted``), or else one of the
        totals rolled earlier this turn for this ability."""
        value = total(counted)
        if value is None:
            return False
        if noted:
            return self.noted is not None and value == self.noted
        return value in self.earlier

    def after(self, value: int | None) -> Recall:
        """The recall of the next execution of the same resolution, once this one rolled ``value``."""
        if value is None or value in self.earlier:
            return self
        return Recall((*self.earlier, value), self.noted)


def permanent_name(name: str, k: int = 0) -> str:
    """How the turn names a permanent: ``NAME`` for the first of its name, ``NAME#k`` for a later one.

    >>> permanent_name("Imp"), permanent_name("Imp", 2)
    ('Imp', 'Imp#2')
    """
    return name if k == 0 else f"{name}#{k}"


def same_permanent(key: str, name: str) -> bool:
    """Whether a key of the turn names the permanent ``name`` (``NAME`` and ``NAME#0`` are one).

    >>> same_permanent("Imp#0", "Imp"), same_permanent("Imp", "Imp#1")
    (True, False)
    """
    return key.removesuffix("#0") == name.removesuffix("#0")


def totals_of(totals: Totals, name: str) -> tuple[int, ...]:
    """The totals rolled this turn for the ability of the permanent ``name``.

    >>> totals_of((("Imp", (7, 9)),), "Imp#0")
    (7, 9)
    """
    for key, values in totals:
        if same_permanent(key, name):
            return values
    return ()


def with_totals(totals: Totals, name: str, values: Iterable[int]) -> Totals:
    """``totals`` with ``values`` rolled for the permanent ``name`` (each total kept once, in the
    order first rolled).

    >>> with_totals((("Imp", (7,)),), "Imp", (9, 7))
    (('Imp', (7, 9)),)
    >>> with_totals((), "Imp#1", (4,))
    (('Imp#1', (4,)),)
    """
    new = tuple(values)
    if not new:
        return totals
    found = False
    kept: list[tuple[str, tuple[int, ...]]] = []
    for key, known in totals:
        if same_permanent(key, name):
            found = True
            known = tuple(dict.fromkeys((*known, *new)))
        kept.append((key, known))
    if not found:
        kept.append((name.removesuffix("#0"), tuple(dict.fromkeys(new))))
    return tuple(kept)


def with_flips(flips: Flips, results: Iterable[tuple[Seat, bool | None]], players: int) -> Flips:
    """``flips`` with the counted coins ``results`` (each its flipper's seat and whether it was won;
    ``None``: an uncalled flip, neither won nor lost, CR 705.2), one entry per seat of the table.

    >>> with_flips(((1, 0),), [(Seat(0), True), (Seat(1), False), (Seat(0), None)], 2)
    ((2, 0), (0, 1))
    """
    counts = [list(pair) for pair in flips]
    for seat, won in results:
        if won is None:
            continue
        while len(counts) <= seat:
            counts.append([0, 0])
        counts[seat][0 if won else 1] += 1
    if counts:  # every seat has an entry once any has
        counts += [[0, 0] for _ in range(players - len(counts))]
    return tuple((won, lost) for won, lost in counts)
