"""The web's worker pool (``mtgdice.web.work``): heavy work off the event loop, each job within its deadline."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

pytest.importorskip("fastapi")

from mtgdice.game.request import resolve_request  # noqa: E402
from mtgdice.io.jsonio import request_from_json  # noqa: E402
from mtgdice.rules import ScriptedChooser, SeededSource  # noqa: E402
from mtgdice.rules.budget import WEB_BUDGET, Budget, Meter  # noqa: E402
from mtgdice.rules.errors import RollLimitError  # noqa: E402
from mtgdice.web.work import GRACE_S, Busy, WorkPool  # noqa: E402

ENDLESS = request_from_json({"text": "Roll 10000 d6. If you roll a 6, repeat this process."})
SHORT = Budget(dice=10**12, options=10**12, seconds=2.0)
"""Counts that never stop the endless roll: only the deadline does."""


def endless() -> object:
    return resolve_request(ENDLESS, None, SeededSource(1), ScriptedChooser())  # the job's meter, by context


def test_a_job_over_its_deadline_is_a_clear_error_and_frees_its_worker() -> None:
    pool = WorkPool(workers=1)

    async def scenario() -> tuple[float, float, str]:
        meter = Meter(SHORT)
        started = time.monotonic()
        ticks: list[float] = []

        async def ticking() -> None:  # the loop keeps answering while the job works
            while True:
                before = time.monotonic()
                await asyncio.sleep(0.01)
                ticks.append(time.monotonic() - before)

        ticker = asyncio.create_task(ticking())
        with pytest.raises(RollLimitError) as late:
            await pool.run(endless, meter=meter)
        took = time.monotonic() - started
        ticker.cancel()
        while pool.running:  # the job stopped itself at its meter's deadline
            await asyncio.sleep(0.01)
        return took, max(ticks), str(late.value)

    took, slowest_tick, message = asyncio.run(scenario())
    pool.close()
    assert message.startswith("budget: this request took more than the 2 s it may take")
    assert 2.0 <= took < 2.0 + GRACE_S + 1.5
    assert slowest_tick < 1.0  # a loop the job held would have waited the job's 2 s (a loaded machine adds some)


def test_a_full_pool_refuses_at_once_before_anything_is_done() -> None:
    pool = WorkPool(workers=1, queue=0)
    release = threading.Event()
    pool.submit(release.wait, meter=Meter(WEB_BUDGET))
    with pytest.raises(Busy, match="busy"):
        pool.submit(endless, meter=Meter(WEB_BUDGET))
    release.set()
    deadline = time.monotonic() + 5
    while pool.running and time.monotonic() < deadline:
        time.sleep(0.01)
    assert pool.running == 0
    pool.close()


def test_a_job_that_waited_past_its_deadline_does_nothing() -> None:
    pool = WorkPool(workers=1)
    ran: list[int] = []
    meter = Meter(Budget(seconds=0.0))
    with pytest.raises(RollLimitError, match="took more than"):
        pool.submit(lambda: ran.append(1), meter=meter).result(timeout=5)
    assert ran == []
    pool.close()
