"""A real ``mtgdice serve`` on 127.0.0.1 in a subprocess, for the tests and the load bench.

``live_server(cards, db)`` starts it on a free loopback port, waits until the front page answers,
yields ``(url, process)`` and stops it afterwards (a test may kill it first). ``db`` is a SQLite
file or a ``postgresql://`` address; ``broker`` and ``workers`` are passed on to ``serve``.
"""

from __future__ import annotations

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
    timeout: float = 30,
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
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url + "/", timeout=1) as response:
                if response.status == 200:
                    return url, process
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                stop(process)
                output = process.stdout.read().decode(errors="replace") if process.stdout else ""
                raise ServerError(f"the server did not start: {output[-2000:]}") from None
            time.sleep(0.1)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@contextmanager
def live_server(
    cards: Path, db: Path | str, broker: str | None = None, workers: int = 1
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    url, process = start(cards, db, broker=broker, workers=workers)
    try:
        yield url, process
    finally:
        stop(process)
