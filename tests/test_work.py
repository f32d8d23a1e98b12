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
from mtgdice.web.work import Busy, WorkPool  # noqa: E402

ENDLESS = request_from_json({"text": "Roll 10000 d6. If you roll a 6, repeat this process."})
SHORT = Budget(dice=10**12, options=10**12, seconds=2.0)
"""Counts that never stop the endless roll: only the deadline does."""


def endless() -> object:
    return resolve_request(ENDLESS, None, SeededSource(1), ScriptedChooser())  # the job's meter, by context


def test_a_job_over_its_deadline_is_a_clear_error_and_frees_its_worker() -> None:
    pool = WorkPool(workers=1)
    running, ended = threading.Event(), threading.Event()
    stopped_by: list[BaseException] = []

    def watched() -> object:
        running.set()
        try:
            return endless()
        except BaseException as error:
            stopped_by.append(error)
            raise
        finally:
            ended.set()

    async def scenario() -> tuple[float, float, int, str]:
        meter = Meter(SHORT)
        ticks_during_job = 0

        async def ticking() -> None:  # the loop keeps answering while the job works
            nonlocal ticks_during_job
            while True:
                was_running = running.is_set() and not ended.is_set()
                await asyncio.sleep(0.01)
                if was_running and not ended.is_set():  # a whole tick inside the job's run
                    ticks_during_job += 1

        ticker = asyncio.create_task(ticking())
        with pytest.raises(RollLimitError) as late:
            await pool.run(watched, meter=meter)
        answered = time.monotonic()
        ticker.cancel()
        while pool.running:  # the job stops itself at its meter's deadline (pytest-timeout guards a hang)
            await asyncio.sleep(0.01)
        assert meter.deadline is not None
        return answered, meter.deadline, ticks_during_job, str(late.value)

    answered, deadline, ticks_during_job, message = asyncio.run(scenario())
    pool.close()
    assert message.startswith("budget: this request took more than the 2 s it may take")
    assert answered > deadline  # the loop gave up only after the job's deadline, never before it
    # The endless roll never ends by itself: the worker was freed by the job's own meter.
    assert ended.is_set() and len(stopped_by) == 1 and isinstance(stopped_by[0], RollLimitError)
    assert "took more than" in str(stopped_by[0])
    assert ticks_during_job > 0  # the loop ran whole ticks while the job held its worker


def test_a_full_pool_refuses_at_once_before_anything_is_done() -> None:
    pool = WorkPool(workers=1, queue=0)
    release = threading.Event()
    pool.submit(release.wait, meter=Meter(WEB_BUDGET))
    with pytest.raises(Busy, match="busy"):
        pool.submit(endless, meter=Meter(WEB_BUDGET))
    release.set()
    while pool.running:  # the released job ends (pytest-timeout guards a hang)
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
