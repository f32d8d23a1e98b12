"""The web app: shared dice rooms as server-rendered pages (htmx) and a JSON API, one websocket per room.

Routes, thin: parse the request, call :class:`~mtgdice.web.rooms.Rooms` (which calls the game,
the fair dice and the log), render a template. Pages are for people (a per-player token in a
cookie authorises their actions); the JSON API is for programs (the room token, ``Authorization:
Bearer``). Every error is one line: ``{"error": "..."}`` for the API, a one-line HTML fragment for
pages. Untrusted text (player names, card names and texts) only reaches a page through Jinja's
autoescaping; the page script inserts server-rendered fragments, never text it built itself.

Every change to a room is an action of :class:`~mtgdice.web.rooms.Rooms` (committed with the
room's new state before the response); the pages' live messages are rendered once per committed
batch (:func:`create_app`'s ``render``) and reach sockets through :mod:`mtgdice.web.fanout`, from
whichever worker made them. ``GET /health`` checks the database and the broker.

Nothing heavy runs on the event loop: rolls, odds panels and compiling text a request gives run
in the worker threads of :mod:`mtgdice.web.work`, each within the web budget
(:data:`~mtgdice.rules.budget.WEB_BUDGET`: its deadline counts from the request's arrival); odds
panels in a pool of their own (:data:`ODDS_WORKERS`); the log export is streamed from a thread,
:data:`EXPORTS` at a time. A task deletes empty rooms.

What this module leaves out: rules (``mtgdice.rules`` via ``mtgdice.game``), fairness
(``mtgdice.fair``), storage (``mtgdice.log``) and the limits in front of it (``guard``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
import re
from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import anyio
import jinja2
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from markupsafe import Markup
from starlette.exceptions import HTTPException as StarletteHTTPException

from mtgdice.errors import InputError, MtgDiceError, StorageUnavailable
from mtgdice.game import Card, RollSpec
from mtgdice.game.odds import row_odds
from mtgdice.jsonio import outcome_json, parse_request
from mtgdice.log import open_log
from mtgdice.log.store import NonceTaken, RoomChanged
from mtgdice.render import plain_lines
from mtgdice.request import CardRef, CardSource, compile_ref
from mtgdice.rules.budget import WEB_BUDGET, Budget
from mtgdice.web.fanout import Broker, Fanout, LocalBroker, RedisBroker
from mtgdice.web.guard import MAX_BODY, Guard, guard_quotas
from mtgdice.web.limits import SOCKET_TTL_S, Limits, LocalLimits, RedisLimits, SocketCaps
from mtgdice.web.rooms import Changes, Conflict, Finished, Forbidden, Rooms, RoomState, Table
from mtgdice.web.work import Busy, WorkPool

HERE = Path(__file__).parent
COOKIE = "mtgdice_player"
SEARCH_LIMIT = 20
RENDERED = 4000
"""Rendered rolls kept per process (a page that opens shows the latest from the log)."""
EXPORTS = 2
"""Room log exports one process streams at once (more wait a moment: 503)."""
SWEEP_S = 60.0
"""How often empty rooms are looked for."""
ODDS_WORKERS = 1
ODDS_QUEUE = 4
"""Odds panels computed at once per process, and waiting (more: 503)."""

logger = logging.getLogger("mtgdice.web")


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["plain_lines"] = plain_lines  # plain dice read on a page as the command line prints them
    env.globals["grouped"] = grouped
    return env


def grouped(options: Sequence[str]) -> list[tuple[str, int, int]]:
    """Identical options shown once: ``(label, index of the first, how many)``, in order.

    >>> grouped(["9 (d20)", "9 (d20)", "3 (d20)"])
    [('9 (d20)', 0, 2), ('3 (d20)', 2, 1)]
    """
    seen: dict[str, list[int]] = {}
    for index, option in enumerate(options):
        seen.setdefault(option, [index, 0])[1] += 1
    return [(label, first, count) for label, (first, count) in seen.items()]


MAX_COUNTERS = 999
"""Counters of one kind on one card a page may set."""
MAX_COUNTER_KINDS = 12
"""Kinds of counters on one card."""
_COUNTER = re.compile(r"^[+-]?\d{1,2}/[+-]?\d{1,2}$|^[a-z][a-z -]{0,29}$")
_LEVEL_LINE = re.compile(r"^\s*(?:\{[^}]*\}\s*)+:\s*level\s+(\d{1,2})\s*$", re.IGNORECASE | re.MULTILINE)


def counter_kind(text: str) -> str:
    """A counter's kind as a card names it: ``+1/+1``, ``-1/-1``, ``charge``, ``lore`` (lower case).

    >>> counter_kind(" Lore "), counter_kind("+1/+1")
    ('lore', '+1/+1')
    """
    kind = " ".join(text.split()).lower()
    if not _COUNTER.match(kind):
        raise InputError("counter", f"{text[:40]!r} is not a counter kind; write one such as +1/+1, charge or lore")
    return kind


def class_levels(text: str, type_line: str = "") -> int | None:
    r"""The highest level of a Class (CR 716: its level abilities are written "COST: Level N"), or
    None when the card is no Class.

    >>> class_levels("Static.\n{1}{R}: Level 2\nMore.\n{2}{R}: Level 3"), class_levels("Roll a d6.")
    (3, None)
    """
    levels = [int(found) for found in _LEVEL_LINE.findall(text)]
    if levels:
        return max(levels)
    return 1 if "Class" in type_line.split() else None


class Pages:
    """Template rendering for one app."""

    def __init__(self) -> None:
        self.env = _environment()

    def render(self, name: str, **context: Any) -> Markup:
        """Render a template; the result is markup (already escaped) for other templates."""
        return Markup(self.env.get_template(name).render(**context))


RETRY_AFTER_S = 1
"""What a 503 asks a client to wait (``Retry-After``): the database or the workers are busy or away."""


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


def _one_line(error: Exception) -> str:
    text = str(error).strip().splitlines()
    return text[0][:500] if text else type(error).__name__


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
    """The ASGI app: routes behind the size and rate guard.

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
    pages = Pages()
    rendered: OrderedDict[int, Markup] = OrderedDict()
    exports = asyncio.Semaphore(EXPORTS)

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

    api = FastAPI(title="mtgdice rooms", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    api.state.rooms = rooms
    api.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    names: list[str] = sorted(cards.names()) if cards is not None and hasattr(cards, "names") else []

    # -- errors ----------------------------------------------------------------------------------

    def error_response(request: Request, status: int, message: str) -> Response:
        retry = {"Retry-After": str(RETRY_AFTER_S)} if status == 503 else {}
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": message}, status_code=status, headers=retry)
        body = pages.render("_error.html", message=message)
        headers = {"HX-Retarget": "#flash", "HX-Reswap": "innerHTML"} if request.headers.get("HX-Request") else {}
        return HTMLResponse(body, status_code=status, headers={**headers, **retry})

    @api.exception_handler(MtgDiceError)
    async def on_input(request: Request, error: MtgDiceError) -> Response:
        return error_response(request, _status_for(error), _one_line(error))

    @api.exception_handler(LookupError)
    async def on_lookup(request: Request, error: LookupError) -> Response:
        return error_response(request, _status_for(error), _one_line(error).strip("'\""))

    @api.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, error: StarletteHTTPException) -> Response:
        return error_response(request, error.status_code, str(error.detail))

    @api.exception_handler(Exception)
    async def on_crash(request: Request, error: Exception) -> Response:
        if log.unavailable(error):  # the database is away: nothing of this request was stored
            logger.warning("database unavailable on %s: %s", request.url.path, _one_line(error))
            return error_response(request, 503, "database: unavailable for now; nothing was stored, try again")
        logger.exception("unexpected error on %s", request.url.path)
        return error_response(request, 500, "internal error; the roll log is unchanged unless a roll id was returned")

    # -- helpers ---------------------------------------------------------------------------------

    async def form(request: Request) -> dict[str, list[str]]:
        raw = await request.body()
        try:
            return parse_qs(raw.decode("utf-8"), keep_blank_values=True, max_num_fields=200)
        except (UnicodeDecodeError, ValueError):
            raise InputError("form", "expected a URL-encoded form in UTF-8") from None

    def first(values: dict[str, list[str]], key: str, default: str = "") -> str:
        found = values.get(key)
        return found[0].strip() if found else default

    def integer(values: dict[str, list[str]], key: str, default: int | None = None) -> int:
        text = first(values, key)
        if not text and default is not None:
            return default
        try:
            return int(text)
        except ValueError:
            raise InputError(key, f"expected a whole number, got {text[:20]!r}") from None

    def page_player(request: Request, state: RoomState) -> str:
        player_id = state.player_for(request.cookies.get(COOKIE))
        if player_id is None:
            raise Forbidden("player", "join this room first (your player cookie is missing or not for this room)")
        return player_id

    def roll_html(finished: Finished) -> Markup:
        html = rendered.get(finished.id)
        if html is None:
            html = pages.render("_roll.html", roll=finished.roll, roll_id=finished.id, proof=finished.proof)
            rendered[finished.id] = html
            while len(rendered) > RENDERED:
                rendered.popitem(last=False)
        return html

    async def history(state: RoomState) -> list[tuple[int, Markup]]:
        """The room's latest rolls from the log, newest first (rebuilt from its faces when not rendered here)."""
        shown = []
        for logged in await rooms.recent(state):
            html = rendered.get(logged.id)
            if html is None:
                rebuilt = rooms.rebuild(logged)
                if rebuilt is None:
                    continue
                html = roll_html(rebuilt)
            shown.append((logged.id, html))
        return shown

    def table_html(state: RoomState) -> str:
        return pages.render("_table.html", game=state.game)

    def status_html(state: RoomState) -> str:
        return pages.render("_status.html", game=state.game, fair=state.fair, room=state)

    def message(kind: str, html: str, **extra: Any) -> str:
        return json.dumps({"kind": kind, "html": html, **extra})

    def render(state: RoomState, changes: Changes) -> list[str]:
        """A committed batch's messages for the room's sockets, rendered once for all of them."""
        messages = [message("roll", roll_html(finished), id=finished.id) for finished in changes.rolls]
        if changes.status:
            messages.append(message("status", status_html(state)))
        if changes.table:
            messages.append(message("table", table_html(state)))
        messages.extend(message("question", "", player=player) for player in sorted(changes.questions))
        return messages

    rooms.render = render

    async def catch_up(room_id: str) -> list[str]:
        """What a room's sockets need after a version they never got: the rolls and the state now."""
        state = await rooms.get(room_id, fresh=True)
        shown = await history(state)
        messages = [message("roll", html, id=roll_id) for roll_id, html in shown]
        messages.reverse()  # oldest first: each is put on top
        messages += [message("status", status_html(state)), message("table", table_html(state))]
        messages += [message("question", "", player=player) for player in state.game.players]
        return messages

    fanout.on_gap = catch_up

    def levels_of(card: Card) -> int | None:
        if card.text is not None:
            return class_levels(card.text)
        record = cards.lookup(card.name) if cards is not None else None
        return class_levels(getattr(record, "oracle_text", ""), getattr(record, "type_line", ""))

    def board_html(state: RoomState, player_id: str) -> Markup:
        listed = [
            (zone, card, compile_ref(card.ref(), "card", cards).rolls, levels_of(card))
            for zone, card in state.game.player(player_id).cards()
        ]
        return pages.render("_board.html", room=state, cards=listed)

    def question_html(state: RoomState, player_id: str) -> str:
        found = state.question_for(player_id)
        waiting = [(pending, state.game.players.get(pending.question.player)) for pending in state.waiting(player_id)]
        return pages.render(
            "_question.html",
            room=state,
            pending=found[1] if found else None,
            roller=state.game.players.get(found[0]) if found else None,
            asked=state.questions_for(player_id),
            waiting=[(pending, decider) for pending, decider in waiting if pending.question.player != player_id],
        )

    def after_roll(state: RoomState, player_id: str) -> HTMLResponse:
        body = question_html(state, player_id) + pages.render(
            "_oob.html", board=board_html(state, player_id), status=status_html(state)
        )
        return HTMLResponse(body)

    # -- JSON API --------------------------------------------------------------------------------

    async def json_body(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if not raw.strip():
            return {}
        return parse_request(raw, "body")

    def bearer(request: Request) -> str | None:
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        return token.strip() if scheme.lower() == "bearer" else None

    @api.post("/api/rooms")
    async def api_create(request: Request) -> JSONResponse:
        body = await json_body(request)
        if "client_seeds" in body:
            raise InputError(
                "client_seeds",
                "add client seeds once the room's commitment is published: POST /api/rooms/{id}/seeds "
                '{"client_seed": "..."} (a seed sent before would reach the server before it draws its own)',
            )
        if body:
            raise InputError(next(iter(body)), "creating a room takes no fields")
        state, token = await rooms.create()
        return JSONResponse({"id": state.id, "token": token, "commitment": state.fair.commitment}, status_code=201)

    @api.post("/api/rooms/{room_id}/seeds")
    async def api_seeds(room_id: str, request: Request) -> JSONResponse:
        state = await rooms.get(room_id)
        state.check_room_token(bearer(request))
        body = await json_body(request)
        if set(body) != {"client_seed"}:
            raise InputError("client_seed", 'expected {"client_seed": "..."} (1 to 64 printable ASCII characters)')
        seeds = await rooms.add_seed(state, body["client_seed"])
        return JSONResponse({"client_seeds": list(seeds), "commitment": state.fair.commitment})

    @api.post("/api/rooms/{room_id}/rolls")
    async def api_roll(room_id: str, request: Request) -> JSONResponse:
        meter = rooms.meter()  # the request's deadline counts from here
        state = await rooms.get(room_id)
        state.check_room_token(bearer(request))
        body = await json_body(request)
        finished = await rooms.api_roll(state, body, meter)
        return JSONResponse(
            {
                **outcome_json(finished.roll.outcome),
                "id": finished.id,
                "proof": finished.proof.to_json(),
                "chain": finished.chain,
            }
        )

    @api.post("/api/rooms/{room_id}/reveal")
    async def api_reveal(room_id: str, request: Request) -> JSONResponse:
        meter = rooms.meter()
        state = await rooms.get(room_id)
        state.check_room_token(bearer(request))
        revealed, _ = await rooms.reveal(state, meter)
        return JSONResponse(revealed)

    @api.get("/api/rooms/{room_id}/log")
    async def api_log(room_id: str) -> StreamingResponse:
        state = await rooms.get(room_id)
        if exports.locked():
            raise Busy("export", f"{EXPORTS} room logs are being exported; try again in a moment")
        await exports.acquire()
        pieces = iter(log.export_text(state.id))

        async def stream() -> AsyncIterator[str]:
            try:
                while (piece := await anyio.to_thread.run_sync(next, pieces, None)) is not None:
                    yield piece
            finally:
                exports.release()

        return StreamingResponse(stream(), media_type="application/json")

    @api.get("/health")
    async def health() -> JSONResponse:
        """The database and the broker answer (503 naming the one that does not); which worker answered."""
        report: dict[str, str] = {}
        for part in ("database", "broker"):
            try:
                with anyio.fail_after(5):
                    report[part] = await (
                        anyio.to_thread.run_sync(log.health) if part == "database" else events.health()
                    )
            except Exception as error:  # reported, not raised: this is what the endpoint is for
                report[part] = f"error: {_one_line(error) if str(error) else type(error).__name__}"
        healthy = all(value == "ok" for value in report.values())
        status = {"status": "ok" if healthy else "error", **report, "worker": os.getpid()}
        return JSONResponse(status, status_code=200 if healthy else 503)

    @api.websocket("/ws/rooms/{room_id}")
    async def socket(websocket: WebSocket, room_id: str) -> None:
        try:
            state = await rooms.get(room_id)
        except Exception as error:
            unavailable = log.unavailable(error)
            if not unavailable and not isinstance(error, (LookupError, MtgDiceError)):
                raise
            await websocket.close(code=1013 if unavailable else 4404)  # 1013: try again later
            return
        client = (websocket.client.host if websocket.client else "?")[:100]
        member = f"{os.getpid()}:{id(websocket)}"
        refused = await limits.admit(state.id, client, member)
        if refused is not None:
            logger.info("websocket to room %s refused: %s", state.id, refused)
            await websocket.close(code=1008, reason=refused[:120])
            return
        queue = fanout.join(state.id)
        try:
            # Subscribed, and the room's version read, before the socket opens: a client that rolls as
            # soon as it is connected hears of the roll.
            await events.subscribe(state.id)
            fanout.start(state.id, (await rooms.get(state.id, fresh=True)).version)
            await websocket.accept(headers=[(b"x-mtgdice-worker", str(os.getpid()).encode())])
        except BaseException:
            await limits.release(state.id, client, member)
            if fanout.leave(state.id, queue):
                await events.unsubscribe(state.id)
            raise

        async def pump() -> None:
            while True:
                text = await queue.get()
                if text is None:  # too far behind: dropped
                    await websocket.close(code=1013)
                    return
                await websocket.send_text(text)

        async def keep() -> None:
            while True:
                await asyncio.sleep(SOCKET_TTL_S / 3)
                await limits.keep(state.id, client, member)

        sender = asyncio.create_task(pump())
        keeper = asyncio.create_task(keep())
        try:
            while True:
                try:
                    received = await asyncio.wait_for(websocket.receive(), sockets.idle_s)
                except TimeoutError:  # the client sent nothing (pages ping every 30 s): idle, closed
                    await websocket.close(code=1001, reason="idle")
                    break
                if received["type"] == "websocket.disconnect":
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            sender.cancel()
            keeper.cancel()
            await limits.release(state.id, client, member)
            if fanout.leave(state.id, queue):
                await events.unsubscribe(state.id)

    # -- pages -----------------------------------------------------------------------------------

    @api.get("/", response_class=HTMLResponse)
    async def index() -> HTMLResponse:
        return HTMLResponse(pages.render("index.html"))

    @api.post("/rooms")
    async def page_create() -> RedirectResponse:
        state, _ = await rooms.create()
        return RedirectResponse(f"/r/{state.id}", status_code=303)

    @api.get("/r/{room_id}", response_class=HTMLResponse)
    async def room_page(room_id: str, request: Request) -> HTMLResponse:
        state = await rooms.get(room_id, fresh=True)
        player_id = state.player_for(request.cookies.get(COOKIE))
        if player_id is None:
            return HTMLResponse(pages.render("join.html", room=state))
        shown = [html for _, html in await history(state)]
        return HTMLResponse(
            pages.render(
                "room.html",
                room=state,
                game=state.game,
                me=state.game.player(player_id),
                board=board_html(state, player_id),
                status=status_html(state),
                table=table_html(state),
                question=question_html(state, player_id),
                history=shown,
                has_cards=bool(names),
            )
        )

    @api.post("/r/{room_id}/join")
    async def page_join(room_id: str, request: Request) -> Response:
        state = await rooms.get(room_id)
        values = await form(request)
        player_id, token = await rooms.join(state, first(values, "name"), first(values, "client_seed"))
        response = RedirectResponse(f"/r/{state.id}", status_code=303)
        response.set_cookie(COOKIE, token, path=f"/r/{state.id}", httponly=True, samesite="strict")
        return response

    @api.get("/r/{room_id}/search", response_class=HTMLResponse)
    async def page_search(room_id: str, request: Request, q: str = "") -> HTMLResponse:
        state = await rooms.get(room_id)
        page_player(request, state)
        query = " ".join(q.casefold().split())[:60]
        found = [name for name in names if query and query in name.casefold()][:SEARCH_LIMIT]
        return HTMLResponse(pages.render("_search.html", room=state, found=found, query=q[:60], has_cards=bool(names)))

    @api.post("/r/{room_id}/cards", response_class=HTMLResponse)
    async def page_add_card(room_id: str, request: Request) -> HTMLResponse:
        state = await rooms.get(room_id)
        player_id = page_player(request, state)
        values = await form(request)
        zone = first(values, "zone", "battlefield")
        if zone not in ("battlefield", "graveyard"):
            raise InputError("zone", "expected battlefield or graveyard")
        text = first(values, "text")
        name = first(values, "name")
        if not text:
            if not name:
                raise InputError("name", "search for a card and pick it, or give a text")
            if cards is None:
                raise InputError("cards", "this server has no card data; add a card by its text")
            name = cards.lookup(name).name
        else:  # compiled in a worker now, so that the board (and every roll) finds it compiled
            await work.run(compile_ref, CardRef(name or "Card", text), "text", cards, meter=rooms.meter())

        def add(table: Table) -> None:
            table.game.add_card(player_id, name or "Card", text=text or None, zone=zone)  # type: ignore[arg-type]
            table.touch(table=True)

        await rooms.act(state, add)
        return HTMLResponse(board_html(state, player_id))

    @api.post("/r/{room_id}/cards/{card_id}", response_class=HTMLResponse)
    async def page_change_card(room_id: str, card_id: int, request: Request) -> HTMLResponse:
        state = await rooms.get(room_id)
        player_id = page_player(request, state)
        values = await form(request)
        action = first(values, "action")
        if action not in ("remove", "tap", "level", "move", "counter"):
            raise InputError("action", "expected remove, tap, level, move or counter")
        level = integer(values, "level") if action == "level" else 1
        zone = first(values, "zone")
        if action == "move" and zone not in ("battlefield", "graveyard"):
            raise InputError("zone", "expected battlefield or graveyard")
        counter = counter_kind(first(values, "counter")) if action == "counter" else ""
        count = integer(values, "count") if action == "counter" else 0
        if not 0 <= count <= MAX_COUNTERS:
            raise InputError("count", f"{count} counters; a card holds 0 to {MAX_COUNTERS} of a kind (0 removes them)")
        if action == "level":
            levels = levels_of(state.game.find_card(player_id, card_id)[1])
            if levels is None:
                raise InputError("level", "only a Class has levels (CR 716)")
            if not 1 <= level <= levels:
                raise InputError("level", f"{level} is not a level of this Class: it has levels 1 to {levels}")

        def change(table: Table) -> None:
            game = table.game
            _, card = game.find_card(player_id, card_id)
            if action == "remove":
                game.remove_card(player_id, card_id)
            elif action == "tap":
                game.update_card(player_id, card_id, tapped=not card.tapped)
            elif action == "level":
                game.update_card(player_id, card_id, level=level)
            elif action == "counter":
                kinds = dict(card.counters)
                if count:
                    if counter not in kinds and len(kinds) >= MAX_COUNTER_KINDS:
                        raise InputError("counter", f"a card here holds up to {MAX_COUNTER_KINDS} kinds of counters")
                    kinds[counter] = count
                else:
                    kinds.pop(counter, None)
                game.update_card(player_id, card_id, counters=tuple(kinds.items()))
            else:
                game.update_card(player_id, card_id, zone=zone)
            table.touch(table=True)

        await rooms.act(state, change)
        return HTMLResponse(board_html(state, player_id))

    @api.post("/r/{room_id}/plane", response_class=HTMLResponse)
    async def page_plane(room_id: str, request: Request) -> HTMLResponse:
        state = await rooms.get(room_id)
        player_id = page_player(request, state)
        values = await form(request)
        name, text = first(values, "name"), first(values, "text")
        if text:  # a plane given by its text, compiled in a worker now (every roll then finds it compiled)
            name = name or "Plane"
            await work.run(compile_ref, CardRef(name, text), "text", cards, meter=rooms.meter())
        elif name and cards is None:
            raise InputError("cards", "this server has no card data to find the plane in; give its text")
        elif name and cards is not None:
            name = cards.lookup(name).name

        def set_plane(table: Table) -> None:
            table.game.set_plane(name or None, text or None)
            table.touch(status=True, table=True)

        await rooms.act(state, set_plane)
        return HTMLResponse(board_html(state, player_id))

    @api.post("/r/{room_id}/seed", response_class=HTMLResponse)
    async def page_seed(room_id: str, request: Request) -> HTMLResponse:
        state = await rooms.get(room_id)
        player_id = page_player(request, state)
        values = await form(request)
        await rooms.add_seed(state, first(values, "client_seed"), player_id)
        return HTMLResponse(status_html(state))

    @api.post("/r/{room_id}/turn", response_class=HTMLResponse)
    async def page_turn(room_id: str, request: Request) -> HTMLResponse:
        state = await rooms.get(room_id)
        player_id = page_player(request, state)

        def next_turn(table: Table) -> None:
            if table.game.active != player_id:
                raise Conflict("turn", "only the active player ends the turn")
            table.game.next_turn()
            table.touch(status=True)

        await rooms.act(state, next_turn)
        return HTMLResponse(status_html(state))

    def spec_from(values: dict[str, list[str]]) -> RollSpec:
        kind = first(values, "kind")
        if kind == "card":
            amounts = {
                key.removeprefix("amount:")[:80]: integer(values, key)
                for key in values
                if key.startswith("amount:") and first(values, key)
            }
            return RollSpec(
                "card", card_id=integer(values, "card_id"), roll=integer(values, "roll", 0), amounts=amounts
            )
        if kind == "dice":
            return RollSpec.plain(first(values, "dice"))
        if kind == "planar":
            cause = first(values, "cause", "action")
            if cause not in ("action", "effect"):
                raise InputError("cause", "expected action or effect")
            return RollSpec("planar", cause=cause)  # type: ignore[arg-type]
        if kind == "coin":
            return RollSpec("coin")
        raise InputError("kind", "expected card, dice, planar or coin")

    @api.post("/r/{room_id}/roll", response_class=HTMLResponse)
    async def page_roll(room_id: str, request: Request) -> HTMLResponse:
        meter = rooms.meter()
        state = await rooms.get(room_id)
        player_id = page_player(request, state)
        await rooms.roll(state, player_id, spec_from(await form(request)), meter)
        return after_roll(state, player_id)

    @api.post("/r/{room_id}/answer", response_class=HTMLResponse)
    async def page_answer(room_id: str, request: Request) -> HTMLResponse:
        meter = rooms.meter()
        state = await rooms.get(room_id)
        player_id = page_player(request, state)
        values = await form(request)
        roller = first(values, "roller")
        key = (roller[:40], integer(values, "nonce")) if roller else None
        await rooms.answer(state, player_id, values.get("answer", []), meter, key)
        return after_roll(state, player_id)

    @api.get("/r/{room_id}/question", response_class=HTMLResponse)
    async def page_question(room_id: str, request: Request) -> HTMLResponse:
        state = await rooms.get(room_id, fresh=True)
        return HTMLResponse(question_html(state, page_player(request, state)))

    @api.get("/r/{room_id}/odds", response_class=HTMLResponse)
    async def page_odds(room_id: str, request: Request, card_id: int, roll: int = 0) -> HTMLResponse:
        meter = rooms.meter()
        state = await rooms.get(room_id, fresh=True)
        player_id = page_player(request, state)
        _, card = state.game.find_card(player_id, card_id)
        # A committed game is never changed in place (a batch builds its own), so a worker may read it.
        spec = RollSpec("card", card_id=card_id, roll=roll)
        view = await odds_work.run(row_odds, state.game, player_id, spec, cards, meter, meter=meter)
        return HTMLResponse(pages.render("_odds.html", view=view, card=card, roll=roll))

    @api.post("/r/{room_id}/reveal", response_class=HTMLResponse)
    async def page_reveal(room_id: str, request: Request) -> HTMLResponse:
        meter = rooms.meter()
        state = await rooms.get(room_id)
        page_player(request, state)
        revealed, _ = await rooms.reveal(state, meter)
        return HTMLResponse(pages.render("_revealed.html", revealed=revealed, room=state))

    return Guard(api, max_body=max_body, rate=rate, burst=burst, limits=limits)


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
