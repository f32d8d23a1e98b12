"""Room events to sockets: in the room's order, from whichever worker made them, slow sockets dropped.

Every committed batch of a room (:mod:`mtgdice.web.rooms`) is published once, as the messages
for the room's pages with the room's new version as its sequence number. A :class:`Broker` carries
it to every process serving a socket of the room: :class:`LocalBroker` within one process (the
default), :class:`RedisBroker` through Redis pub/sub (``--broker redis://...``), where each process
subscribes to the channels of the rooms it has sockets for.

:class:`Fanout` hands each process's sockets the messages in sequence order. Two workers publish
independently, so a later version can reach Redis first: it waits (at most :data:`GAP_SECONDS`)
for the one before. A version that has not come by then (its worker died between commit and
publish, a message was lost, or its worker is slow on a busy machine) is read from the database
instead: the room's sockets get the catch-up (``on_gap``: the rolls they may have missed, oldest
first, and the pages' fresh state, as of a version it names) before any later version, and the
versions it covers are not sent again. So the wait decides only when the database is read, never
the order in which a socket sees the room's rolls. A socket whose
queue is full (:data:`SOCKET_QUEUE` messages behind) is dropped: it gets a close message and no
more, instead of a queue that grows.

What this module leaves out: what the messages say (the web app renders them) and the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

SOCKET_QUEUE = 1024
"""Messages a socket may fall behind by before it is dropped."""
GAP_SECONDS = 0.25
"""How long a room's sockets wait for a missing version before skipping it."""
CHANNEL = "mtgdice:room:"
DROPPED = None
"""What a dropped socket's queue ends with."""

logger = logging.getLogger("mtgdice.web")
OnGap = Callable[[str], Awaitable[tuple[int, list[str]]]]
"""Reads a room's catch-up from the database: the version it covers, and its messages."""


class Socket:
    """One websocket's queue of messages (bounded), on the event loop of its connection.

    ``get`` returns :data:`DROPPED` (None) once the socket was dropped for falling behind.
    """

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(SOCKET_QUEUE + 1)
        self.dropped = False

    async def get(self) -> str | None:
        return await self.queue.get()

    def offer(self, message: str) -> bool:
        """Queue ``message``; False (and the socket dropped) when it is too far behind."""
        if self.dropped:
            return False
        if self.queue.qsize() >= SOCKET_QUEUE:
            self.dropped = True
            self.queue.put_nowait(DROPPED)
            return False
        self.queue.put_nowait(message)
        return True


@dataclass(slots=True)
class _Room:
    sockets: set[Socket] = field(default_factory=set)
    next_seq: int | None = None
    waiting: dict[int, list[str]] = field(default_factory=dict)
    timer: asyncio.TimerHandle | None = None
    catching_up: bool = False
    """A catch-up is being read: later versions wait for it."""


class Fanout:
    """This process's sockets, per room, fed in sequence order.

    >>> import asyncio
    >>> async def demo() -> list[str | None]:
    ...     fanout = Fanout()
    ...     socket = fanout.join("r", base=4)
    ...     fanout.deliver("r", 6, ["second"])      # early: waits for 5
    ...     fanout.deliver("r", 5, ["first"])
    ...     fanout.deliver("r", 4, ["old"])         # already shown when the page loaded
    ...     await asyncio.sleep(0)
    ...     return [await socket.get(), await socket.get()]
    >>> asyncio.run(demo())
    ['first', 'second']
    """

    def __init__(self, on_gap: OnGap | None = None) -> None:
        self.on_gap = on_gap
        self.rooms: dict[str, _Room] = {}

    def join(self, room: str, base: int | None = None) -> Socket:
        """A socket for ``room``; ``base`` is the room's version its page showed (known later: :meth:`start`)."""
        socket = Socket()
        entry = self.rooms.setdefault(room, _Room())
        entry.sockets.add(socket)
        if base is not None:
            self.start(room, base)
        return socket

    def start(self, room: str, base: int) -> None:
        """Versions up to ``base`` are shown already: deliver from ``base + 1`` on (first socket only)."""
        entry = self.rooms.get(room)
        if entry is None or entry.next_seq is not None:
            return
        entry.next_seq = base + 1
        for seq in [seq for seq in entry.waiting if seq <= base]:
            del entry.waiting[seq]
        self._flush(room, entry)

    def leave(self, room: str, socket: Socket) -> bool:
        """Forget a socket; True when it was the room's last here."""
        entry = self.rooms.get(room)
        if entry is None:
            return False
        entry.sockets.discard(socket)
        if entry.sockets:
            return False
        if entry.timer is not None:
            entry.timer.cancel()
        del self.rooms[room]
        return True

    def deliver(self, room: str, seq: int, messages: list[str]) -> None:
        """A published version of ``room``: shown now, or kept until the versions before it came."""
        entry = self.rooms.get(room)
        if entry is None or (entry.next_seq is not None and seq < entry.next_seq):
            return
        entry.waiting[seq] = messages
        self._flush(room, entry)

    def _flush(self, room: str, entry: _Room) -> None:
        if entry.next_seq is None or entry.catching_up:
            return
        while entry.next_seq in entry.waiting:
            self._send(entry, entry.waiting.pop(entry.next_seq))
            entry.next_seq += 1
        if entry.timer is not None:
            entry.timer.cancel()
            entry.timer = None
        if entry.waiting:
            entry.timer = asyncio.get_running_loop().call_later(GAP_SECONDS, self._skip_gap, room)

    def _skip_gap(self, room: str) -> None:
        entry = self.rooms.get(room)
        if entry is None or not entry.waiting or entry.next_seq is None or entry.catching_up:
            return
        entry.timer = None
        if self.on_gap is None:
            logger.warning("room %s: version %d never came; skipping to %d", room, entry.next_seq, min(entry.waiting))
            entry.next_seq = min(entry.waiting)
            self._flush(room, entry)
            return
        logger.warning("room %s: version %d did not come; catching up from the database", room, entry.next_seq)
        entry.catching_up = True
        asyncio.ensure_future(self._catch_up(room, entry))

    async def _catch_up(self, room: str, entry: _Room) -> None:
        """Send the catch-up, then the versions after the one it covers (in order, as ever)."""
        assert self.on_gap is not None and entry.next_seq is not None
        try:
            covered, messages = await self.on_gap(room)
        except Exception:  # the database is away: skip the gap, as without a catch-up
            logger.exception("room %s: catching up after a gap failed", room)
            covered, messages = (min(entry.waiting) - 1 if entry.waiting else entry.next_seq - 1), []
        entry.catching_up = False
        if self.rooms.get(room) is not entry:
            return  # every socket left meanwhile
        self._send(entry, messages)
        entry.next_seq = max(entry.next_seq, covered + 1)
        for seq in [seq for seq in entry.waiting if seq <= covered]:
            del entry.waiting[seq]
        self._flush(room, entry)

    def _send(self, entry: _Room, messages: list[str]) -> None:
        running = asyncio.get_running_loop()
        for socket in list(entry.sockets):
            for message in messages:
                if socket.loop is running:
                    delivered = socket.offer(message)
                else:  # a test client runs each connection on a loop of its own
                    socket.loop.call_soon_threadsafe(socket.offer, message)
                    delivered = True
                if not delivered:
                    entry.sockets.discard(socket)
                    break


class Broker(Protocol):
    """Carries each room's published versions to the :class:`Fanout` of every process."""

    fanout: Fanout

    async def publish(self, room: str, seq: int, messages: list[str]) -> None: ...

    async def subscribe(self, room: str) -> None: ...

    async def unsubscribe(self, room: str) -> None: ...

    async def health(self) -> str: ...

    async def close(self) -> None: ...


class LocalBroker:
    """One process: a published version goes straight to this process's sockets."""

    name = "in-process"

    def __init__(self, fanout: Fanout) -> None:
        self.fanout = fanout

    async def publish(self, room: str, seq: int, messages: list[str]) -> None:
        self.fanout.deliver(room, seq, messages)

    def wants(self, room: str) -> bool:
        """Whether a socket of this process listens to ``room`` (else there is nothing to render)."""
        return room in self.fanout.rooms

    async def subscribe(self, room: str) -> None:
        return None

    async def unsubscribe(self, room: str) -> None:
        return None

    async def health(self) -> str:
        return "ok"

    async def close(self) -> None:
        return None


class RedisBroker:
    """Redis pub/sub: one channel per room (``mtgdice:room:<id>``), one subscriber connection per process.

    Messages are JSON ``{"seq": N, "messages": [...]}``. Pub/sub keeps no history: a process
    subscribes before it reads the room's version for its sockets, so nothing falls between.
    """

    name = "redis"

    def __init__(self, url: str, fanout: Fanout) -> None:
        import redis.asyncio

        self.url = url
        self.fanout = fanout
        self.client: Any = redis.asyncio.Redis.from_url(url, socket_connect_timeout=5, health_check_interval=30)
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._channels: set[str] = set()

    async def publish(self, room: str, seq: int, messages: list[str]) -> None:
        payload = json.dumps({"seq": seq, "messages": messages}, separators=(",", ":"))
        await self.client.publish(CHANNEL + room, payload)

    async def subscribe(self, room: str) -> None:
        if self._pubsub is None:
            self._pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        self._channels.add(CHANNEL + room)
        await self._pubsub.subscribe(CHANNEL + room)
        if self._reader is None or self._reader.done():
            self._reader = asyncio.create_task(self._read())

    async def unsubscribe(self, room: str) -> None:
        self._channels.discard(CHANNEL + room)
        if self._pubsub is not None:
            await self._pubsub.unsubscribe(CHANNEL + room)

    async def _read(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:  # the connection broke: resubscribe; sockets catch up through the gaps
                logger.exception("redis subscriber: reading failed; resubscribing")
                await asyncio.sleep(0.5)
                with contextlib.suppress(Exception):
                    if self._channels:
                        await self._pubsub.subscribe(*self._channels)
                continue
            if message is None or message.get("type") != "message":
                if not self._channels:
                    await asyncio.sleep(0.05)
                continue
            channel = message["channel"]
            room = (channel.decode() if isinstance(channel, bytes) else channel).removeprefix(CHANNEL)
            try:
                data = json.loads(message["data"])
                self.fanout.deliver(room, int(data["seq"]), [str(item) for item in data["messages"]])
            except (ValueError, KeyError, TypeError):
                logger.warning("redis subscriber: a message on %s does not read", channel)

    async def health(self) -> str:
        await self.client.ping()
        return "ok"

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.client.aclose()
