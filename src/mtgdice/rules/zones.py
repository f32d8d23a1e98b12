"""Zones a card can be in for a roll, and who controls what is there (json-interface.md zones).

Zone order — battlefield, opponents, graveyard, command — is the order effects are met in
(docs/design.md §5); list order within a zone comes after it.
"""

from __future__ import annotations

import enum
from typing import Protocol, TypeVar

from mtgdice.rules.players import OPPONENT, YOU, Seat

T_co = TypeVar("T_co", covariant=True)


class Zone(enum.Enum):
    """Where a permanent or card is, from the roller's side."""

    BATTLEFIELD = "battlefield"
    OPPONENTS = "opponents"
    GRAVEYARD = "graveyard"
    COMMAND = "command"

    @property
    def controller(self) -> Seat:
        """Who controls a card here: an opponent for the opponents' battlefield, else the roller.

        >>> Zone.OPPONENTS.controller, Zone.GRAVEYARD.controller
        (1, 0)
        """
        return OPPONENT if self is Zone.OPPONENTS else YOU

    @property
    def functions_as(self) -> Zone:
        """The zone an ability must name to work here: the opponents' battlefield is a battlefield."""
        return Zone.BATTLEFIELD if self is Zone.OPPONENTS else self


ZONE_ORDER = (Zone.BATTLEFIELD, Zone.OPPONENTS, Zone.GRAVEYARD, Zone.COMMAND)


class Zones(Protocol[T_co]):
    """Anything with the four zones as fields (a board of permanents, a request's zone items)."""

    @property
    def battlefield(self) -> tuple[T_co, ...]: ...
    @property
    def opponents(self) -> tuple[T_co, ...]: ...
    @property
    def graveyard(self) -> tuple[T_co, ...]: ...
    @property
    def command(self) -> tuple[T_co, ...]: ...


def in_zone(zones: Zones[T_co], zone: Zone) -> tuple[T_co, ...]:
    """What ``zones`` holds in ``zone``."""
    if zone is Zone.BATTLEFIELD:
        return zones.battlefield
    if zone is Zone.OPPONENTS:
        return zones.opponents
    if zone is Zone.GRAVEYARD:
        return zones.graveyard
    return zones.command
