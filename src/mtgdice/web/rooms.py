"""Shared rooms: a game, its commit-reveal dice, its players' tokens, its open questions, its sockets.

One :class:`RoomState` per room, in memory; every change to it happens under the room's lock, so
nonces are handed out in order and a roll is logged (committed to the :class:`RollLog`) before
anyone hears about it. The flow of one roll:

1. the dice source for the room's next nonce is made (:meth:`mtgdice.fair.Room.source`); the
   game resolves the roll with the answers given so far (:mod:`mtgdice.game`);
2. an open decision reserves the nonce and is kept as a :class:`PendingRoll`; each answer
   re-resolves the roll from the start with the same seed, client seeds and nonce — so the same
   faces — until nothing is open (answers still open when the seed is revealed take the defaults,
   as the JSON ``choices`` do);
3. the finished roll is appended to the log (committed), applied to the game, then pushed to
   every socket of the room. A page roll holds the room's lock until its row is committed (the
   next roll must see its stored results and used keys); an API roll changes no game state, so
   it holds the lock only to take its nonce and its place in the log's queue, and waits for the
   commit after — concurrent API rolls can then share one commit (:mod:`mtgdice.web.logwriter`).

What this module leaves out: HTTP, HTML and the rules. Rooms are not persisted: after a restart
the log (and with it every roll and reveal) remains, the live tables do not.
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import anyio

from mtgdice.errors import InputError
from mtgdice.fair import CommitRevealSource, Room, check_client_seed
from mtgdice.game import Game, Pending, Roll, RollSpec
from mtgdice.game.choices import Question
from mtgdice.jsonio import request_from_json
from mtgdice.log import LogEntry, RollLog
from mtgdice.request import CardSource, Outcome, RollRequest, prepare, resolve_prepared
from mtgdice.rules import ScriptedChooser
from mtgdice.web.logwriter import LogWriter

API_PLAYER = "api"
"""The player id of rolls made through the JSON API (not a player of the game)."""
MAX_ROOMS = 1000
ROOM_IDLE_SECONDS = 6 * 3600
"""A room nobody has used (and nobody watches) for this long may be dropped to make space."""
FEED = 50
"""Rendered rolls a page shows when it opens."""
SOCKET_QUEUE = 256
"""Messages a slow socket may fall behind by before it is dropped."""


class Conflict(InputError):
    """A request that is valid but cannot happen now (a question is open, no such player)."""


class Forbidden(InputError):
    """A missing or wrong token."""


@dataclass(slots=True)
class PendingRoll:
    """A roll waiting for answers: its fixed dice (seed, client seeds, nonce) and the question."""

    spec: RollSpec
    answers: list[object]
    server_seed: bytes
    client_seeds: tuple[str, ...]
    nonce: int
    question: Question

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
    """A logged roll: its log id, the game's record and the fairness proof."""

    id: int
    roll: Roll
    proof: Proof


@dataclass(slots=True)
class RoomState:
    """One room: its game, fairness state, tokens, open questions and sockets."""

    id: str
    token: str
    fair: Room
    game: Game = field(default_factory=Game)
    player_tokens: dict[str, str] = field(default_factory=dict)
    client_seeds: dict[str, str] = field(default_factory=dict)
    pending: dict[str, PendingRoll] = field(default_factory=dict)
    sockets: set[asyncio.Queue[str]] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    feed: deque[Finished] = field(default_factory=lambda: deque(maxlen=FEED))
    last_commit: asyncio.Future[int] | None = None
    touched: float = field(default_factory=time.monotonic)

    def check_room_token(self, token: str | None) -> None:
        if not token or not hmac.compare_digest(token.encode(), self.token.encode()):
            raise Forbidden("authorization", "this room needs its token: send 'Authorization: Bearer <token>'")

    def player_for(self, token: str | None) -> str | None:
        """The player a page token belongs to, or None."""
        if not token:
            return None
        for known, player_id in self.player_tokens.items():
            if hmac.compare_digest(known.encode(), token.encode()):
                return player_id
        return None

    def question_for(self, player_id: str) -> tuple[str, PendingRoll] | None:
        """The open question this player must answer (their own roll's, or another's), if any."""
        for roller, pending in self.pending.items():
            if pending.question.player == player_id:
                return roller, pending
        return None


class Rooms:
    """Every room of one server, the roll log and the card data they share."""

    def __init__(self, log: RollLog, cards: CardSource | None) -> None:
        self.log = log
        self.writer = LogWriter(log)
        self.cards = cards
        self.rooms: dict[str, RoomState] = {}

    # -- rooms and players ------------------------------------------------------------------------

    def create(self, client_seeds: tuple[str, ...] = ()) -> RoomState:
        if len(self.rooms) >= MAX_ROOMS:
            idle = time.monotonic() - ROOM_IDLE_SECONDS
            for room_id, state in list(self.rooms.items()):
                if state.touched < idle and not state.sockets and not state.lock.locked():
                    del self.rooms[room_id]
        if len(self.rooms) >= MAX_ROOMS:
            raise Conflict("room", f"this server already holds {MAX_ROOMS} rooms; try again later")
        room_id = secrets.token_urlsafe(8)
        seeds = tuple(check_client_seed(seed, f"client_seeds[{i}]") for i, seed in enumerate(client_seeds))
        state = RoomState(room_id, secrets.token_urlsafe(24), Room.open(room_id, client_seeds=seeds))
        self.log.record_commitment(room_id, state.fair.commitment, state.fair.next_nonce)
        self.rooms[room_id] = state
        return state

    def get(self, room_id: str) -> RoomState:
        try:
            state = self.rooms[room_id]
        except KeyError:
            raise LookupError(f"room: no room {room_id[:40]!r} on this server; create one first") from None
        state.touched = time.monotonic()
        return state

    async def join(self, state: RoomState, name: str, client_seed: str = "") -> tuple[str, str]:
        """Add a player; return their id and page token. A client seed applies from the next roll."""
        async with state.lock:
            if client_seed:
                check_client_seed(client_seed, "client_seed")
            player = state.game.add_player(name)
            token = secrets.token_urlsafe(24)
            state.player_tokens[token] = player.id
            if client_seed:
                state.client_seeds[player.id] = client_seed
                state.fair = state.fair.with_client_seeds(state.client_seeds.values())
            return player.id, token

    # -- rolling ----------------------------------------------------------------------------------

    def _log(
        self,
        state: RoomState,
        request: RollRequest,
        outcome: Outcome,
        source: CommitRevealSource,
        player: str | None,
    ) -> asyncio.Future[int]:
        """Queue the roll for the log (in nonce order: call under the room's lock)."""
        committed = self.writer.submit(LogEntry(request, outcome, source, state.id, player))
        state.last_commit = committed
        return committed

    async def roll(self, state: RoomState, player_id: str, spec: RollSpec) -> Finished | PendingRoll:
        """A player's roll from the page: finished and logged, or waiting for an answer."""
        async with state.lock:
            if player_id in state.pending:
                raise Conflict("roll", "answer the open question of your last roll first")
            source = state.fair.source()
            outcome = state.game.resolve_roll(player_id, spec, source, (), self.cards)
            seed, seeds, nonce = state.fair.server_seed, state.fair.client_seeds, state.fair.next_nonce
            state.fair = state.fair.next_source()[1]
            if isinstance(outcome, Pending):
                pending = PendingRoll(spec, [], seed, seeds, nonce, outcome.question)
                state.pending[player_id] = pending
                return pending
            return await self._finish(state, outcome, source)

    async def answer(self, state: RoomState, player_id: str, raw: list[str]) -> tuple[str, Finished | PendingRoll]:
        """``player_id`` answers the question open for them; the roll is resolved again."""
        async with state.lock:
            found = state.question_for(player_id)
            if found is None:
                raise Conflict("answer", "no question is waiting for you")
            roller, pending = found
            try:
                answer = pending.question.answer_from(raw)
            except ValueError as error:
                raise InputError("answer", str(error).removeprefix("answer: ")) from None
            answers = [*pending.answers, answer]
            source = pending.source()
            outcome = state.game.resolve_roll(roller, pending.spec, source, answers, self.cards)
            if isinstance(outcome, Pending):
                pending.answers = answers
                pending.question = outcome.question
                return roller, pending
            del state.pending[roller]
            return roller, await self._finish(state, outcome, source)

    async def _finish(self, state: RoomState, roll: Roll, source: CommitRevealSource) -> Finished:
        roll_id = await self._log(state, roll.request, roll.outcome, source, roll.player_name)
        state.game.record(roll)
        return Finished(roll_id, roll, Proof.of(source))

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
        async with state.lock:
            source = state.fair.source()
            outcome = resolve_prepared(prepared, request, source, ScriptedChooser(request.choices))
            state.fair = state.fair.next_source()[1]
            committed = self._log(state, request, outcome, source, player)
        # API rolls change no game state, so the next roll need not wait for this commit: rolls
        # that arrive together can share one (see LogWriter). The response still waits for it.
        roll_id = await committed
        roll = Roll(API_PLAYER, player or "API", prepared.name[:120], "card", request, outcome, prepared.instruction)
        return Finished(roll_id, roll, Proof.of(source))

    async def reveal(self, state: RoomState) -> tuple[dict[str, Any], list[Finished]]:
        """Finish open rolls with default answers, reveal the seed and commit to a new one."""
        finished: list[Finished] = []
        async with state.lock:
            last = state.last_commit
            if last is not None and not last.done() and last.get_loop() is asyncio.get_running_loop():
                await asyncio.wait([last])  # every roll under the old seed is in the log first
            for roller, pending in list(state.pending.items()):
                source = pending.source()
                outcome = state.game.resolve_roll(
                    roller, pending.spec, source, pending.answers, self.cards, finish=True
                )
                assert isinstance(outcome, Roll)
                del state.pending[roller]
                finished.append(await self._finish(state, outcome, source))
            revealed, state.fair = state.fair.rotate()
            await anyio.to_thread.run_sync(lambda: self.log.record_reveal(state.id, revealed.seed, revealed.end_nonce))
            await anyio.to_thread.run_sync(
                lambda: self.log.record_commitment(state.id, state.fair.commitment, state.fair.next_nonce)
            )
        return {
            "seed": revealed.seed.hex(),
            "commitment": revealed.commitment,
            "from_nonce": revealed.first_nonce,
            "to_nonce": revealed.end_nonce,
            "next_commitment": state.fair.commitment,
        }, finished

    # -- fan-out ----------------------------------------------------------------------------------

    def subscribe(self, state: RoomState) -> asyncio.Queue[str]:
        queue: asyncio.Queue[str] = asyncio.Queue(SOCKET_QUEUE)
        state.sockets.add(queue)
        return queue

    def unsubscribe(self, state: RoomState, queue: asyncio.Queue[str]) -> None:
        state.sockets.discard(queue)

    def broadcast(self, state: RoomState, message: str) -> None:
        """Queue ``message`` for every socket of the room; a socket too far behind is dropped."""
        for queue in list(state.sockets):
            try:
                queue.put_nowait(message)
            except asyncio.QueueFull:
                state.sockets.discard(queue)
