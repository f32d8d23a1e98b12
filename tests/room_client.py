"""A small HTTP client for real servers in tests: the JSON API, the pages (with a player's cookie), bursts.

Plain ``urllib`` (a test client of its own, not the app's), with a timeout on every request.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any

SPELLBOOK = {"card": "Wizard's Spellbook", "battlefield": ["Pixie Guide"]}


REQUEST_TIMEOUT_S = 60
"""How long a request may wait for its answer: a guard against a hang on a busy machine, not a timing claim."""


def post_json(
    url: str, body: dict[str, Any], token: str | None = None, timeout: float = REQUEST_TIMEOUT_S
) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def get_json(url: str, timeout: float = REQUEST_TIMEOUT_S) -> Any:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return json.loads(response.read())


class Player:
    """A browser-like client of one room's pages: it joins (a cookie) and posts forms."""

    def __init__(self, url: str, room: str) -> None:
        self.url, self.room = url, room
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def at(self, url: str) -> Player:
        """The same player (same cookie) talking to another server of the same rooms."""
        other = Player(url, self.room)
        other.opener = self.opener
        return other

    def get(self, path: str) -> str:
        with self.opener.open(f"{self.url}/r/{self.room}{path}", timeout=REQUEST_TIMEOUT_S) as response:
            return str(response.read().decode())

    def post(self, path: str, **form: str) -> str:
        data = urllib.parse.urlencode(form).encode()
        with self.opener.open(f"{self.url}/r/{self.room}{path}", data=data, timeout=REQUEST_TIMEOUT_S) as response:
            return str(response.read().decode())

    def join(self, name: str, client_seed: str = "") -> str:
        return self.post("/join", name=name, client_seed=client_seed)

    def card_ids(self, board: str) -> list[int]:
        """The ids of the cards a board shows, in order."""
        return list(dict.fromkeys(int(found) for found in re.findall(r'/cards/(\d+)"', board)))


def section(html: str, testid: str) -> str:
    """The text of the element with ``data-testid=testid`` up to its closing tag (for comparing pages)."""
    found = re.search(rf'data-testid="{testid}"[^>]*>(.*?)</', html, re.S)
    return found.group(1) if found else ""


@dataclass
class Burst:
    """Client threads posting API rolls to one room until stopped; every acknowledged roll kept."""

    room: dict[str, Any]
    acknowledged: dict[int, dict[str, Any]] = field(default_factory=dict)
    by_url: dict[str, int] = field(default_factory=dict)
    halt: threading.Event = field(default_factory=threading.Event)
    threads: list[threading.Thread] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self, url: str, clients: int = 2, keep_trying: bool = False) -> None:
        """``clients`` threads on ``url``; with ``keep_trying`` a thread waits out a dead server."""

        def client() -> None:
            while not self.halt.is_set():
                try:
                    outcome = post_json(f"{url}/api/rooms/{self.room['id']}/rolls", SPELLBOOK, self.room["token"])
                except (OSError, urllib.error.URLError):
                    if not keep_trying:
                        return  # the server is gone: this roll was never acknowledged
                    time.sleep(0.05)
                    continue
                with self.lock:
                    self.acknowledged[outcome["id"]] = outcome
                    self.by_url[url] = self.by_url.get(url, 0) + 1

        for _ in range(clients):
            thread = threading.Thread(target=client, daemon=True)
            thread.start()
            self.threads.append(thread)

    def wait_for(self, count: int, timeout: float = 180, url: str | None = None) -> None:
        """Until ``count`` rolls are acknowledged; ``timeout`` guards against a hang (not a timing claim)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                done = self.by_url.get(url, 0) if url else len(self.acknowledged)
            if done >= count:
                return
            time.sleep(0.01)
        raise AssertionError(f"only {done} of {count} rolls acknowledged after {timeout} s: the server stalled")

    def stop(self) -> None:
        self.halt.set()
        for thread in self.threads:
            thread.join(timeout=15)
