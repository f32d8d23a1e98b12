"""The JSON API for programs: rooms, client seeds, rolls, reveals, the room log, and ``/health``.

Each route is thin: it reads the request (the room token as ``Authorization: Bearer``), asks the
rooms (:class:`~mtgdice.web.rooms.Rooms`, through :class:`~mtgdice.web.deps.Deps`) and answers
JSON. Errors are one line, ``{"error": "..."}`` (the app's handlers).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from mtgdice.errors import InputError
from mtgdice.web.answers import roll_answer
from mtgdice.web.deps import EXPORTS, deps
from mtgdice.web.views import bearer, json_body, one_line
from mtgdice.web.work import Busy

router = APIRouter()


@router.post("/api/rooms")
async def api_create(request: Request) -> JSONResponse:
    d = deps(request)
    body = await json_body(request)
    if "client_seeds" in body:
        raise InputError(
            "client_seeds",
            "add client seeds once the room's commitment is published: POST /api/rooms/{id}/seeds "
            '{"client_seed": "..."} (a seed sent before would reach the server before it draws its own)',
        )
    if body:
        raise InputError(next(iter(body)), "creating a room takes no fields")
    state, token = await d.rooms.create()
    return JSONResponse({"id": state.id, "token": token, "commitment": state.fair.commitment}, status_code=201)


@router.post("/api/rooms/{room_id}/seeds")
async def api_seeds(room_id: str, request: Request) -> JSONResponse:
    d = deps(request)
    state = await d.rooms.get(room_id)
    state.check_room_token(bearer(request))
    body = await json_body(request)
    if set(body) != {"client_seed"}:
        raise InputError("client_seed", 'expected {"client_seed": "..."} (1 to 64 printable ASCII characters)')
    seeds = await d.rooms.add_seed(state, body["client_seed"])
    return JSONResponse({"client_seeds": list(seeds), "commitment": state.fair.commitment})


@router.post("/api/rooms/{room_id}/rolls")
async def api_roll(room_id: str, request: Request) -> Response:
    d = deps(request)
    meter = d.rooms.meter()  # the request's deadline counts from here
    state = await d.rooms.get(room_id)
    state.check_room_token(bearer(request))
    body = await json_body(request)
    return roll_answer(await d.rooms.api_roll(state, body, meter))


@router.post("/api/rooms/{room_id}/reveal")
async def api_reveal(room_id: str, request: Request) -> JSONResponse:
    d = deps(request)
    meter = d.rooms.meter()
    state = await d.rooms.get(room_id)
    state.check_room_token(bearer(request))
    revealed, _ = await d.rooms.reveal(state, meter)
    return JSONResponse(revealed)


@router.get("/api/rooms/{room_id}/log")
async def api_log(room_id: str, request: Request) -> StreamingResponse:
    d = deps(request)
    state = await d.rooms.get(room_id)
    if d.exports.locked():
        raise Busy("export", f"{EXPORTS} room logs are being exported; try again in a moment")
    await d.exports.acquire()
    pieces = iter(d.log.export_text(state.id))

    async def stream() -> AsyncIterator[str]:
        try:
            while (piece := await anyio.to_thread.run_sync(next, pieces, None)) is not None:
                yield piece
        finally:
            d.exports.release()

    return StreamingResponse(stream(), media_type="application/json")


@router.get("/health")
async def health(request: Request) -> JSONResponse:
    """The database and the broker answer (503 naming the one that does not); which worker answered."""
    d = deps(request)
    report: dict[str, str] = {}
    for part in ("database", "broker"):
        try:
            with anyio.fail_after(5):
                report[part] = await (
                    anyio.to_thread.run_sync(d.log.health) if part == "database" else d.events.health()
                )
        except Exception as error:  # reported, not raised: this is what the endpoint is for
            report[part] = f"error: {one_line(error) if str(error) else type(error).__name__}"
    healthy = all(value == "ok" for value in report.values())
    status = {"status": "ok" if healthy else "error", **report, "worker": os.getpid()}
    return JSONResponse(status, status_code=200 if healthy else 503)
