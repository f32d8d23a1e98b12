"""The table a roll resolves against: every player's zones of cards, with their compiled effects.

A :class:`Board` is a tuple of seats in turn order (seat 0 is the player the request is written
from), each a :class:`PlayerZones` — battlefield, graveyard, command zone — of :class:`Permanent`
values: a card with its compiled effects (compiled once, when it entered the table) and its state
(Class level, counters, tapped, stored results CR 706.8, a noted value). It also keeps the
replacement effects that wait for a later roll (:class:`Waiting`, json-interface.md ``pending``).

A :class:`Holder` is one effect found on the board with where it is: the seat whose zone holds it
is its "you" (a permanent's controller, a card's owner), and nothing else decides whose rolls it
sees (json-interface.md, version 3). Zone order — every seat's battlefield in seat order, then
every graveyard, then every command zone, list order within each, then the waiting replacements —
is the order effects are met in (docs/design.md §5).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from mtgdice.rules.dice import Die
from mtgdice.rules.effects.base import EffectBase
from mtgdice.rules.errors import InputError, NoSuchSeatError
from mtgdice.rules.footprint import Footprint
from mtgdice.rules.players import YOU, Scope, Seat
from mtgdice.rules.zones import ZONE_ORDER, Zone

E = TypeVar("E", bound=EffectBase, covariant=True)
_YOU = Scope.YOU
_TARGET = Scope.TARGET

MAX_SEATS = 8
"""Most players at one table (a board, a request's ``seats`` or ``players``, a room)."""


@dataclass(frozen=True, slots=True)
class Permanent:
    """A card in a zone: its name, its compiled effects and its state.

    ``text`` is the card's own text when the table was given it so (the card was not looked up by
    name), with its ``layout``; ``id`` is the number a table gives its cards (a room's card id, 0
    where the table does not number them). The rules read neither: they say which card it is when
    the table is written back or shown.

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
    noted: int | None = None
    text: str | None = None
    layout: str = "normal"
    id: int = 0

    def counter(self, kind: str) -> int | None:
        """How many ``kind`` counters it has, or ``None`` when its counters were not given."""
        if self.counters is None:
            return None
        return dict(self.counters).get(kind, 0)


@dataclass(frozen=True, slots=True)
class PlayerZones:
    """One player's zones: battlefield (permanents they control), graveyard and command zone
    (cards they own).

    >>> PlayerZones(battlefield=(Permanent("Guide"),)).zone(Zone.BATTLEFIELD)[0].name
    'Guide'
    """

    battlefield: tuple[Permanent, ...] = ()
    graveyard: tuple[Permanent, ...] = ()
    command: tuple[Permanent, ...] = ()

    def zone(self, zone: Zone) -> tuple[Permanent, ...]:
        if zone is Zone.BATTLEFIELD:
            return self.battlefield
        if zone is Zone.GRAVEYARD:
            return self.graveyard
        if zone is Zone.COMMAND:
            return self.command
        return ()


@dataclass(frozen=True, slots=True)
class Waiting:
    """A replacement effect created earlier that waits for the next roll it applies to ("the next
    time target player would roll ..."): the card whose ability made it, who controls it and which
    player it targets (``None``: it names no player)."""

    card: Permanent
    controller: Seat = YOU
    target: Seat | None = None


@dataclass(frozen=True, slots=True)
class Holder(Generic[E]):
    """An effect on the board: the card that has it, where, whose it is, and which ability it is.

    ``controller`` is the seat whose zone holds the card (for a waiting replacement, its
    controller); ``target`` the player a waiting replacement targets; ``ordinal`` is the
    permanent's name in the turn memory (``NAME#k``, json-interface.md ``turn``).
    """

    zone: Zone
    position: int
    permanent: Permanent
    effect: E
    ability: int = 0
    controller: Seat = YOU
    target: Seat | None = None
    ordinal: str = ""

    @property
    def name(self) -> str:
        return self.permanent.name

    @property
    def key(self) -> str:
        """This card in this seat's zone position (one permanent can be tapped once)."""
        return f"{self.permanent.name}#{self.controller}.{self.position}@{self.zone.value}"

    @property
    def once_key(self) -> str:
        """The key of a "once each turn" use (kept across rolls): the card's name and which ability,
        and for a second or later card of that name (``NAME#k`` in the turn memory, k ≥ 1) which
        one: each permanent has its own ability, used once each turn by that permanent.

        >>> from mtgdice.rules.effects.passive import Passive
        >>> Holder(Zone.BATTLEFIELD, 1, Permanent("Imp"), Passive(), ordinal="Imp#1").once_key
        'Imp#0@1'
        """
        base = f"{self.permanent.name}#{self.ability}"
        copy = self.ordinal.rpartition("#")[2]
        return base if copy in ("", "0") else f"{base}@{copy}"

    def sees(self, roller: Seat) -> bool:
        """Whether this effect sees a roll by ``roller``: its scope against its seat, or for a
        replacement that targets a player, whether ``roller`` is that player."""
        scope = self.effect.scope
        if self.target is not None:
            return roller == self.target
        if scope is _YOU:
            return self.controller == roller
        if scope is _TARGET:
            return False  # a "target player" effect on a card waits for its activation (``pending``)
        return scope.sees(self.controller, roller)


@dataclass(frozen=True, slots=True)
class Board:
    """The table: every player's zones in turn order, and the replacements that wait.

    >>> board = Board.from_zones(battlefield=(Permanent("Guide"),), opponents=(Permanent("Dwarf"),))
    >>> board.count(), board.players, [h.controller for h in board.holders()]
    (2, 2, [])
    """

    seats: tuple[PlayerZones, ...] = ()
    pending: tuple[Waiting, ...] = ()

    def __post_init__(self) -> None:
        if len(self.seats) > MAX_SEATS:
            raise InputError("seats", f"{len(self.seats)} players is more than the {MAX_SEATS} a table may have")

    @classmethod
    def from_zones(
        cls,
        battlefield: tuple[Permanent, ...] = (),
        opponents: tuple[Permanent, ...] = (),
        graveyard: tuple[Permanent, ...] = (),
        command: tuple[Permanent, ...] = (),
    ) -> Board:
        """The table of the earlier request form: seat 0 has ``battlefield``, ``graveyard`` and
        ``command``, seat 1 has ``opponents`` on its battlefield.

        >>> Board.from_zones(graveyard=(Permanent("Hit"),)).seat(YOU).graveyard[0].name
        'Hit'
        """
        return cls((PlayerZones(battlefield, graveyard, command), PlayerZones(opponents)))

    @property
    def players(self) -> int:
        """How many seats the table has."""
        return len(self.seats)

    def seat(self, seat: Seat) -> PlayerZones:
        """The zones of ``seat`` (an empty seat past the last one given)."""
        if seat < 0:
            raise NoSuchSeatError("seat", seat, len(self.seats))
        return self.seats[seat] if seat < len(self.seats) else PlayerZones()

    def count(self) -> int:
        return sum(len(zones.zone(zone)) for zones in self.seats for zone in ZONE_ORDER)

    def cards(self) -> Iterator[tuple[Seat, Zone, Permanent]]:
        """Every card with its seat and zone, in zone order."""
        for zone in ZONE_ORDER:
            for seat, zones in enumerate(self.seats):
                for permanent in zones.zone(zone):
                    yield Seat(seat), zone, permanent

    def ordinals(self) -> dict[tuple[int, Zone, int], str]:
        """Each card's name in the turn memory, ``NAME#k``: the k-th card of that name counted over
        the seats in seat order, then zone order, then list order (json-interface.md ``turn``)."""
        seen: dict[str, int] = {}
        names: dict[tuple[int, Zone, int], str] = {}
        for seat, zones in enumerate(self.seats):
            for zone in ZONE_ORDER:
                for position, permanent in enumerate(zones.zone(zone)):
                    k = seen.get(permanent.name, 0)
                    seen[permanent.name] = k + 1
                    names[(seat, zone, position)] = f"{permanent.name}#{k}"
        return names

    def holders(self) -> Iterator[Holder[EffectBase]]:
        """Every effect that functions where its card is (its zone, its Class level), in zone
        order, then the waiting replacements in list order, whoever rolls."""
        ordinals = self.ordinals()
        for zone in ZONE_ORDER:
            for seat, zones in enumerate(self.seats):
                controller = Seat(seat)
                for position, permanent in enumerate(zones.zone(zone)):
                    ordinal = ordinals[(seat, zone, position)]
                    for ability, effect in enumerate(permanent.effects):
                        if effect.zone is zone and effect.level <= permanent.level:
                            yield Holder(zone, position, permanent, effect, ability, controller, None, ordinal)
        for position, waiting in enumerate(self.pending):
            for ability, effect in enumerate(waiting.card.effects):
                yield Holder(
                    Zone.PENDING, position, waiting.card, effect, ability, waiting.controller, waiting.target, ""
                )

    def footprint(self) -> Footprint:
        """Everything the board's functioning effects read or change of a roll.

        >>> from mtgdice.rules.effects.trigger import Trigger
        >>> Board.from_zones(battlefield=(Permanent("Mine", (Trigger(),)),)).footprint() == Footprint.TRIGGERS
        True
        """
        found = Footprint.NONE
        for holder in self.holders():
            found |= holder.effect.footprint()
        return found

    def with_source(self, controller: Seat, source: Permanent) -> Board:
        """The board with ``source`` on its controller's battlefield, unless a permanent of its
        name is listed there already (that one is the source itself, json-interface.md v3)."""
        zones = self.seat(controller)
        if any(permanent.name.casefold() == source.name.casefold() for permanent in zones.battlefield):
            return self
        seats = list(self.seats) + [PlayerZones()] * (controller + 1 - len(self.seats))
        seats[controller] = replace(zones, battlefield=zones.battlefield + (source,))
        return replace(self, seats=tuple(seats))

    def without_pending(self, used: frozenset[int]) -> tuple[Waiting, ...]:
        """The waiting replacements left once those at positions ``used`` applied."""
        return tuple(waiting for position, waiting in enumerate(self.pending) if position not in used)

    def keeping(self, keep: Callable[[EffectBase], bool]) -> Board:
        """The same board with only the effects ``keep`` accepts (for the odds engine's shortcuts,
        which count the work of some effects on their own). A dropped effect leaves a blank in its
        place, so the other abilities keep their numbers (once-each-turn keys)."""
        from mtgdice.rules.effects.passive import Passive

        blank = Passive(what="left off")

        def strip(permanents: tuple[Permanent, ...]) -> tuple[Permanent, ...]:
            return tuple(replace(p, effects=tuple(e if keep(e) else blank for e in p.effects)) for p in permanents)

        return Board(
            tuple(PlayerZones(strip(z.battlefield), strip(z.graveyard), strip(z.command)) for z in self.seats),
            tuple(replace(w, card=strip((w.card,))[0]) for w in self.pending),
        )
