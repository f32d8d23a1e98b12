"""Per-client limits that hold across workers: token buckets and open websockets.

A server of one process keeps them in memory (:class:`LocalLimits`). Several workers given a
broker (``mtgdice serve --broker redis://...``) share them through Redis (:class:`RedisLimits`), so
N workers allow what one allows, not N times as much:

- a token bucket per client address and per limit (requests, rooms created, rolls, exports) is a
  Redis hash updated by one Lua script (refill by Redis's own clock, take one token, expire when
  full again): atomic, whichever worker asks;
- open websockets are members of two sorted sets, the room's and the client address's, scored by
  when they expire: a socket is admitted only while both hold fewer than their caps, and refreshes
  its membership while open (:data:`SOCKET_TTL_S`), so the sockets of a worker that died fall out
  by themselves.

If Redis does not answer, the limits fall back to this process's own (and say so in the log once):
a limit is never a reason to refuse every request.

What this module leaves out: what is refused and how it is answered (``guard``, the app's socket route).
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

logger = logging.getLogger("mtgdice.web")

MAX_CLIENTS = 10_000
"""Client addresses whose buckets one process keeps; the least recently seen is forgotten first."""
SOCKETS_PER_ROOM = 100
"""Open websockets of one room, across every worker sharing the broker."""
SOCKETS_PER_CLIENT = 20
"""Open websockets of one client address, across every worker sharing the broker."""
SOCKET_IDLE_S = 120.0
"""A websocket whose client sent nothing for this long is closed (pages send a ping every 30 s)."""
SOCKET_TTL_S = 60.0
"""How long a socket's membership in the shared counts lasts unless its worker refreshes it."""
KEY = "mtgdice:limit:"


@dataclass(frozen=True, slots=True)
class Quota:
    """A token bucket: ``burst`` at once, then ``rate`` per second."""

    rate: float
    burst: int
    what: str

    def refusal(self) -> str:
        return f"quota: more than {self.burst} {self.what} at once from one client; {self.pace()}"

    def pace(self) -> str:
        every = 1 / self.rate
        return f"one more every {every:g} s" if every < 120 else f"one more every {every / 60:g} minutes"


@dataclass(frozen=True, slots=True)
class SocketCaps:
    """Open websockets allowed per room and per client address, and the idle timeout."""

    room: int = SOCKETS_PER_ROOM
    client: int = SOCKETS_PER_CLIENT
    idle_s: float = SOCKET_IDLE_S


class Buckets:
    """Token buckets by client address, at most ``size`` of them (least recently seen forgotten first).

    A bucket left alone refills to ``burst``, so forgetting the least recently seen one almost
    always forgets a full one: what it allows does not change.

    >>> buckets = Buckets(Quota(1.0, 2, "tries"), size=2)
    >>> [buckets.take("a", now=0.0) for _ in range(3)], buckets.take("a", now=1.0)
    ([True, True, False], True)
    >>> buckets.take("b", now=1.0), buckets.take("c", now=1.0), list(buckets.seen)
    (True, True, ['b', 'c'])
    """

    def __init__(self, quota: Quota, size: int = MAX_CLIENTS) -> None:
        self.quota = quota
        self.size = size
        self.seen: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, client: str, now: float | None = None) -> bool:
        """Spend one token of ``client``'s bucket; False when it is empty."""
        now = time.monotonic() if now is None else now
        tokens, last = self.seen.pop(client, (float(self.quota.burst), now))
        tokens = min(float(self.quota.burst), tokens + (now - last) * self.quota.rate)
        allowed = tokens >= 1
        self.seen[client] = (tokens - 1 if allowed else tokens, now)
        while len(self.seen) > self.size:
            self.seen.popitem(last=False)
        return allowed


class Limits(Protocol):
    """Where the limits' state lives: this process, or Redis for every worker."""

    quotas: Mapping[str, Quota]
    caps: SocketCaps

    async def take(self, name: str, client: str) -> bool:
        """Spend one token of limit ``name`` for ``client``; False when its bucket is empty."""
        ...

    async def admit(self, room: str, client: str, socket: str) -> str | None:
        """Count an opening websocket; why it is refused (None: admitted)."""
        ...

    async def keep(self, room: str, client: str, socket: str) -> None:
        """Refresh an open websocket's membership (every :data:`SOCKET_TTL_S` / 3)."""
        ...

    async def release(self, room: str, client: str, socket: str) -> None:
        """Forget a closed websocket."""
        ...


def _room_full(caps: SocketCaps) -> str:
    return f"sockets: this room has {caps.room} open connections, the most it takes"


def _client_full(caps: SocketCaps) -> str:
    return f"sockets: {caps.client} open connections from one client is the most allowed"


class LocalLimits:
    """The limits of one process (the single-process default)."""

    def __init__(self, quotas: Mapping[str, Quota], caps: SocketCaps = SocketCaps()) -> None:
        self.quotas = quotas
        self.caps = caps
        self.buckets = {name: Buckets(quota) for name, quota in quotas.items()}
        self.rooms: dict[str, set[str]] = {}
        self.clients: dict[str, set[str]] = {}

    async def take(self, name: str, client: str) -> bool:
        return self.buckets[name].take(client)

    async def admit(self, room: str, client: str, socket: str) -> str | None:
        in_room, of_client = self.rooms.get(room, set()), self.clients.get(client, set())
        if len(in_room) >= self.caps.room:
            return _room_full(self.caps)
        if len(of_client) >= self.caps.client:
            return _client_full(self.caps)
        self.rooms.setdefault(room, set()).add(socket)
        self.clients.setdefault(client, set()).add(socket)
        return None

    async def keep(self, room: str, client: str, socket: str) -> None:
        return None

    async def release(self, room: str, client: str, socket: str) -> None:
        for table, key in ((self.rooms, room), (self.clients, client)):
            members = table.get(key)
            if members is not None:
                members.discard(socket)
                if not members:
                    del table[key]


_TAKE = """
local now = redis.call('TIME')
now = tonumber(now[1]) + tonumber(now[2]) / 1000000
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local held = redis.call('HMGET', KEYS[1], 'tokens', 'last')
local tokens, last = tonumber(held[1]) or burst, tonumber(held[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - last) * rate)
local allowed = 0
if tokens >= 1 then tokens = tokens - 1; allowed = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'last', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil((burst - tokens) / rate) + 1)
return allowed
"""

_ADMIT = """
local now = redis.call('TIME')
now = tonumber(now[1]) + tonumber(now[2]) / 1000000
local ttl = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) == false then
  if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 1 end
  if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 2 end
end
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('ZADD', KEYS[2], now + ttl, ARGV[1])
redis.call('EXPIRE', KEYS[1], math.ceil(ttl) * 2)
redis.call('EXPIRE', KEYS[2], math.ceil(ttl) * 2)
return 0
"""


class RedisLimits:
    """The limits of every worker sharing the Redis at ``url`` (each call one round trip)."""

    def __init__(self, url: str, quotas: Mapping[str, Quota], caps: SocketCaps = SocketCaps()) -> None:
        import redis.asyncio

        self.quotas = quotas
        self.caps = caps
        self.local = LocalLimits(quotas, caps)
        self.client: Any = redis.asyncio.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
        self._take: Any = self.client.register_script(_TAKE)
        self._admit: Any = self.client.register_script(_ADMIT)
        self._warned = False

    def _fallback(self, error: Exception) -> None:
        if not self._warned:
            logger.warning("limits: Redis did not answer (%s); using this process's own limits meanwhile", error)
            self._warned = True

    async def take(self, name: str, client: str) -> bool:
        quota = self.quotas[name]
        try:
            allowed = await self._take(keys=[f"{KEY}{name}:{client}"], args=[quota.rate, quota.burst])
        except Exception as error:  # Redis away: this process's limits hold meanwhile
            self._fallback(error)
            return await self.local.take(name, client)
        self._warned = False
        return bool(allowed)

    def _keys(self, room: str, client: str) -> list[str]:
        return [f"{KEY}room:{room}", f"{KEY}client:{client}"]

    async def admit(self, room: str, client: str, socket: str) -> str | None:
        try:
            found = await self._admit(
                keys=self._keys(room, client), args=[socket, SOCKET_TTL_S, self.caps.room, self.caps.client]
            )
        except Exception as error:
            self._fallback(error)
            return await self.local.admit(room, client, socket)
        return None if found == 0 else _room_full(self.caps) if found == 1 else _client_full(self.caps)

    async def keep(self, room: str, client: str, socket: str) -> None:
        await self.admit(room, client, socket)  # a member already counted is only refreshed

    async def release(self, room: str, client: str, socket: str) -> None:
        await self.local.release(room, client, socket)
        try:
            async with self.client.pipeline(transaction=False) as pipe:
                for key in self._keys(room, client):
                    pipe.zrem(key, socket)
                await pipe.execute()
        except Exception as error:  # it falls out of the counts by itself within SOCKET_TTL_S
            self._fallback(error)

    async def close(self) -> None:
        await self.client.aclose()
