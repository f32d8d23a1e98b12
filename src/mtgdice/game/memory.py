"""What a game remembers of a turn across rolls that abilities wrote (json-interface.md v3 ``turn``,
``noted``): flips won and lost by each player, the totals rolled this turn for a permanent's
ability, and the values noted on permanents.

:class:`TableMemory` is a value the :class:`~mtgdice.game.Game` keeps beside its other turn state:
before a roll it goes into the request's turn (and the seats' ``noted``), after the roll the
resolution's new turn comes back into it (:meth:`TableMemory.after`). Flips and totals belong to
the turn they were made in (``turn``) and are forgotten when another turn has begun; a noted value
belongs to its card (by the card's id) and stays until the card leaves the game. The rules that
write these values are in :mod:`mtgdice.rules.memory`; this module only keeps them, keyed by the
game's players and cards instead of seats.

>>> memory = TableMemory(turn=1, flips=(("p1", 2, 1),))
>>> memory.turn_flips(("p2", "p1"), 1), memory.turn_flips(("p1",), 2)
(((0, 0), (2, 1)), ())
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mtgdice.rules.memory import Totals


@dataclass(frozen=True, slots=True)
class TableMemory:
    """The memory abilities wrote: ``flips`` (player id, won, lost) and ``totals`` (permanent's turn
    name, totals) of the turn ``turn``; ``noted`` (card id, value) for good."""

    turn: int = 0
    totals: Totals = ()
    flips: tuple[tuple[str, int, int], ...] = ()
    noted: tuple[tuple[int, int], ...] = ()

    def turn_totals(self, turn: int) -> Totals:
        """The totals rolled during ``turn`` (none once another turn has begun)."""
        return self.totals if turn == self.turn else ()

    def turn_flips(self, owners: Sequence[str], turn: int) -> tuple[tuple[int, int], ...]:
        """Flips won and lost during ``turn`` by seat (``owners``: the player of each seat); empty
        when nobody has flipped a called coin this turn."""
        if turn != self.turn or not self.flips:
            return ()
        known = {player: (won, lost) for player, won, lost in self.flips}
        return tuple(known.get(owner, (0, 0)) for owner in owners)

    def noted_on(self, card_id: int) -> int | None:
        return dict(self.noted).get(card_id)

    def after(
        self,
        turn: int,
        owners: Sequence[str],
        totals: Totals,
        flips: Sequence[tuple[int, int]],
        noted: Mapping[int, int],
    ) -> TableMemory:
        """The memory once a roll of ``turn`` returned its turn's ``totals`` and ``flips`` (by seat,
        ``owners`` the player of each) and ``noted`` values (by card id)."""
        by_player = tuple((owner, won, lost) for owner, (won, lost) in zip(owners, flips, strict=False) if won or lost)
        kept = dict(self.noted)
        kept.update(noted)
        return TableMemory(turn, tuple(totals), by_player, tuple(sorted(kept.items())))
