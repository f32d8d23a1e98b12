"""``mtgdice cards``: build, refresh and search the local card index, and say which card data is in
use (a thin shell over :mod:`mtgdice.cards`).

Every error is one line on stderr and exit status 2. Progress bars (importing, downloading) are
drawn on stderr when it is a terminal. Left out: card lookup for the rules commands (they take
``--cards``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import click

from mtgdice.cards.download import SCRYFALL_API
from mtgdice.cli.common import CONTEXT, LazyGroup, console, fail, out

__all__ = ["cards_group"]

DB_HELP = "The card index (default: $MTGDICE_INDEX, else $XDG_DATA_HOME/mtgdice/cards.sqlite)."


@click.group("cards", cls=LazyGroup, context_settings=CONTEXT)
def cards_group() -> None:
    """Card data: import a Scryfall bulk file, download the current one, search the local index, show
    which card data is used (--cards, $MTGDICE_CARDS, your index, else the data inside the package)."""


@contextmanager
def _one_line_errors() -> Iterator[None]:
    from mtgdice.errors import MtgDiceError

    try:
        yield
    except MtgDiceError as error:
        fail(str(error))
    except KeyboardInterrupt:
        out("mtgdice: interrupted; the card index was not changed", err=True)
        raise click.exceptions.Exit(130) from None


@cards_group.command("import", context_settings=CONTEXT)
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--db", metavar="PATH", help=DB_HELP)
def import_command(file: str, db: str | None) -> None:
    """Index every card of FILE (a Scryfall bulk file: JSON array, plain or gzip) that mentions dice."""
    from mtgdice.cards.index import import_bulk

    with _one_line_errors():
        stats = import_bulk(file, db, progress=True)
    out(
        f"Indexed {stats.cards_indexed:,} cards with dice out of {stats.cards_seen:,} read from "
        f"{stats.source} into {stats.db_path} in {stats.seconds:.1f} s."
    )
    if stats.printed_rows:
        out(f"Kept {stats.printed_rows:,} printed texts in other languages.")
    if stats.compile_errors:
        out(f"{stats.compile_errors:,} cards did not compile; 'cards search' shows them with their error.")


@cards_group.command("download", context_settings=CONTEXT)
@click.option("--db", metavar="PATH", help=DB_HELP)
@click.option("--base-url", default=SCRYFALL_API, hidden=True)
@click.option("--force", is_flag=True, help="Download even if the index is up to date.")
def download_command(db: str | None, base_url: str, force: bool) -> None:
    """Download Scryfall's current oracle_cards file and rebuild the index from it."""
    from pathlib import Path

    from mtgdice.cards.download import download_oracle_cards
    from mtgdice.cards.index import default_index_path

    target = Path(db) if db is not None else default_index_path()
    with _one_line_errors():
        result = download_oracle_cards(target, target.parent, base_url, force=force)
    if result.stats is None:
        out(f"The card index {target} is up to date ({result.listing.updated_at}).")
        return
    resumed = f" ({result.resumed} resumed)" if result.resumed else ""
    out(f"Downloaded {result.bytes_received:,} bytes to {result.path}{resumed}.")
    stats = result.stats
    out(f"Indexed {stats.cards_indexed:,} cards with dice out of {stats.cards_seen:,} into {stats.db_path}.")
    if stats.compile_errors:
        out(f"{stats.compile_errors:,} cards did not compile; 'cards search' shows them with their error.")


@cards_group.command("search", context_settings=CONTEXT)
@click.argument("query")
@click.option("--db", metavar="PATH", help=DB_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array.")
def search_command(query: str, db: str | None, as_json: bool) -> None:
    """Find indexed cards by name or by dice features (QUERY: "d20 table", "reroll", "planar", ...)."""
    import json

    from mtgdice.cards.index import search

    with _one_line_errors():
        found = search(db, query)
    if as_json:
        from mtgdice.io.cards import indexed_card_json

        out(json.dumps([indexed_card_json(card) for card in found], ensure_ascii=False, indent=2))
        return
    if not found:
        out(f"No card in the index matches {query!r}.")
        return
    from rich.table import Table

    table = Table("Name", "Type", "Dice features", title=f"{len(found)} card{'' if len(found) == 1 else 's'}")
    for card in found:
        features = ", ".join(card.features)
        if card.compile_error:
            features += f" (not compiled: {card.compile_error})"
        table.add_row(card.name, card.type_line, features)
    console().print(table)


@cards_group.command("info", context_settings=CONTEXT)
@click.option("--cards", "cards_path", metavar="PATH", help="A card file, as the rules commands take it.")
def info_command(cards_path: str | None) -> None:
    """Which card data the commands use, the lookup order, and where the embedded data comes from."""
    import os

    from mtgdice.cards.catalog import card_source
    from mtgdice.cards.embedded import EMBEDDED_NAME, embedded_enabled, embedded_info
    from mtgdice.cards.index import default_index_path

    with _one_line_errors():
        source = card_source(cards_path)
        catalog = source.load() if source is not None else None
        embedded = embedded_info()
    if source is None or catalog is None:
        out("Card data in use: none (the embedded data is turned off by $MTGDICE_EMBEDDED_CARDS).")
    else:
        out(f"Card data in use: {source.describe()} ({len(catalog):,} cards).")
    index_path = default_index_path()
    from_env = os.environ.get("MTGDICE_CARDS")
    steps = [
        f"--cards PATH: {cards_path if cards_path else 'not given'}",
        f"$MTGDICE_CARDS: {from_env if from_env else 'not set'}",
        f"your card index ($MTGDICE_INDEX or the default path) {index_path}: "
        + ("present" if index_path.is_file() else "absent (mtgdice cards import FILE builds it)"),
        f"{EMBEDDED_NAME}: " + ("on" if embedded_enabled() else "off ($MTGDICE_EMBEDDED_CARDS)"),
    ]
    out("Lookup order, the first found is used:")
    for number, step in enumerate(steps, 1):
        out(f"  {number}. {step}")
    out(f"Embedded card data: {embedded.describe()}.")
