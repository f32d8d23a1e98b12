"""``mtgdice serve``: run the web app (shared dice rooms and the JSON API) with uvicorn.

A thin shell: it reads options, checks the database (creating or migrating its schema) and the
broker, and starts uvicorn bound only to the address it is given — one process, or ``--workers N``
processes on one port (uvicorn's own supervisor, which restarts a worker that dies). Workers read
their settings from the environment (``MTGDICE_DATABASE``, ``MTGDICE_BROKER``, ``MTGDICE_CARDS``,
``MTGDICE_RATE_LIMIT``, ``MTGDICE_BURST``), which is also how to configure a deployment.
What it leaves out: everything the app does (``mtgdice.web``).
"""

from __future__ import annotations

import os
from typing import Annotated, NoReturn

import typer

from mtgdice.cards.catalog import optional_catalog

DEFAULT_PORT = 8765
GRACEFUL_SHUTDOWN_S = 20
"""On SIGTERM or Ctrl+C: requests already received (rolls included) get this long to finish."""


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to bind (only this one).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = DEFAULT_PORT,
    db: Annotated[
        str | None,
        typer.Option(
            "--database",
            "--db",
            help="Rooms and roll log: a SQLite file, or postgresql://user@host:port/name "
            "(default: $MTGDICE_DATABASE, then the data folder's SQLite file).",
        ),
    ] = None,
    broker: Annotated[
        str | None,
        typer.Option("--broker", help="redis://host:port/0 to fan room events out to every worker ($MTGDICE_BROKER)."),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            "--workers", help="Worker processes on the port (more than 1 needs PostgreSQL and Redis).", min=1, max=64
        ),
    ] = 1,  # fmt: skip
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
    from mtgdice.log import default_db_path, open_log

    database = db or os.environ.get("MTGDICE_DATABASE") or str(default_db_path())
    broker = broker or os.environ.get("MTGDICE_BROKER") or None
    postgres = database.startswith(("postgresql://", "postgres://"))

    def fail(message: str) -> NoReturn:
        typer.echo(f"mtgdice: error: {message}", err=True)
        raise typer.Exit(2)

    if workers > 1 and not (postgres and broker):
        fail(
            f"--workers: {workers} workers need --database postgresql://... and --broker redis://... "
            "(a SQLite file and in-process events serve one worker)"
        )
    if broker is not None and not broker.startswith(("redis://", "rediss://", "unix://")):
        fail(f"--broker: expected a redis:// address, got {broker[:80]!r}")
    try:
        catalog = optional_catalog(cards)
        if workers == 1:
            app = create_app(database, catalog, rate=rate_limit, burst=burst, broker=broker)
        else:
            open_log(database).close()  # the schema is created or migrated once, before the workers start
    except MtgDiceError as error:
        fail(str(error))
    if broker is not None:
        _check_broker(broker)
    where = f"http://{host}:{port}/"
    typer.echo(f"mtgdice: serving on {where} with {workers} worker(s) (Ctrl+C stops)", err=True)
    options = {"host": host, "port": port, "log_level": log_level, "access_log": False, "ws_max_size": 65536,
               "timeout_graceful_shutdown": GRACEFUL_SHUTDOWN_S}  # fmt: skip
    if workers == 1:
        uvicorn.run(app, **options)  # type: ignore[arg-type]
        return
    os.environ.update(
        MTGDICE_DATABASE=database, MTGDICE_BROKER=broker or "", MTGDICE_RATE_LIMIT=str(rate_limit),
        MTGDICE_BURST=str(burst),
    )  # fmt: skip
    if cards:
        os.environ["MTGDICE_CARDS"] = cards
    uvicorn.run("mtgdice.web.app:app_from_environment", factory=True, workers=workers, **options)  # type: ignore[arg-type]


def _check_broker(url: str) -> None:
    try:
        import redis
    except ImportError:  # pragma: no cover - depends on the install
        typer.echo("mtgdice: error: --broker needs the redis client: pip install 'mtgdice[web]'", err=True)
        raise typer.Exit(2) from None
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5)
        client.ping()
        client.close()
    except (redis.RedisError, ValueError) as error:
        typer.echo(f"mtgdice: error: --broker: cannot reach {url[:80]}: {' '.join(str(error).split())[:200]}", err=True)
        raise typer.Exit(2) from None


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the ``mtgdice`` command."""
    app.command("serve")(serve)
