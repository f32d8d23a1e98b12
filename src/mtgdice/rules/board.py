"""The board a roll resolves against: permanents in the roller's zones, with their effects.

A :class:`Permanent` is a card in a zone with its compiled effects and its state (Class level,
counters, tapped, stored results, CR 706.8). A :class:`Holder` is one effect found on the board
with where it is: the resolver hands it to the effect, which asks it whose rolls it sees and who
controls it. Zone order — battlefield, opponents, graveyard, command, list order within each — is
the order effects are met in (docs/design.md §5).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from mtgdice.rules.dice import Die
from mtgdice.rules.effects.base import EffectBase
from mtgdice.rules.footprint import Footprint
from mtgdice.rules.players import Seat
from mtgdice.rules.zones import ZONE_ORDER, Zone, in_zone

E = TypeVar("E", bound=EffectBase, covariant=True)


@dataclass(frozen=True, slots=True)
class Permanent:
    """A card in a zone. ``seat`` is its controller for a card in the opponents' zone (1: the
    first opponent).

    >>> Permanent("Guide").level
    1
    """

    name: str
    effects: tuple[EffectBase, ...] = ()
    level: int = 1
    counters: tuple[tuple[str, int], ...] | None = None
    tapped: bool = False
    stored: tuple[int, ...] | None = None
    stored_die: Die | None = None
    seat: Seat | None = None

    def counter(self, kind: str) -> int | None:
        """How many ``kind`` counters it has, or ``None`` when its counters were not given."""
        if self.counters is None:
            return None
        return dict(self.counters).get(kind, 0)


@dataclass(frozen=True, slots=True)
class Holder(Generic[E]):
    """An effect on the board: the card that has it, where, and which of its abilities it is."""

    zone: Zone
    position: int
    permanent: Permanent
    effect: E
    ability: int = 0
    controller: Seat = field(default=Seat(0))

    @property
    def name(self) -> str:
        return self.permanent.name

    @property
    def key(self) -> str:
        """This card in this zone position (one permanent can be tapped once)."""
        return f"{self.permanent.name}#{self.position}@{self.zone.value}"

    @property
    def once_key(self) -> str:
        """The key of a "once each turn" use: the card's name and which ability (kept across rolls)."""
        return f"{self.permanent.name}#{self.ability}"

    def sees(self, roller: Seat) -> bool:
        """Whether this effect sees a roll by ``roller`` (its scope against its controller)."""
        return self.effect.scope.sees(self.controller, roller)


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
        return in_zone(self, zone)

    def count(self) -> int:
        return sum(len(self.zone(zone)) for zone in ZONE_ORDER)

    def cards(self) -> Iterator[tuple[Zone, Permanent]]:
        """Every card with its zone, in zone order."""
        for zone in ZONE_ORDER:
            for permanent in self.zone(zone):
                yield zone, permanent

    def holders(self) -> Iterator[Holder[EffectBase]]:
        """Every effect that functions where its card is (its zone, its Class level), in zone order,
        whoever rolls; the opponents' battlefield counts as a battlefield."""
        for zone in ZONE_ORDER:
            where = zone.functions_as
            for position, permanent in enumerate(self.zone(zone)):
                controller = permanent.seat if permanent.seat is not None else zone.controller
                for ability, effect in enumerate(permanent.effects):
                    if effect.zone is where and effect.level <= permanent.level:
                        yield Holder(zone, position, permanent, effect, ability, controller)

    def footprint(self) -> Footprint:
        """Everything the board's functioning effects read or change of a roll.

        >>> from mtgdice.rules.effects.trigger import Trigger
        >>> Board(battlefield=(Permanent("Mine", (Trigger(),)),)).footprint() == Footprint.TRIGGERS
        True
        """
        found = Footprint.NONE
        for holder in self.holders():
            found |= holder.effect.footprint()
        return found

    def keeping(self, keep: Callable[[EffectBase], bool]) -> Board:
        """The same board with only the effects ``keep`` accepts (for the odds engine's shortcuts,
        which count the work of some effects on their own). A dropped effect leaves a blank in its
        place, so the other abilities keep their numbers (once-each-turn keys)."""
        from mtgdice.rules.effects.passive import Passive

        blank = Passive(what="left off")

        def strip(permanents: tuple[Permanent, ...]) -> tuple[Permanent, ...]:
            return tuple(
                Permanent(
                    p.name,
                    tuple(e if keep(e) else blank for e in p.effects),
                    p.level,
                    p.counters,
                    p.tapped,
                    p.stored,
                    p.stored_die,
                    p.seat,
                )
                for p in permanents
            )

        return Board(strip(self.battlefield), strip(self.opponents), strip(self.graveyard), strip(self.command))
