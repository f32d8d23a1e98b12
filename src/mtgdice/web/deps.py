"""The one object every route of the web app reads: the app's parts and the renderings they share.

:class:`Deps` is built once by :func:`mtgdice.web.app.create_app` and kept as ``app.state.deps``;
a route gets it with :func:`deps`. It holds the roll log, the card data, the rooms, the worker
pools, the event broker and fan-out, the limits, the templates and the rendered rolls, and renders
what pages and sockets show (a roll, the table, the status, a player's board and question) once
for everyone. What it leaves out: the routes (``api``, ``pages``, ``sockets``).
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from fastapi import Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, Response
from markupsafe import Markup

from mtgdice.game.request import CardSource
from mtgdice.log import SqlLog
from mtgdice.rules import Permanent
from mtgdice.web.fanout import Broker, Fanout
from mtgdice.web.limits import Limits, SocketCaps
from mtgdice.web.rooms import Changes, Finished, Rooms, RoomState
from mtgdice.web.table_view import card_controls, flip_view, memory_view, outcome_texts, waiting_views
from mtgdice.web.views import Pages, class_levels
from mtgdice.web.work import WorkPool

RENDERED = 4000
"""Rendered rolls kept per process (a page that opens shows the latest from the log)."""
EXPORTS = 2
"""Room log exports one process streams at once (more wait a moment: 503)."""
RETRY_AFTER_S = 1
"""What a 503 asks a client to wait (``Retry-After``): the database or the workers are busy or away."""


@dataclass(slots=True)
class Deps:
    """The parts of one app, and what they render for pages and sockets."""

    log: SqlLog
    cards: CardSource | None
    rooms: Rooms
    work: WorkPool
    odds_work: WorkPool
    events: Broker
    fanout: Fanout
    limits: Limits
    sockets: SocketCaps
    pages: Pages = field(default_factory=Pages)
    rendered: OrderedDict[int, Markup] = field(default_factory=OrderedDict)
    exports: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(EXPORTS))
    names: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        cards = self.cards
        self.names = sorted(cards.names()) if cards is not None and hasattr(cards, "names") else []
        self.rooms.render = self.render
        self.fanout.on_gap = self.catch_up

    # -- errors ------------------------------------------------------------------------------------

    def error_response(self, request: Request, status: int, message: str) -> Response:
        """One line: ``{"error": ...}`` for the API, an HTML fragment for pages; a 503 says when to retry."""
        retry = {"Retry-After": str(RETRY_AFTER_S)} if status == 503 else {}
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": message}, status_code=status, headers=retry)
        body = self.pages.render("_error.html", message=message)
        headers = {"HX-Retarget": "#flash", "HX-Reswap": "innerHTML"} if request.headers.get("HX-Request") else {}
        return HTMLResponse(body, status_code=status, headers={**headers, **retry})

    # -- rolls -------------------------------------------------------------------------------------

    def roll_html(self, finished: Finished) -> Markup:
        html = self.rendered.get(finished.id)
        if html is None:
            html = self.pages.render(
                "_roll.html",
                roll=finished.roll,
                roll_id=finished.id,
                proof=finished.proof,
                flips=flip_view(finished.roll, self.cards),
                outcomes=outcome_texts(finished.roll),
            )
            self.rendered[finished.id] = html
            while len(self.rendered) > RENDERED:
                self.rendered.popitem(last=False)
        return html

    async def history(self, state: RoomState) -> list[tuple[int, Markup]]:
        """The room's latest rolls from the log, newest first (rebuilt from its faces when not rendered here)."""
        shown = []
        for logged in await self.rooms.recent(state):
            html = self.rendered.get(logged.id)
            if html is None:
                rebuilt = self.rooms.rebuild(logged)
                if rebuilt is None:
                    continue
                html = self.roll_html(rebuilt)
            shown.append((logged.id, html))
        return shown

    # -- the room's panels -------------------------------------------------------------------------

    def table_html(self, state: RoomState) -> str:
        return self.pages.render("_table.html", game=state.game)

    def status_html(self, state: RoomState) -> str:
        return self.pages.render(
            "_status.html",
            game=state.game,
            fair=state.fair,
            room=state,
            waiting=waiting_views(state.game),
            memory=memory_view(state.game),
        )

    def levels_of(self, card: Permanent) -> int | None:
        """A card's Class levels (None: no Class), from its text or the card data."""
        if card.text is not None:
            return class_levels(card.text)
        record = self.cards.lookup(card.name) if self.cards is not None else None
        return class_levels(getattr(record, "oracle_text", ""), getattr(record, "type_line", ""))

    def board_html(self, state: RoomState, player_id: str) -> Markup:
        listed = [
            card_controls(card, zone, self.cards, self.levels_of(card))
            for zone, card in state.game.player(player_id).cards()
        ]
        return self.pages.render("_board.html", room=state, cards=listed, game=state.game, me=player_id)

    def question_html(self, state: RoomState, player_id: str) -> str:
        found = state.question_for(player_id)
        waiting = [(pending, state.game.players.get(pending.question.player)) for pending in state.waiting(player_id)]
        return self.pages.render(
            "_question.html",
            room=state,
            pending=found[1] if found else None,
            roller=state.game.players.get(found[0]) if found else None,
            asked=state.questions_for(player_id),
            waiting=[(pending, decider) for pending, decider in waiting if pending.question.player != player_id],
        )

    def after_roll(self, state: RoomState, player_id: str) -> HTMLResponse:
        body = self.question_html(state, player_id) + self.pages.render(
            "_oob.html", board=self.board_html(state, player_id), status=self.status_html(state)
        )
        return HTMLResponse(body)

    # -- sockets -----------------------------------------------------------------------------------

    @staticmethod
    def message(kind: str, html: str, **extra: Any) -> str:
        return json.dumps({"kind": kind, "html": html, **extra})

    def render(self, state: RoomState, changes: Changes) -> list[str]:
        """A committed batch's messages for the room's sockets, rendered once for all of them."""
        message = self.message
        messages = [message("roll", self.roll_html(finished), id=finished.id) for finished in changes.rolls]
        if changes.status:
            messages.append(message("status", self.status_html(state)))
        if changes.table:
            messages.append(message("table", self.table_html(state)))
        messages.extend(message("question", "", player=player) for player in sorted(changes.questions))
        return messages

    async def catch_up(self, room_id: str) -> tuple[int, list[str]]:
        """What a room's sockets need after a version they did not get: the room's version read, and
        the rolls (as of that version at least) and the state then."""
        message = self.message
        state = await self.rooms.get(room_id, fresh=True)
        version = state.version
        shown = await self.history(state)
        messages = [message("roll", html, id=roll_id) for roll_id, html in shown]
        messages.reverse()  # oldest first: each is put on top
        messages += [message("status", self.status_html(state)), message("table", self.table_html(state))]
        messages += [message("question", "", player=player) for player in state.game.players]
        return version, messages


def deps(connection: Request | WebSocket) -> Deps:
    """The app's :class:`Deps`, for a route."""
    found: Deps = connection.app.state.deps
    return found
