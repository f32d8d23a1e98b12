"""``live_server`` leaves no server behind: not when its start deadline passes, and not when a test
that started one runs out of its pytest-timeout (the server and its whole process group end)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("pytest_timeout")

from live_server import ServerError, start  # noqa: E402
from shared_data import shared_path  # noqa: E402

TESTS = Path(__file__).resolve().parent


def servers_on(marker: str) -> list[int]:
    """The live processes whose command line names ``marker`` (a test's own database path)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in command and state != "Z":
            found.append(int(entry.name))
    return found


def test_a_missed_start_deadline_ends_the_server(tmp_path: Path) -> None:
    database = tmp_path / "missed-deadline.sqlite"
    with pytest.raises(ServerError, match="did not answer .* within 0 s"):
        start(shared_path("cards", "dice-cards.json"), database, timeout=0)  # asked once, at once
    assert servers_on(str(database)) == []


INNER = """
import time
import urllib.request
from pathlib import Path

import pytest

import live_server


def never_answers(*args, **kwargs):
    time.sleep(3600)  # a server that never answers: start() waits until the test's timeout


@pytest.mark.timeout({timeout})
def test_hangs_with_a_server(monkeypatch) -> None:
    if {in_start!r}:
        monkeypatch.setattr(urllib.request, "urlopen", never_answers)
    with live_server.live_server(Path({cards!r}), Path({database!r})) as (url, process):
        Path({pid!r}).write_text(str(process.pid))
        time.sleep(3600)  # a hang: only the timeout ends it
"""


@pytest.mark.parametrize("in_start", [False, True], ids=["while serving", "while starting"])
def test_a_timed_out_test_ends_the_server_it_started(tmp_path: Path, in_start: bool) -> None:
    database, pid = tmp_path / "timed-out.sqlite", tmp_path / "server.pid"
    inner = tmp_path / "test_inner.py"
    cards = str(shared_path("cards", "dice-cards.json"))
    timeout = 20 if in_start else 90
    inner.write_text(
        INNER.format(timeout=timeout, in_start=in_start, cards=cards, database=str(database), pid=str(pid)),
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", str(inner)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert run.returncode == 1 and "Timeout" in run.stdout, run.stdout[-2000:]
    # The server started in a group of its own; the timeout ended all of it, wherever it came.
    assert servers_on(str(database)) == [], run.stdout[-2000:]
    assert pid.exists() != in_start, run.stdout[-2000:]  # it timed out where it was meant to
    if pid.exists():  # it had answered: that very process is gone too
        with pytest.raises(ProcessLookupError):
            os.kill(int(pid.read_text()), 0)
