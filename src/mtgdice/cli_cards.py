"""``mtgdice cards``: build, refresh and search the local card index (a thin shell over
:mod:`mtgdice.cards`).

Mounted by :mod:`mtgdice.cli` as ``app.add_typer(cards_app, name="cards")``. Every error is one line
on stderr and exit status 2. Left out: card lookup for the rules commands (they take ``--cards``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from mtgdice.cards.download import SCRYFALL_API, download_oracle_cards
from mtgdice.cards.index import default_index_path, import_bulk, search
from mtgdice.errors import MtgDiceError

__all__ = ["cards_app"]

cards_app = typer.Typer(
    name="cards",
    help="Card data: import a Scryfall bulk file, download the current one, search the local index.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
_out = Console()
_err = Console(stderr=True)

DbOption = Annotated[
    Path | None,
    typer.Option("--db", help="The card index (default: $MTGDICE_INDEX, then $XDG_DATA_HOME/mtgdice/cards.sqlite)."),
]


def _fail(message: str, status: int = 2) -> NoReturn:
    _err.print(f"mtgdice: error: {message}", markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(status)


@contextmanager
def _one_line_errors() -> Iterator[None]:
    try:
        yield
    except MtgDiceError as error:
        _fail(str(error))
    except KeyboardInterrupt:
        _fail("interrupted; the card index was not changed", status=130)


def _say(message: str) -> None:
    _out.print(message, markup=False, highlight=False, soft_wrap=True)


@cards_app.command("import")
def import_command(
    file: Annotated[Path, typer.Argument(help="A Scryfall bulk file: JSON array, plain or gzip.")],
    db: DbOption = None,
) -> None:
    """Index every card of FILE that mentions dice (oracle_cards, default_cards or all_cards)."""
    with _one_line_errors():
        stats = import_bulk(file, db, progress=True)
    _say(
        f"Indexed {stats.cards_indexed:,} cards with dice out of {stats.cards_seen:,} read from "
        f"{stats.source} into {stats.db_path} in {stats.seconds:.1f} s."
    )
    if stats.printed_rows:
        _say(f"Kept {stats.printed_rows:,} printed texts in other languages.")
    if stats.compile_errors:
        _say(f"{stats.compile_errors:,} cards did not compile; 'cards search' shows them with their error.")


@cards_app.command("download")
def download_command(
    db: DbOption = None,
    base_url: Annotated[str, typer.Option("--base-url", hidden=True)] = SCRYFALL_API,
    force: Annotated[bool, typer.Option("--force", help="Download even if the index is up to date.")] = False,
) -> None:
    """Download Scryfall's current oracle_cards file and rebuild the index from it."""
    target = db if db is not None else default_index_path()
    with _one_line_errors():
        result = download_oracle_cards(target, target.parent, base_url, force=force)
    if result.stats is None:
        _say(f"The card index {target} is up to date ({result.listing.updated_at}).")
        return
    _say(
        f"Downloaded {result.bytes_received:,} bytes to {result.path}"
        + (f" ({result.resumed} resumed)" if result.resumed else "")
        + "."
    )
    stats = result.stats
    _say(f"Indexed {stats.cards_indexed:,} cards with dice out of {stats.cards_seen:,} into {stats.db_path}.")
    if stats.compile_errors:
        _say(f"{stats.compile_errors:,} cards did not compile; 'cards search' shows them with their error.")


@cards_app.command("search")
def search_command(
    query: Annotated[
        str,
        typer.Argument(help="Part of a name, or features: d20, d6, table, roll again, planar, stored, ..."),
    ],
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON array.")] = False,
) -> None:
    """Find indexed cards by name or by dice features ("d20 table", "reroll", "planar")."""
    with _one_line_errors():
        cards = search(db, query)
    if as_json:
        typer.echo(json.dumps([card.to_json() for card in cards], ensure_ascii=False, indent=2))
        return
    if not cards:
        _say(f"No card in the index matches {query!r}.")
        return
    table = Table("Name", "Type", "Dice features", title=f"{len(cards)} cards")
    for card in cards:
        features = ", ".join(card.features)
        if card.compile_error:
            features += f" (not compiled: {card.compile_error})"
        table.add_row(card.name, card.type_line, features)
    _out.print(table)
