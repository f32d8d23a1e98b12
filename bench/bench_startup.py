"""Start-up of the ``mtgdice`` command, beside ``python -c pass`` run the same way in the same process.

Usage: ``.venv/bin/python bench/bench_startup.py [--runs N]``. Each command runs ``N`` times in a
fresh process (after three warm-up runs, so Python's bytecode cache is written, as it is after a
user's first run); the table gives the median wall time and its ratio to ``python -c pass``.
Targets (issue 10): ``mtgdice roll d20`` in at most 150 ms and at most 6x ``python -c pass``.
``PYTHONDONTWRITEBYTECODE`` is removed from the children's environment (it would make every run
compile the package from source, which no installed copy does).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PYTHON = sys.executable
MTGDICE = str(Path(sys.executable).with_name("mtgdice"))
TARGET_SECONDS = 0.150
TARGET_RATIO = 6.0


def wall(command: list[str], runs: int, env: dict[str, str]) -> float:
    """Median wall seconds of ``command`` over ``runs`` fresh processes (three warm-ups first)."""
    times = []
    for position in range(runs + 3):
        started = time.perf_counter()
        subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        if position >= 3:
            times.append(time.perf_counter() - started)
    return statistics.median(times)


def measure(runs: int = 21) -> list[tuple[str, float, bool]]:
    """``(label, median seconds, is a target row)`` for the anchor, the floors and the commands."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as folder:
        env["MTGDICE_DB"] = str(Path(folder) / "rolls.sqlite")
        rows = [
            ("`python -c pass` (anchor)", [PYTHON, "-c", "pass"], False),
            ("`python -c 'import click'` (the CLI framework's floor)", [PYTHON, "-c", "import click"], False),
            ("`python -c 'import mtgdice.cli'`", [PYTHON, "-c", "import mtgdice.cli"], False),
            ("`mtgdice --version`", [MTGDICE, "--version"], False),
            ("`mtgdice roll d20 --no-log`", [MTGDICE, "roll", "d20", "--no-log"], True),
            ("`mtgdice roll d20` (appends to the SQLite roll log)", [MTGDICE, "roll", "d20"], True),
            ("`mtgdice roll 4d6dl1+2 adv` (appends two rolls)", [MTGDICE, "roll", "4d6dl1+2", "adv"], False),
        ]
        return [(label, wall(command, runs, env), target) for label, command, target in rows]


def table(rows: list[tuple[str, float, bool]]) -> str:
    """The Markdown table: median, ratio to ``python -c pass``, and the verdict on target rows."""
    anchor = rows[0][1]
    lines = ["| command | median wall | vs `python -c pass` | target (≤ 150 ms, ≤ 6x) |", "|---|---:|---:|---|"]
    for label, seconds, target in rows:
        ratio = seconds / anchor
        verdict = ""
        if target:
            time_ok = "met" if seconds <= TARGET_SECONDS else f"missed {seconds / TARGET_SECONDS:.2f}x"
            ratio_ok = "met" if ratio <= TARGET_RATIO else f"missed ({ratio:.1f}x)"
            verdict = f"150 ms: {time_ok}; 6x: {ratio_ok}"
        lines.append(f"| {label} | {seconds * 1e3:.1f} ms | {ratio:.1f}x | {verdict} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="timed runs per command (median)")
    args = parser.parse_args()
    print(table(measure(args.runs)))


if __name__ == "__main__":
    main()
