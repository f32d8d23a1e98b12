"""A real ``mtgdice serve`` on 127.0.0.1 in a subprocess, for the tests and the load bench.

``live_server(cards, db)`` starts it on a free loopback port, waits until the front page answers,
yields ``(url, process)`` and stops it afterwards (a test may kill it first). ``db`` is a SQLite
file or a ``postgresql://`` address; ``broker`` and ``workers`` are passed on to ``serve``.

The server runs in a process group of its own, and stopping it stops every process of the group
(``--workers N`` starts N more), also when it misses its start deadline or the test is interrupted
(e.g. by pytest-timeout): no worker is left holding the output pipe or the port. The start deadline
only guards against a hang; it is generous, for a busy machine. Its output goes to a temporary file, never a pipe a worker could keep
open.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
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
    output = tempfile.NamedTemporaryFile(prefix="mtgdice-serve-", suffix=".log", delete=False)  # noqa: SIM115
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
        stdout=output,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: stop() ends the workers with it
    )
    output.close()
    _OUTPUT[process.pid] = output.name
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
                _end(process)
                said = printed(process)
                stop(process)
                raise ServerError(f"the server did not start: {why}; it printed: {said[-2000:]}") from None
    except ServerError:
        raise
    except BaseException:
        stop(process)  # interrupted (a test's timeout, Ctrl-C): no server is left behind
        raise


_OUTPUT: dict[int, str] = {}


def printed(process: subprocess.Popen[bytes]) -> str:
    """What the server printed so far."""
    path = _OUTPUT.get(process.pid)
    if path is None:
        return ""
    with open(path, "rb") as output:
        return output.read().decode(errors="replace")


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the server and every process of its group: SIGTERM, then SIGKILL after 10 s; its output goes."""
    _end(process)
    path = _OUTPUT.pop(process.pid, None)
    if path is not None:
        Path(path).unlink(missing_ok=True)


def _end(process: subprocess.Popen[bytes]) -> None:
    group = process.pid  # start_new_session: the group's id is the server's pid
    if process.poll() is None:
        _signal_group(group, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
    _signal_group(group, signal.SIGKILL)  # workers that outlived their parent, or a server that hung
    if process.poll() is None:
        process.wait(timeout=10)


def _signal_group(group: int, sent: signal.Signals) -> None:
    try:
        os.killpg(group, sent)
    except (ProcessLookupError, PermissionError):
        pass


@contextmanager
def live_server(
    cards: Path, db: Path | str, broker: str | None = None, workers: int = 1
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    url, process = start(cards, db, broker=broker, workers=workers)
    try:
        yield url, process
    finally:
        stop(process)
