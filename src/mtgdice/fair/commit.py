"""Verifiable remote dice: a commit-reveal ``DiceSource`` for shared rooms (CR 706.1b).

The server draws a secret seed and publishes its SHA-256 (the commitment) before any roll. Each
player may set a client seed the server could not know when it committed. Every face of the roll
with number ``nonce`` comes from the HMAC-SHA256 stream
``HMAC-SHA256(key=server_seed, msg=f"{client_seed_joined}:{nonce}:{cursor}")``:

- ``client_seed_joined`` is the players' seeds sorted (plain code-point order) and joined with ``","``
  (the empty string when there are none). A client seed is 1 to 64 printable ASCII characters
  without spaces or commas, so the joined text is unambiguous and easy to rebuild in a browser.
- The 32-byte digest is read as eight 32-bit big-endian words; when they run out, ``cursor`` goes up
  by one and the next digest continues the stream (``cursor`` starts at 0 for every nonce).
- A die with ``n`` faces takes the next word ``x`` and accepts it only if
  ``x < 2**32 - (2**32 % n)``; the face is then ``faces[x % n]``; otherwise it takes the next word.
  Every face is exactly equally likely (no modulo bias). The planar die uses ``n = 6`` over its
  faces (chaos, planeswalk, blank x4).

One resolution uses one nonce; its dice take faces from the stream in the order they are rolled.
A known answer, for verifiers written in other languages (seed bytes 0..31, seeds "bob" and
"alice", nonce 7; a d20, a d20, a d6, the planar die, a d100):

>>> faces = derive_faces(bytes(range(32)), ["bob", "alice"], 7, [Die(20), Die(20), Die(6), Die(None), Die(100)])
>>> [face.value if isinstance(face, PlanarFace) else face for face in faces]
[3, 6, 2, 'blank', 14]

**Player streams** (rooms' rolls since ``commit-reveal/player``). A face of a room must depend
on who rolls and which of their rolls it is, not on how many rolls the room made before: with one
counter per room, whoever holds the seed could shift a player's next faces by inserting a roll of
their own first. So a room's roll draws from the stream of the player whose request it is
(``stream``: the player's id, or ``api``), at that player's own roll number ``index`` (0, 1, 2 ...
over the room's life, in the order of the room's nonces), keyed with that player's own client
seed only (another player's seed cannot move them either)::

    HMAC-SHA256(key=server_seed, msg=f"player:{stream}:{index}:{cursor}:{client_seed}")

with the same words, cursor and rejection as above (:class:`PlayerSource`). The room's nonce stays
in the log, one per roll, so that a missing roll is found, but no face depends on it.

>>> [face for face in derive_player_faces(bytes(range(32)), "p1", 0, "alice", [Die(20), Die(6)])]
[16, 4]

**What a room publishes.** The commitment binds the seed and everything logged before it:
``commitment = SHA-256(f"{seed_hash}:{from_nonce}:{covers}")`` (ASCII, lower-case hex), where
``seed_hash`` is the seed's SHA-256, ``from_nonce`` the first nonce the seed serves and ``covers``
the hash of the room's last logged roll when the seed was drawn (:data:`GENESIS` for a new room;
the roll log's hash chain is :mod:`mtgdice.io.record`). A room's first commitment so pins
nothing but its seed; each later one, published when the previous seed is revealed, pins every
roll before it and their number. A player who copies the commitment a page shows can later check
the whole log up to it (``mtgdice verify --commitment HEX``).

>>> commitment(seed_hash(bytes(32)), 0, GENESIS)[:16]
'4dd5ba4ff28db153'

When the seed is revealed, anyone can check ``SHA-256(seed) == seed_hash``, the commitment, and
recompute every face. Checking a whole exported room log is :mod:`mtgdice.log.verify`.

This module leaves out storage (:mod:`mtgdice.log`), networking and public randomness beacons.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from mtgdice.errors import InputError
from mtgdice.rules.dice import PLANAR_FACES, Die, Face, PlanarFace

SEED_BYTES = 32
"""Length of a server seed."""

CLIENT_SEED_MAX = 64
"""Longest client seed, in characters."""

WORD_SPACE = 2**32
"""Each draw reads one 32-bit word; dice with more faces than this are refused."""

GENESIS = "0" * 64
"""Where a room's hash chain starts: what its first commitment covers."""

Sides = int | Literal["planar"]
Draw = tuple[Sides, Face]
"""One face drawn: ``(20, 7)`` or ``("planar", PlanarFace.CHAOS)``."""

DrawJSON = list[int | str]
"""A draw as JSON: ``[20, 7]`` or ``["planar", "chaos"]``."""


def new_seed() -> bytes:
    """A fresh secret server seed: 32 bytes from the operating system (``secrets``).

    >>> len(new_seed()), new_seed() != new_seed()
    (32, True)
    """
    return secrets.token_bytes(SEED_BYTES)


def seed_hash(seed: bytes) -> str:
    """A seed's SHA-256, as lower-case hex (published inside the commitment; a reveal is checked against it).

    >>> seed_hash(bytes(32))
    '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
    """
    return hashlib.sha256(seed).hexdigest()


def commitment(digest: str, from_nonce: int, covers: str) -> str:
    """The commitment a room publishes for a seed whose SHA-256 is ``digest``: it serves nonces from
    ``from_nonce`` on, after the roll whose hash is ``covers``.

    >>> commitment(seed_hash(bytes(32)), 0, GENESIS) == commitment(seed_hash(bytes(32)), 1, GENESIS)
    False
    """
    return hashlib.sha256(f"{digest}:{from_nonce}:{covers}".encode("ascii")).hexdigest()


def seed_matches(seed: bytes, digest: str) -> bool:
    """Whether a revealed seed is the one whose SHA-256 was published (constant-time comparison).

    >>> seed = new_seed()
    >>> seed_matches(seed, seed_hash(seed)), seed_matches(bytes(32), seed_hash(seed))
    (True, False)
    """
    return hmac.compare_digest(seed_hash(seed), digest.strip().lower())


def check_client_seed(seed: str, field_name: str = "client_seed") -> str:
    """Return ``seed`` if it is a valid client seed, else raise :class:`InputError`.

    >>> check_client_seed("alice-42")
    'alice-42'
    >>> check_client_seed("a,b")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    mtgdice.rules.errors.InputError: client_seed: 'a,b' contains ','; use 1 to 64 printable ASCII ...
    """
    rule = f"use 1 to {CLIENT_SEED_MAX} printable ASCII characters without spaces or commas"
    if not isinstance(seed, str):
        raise InputError(field_name, f"expected a string, got {type(seed).__name__}; {rule}")
    if not 1 <= len(seed) <= CLIENT_SEED_MAX:
        raise InputError(field_name, f"{seed[:80]!r} has {len(seed)} characters; {rule}")
    for char in seed:
        if char == "," or not "!" <= char <= "~":
            raise InputError(field_name, f"{seed!r} contains {char!r}; {rule}")
    return seed


def join_client_seeds(client_seeds: Iterable[str]) -> str:
    """The canonical text of the players' seeds: sorted, joined with ``","``.

    >>> join_client_seeds(["bob", "alice"]), join_client_seeds([])
    ('alice,bob', '')
    """
    seeds = [check_client_seed(seed, f"client_seeds[{i}]") for i, seed in enumerate(client_seeds)]
    return ",".join(sorted(seeds))


def hmac_block(server_seed: bytes, client_seed_joined: str, nonce: int, cursor: int) -> bytes:
    """One 32-byte block of the stream for ``nonce``.

    >>> hmac_block(bytes(32), "", 0, 0).hex()[:16]
    'd2fb78101357d92a'
    """
    message = f"{client_seed_joined}:{nonce}:{cursor}".encode("ascii")
    return hmac.new(server_seed, message, hashlib.sha256).digest()


def words(server_seed: bytes, client_seed_joined: str, nonce: int) -> Iterator[int]:
    """The endless stream of 32-bit big-endian words for one nonce (cursor 0, 1, 2, ...)."""
    cursor = 0
    while True:
        block = hmac_block(server_seed, client_seed_joined, nonce, cursor)
        for offset in range(0, len(block), 4):
            yield int.from_bytes(block[offset : offset + 4], "big")
        cursor += 1


def acceptance_bound(count: int) -> int:
    """The largest multiple of ``count`` not above ``2**32``: words below it are accepted.

    >>> acceptance_bound(6), acceptance_bound(2**32 - 1) == 2**32 - 1, acceptance_bound(1) == 2**32
    (4294967292, True, True)
    """
    if not 1 <= count <= WORD_SPACE:
        raise InputError("die", f"a die for commit-reveal has 1 to {WORD_SPACE} faces, not {count}")
    return WORD_SPACE - WORD_SPACE % count


def draw_index(stream: Iterator[int], count: int) -> int:
    """An index in ``range(count)``, exactly uniform, by rejection from ``stream``.

    >>> draw_index(iter([4294967295, 4294967290, 13]), 6)
    4
    """
    bound = acceptance_bound(count)
    for word in stream:
        if word < bound:
            return word % count
    raise InputError("stream", "the word stream ended")  # pragma: no cover - the HMAC stream is endless


def face_count(die: Die) -> int:
    """How many equally likely faces a die has (the planar die: 6)."""
    return len(PLANAR_FACES) if die.sides is None else die.sides


def face_at(die: Die, index: int) -> Face:
    """``die.faces[index]``, without building the tuple for a large die."""
    return PLANAR_FACES[index] if die.sides is None else index + 1


def sides_of(die: Die) -> Sides:
    return "planar" if die.sides is None else die.sides


def draw_json(draw: Draw) -> DrawJSON:
    """A draw as JSON.

    >>> draw_json(("planar", PlanarFace.CHAOS)), draw_json((20, 7))
    (['planar', 'chaos'], [20, 7])
    """
    sides, face = draw
    return [sides, face.value if isinstance(face, PlanarFace) else face]


class CommitRevealSource:
    """A ``DiceSource`` whose faces anyone can recompute once the server seed is revealed.

    One source serves one resolution (one nonce). ``draws`` lists every face it showed, in order.

    >>> source = CommitRevealSource(bytes(32), ("bob", "alice"), nonce=3)
    >>> faces = [source.roll(Die(20)), source.roll(Die(None))]
    >>> faces == derive_faces(bytes(32), ("alice", "bob"), 3, [Die(20), Die(None)])
    True
    >>> [sides for sides, _ in source.draws]
    [20, 'planar']
    """

    name = "commit-reveal"

    def __init__(
        self, server_seed: bytes, client_seeds: tuple[str, ...] = (), nonce: int = 0, commitment: str | None = None
    ) -> None:
        if not isinstance(nonce, int) or isinstance(nonce, bool) or nonce < 0:
            raise InputError("nonce", f"expected a whole number 0 or more, got {nonce!r}")
        self.client_seeds = tuple(sorted(client_seeds))
        self.client_seed_joined = join_client_seeds(self.client_seeds)
        self.nonce = nonce
        self.commitment = commitment if commitment is not None else seed_hash(server_seed)
        """What the rolls of this seed are logged under (the room's commitment; else the seed's hash)."""
        self.draws: list[Draw] = []
        self._stream = words(server_seed, self.client_seed_joined, nonce)

    def roll(self, die: Die) -> Face:
        face = face_at(die, draw_index(self._stream, face_count(die)))
        self.draws.append((sides_of(die), face))
        return face

    def draws_json(self) -> list[DrawJSON]:
        """``draws`` as JSON, the form the roll log stores."""
        return [draw_json(draw) for draw in self.draws]


STREAM_SOURCE = "commit-reveal/player"
"""The source name of a roll drawn from a player's stream (:class:`PlayerSource`)."""


def check_stream(stream: str) -> str:
    """Return ``stream`` if it is a player stream's name (1 to 40 letters, digits, ``_`` or ``-``).

    >>> check_stream("p1")
    'p1'
    """
    plain = stream.replace("_", "").replace("-", "") if isinstance(stream, str) else ""
    if not isinstance(stream, str) or not 1 <= len(stream) <= 40 or not plain.isalnum():
        raise InputError("stream", f"{str(stream)[:60]!r} is not a stream name (1 to 40 letters, digits, _ or -)")
    if not stream.isascii():
        raise InputError("stream", f"{stream!r} is not a stream name (ASCII letters and digits)")
    return stream


def player_words(server_seed: bytes, stream: str, index: int, client_seed: str) -> Iterator[int]:
    """The endless stream of 32-bit words for a player's roll number ``index`` (cursor 0, 1, 2 ...)."""
    cursor = 0
    while True:
        message = f"player:{stream}:{index}:{cursor}:{client_seed}".encode("ascii")
        block = hmac.new(server_seed, message, hashlib.sha256).digest()
        for offset in range(0, len(block), 4):
            yield int.from_bytes(block[offset : offset + 4], "big")
        cursor += 1


class PlayerSource(CommitRevealSource):
    """A commit-reveal ``DiceSource`` on a player's own stream: faces depend on the seed, the
    player (``stream``), their roll number ``index`` and their own client seed, never on the room's
    ``nonce`` (which it carries for the log).

    >>> source = PlayerSource(bytes(32), "p1", 4, "alice", nonce=9)
    >>> [source.roll(Die(20)) for _ in range(2)] == derive_player_faces(bytes(32), "p1", 4, "alice", [Die(20)] * 2)
    True
    >>> source.client_seeds, source.name
    (('alice',), 'commit-reveal/player')
    """

    name = STREAM_SOURCE

    def __init__(
        self,
        server_seed: bytes,
        stream: str,
        index: int,
        client_seed: str = "",
        nonce: int = 0,
        commitment: str | None = None,
    ) -> None:
        if client_seed:
            check_client_seed(client_seed)
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise InputError("index", f"expected a whole number 0 or more, got {index!r}")
        super().__init__(server_seed, (client_seed,) if client_seed else (), nonce, commitment)
        self.stream = check_stream(stream)
        self.index = index
        self._stream = player_words(server_seed, self.stream, index, client_seed)


def derive_player_faces(
    server_seed: bytes, stream: str, index: int, client_seed: str, dice: Sequence[Die]
) -> list[Face]:
    """The faces of roll number ``index`` of ``stream``, in order (what ``verify`` recomputes)."""
    source = PlayerSource(server_seed, stream, index, client_seed)
    return [source.roll(die) for die in dice]


def derive_faces(server_seed: bytes, client_seeds: Sequence[str], nonce: int, dice: Sequence[Die]) -> list[Face]:
    """The faces the dice of one resolution show, in order (what ``verify`` recomputes).

    >>> dice = [Die(6), Die(6), Die(None)]
    >>> derive_faces(bytes(32), ["alice"], 0, dice) == derive_faces(bytes(32), ["alice"], 0, dice)
    True
    """
    source = CommitRevealSource(server_seed, tuple(client_seeds), nonce)
    return [source.roll(die) for die in dice]


@dataclass(frozen=True, slots=True)
class Reveal:
    """A retired seed, published: it served the nonces ``first_nonce <= nonce < end_nonce``, and the
    room's hash chain stood at ``chain`` when it was revealed (``covers`` when it was committed;
    None for a commitment made before rooms had a chain, which was the seed's hash alone)."""

    seed: bytes = field(repr=False)
    first_nonce: int
    end_nonce: int
    covers: str | None = GENESIS
    chain: str = GENESIS

    @property
    def seed_hash(self) -> str:
        return seed_hash(self.seed)

    @property
    def commitment(self) -> str:
        digest = seed_hash(self.seed)
        return digest if self.covers is None else commitment(digest, self.first_nonce, self.covers)

    @property
    def count(self) -> int:
        """How many rolls the seed served (one per nonce)."""
        return self.end_nonce - self.first_nonce


@functools.lru_cache(maxsize=4096)
def _room_commitment(server_seed: bytes, first_nonce: int, covers: str | None) -> str:
    """A room's commitment, worked out once per seed (a room asks for it on every roll)."""
    digest = seed_hash(server_seed)
    return digest if covers is None else commitment(digest, first_nonce, covers)


@dataclass(frozen=True, slots=True)
class Room:
    """The fairness state of one shared room: a value, replaced (never mutated) as the room goes on.

    Nonces count up across seeds: a new seed continues where the old one stopped, so every roll of
    a room has its own nonce. ``chain`` is the hash of the room's last logged roll (:meth:`logged`);
    ``covers`` what the current seed's commitment covers (None: a commitment made before rooms had
    a chain, the seed's hash alone). Publish ``commitment`` before any roll; :meth:`rotate` reveals.

    >>> room = Room.open("table-1", client_seeds=("alice",))
    >>> source, room = room.next_source()
    >>> source.nonce, room.next_nonce
    (0, 1)
    >>> room = room.logged("ab" * 32)  # the roll's hash in the log
    >>> reveal, room = room.rotate()
    >>> reveal.commitment == source.commitment, (reveal.first_nonce, reveal.end_nonce), room.first_nonce
    (True, (0, 1), 1)
    >>> room.covers == reveal.chain == "ab" * 32
    True
    """

    id: str
    server_seed: bytes = field(repr=False)
    client_seeds: tuple[str, ...] = ()
    next_nonce: int = 0
    first_nonce: int = 0
    covers: str | None = GENESIS
    chain: str = GENESIS

    def __post_init__(self) -> None:
        if len(self.server_seed) < 16:
            raise InputError("server_seed", f"a seed has at least 16 bytes, got {len(self.server_seed)}")
        join_client_seeds(self.client_seeds)
        if not 0 <= self.first_nonce <= self.next_nonce:
            raise InputError("nonce", f"first nonce {self.first_nonce} must be 0 or more and at most {self.next_nonce}")

    @classmethod
    def open(cls, room_id: str, client_seeds: tuple[str, ...] = (), next_nonce: int = 0, chain: str = GENESIS) -> Room:
        """A room with a fresh secret seed (after the roll whose hash is ``chain``)."""
        return cls(room_id, new_seed(), tuple(sorted(client_seeds)), next_nonce, next_nonce, chain, chain)

    @property
    def seed_hash(self) -> str:
        return seed_hash(self.server_seed)

    @property
    def commitment(self) -> str:
        """What to publish before any roll with the current seed."""
        return _room_commitment(self.server_seed, self.first_nonce, self.covers)

    def with_client_seeds(self, client_seeds: Iterable[str]) -> Room:
        """The room with the players' seeds replaced (they apply from the next roll)."""
        return replace(self, client_seeds=tuple(sorted(client_seeds)))

    def source(self) -> CommitRevealSource:
        """A dice source for the next roll (nonce ``next_nonce``); does not advance the room."""
        return CommitRevealSource(self.server_seed, self.client_seeds, self.next_nonce, self.commitment)

    def next_source(self) -> tuple[CommitRevealSource, Room]:
        """A dice source for the next roll and the room after it (nonce used up)."""
        return self.source(), replace(self, next_nonce=self.next_nonce + 1)

    def logged(self, chain: str) -> Room:
        """The room after a roll whose hash in the log is ``chain``."""
        return replace(self, chain=chain)

    def rotate(self) -> tuple[Reveal, Room]:
        """Reveal the current seed and continue with a fresh one, whose commitment covers every roll so far.

        The players' seeds end with the old seed: they were known before the new one was drawn, so
        keeping them would let a server choose its seed knowing them. Players add new ones once the
        new commitment is published."""
        reveal = Reveal(self.server_seed, self.first_nonce, self.next_nonce, self.covers, self.chain)
        return reveal, replace(
            self, server_seed=new_seed(), client_seeds=(), first_nonce=self.next_nonce, covers=self.chain
        )
