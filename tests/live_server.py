"""A real ``mtgdice serve`` on 127.0.0.1 in a subprocess, for the tests and the load bench.

``live_server(cards, db)`` starts it on a free loopback port, waits until the front page answers,
yields ``(url, process)`` and stops it afterwards (a test may kill it first). ``db`` is a SQLite
file or a ``postgresql://`` address; ``broker`` and ``workers`` are passed on to ``serve``.

The server runs in a process group of its own (its workers too): :func:`stop` ends the whole group,
and :func:`start` ends it on every way out that does not hand the process to the caller (the server
died, the start deadline passed, or the test was interrupted, e.g. by pytest-timeout). The start
deadline only guards against a hang; it is generous, for a busy machine.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class ServerError(RuntimeError):
    """The server did not come up; the message ends with what it printed."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(
    cards: Path,
    db: Path | str,
    port: int | None = None,
    timeout: float = 120,
    broker: str | None = None,
    workers: int = 1,
    extra: list[str] | None = None,
) -> tuple[str, subprocess.Popen[bytes]]:
    """Start the server and wait for it; raise :class:`ServerError` if it does not answer in time.

    ``extra`` options come after the defaults (``--rate-limit 0`` among them), so they win."""
    port = port or free_port()
    extra = [*(["--broker", broker] if broker else []), *(extra or [])]
    if workers != 1:
        extra += ["--workers", str(workers)]
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mtgdice.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--database",
            str(db),
            "--cards",
            str(cards),
            "--rate-limit",
            "0",
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # a process group of its own: stop() ends the server and its workers
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                with urllib.request.urlopen(url + "/", timeout=5) as response:
                    if response.status == 200:
                        return url, process
            except OSError:
                if process.poll() is not None:
                    why = f"it exited with {process.returncode}"
                elif time.monotonic() > deadline:
                    why = f"it did not answer {url}/ within {timeout:g} s (a guard against a hang, not a timing claim)"
                else:
                    time.sleep(0.1)
                    continue
                stop(process)
                output = process.stdout.read().decode(errors="replace") if process.stdout else ""
                raise ServerError(f"the server did not start: {why}; it printed: {output[-2000:]}") from None
    except BaseException:
        stop(process)  # interrupted (a test's timeout, Ctrl-C): no server is left behind
        raise


def stop(process: subprocess.Popen[bytes]) -> None:
    """End the server's whole process group: SIGTERM, then SIGKILL to whatever is left."""
    group = process.pid  # start_new_session: the server leads its own group
    if process.poll() is None:
        _signal_group(group, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            _signal_group(group, signal.SIGKILL)
            process.wait(timeout=20)
    _signal_group(group, signal.SIGKILL)  # workers that outlived their parent


def _signal_group(group: int, signal_number: int) -> None:
    try:
        os.killpg(group, signal_number)
    except (ProcessLookupError, PermissionError):
        pass  # the group is gone


@contextmanager
def live_server(
    cards: Path, db: Path | str, broker: str | None = None, workers: int = 1
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    url, process = start(cards, db, broker=broker, workers=workers)
    try:
        yield url, process
    finally:
        stop(process)
