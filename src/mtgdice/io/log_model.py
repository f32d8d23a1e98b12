"""The roll log's JSON form as typed models (msgspec Structs): the exported log and its rolls.

``mtgdice log export --format json`` and ``GET /api/rooms/{id}/log`` write an
:class:`ExportedLog`; each logged roll is an :class:`ExportedRoll` (the log's row as JSON) and each
commitment an :class:`ExportedCommitment`. The codec (:mod:`mtgdice.io.record`) builds them and
msgspec encodes them; the published JSON Schema (``mtgdice schema log``) is generated from them.

A roll's ``request`` and ``outcome`` are kept as the JSON text the log stored (:class:`msgspec.Raw`:
a row written by an earlier version is exported byte for byte as it was written, so its hash chain
still verifies); their schemas are the request object and :mod:`mtgdice.io.outcome_model`'s
outcome. This module leaves out storage (``mtgdice.log``) and checking a log (``mtgdice verify``).
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Raw

from mtgdice.io.outcome_model import (
    OUTCOME_TYPES,
    DiceOutcome,
    FlipOutcome,
    Model,
    PlainOutcome,
    RefusedOutcome,
)

__all__ = [
    "LOGGED_OUTCOME_TYPES",
    "DiceOutcome",
    "ExportedCommitment",
    "ExportedLog",
    "ExportedRoll",
    "Face",
    "FlipOutcome",
    "PlainOutcome",
    "RefusedOutcome",
]

LOGGED_OUTCOME_TYPES: tuple[type[Model], ...] = (*OUTCOME_TYPES, RefusedOutcome)
"""What a logged roll's ``outcome`` is: an outcome object, or why the roll was refused."""

Face = Annotated[
    list[int | str],
    Meta(
        min_length=2,
        max_length=2,
        description='One face drawn, as [sides, face]: [20, 7], ["planar", "chaos"]; '
        "a coin [2, 1] heads, [2, 2] tails.",
    ),
]
"""One face drawn, as the log writes it: ``[20, 7]``, ``["planar", "chaos"]``."""

LoggedRequest = Annotated[
    Raw,
    Meta(
        description="The request as resolved (json-interface.md); a card named from the card data carries "
        "its oracle_hash; a plain roll is {kind: plain, notation}.",
        extra_json_schema={"type": "object"},
    ),
]
LoggedOutcome = Annotated[
    Raw,
    Meta(
        description="The outcome as resolve wrote it (the outcome schema), or {refused} for a refused room roll.",
        extra_json_schema={"anyOf": [{"$ref": f"#/$defs/{kind.__name__}"} for kind in LOGGED_OUTCOME_TYPES]},
    ),
]


class ExportedRoll(Model, frozen=True, kw_only=True):
    """One logged roll (a row of the log as JSON): its ``id``; for commit-reveal rolls the
    ``nonce``, ``client_seeds`` and ``commitment``; where the faces came from (``source``); when,
    where and whose turn (``time`` UTC ISO 8601, ``room``, ``player``), whose request spent the
    nonce (``by``); the ``request`` and ``outcome``; every face drawn, in order; and ``chain``, its
    hash in its room's chain."""

    id: int
    nonce: int | None
    client_seeds: list[str]
    commitment: str | None
    source: str
    room: str | None
    time: str
    player: str | None
    by: str | None
    request: LoggedRequest
    outcome: LoggedOutcome
    faces: list[Face]
    chain: str | None


class ExportedCommitment(Model, frozen=True, kw_only=True):
    """A server seed's commitment: what it binds (``seed_hash``, ``from_nonce``, ``covers``: the
    chain hash before it; both hashes null for a commitment made before the log had a hash chain),
    and once revealed the ``seed`` in hex, ``to_nonce``, the ``count`` of rolls and the ``chain``
    they reached; its ``room``."""

    commitment: str
    seed_hash: str | None
    covers: str | None
    from_nonce: int
    seed: str | None
    to_nonce: int | None
    count: int | None
    chain: str | None
    room: str | None


class ExportedLog(Model, frozen=True, kw_only=True):
    """The exported roll log: its ``format`` (``mtgdice-room-log/2``), the ``room`` (null: every
    room), when it was ``exported`` (UTC), the ``commitments`` and the ``rolls``, oldest first."""

    format: str
    room: str | None
    exported: str
    commitments: list[ExportedCommitment]
    rolls: list[ExportedRoll]
