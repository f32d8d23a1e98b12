"""Benchmark the compiler: every known dice card compiled from its text, cold, in a fresh process.

"Known dice cards" are the dev file (../shared/cards/dice-cards.json) plus the unseen real cards
in tests/fixtures/unseen_cards.json. Prints a Markdown table against the target (< 1 s for all).

    python bench/bench_compile.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILES = [ROOT.parent / "shared" / "cards" / "dice-cards.json", ROOT / "tests" / "fixtures" / "unseen_cards.json"]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    files = [str(path) for path in FILES if path.exists()]
    runs = [
        json.loads(
            subprocess.run([sys.executable, "-c", CHILD, *files], capture_output=True, text=True, check=True).stdout
        )
        for _ in range(args.repeat)
    ]
    compile_s = statistics.median(run["compile"] for run in runs)
    import_s = statistics.median(run["import"] for run in runs)
    print("| task | cards | median seconds | target | ratio to target |")
    print("|---|---:|---:|---:|---:|")
    print(
        f"| compile all known dice cards (cold process) | {runs[0]['cards']} | {compile_s:.3f} | < {TARGET_SECONDS} | "
        f"{compile_s / TARGET_SECONDS:.2f} |"
    )
    print(f"| import mtgdice.text | | {import_s:.3f} | | |")
    print(f"\ncards with unsupported sentences: {runs[0]['unsupported']}")


if __name__ == "__main__":
    main()
