"""One roll as a typed record, from the resolver to the log and back.

A :class:`RollRecord` is what resolving a request comes to: the typed request, the typed outcome,
every face drawn (:func:`faces_of`, the one place faces are read off an outcome) and its
:class:`Provenance` — which source drew the faces (secure, seeded, scripted, commit-reveal), its
seed or its commit-reveal :class:`Proof`, when, in which room, by whom. The log stores it through
one codec, :mod:`mtgdice.io.record`, as a row: the request and outcome as JSON text, the rest as
columns. Reading a row back gives a :class:`LoggedRoll` (the row, typed); resolving its request
again with its faces gives the record back (:func:`mtgdice.log.replay.record_of`), and the logged
outcome is the witness it is compared with.

**The hash chain** and **cards by reference** (a card named from the card data is logged with the
hash of its text) are the codec's: :func:`~mtgdice.io.record.roll_hash`,
:func:`~mtgdice.io.record.card_hash`.

This module leaves out JSON (``mtgdice.io.record``), storage (``store``), checking (``verify``)
and re-resolving (``replay``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Union

from mtgdice.errors import InputError
from mtgdice.rules.plain import PlainResult, PlainRoll

if TYPE_CHECKING:
    from mtgdice.fair.commit import Draw
    from mtgdice.game.request import Outcome, RollRequest
    from mtgdice.rules.sources import DiceSource

__all__ = [
    "LoggedCommitment",
    "LoggedRoll",
    "Proof",
    "Provenance",
    "RollRecord",
    "Shown",
    "SourceKind",
    "faces_of",
    "utc_now",
]

Request = Union["RollRequest", PlainRoll]
"""What was asked: a typed request, or plain dice notation (no board applies to it, CR 706 aside)."""


class SourceKind(enum.Enum):
    """Where the faces came from (docs/design.md, "Choices and dice sources"): what a replay and
    ``verify`` can say of them."""

    SECURE = "secure"
    SEEDED = "seeded"
    SCRIPTED = "scripted"
    COMMIT_REVEAL = "commit-reveal"
    PLAYER_STREAM = "commit-reveal/player"
    """Commit-reveal on the roller's own stream (``mtgdice.fair.commit.PlayerSource``)."""

    @classmethod
    def named(cls, name: str, field: str = "source") -> SourceKind:
        """The kind a source's ``name`` says.

        >>> SourceKind.named("commit-reveal")
        <SourceKind.COMMIT_REVEAL: 'commit-reveal'>
        """
        try:
            return cls(name)
        except ValueError:
            kinds = ", ".join(kind.value for kind in cls)
            raise InputError(field, f"{str(name)[:40]!r} is not a source of dice; the sources are {kinds}") from None


@dataclass(frozen=True, slots=True)
class Proof:
    """What a commit-reveal roll is checked against: the room's commitment, the players' client
    seeds (sorted) and the roll's nonce (:mod:`mtgdice.fair.commit`)."""

    commitment: str
    client_seeds: tuple[str, ...]
    nonce: int


def utc_now() -> str:
    """The current time, UTC, ISO 8601 with microseconds."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a roll comes from: its source of faces, that source's ``seed`` (a seeded source given
    a whole number; the rolls of one command share a source, so it names the stream of faces, not
    each roll's first) or ``proof`` (commit-reveal), the time (UTC, ISO 8601), the room, the player
    it is shown as, ``by`` (whose request spent its nonce) and the game's turn."""

    source: SourceKind
    time: str
    seed: int | None = None
    proof: Proof | None = None
    room: str | None = None
    player: str | None = None
    by: str | None = None
    turn: int | None = None

    @classmethod
    def of(
        cls,
        source: DiceSource,
        *,
        time: str | None = None,
        room: str | None = None,
        player: str | None = None,
        by: str | None = None,
        turn: int | None = None,
    ) -> Provenance:
        """The provenance of a roll drawn from ``source``, now unless ``time`` is given.

        >>> from mtgdice.rules.sources import SeededSource
        >>> Provenance.of(SeededSource(7), time="2026-01-01T00:00:00+00:00").seed
        7
        """
        from mtgdice.fair.commit import CommitRevealSource

        kind = SourceKind.named(source.name)
        seed = getattr(source, "seed", None)
        proof = None
        if isinstance(source, CommitRevealSource):
            proof = Proof(source.commitment, tuple(source.client_seeds), source.nonce)
        elif kind in (SourceKind.COMMIT_REVEAL, SourceKind.PLAYER_STREAM):
            raise InputError("source", "a commit-reveal roll needs the commit-reveal source that drew it")
        return cls(
            kind,
            time or utc_now(),
            seed if isinstance(seed, int) and not isinstance(seed, bool) else None,
            proof,
            room,
            player,
            by,
            turn,
        )


def faces_of(outcome: Outcome) -> tuple[Draw, ...]:
    """Every face an outcome shows, in the order drawn: a die as ``(sides, natural)``, the planar
    die as ``("planar", face)``, a coin (CR 705, drawn as a d2) as ``(2, 1)`` heads or ``(2, 2)``
    tails, a plain roll's dice term by term (a Fudge die, drawn as a d3, as ``(3, value + 2)``).

    >>> from mtgdice.rules.plain import DiceGroup, roll_plain
    >>> from mtgdice.rules.sources import ScriptedSource
    >>> faces_of(roll_plain(PlainRoll((DiceGroup(2, 6),)), ScriptedSource([4, 1])))
    ((6, 4), (6, 1))
    """
    if isinstance(outcome, PlainResult):
        return outcome.draws
    from mtgdice.rules.coins import COIN, FlipResolution  # here: a plain roll loads no Magic rules

    if isinstance(outcome, FlipResolution):
        return tuple((COIN.sides or 2, coin.side.face) for coin in sorted(outcome.coins, key=lambda c: c.index))
    faces: list[Draw] = []
    for execution in outcome.executions:
        for roll in execution.dice:
            face = roll.planar_face if roll.die.planar else roll.natural
            if face is not None:
                faces.append(("planar" if roll.die.planar else roll.die.sides or 0, face))
    return tuple(faces)


@dataclass(frozen=True, slots=True)
class RollRecord:
    """One roll, typed: the request, its outcome, every face drawn in order, and its provenance.

    ``outcome`` is None only for a roll that was refused after its nonce was spent (``refused``
    says why; ``faces`` are what it drew before it stopped).

    >>> from mtgdice.rules.plain import DiceGroup, roll_plain
    >>> from mtgdice.rules.sources import ScriptedSource
    >>> source = ScriptedSource([5])
    >>> plain = PlainRoll((DiceGroup(1, 20),))
    >>> record = RollRecord.of(plain, roll_plain(plain, source), source)
    >>> record.faces, record.provenance.source
    (((20, 5),), <SourceKind.SCRIPTED: 'scripted'>)
    """

    request: Request
    outcome: Outcome | None
    faces: tuple[Draw, ...]
    provenance: Provenance
    refused: str | None = None

    @classmethod
    def of(
        cls,
        request: Request,
        outcome: Outcome | None,
        source: DiceSource,
        *,
        refused: str | None = None,
        time: str | None = None,
        room: str | None = None,
        player: str | None = None,
        by: str | None = None,
        turn: int | None = None,
    ) -> RollRecord:
        """The record of ``request`` resolved with ``source``: a commit-reveal source gives the faces
        it drew (a refused roll's too), another the faces the outcome shows."""
        if outcome is None and not refused:
            raise InputError("outcome", "a roll without an outcome gives the reason it was refused")
        from mtgdice.fair.commit import CommitRevealSource

        provenance = Provenance.of(source, time=time, room=room, player=player, by=by, turn=turn)
        if isinstance(source, CommitRevealSource):
            faces: tuple[Draw, ...] = tuple(source.draws)
        else:
            faces = faces_of(outcome) if outcome is not None else ()
        return cls(request, outcome, faces, provenance, refused if outcome is None else None)


@dataclass(frozen=True, slots=True)
class Shown:
    """What a logged outcome showed, for listing (read by the codec, never resolved): each
    execution's counted results, a plain roll's ``total``, a flip's counted ``coins`` (sides), the
    answers of its decisions in order, and ``refused`` for a roll that did not resolve."""

    results: tuple[tuple[int | str | None, ...], ...] = ()
    total: int | None = None
    coins: tuple[str, ...] | None = None
    answers: tuple[object, ...] = ()
    refused: str | None = None


@dataclass(frozen=True, slots=True)
class LoggedRoll:
    """One row of the roll log, read back: its id, provenance and faces typed, its request and
    outcome as the JSON text that was written (:mod:`mtgdice.io.record` reads them: ``request_of``,
    ``shown``), ``card`` and ``row`` (the first execution's matched row) kept for listing, and
    ``chain``, its hash in its room's chain (None outside one)."""

    id: int
    provenance: Provenance
    faces: tuple[Draw, ...]
    request: str
    outcome: str
    card: str | None = None
    row: int | None = None
    chain: str | None = None

    @property
    def room(self) -> str | None:
        return self.provenance.room

    @property
    def time(self) -> str:
        return self.provenance.time

    @property
    def player(self) -> str | None:
        return self.provenance.player

    @property
    def source(self) -> str:
        return self.provenance.source.value

    @property
    def turn(self) -> int | None:
        return self.provenance.turn

    @property
    def by(self) -> str | None:
        return self.provenance.by

    @property
    def nonce(self) -> int | None:
        return self.provenance.proof.nonce if self.provenance.proof is not None else None

    @property
    def commitment(self) -> str | None:
        return self.provenance.proof.commitment if self.provenance.proof is not None else None

    @property
    def client_seeds(self) -> tuple[str, ...]:
        return self.provenance.proof.client_seeds if self.provenance.proof is not None else ()


@dataclass(frozen=True, slots=True)
class LoggedCommitment:
    """A room's commitment as the log keeps it (:mod:`mtgdice.fair.commit`): what it binds (``seed_hash``,
    ``from_nonce``, ``covers``: both None for one made before the hash chain, which is the seed's
    hash alone), and once revealed the ``seed``, its nonces ``from_nonce <= nonce < to_nonce``, their
    ``count`` and the ``chain`` the room's rolls had reached."""

    room: str | None
    commitment: str
    from_nonce: int
    seed: bytes | None = None
    to_nonce: int | None = None
    seed_hash: str | None = None
    covers: str | None = None
    count: int | None = None
    chain: str | None = None
