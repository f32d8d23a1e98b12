"""The web app: shared dice rooms as server-rendered pages (htmx) and a JSON API, one websocket per room.

Routes, thin: parse the request, call :class:`~mtgdice.web.rooms.Rooms` (which calls the game,
the fair dice and the log), render a template. Pages are for people (a per-player token in a
cookie authorises their actions); the JSON API is for programs (the room token, ``Authorization:
Bearer``). Every error is one line: ``{"error": "..."}`` for the API, a one-line HTML fragment for
pages. Untrusted text (player names, card names and texts) only reaches a page through Jinja's
autoescaping; the page script inserts server-rendered fragments, never text it built itself.

What this module leaves out: rules (``mtgdice.rules`` via ``mtgdice.game``), fairness
(``mtgdice.fair``), storage (``mtgdice.log``) and the limits in front of it (``guard``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import jinja2
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from markupsafe import Markup
from starlette.exceptions import HTTPException as StarletteHTTPException

from mtgdice.errors import InputError, MtgDiceError
from mtgdice.game import RollSpec
from mtgdice.game.odds import row_odds
from mtgdice.jsonio import outcome_json, parse_request
from mtgdice.log import RollLog
from mtgdice.request import CardSource, compile_ref
from mtgdice.web.guard import MAX_BODY, Guard
from mtgdice.web.rooms import Conflict, Finished, Forbidden, PendingRoll, Rooms, RoomState

HERE = Path(__file__).parent
COOKIE = "mtgdice_player"
SEARCH_LIMIT = 20

logger = logging.getLogger("mtgdice.web")


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return env


class Pages:
    """Template rendering for one app."""

    def __init__(self) -> None:
        self.env = _environment()

    def render(self, name: str, **context: Any) -> Markup:
        """Render a template; the result is markup (already escaped) for other templates."""
        return Markup(self.env.get_template(name).render(**context))


def _status_for(error: Exception) -> int:
    if isinstance(error, Forbidden):
        return 401
    if isinstance(error, Conflict):
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
) -> Guard:
    """The ASGI app: routes behind the size and rate guard.

    >>> import tempfile, pathlib
    >>> app = create_app(pathlib.Path(tempfile.mkdtemp()) / "rolls.sqlite")
    >>> type(app).__name__
    'Guard'
    """
    log = RollLog(db)
    rooms = Rooms(log, cards)
    pages = Pages()
    api = FastAPI(title="mtgdice rooms", docs_url=None, redoc_url=None, openapi_url=None)
    api.state.rooms = rooms
    api.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    names: list[str] = sorted(cards.names()) if cards is not None and hasattr(cards, "names") else []

    # -- errors ----------------------------------------------------------------------------------

    def error_response(request: Request, status: int, message: str) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": message}, status_code=status)
        body = pages.render("_error.html", message=message)
        headers = {"HX-Retarget": "#flash", "HX-Reswap": "innerHTML"} if request.headers.get("HX-Request") else {}
        return HTMLResponse(body, status_code=status, headers=headers)

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
        return pages.render("_roll.html", roll=finished.roll, roll_id=finished.id, proof=finished.proof)

    def table_html(state: RoomState) -> str:
        return pages.render("_table.html", game=state.game)

    def status_html(state: RoomState) -> str:
        return pages.render("_status.html", game=state.game, fair=state.fair, room=state)

    def push(state: RoomState, kind: str, html: str, **extra: Any) -> None:
        rooms.broadcast(state, json.dumps({"kind": kind, "html": html, **extra}))

    def push_roll(state: RoomState, finished: Finished) -> None:
        state.feed.appendleft(finished)
        if state.sockets:  # rendered once, sent to every socket of the room
            push(state, "roll", roll_html(finished), id=finished.id)

    def push_finished(state: RoomState, finished: Finished) -> None:
        push_roll(state, finished)
        push(state, "status", status_html(state))
        push(state, "table", table_html(state))

    def board_html(state: RoomState, player_id: str) -> Markup:
        listed = [
            (zone, card, compile_ref(card.ref(), "card", cards).rolls)
            for zone, card in state.game.player(player_id).cards()
        ]
        return pages.render("_board.html", room=state, cards=listed)

    def question_html(state: RoomState, player_id: str) -> str:
        found = state.question_for(player_id)
        waiting = state.pending.get(player_id) if found is None else None
        return pages.render(
            "_question.html",
            room=state,
            pending=found[1] if found else None,
            roller=state.game.players[found[0]] if found else None,
            waiting=waiting,
            decider=state.game.players[waiting.question.player] if waiting else None,
        )

    def after_roll(state: RoomState, player_id: str, outcome: Finished | PendingRoll, roller: str) -> HTMLResponse:
        if isinstance(outcome, Finished):
            push_finished(state, outcome)
        elif outcome.question.player != player_id:
            push(state, "question", "", player=outcome.question.player)
        body = question_html(state, player_id) + pages.render(
            "_oob.html", board=board_html(state, player_id), status=status_html(state)
        )
        if isinstance(outcome, Finished) and roller != player_id:
            push(state, "question", "", player=roller)
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
        seeds = body.get("client_seeds", [])
        if not isinstance(seeds, list):
            raise InputError("client_seeds", "expected a list of strings")
        state = rooms.create(tuple(seeds))
        return JSONResponse(
            {"id": state.id, "token": state.token, "commitment": state.fair.commitment}, status_code=201
        )

    @api.post("/api/rooms/{room_id}/rolls")
    async def api_roll(room_id: str, request: Request) -> JSONResponse:
        state = rooms.get(room_id)
        state.check_room_token(bearer(request))
        body = await json_body(request)
        finished = await rooms.api_roll(state, body)
        push_roll(state, finished)
        return JSONResponse(
            {**outcome_json(finished.roll.outcome), "id": finished.id, "proof": finished.proof.to_json()}
        )

    @api.post("/api/rooms/{room_id}/reveal")
    async def api_reveal(room_id: str, request: Request) -> JSONResponse:
        state = rooms.get(room_id)
        state.check_room_token(bearer(request))
        revealed, finished = await rooms.reveal(state)
        for done in finished:
            push_finished(state, done)
        push(state, "status", status_html(state))
        return JSONResponse(revealed)

    @api.get("/api/rooms/{room_id}/log")
    async def api_log(room_id: str) -> JSONResponse:
        state = rooms.get(room_id)
        return JSONResponse(log.export_json(state.id))

    @api.websocket("/ws/rooms/{room_id}")
    async def socket(websocket: WebSocket, room_id: str) -> None:
        state = rooms.rooms.get(room_id)
        if state is None:
            await websocket.close(code=4404)
            return
        await websocket.accept()
        queue = rooms.subscribe(state)

        async def pump() -> None:
            while True:
                await websocket.send_text(await queue.get())

        sender = asyncio.create_task(pump())
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
        except WebSocketDisconnect:
            pass
        finally:
            sender.cancel()
            rooms.unsubscribe(state, queue)

    # -- pages -----------------------------------------------------------------------------------

    @api.get("/", response_class=HTMLResponse)
    async def index() -> HTMLResponse:
        return HTMLResponse(pages.render("index.html"))

    @api.post("/rooms")
    async def page_create() -> RedirectResponse:
        state = rooms.create()
        return RedirectResponse(f"/r/{state.id}", status_code=303)

    @api.get("/r/{room_id}", response_class=HTMLResponse)
    async def room_page(room_id: str, request: Request) -> HTMLResponse:
        state = rooms.get(room_id)
        player_id = state.player_for(request.cookies.get(COOKIE))
        if player_id is None:
            return HTMLResponse(pages.render("join.html", room=state))
        history = [roll_html(finished) for finished in state.feed]
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
                history=history,
                has_cards=bool(names),
            )
        )

    @api.post("/r/{room_id}/join")
    async def page_join(room_id: str, request: Request) -> Response:
        state = rooms.get(room_id)
        values = await form(request)
        player_id, token = await rooms.join(state, first(values, "name"), first(values, "client_seed"))
        push(state, "table", table_html(state))
        push(state, "status", status_html(state))
        response = RedirectResponse(f"/r/{state.id}", status_code=303)
        response.set_cookie(COOKIE, token, path=f"/r/{state.id}", httponly=True, samesite="strict")
        return response

    @api.get("/r/{room_id}/search", response_class=HTMLResponse)
    async def page_search(room_id: str, request: Request, q: str = "") -> HTMLResponse:
        state = rooms.get(room_id)
        page_player(request, state)
        query = " ".join(q.casefold().split())[:60]
        found = [name for name in names if query and query in name.casefold()][:SEARCH_LIMIT]
        return HTMLResponse(pages.render("_search.html", room=state, found=found, query=q[:60], has_cards=bool(names)))

    @api.post("/r/{room_id}/cards", response_class=HTMLResponse)
    async def page_add_card(room_id: str, request: Request) -> HTMLResponse:
        state = rooms.get(room_id)
        player_id = page_player(request, state)
        values = await form(request)
        zone = first(values, "zone", "battlefield")
        if zone not in ("battlefield", "graveyard"):
            raise InputError("zone", "expected battlefield or graveyard")
        text = first(values, "text")
        name = first(values, "name")
        async with state.lock:
            if text:
                state.game.add_card(player_id, name or "Card", text=text, zone=zone)  # type: ignore[arg-type]
            else:
                if not name:
                    raise InputError("name", "search for a card and pick it, or give a text")
                if cards is None:
                    raise InputError("cards", "this server has no card data; add a card by its text")
                record = cards.lookup(name)
                state.game.add_card(player_id, record.name, zone=zone)  # type: ignore[arg-type]
        push(state, "table", table_html(state))
        return HTMLResponse(board_html(state, player_id))

    @api.post("/r/{room_id}/cards/{card_id}", response_class=HTMLResponse)
    async def page_change_card(room_id: str, card_id: int, request: Request) -> HTMLResponse:
        state = rooms.get(room_id)
        player_id = page_player(request, state)
        values = await form(request)
        action = first(values, "action")
        async with state.lock:
            _, card = state.game.find_card(player_id, card_id)
            if action == "remove":
                state.game.remove_card(player_id, card_id)
            elif action == "tap":
                state.game.update_card(player_id, card_id, tapped=not card.tapped)
            elif action == "level":
                state.game.update_card(player_id, card_id, level=max(1, min(integer(values, "level"), 9)))
            elif action == "move":
                zone = first(values, "zone")
                if zone not in ("battlefield", "graveyard"):
                    raise InputError("zone", "expected battlefield or graveyard")
                state.game.update_card(player_id, card_id, zone=zone)
            else:
                raise InputError("action", "expected remove, tap, level or move")
        push(state, "table", table_html(state))
        return HTMLResponse(board_html(state, player_id))

    @api.post("/r/{room_id}/plane", response_class=HTMLResponse)
    async def page_plane(room_id: str, request: Request) -> HTMLResponse:
        state = rooms.get(room_id)
        player_id = page_player(request, state)
        values = await form(request)
        name = first(values, "name")
        async with state.lock:
            if not name:
                state.game.set_plane(None)
            elif cards is None:
                raise InputError("cards", "this server has no card data to find the plane in")
            else:
                state.game.set_plane(cards.lookup(name).name)
        push(state, "status", status_html(state))
        return HTMLResponse(board_html(state, player_id))

    @api.post("/r/{room_id}/turn", response_class=HTMLResponse)
    async def page_turn(room_id: str, request: Request) -> HTMLResponse:
        state = rooms.get(room_id)
        player_id = page_player(request, state)
        async with state.lock:
            if state.game.active != player_id:
                raise Conflict("turn", "only the active player ends the turn")
            state.game.next_turn()
        push(state, "status", status_html(state))
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
        state = rooms.get(room_id)
        player_id = page_player(request, state)
        outcome = await rooms.roll(state, player_id, spec_from(await form(request)))
        return after_roll(state, player_id, outcome, player_id)

    @api.post("/r/{room_id}/answer", response_class=HTMLResponse)
    async def page_answer(room_id: str, request: Request) -> HTMLResponse:
        state = rooms.get(room_id)
        player_id = page_player(request, state)
        values = await form(request)
        roller, outcome = await rooms.answer(state, player_id, values.get("answer", []))
        return after_roll(state, player_id, outcome, roller)

    @api.get("/r/{room_id}/question", response_class=HTMLResponse)
    async def page_question(room_id: str, request: Request) -> HTMLResponse:
        state = rooms.get(room_id)
        return HTMLResponse(question_html(state, page_player(request, state)))

    @api.get("/r/{room_id}/odds", response_class=HTMLResponse)
    async def page_odds(room_id: str, request: Request, card_id: int, roll: int = 0) -> HTMLResponse:
        state = rooms.get(room_id)
        player_id = page_player(request, state)
        view = row_odds(state.game, player_id, RollSpec("card", card_id=card_id, roll=roll), cards)
        _, card = state.game.find_card(player_id, card_id)
        return HTMLResponse(pages.render("_odds.html", view=view, card=card, roll=roll))

    @api.post("/r/{room_id}/reveal", response_class=HTMLResponse)
    async def page_reveal(room_id: str, request: Request) -> HTMLResponse:
        state = rooms.get(room_id)
        page_player(request, state)
        revealed, finished = await rooms.reveal(state)
        for done in finished:
            push_finished(state, done)
        push(state, "status", status_html(state))
        return HTMLResponse(pages.render("_revealed.html", revealed=revealed, room=state))

    return Guard(api, max_body=max_body, rate=rate, burst=burst)
