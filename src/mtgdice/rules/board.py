"""The board a roll resolves against: permanents in the roller's zones, with their effects.

A :class:`Permanent` is a card in a zone with its compiled effects and its state (Class level,
counters, tapped, stored results, CR 706.8). Zone order — battlefield, opponents, graveyard,
command, list order within each — is the order effects are met in (DESIGN.md §3.5).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from mtgdice.rules.dice import Die
from mtgdice.rules.effects import ZONE_ORDER, Effect, Zone


@dataclass(frozen=True, slots=True)
class Permanent:
    """A card in a zone.

    >>> Permanent("Guide").level
    1
    """

    name: str
    effects: tuple[Effect, ...] = ()
    level: int = 1
    counters: tuple[tuple[str, int], ...] | None = None
    tapped: bool = False
    stored: tuple[int, ...] | None = None
    stored_die: Die | None = None

    def counter(self, kind: str) -> int | None:
        """How many ``kind`` counters it has, or ``None`` when its counters were not given."""
        if self.counters is None:
            return None
        return dict(self.counters).get(kind, 0)


@dataclass(frozen=True, slots=True)
class Board:
    """The roller's view of the game: four zones of cards.

    >>> Board(battlefield=(Permanent("Guide"),)).count()
    1
    """

    battlefield: tuple[Permanent, ...] = ()
    opponents: tuple[Permanent, ...] = ()
    graveyard: tuple[Permanent, ...] = ()
    command: tuple[Permanent, ...] = ()

    def zone(self, zone: Zone) -> tuple[Permanent, ...]:
        return {
            Zone.BATTLEFIELD: self.battlefield,
            Zone.OPPONENTS: self.opponents,
            Zone.GRAVEYARD: self.graveyard,
            Zone.COMMAND: self.command,
        }[zone]

    def count(self) -> int:
        return sum(len(self.zone(zone)) for zone in ZONE_ORDER)

    def cards(self) -> Iterator[tuple[Zone, Permanent]]:
        """Every card with its zone, in zone order."""
        for zone in ZONE_ORDER:
            for permanent in self.zone(zone):
                yield zone, permanent

    def active(self) -> Iterator[tuple[Zone, int, Permanent, Effect]]:
        """Every effect that functions where its card is, in zone order.

        An effect functions in the zone the compiler gave it; the opponents' battlefield counts as
        a battlefield whose controller is not the roller (their "you" effects see other rolls).
        """
        for zone in ZONE_ORDER:
            for position, permanent in enumerate(self.zone(zone)):
                for effect in permanent.effects:
                    where = Zone.BATTLEFIELD if zone is Zone.OPPONENTS else zone
                    if effect.zone is not where or effect.level > permanent.level:
                        continue
                    # "you" effects see their controller's rolls, "opponent" effects the others'.
                    if (zone is Zone.OPPONENTS) == (effect.scope == "you"):
                        if effect.scope != "any":
                            continue
                    yield zone, position, permanent, effect
