"""The ``resolve`` request as wire types: msgspec structs that mirror spec/json-interface.md.

:class:`Request` is the request object of versions 1 to 3 field for field (``card`` or ``text``,
the earlier zones or ``seats``, ``turn``, ``pending``, the dice and answers); every struct refuses
a field it does not have. Decoding checks shapes and bounds only (types, ``level`` from 1, at most
:data:`~mtgdice.rules.board.MAX_SEATS` seats); what depends on the table (a seat that does not
exist, a card that is not in the card data) is checked where the table is built
(:mod:`mtgdice.io.jsonio`, :mod:`mtgdice.game.request`). ``msgspec.json.schema(Request)`` is the
request's JSON Schema.

This module is imported only where JSON is read or a schema is made, never by a plain roll.

>>> import msgspec
>>> msgspec.convert({"card": "A card", "seats": [{"battlefield": ["B"]}]}, Request).seats[0].battlefield
['B']
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta, Struct, field

from mtgdice.rules.board import MAX_SEATS

__all__ = [
    "Card",
    "CoinName",
    "Flips",
    "Opponent",
    "PendingCard",
    "PlanarName",
    "Request",
    "SeatZones",
    "Turn",
    "ZoneEntry",
]

Count = Annotated[int, Meta(ge=0, le=10**17, description="a count, 0 or more")]
SeatNumber = Annotated[int, Meta(ge=0, description="a seat, 0 = the player the request is written from")]
Level = Annotated[int, Meta(ge=1, description="a Class's level, from 1")]
Face = Annotated[int, Meta(ge=1, description="a die's face")]
CoinName = Literal["heads", "tails"]
PlanarName = Literal["blank", "chaos", "planeswalk"]
KindName = Literal["card", "dice", "planar", "coin", "plain"]
Answer = bool | int | list[int]
"""An answer in ``choices``: yes/no, an index, or a list of indices (json-interface.md)."""


class _Wire(Struct, forbid_unknown_fields=True, omit_defaults=True, kw_only=True):
    """A JSON object of the request: unknown fields are refused."""


class Card(_Wire):
    """A card in a zone: by name (``card``) or by its own ``text`` (``name`` is what it is called),
    with its state."""

    card: str | None = None
    text: str | None = None
    name: str | None = None
    layout: str = "normal"
    level: Level = 1
    counters: dict[str, Count] | None = None
    tapped: bool = False
    stored: list[int] | None = None
    noted: int | None = None


class Opponent(Card):
    """An item of the earlier ``opponents`` list: a card on the battlefield of ``seat`` (default 1)."""

    seat: Annotated[int, Meta(ge=1, lt=MAX_SEATS)] = 1


ZoneEntry = str | Card
"""A zone item: a card name, or an object with its state."""


class SeatZones(_Wire):
    """One player's zones (version 3 ``seats``); a missing zone is empty."""

    battlefield: list[ZoneEntry] = field(default_factory=list)
    graveyard: list[ZoneEntry] = field(default_factory=list)
    command: list[ZoneEntry] = field(default_factory=list)


class PendingCard(_Wire):
    """A replacement that waits for the next roll it applies to (version 3 ``pending``)."""

    card: str | None = None
    text: str | None = None
    name: str | None = None
    layout: str = "normal"
    controller: SeatNumber = 0
    target: SeatNumber | None = None


class Flips(_Wire):
    """Coin flips won and lost this turn by one seat."""

    won: Count = 0
    lost: Count = 0


class Turn(_Wire):
    """What the turn remembers (version 3 ``turn``)."""

    used: list[str] = field(default_factory=list)
    dice_rolled: list[Count] | None = None
    planar_actions: Count | None = None
    totals: dict[str, list[int]] = field(default_factory=dict)
    flips: list[Flips] = field(default_factory=list)


class Request(_Wire):
    """A ``resolve`` request (json-interface.md, versions 1 to 3).

    >>> import msgspec
    >>> msgspec.convert({"kind": "dice", "notation": "2d10", "dice": [3, 4]}, Request).dice
    [3, 4]
    """

    kind: KindName = "card"
    card: str | None = None
    text: str | None = None
    name: str | None = None
    layout: str = "normal"
    roll: Count = 0
    notation: str = ""
    seats: Annotated[list[SeatZones], Meta(min_length=1, max_length=MAX_SEATS)] | None = None
    battlefield: list[ZoneEntry] | None = None
    opponents: list[str | Opponent] | None = None
    graveyard: list[ZoneEntry] | None = None
    command: list[ZoneEntry] | None = None
    players: Annotated[int, Meta(ge=1, le=MAX_SEATS)] | None = None
    controller: SeatNumber = 0
    roller: SeatNumber | None = None
    pending: list[PendingCard] = field(default_factory=list)
    turn: Turn | None = None
    amounts: dict[str, int] = field(default_factory=dict)
    dice: list[Face] = field(default_factory=list)
    planar: list[PlanarName] = field(default_factory=list)
    coins: list[CoinName] = field(default_factory=list)
    random: bool = False
    choices: list[Answer] = field(default_factory=list)
    used: list[str] = field(default_factory=list)
    dice_rolled: Count | None = None
    planar_actions: Count | None = None
    action: bool = False
    call: CoinName | None = None


def schema() -> dict[str, object]:
    """The request's JSON Schema (``msgspec.json.schema``).

    >>> schema()["$ref"]
    '#/$defs/Request'
    """
    made: dict[str, object] = msgspec.json.schema(Request)
    return made
