"""Shared rooms: a game, its commit-reveal dice, its players' token hashes, its open questions.

A room lives in the database (:mod:`mtgdice.log.store`): its fairness state (secret seed, client
seeds, next nonce) in columns, everything else as one JSON text (:class:`RoomRecord`), and a
version that counts its changes. Each process keeps a :class:`RoomState` per room it serves: the
last committed record, and the :class:`~mtgdice.game.Game` built from it, which pages read.

Every change is an *action* run on a :class:`Table` (a working copy of the record) inside a batch:

1. the actions waiting for the room run one after another on one table, in the order they came:
   a roll takes the room's next nonce (:meth:`mtgdice.fair.Room.next_source`) and the game
   resolves it with the answers given so far; an open decision reserves the nonce and is kept as
   a :class:`PendingRoll` (each answer re-resolves the roll from the start with the same seed,
   client seeds and nonce — so the same faces — until nothing is open; answers still open at a
   reveal take the defaults, as the JSON ``choices`` do); a finished roll is applied to the game;
2. the batch's rolls, reveals and the room's new state are written in one transaction
   (:meth:`~mtgdice.log.store.SqlLog.begin_room`): all of them or none. With PostgreSQL the room's
   row is locked before the batch starts, so a batch always starts from the latest state whichever
   worker wrote it, and two workers never hand out the same nonce;
3. after the commit, the new record becomes the room's state, the batch's events are rendered once
   and published with the room's new version (:mod:`mtgdice.web.fanout`), then callers get their
   results. A roll is in the log before anyone hears of it. If the commit fails, nothing of the
   batch happened: every caller gets the error and the room is read again from the database.

Rolls that arrive together share one batch and so one commit. An action refused (bad input, a
question open) changes nothing and fails alone.

What this module leaves out: HTTP, HTML and the rules.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import anyio

from mtgdice.errors import InputError, MtgDiceError
from mtgdice.fair import CommitRevealSource, Room, check_client_seed
from mtgdice.game import Game, Pending, Roll, RollSpec
from mtgdice.game.choices import Question
from mtgdice.game.snapshot import GameState, pending_from_json, pending_json, state_from_json, state_json
from mtgdice.game.table import RollKindName
from mtgdice.jsonio import request_from_json
from mtgdice.log import LogEntry, LoggedRoll, RevealStep, SqlLog, StoredRoom
from mtgdice.log.replay import resolve_logged
from mtgdice.request import CardSource, RollKind, prepare, resolve_prepared
from mtgdice.rules import ScriptedChooser

API_PLAYER = "api"
"""The player id of rolls made through the JSON API (not a player of the game)."""
MAX_CACHED = 1000
"""Rooms one process keeps in memory; an idle one is dropped first (it stays in the database)."""
MAX_BATCH = 64
"""Actions of one room written in one transaction at most."""
FEED = 50
"""Rolls a page shows when it opens."""
STATE_FORMAT = 1

logger = logging.getLogger("mtgdice.web")
T = TypeVar("T")


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
    """A roll waiting for answers: the game's open decision and its fixed dice (seed, client seeds, nonce)."""

    roll: Pending
    server_seed: bytes
    client_seeds: tuple[str, ...]
    nonce: int

    @property
    def question(self) -> Question:
        return self.roll.question

    @property
    def roller(self) -> str:
        return self.roll.player

    def source(self) -> CommitRevealSource:
        return CommitRevealSource(self.server_seed, self.client_seeds, self.nonce)


@dataclass(frozen=True, slots=True)
class Proof:
    """What a player checks a roll against: the commitment, the client seeds and the nonce."""

    source: str
    nonce: int
    commitment: str
    client_seeds: tuple[str, ...]

    @classmethod
    def of(cls, source: CommitRevealSource) -> Proof:
        return cls(source.name, source.nonce, source.commitment, tuple(source.client_seeds))

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "nonce": self.nonce,
            "commitment": self.commitment,
            "client_seeds": list(self.client_seeds),
        }


@dataclass(slots=True)
class Finished:
    """A logged roll: its log id (known once committed), the game's record and the fairness proof."""

    id: int
    roll: Roll
    proof: Proof


@dataclass(frozen=True, slots=True)
class RoomRecord:
    """Everything a room needs to go on, as a value (the database row's content).

    ``player_tokens`` pairs token hashes with player ids; ``client_seeds`` player ids with their
    seeds; ``pending`` holds one open roll per roller.
    """

    id: str
    token_hash: str
    fair: Room
    game: GameState = GameState()
    player_tokens: tuple[tuple[str, str], ...] = ()
    client_seeds: tuple[tuple[str, str], ...] = ()
    pending: tuple[PendingRoll, ...] = ()

    def to_json(self) -> str:
        """Everything but the fairness state (stored in its own columns), as JSON text."""
        return json.dumps(
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
                    }  # fmt: skip
                    for p in self.pending
                ],
            },
            separators=(",", ":"),
        )

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
                )
                for i, item in enumerate(data["pending"])
            )
            return cls(
                room_id,
                str(data["token_hash"]),
                stored.fair,
                state_from_json(data["game"]),
                tuple((str(a), str(b)) for a, b in data["player_tokens"]),
                tuple((str(a), str(b)) for a, b in data["client_seeds"]),
                pending,
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

    def __init__(self, record: RoomRecord, game: Game | None = None) -> None:
        self.id = record.id
        self.token_hash = record.token_hash
        self.fair = record.fair
        self._state = record.game
        self._game = game
        self.player_tokens = dict(record.player_tokens)
        self.client_seeds = dict(record.client_seeds)
        self.pending = {pending.roller: pending for pending in record.pending}
        self.steps: list[LogEntry | RevealStep] = []
        self.finished: list[Finished] = []
        self.changes = Changes()
        self.changed = False

    @property
    def game(self) -> Game:
        """The game, built from the record the first time an action needs it."""
        if self._game is None:
            self._game = self._state.game()
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
            tuple(self.pending.values()),
        )

    def next_source(self) -> CommitRevealSource:
        """The dice of the room's next nonce; the nonce is used up."""
        source, self.fair = self.fair.next_source()
        self.changed = True
        return source

    def log(self, roll: Roll, source: CommitRevealSource, player: str | None) -> Finished:
        """Queue a finished roll for the log; its id is set when the batch commits."""
        turn = roll.turn if roll.player != API_PLAYER else None
        self.steps.append(LogEntry(roll.request, roll.outcome, source, self.id, player, turn))
        finished = Finished(0, roll, Proof.of(source))
        self.finished.append(finished)
        self.changes.rolls.append(finished)
        self.changed = True
        return finished


class Renderer(Protocol):
    """Turns a batch's changes into the messages the room's sockets get (the web app renders them)."""

    def __call__(self, state: RoomState, changes: Changes) -> list[str]: ...


class Publisher(Protocol):
    """Where a committed batch's messages go (:class:`mtgdice.web.fanout.Broker`)."""

    async def publish(self, room: str, seq: int, messages: list[str]) -> None: ...


@dataclass(slots=True)
class _Job(Generic[T]):
    action: Callable[[Table], T]
    done: bool = False
    value: Any = None
    error: BaseException | None = None

    def result(self) -> T:
        if self.error is not None:
            raise self.error
        return self.value  # type: ignore[no-any-return]


@dataclass(slots=True)
class RoomState:
    """A room as this process last saw it committed: its record, version and game."""

    record: RoomRecord
    version: int
    game: Game
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    queue: list[_Job[Any]] = field(default_factory=list)
    stale: bool = False
    touched: float = field(default_factory=time.monotonic)

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def fair(self) -> Room:
        return self.record.fair

    @property
    def pending(self) -> dict[str, PendingRoll]:
        """Open rolls by roller."""
        return {pending.roller: pending for pending in self.record.pending}

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
        """The open question this player must answer (their own roll's, or another's), if any."""
        return _question_for(self.pending, player_id)


def _question_for(pending: dict[str, PendingRoll], player_id: str) -> tuple[str, PendingRoll] | None:
    for roller, open_roll in pending.items():
        if open_roll.question.player == player_id:
            return roller, open_roll
    return None


class _LocalPublisher:
    async def publish(self, room: str, seq: int, messages: list[str]) -> None:
        return None


class Rooms:
    """Every room this process serves, the log (and rooms' store) and the card data they share."""

    def __init__(self, log: SqlLog, cards: CardSource | None, publisher: Publisher | None = None) -> None:
        self.log = log
        self.cards = cards
        self.publisher: Publisher = publisher or _LocalPublisher()
        self.render: Renderer = lambda state, changes: []
        self.rooms: dict[str, RoomState] = {}

    # -- rooms ------------------------------------------------------------------------------------

    async def create(self, client_seeds: Sequence[str] = ()) -> tuple[RoomState, str]:
        """A new room, stored; it and its token (shown once: the room keeps only its hash)."""
        seeds = tuple(check_client_seed(seed, f"client_seeds[{i}]") for i, seed in enumerate(client_seeds))
        room_id = secrets.token_urlsafe(8)
        token = secrets.token_urlsafe(24)
        record = RoomRecord(room_id, token_hash(token), Room.open(room_id, client_seeds=seeds))
        version = await anyio.to_thread.run_sync(self.log.create_room, record.fair, record.to_json())
        state = RoomState(record, version, record.game.game())
        self._cache(state)
        return state, token

    def _cache(self, state: RoomState) -> None:
        if len(self.rooms) >= MAX_CACHED:
            idle = sorted(
                (s for s in self.rooms.values() if not s.lock.locked() and not s.queue), key=lambda s: s.touched
            )
            for old in idle[: max(1, len(idle) // 10)]:
                del self.rooms[old.id]
        self.rooms[state.id] = state

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
        state = RoomState(record, stored.version, record.game.game())
        self._cache(state)
        return state

    async def _reload(self, state: RoomState) -> None:
        stored = await anyio.to_thread.run_sync(self.log.load_room_state, state.id)
        if stored is not None:
            self._install(state, RoomRecord.stored(state.id, stored), stored.version, None)
            state.stale = False

    @staticmethod
    def _install(state: RoomState, record: RoomRecord, version: int, game: Game | None) -> None:
        state.record = record
        state.version = version
        state.game = game if game is not None else record.game.game()

    # -- batches ----------------------------------------------------------------------------------

    async def act(self, state: RoomState, action: Callable[[Table], T]) -> T:
        """Run ``action`` on the room in the next batch; its result once the batch is committed."""
        job: _Job[T] = _Job(action)
        state.queue.append(job)
        async with state.lock:
            while not job.done:
                jobs, state.queue = state.queue[:MAX_BATCH], state.queue[MAX_BATCH:]
                with anyio.CancelScope(shield=True):  # a batch, once begun, is committed or rolled back whole
                    await self._run(state, jobs)
        return job.result()

    async def _run(self, state: RoomState, jobs: list[_Job[Any]]) -> None:
        try:
            if state.stale:
                await self._reload(state)
            txn = await anyio.to_thread.run_sync(self.log.begin_room, state.id, state.version)
        except Exception as error:  # the database is unreachable, or the room is gone
            _fail(jobs, error)
            return
        try:
            if txn.fresh is not None:  # another worker changed the room: start from its state
                self._install(state, RoomRecord.stored(state.id, txn.fresh), txn.fresh.version, None)
            table = Table(state.record)
            for job in jobs:
                try:
                    job.value = job.action(table)
                except (MtgDiceError, LookupError) as refused:  # refused before changing anything
                    job.error = refused
            if not table.changed:
                await anyio.to_thread.run_sync(txn.abort)
                _finish(jobs)
                return
            record = table.record()
            ids = await anyio.to_thread.run_sync(txn.commit, table.steps, record.fair, record.to_json())
        except BaseException as error:
            state.stale = True  # nothing of the batch is stored: read the room again next time
            try:
                await anyio.to_thread.run_sync(txn.abort)
            except Exception:  # the connection is gone: the database rolls back by itself
                pass
            if isinstance(error, (MtgDiceError, LookupError)):
                _fail(jobs, error)
                return
            logger.exception("room %s: a batch of %d actions failed", state.id, len(jobs))
            _fail(jobs, error if isinstance(error, Exception) else RuntimeError("cancelled"))
            if not isinstance(error, Exception):
                raise
            return
        for finished, roll_id in zip(table.finished, ids, strict=True):
            finished.id = roll_id
        # A batch that never opened the game (API rolls) leaves it as it was: keep the one built.
        self._install(state, record, txn.version + 1, table._game if table._game is not None else state.game)
        try:
            await self.publisher.publish(state.id, state.version, self.render(state, table.changes))
        except Exception:  # committed all the same; sockets catch up (mtgdice.web.fanout)
            logger.exception("room %s: publishing version %d failed", state.id, state.version)
        _finish(jobs)

    async def drain(self) -> None:
        """Wait until no room has a batch running or waiting (graceful shutdown)."""
        for state in list(self.rooms.values()):
            while state.queue or state.lock.locked():
                async with state.lock:
                    pass

    # -- actions ----------------------------------------------------------------------------------

    async def join(self, state: RoomState, name: str, client_seed: str = "") -> tuple[str, str]:
        """Add a player; return their id and page token. A client seed applies from the next roll."""
        token = secrets.token_urlsafe(24)

        def join(table: Table) -> str:
            if client_seed:
                check_client_seed(client_seed, "client_seed")
            player = table.game.add_player(name)
            table.player_tokens[token_hash(token)] = player.id
            if client_seed:
                table.client_seeds[player.id] = client_seed
                table.fair = table.fair.with_client_seeds(table.client_seeds.values())
            table.touch(table=True, status=True)
            return player.id

        return await self.act(state, join), token

    async def roll(self, state: RoomState, player_id: str, spec: RollSpec) -> Finished | PendingRoll:
        """A player's roll from the page: finished and logged, or waiting for an answer."""

        def roll(table: Table) -> Finished | PendingRoll:
            if player_id in table.pending:
                raise Conflict("roll", "answer the open question of your last roll first")
            source = table.fair.source()
            outcome = table.game.resolve_roll(player_id, spec, source, (), self.cards)
            table.next_source()
            if isinstance(outcome, Pending):
                pending = PendingRoll(outcome, table.fair.server_seed, source.client_seeds, source.nonce)
                table.pending[player_id] = pending
                if outcome.question.player != player_id:
                    table.changes.questions.add(outcome.question.player)
                table.touch(status=True)
                return pending
            return self._finish(table, outcome, source)

        return await self.act(state, roll)

    async def answer(self, state: RoomState, player_id: str, raw: list[str]) -> tuple[str, Finished | PendingRoll]:
        """``player_id`` answers the question open for them; the roll is resolved again."""

        def answer(table: Table) -> tuple[str, Finished | PendingRoll]:
            found = _question_for(table.pending, player_id)
            if found is None:
                raise Conflict("answer", "no question is waiting for you")
            roller, pending = found
            try:
                given = pending.question.answer_from(raw)
            except ValueError as error:
                raise InputError("answer", str(error).removeprefix("answer: ")) from None
            answers = (*pending.roll.answers, given)
            source = pending.source()
            outcome = table.game.resolve_roll(roller, pending.roll.spec, source, answers, self.cards)
            if isinstance(outcome, Pending):
                table.pending[roller] = PendingRoll(outcome, pending.server_seed, pending.client_seeds, pending.nonce)
                table.changes.questions.add(outcome.question.player)
                table.touch()
                return roller, table.pending[roller]
            del table.pending[roller]
            if roller != player_id:
                table.changes.questions.add(roller)
            return roller, self._finish(table, outcome, source)

        return await self.act(state, answer)

    def _finish(self, table: Table, roll: Roll, source: CommitRevealSource) -> Finished:
        finished = table.log(roll, source, roll.player_name)
        table.game.record(roll)
        table.touch(table=True, status=True)
        return finished

    async def api_roll(self, state: RoomState, body: dict[str, Any]) -> Finished:
        """A ``resolve`` request rolled with the room's dice (``choices`` answer decisions)."""
        for field_name in ("dice", "planar", "coins", "random"):
            if field_name in body:
                raise InputError(field_name, "faces come from the room's commit-reveal dice; leave it out")
        player = body.get("player")
        if player is not None and (not isinstance(player, str) or len(player) > 40):
            raise InputError("player", "expected a name of up to 40 characters")
        request = request_from_json({key: value for key, value in body.items() if key != "player"})
        prepared = prepare(request, self.cards)

        def api_roll(table: Table) -> Finished:
            source = table.fair.source()
            outcome = resolve_prepared(prepared, request, source, ScriptedChooser(request.choices))
            table.next_source()
            name = prepared.name[:120]
            roll = Roll(API_PLAYER, player or "API", name, "card", request, outcome, prepared.instruction)
            return table.log(roll, source, player)

        return await self.act(state, api_roll)

    async def reveal(self, state: RoomState) -> tuple[dict[str, Any], list[Finished]]:
        """Finish open rolls with default answers, reveal the seed and commit to a new one."""

        def reveal(table: Table) -> tuple[dict[str, Any], list[Finished]]:
            finished: list[Finished] = []
            for roller, pending in list(table.pending.items()):
                source = pending.source()
                outcome = table.game.resolve_roll(
                    roller, pending.roll.spec, source, pending.roll.answers, self.cards, finish=True
                )
                assert isinstance(outcome, Roll)
                del table.pending[roller]
                table.changes.questions.update({roller, pending.question.player})
                finished.append(self._finish(table, outcome, source))
            revealed, table.fair = table.fair.rotate()
            table.steps.append(RevealStep(revealed, table.fair))
            table.touch(status=True)
            return {
                "seed": revealed.seed.hex(),
                "commitment": revealed.commitment,
                "from_nonce": revealed.first_nonce,
                "to_nonce": revealed.end_nonce,
                "next_commitment": table.fair.commitment,
            }, finished

        return await self.act(state, reveal)

    # -- what pages show --------------------------------------------------------------------------

    async def recent(self, state: RoomState, limit: int = FEED) -> list[LoggedRoll]:
        """The room's latest rolls in the log, newest first (whichever worker made them)."""
        return await anyio.to_thread.run_sync(lambda: self.log.list(state.id, limit))

    def rebuild(self, logged: LoggedRoll) -> Finished | None:
        """A logged roll as the page shows it, resolved again from its logged faces (None if it no longer resolves)."""
        try:
            request, outcome, _ = resolve_logged(logged, self.cards)
            prepared = prepare(request, self.cards)
        except (MtgDiceError, ValueError, TypeError):
            return None
        label = prepared.name[:120] if request.kind is RollKind.CARD else request.label
        kinds: dict[RollKind, RollKindName] = {RollKind.DICE: "dice", RollKind.PLANAR: "planar", RollKind.COIN: "coin"}
        kind = kinds.get(request.kind, "card")
        player = logged.player or "API"
        roll = Roll("", player, label, kind, request, outcome, prepared.instruction, logged.turn or 1)
        proof = Proof("commit-reveal", logged.nonce or 0, logged.commitment or "", tuple(logged.client_seeds))
        return Finished(logged.id, roll, proof)


def _finish(jobs: list[_Job[Any]]) -> None:
    for job in jobs:
        job.done = True


def _fail(jobs: list[_Job[Any]], error: BaseException) -> None:
    for job in jobs:
        if job.error is None:
            job.error = error
        job.done = True
