"""The pages players use: a room (join, board, rolls, questions, odds, the plane, the turn, reveals).

Server-rendered with htmx (:class:`~mtgdice.web.views.Pages`); a per-player token in a cookie
authorises a player's actions. Each route reads its form, asks the rooms through
:class:`~mtgdice.web.deps.Deps` and returns a fragment; the other players' pages hear of the change
on the room's socket.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from mtgdice.errors import InputError
from mtgdice.game import RollSpec
from mtgdice.game.odds import row_odds
from mtgdice.game.request import compile_card
from mtgdice.web.deps import deps
from mtgdice.web.rooms import Conflict, Table
from mtgdice.web.table_view import card_controls
from mtgdice.web.views import (
    COOKIE,
    MAX_COUNTER_KINDS,
    MAX_COUNTERS,
    counter_kind,
    first,
    form,
    integer,
    page_player,
    spec_from,
)

router = APIRouter()
SEARCH_LIMIT = 20


@router.get("/", response_class=HTMLResponse)
async def index(request: Request) -> HTMLResponse:
    d = deps(request)
    return HTMLResponse(d.pages.render("index.html"))


@router.post("/rooms")
async def page_create(request: Request) -> RedirectResponse:
    d = deps(request)
    state, _ = await d.rooms.create()
    return RedirectResponse(f"/r/{state.id}", status_code=303)


@router.get("/r/{room_id}", response_class=HTMLResponse)
async def room_page(room_id: str, request: Request) -> HTMLResponse:
    d = deps(request)
    state = await d.rooms.get(room_id, fresh=True)
    player_id = state.player_for(request.cookies.get(COOKIE))
    if player_id is None:
        return HTMLResponse(d.pages.render("join.html", room=state))
    shown = [html for _, html in await d.history(state)]
    return HTMLResponse(
        d.pages.render(
            "room.html",
            room=state,
            game=state.game,
            me=state.game.player(player_id),
            board=d.board_html(state, player_id),
            status=d.status_html(state),
            table=d.table_html(state),
            question=d.question_html(state, player_id),
            history=shown,
            has_cards=bool(d.names),
        )
    )


@router.post("/r/{room_id}/join")
async def page_join(room_id: str, request: Request) -> Response:
    d = deps(request)
    state = await d.rooms.get(room_id)
    values = await form(request)
    player_id, token = await d.rooms.join(state, first(values, "name"), first(values, "client_seed"))
    response = RedirectResponse(f"/r/{state.id}", status_code=303)
    response.set_cookie(COOKIE, token, path=f"/r/{state.id}", httponly=True, samesite="strict")
    return response


@router.get("/r/{room_id}/search", response_class=HTMLResponse)
async def page_search(room_id: str, request: Request, q: str = "") -> HTMLResponse:
    d = deps(request)
    state = await d.rooms.get(room_id)
    page_player(request, state)
    query = " ".join(q.casefold().split())[:60]
    found = [name for name in d.names if query and query in name.casefold()][:SEARCH_LIMIT]
    return HTMLResponse(d.pages.render("_search.html", room=state, found=found, query=q[:60], has_cards=bool(d.names)))


@router.post("/r/{room_id}/cards", response_class=HTMLResponse)
async def page_add_card(room_id: str, request: Request) -> HTMLResponse:
    d = deps(request)
    state = await d.rooms.get(room_id)
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
        if d.cards is None:
            raise InputError("cards", "this server has no card data; add a card by its text")
        name = d.cards.lookup(name).name
    else:  # compiled in a worker now, so that the board (and every roll) finds it compiled
        await d.work.run(compile_card, name or "Card", text, "text", d.cards, meter=d.rooms.meter())

    def add(table: Table) -> None:
        table.game.add_card(player_id, name or "Card", text=text or None, zone=zone)  # type: ignore[arg-type]
        table.touch(table=True)

    await d.rooms.act(state, add)
    return HTMLResponse(d.board_html(state, player_id))


@router.post("/r/{room_id}/cards/{card_id}", response_class=HTMLResponse)
async def page_change_card(room_id: str, card_id: int, request: Request) -> HTMLResponse:
    d = deps(request)
    state = await d.rooms.get(room_id)
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
        levels = d.levels_of(state.game.find_card(player_id, card_id)[1])
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
            kinds = dict(card.counters or ())
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

    await d.rooms.act(state, change)
    return HTMLResponse(d.board_html(state, player_id))


@router.post("/r/{room_id}/cards/{card_id}/activate", response_class=HTMLResponse)
async def page_activate(room_id: str, card_id: int, request: Request) -> HTMLResponse:
    """Activate a card's "the next time target player would roll ..." ability: its replacement
    waits (shown in the status panel, for every player) until the first roll it applies to."""
    d = deps(request)
    state = await d.rooms.get(room_id)
    player_id = page_player(request, state)
    values = await form(request)
    target = first(values, "target")[:40] or None
    zone, card = state.game.find_card(player_id, card_id)
    if not card_controls(card, zone, d.cards, None).activates:
        raise InputError(
            "card_id", f"{card.name} has no activated replacement that waits for a roll on the battlefield"
        )

    def activate(table: Table) -> None:
        game = table.game
        if target is None:
            raise InputError("target", "pick the player whose next roll it replaces")
        game.activate(player_id, card_id, target)
        table.touch(status=True, table=True)

    await d.rooms.act(state, activate)
    return HTMLResponse(d.board_html(state, player_id))


@router.post("/r/{room_id}/plane", response_class=HTMLResponse)
async def page_plane(room_id: str, request: Request) -> HTMLResponse:
    d = deps(request)
    state = await d.rooms.get(room_id)
    player_id = page_player(request, state)
    values = await form(request)
    name, text = first(values, "name"), first(values, "text")
    if text:  # a plane given by its text, compiled in a worker now (every roll then finds it compiled)
        name = name or "Plane"
        await d.work.run(compile_card, name, text, "text", d.cards, meter=d.rooms.meter())
    elif name and d.cards is None:
        raise InputError("cards", "this server has no card data to find the plane in; give its text")
    elif name and d.cards is not None:
        name = d.cards.lookup(name).name

    def set_plane(table: Table) -> None:
        table.game.set_plane(name or None, text or None)
        table.touch(status=True, table=True)

    await d.rooms.act(state, set_plane)
    return HTMLResponse(d.board_html(state, player_id))


@router.post("/r/{room_id}/seed", response_class=HTMLResponse)
async def page_seed(room_id: str, request: Request) -> HTMLResponse:
    d = deps(request)
    state = await d.rooms.get(room_id)
    player_id = page_player(request, state)
    values = await form(request)
    await d.rooms.add_seed(state, first(values, "client_seed"), player_id)
    return HTMLResponse(d.status_html(state))


@router.post("/r/{room_id}/turn", response_class=HTMLResponse)
async def page_turn(room_id: str, request: Request) -> HTMLResponse:
    d = deps(request)
    state = await d.rooms.get(room_id)
    player_id = page_player(request, state)

    def next_turn(table: Table) -> None:
        if table.game.active != player_id:
            raise Conflict("turn", "only the active player ends the turn")
        table.game.next_turn()
        table.touch(status=True)

    await d.rooms.act(state, next_turn)
    return HTMLResponse(d.status_html(state))


@router.post("/r/{room_id}/roll", response_class=HTMLResponse)
async def page_roll(room_id: str, request: Request) -> HTMLResponse:
    d = deps(request)
    meter = d.rooms.meter()
    state = await d.rooms.get(room_id)
    player_id = page_player(request, state)
    await d.rooms.roll(state, player_id, spec_from(await form(request)), meter)
    return d.after_roll(state, player_id)


@router.post("/r/{room_id}/answer", response_class=HTMLResponse)
async def page_answer(room_id: str, request: Request) -> HTMLResponse:
    d = deps(request)
    meter = d.rooms.meter()
    state = await d.rooms.get(room_id)
    player_id = page_player(request, state)
    values = await form(request)
    roller = first(values, "roller")
    key = (roller[:40], integer(values, "nonce")) if roller else None
    await d.rooms.answer(state, player_id, values.get("answer", []), meter, key)
    return d.after_roll(state, player_id)


@router.get("/r/{room_id}/question", response_class=HTMLResponse)
async def page_question(room_id: str, request: Request) -> HTMLResponse:
    d = deps(request)
    state = await d.rooms.get(room_id, fresh=True)
    return HTMLResponse(d.question_html(state, page_player(request, state)))


@router.get("/r/{room_id}/odds", response_class=HTMLResponse)
async def page_odds(room_id: str, request: Request, card_id: int, roll: int = 0) -> HTMLResponse:
    d = deps(request)
    meter = d.rooms.meter()
    state = await d.rooms.get(room_id, fresh=True)
    player_id = page_player(request, state)
    _, card = state.game.find_card(player_id, card_id)
    # A committed game is never changed in place (a batch builds its own), so a worker may read it.
    spec = RollSpec("card", card_id=card_id, roll=roll)
    view = await d.odds_work.run(row_odds, state.game, player_id, spec, d.cards, meter, meter=meter)
    return HTMLResponse(d.pages.render("_odds.html", view=view, card=card, roll=roll))


@router.post("/r/{room_id}/reveal", response_class=HTMLResponse)
async def page_reveal(room_id: str, request: Request) -> HTMLResponse:
    d = deps(request)
    meter = d.rooms.meter()
    state = await d.rooms.get(room_id)
    page_player(request, state)
    revealed, _ = await d.rooms.reveal(state, meter)
    return HTMLResponse(d.pages.render("_revealed.html", revealed=revealed, room=state))
