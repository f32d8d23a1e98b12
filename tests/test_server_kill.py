"""Killing the server with SIGKILL during a burst of rolls loses no roll acknowledged to a client.

A real ``mtgdice serve`` on 127.0.0.1 with a temporary roll log; four client threads post rolls
through the JSON API and keep the id of every roll the server answered. The server is killed
with SIGKILL in the middle of the burst; the log then opens cleanly (integrity check) and holds
every acknowledged roll with the faces and outcome that were answered.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from live_server import start, stop
from mtgdice.io.record import logged_outcome
from mtgdice.log import RollLog
from shared_data import shared_path

pytestmark = pytest.mark.timeout(600)  # a live server: a hung one fails this test, not the suite


def _post(url: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=60) as response:  # a guard against a hang
        return json.loads(response.read())  # type: ignore[no-any-return]


def test_sigkill_during_a_burst_loses_no_acknowledged_roll(tmp_path: Path) -> None:
    cards = shared_path("cards", "dice-cards.json")
    db = tmp_path / "rolls.sqlite"
    url, server = start(cards, db)
    try:
        room = _post(url + "/api/rooms", {})
        deadline = time.monotonic() + 180  # a guard against a stalled server, not a timing claim
        acknowledged: dict[int, dict[str, Any]] = {}
        lock = threading.Lock()
        halt = threading.Event()

        def client() -> None:
            roll = {"card": "Wizard's Spellbook", "battlefield": ["Pixie Guide"]}
            while not halt.is_set():
                try:
                    outcome = _post(f"{url}/api/rooms/{room['id']}/rolls", roll, room["token"])
                except (OSError, urllib.error.URLError):
                    return  # the server is gone: this roll was never acknowledged
                with lock:
                    acknowledged[outcome["id"]] = outcome

        threads = [threading.Thread(target=client) for _ in range(4)]
        for thread in threads:
            thread.start()
        while len(acknowledged) < 150 and time.monotonic() < deadline:
            time.sleep(0.01)
        os.kill(server.pid, signal.SIGKILL)  # in the middle of the burst: clients are still posting
        server.wait(timeout=10)
        halt.set()
        for thread in threads:
            thread.join(timeout=10)
    finally:
        stop(server)
    assert len(acknowledged) >= 150, f"only {len(acknowledged)} rolls acknowledged after 180 s: the server stalled"
    with RollLog(db) as log:
        assert log.integrity_check() == "ok"
        logged = {roll.id: roll for roll in log.rolls(room=room["id"])}
    missing = sorted(set(acknowledged) - set(logged))
    assert missing == [], f"{len(missing)} acknowledged rolls are not in the log"
    for roll_id, outcome in acknowledged.items():
        assert logged_outcome(logged[roll_id])["rolls"] == outcome["rolls"]
