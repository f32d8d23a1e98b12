"""Benchmark the compiler: every known card compiled from its text, cold, in a fresh process.

"Known cards" are the shared dice and coin cards (../shared/cards/dice-cards.json and
coin-cards.json; ``MTGDICE_SHARED`` names the shared folder when it does not sit next to the
repository, as in a git worktree) plus the unseen real cards in tests/fixtures/unseen_cards.json;
``--cards`` names other files. Prints a Markdown table against the target (< 1 s for all).

``--against SRC`` compares with another checkout's ``src`` folder (an older commit, say): the two
run in turn, A B A B ..., each in a fresh process, and the table gives each one's minimum and
median and the ratio this/other per pair (its median), so that a busy machine slows both alike.
Both checkouts need their bytecode written once (``python -m compileall -q src``), or each run
compiles every module again.

    python bench/bench_compile.py [--repeat 5] [--against ../base/src] [--cards FILE ...]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("MTGDICE_SHARED") or ROOT.parent / "shared")
FILES = [
    SHARED / "cards" / "dice-cards.json",
    SHARED / "cards" / "coin-cards.json",
    ROOT / "tests" / "fixtures" / "unseen_cards.json",
]
TARGET_SECONDS = 1.0

CHILD = """
import json, sys, time
start = time.perf_counter()
from mtgdice.text import compile_text
imported = time.perf_counter()
cards = [card for path in sys.argv[1:] for card in json.load(open(path, encoding="utf-8"))]
loaded = time.perf_counter()
unsupported = 0
for card in cards:
    compiled = compile_text(card.get("oracle_text") or "", name=card["name"], layout=card.get("layout", "normal"),
                            type_line=card.get("type_line", ""))
    unsupported += bool(compiled.unsupported)
done = time.perf_counter()
print(json.dumps({"cards": len(cards), "import": imported - start, "compile": done - loaded,
                  "unsupported": unsupported}))
"""


def _run(files: list[str], src: Path | None = None) -> dict[str, float]:
    """One cold process: its import and compile seconds (``src``: import mtgdice from there)."""
    env = None if src is None else {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, "-c", CHILD, *files], capture_output=True, text=True, check=True, env=env)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def _compare(files: list[str], other: Path, repeat: int) -> None:
    ours, theirs = [], []
    for _ in range(repeat):
        ours.append(_run(files, ROOT / "src"))
        theirs.append(_run(files, other))
    print(f"A = this checkout, B = {other}; {repeat} pairs of cold processes, seconds\n")
    print("| task | A min | A median | B min | B median | A/B median of pairs |")
    print("|---|---:|---:|---:|---:|---:|")
    for key, task in (("import", "import mtgdice.text"), ("compile", "compile all known cards")):
        a = [run[key] for run in ours]
        b = [run[key] for run in theirs]
        ratio = statistics.median(x / y for x, y in zip(a, b, strict=True))
        print(
            f"| {task} | {min(a):.4f} | {statistics.median(a):.4f} | {min(b):.4f} | {statistics.median(b):.4f} "
            f"| {ratio:.3f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--against", type=Path, help="another checkout's src folder, run in turn with this one")
    parser.add_argument("--cards", type=Path, nargs="+", default=FILES, help="card files (Scryfall JSON lists)")
    args = parser.parse_args()
    missing = [str(path) for path in args.cards if not path.exists()]
    if missing:
        parser.error(f"--cards: no file {', '.join(missing)} (set MTGDICE_SHARED to the shared folder)")
    files = [str(path) for path in args.cards]
    print("cards from " + ", ".join(files) + "\n")
    if args.against is not None:
        _compare(files, args.against.resolve(), args.repeat)
        return
    runs = [_run(files) for _ in range(args.repeat)]
    compile_s = statistics.median(run["compile"] for run in runs)
    import_s = statistics.median(run["import"] for run in runs)
    print("| task | cards | median seconds | target | ratio to target |")
    print("|---|---:|---:|---:|---:|")
    print(
        f"| compile all known cards (cold process) | {runs[0]['cards']} | {compile_s:.3f} | < {TARGET_SECONDS} | "
        f"{compile_s / TARGET_SECONDS:.2f} |"
    )
    print(f"| import mtgdice.text | | {import_s:.3f} | | |")
    print(f"\ncards with unsupported sentences: {runs[0]['unsupported']}")


if __name__ == "__main__":
    main()
