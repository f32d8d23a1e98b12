"""``mtgdice serve``: run the web app (shared dice rooms and the JSON API) with uvicorn.

A thin shell: it reads options, loads the card data and the roll log, and starts uvicorn bound
only to the address it is given. What it leaves out: everything the app does (``mtgdice.web``).
"""

from __future__ import annotations

from typing import Annotated

import typer

from mtgdice.cards.catalog import optional_catalog

DEFAULT_PORT = 8765


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to bind (only this one).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = DEFAULT_PORT,
    db: Annotated[str | None, typer.Option("--db", help="Roll log (SQLite); default: the data folder.")] = None,
    cards: Annotated[
        str | None,
        typer.Option("--cards", help="Scryfall-format card file (default: $MTGDICE_CARDS, then the local index)."),
    ] = None,
    rate_limit: Annotated[
        float, typer.Option("--rate-limit", help="Requests per second per client address (0: no limit).")
    ] = 20.0,
    burst: Annotated[int, typer.Option("--burst", help="Requests a client may make at once before the rate.")] = 60,
    log_level: Annotated[str, typer.Option("--log-level", help="uvicorn log level.")] = "warning",
) -> None:
    """Serve shared dice rooms: pages for players, a JSON API, a websocket per room."""
    try:
        import uvicorn

        from mtgdice.web import create_app
    except ImportError as error:  # pragma: no cover - depends on the install
        typer.echo(f"mtgdice: error: the web app needs the web extra (pip install 'mtgdice[web]'): {error}", err=True)
        raise typer.Exit(2) from None
    from mtgdice.errors import MtgDiceError
    from mtgdice.log import default_db_path

    try:
        catalog = optional_catalog(cards)
        app = create_app(db or default_db_path(), catalog, rate=rate_limit, burst=burst)
    except MtgDiceError as error:
        typer.echo(f"mtgdice: error: {error}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"mtgdice: serving on http://{host}:{port}/ (Ctrl+C stops)", err=True)
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=False, ws_max_size=65536)


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the ``mtgdice`` command."""
    app.command("serve")(serve)
