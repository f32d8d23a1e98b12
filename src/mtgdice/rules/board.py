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
        return getattr(self, zone.value)  # type: ignore[no-any-return]

    def count(self) -> int:
        return sum(len(self.zone(zone)) for zone in ZONE_ORDER)

    def cards(self) -> Iterator[tuple[Zone, Permanent]]:
        """Every card with its zone, in zone order."""
        for zone in ZONE_ORDER:
            for permanent in self.zone(zone):
                yield zone, permanent

    def functioning(self) -> Iterator[tuple[Zone, int, Permanent, Effect]]:
        """Every effect that functions where its card is (its zone, its Class level), in zone order,
        whoever rolls; the opponents' battlefield counts as a battlefield."""
        for zone in ZONE_ORDER:
            for position, permanent in enumerate(self.zone(zone)):
                for effect in permanent.effects:
                    where = Zone.BATTLEFIELD if zone is Zone.OPPONENTS else zone
                    if effect.zone is where and effect.level <= permanent.level:
                        yield zone, position, permanent, effect

    def active(self, roller: str = "you") -> Iterator[tuple[Zone, int, Permanent, Effect]]:
        """The functioning effects that see a roll by ``roller`` (``"you"`` or ``"opponent"``).

        >>> from mtgdice.rules.effects import Trigger
        >>> mine = Permanent("Mine", (Trigger(scope="you"),))
        >>> theirs = Permanent("Theirs", (Trigger(scope="you"),))
        >>> [p.name for _, _, p, _ in Board(battlefield=(mine,), opponents=(theirs,)).active()]
        ['Mine']
        """
        for zone, position, permanent, effect in self.functioning():
            if sees(effect.scope, controller_of(zone), roller):
                yield zone, position, permanent, effect


def controller_of(zone: Zone) -> str:
    """Who controls a card in ``zone``, from the roller's side: ``"you"`` or ``"opponent"``."""
    return "opponent" if zone is Zone.OPPONENTS else "you"


def sees(scope: str, controller: str, roller: str) -> bool:
    """Whether an effect of ``scope`` controlled by ``controller`` sees a roll by ``roller``.

    ``"you"`` effects see their controller's rolls, ``"opponent"`` effects the other players',
    ``"any"`` effects every roll.

    >>> sees("you", "opponent", "you"), sees("opponent", "opponent", "you"), sees("any", "you", "opponent")
    (False, True, True)
    """
    if scope == "you":
        return controller == roller
    if scope == "opponent":
        return controller != roller
    return True
