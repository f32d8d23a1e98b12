"""Benchmark mtgdice against the anchors (d20, icepool, dyce, numpy, random) in one run.

Usage: ``.venv/bin/python bench/run.py [--quick]`` (install the anchors with
``.venv/bin/pip install -e '.[bench]'``). Prints a Markdown report and writes it to
``bench/results/bench-<date>.md``. Every number is a median; the box is shared and noisy, so
ratios move by up to about 1.5x between runs (research/dicelibs.md).

Parts: A, one roll per call through each public API (mtgdice: the full rules through
``resolve()`` with a ``SeededSource``); B, 1M simulated "2d20 keep highest +1"; C, exact
distributions computed cold (a fresh subprocess per measurement); D, tasks only mtgdice can do;
D3, the stacked-copies curve of exact odds; E, start-up of the ``mtgdice`` command beside
``python -c pass`` (``bench_startup.py``). Libraries are measured interleaved (A, B, A, B ...: one
batch or one fresh interpreter of each in turn, then the next round), so a machine that gets busy
halfway slows every library alike and the ratios hold. There is no bench-only code path: every
mtgdice call here is the public API.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import subprocess
import sys
import textwrap
import time
import timeit
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PYTHON = sys.executable
CLOCK = time.process_time
"""Every time is CPU time of the measuring process: on a shared machine the time spent waiting for a
core is not counted, so the ratios between libraries measured in turn hold better."""

SPELLBOOK = (
    "{T}: Exile target instant or sorcery card from a graveyard. Roll a d20. Activate only as a sorcery.\n"
    "1\u20149 | Copy that card. You may cast the copy.\n"
    "10\u201419 | Copy that card. You may cast the copy by paying {1} rather than paying its mana cost.\n"
    "20 | Copy each card exiled with Wizard's Spellbook. You may cast any number of the copies without "
    "paying their mana costs."
)
PIXIE = (
    "Flying\nGrant an Advantage \u2014 If you would roll one or more dice, instead roll that many dice plus one "
    "and ignore the lowest roll."
)
THUMB = "If you would roll a die, instead roll two of those dice and ignore one of those results."
SWORD = (
    "Equipped creature gets +2/+2 and has protection from Rogues and from Clerics.\n"
    "Whenever equipped creature deals combat damage to a player, create a 4/4 gold Dragon creature token with "
    "flying and roll a d20 (a twenty-sided die). If you roll a 20, repeat this process.\nEquip {2}"
)


def per_call(function: Callable[[], Any], seconds: float = 0.4, repeats: int = 5) -> float:
    """Median seconds per call over ``repeats`` timed batches of about ``seconds`` each."""
    timer = timeit.Timer(function, timer=CLOCK)
    number, _ = timer.autorange()
    number = max(1, int(number * seconds / 0.2))
    return statistics.median(t / number for t in timer.repeat(repeats, number))


def interleaved(functions: list[Callable[[], Any]], seconds: float = 0.4, repeats: int = 5) -> list[float]:
    """Median seconds per call of each function, their timed batches taken in turn (A, B, A, B ...)."""
    timers = [timeit.Timer(function, timer=CLOCK) for function in functions]
    numbers = [max(1, int(timer.autorange()[0] * seconds / 0.2)) for timer in timers]
    times: list[list[float]] = [[] for _ in functions]
    for _ in range(repeats):
        for position, (timer, number) in enumerate(zip(timers, numbers, strict=True)):
            times[position].append(timer.timeit(number) / number)
    return [statistics.median(found) for found in times]


def interleaved_runs(functions: list[Callable[[], Any]], repeats: int = 7) -> list[float]:
    """Median seconds of one call of each function (after one warm-up call each), in turn."""
    for function in functions:
        function()
    times: list[list[float]] = [[] for _ in functions]
    for _ in range(repeats):
        for position, function in enumerate(functions):
            start = CLOCK()
            function()
            times[position].append(CLOCK() - start)
    return [statistics.median(found) for found in times]


def median_time(function: Callable[[], Any], repeats: int = 7) -> float:
    function()
    times = []
    for _ in range(repeats):
        start = CLOCK()
        function()
        times.append(CLOCK() - start)
    return statistics.median(times)


@dataclass(frozen=True)
class Cold:
    """Medians over fresh interpreters: the import, the first computation, the same computation
    again in that process (what is left once caches and lazy imports are warm), and the path an
    ``odds()`` result names (``method``; empty for the anchors); ``collected`` is the share of the
    runs in which a garbage collection fell inside the first computation (it starts once the
    objects made since the last one pass a threshold, so it depends on what the import left)."""

    imported: float
    first: float
    second: float
    method: str
    collected: float = 0.0


def cold(setup: str, compute: str, runs: int) -> Cold:
    """``compute`` after ``setup``, each time in a fresh interpreter (see :class:`Cold`)."""
    return cold_interleaved([(setup, compute)], runs)[0]


def cold_interleaved(tasks: list[tuple[str, str]], runs: int) -> list[Cold]:
    """Each ``(setup, compute)`` in a fresh interpreter, the tasks in turn for each of ``runs`` rounds."""
    measured: list[list[list[Any]]] = [[] for _ in tasks]
    for _ in range(runs):
        for position, (setup, compute) in enumerate(tasks):
            measured[position].append(_cold_once(setup, compute))
    return [
        Cold(
            statistics.median(m[0] for m in found),
            statistics.median(m[1] for m in found),
            statistics.median(m[2] for m in found),
            found[0][3],
            sum(1 for m in found if m[4]) / len(found),
        )
        for found in measured
    ]


def _cold_once(setup: str, compute: str) -> list[Any]:
    code = textwrap.dedent(
        f"""
        import time, warnings, json, gc
        warnings.simplefilter("ignore")
        start = time.process_time()
        {setup}
        imported = time.process_time()
        before = sum(generation["collections"] for generation in gc.get_stats())
        result = {compute}
        done = time.process_time()
        collected = sum(generation["collections"] for generation in gc.get_stats()) - before
        result = {compute}
        again = time.process_time()
        method = str(getattr(result, "method", ""))
        print(json.dumps([imported - start, done - imported, again - done, method, collected]))
        """
    )
    output = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, check=True).stdout
    found: list[Any] = json.loads(output)
    return found


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


# -- part A ----------------------------------------------------------------------------------------


def part_a() -> list[tuple[str, float]]:
    import random

    import d20
    import icepool
    from dyce import P

    from mtgdice.rules import Board, Permanent, SeededSource, resolve
    from mtgdice.text import compile_text

    spellbook = compile_text(SPELLBOOK, name="Wizard's Spellbook").rolls[0]
    board = Board.from_zones(battlefield=(Permanent("Pixie Guide", compile_text(PIXIE, name="Pixie Guide").effects),))
    source = SeededSource(706)
    ice = icepool.d20.highest(2) + 1
    dy = (2 @ P(20)).at(-1) + 1
    warnings.simplefilter("ignore")
    labelled: list[tuple[str, Callable[[], Any]]] = [
        (
            "mtgdice `resolve()` Wizard's Spellbook + Pixie Guide (full rules, SeededSource)",
            lambda: resolve(spellbook, source="Wizard's Spellbook", dice=source, board=board),
        ),
        ('d20 `roll("2d20kh1+1")`', lambda: d20.roll("2d20kh1+1").total),
        ("icepool `(d20.highest(2)+1).sample()`", ice.sample),
        ("dyce `((2@P(20)).at(-1)+1).sample()`", dy.sample),
        ("`random.randint(1, 20)` (one die, the Python floor)", lambda: random.randint(1, 20)),
    ]
    times = interleaved([function for _, function in labelled])
    return [(label, seconds) for (label, _), seconds in zip(labelled, times, strict=True)]


# -- part B ----------------------------------------------------------------------------------------


def part_b(rolls: int) -> list[tuple[str, float]]:
    import numpy as np

    from mtgdice.rules import Amount, Die, RollInstruction
    from mtgdice.sim import simulate

    instruction = RollInstruction(Amount(2), Die(20), keep_highest=1, modifier=Amount(1))
    seeds = iter(range(10_000))

    def ours() -> None:
        simulate(instruction, rolls=rolls, seed=next(seeds))

    def hand() -> None:
        generator = np.random.Generator(np.random.PCG64(next(seeds)))
        faces = generator.integers(1, 21, size=(2, rolls), dtype=np.uint8)
        np.bincount(np.maximum(faces[0], faces[1]) + 1, minlength=22)

    mine, theirs = interleaved_runs([ours, hand])
    return [
        (f"mtgdice `simulate()` 2d20 keep highest +1, {rolls:,} rolls (counts, rows, doubles)", mine),
        (f"hand-written numpy (uint8, `np.maximum`, `bincount`), {rolls:,} rolls", theirs),
    ]


# -- part C and D ----------------------------------------------------------------------------------

MTG_SETUP = "from mtgdice.odds import odds; from mtgdice.rules import *"
MTG_IMPORT = "import mtgdice.rules, mtgdice.odds"
ICE_SETUP = "import icepool"
DYCE_SETUP = "from dyce import H, P; from dyce.evaluation import expand"

EXACT = [
    (
        "highest of 2d20 +1",
        "odds(RollInstruction(Amount(2), Die(20), keep_highest=1, modifier=Amount(1)))",
        "(icepool.d20.highest(2) + 1).probabilities()",
        "((2 @ P(20)).at(-1) + 1).lowest_terms()",
    ),
    (
        "10d20 keep highest 3",
        "odds(RollInstruction(Amount(10), Die(20), keep_highest=3))",
        "icepool.d20.highest(10, 3).probabilities()",
        "(10 @ P(20)).at(slice(-3, None)).lowest_terms()",
    ),
    (
        "5d6 rerolling 1s once (a reroll permission that does not apply to its own reroll, accept)",
        "odds(RollInstruction(Amount(5), Die(6)), board=Board.from_zones(battlefield=(Permanent('r', "
        "(RerollPermission(condition=InRange(1, 1), again=False),)),)), policy='accept')",
        "(5 @ icepool.d6.reroll([1], depth=1)).probabilities()",
        "(5 @ expand(lambda r: r.h if r.outcome == 1 else r.outcome, H(6))).lowest_terms()",
    ),
    (
        "5d6 rerolling 1s until not 1 (a reroll permission that applies to its own reroll, accept)",
        "odds(RollInstruction(Amount(5), Die(6)), board=Board.from_zones(battlefield=(Permanent('r', "
        "(RerollPermission(condition=InRange(1, 1)),)),)), policy='accept')",
        "(5 @ icepool.d6.reroll([1], depth='inf')).probabilities()",
        None,
    ),
    (
        "20d20 sum",
        "odds(RollInstruction(Amount(20), Die(20)))",
        "(20 @ icepool.d20).probabilities()",
        "(20 @ H(20)).lowest_terms()",
    ),
]

MTG_ONLY = [
    (
        "Wizard's Spellbook + Pixie Guide: compile both texts, then rows, results, expected executions",
        f"odds(compile_text({SPELLBOOK!r}).rolls[0], board=Board.from_zones(battlefield=(Permanent('Pixie Guide', "
        f"compile_text({PIXIE!r}).effects),)))",
    ),
    (
        "Sword of Dungeons & Dragons + Pixie Guide: compile both texts, then expected executions (400/361)",
        f"odds(compile_text({SWORD!r}).rolls[0], board=Board.from_zones(battlefield=(Permanent('Pixie Guide', "
        f"compile_text({PIXIE!r}).effects),)))",
    ),
    (
        "Wizard's Spellbook + Pixie Guide + Krark's Other Thumb (an odds panel's question): compile, then odds",
        f"odds(compile_text({SPELLBOOK!r}).rolls[0], board=Board.from_zones(battlefield=(Permanent('Pixie Guide', "
        f"compile_text({PIXIE!r}).effects), Permanent('Thumb', compile_text({THUMB!r}).effects))))",
    ),
]
MTG_ONLY_TARGETS = {2: 1.0}
"""Targets of part D by row: the odds panel's question within a second (21.6 s before issue 8)."""


def part_c(runs: int) -> list[tuple[str, Cold, float | None, float | None]]:
    rows = []
    for label, ours, ice, dy in EXACT:
        tasks = [(MTG_SETUP, ours)] + [(setup, code) for setup, code in ((ICE_SETUP, ice), (DYCE_SETUP, dy)) if code]
        found = iter(cold_interleaved(tasks, runs))
        mtg = next(found)
        ice_time = next(found).first if ice else None
        dyce_time = next(found).first if dy else None
        rows.append((label, mtg, ice_time, dyce_time))
    return rows


def resolve_profile(rolls: int = 5_000) -> tuple[float, str, float]:
    """Python function calls per ``resolve()`` of part A's roll, and the function with the most
    own time with its share: where a missed per-roll target goes."""
    import cProfile
    import pstats

    from mtgdice.rules import Board, Permanent, SeededSource, resolve
    from mtgdice.text import compile_text

    spellbook = compile_text(SPELLBOOK).rolls[0]
    board = Board.from_zones(battlefield=(Permanent("Pixie Guide", compile_text(PIXIE).effects),))
    source = SeededSource(706)
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(rolls):
        resolve(spellbook, source="S", dice=source, board=board)
    profile.disable()
    stats = pstats.Stats(profile)
    table: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    calls = sum(entry[1] for entry in table.values())
    own = sum(entry[2] for entry in table.values())
    (_, _, name), top = max(table.items(), key=lambda item: item[1][2])
    return calls / rolls, name, top[2] / own if own else 0.0


def part_d(runs: int) -> list[tuple[str, float, float]]:
    setup = MTG_SETUP + "; from mtgdice.text import compile_text"
    rows = []
    for label, compute in MTG_ONLY:
        first = cold(setup, compute, runs).first
        namespace: dict[str, Any] = {}
        exec(setup, namespace)
        warm = median_time(lambda code=compute, names=namespace: eval(code, names))
        rows.append((label, first, warm))
    return rows


def stacked(counts: tuple[int, ...] = (400, 800, 1600)) -> list[tuple[int, float]]:
    """One ``resolve()`` of a d20 with ``n`` copies of Krark's Other Thumb (each adds a die to every
    die's group): whether the cost of stacked copies stays near linear (the issue-12 board)."""
    from mtgdice.rules import Board, Permanent, PolicyChooser, SeededSource, resolve
    from mtgdice.text import compile_text

    roll = compile_text("Roll a d20.").rolls[0]
    thumb = compile_text(THUMB).effects
    chooser = PolicyChooser("accept")

    def once(count: int) -> None:
        # A new board each time: the plan of a board is cached, and the first roll is what is timed.
        board = Board.from_zones(battlefield=tuple(Permanent(f"Thumb {i}", thumb) for i in range(count)))
        resolve(roll, source="S", dice=SeededSource(1), board=board, chooser=chooser)

    return [(count, median_time(lambda n=count: once(n), repeats=5)) for count in counts]


STACKED_COPIES = (1, 2, 4, 8, 16)
POLICIES = ("decline", "accept", "maximize", "minimize")
FRENZY = (
    "Roll two d20 and ignore the lower roll.\n1\u201414 | Choose any number of creatures.\n15\u201420 | You choose."
)
BARBARIAN = "If you would roll one or more dice, instead roll that many dice plus one and ignore the lowest roll."


def stacked_odds(copies: tuple[int, ...] = STACKED_COPIES) -> list[tuple[str, int, float, str, float | None]]:
    """Exact odds of Wizard's Spellbook with Pixie Guide and ``n`` Krark's Other Thumb, each policy
    (a new board for each measurement, so nothing is cached between them), and Berserker's Frenzy
    with Barbarian Class, Pixie Guide and one Thumb; icepool's composed answer of the maximize
    version (max of two groups, each the max of n + 1 d20) measured in turn with it."""
    import icepool

    from mtgdice.odds import odds
    from mtgdice.rules import Board, Permanent
    from mtgdice.text import compile_text

    spellbook = compile_text(SPELLBOOK).rolls[0]
    pixie = compile_text(PIXIE).effects
    thumb = compile_text(THUMB).effects
    rows: list[tuple[str, int, float, str, float | None]] = []
    methods: dict[tuple[str, int], str] = {}

    def ours(policy: str, count: int) -> Callable[[], Any]:
        def run() -> None:
            fresh = (Permanent("Pixie Guide", pixie),) + tuple(Permanent(f"Thumb {i}", thumb) for i in range(count))
            methods[(policy, count)] = odds(spellbook, board=Board.from_zones(battlefield=fresh), policy=policy).method

        return run

    for count in copies:
        functions = [ours(policy, count) for policy in POLICIES]
        functions.append(lambda n=count: icepool.d20.highest(n + 1).highest(2).probabilities())
        times = interleaved_runs(functions, repeats=7)
        for policy, seconds in zip(POLICIES, times, strict=False):
            rows.append((policy, count, seconds, methods[(policy, count)], times[-1] if policy == "maximize" else None))
    frenzy = compile_text(FRENZY).rolls[0]
    board = Board.from_zones(
        battlefield=(
            Permanent("Barbarian Class", compile_text(BARBARIAN).effects),
            Permanent("Pixie Guide", pixie),
            Permanent("Thumb", thumb),
        )
    )
    frenzy_methods: dict[str, str] = {}

    def on_frenzy(policy: str) -> Callable[[], Any]:
        def run() -> None:
            frenzy_methods[policy] = odds(frenzy, board=board, policy=policy).method

        return run

    times = interleaved_runs([on_frenzy(policy) for policy in POLICIES], 5)
    for policy, seconds in zip(POLICIES, times, strict=True):
        rows.append((f"Frenzy + Class + Pixie + Thumb, {policy}", 1, seconds, frenzy_methods[policy], None))
    return rows


def imports(runs: int) -> list[tuple[str, float]]:
    return [
        ("mtgdice (`import mtgdice.rules, mtgdice.odds`)", cold(MTG_IMPORT, "0", runs).imported),
        ("icepool", cold(ICE_SETUP, "0", runs).imported),
        ("dyce", cold(DYCE_SETUP, "0", runs).imported),
        ("d20", cold("import d20", "0", runs).imported),
    ]


def _load() -> str:
    """The 1, 5 and 15 minute load averages (how busy the shared machine was), or "unknown"."""
    try:
        return " / ".join(f"{value:.1f}" for value in os.getloadavg())
    except OSError:
        return "unknown"


def verdict(label: str, seconds: float, limit: float) -> str:
    return f"{label}: " + ("met" if seconds <= limit else f"missed by {seconds / limit:.1f}x")


PARTS = "ABCDE"
"""The parts of the report: A to D as in the module docstring (D with D2 and D3), E the start-up of
the command and the import times."""


def report(quick: bool, parts: str = PARTS) -> str:
    runs = 3 if quick else 5
    rolls = 1_000_000
    started = time.perf_counter()
    lines = [
        f"# mtgdice benchmark, {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC",
        "",
        f"Python {platform.python_version()} on {platform.machine()}, {platform.processor() or 'unknown CPU'}, "
        f"{os.cpu_count()} cores, load average {_load()} at the start (see the end for the load at the end); "
        "medians; cold = first computation in a fresh interpreter (import excluded, listed separately), "
        "every time is CPU time of the measuring process (`time.process_time`), not wall time."
        + ("" if parts == PARTS else f" Parts measured: {', '.join(parts)}."),
    ]
    why: list[str] = []
    if "A" in parts:
        _part_a(lines, why)
    if "B" in parts:
        _part_b(lines, why, rolls)
    if "C" in parts:
        _part_c(lines, why, runs)
    if "D" in parts:
        _part_d(lines, runs)
    if "E" in parts:
        _part_e(lines, quick, runs)
    if why:
        lines += ["", "## Why the misses (measured in this run)", "", *why]
    lines += [
        "",
        f"Total benchmark time: {time.perf_counter() - started:.0f} s; load average at the end {_load()}.",
        "",
    ]
    return "\n".join(lines)


def _part_a(lines: list[str], why: list[str]) -> None:
    lines += [
        "",
        "## A. One roll per call",
        "",
        "| what | per call | vs `random.randint` | target |",
        "|---|---:|---:|---|",
    ]
    a = part_a()
    floor = a[-1][1]
    for position, (label, seconds) in enumerate(a):
        target = verdict("≤ 10 µs", seconds, 10e-6) if position == 0 else ""
        lines.append(f"| {label} | {fmt(seconds)} | {seconds / floor:.1f}x | {target} |")
    if a[0][1] > 10e-6:
        calls, top, share = resolve_profile()
        why.append(
            f"- A: one `resolve()` makes {calls:.0f} Python function calls (cProfile over 5,000 rolls); the "
            f"largest own time is `{top}` with {share:.0%}: the cost is spread over the CR 706 steps, each a "
            "short function building immutable records, not one hot spot to remove."
        )


def _part_b(lines: list[str], why: list[str], rolls: int) -> None:
    lines += [
        "",
        "## B. 1M simulated rolls of 2d20 keep highest +1",
        "",
        "| what | time | ratio | target |",
        "|---|---:|---:|---|",
    ]
    b = part_b(rolls)
    for position, (label, seconds) in enumerate(b):
        target = verdict("≤ 20 ms", seconds, 20e-3) if position == 0 else ""
        lines.append(f"| {label} | {fmt(seconds)} | {seconds / b[1][1]:.2f}x | {target} |")
    if b[0][1] > 20e-3:
        why.append(
            f"- B: {b[0][1] / b[1][1]:.1f}x the hand-written numpy, which counts one total; the simulation also "
            "counts rows, doubles, roll again and triggers per lane and converts faces to int64 for the modifiers."
        )


def _part_c(lines: list[str], why: list[str], runs: int) -> None:
    lines += [
        "",
        "## C. Exact distributions, cold",
        "",
        "| task | mtgdice | icepool | dyce | mtgdice / faster anchor | target (≤ faster anchor) |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for label, mtg, ice, dy in part_c(runs):
        anchors = [t for t in (ice, dy) if t is not None]
        best = min(anchors) if anchors else None
        ratio = f"{mtg.first / best:.1f}x" if best else "–"
        status = "–" if best is None else ("met" if mtg.first <= best else f"missed by {mtg.first / best:.1f}x")
        lines.append(
            f"| {label} | {fmt(mtg.first)} | {fmt(ice) if ice else '–'} | "
            f"{fmt(dy) if dy else '–'} | {ratio} | {status} |"
        )
        if best is not None and mtg.first > best:
            why.append(
                f"- C, {label}: path `{mtg.method}`; the same call again in that process takes "
                f"{fmt(mtg.second)} ({mtg.second / best:.1f}x the faster anchor), so "
                f"{max(0.0, 1 - mtg.second / mtg.first):.0%} of the cold time is first-call work (the "
                "interpreter's first pass over each code path: attribute and global caches, first records)"
                + (
                    f"; a garbage collection fell inside the first call in {mtg.collected:.0%} of the runs."
                    if mtg.collected
                    else "."
                )
            )


def _part_d(lines: list[str], runs: int) -> None:
    lines += ["", "## D. MTG-only tasks (mtgdice)", "", "| task | cold | warm | target |", "|---|---:|---:|---|"]
    for position, (label, first, warm) in enumerate(part_d(runs)):
        limit = MTG_ONLY_TARGETS.get(position)
        target = verdict(f"cold ≤ {limit:g} s", first, limit) if limit is not None else ""
        lines.append(f"| {label} | {fmt(first)} | {fmt(warm)} | {target} |")
    lines += [
        "",
        "## D2. Stacked copies: one roll with n Krark's Other Thumb",
        "",
        "| n | first `resolve()` on a new board | vs half as many |",
        "|---:|---:|---:|",
    ]
    previous = None
    for count, seconds in stacked():
        growth = f"{seconds / previous:.1f}x" if previous else "–"
        lines.append(f"| {count} | {fmt(seconds)} | {growth} |")
        previous = seconds
    lines.append("")
    lines.append("Near linear means about 2x per doubling (quadratic: 4x).")
    lines += [
        "",
        "## D3. Exact odds of stacked copies: Wizard's Spellbook + Pixie Guide + n Krark's Other Thumb",
        "",
        "| policy | n | `odds()` on a new board | path | icepool, same run | ratio | target |",
        "|---|---:|---:|---|---:|---:|---|",
    ]
    for policy, count, seconds, method, ice in stacked_odds():
        anchor = f"{fmt(ice)} | {seconds / ice:.1f}x" if ice else "– | –"
        lines.append(
            f"| {policy} | {count} | {fmt(seconds)} | {method} | {anchor} | {verdict('≤ 50 ms', seconds, 50e-3)} |"
        )


def _part_e(lines: list[str], quick: bool, runs: int) -> None:
    import bench_startup  # beside this file

    lines += ["", "## E. Start-up of the command (median wall time of a fresh process)", ""]
    lines.append(bench_startup.table(bench_startup.measure(11 if quick else 21)))
    lines += ["", "## Import times", "", "| library | import |", "|---|---:|"]
    for label, seconds in imports(runs):
        lines.append(f"| {label} | {fmt(seconds)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer cold runs")
    parser.add_argument("--out", type=Path, default=None, help="report file (default bench/results/bench-<date>.md)")
    parser.add_argument(
        "--parts", default=PARTS, help=f"which parts to measure, e.g. C or AC (default {PARTS}: all of them)"
    )
    args = parser.parse_args()
    parts = "".join(part for part in PARTS if part in args.parts.upper())
    if not parts:
        parser.error(f"--parts: {args.parts!r} names no part; use letters of {PARTS}")
    text = report(args.quick, parts)
    print(text)
    out = args.out or HERE / "results" / f"bench-{dt.date.today():%Y-%m-%d}.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
