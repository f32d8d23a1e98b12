"""Where one full-rules roll spends its time: a profile of ``resolve()`` for the report.

Usage: ``.venv/bin/python bench/bench_rules.py``. Times one roll of Wizard's Spellbook with
Pixie Guide on the battlefield (two d20, ignore the lowest, a three-row table) through the public
``resolve()``, then the pieces it is made of, each measured on its own with ``timeit``, and a
``cProfile`` listing by own time. The pieces name private helpers of ``rules/resolution.py`` only to
say what to change there; nothing here is a code path of the product.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import statistics
import sys
import timeit
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import PIXIE, SPELLBOOK  # noqa: E402

from mtgdice.rules import (  # noqa: E402
    Board,
    Die,
    DieRoll,
    Modifier,
    Permanent,
    PolicyChooser,
    SeededSource,
    TurnState,
    resolve,
)
from mtgdice.rules.resolution import Execution, Resolution, _Resolution, effects_of  # noqa: E402
from mtgdice.text import compile_text  # noqa: E402


def per_call(statement: object, number: int = 20_000) -> float:
    timer = timeit.Timer(statement)  # type: ignore[arg-type]
    return statistics.median(t / number for t in timer.repeat(5, number))


def main() -> None:
    spellbook = compile_text(SPELLBOOK, name="Wizard's Spellbook").rolls[0]
    board = Board.from_zones(battlefield=(Permanent("Pixie Guide", compile_text(PIXIE, name="Pixie Guide").effects),))
    source = SeededSource(706)
    d20 = Die(20)
    roll = DieRoll(0, d20, 12)
    chooser = PolicyChooser()
    turn = TurnState()
    rows: list[tuple[str, float]] = [
        ("resolve(): the whole roll", per_call(lambda: resolve(spellbook, source="S", dice=source, board=board))),
        (
            "resolve() with an empty board (no Pixie Guide)",
            per_call(lambda: resolve(spellbook, source="S", dice=source)),
        ),
        (
            "_Resolution(...) construction: the board's effects sorted by kind",
            per_call(lambda: _Resolution(spellbook, "S", source, board, chooser, {}, turn, None, 2, False)),
        ),
        ("effects_of(board) alone (cached per board)", per_call(lambda: effects_of(board))),
        ("list(Board.holders()) alone", per_call(lambda: list(board.holders()))),
        ("two SeededSource.roll(d20)", per_call(lambda: (source.roll(d20), source.roll(d20)))),
        ("DieRoll(...) construction", per_call(lambda: DieRoll(0, d20, 12))),
        ("dataclasses.replace(DieRoll, fate=...)", per_call(lambda: replace(roll, modifiers=(Modifier(1, "x"),)))),
        ("DieRoll.result (property: isinstance + sum)", per_call(lambda: roll.result)),
        ("Execution(...) construction", per_call(lambda: Execution((roll,)))),
        ("Resolution(...) construction", per_call(lambda: Resolution((), (), {}, frozenset(), "seeded"))),
    ]
    print("| piece | per call |")
    print("|---|---:|")
    for label, seconds in rows:
        print(f"| {label} | {seconds * 1e6:.2f} µs |")
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(20_000):
        resolve(spellbook, source="S", dice=source, board=board)
    profile.disable()
    buffer = io.StringIO()
    pstats.Stats(profile, stream=buffer).sort_stats("tottime").print_stats(15)
    print("\n```")
    print(buffer.getvalue().strip())
    print("```")


if __name__ == "__main__":
    main()
