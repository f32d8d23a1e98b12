"""Limits in front of the app: request size and a per-client rate, as plain ASGI middleware.

:class:`Guard` refuses a request body larger than ``max_body`` bytes (by ``Content-Length``, and
while reading a body sent without one) with 413, and more than ``rate`` requests per second per
client address (a token bucket holding ``burst``) with 429. Refusals are one line of JSON,
``{"error": "..."}``. Static files and websocket frames are not counted; opening a websocket is.

What this module leaves out: authentication (tokens are checked by the routes) and escaping
(templates autoescape).
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 64 * 1024
MAX_CLIENTS = 10_000

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


class BodyTooLarge(Exception):
    """Raised while reading a body that goes past the limit."""


async def send_error(send: Send, status: int, message: str, headers: tuple[tuple[bytes, bytes], ...] = ()) -> None:
    """Send a one-line JSON error response."""
    body = json.dumps({"error": message}).encode() + b"\n"
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


class Guard:
    """ASGI middleware: body size limit and per-client token-bucket rate limit.

    ``rate`` of 0 turns the rate limit off (a load test on one address needs that).
    """

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY, rate: float = 20.0, burst: int = 60) -> None:
        self.app = app
        self.max_body = max_body
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, tuple[float, float]] = {}

    def _allow(self, client: str) -> bool:
        if self.rate <= 0:
            return True
        now = time.monotonic()
        tokens, last = self._buckets.get(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) * self.rate)
        if tokens < 1:
            self._buckets[client] = (tokens, now)
            return False
        if len(self._buckets) >= MAX_CLIENTS and client not in self._buckets:
            self._buckets.clear()
        self._buckets[client] = (tokens - 1, now)
        return True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        client = (scope.get("client") or ("?", 0))[0]
        if not path.startswith("/static/") and not self._allow(client):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            await send_error(
                send,
                429,
                f"rate limit: more than {self.rate:g} requests per second from one client; wait a moment",
                ((b"retry-after", b"1"),),
            )
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                await send_error(send, 400, "content-length: not a number")
                return
            if declared > self.max_body:
                await send_error(send, 413, f"request body: {declared} bytes is more than the {self.max_body} allowed")
                return
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await send_error(send, 413, f"request body: more than the {self.max_body} bytes allowed")
