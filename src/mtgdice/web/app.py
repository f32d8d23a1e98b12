"""The web app: shared dice rooms as server-rendered pages (htmx) and a JSON API, one websocket per room.

:func:`create_app` builds one :class:`~mtgdice.web.deps.Deps` (the log, the rooms, the worker
pools, the broker, the limits, the templates) and mounts the routers over it: :mod:`~mtgdice.web.api`
(the JSON API for programs, ``/health``), :mod:`~mtgdice.web.pages` (the pages players use) and
:mod:`~mtgdice.web.sockets` (a room's live changes). Routes are thin: parse the request, call
:class:`~mtgdice.web.rooms.Rooms` (which calls the game, the fair dice and the log), render. Every
error is one line: ``{"error": "..."}`` for the API, a one-line HTML fragment for pages; a
database that cannot be reached is 503 with ``Retry-After``. Untrusted text (player names, card
names and texts) only reaches a page through Jinja's autoescaping; the page script inserts
server-rendered fragments, never text it built itself.

Every change to a room is an action of :class:`~mtgdice.web.rooms.Rooms` (committed with the
room's new state before the response); the pages' live messages are rendered once per committed
batch (:meth:`Deps.render <mtgdice.web.deps.Deps.render>`) and reach sockets through
:mod:`mtgdice.web.fanout`, from whichever worker made them.

Nothing heavy runs on the event loop: rolls, odds panels and compiling text a request gives run
in the worker threads of :mod:`mtgdice.web.work`, each within the web budget
(:data:`~mtgdice.rules.budget.WEB_BUDGET`: its deadline counts from the request's arrival); odds
panels in a pool of their own (:data:`ODDS_WORKERS`); the log export is streamed from a thread,
:data:`~mtgdice.web.deps.EXPORTS` at a time. A task deletes empty rooms.

What this module leaves out: rules (``mtgdice.rules`` via ``mtgdice.game``), fairness
(``mtgdice.fair.commit``), storage (``mtgdice.log``) and the limits in front of it (``guard``, ``limits``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from mtgdice import __version__
from mtgdice.errors import InputError, MtgDiceError, StorageUnavailable
from mtgdice.game.request import CardSource
from mtgdice.log import open_log
from mtgdice.log.store import NonceTaken, RoomChanged
from mtgdice.rules.budget import WEB_BUDGET, Budget
from mtgdice.web import api as api_routes
from mtgdice.web import openapi
from mtgdice.web import pages as page_routes
from mtgdice.web import sockets as socket_routes
from mtgdice.web.deps import Deps
from mtgdice.web.fanout import Broker, Fanout, LocalBroker, RedisBroker
from mtgdice.web.guard import MAX_BODY, Guard, guard_quotas
from mtgdice.web.limits import Limits, LocalLimits, RedisLimits, SocketCaps
from mtgdice.web.rooms import CachedCards, Conflict, Forbidden, Rooms
from mtgdice.web.views import HERE, one_line
from mtgdice.web.work import Busy, WorkPool

SWEEP_S = 60.0
"""How often empty rooms are looked for."""
ODDS_WORKERS = 1
ODDS_QUEUE = 4
"""Odds panels computed at once per process, and waiting (more: 503)."""

logger = logging.getLogger("mtgdice.web")


def _status_for(error: Exception) -> int:
    if isinstance(error, (Busy, StorageUnavailable)):
        return 503
    if isinstance(error, Forbidden):
        return 401
    if isinstance(error, (Conflict, RoomChanged, NonceTaken)):
        return 409
    if isinstance(error, LookupError) and not isinstance(error, InputError):
        return 404
    return 400


def _http_refusal(request: Request, error: StarletteHTTPException) -> str:
    """Starlette's own refusals (no such path, a method a path does not take) as one line naming the field."""
    detail = str(error.detail)
    if ": " in detail:
        return detail
    where = request.url.path[:80]
    if error.status_code == 404:
        return f"path: nothing at {where}"
    if error.status_code == 405:
        return f"method: {request.method[:10]} is not answered at {where}"
    return f"request: {detail.lower()}"


def _invalid_parameter(error: RequestValidationError) -> str:
    """A path or query parameter FastAPI refused, as one line naming it (``card_id: ...``)."""
    found = error.errors()
    if not found:
        return "request: not valid"
    first = found[0]
    name = ".".join(str(part) for part in first.get("loc", ())[1:]) or "request"
    given = first.get("input")
    shown = f", got {str(given)[:40]!r}" if isinstance(given, str) else ""
    return f"{name}: {str(first.get('msg', 'not valid')).lower()}{shown}"


def create_app(
    db: str | os.PathLike[str],
    cards: CardSource | None = None,
    *,
    rate: float = 20.0,
    burst: int = 60,
    max_body: int = MAX_BODY,
    broker: str | None = None,
    workers: int | None = None,
    budget: Budget = WEB_BUDGET,
    sockets: SocketCaps | None = None,
) -> Guard:
    """The ASGI app: the routers over one :class:`~mtgdice.web.deps.Deps`, behind the size and rate guard.

    ``db`` is a SQLite file's path or a ``postgresql://`` address; ``broker`` a ``redis://``
    address (several workers), else events stay in this process; with a broker the rate limits,
    quotas and websocket caps (``sockets``) are shared by every worker through it. ``workers``
    threads (default: one per CPU) resolve rolls and odds, each request within ``budget``.

    >>> import tempfile, pathlib
    >>> app = create_app(pathlib.Path(tempfile.mkdtemp()) / "rolls.sqlite")
    >>> type(app).__name__
    'Guard'
    """
    log = open_log(db)
    cards = CachedCards(cards) if cards is not None else None
    sockets = sockets or SocketCaps()
    if rate <= 0:  # per-client limits off (a load test from one address): the room's cap stays
        sockets = dataclasses.replace(sockets, client=2**31)
    quotas = guard_quotas(rate, burst)
    limits: Limits = RedisLimits(broker, quotas, sockets) if broker else LocalLimits(quotas, sockets)
    fanout = Fanout()
    events: Broker = RedisBroker(broker, fanout) if broker else LocalBroker(fanout)
    work = WorkPool(workers)
    # Odds panels get a thread of their own: each stops at its request's deadline, but a queue of
    # heavy panels must still never hold a thread rolls need.
    odds_work = WorkPool(ODDS_WORKERS, queue=ODDS_QUEUE)
    rooms = Rooms(log, cards, events, work, budget)
    parts = Deps(log, cards, rooms, work, odds_work, events, fanout, limits, sockets)

    async def sweep() -> None:
        while True:
            await asyncio.sleep(SWEEP_S)
            try:
                await rooms.sweep()
            except Exception:  # the database is away for now: the next sweep tries again
                logger.exception("deleting empty rooms failed")

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        sweeper = asyncio.create_task(sweep())
        yield
        sweeper.cancel()
        await rooms.drain()  # in-flight batches are committed (or rolled back) before the log closes
        work.close()
        odds_work.close()
        await events.close()
        if isinstance(limits, RedisLimits):
            await limits.close()
        await anyio.to_thread.run_sync(log.close)
        logger.warning("mtgdice: stopped; every roll in flight was finished and the log is closed")

    # The OpenAPI document is served (/openapi.json); no documentation pages: they need scripts
    # from elsewhere, which the pages' content security policy does not allow.
    app = FastAPI(title="mtgdice rooms", docs_url=None, redoc_url=None, openapi_url="/openapi.json", lifespan=lifespan)
    app.state.deps = parts
    app.state.rooms = rooms
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    for routes in (api_routes, socket_routes, page_routes):
        app.include_router(routes.router)
    openapi.install(app, __version__)

    @app.exception_handler(MtgDiceError)
    async def on_input(request: Request, error: MtgDiceError) -> Response:
        return parts.error_response(request, _status_for(error), one_line(error))

    @app.exception_handler(LookupError)
    async def on_lookup(request: Request, error: LookupError) -> Response:
        return parts.error_response(request, _status_for(error), one_line(error).strip("'\""))

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, error: RequestValidationError) -> Response:
        return parts.error_response(request, 400, _invalid_parameter(error))

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, error: StarletteHTTPException) -> Response:
        return parts.error_response(request, error.status_code, _http_refusal(request, error))

    @app.exception_handler(Exception)
    async def on_crash(request: Request, error: Exception) -> Response:
        if log.unavailable(error):  # the database is away: nothing of this request was stored
            logger.warning("database unavailable on %s: %s", request.url.path, one_line(error))
            return parts.error_response(request, 503, "database: unavailable for now; nothing was stored, try again")
        logger.exception("unexpected error on %s", request.url.path)
        return parts.error_response(
            request, 500, "internal error; the roll log is unchanged unless a roll id was returned"
        )

    return Guard(app, max_body=max_body, rate=rate, burst=burst, limits=limits)


def app_from_environment() -> Guard:
    """The app of one worker of ``mtgdice serve --workers N``, configured by the environment.

    ``MTGDICE_DATABASE`` (a ``postgresql://`` address or a SQLite path), ``MTGDICE_BROKER``
    (``redis://...``), ``MTGDICE_CARDS`` (or ``MTGDICE_NO_CARDS=1``), ``MTGDICE_RATE_LIMIT`` and
    ``MTGDICE_BURST``.
    """
    from mtgdice.cards.catalog import optional_catalog
    from mtgdice.log import default_db_path

    no_cards = os.environ.get("MTGDICE_NO_CARDS") == "1"
    return create_app(
        os.environ.get("MTGDICE_DATABASE") or default_db_path(),
        None if no_cards else optional_catalog(os.environ.get("MTGDICE_CARDS") or None),
        rate=float(os.environ.get("MTGDICE_RATE_LIMIT", "20")),
        burst=int(os.environ.get("MTGDICE_BURST", "60")),
        broker=os.environ.get("MTGDICE_BROKER") or None,
    )
