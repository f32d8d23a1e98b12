"""Heavy work off the event loop: a bounded pool of worker threads, each job within its request's deadline.

Rolls, odds panels and compiling request text are pure Python that may run for seconds; on the
event loop they would stall every page and socket of the server. :class:`WorkPool` runs them in a
few threads (one per CPU by default) and keeps the loop answering. Each job carries its request's
:class:`~mtgdice.rules.budget.Meter` (made when the request arrived, with the web budget's
deadline): the job runs inside :func:`mtgdice.game.request.metered`, so resolutions stop themselves at
the deadline and free their thread; the loop stops waiting :data:`GRACE_S` after the deadline in
any case, with the budget's one-line error (:func:`late`). At most ``workers + queue`` jobs are
running or waiting at once; one more is refused at once with :class:`Busy` (HTTP 503), before it
has spent anything.

Threads, not processes: the point is that the loop keeps answering, and a resolution is stopped by
its meter rather than killed (odds panels too: they pass the meter to ``odds``). A job whose code
does not check a meter (a compile of request text, bounded by its length) keeps its thread after
the loop gave up on it, until it ends by itself within the command line's budget;
:attr:`WorkPool.running` counts it until then.

What this module leaves out: what the jobs are (``rooms``, ``app``) and the budgets (``mtgdice.rules.budget``).
"""

from __future__ import annotations

import asyncio
import math
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from mtgdice.errors import InputError
from mtgdice.game.request import metered
from mtgdice.rules.budget import Meter
from mtgdice.rules.errors import RollLimitError

T = TypeVar("T")

GRACE_S = 0.5
"""How long past a request's deadline the loop still waits for its job before answering with an error."""
QUEUE_PER_WORKER = 64
"""Jobs that may wait for a thread, per thread, before more are refused."""


class Busy(InputError):
    """Every worker is taken and the queue is full: try again in a moment (HTTP 503)."""


def late(meter: Meter) -> RollLimitError:
    """The error of a request whose job did not end within its deadline: the budget's own.

    >>> from mtgdice.rules.budget import WEB_BUDGET
    >>> str(late(Meter(WEB_BUDGET))).split(";")[0]
    'budget: this request took more than the 5 s it may take'
    """
    try:
        Meter(meter.budget, started=-math.inf).check_time()
    except RollLimitError as error:
        return error
    raise ValueError("a request without a deadline is never late")


def remaining(meter: Meter) -> float | None:
    """Seconds the loop still waits for a job of ``meter``'s request (None: no deadline)."""
    deadline = meter.deadline
    return None if deadline is None else max(0.0, deadline - time.monotonic()) + GRACE_S


class WorkPool:
    """A fixed number of worker threads and a bounded queue in front of them.

    >>> import asyncio
    >>> from mtgdice.rules.budget import WEB_BUDGET
    >>> pool = WorkPool(workers=1)
    >>> asyncio.run(pool.run(sum, [1, 2, 3], meter=Meter(WEB_BUDGET)))
    6
    >>> pool.close()
    """

    def __init__(self, workers: int | None = None, queue: int | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 2)
        self.limit = self.workers + (queue if queue is not None else QUEUE_PER_WORKER * self.workers)
        self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="mtgdice-work")
        self._lock = threading.Lock()
        self.running = 0
        """Jobs submitted and not finished (running, waiting, or given up on by the loop but still running)."""

    def submit(self, fn: Callable[..., T], *args: object, meter: Meter | None) -> Future[T]:
        """Start ``fn(*args)`` in a worker within ``meter`` (None: ``fn`` meters its own parts, as a
        room's batch does per action); :class:`Busy` when the queue is full."""
        with self._lock:
            if self.running >= self.limit:
                raise Busy("server", f"busy: {self.running} requests are being worked on; try again in a moment")
            self.running += 1

        def job() -> T:
            try:
                if meter is None:
                    return fn(*args)
                with metered(meter):
                    meter.check_time()  # waited in the queue past its deadline: nothing is done
                    return fn(*args)
            finally:
                with self._lock:
                    self.running -= 1

        try:
            return self._executor.submit(job)
        except BaseException:
            with self._lock:
                self.running -= 1
            raise

    async def run(self, fn: Callable[..., T], *args: object, meter: Meter) -> T:
        """``fn(*args)`` in a worker; its result, or the budget's error once the deadline (and
        :data:`GRACE_S`) has passed: the loop goes on, and the job stops at its meter's deadline."""
        future = self.submit(fn, *args, meter=meter)
        try:
            return await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)), remaining(meter))
        except TimeoutError:
            raise late(meter) from None

    async def finish(self, future: Future[T]) -> T:
        """Wait for a job however long it takes (a room's batch waits for its job to end before it goes on)."""
        return await asyncio.shield(asyncio.wrap_future(future))

    async def call(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` in a worker (it meters its own parts), awaited however long it takes: the job
        wakes the loop once, when it ends, with its result. A caller cancelled meanwhile stops waiting;
        the job runs to its end all the same (as :meth:`finish` under a shield)."""

        def job(done: Callable[[T | None, BaseException | None], None]) -> None:
            done(fn(*args), None)

        return await self.call_then(job)

    async def call_then(self, fn: Callable[..., None], *args: object) -> T:
        """``fn(*args, done)`` in a worker (it meters its own parts), awaited however long it takes,
        until ``done(value, error)`` is called: by the job, or later by whatever thread the job handed
        its work on to (a room's batch hands its commit to the log's writing thread, so the worker is
        free for the next batch meanwhile). ``done`` wakes the loop once; a job that raises before
        calling it gives its error. A caller cancelled meanwhile stops waiting; the work goes on to its
        end all the same (as :meth:`finish` under a shield).

        >>> import asyncio
        >>> pool = WorkPool(workers=1)
        >>> asyncio.run(pool.call_then(lambda numbers, done: done(sum(numbers), None), [1, 2, 3]))
        6
        >>> pool.close()
        """
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[T] = loop.create_future()

        def settle(value: T, error: BaseException | None) -> None:
            if waiter.done():  # its caller was cancelled, or the job had told it already
                return
            if error is not None:
                waiter.set_exception(error)
            else:
                waiter.set_result(value)

        def done(value: T, error: BaseException | None) -> None:
            loop.call_soon_threadsafe(settle, value, error)

        def job() -> None:
            try:
                fn(*args, done)
            except BaseException as error:
                done(None, error)  # type: ignore[arg-type]
                if not isinstance(error, Exception):
                    raise

        self.submit(job, meter=None)
        return await waiter

    def close(self) -> None:
        """Stop taking jobs; the threads end when their jobs do."""
        self._executor.shutdown(wait=False, cancel_futures=True)
