"""Writing rolls to the roll log off the event loop, in order, with a shared commit when possible.

:class:`LogWriter` owns one thread that appends rolls to the :class:`~mtgdice.log.RollLog` in the
order they were submitted (rooms submit under their lock, so a room's nonces reach the log in
order). A caller gets a future that resolves to the roll's id once the row is committed; the
HTTP response and the broadcast wait for it. When the log offers ``append_many`` (one
transaction, one fsync, for every roll waiting), rolls that arrive together share one commit —
with ``synchronous=FULL`` the fsync is the cost of a roll; otherwise each roll is appended alone.

What this module leaves out: the log's format and checks (``mtgdice.log``).
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from mtgdice.log.store import LogEntry

MAX_BATCH = 256


class AppendLog(Protocol):
    """The part of :class:`~mtgdice.log.RollLog` the writer uses (``append_many`` when present)."""

    def append(
        self,
        *,
        request: Mapping[str, Any],
        outcome: Mapping[str, Any],
        source: str,
        room: str | None = ...,
        player: str | None = ...,
        commitment: str | None = ...,
        client_seeds: Sequence[str] = ...,
        nonce: int | None = ...,
        faces: Any = ...,
        time: str | None = ...,
    ) -> int: ...


Entry = tuple[LogEntry, asyncio.AbstractEventLoop, "asyncio.Future[int]"]


class LogWriter:
    """One writer thread for one roll log.

    >>> import tempfile, pathlib, asyncio
    >>> from mtgdice.fair import Room
    >>> from mtgdice.log import LogEntry, RollLog
    >>> from mtgdice.request import CardRef, RollRequest, resolve_request
    >>> from mtgdice.rules import ScriptedChooser
    >>> log = RollLog(pathlib.Path(tempfile.mkdtemp()) / "rolls.sqlite")
    >>> writer = LogWriter(log)
    >>> source = Room.open("t").source()
    >>> request = RollRequest(card=CardRef("", "Roll a d6."))
    >>> outcome = resolve_request(request, None, source, ScriptedChooser())
    >>> async def write() -> int:
    ...     return await writer.submit(LogEntry(request, outcome, source, "t"))
    >>> asyncio.run(write())
    1
    >>> writer.close()
    """

    def __init__(self, log: AppendLog) -> None:
        self.log = log
        self._queue: queue.SimpleQueue[Entry | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="mtgdice-log-writer", daemon=True)
        self._thread.start()

    def submit(self, entry: LogEntry) -> asyncio.Future[int]:
        """Queue one roll (synchronously, so callers keep their order); await the future for its id.
        The roll is turned into its stored form in the writer's thread, off the event loop."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int] = loop.create_future()
        self._queue.put((entry, loop, future))
        return future

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < MAX_BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._write(batch)
                    return
                batch.append(more)
            self._write(batch)

    def _write(self, batch: Sequence[Entry]) -> None:
        append_many = getattr(self.log, "append_many", None)
        if append_many is not None and len(batch) > 1:
            try:
                ids = list(append_many([entry.fields() for entry, _, _ in batch]))
            except Exception as error:  # every roll of the batch failed together
                for _, loop, future in batch:
                    _notify(loop, _fail, future, error)
                return
            for (_, loop, future), roll_id in zip(batch, ids, strict=True):
                _notify(loop, _done, future, roll_id)
            return
        for entry, loop, future in batch:
            try:
                roll_id = self.log.append(**entry.fields())
            except Exception as error:
                _notify(loop, _fail, future, error)
            else:
                _notify(loop, _done, future, roll_id)


def _notify(loop: asyncio.AbstractEventLoop, callback: Any, future: asyncio.Future[int], value: Any) -> None:
    try:
        loop.call_soon_threadsafe(callback, future, value)
    except RuntimeError:  # the caller's loop has closed: nobody waits for this roll any more
        pass


def _done(future: asyncio.Future[int], roll_id: int) -> None:
    if not future.done():
        future.set_result(roll_id)


def _fail(future: asyncio.Future[int], error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)
