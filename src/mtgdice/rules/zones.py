"""Zones a card can be in for a roll (json-interface.md, version 3 ``seats``).

Every player has a battlefield, a graveyard and a command zone. Zone order — every seat's
battlefield in seat order, then every graveyard, then every command zone, list order within each —
is the order effects are met in (docs/design.md §5). :attr:`Zone.PENDING` is no zone of the game: it is
where the table keeps replacement effects created earlier that wait for the next roll they apply to
(json-interface.md ``pending``).
"""

from __future__ import annotations

import enum


class Zone(enum.Enum):
    """Where a card is (or, for :attr:`PENDING`, where a waiting replacement is kept)."""

    BATTLEFIELD = "battlefield"
    GRAVEYARD = "graveyard"
    COMMAND = "command"
    PENDING = "pending"


ZONE_ORDER = (Zone.BATTLEFIELD, Zone.GRAVEYARD, Zone.COMMAND)
"""The zones of a seat, in the order effects are met in."""
