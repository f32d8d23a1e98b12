#!/usr/bin/env python3
"""Build the card data that ships inside the package (src/mtgdice/cards/data/cards.json.gz).

    python scripts/build_card_index.py ../shared/cards/dice-cards.json ../shared/cards/coin-cards.json

Each FILE is a Scryfall-format JSON array (plain or gzip): a bulk file from Scryfall, or a small
file in the same shape. The output keeps each English card's name, layout, type line, set and
Oracle text (faces apart), with the source files' names, SHA-256 and card counts and the build date
(``--date``, default today in UTC), which ``mtgdice cards info`` shows. Building twice from the
same files on the same date gives the same bytes. Users build their own, larger index with
``mtgdice cards import FILE``; it comes before the embedded data in the lookup order.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_TARGET = ROOT / "src" / "mtgdice" / "cards" / "data" / "cards.json.gz"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", metavar="FILE", help="Scryfall-format JSON arrays")
    parser.add_argument("--out", type=Path, default=DEFAULT_TARGET, help=f"default: {DEFAULT_TARGET.relative_to(ROOT)}")
    parser.add_argument("--date", default=datetime.now(UTC).date().isoformat(), help="build date (YYYY-MM-DD)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "src"))
    from mtgdice.cards.embedded import embedded_info, write_embedded
    from mtgdice.errors import MtgDiceError

    try:
        size = write_embedded(args.files, args.out, args.date)
        info = embedded_info(args.out.read_bytes())
    except (MtgDiceError, OSError) as error:
        print(f"build_card_index: {error}", file=sys.stderr)
        return 2
    print(f"{args.out}: {size:,} bytes, {info.describe()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
