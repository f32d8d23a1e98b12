#!/usr/bin/env python3
"""Write the published JSON Schemas into the package (src/mtgdice/io/schema/NAME.schema.json).

    python scripts/build_schemas.py           # write every schema
    python scripts/build_schemas.py --check   # exit 1 when a shipped file differs from the models

Each schema is generated from the typed models of the JSON edge (``mtgdice.io.schemas.json_schema``);
run this after changing a model. ``tests/test_schemas.py`` fails while a shipped file is stale.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "src" / "mtgdice" / "io" / "schema"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only compare; write nothing")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "src"))
    from mtgdice.io.schemas import NAMES, schema_text

    stale = []
    for name in NAMES:
        path = TARGET / f"{name}.schema.json"
        text = schema_text(name)
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{'stale' if args.check else 'wrote'} {path.relative_to(ROOT)}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
