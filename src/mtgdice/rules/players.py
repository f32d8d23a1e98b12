"""Players as a roll sees them: seats, whose rolls an effect sees, who decides (docs/design.md §15).

A table is seen from the side of the player the request is written from: that player is seat 0
(:data:`YOU`); the other players are seats 1, 2, ... in turn order. An effect's "you" is the seat
whose zone holds it; "an opponent" is any other seat. A die records the seat of the player who
rolled it, so "whenever you roll" abilities and the Pippa ruling (the player who rerolls a die
rolls the new die) read numbers, never strings.
"""

from __future__ import annotations

import enum
from typing import NewType

Seat = NewType("Seat", int)
"""A player at the table, from the resolving player's side: 0 is that player."""

YOU = Seat(0)
OPPONENT = Seat(1)


def seat_name(seat: Seat) -> str:
    """How JSON and people name a seat.

    >>> seat_name(YOU), seat_name(OPPONENT), seat_name(Seat(3))
    ('you', 'opponent', 'opponent 3')
    """
    if seat == YOU:
        return "you"
    return "opponent" if seat == OPPONENT else f"opponent {seat}"


def seat_from_name(name: str) -> Seat:
    """The inverse of :func:`seat_name`.

    >>> seat_from_name("opponent 2")
    2
    """
    if name == "you":
        return YOU
    if name == "opponent":
        return OPPONENT
    head, _, number = name.partition(" ")
    if head == "opponent" and number.isdigit() and int(number) >= 1:
        return Seat(int(number))
    raise ValueError(f"{name!r} is not a seat; use 'you', 'opponent' or 'opponent N'")


class Scope(enum.Enum):
    """Whose rolls an effect sees: its controller's, another player's, any player's, or the one
    player it targets (known only once the ability is activated, ``pending``)."""

    YOU = "you"
    OPPONENT = "opponent"
    ANY = "any"
    TARGET = "target"

    def sees(self, controller: Seat, roller: Seat) -> bool:
        """Whether an effect of this scope controlled by ``controller`` sees a roll by ``roller``.

        >>> Scope.YOU.sees(OPPONENT, YOU), Scope.OPPONENT.sees(OPPONENT, YOU), Scope.ANY.sees(YOU, OPPONENT)
        (False, True, True)
        """
        if self is Scope.YOU:
            return controller == roller
        if self is Scope.OPPONENT:
            return controller != roller
        return self is Scope.ANY


class Decider(enum.Enum):
    """Who answers a decision an effect asks (docs/design.md §15)."""

    ROLLER = "roller"
    CONTROLLER = "controller"
    OPPONENT = "opponent"

    def seat(self, roller: Seat, controller: Seat) -> Seat:
        """The seat that decides, for a roll by ``roller`` of an effect controlled by ``controller``.

        An opponent of the roller is the effect's controller when that is another player, else the
        next seat (the only opponent in a two-player game).

        >>> Decider.OPPONENT.seat(YOU, YOU), Decider.CONTROLLER.seat(YOU, OPPONENT)
        (1, 1)
        """
        if self is Decider.ROLLER:
            return roller
        if self is Decider.CONTROLLER:
            return controller
        return controller if controller != roller else Seat(roller + 1 if roller == YOU else YOU)
