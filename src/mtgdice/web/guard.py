"""Limits in front of the app: the request head, the body, per-client rates and quotas.

Two layers, both before any route runs (so a refused request has spent nothing, no nonce least of all):

- :class:`LimitedHttpProtocol`, the HTTP/1.1 protocol ``mtgdice serve`` gives uvicorn (its
  httptools protocol with limits): a request's line and headers over :data:`MAX_HEAD` bytes or
  :data:`MAX_HEADERS` headers get 431, and a connection whose request head is not complete
  :data:`HEAD_TIMEOUT_S` after it opened, or after the request's first byte, gets 408 and is
  closed (a client sending half a head, or nothing, holds no connection for long).
- :class:`Guard`, ASGI middleware: the body is read whole before the app sees the request,
  counted as it streams (a chunked body too): past ``max_body`` bytes it is 413, not read past
  :data:`BODY_TIMEOUT_S` it is 408. Per client address, token buckets (:class:`Buckets`): every
  request (``rate``, ``burst``: 429), and quotas on what costs most (:data:`QUOTAS`: rooms
  created, rolls and odds, exports of a room log), kept by a :class:`~mtgdice.web.limits.Limits`:
  this process's own, or shared by every worker through Redis. A client's bucket is forgotten
  only when it is the one least recently seen among :data:`MAX_CLIENTS` (so no client, and never
  all of them, gets a fresh allowance because others came). Refusals are one line of JSON, ``{"error": "..."}``.
  Static files and websocket frames are not counted; opening a websocket is.

The client address is the connection's, unless uvicorn was told which proxies to trust
(``mtgdice serve --forwarded-allow-ips``): by default ``X-Forwarded-For`` is not read at all.

What this module leaves out: authentication (tokens are checked by the routes) and escaping
(templates autoescape).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from mtgdice.web.limits import MAX_CLIENTS, Buckets, Limits, LocalLimits, Quota

__all__ = ["MAX_CLIENTS", "QUOTAS", "Buckets", "Guard", "LimitedHttpProtocol", "Quota", "quota_for"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 64 * 1024
MAX_HEAD = 16 * 1024
"""Bytes of a request's line and headers together."""
MAX_HEADERS = 64
HEAD_TIMEOUT_S = 10.0
"""Seconds a client has to send a whole request head (from the connection, or the request's first byte)."""
BODY_TIMEOUT_S = 10.0
"""Seconds a client has to send a whole body once its head is in."""


QUOTAS: Mapping[str, Quota] = {
    "rooms": Quota(30 / 3600, 10, "rooms created"),
    "work": Quota(10.0, 40, "rolls and odds"),
    "export": Quota(0.1, 3, "exports of a room log"),
}
"""Per client address: rooms created (10, then 30 an hour), rolls and odds panels (40, then 10 a
second), room log exports (3, then one every 10 s)."""

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        b"img-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)
"""Sent with every HTTP response: scripts only from this server, no framing."""


def error_body(message: str) -> bytes:
    return json.dumps({"error": message}).encode() + b"\n"


async def send_error(send: Send, status: int, message: str, headers: tuple[tuple[bytes, bytes], ...] = ()) -> None:
    """Send a one-line JSON error response."""
    body = error_body(message)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *headers,
                *SECURITY_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def guard_quotas(rate: float, burst: int, quotas: Mapping[str, Quota] = QUOTAS) -> dict[str, Quota]:
    """Every bucket the guard keeps: ``requests`` (``rate``, ``burst``) and the quotas.

    >>> sorted(guard_quotas(20, 60))
    ['export', 'requests', 'rooms', 'work']
    """
    return {"requests": Quota(rate if rate > 0 else 1.0, burst, "requests"), **quotas}


_WORK_PAGES = frozenset({("POST", "roll"), ("POST", "answer"), ("GET", "odds")})


def quota_for(method: str, path: str) -> str | None:
    """Which quota a request counts against, if any.

    >>> quota_for("POST", "/api/rooms"), quota_for("POST", "/r/abc/roll"), quota_for("GET", "/api/rooms/abc/log")
    ('rooms', 'work', 'export')
    """
    if method == "POST" and path in ("/rooms", "/api/rooms"):
        return "rooms"
    parts = path.strip("/").split("/")
    if len(parts) == 3 and parts[0] == "r" and (method, parts[2]) in _WORK_PAGES:
        return "work"
    if len(parts) == 4 and parts[:2] == ["api", "rooms"]:
        if method == "POST" and parts[3] == "rolls":
            return "work"
        if method == "GET" and parts[3] == "log":
            return "export"
    return None


class Guard:
    """ASGI middleware: the body read whole within its limits, per-client rates and quotas.

    ``rate`` of 0 turns every per-client limit off, quotas included (a load test from one address).
    """

    def __init__(
        self,
        app: ASGIApp,
        max_body: int = MAX_BODY,
        rate: float = 20.0,
        burst: int = 60,
        quotas: Mapping[str, Quota] = QUOTAS,
        body_timeout: float = BODY_TIMEOUT_S,
        limits: Limits | None = None,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.rate = rate
        self.body_timeout = body_timeout
        self.limits = limits if limits is not None else LocalLimits(guard_quotas(rate, burst, quotas))
        self.on = rate > 0

    async def _refusal(self, scope: Scope, client: str) -> str | None:
        path: str = scope.get("path", "")
        if path.startswith("/static/") or not self.on:
            return None
        if not await self.limits.take("requests", client):
            return f"rate limit: more than {self.rate:g} requests per second from one client; wait a moment"
        if scope["type"] == "http":
            name = quota_for(scope.get("method", ""), path)
            if name is not None and name in self.limits.quotas and not await self.limits.take(name, client):
                return self.limits.quotas[name].refusal()
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("?", 0))[0]
        refused = await self._refusal(scope, client)
        if refused is not None:
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            await send_error(send, 429, refused, ((b"retry-after", b"1"),))
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        headers = scope.get("headers") or []
        if len(headers) > MAX_HEADERS:
            await send_error(send, 431, f"headers: {len(headers)} headers is more than the {MAX_HEADERS} allowed")
            return
        length = dict(headers).get(b"content-length")
        if length is not None:
            if not length.isdigit() or len(length) > 18:
                await send_error(send, 400, "content-length: not a whole number")
                return
            if int(length) > self.max_body:
                await send_error(
                    send, 413, f"request body: {int(length)} bytes is more than the {self.max_body} allowed"
                )
                return
        try:
            async with asyncio.timeout(self.body_timeout):
                body = await self._read_body(receive)
        except TimeoutError:
            await send_error(send, 408, f"request body: not received within {self.body_timeout:g} s")
            return
        if body is None:
            await send_error(send, 413, f"request body: more than the {self.max_body} bytes allowed")
            return
        if not isinstance(body, bytes):  # the client went away while sending it
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: a disconnect, for a streaming response

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, replay, secured)

    async def _read_body(self, receive: Receive) -> bytes | Message | None:
        """The whole body; None past ``max_body``; the disconnect message if the client went away."""
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return message
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.max_body:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


class _HeadRefused(Exception):
    """Raised in a parser callback to stop reading a head over the limits."""


class LimitedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools HTTP/1.1 protocol with limits on the request head: its size
    (:data:`MAX_HEAD`, :data:`MAX_HEADERS`: 431) and the time to send it (:data:`HEAD_TIMEOUT_S`: 408)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._in_head = True
        self._head_bytes = 0
        self._parsed_head = 0
        self._refusal: tuple[int, str] | None = None
        self._head_timer: asyncio.TimerHandle | None = self.loop.call_later(HEAD_TIMEOUT_S, self._head_too_slow)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._parsed_head = 0
        if not self._in_head:
            self._in_head = True
            self._head_bytes = 0
        if self._head_timer is None:  # the first byte of a request after a keep-alive wait
            self._head_timer = self.loop.call_later(HEAD_TIMEOUT_S, self._head_too_slow)

    def on_url(self, url: bytes) -> None:
        self._count_head(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count_head(len(name) + len(value) + 4)
        if len(self.headers) >= MAX_HEADERS:
            self._refusal = (431, f"headers: more than the {MAX_HEADERS} allowed")
            raise _HeadRefused
        super().on_header(name, value)

    def _count_head(self, size: int) -> None:
        """Count the head as the parser reads it (a head that came in one piece is counted here)."""
        self._parsed_head += size
        if self._parsed_head > MAX_HEAD:
            self._refusal = (431, f"request head: more than {MAX_HEAD} bytes of request line and headers")
            raise _HeadRefused  # the parser stops; uvicorn answers a parser error with send_400_response

    def send_400_response(self, msg: str) -> None:
        if self._refusal is not None:
            status, message = self._refusal
            self._refusal = None
            self._refuse(status, message)
            return
        super().send_400_response(msg)

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._stop_head_timer()
        super().on_headers_complete()

    def data_received(self, data: bytes) -> None:
        counting = self._in_head
        super().data_received(data)
        if counting and self._in_head and not self.transport.is_closing():
            self._head_bytes += len(data)
            if self._head_bytes > MAX_HEAD:
                self._refuse(431, f"request head: more than {MAX_HEAD} bytes of request line and headers")
            elif len(self.headers or ()) > MAX_HEADERS:
                self._refuse(431, f"headers: more than the {MAX_HEADERS} allowed")

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        super().connection_lost(exc)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self._in_head and not self.transport.is_closing():
            self._refuse(408, f"request head: not received within {HEAD_TIMEOUT_S:g} s")

    def _refuse(self, status: int, message: str) -> None:
        self._stop_head_timer()
        if self.cycle is None or self.cycle.response_complete:  # not in the middle of another response
            reason = {408: b"Request Timeout", 431: b"Request Header Fields Too Large"}[status]
            body = error_body(message)
            self.transport.write(
                b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
                b"connection: close\r\n\r\n%s" % (status, reason, len(body), body)
            )
        self.transport.close()
