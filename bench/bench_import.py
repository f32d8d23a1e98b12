"""Benchmark ``import_bulk`` on a synthetic 160 MB ``oracle_cards`` file: time and peak memory.

Makes the file once (cached in the temp directory), runs the import in a child process, and prints
a Markdown table against the targets (< 30 s, < 200 MB peak RSS). The child's own peak RSS comes
from ``os.wait4`` (``ru_maxrss``), so building the file does not count.

    python bench/bench_import.py [--mb 160] [--file PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import make_synthetic_oracle  # noqa: E402

TARGET_SECONDS = 30.0
TARGET_RSS_MB = 200.0

CHILD = """
import json, sys
from mtgdice.cards.index import import_bulk
stats = import_bulk(sys.argv[1], sys.argv[2], progress=False)
print(json.dumps({"seen": stats.cards_seen, "indexed": stats.cards_indexed, "errors": stats.compile_errors,
                  "seconds": stats.seconds}))
"""


def _peak_rss_mb(rusage_maxrss: int) -> float:
    # Linux reports kilobytes, macOS bytes.
    return rusage_maxrss / (1024 * 1024) if sys.platform == "darwin" else rusage_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=160.0)
    parser.add_argument("--file", type=Path, help="an existing bulk file instead of the synthetic one")
    arguments = parser.parse_args()

    bulk = arguments.file
    if bulk is None:
        bulk = Path(tempfile.gettempdir()) / "mtgdice-bench" / f"synthetic-oracle-{arguments.mb:g}mb.json"
        if not bulk.exists():
            bulk.parent.mkdir(parents=True, exist_ok=True)
            partial = bulk.with_suffix(".part")
            print(f"making {bulk} ...", file=sys.stderr)
            make_synthetic_oracle.write(partial, arguments.mb)
            os.replace(partial, bulk)

    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "cards.sqlite"
        started = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(bulk), str(db)], stdout=subprocess.PIPE)
        assert child.stdout is not None
        output = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - started
        if child.returncode != 0:
            sys.exit(f"import failed with status {child.returncode}")
        stats = json.loads(output)
        db_kb = db.stat().st_size / 1024

    rss = _peak_rss_mb(usage.ru_maxrss)
    size_mb = bulk.stat().st_size / 1e6
    rows = [
        ("file", f"{size_mb:.1f} MB", "", ""),
        (
            "seconds (wall, child)",
            f"{wall:.1f}",
            f"< {TARGET_SECONDS:g}",
            "yes" if wall < TARGET_SECONDS else "NO",
        ),
        ("seconds (import_bulk)", f"{stats['seconds']:.1f}", "", ""),
        ("peak RSS", f"{rss:.0f} MB", f"< {TARGET_RSS_MB:g} MB", "yes" if rss < TARGET_RSS_MB else "NO"),
        ("cards seen", f"{stats['seen']:,}", "", ""),
        ("cards indexed", f"{stats['indexed']:,}", "", ""),
        ("compile errors", f"{stats['errors']:,}", "", ""),
        ("index size", f"{db_kb:,.0f} KB", "", ""),
    ]
    print("| measure | value | target | met |")
    print("| --- | ---: | --- | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
