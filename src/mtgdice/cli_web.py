"""``mtgdice serve``: run the web app (shared dice rooms and the JSON API) with uvicorn.

A thin shell: it reads options, loads the card data and the roll log, binds the port, and only
then says where it serves; uvicorn then serves on that very socket, bound only to the address it
is given. A busy port or missing card data is a one-line error before anything is announced.
What it leaves out: everything the app does (``mtgdice.web``).
"""

from __future__ import annotations

import click

from mtgdice.cli import CARDS_HELP, CONTEXT, DB_HELP, fail, out

DEFAULT_PORT = 8765


@click.command("serve", context_settings=CONTEXT)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind (only this one).")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True)
@click.option("--db", metavar="PATH", help=DB_HELP)
@click.option("--cards", metavar="PATH", help=CARDS_HELP)
@click.option("--no-cards", is_flag=True, help="Serve without card data: plain dice, the planar die and coins only.")
@click.option(
    "--rate-limit", type=float, default=20.0, show_default=True, help="Requests per second per client (0: no limit)."
)
@click.option("--burst", type=int, default=60, show_default=True, help="Requests a client may make at once.")
@click.option("--log-level", default="warning", show_default=True, help="uvicorn log level.")
def serve_command(
    host: str,
    port: int,
    db: str | None,
    cards: str | None,
    no_cards: bool,
    rate_limit: float,
    burst: int,
    log_level: str,
) -> None:
    """Serve shared dice rooms: pages for players, a JSON API, a websocket per room."""
    import socket

    import uvicorn  # a missing web extra is one line naming it (mtgdice.cli.missing_extra)

    from mtgdice.cli import catalog
    from mtgdice.errors import InputError, MtgDiceError
    from mtgdice.log.store import default_db_path
    from mtgdice.web import create_app

    try:
        if no_cards and cards is not None:
            raise InputError("--no-cards", "goes without --cards")
        try:
            card_data = None if no_cards else catalog(cards)
        except InputError as error:
            if error.field != "cards":
                raise
            raise InputError("cards", f"{error.problem}; or serve without card rolls: --no-cards") from None
        app = create_app(db or default_db_path(), card_data, rate=rate_limit, burst=burst)
    except MtgDiceError as error:
        fail(str(error))
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
    out(f"mtgdice: serving on http://{shown_host}:{bound_port}/ (Ctrl+C stops)", err=True)
    config = uvicorn.Config(app, log_level=log_level, access_log=False, ws_max_size=65536)
    uvicorn.Server(config).run(sockets=[listener])
