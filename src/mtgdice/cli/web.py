"""``mtgdice serve``: run the web app (shared dice rooms and the JSON API) with uvicorn.

A thin shell: it reads options, loads the card data, opens the database (creating or migrating its
schema) and checks the broker, binds the port, and only then says where it serves; uvicorn then
serves on that very socket, bound only to the address it is given — in this process, or in
``--workers N`` processes (uvicorn's supervisor, which starts a worker that dies again). A busy
port, missing card data or an unreachable database is a one-line error before anything is
announced. Workers read their settings from the environment (``MTGDICE_DATABASE``,
``MTGDICE_BROKER``, ``MTGDICE_CARDS``, ``MTGDICE_RATE_LIMIT``, ``MTGDICE_BURST``), which is also
how a deployment may set them. What it leaves out: everything the app does (``mtgdice.web``).
"""

from __future__ import annotations

import inspect
import os

import click

from mtgdice.cli.common import CARDS_HELP, CONTEXT, fail, out

DEFAULT_PORT = 8765
GRACEFUL_SHUTDOWN_S = 20
"""On SIGTERM or Ctrl+C: requests already received (rolls included) get this long to finish."""
DATABASE_HELP = (
    "Rooms and roll log: a SQLite file, or postgresql://user:password@host:port/name (default: "
    "$MTGDICE_DATABASE, then $MTGDICE_DB, else $XDG_DATA_HOME/mtgdice/rolls.sqlite)."
)


@click.command("serve", context_settings=CONTEXT)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind (only this one).")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True)
@click.option("--database", "--db", "db", metavar="PATH|URL", help=DATABASE_HELP)
@click.option("--broker", metavar="URL", help="redis://host:port/0: room events to every worker ($MTGDICE_BROKER).")
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Worker processes on the port (more than 1 needs PostgreSQL and Redis).",
)
@click.option("--cards", metavar="PATH", help=CARDS_HELP)
@click.option("--no-cards", is_flag=True, help="Serve without card data: plain dice, the planar die and coins only.")
@click.option(
    "--rate-limit", type=float, default=20.0, show_default=True, help="Requests per second per client (0: no limit)."
)
@click.option("--burst", type=int, default=60, show_default=True, help="Requests a client may make at once.")
@click.option(
    "--forwarded-allow-ips",
    metavar="ADDRESSES",
    default="",
    help="Comma-separated addresses of proxies whose X-Forwarded-For names the client (default: none, the "
    "header is ignored and the connection's address is the client's).",
)
@click.option("--log-level", default="warning", show_default=True, help="uvicorn log level.")
def serve_command(
    host: str,
    port: int,
    db: str | None,
    broker: str | None,
    workers: int,
    cards: str | None,
    no_cards: bool,
    rate_limit: float,
    burst: int,
    forwarded_allow_ips: str,
    log_level: str,
) -> None:
    """Serve shared dice rooms: pages for players, a JSON API, a websocket per room."""
    import socket

    import uvicorn  # a missing web extra is one line naming it (mtgdice.cli.missing_extra)

    from mtgdice.cli.common import catalog
    from mtgdice.errors import InputError, MtgDiceError
    from mtgdice.log.store import default_db_path, open_log
    from mtgdice.web import create_app
    from mtgdice.web.guard import LimitedHttpProtocol

    database = db or os.environ.get("MTGDICE_DATABASE") or str(default_db_path())
    broker = broker or os.environ.get("MTGDICE_BROKER") or None
    if workers > 1 and not (database.startswith(("postgresql://", "postgres://")) and broker):
        fail(
            f"--workers: {workers} workers need --database postgresql://... and --broker redis://... "
            "(a SQLite file and in-process events serve one worker)"
        )
    if broker is not None and not broker.startswith(("redis://", "rediss://", "unix://")):
        fail(f"--broker: expected a redis:// address, got {broker[:80]!r}")
    try:
        if no_cards and cards is not None:
            raise InputError("--no-cards", "goes without --cards")
        try:
            card_data = None if no_cards else catalog(cards)
        except InputError as error:
            if error.field != "cards":
                raise
            raise InputError("cards", f"{error.problem}; or serve without card rolls: --no-cards") from None
        if workers == 1:
            app = create_app(database, card_data, rate=rate_limit, burst=burst, broker=broker)
        else:
            open_log(database).close()  # the schema is created or migrated once, before the workers start
    except MtgDiceError as error:
        fail(str(error))
    if broker is not None:
        _check_broker(broker)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family, kind, protocol, _, address = infos[0]
        listener = socket.socket(family, kind, protocol)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.listen(2048)
    except OSError as error:
        fail(f"--port: cannot listen on {host}:{port}: {error.strerror or error}")
    bound_port = listener.getsockname()[1]
    shown_host = f"[{host}]" if ":" in host else host
    shown_workers = f" with {workers} workers" if workers > 1 else ""
    out(f"mtgdice: serving on http://{shown_host}:{bound_port}/{shown_workers} (Ctrl+C stops)", err=True)
    # Head limits and timeouts (LimitedHttpProtocol); X-Forwarded-For only from the proxies named.
    proxies = ",".join(address.strip() for address in forwarded_allow_ips.split(",") if address.strip())
    options = {"log_level": log_level, "access_log": False, "ws_max_size": 65536,
               "timeout_graceful_shutdown": GRACEFUL_SHUTDOWN_S, "http": LimitedHttpProtocol,
               "proxy_headers": bool(proxies), "forwarded_allow_ips": proxies or None}  # fmt: skip
    if workers == 1:
        uvicorn.Server(uvicorn.Config(app, **options)).run(sockets=[listener])  # type: ignore[arg-type]
        return
    from uvicorn.supervisors import Multiprocess

    os.environ.update(
        MTGDICE_DATABASE=database, MTGDICE_BROKER=broker or "", MTGDICE_RATE_LIMIT=str(rate_limit),
        MTGDICE_BURST=str(burst), MTGDICE_NO_CARDS="1" if no_cards else "",
    )  # fmt: skip
    if cards:
        os.environ["MTGDICE_CARDS"] = cards
    config = uvicorn.Config(
        "mtgdice.web.app:app_from_environment",
        factory=True,
        workers=workers,
        **options,  # type: ignore[arg-type]
    )
    # uvicorn's own supervisor, as `uvicorn --workers` runs it; older versions take the worker's target.
    if "target" in inspect.signature(Multiprocess).parameters:
        Multiprocess(config, sockets=[listener], target=uvicorn.Server(config).run).run()  # type: ignore[call-arg]
    else:
        Multiprocess(config, sockets=[listener]).run()


def _check_broker(url: str) -> None:
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5)
        client.ping()
        client.close()
    except (redis.RedisError, ValueError) as error:
        fail(f"--broker: cannot reach {url[:80]}: {' '.join(str(error).split())[:200]}")


@click.group("db", context_settings=CONTEXT)
def db_group() -> None:
    """The rooms' and roll log's database: create it and check it before serving."""


@click.command("init", context_settings=CONTEXT)
@click.argument("database", metavar="URL|PATH")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Workers that will share the database (for the connection check).")  # fmt: skip
def db_init_command(database: str, workers: int) -> None:
    """Create (or migrate) the schema in DATABASE and check what the role may do there.

    DATABASE is postgresql://user:password@host:port/name, or a SQLite file. Prints one line per
    check; exit status 0 when the server can run on it, 1 when something is missing (named).
    """
    from mtgdice.errors import MtgDiceError
    from mtgdice.log.store import open_log

    try:
        with open_log(database) as log:
            checks = log.role_checks(workers)
    except MtgDiceError as error:
        fail(str(error))
    failed = [check for check in checks if not check.ok]
    for check in checks:
        out(f"{'ok  ' if check.ok else 'FAIL'} {check.what}")
    if failed:
        raise SystemExit(1)
    out(f"mtgdice: {log.path} is ready for mtgdice serve")


db_group.add_command(db_init_command)
