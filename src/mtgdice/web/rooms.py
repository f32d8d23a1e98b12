"""Shared rooms: a game, its commit-reveal dice, its players' token hashes, its open questions.

A room lives in the database (:mod:`mtgdice.log.store`): its fairness state (secret seed, client
seeds, next nonce) in columns, everything else as one JSON text (:class:`RoomRecord`), and a
version that counts its changes. Each process keeps a :class:`RoomState` per room it serves: the
last committed record, and the :class:`~mtgdice.game.Game` built from it, which pages read.

Every change is an *action* run on a :class:`Table` (a working copy of the record) inside a batch,
by one runner task per room (so a client that goes away never cuts a batch short):

1. the room's transaction is begun and the actions waiting for the room run one after another on
   one table, in the order they came, all in one worker thread (:mod:`mtgdice.web.work`: one
   hand-over per batch, not per roll; the table is the batch's own, pages read the committed
   game). An action that resolves dice has two steps: the resolution, pure, within its
   request's budget and deadline, and then what it changes, unless its caller has given up. A
   roll resolves with its roller's dice — the room's next nonce, and the roller's own stream,
   roll number and client seed
   (:meth:`Table.source_for`, :class:`mtgdice.fair.PlayerSource`: no other player's roll or seed
   moves them) — and the answers given so far; only once it has an outcome does it take them
   (:meth:`Table.take`), so a roll refused, over its budget or given up on at its deadline spends
   nothing and leaves no gap. An open decision reserves them and is kept as a
   :class:`PendingRoll` that holds only its own roll: its roller and everyone else roll on (up to
   :data:`MAX_WAITING` waiting rolls per roller), and the decision is its decider's to answer
   (each answer re-resolves the roll from the start with the same dice — so the same faces —
   until nothing is open; answers still open at a reveal take the defaults, as the JSON
   ``choices`` do, and a roll that then fails to resolve is logged as refused, with its reason,
   so its nonce is accounted for); a finished roll is logged with the hash that continues the
   room's chain, the player whose request spent its nonce, its board by card name and text hash,
   and applied to the game;
2. the batch's rolls, reveals and the room's new state are written in one transaction
   (:meth:`~mtgdice.log.store.SqlLog.begin_room`): all of them or none. With PostgreSQL the room's
   row is locked before the batch starts, so a batch always starts from the latest state whichever
   worker wrote it, and two workers never hand out the same nonce;
3. after the commit (handed from the batch's worker thread to the log, which wakes the loop once
   it is durable, so a batch costs the loop one hand-over; on SQLite, the commits of rooms whose
   batches finish while one is being written share the next one), the new record becomes the room's
   state, the batch's events are rendered once and published with the room's new version
   (:mod:`mtgdice.web.fanout`; not rendered when no socket anywhere can hear them), then callers
   get their results. A roll is in the log before anyone hears of
   it. If the commit fails, nothing of the batch happened: every caller gets the error and the
   room is read again from the database.

Rolls that arrive together share one batch and so one commit. An action refused (bad input, a
question open, the deadline) changes nothing and fails alone. A caller waits for its action until
its request's deadline (and :data:`~mtgdice.web.work.GRACE_S`): if it has not been resolved by then
it is dropped and the caller told so; once it has changed the table, the caller waits for the commit.
A room nothing happened in (no player joined, no roll) is deleted after :data:`EMPTY_ROOM_S`.

What this module leaves out: HTTP, HTML and the rules.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import hmac
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Generic, NotRequired, Protocol, TypedDict, TypeVar

import anyio
import msgspec

from mtgdice.errors import InputError, MtgDiceError
from mtgdice.fair.commit import CommitRevealSource, PlayerSource, Reveal, Room, check_client_seed
from mtgdice.game import Game, Pending, Roll, RollSpec
from mtgdice.game.choices import Question
from mtgdice.game.request import (
    CardRecord,
    CardSource,
    Outcome,
    Prepared,
    RollKind,
    RollRequest,
    metered,
    prepare,
    resolve_prepared,
)
from mtgdice.game.snapshot import GameState, pending_from_json, pending_json, state_from_json, state_json
from mtgdice.game.table import RollKindName
from mtgdice.io.outcome import JSON
from mtgdice.io.record import use_fast_json
from mtgdice.log import LogEntry, LoggedRoll, RevealStep, SqlLog, StoredRoom
from mtgdice.log.replay import record_of
from mtgdice.log.store import RoomTransaction
from mtgdice.rules.budget import WEB_BUDGET, Budget, Meter
from mtgdice.web.memo import RequestMemo
from mtgdice.web.work import WorkPool, late, remaining

API_PLAYER = "api"
"""The player id of rolls made through the JSON API (not a player of the game)."""
MAX_CACHED = 1000
"""Rooms one process keeps in memory; an idle one is dropped first (it stays in the database)."""
MAX_BATCH = 64
"""Actions of one room written in one transaction at most."""
FEED = 50
"""Rolls a page shows when it opens."""
STATE_FORMAT = 1
BATCH_FOLLOW_S = 0.5
"""How long the actions after a batch's first applied one may take together (see ``Rooms._steps``)."""
MAX_WAITING = 8
"""Rolls of one player that may wait for decisions at once (more: answer or wait first)."""
EMPTY_ROOM_S = 10 * 60
"""A room no player joined and nobody rolled in is deleted after this long."""

logger = logging.getLogger("mtgdice.web")
T = TypeVar("T")
R = TypeVar("R")


class Conflict(InputError):
    """A request that is valid but cannot happen now (a question is open, no such player)."""


class Forbidden(InputError):
    """A missing or wrong token."""


def token_hash(token: str) -> str:
    """What a room stores of a token: its SHA-256 (a stolen database does not give the tokens).

    >>> len(token_hash("secret")), token_hash("secret") == token_hash("secret")
    (64, True)
    """
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class PendingRoll:
    """A roll waiting for answers: the game's open decision and its fixed dice (seed, client seeds,
    nonce; the roller's ``stream`` and roll number ``index``, :class:`mtgdice.fair.PlayerSource`;
    None: a roll made before rooms had player streams) and the commitment it is logged under
    (None: made before commitments covered the chain, so the seed's hash). A roller may have
    several; each is known by its roller and nonce (:attr:`key`)."""

    roll: Pending
    server_seed: bytes
    client_seeds: tuple[str, ...]
    nonce: int
    commitment: str | None = None
    stream: str | None = None
    index: int = 0

    @property
    def key(self) -> tuple[str, int]:
        return (self.roller, self.nonce)

    @property
    def question(self) -> Question:
        return self.roll.question

    @property
    def roller(self) -> str:
        return self.roll.player

    def source(self) -> CommitRevealSource:
        if self.stream is None:
            return CommitRevealSource(self.server_seed, self.client_seeds, self.nonce, self.commitment)
        seed = self.client_seeds[0] if self.client_seeds else ""
        return PlayerSource(self.server_seed, self.stream, self.index, seed, self.nonce, self.commitment)


class ProofJSON(TypedDict):
    """A roll's fairness proof as pages and the API show it."""

    source: str
    nonce: int
    commitment: str
    client_seeds: list[str]
    stream: NotRequired[str]
    index: NotRequired[int | None]


class RevealJSON(TypedDict):
    """A revealed seed as the API answers it."""

    seed: str
    commitment: str
    from_nonce: int
    to_nonce: int
    count: int
    chain: str | None
    next_commitment: str


@dataclass(frozen=True, slots=True)
class Proof:
    """What a player checks a roll against: the commitment, the client seeds and the nonce; for a
    roll on a player's stream, the stream and its roll number there."""

    source: str
    nonce: int
    commitment: str
    client_seeds: tuple[str, ...]
    stream: str | None = None
    index: int | None = None

    @classmethod
    def of(cls, source: CommitRevealSource) -> Proof:
        if isinstance(source, PlayerSource):
            seeds = tuple(source.client_seeds)
            return cls(source.name, source.nonce, source.commitment, seeds, source.stream, source.index)
        return cls(source.name, source.nonce, source.commitment, tuple(source.client_seeds))

    def to_json(self) -> ProofJSON:
        shown: ProofJSON = {
            "source": self.source,
            "nonce": self.nonce,
            "commitment": self.commitment,
            "client_seeds": list(self.client_seeds),
        }
        if self.stream is not None:
            shown["stream"], shown["index"] = self.stream, self.index
        return shown


@dataclass(slots=True)
class Finished:
    """A logged roll: its log id (known once committed), the game's record, the fairness proof and
    its hash in the room's chain."""

    id: int
    roll: Roll
    proof: Proof
    chain: str = ""
    outcome: str = ""
    """The outcome's JSON text as logged ("": not at hand; the API writes it again)."""


@dataclass(frozen=True, slots=True)
class RoomRecord:
    """Everything a room needs to go on, as a value (the database row's content).

    ``player_tokens`` pairs token hashes with player ids; ``client_seeds`` player ids with their
    seeds; ``streams`` player ids (and ``api``) with the number of rolls their stream has given;
    ``pending`` holds the open rolls, oldest first.
    """

    id: str
    token_hash: str
    fair: Room
    game: GameState = GameState()
    player_tokens: tuple[tuple[str, str], ...] = ()
    client_seeds: tuple[tuple[str, str], ...] = ()
    pending: tuple[PendingRoll, ...] = ()
    streams: tuple[tuple[str, int], ...] = ()

    def to_json(self) -> str:
        """Everything but the fairness state (stored in its own columns), as JSON text (written by msgspec:
        a batch writes it each time)."""
        return msgspec.json.encode(
            {
                "format": STATE_FORMAT,
                "token_hash": self.token_hash,
                "game": state_json(self.game),
                "player_tokens": [list(pair) for pair in self.player_tokens],
                "client_seeds": [list(pair) for pair in self.client_seeds],
                "pending": [
                    {
                        **pending_json(p.roll),
                        "server_seed": p.server_seed.hex(),
                        "client_seeds": list(p.client_seeds),
                        "nonce": p.nonce,
                        "commitment": p.commitment,
                        "stream": p.stream,
                        "index": p.index,
                    }  # fmt: skip
                    for p in self.pending
                ],
                "streams": [list(pair) for pair in self.streams],
            }
        ).decode()

    @classmethod
    def stored(cls, room_id: str, stored: StoredRoom) -> RoomRecord:
        """A record from its database row; a row that does not read is an :class:`InputError`."""
        if stored.state is None:
            raise InputError("room", f"room {room_id[:40]!r} has no table state (it was not made by mtgdice serve)")
        try:
            data = json.loads(stored.state)
            if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
                raise InputError("state.format", f"expected {STATE_FORMAT}")
            pending = tuple(
                PendingRoll(
                    pending_from_json(item, f"pending[{i}]"),
                    bytes.fromhex(item["server_seed"]),
                    tuple(item["client_seeds"]),
                    int(item["nonce"]),
                    item.get("commitment"),
                    item.get("stream"),
                    int(item.get("index", 0)),
                )
                for i, item in enumerate(data["pending"])
            )
            streams = tuple((str(player), int(count)) for player, count in data.get("streams", []))
            return cls(
                room_id,
                str(data["token_hash"]),
                stored.fair,
                state_from_json(data["game"]),
                tuple((str(a), str(b)) for a, b in data["player_tokens"]),
                tuple((str(a), str(b)) for a, b in data["client_seeds"]),
                pending,
                streams,
            )
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, InputError):
                raise
            raise InputError("room", f"the stored state of room {room_id[:40]!r} does not read: {error}") from None


@dataclass(slots=True)
class Changes:
    """What a batch changed, for the pages: rolls logged, the table, the status, questions to fetch."""

    rolls: list[Finished] = field(default_factory=list)
    table: bool = False
    status: bool = False
    questions: set[str] = field(default_factory=set)

    def __bool__(self) -> bool:
        return bool(self.rolls or self.table or self.status or self.questions)


class Table:
    """A room being changed by one batch: a working copy of its record, the rolls and reveals to write.

    Actions change only the table; it becomes the room's state when the batch commits.
    """

    def __init__(self, record: RoomRecord, game: Game | None = None, cards: CardSource | None = None) -> None:
        self.id = record.id
        self.token_hash = record.token_hash
        self.fair = record.fair
        self.cards = cards
        self._state = record.game
        self._game = game
        self.player_tokens = dict(record.player_tokens)
        self.client_seeds = dict(record.client_seeds)
        self.pending = {pending.key: pending for pending in record.pending}
        self.streams = dict(record.streams)
        self.steps: list[LogEntry | RevealStep] = []
        self.finished: list[Finished] = []
        self.changes = Changes()
        self.changed = False

    @property
    def game(self) -> Game:
        """The game, built from the record the first time an action needs it."""
        if self._game is None:
            self._game = self._state.game(self.cards)
        return self._game

    def touch(self, *, table: bool = False, status: bool = False) -> None:
        """Mark the room changed (its state is written) and what the pages should show again."""
        self.changed = True
        self.changes.table |= table
        self.changes.status |= status

    def record(self) -> RoomRecord:
        return RoomRecord(
            self.id,
            self.token_hash,
            self.fair,
            GameState.of(self._game) if self._game is not None else self._state,
            tuple(self.player_tokens.items()),
            tuple(self.client_seeds.items()),
            tuple(sorted(self.pending.values(), key=lambda pending: pending.nonce)),
            tuple(self.streams.items()),
        )

    def source_for(self, player: str) -> PlayerSource:
        """The dice of ``player``'s next roll: their stream's next roll number and their own client
        seed (:class:`mtgdice.fair.PlayerSource`), logged under the room's next nonce. Nothing is used up."""
        fair = self.fair
        return PlayerSource(
            fair.server_seed, player, self.streams.get(player, 0), self.client_seeds.get(player, ""),
            fair.next_nonce, fair.commitment,
        )  # fmt: skip

    def take(self, source: PlayerSource) -> None:
        """Use up the room's nonce and the player's roll number that ``source`` drew with."""
        assert source.nonce == self.fair.next_nonce and source.index == self.streams.get(source.stream, 0)
        _, self.fair = self.fair.next_source()
        self.streams[source.stream] = source.index + 1
        self.changed = True

    def waiting(self, roller: str) -> list[PendingRoll]:
        """``roller``'s rolls waiting for a decision, oldest first."""
        return sorted((p for p in self.pending.values() if p.roller == roller), key=lambda p: p.nonce)

    def log(self, roll: Roll, source: CommitRevealSource, player: str | None, by: str) -> Finished:
        """Queue a finished roll for the log (``by``: whose request spent its nonce); its id is set
        when the batch commits."""
        turn = roll.turn if roll.player != API_PLAYER else None
        entry = LogEntry.of(
            roll.request, roll.outcome, source, room=self.id, player=player, by=by, turn=turn,
            prev=self.fair.chain, cards=self.cards,
        )  # fmt: skip
        self._add(entry)
        finished = Finished(0, roll, Proof.of(source), entry.chain or "", entry.row.outcome)
        self.finished.append(finished)
        self.changes.rolls.append(finished)
        self.changed = True
        return finished

    def log_refused(self, pending: PendingRoll, source: CommitRevealSource, reason: str) -> None:
        """Log a roll whose nonce was spent (it asked a question) but that no longer resolves: a row
        with its faces and the reason, so its nonce is accounted for."""
        request = self.game.request_for(pending.roller, pending.roll.spec)
        player = self.game.players[pending.roller].name if pending.roller in self.game.players else None
        self._add(
            LogEntry.of(
                request,
                None,
                source,
                room=self.id,
                player=player,
                by=pending.roller,
                refused=reason,
                prev=self.fair.chain,
                cards=self.cards,
            )  # fmt: skip
        )
        self.changed = True

    def _add(self, entry: LogEntry) -> None:
        self.steps.append(entry)
        assert entry.chain is not None
        self.fair = self.fair.logged(entry.chain)

    def reveal(self) -> Reveal:
        """Reveal the seed, continue with a new one whose commitment covers every roll so far (the
        players' seeds end with it: :meth:`mtgdice.fair.Room.rotate`)."""
        revealed, self.fair = self.fair.rotate()
        self.client_seeds.clear()
        self.steps.append(RevealStep(revealed, self.fair))
        self.touch(status=True)
        return revealed


class Renderer(Protocol):
    """Turns a batch's changes into the messages the room's sockets get (the web app renders them)."""

    def __call__(self, state: RoomState, changes: Changes) -> list[str]: ...


class Publisher(Protocol):
    """Where a committed batch's messages go (:class:`mtgdice.web.fanout.Broker`)."""

    async def publish(self, room: str, seq: int, messages: list[str]) -> None: ...


@dataclass(slots=True)
class _Job(Generic[T]):
    """An action waiting for its room's batch: ``work`` (pure, within ``meter``), then ``apply``
    (changing the table with what ``work`` gave, unless its caller gave up first); both in the
    batch's worker thread."""

    apply: Callable[[Table, Any], T]
    meter: Meter
    work: Callable[[Table], Any] | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)
    applied: bool = False
    """Its changes are in the batch: its caller waits for the commit, whatever the time."""
    abandoned: bool = False
    """Its caller stopped waiting before it was applied: it is not applied."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    """Guards ``applied`` and ``abandoned`` between the caller (the loop) and the batch's thread."""
    value: Any = None
    error: BaseException | None = None

    def result(self) -> T:
        if self.error is not None:
            raise self.error
        return self.value  # type: ignore[no-any-return]


@dataclass(slots=True)
class RoomState:
    """A room as this process last saw it committed: its record, version and game; the actions
    waiting for it and the task running its batches."""

    record: RoomRecord
    version: int
    game: Game
    queue: list[_Job[Any]] = field(default_factory=list)
    runner: asyncio.Task[None] | None = None
    stale: bool = False
    touched: float = field(default_factory=time.monotonic)

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def fair(self) -> Room:
        return self.record.fair

    @property
    def busy(self) -> bool:
        return self.runner is not None or bool(self.queue)

    @property
    def pending(self) -> tuple[PendingRoll, ...]:
        """Open rolls, oldest first."""
        return self.record.pending

    def waiting(self, roller: str) -> list[PendingRoll]:
        """``roller``'s own rolls waiting for someone's decision, oldest first."""
        return [pending for pending in self.record.pending if pending.roller == roller]

    def check_room_token(self, token: str | None) -> None:
        if not token or not hmac.compare_digest(token_hash(token), self.record.token_hash):
            raise Forbidden("authorization", "this room needs its token: send 'Authorization: Bearer <token>'")

    def player_for(self, token: str | None) -> str | None:
        """The player a page token belongs to, or None."""
        if not token:
            return None
        hashed = token_hash(token)
        for known, player_id in self.record.player_tokens:
            if hmac.compare_digest(known, hashed):
                return player_id
        return None

    def question_for(self, player_id: str) -> tuple[str, PendingRoll] | None:
        """The oldest open question this player must answer (their own roll's, or another's), if any."""
        return _question_for(self.pending, player_id)

    def questions_for(self, player_id: str) -> int:
        """How many open questions wait for this player."""
        return sum(1 for pending in self.pending if pending.question.player == player_id)


def _question_for(
    pending: Iterable[PendingRoll], player_id: str, key: tuple[str, int] | None = None
) -> tuple[str, PendingRoll] | None:
    """The open question ``player_id`` answers: the one of ``key`` (roller, nonce), else their oldest."""
    for open_roll in sorted(pending, key=lambda p: p.nonce):
        if open_roll.question.player == player_id and (key is None or open_roll.key == key):
            return open_roll.roller, open_roll
    return None


class _LocalPublisher:
    async def publish(self, room: str, seq: int, messages: list[str]) -> None:
        return None

    def wants(self, room: str) -> bool:
        return False


@dataclass(slots=True)
class _Batch:
    """A batch's work: its open transaction, the newer state another worker had written (None:
    none), its table, how many actions it took, and the record to write (None: nothing changed)."""

    txn: RoomTransaction
    fresh: RoomRecord | None
    table: Table
    taken: int
    written: RoomRecord | None = None
    ids: list[int] = field(default_factory=list)
    """The logged rolls' ids, once committed."""
    error: Exception | None = None
    """Why the commit failed (nothing of the batch is stored)."""


class CachedCards:
    """Card data whose lookups are remembered by name (a room looks up the same few cards on every
    roll; the data does not change while a server runs). Failed lookups are not remembered.

    >>> from types import SimpleNamespace
    >>> calls = []
    >>> cards = CachedCards(SimpleNamespace(lookup=lambda name: calls.append(name) or name.upper()))
    >>> cards.lookup("ogre"), cards.lookup("ogre"), calls
    ('OGRE', 'OGRE', ['ogre'])
    """

    MAX = 10_000

    def __init__(self, cards: Any) -> None:
        self.cards = cards
        self._found: dict[str, CardRecord] = {}

    def lookup(self, name: str) -> CardRecord:
        found = self._found.get(name)
        if found is None:
            found = self.cards.lookup(name)
            if len(self._found) >= self.MAX:
                self._found.clear()
            self._found[name] = found
        return found

    def __getattr__(self, name: str) -> Any:
        return getattr(self.cards, name)


class Rooms:
    """Every room this process serves, the log (and rooms' store), the card data they share and the
    worker threads their rolls resolve in (each request within ``budget``)."""

    def __init__(
        self,
        log: SqlLog,
        cards: CardSource | None,
        publisher: Publisher | None = None,
        work: WorkPool | None = None,
        budget: Budget = WEB_BUDGET,
    ) -> None:
        self.log = log
        self.cards = cards
        self.publisher: Publisher = publisher or _LocalPublisher()
        self.render: Renderer = lambda state, changes: []
        self.rooms: dict[str, RoomState] = {}
        self.work = work or WorkPool()
        self.budget = budget
        use_fast_json()  # a server logs many rolls: their rows written and hashed by msgspec
        self.requests = RequestMemo(cards)
        """The API's requests read already (bots send the same one again and again)."""

    def meter(self) -> Meter:
        """A new request's budget, its deadline counted from now."""
        return Meter(self.budget)

    # -- rooms ------------------------------------------------------------------------------------

    async def create(self) -> tuple[RoomState, str]:
        """A new room, stored; it and its token (shown once: the room keeps only its hash).

        Client seeds come only after its commitment is published (:meth:`join`, :meth:`add_seed`):
        a seed given with the request that creates the room would reach the server before it drew
        its own.
        """
        room_id = secrets.token_urlsafe(8)
        token = secrets.token_urlsafe(24)
        record = RoomRecord(room_id, token_hash(token), Room.open(room_id))
        version = await anyio.to_thread.run_sync(self.log.create_room, record.fair, record.to_json())
        state = RoomState(record, version, record.game.game(self.cards))
        self._cache(state)
        return state, token

    def _cache(self, state: RoomState) -> None:
        if len(self.rooms) >= MAX_CACHED:
            idle = sorted((s for s in self.rooms.values() if not s.busy), key=lambda s: s.touched)
            for old in idle[: max(1, len(idle) // 10)]:
                del self.rooms[old.id]
        self.rooms[state.id] = state

    async def sweep(self, older_than: float = EMPTY_ROOM_S) -> int:
        """Delete the rooms nothing happened in for ``older_than`` seconds; how many went."""
        before = datetime.now(UTC) - timedelta(seconds=older_than)
        gone = await anyio.to_thread.run_sync(self.log.delete_empty_rooms, before.isoformat(timespec="microseconds"))
        for room_id in gone:
            state = self.rooms.get(room_id)
            if state is not None and not state.busy:
                del self.rooms[room_id]
        return len(gone)

    async def get(self, room_id: str, fresh: bool = False) -> RoomState:
        """The room; ``fresh`` checks the database for a newer version (another worker's change)."""
        state = self.rooms.get(room_id)
        if state is not None and not state.stale:
            if fresh and self.log.shared:
                version = await anyio.to_thread.run_sync(self.log.room_version, room_id)
                if version is not None and version != state.version:
                    await self._reload(state)
            state.touched = time.monotonic()
            return state
        stored = await anyio.to_thread.run_sync(self.log.load_room_state, room_id[:100])
        if stored is None:
            raise LookupError(f"room: no room {room_id[:40]!r} on this server; create one first")
        if state is not None:
            self._install(state, RoomRecord.stored(room_id, stored), stored.version, None)
            state.stale = False
            return state
        record = RoomRecord.stored(room_id, stored)
        state = RoomState(record, stored.version, record.game.game(self.cards))
        self._cache(state)
        return state

    async def _reload(self, state: RoomState) -> None:
        stored = await anyio.to_thread.run_sync(self.log.load_room_state, state.id)
        if stored is not None:
            self._install(state, RoomRecord.stored(state.id, stored), stored.version, None)
            state.stale = False

    def _install(self, state: RoomState, record: RoomRecord, version: int, game: Game | None) -> None:
        state.record = record
        state.version = version
        state.game = game if game is not None else record.game.game(self.cards)

    # -- batches ----------------------------------------------------------------------------------

    async def act(self, state: RoomState, action: Callable[[Table], T], meter: Meter | None = None) -> T:
        """Run ``action`` on the room in the next batch; its result once the batch is committed."""
        return await self._submit(state, _Job(lambda table, _: action(table), meter or self.meter()))

    async def resolve(
        self, state: RoomState, work: Callable[[Table], R], apply: Callable[[Table, R], T], meter: Meter
    ) -> T:
        """Run ``work(table)`` in a worker thread, then ``apply(table, its result)``, in the next batch."""
        return await self._submit(state, _Job(apply, meter, work))

    async def _submit(self, state: RoomState, job: _Job[T]) -> T:
        state.queue.append(job)
        if state.runner is None:
            state.runner = asyncio.get_running_loop().create_task(self._serve(state))
        limit = remaining(job.meter)
        timer = None if limit is None else asyncio.get_running_loop().call_later(limit, _give_up, job)
        try:  # a timer, not a task or a timeout scope: the least a wait can cost the loop
            await job.done.wait()
        finally:
            if timer is not None:
                timer.cancel()
        return job.result()

    async def _serve(self, state: RoomState) -> None:
        """The room's batches, one after another, while actions wait (a task of its own: a caller that
        goes away does not cut its batch short)."""
        try:
            while state.queue:
                jobs, state.queue = state.queue[:MAX_BATCH], state.queue[MAX_BATCH:]
                await self._run(state, jobs)
        except BaseException:
            _fail(state.queue, RuntimeError("the server is stopping"))
            state.queue = []
            raise
        finally:
            state.runner = None

    def _steps(self, table: Table, jobs: list[_Job[Any]]) -> int:
        """A batch's actions, one after another on its table, in a worker thread (the table is the
        batch's own; pages read the committed game): each refused, or its work done within its
        request's meter and its change applied. Once an action is applied, those after it share
        :data:`BATCH_FOLLOW_S`: one that does not fit is left, with the rest, to lead the next batch
        (so an applied roll's caller never waits for another heavy roll). How many actions it took."""
        started = time.monotonic()
        for position, job in enumerate(jobs):
            cap = started + BATCH_FOLLOW_S if any(done.applied for done in jobs[:position]) else None
            meter = job.meter
            try:
                with job.lock:  # its caller may give up: then, and only then, it is not applied
                    if job.abandoned:
                        job.error = late(job.meter)
                        continue
                meter = _capped(job.meter, cap)
                with metered(meter):
                    meter.check_time()  # waited past its deadline (or no time is left in this batch)
                    computed = job.work(table) if job.work is not None else None
                with job.lock:
                    if job.abandoned:  # its caller gave up while it resolved: nothing of it is applied
                        job.error = late(job.meter)
                        continue
                    job.applied = True
                job.value = job.apply(table, computed)
            except (MtgDiceError, LookupError) as refused:  # refused before changing anything
                if meter is not job.meter and cap is not None and time.monotonic() > cap:
                    return position  # out of the batch's time, not its own: it leads the next batch
                job.error = refused
        return len(jobs)

    def _batch(
        self, record: RoomRecord, version: int, jobs: list[_Job[Any]], done: Callable[[_Batch, None], None]
    ) -> None:
        """A batch's work in one worker thread (one hand-over for all of it): begin the room's
        transaction, run the actions on a table of the latest state, and commit what they changed
        (or give the transaction up when nothing changed); ``done(batch, None)`` once committed. On
        SQLite, the commit of a batch that finishes while another room's is being written joins the
        next group (:meth:`mtgdice.log.store.RoomTransaction.commit_then`): this thread goes on to
        the next batch, and rooms share fsyncs. A failed commit is the batch's
        :attr:`_Batch.error`: nothing of it is stored."""
        txn = self.log.begin_room(record.id, version)
        try:
            fresh = RoomRecord.stored(record.id, txn.fresh) if txn.fresh is not None else None
            table = Table(fresh or record, cards=self.cards)
            taken = self._steps(table, jobs)
            batch = _Batch(txn, fresh, table, taken, table.record() if table.changed else None)
        except BaseException:
            _abort(txn)
            raise

        def committed(ids: list[int] | None, error: Exception | None) -> None:
            if error is not None:  # nothing of the batch is stored; its taken actions fail with this
                _abort(txn)
                batch.error = error
            else:
                batch.ids = ids or []
            done(batch, None)

        written = batch.written
        try:
            if written is None:
                txn.abort()
                committed([], None)
                return
            state = written.to_json()
        except Exception as error:
            committed(None, error)
            return
        txn.commit_then(table.steps, written.fair, state, committed)

    async def _run(self, state: RoomState, jobs: list[_Job[Any]]) -> None:
        try:
            if state.stale:
                await self._reload(state)
            batch: _Batch = await self.work.call_then(self._batch, state.record, state.version, jobs)
            jobs, state.queue[:0] = jobs[: batch.taken], jobs[batch.taken :]
            if batch.error is not None:
                raise batch.error
            if batch.written is None:
                if batch.fresh is not None:  # another worker changed the room: this process now knows it
                    self._install(state, batch.fresh, batch.txn.version, None)
                _finish(jobs)
                return
            written, ids = batch.written, batch.ids
        except BaseException as error:
            state.stale = True  # nothing of the batch is stored (its thread gave the transaction up): read it again
            if isinstance(error, (MtgDiceError, LookupError)):
                _fail(jobs, error)
                return
            if self.log.unavailable(error):
                logger.warning("room %s: the database is unavailable (%d actions not stored)", state.id, len(jobs))
            else:
                logger.exception("room %s: a batch of %d actions failed", state.id, len(jobs))
            _fail(jobs, error if isinstance(error, Exception) else RuntimeError("cancelled"))
            if not isinstance(error, Exception):
                raise
            return
        table = batch.table
        for finished, roll_id in zip(table.finished, ids, strict=True):
            finished.id = roll_id
        # A batch that never opened the game (API rolls) leaves it as it was: keep the one built.
        kept = state.game if batch.fresh is None else None
        self._install(state, written, batch.txn.version + 1, table._game if table._game is not None else kept)
        wants = getattr(self.publisher, "wants", None)
        if wants is not None and not wants(state.id):
            _finish(jobs)  # nobody listens to this room anywhere: nothing to render
            return
        try:
            await self.publisher.publish(state.id, state.version, self.render(state, table.changes))
        except Exception:  # committed all the same; sockets catch up (mtgdice.web.fanout)
            logger.exception("room %s: publishing version %d failed", state.id, state.version)
        _finish(jobs)

    async def drain(self) -> None:
        """Wait until no room has a batch running or waiting (graceful shutdown)."""
        while True:
            runners = [state.runner for state in self.rooms.values() if state.runner is not None]
            if not runners:
                return
            await asyncio.gather(*runners, return_exceptions=True)

    # -- actions ----------------------------------------------------------------------------------

    async def join(self, state: RoomState, name: str, client_seed: str = "") -> tuple[str, str]:
        """Add a player; return their id and page token. A client seed applies from the next roll."""
        token = secrets.token_urlsafe(24)
        if client_seed:
            check_client_seed(client_seed, "client_seed")

        def join(table: Table) -> str:
            player = table.game.add_player(name)
            table.player_tokens[token_hash(token)] = player.id
            if client_seed:
                table.client_seeds[player.id] = client_seed
                table.fair = table.fair.with_client_seeds(table.client_seeds.values())
            table.touch(table=True, status=True)
            return player.id

        return await self.act(state, join), token

    async def add_seed(self, state: RoomState, client_seed: JSON, player_id: str = API_PLAYER) -> tuple[str, ...]:
        """A player's client seed (the API's by default; one each, replaced by the next), from the next
        roll on until the next reveal; the room's seeds now."""
        if not isinstance(client_seed, str):
            raise InputError("client_seed", "expected a string of 1 to 64 printable ASCII characters")
        check_client_seed(client_seed, "client_seed")

        def add(table: Table) -> tuple[str, ...]:
            table.client_seeds[player_id] = client_seed
            table.fair = table.fair.with_client_seeds(table.client_seeds.values())
            table.touch(status=True)
            return table.fair.client_seeds

        return await self.act(state, add)

    async def roll(
        self, state: RoomState, player_id: str, spec: RollSpec, meter: Meter | None = None
    ) -> Finished | PendingRoll:
        """A player's roll from the page: finished and logged, or waiting for an answer."""

        def resolve(table: Table) -> tuple[PlayerSource, Roll | Pending]:
            # A decision holds only its own roll: the roller (and everyone else) rolls on meanwhile, up to a bound.
            source = table.source_for(player_id)
            outcome = table.game.resolve_roll(player_id, spec, source, (), self.cards)
            waiting = table.waiting(player_id)
            if isinstance(outcome, Pending) and len(waiting) >= MAX_WAITING:
                deciders = sorted({_name(table.game, pending.question.player) for pending in waiting})
                raise Conflict(
                    "roll", f"{len(waiting)} of your rolls wait for a decision (by {', '.join(deciders)}) and this "
                    "one would wait too; roll it once one is decided",
                )  # fmt: skip
            return source, outcome

        def apply(table: Table, resolved: tuple[PlayerSource, Roll | Pending]) -> Finished | PendingRoll:
            source, outcome = resolved
            table.take(source)
            if isinstance(outcome, Pending):
                pending = PendingRoll(
                    outcome, table.fair.server_seed, source.client_seeds, source.nonce, source.commitment,
                    source.stream, source.index,
                )  # fmt: skip
                table.pending[pending.key] = pending
                if outcome.question.player != player_id:
                    table.changes.questions.add(outcome.question.player)
                table.touch(status=True)
                return pending
            return self._finish(table, outcome, source, player_id)

        return await self.resolve(state, resolve, apply, meter or self.meter())

    async def answer(
        self,
        state: RoomState,
        player_id: str,
        raw: list[str],
        meter: Meter | None = None,
        key: tuple[str, int] | None = None,
    ) -> tuple[str, Finished | PendingRoll]:
        """``player_id`` answers a question open for them (the one of ``key``, the roller and nonce
        of its roll; else their oldest); the roll is resolved again."""

        def resolve(table: Table) -> tuple[str, PendingRoll, CommitRevealSource, Roll | Pending]:
            found = _question_for(table.pending.values(), player_id, key)
            if found is None:
                if key is not None and key in table.pending:
                    decider = _name(table.game, table.pending[key].question.player)
                    raise Conflict("answer", f"that question is {decider}'s to answer, not yours")
                raise Conflict("answer", "no question is waiting for you (it may have been answered already)")
            roller, pending = found
            try:
                given = pending.question.answer_from(raw)
            except ValueError as error:
                raise InputError("answer", str(error).removeprefix("answer: ")) from None
            answers = (*pending.roll.answers, given)
            source = pending.source()
            return (
                roller,
                pending,
                source,
                table.game.resolve_roll(roller, pending.roll.spec, source, answers, self.cards),
            )

        def apply(
            table: Table, resolved: tuple[str, PendingRoll, CommitRevealSource, Roll | Pending]
        ) -> tuple[str, Finished | PendingRoll]:
            roller, pending, source, outcome = resolved
            if isinstance(outcome, Pending):
                table.pending[pending.key] = dataclasses.replace(pending, roll=outcome)
                table.changes.questions.update({outcome.question.player, roller} - {player_id})
                table.touch(status=True)
                return roller, table.pending[pending.key]
            del table.pending[pending.key]
            if roller != player_id:
                table.changes.questions.add(roller)
            return roller, self._finish(table, outcome, source, roller)

        return await self.resolve(state, resolve, apply, meter or self.meter())

    def _finish(self, table: Table, roll: Roll, source: CommitRevealSource, by: str) -> Finished:
        finished = table.log(roll, source, roll.player_name, by)
        table.game.record(roll)
        table.touch(table=True, status=True)
        return finished

    async def api_roll(self, state: RoomState, body: Mapping[str, JSON], meter: Meter | None = None) -> Finished:
        """A ``resolve`` request rolled with the room's dice (``choices`` answer decisions).

        The request is read on arrival; its cards are compiled and it is resolved in the batch's
        worker thread, within its budget: a request refused there takes no nonce.
        """
        meter = meter or self.meter()
        for field_name in ("dice", "planar", "coins", "random"):
            if field_name in body:
                raise InputError(field_name, "faces come from the room's commit-reveal dice; leave it out")
        player = body.get("player")
        if player is not None and (not isinstance(player, str) or len(player) > 40):
            raise InputError("player", "expected a name of up to 40 characters")
        request = self.requests({key: value for key, value in body.items() if key != "player"})

        def resolve(table: Table) -> tuple[PlayerSource, Prepared, Outcome]:
            prepared = self.requests.prepared(request, self.cards)
            source = table.source_for(API_PLAYER)
            return source, prepared, resolve_prepared(prepared, source)

        def apply(table: Table, resolved: tuple[PlayerSource, Prepared, Outcome]) -> Finished:
            source, prepared, outcome = resolved
            table.take(source)
            roll = Roll(
                API_PLAYER, player or "API", prepared.name[:120], "card", request, outcome, prepared.instruction
            )
            return table.log(roll, source, player, API_PLAYER)

        return await self.resolve(state, resolve, apply, meter)

    async def reveal(self, state: RoomState, meter: Meter | None = None) -> tuple[RevealJSON, list[Finished]]:
        """Finish open rolls with default answers, reveal the seed and commit to a new one.

        An open roll that does not resolve with the defaults (over its budget) is logged as
        refused, with its reason: its nonce was spent when it asked its question.
        """
        Resolved = tuple[str, PendingRoll, CommitRevealSource, Roll | str]

        def resolve(table: Table) -> list[Resolved]:
            resolved: list[Resolved] = []
            for pending in sorted(table.pending.values(), key=lambda p: p.nonce):
                roller = pending.roller
                source = pending.source()
                try:
                    outcome = table.game.resolve_roll(
                        roller, pending.roll.spec, source, pending.roll.answers, self.cards, finish=True
                    )
                except (MtgDiceError, LookupError) as error:
                    resolved.append((roller, pending, source, str(error)))
                    continue
                assert isinstance(outcome, Roll)
                resolved.append((roller, pending, source, outcome))
            return resolved

        def apply(table: Table, resolved: list[Resolved]) -> tuple[RevealJSON, list[Finished]]:
            finished: list[Finished] = []
            for roller, pending, source, outcome in resolved:
                del table.pending[pending.key]
                table.changes.questions.update({roller, pending.question.player})
                if isinstance(outcome, str):
                    table.log_refused(pending, source, outcome)
                else:
                    finished.append(self._finish(table, outcome, source, roller))
            revealed = table.reveal()
            return {
                "seed": revealed.seed.hex(),
                "commitment": revealed.commitment,
                "from_nonce": revealed.first_nonce,
                "to_nonce": revealed.end_nonce,
                "count": revealed.count,
                "chain": revealed.chain,
                "next_commitment": table.fair.commitment,
            }, finished

        return await self.resolve(state, resolve, apply, meter or self.meter())

    # -- what pages show --------------------------------------------------------------------------

    async def recent(self, state: RoomState, limit: int = FEED) -> list[LoggedRoll]:
        """The room's latest rolls in the log, newest first (whichever worker made them)."""
        return await anyio.to_thread.run_sync(lambda: self.log.list(state.id, limit))

    def rebuild(self, logged: LoggedRoll) -> Finished | None:
        """A logged roll as the page shows it, resolved again from its logged faces (None if it no longer resolves)."""
        try:
            record, _ = record_of(logged, self.cards)  # a refused roll does not resolve: None
            request, outcome = record.request, record.outcome
            if outcome is None or not isinstance(request, RollRequest):
                return None
            prepared = prepare(request, self.cards)
        except (MtgDiceError, ValueError, TypeError):
            return None
        label = prepared.name[:120] if request.kind is RollKind.CARD else request.label
        kinds: dict[RollKind, RollKindName] = {
            RollKind.DICE: "dice", RollKind.PLAIN: "dice", RollKind.PLANAR: "planar", RollKind.COIN: "coin"
        }  # fmt: skip
        kind = kinds.get(request.kind, "card")
        player = logged.player or "API"
        roll = Roll("", player, label, kind, request, outcome, prepared.instruction, logged.turn or 1)
        proof = Proof(logged.source, logged.nonce or 0, logged.commitment or "", tuple(logged.client_seeds))
        return Finished(logged.id, roll, proof, logged.chain or "")


def _name(game: Game, player_id: str) -> str:
    """A player's name as pages show it (the JSON API's rolls: "the API")."""
    found = game.players.get(player_id)
    return found.name if found is not None else "the API"


def _abort(txn: RoomTransaction) -> None:
    try:
        txn.abort()
    except Exception:  # the connection is gone: the database rolls back by itself
        pass


def _capped(meter: Meter, cap: float | None) -> Meter:
    """``meter``, or when ``cap`` comes before its deadline a copy of it that stops at ``cap``."""
    deadline = meter.deadline
    if cap is None or (deadline is not None and deadline <= cap):
        return meter
    return dataclasses.replace(meter, budget=dataclasses.replace(meter.budget, seconds=max(0.0, cap - meter.started)))


def _give_up(job: _Job[Any]) -> None:
    """A job's deadline (and the grace) passed: unless its change is in a batch already (then the
    commit answers), its caller is told so now and the job is left out of any batch."""
    if job.done.is_set():
        return
    with job.lock:
        if job.applied:
            return
        job.abandoned = True
    job.error = late(job.meter)
    job.done.set()


def _finish(jobs: list[_Job[Any]]) -> None:
    for job in jobs:
        job.done.set()


def _fail(jobs: list[_Job[Any]], error: BaseException) -> None:
    for job in jobs:
        if job.error is None:
            job.error = error
        job.done.set()
