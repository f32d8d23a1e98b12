"""The JSON API for programs: rooms, client seeds, rolls, reveals, the room log, and ``/health``.

Each route is thin: it reads the request (the room token as ``Authorization: Bearer``), asks the
rooms (:class:`~mtgdice.web.rooms.Rooms`, through :class:`~mtgdice.web.deps.Deps`) and answers
JSON, each body one of the typed models of :mod:`mtgdice.io.http` (the roll's request is read by
:mod:`mtgdice.io.jsonio`). Errors are one line, ``{"error": "..."}`` (the app's handlers).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import anyio
import msgspec
from fastapi import APIRouter, Request
from fastapi.responses import Response, StreamingResponse

from mtgdice.errors import InputError
from mtgdice.io.http import (
    Health,
    NewRoomBody,
    Revealed,
    RollProof,
    RollStamp,
    RoomCreated,
    SeedBody,
    SeedsAnswer,
    decode,
    encode,
    roll_body,
)
from mtgdice.io.jsonio import outcome_json
from mtgdice.web.deps import EXPORTS, deps
from mtgdice.web.views import bearer, json_body, one_line
from mtgdice.web.work import Busy

router = APIRouter()


@router.post("/api/rooms")
async def api_create(request: Request) -> Response:
    d = deps(request)
    try:
        decode(await request.body(), NewRoomBody)
    except InputError as error:
        if error.field != "client_seeds":
            raise
        raise InputError(
            "client_seeds",
            "add client seeds once the room's commitment is published: POST /api/rooms/{id}/seeds "
            '{"client_seed": "..."} (a seed sent before would reach the server before it draws its own)',
        ) from None
    state, token = await d.rooms.create()
    return _json(RoomCreated(state.id, token, state.fair.commitment), 201)


@router.post("/api/rooms/{room_id}/seeds")
async def api_seeds(room_id: str, request: Request) -> Response:
    d = deps(request)
    state = await d.rooms.get(room_id)
    state.check_room_token(bearer(request))
    body = decode(await request.body(), SeedBody)
    seeds = await d.rooms.add_seed(state, body.client_seed)
    return _json(SeedsAnswer(list(seeds), state.fair.commitment))


async def api_roll(request: Request) -> Response:
    """A roll in a room (a plain Starlette route: the hottest path reads its one path parameter itself)."""
    room_id: str = request.path_params["room_id"]
    d = deps(request)
    meter = d.rooms.meter()  # the request's deadline counts from here
    state = await d.rooms.get(room_id)
    state.check_room_token(bearer(request))
    body = await json_body(request)
    finished = await d.rooms.api_roll(state, body, meter)
    stamp = RollStamp(finished.id, msgspec.convert(finished.proof.to_json(), RollProof), finished.chain)
    # The outcome's text as the log wrote it, not written again (a rebuilt roll has none).
    body_bytes = roll_body(finished.outcome, lambda: outcome_json(finished.roll.outcome), stamp)
    return Response(body_bytes, media_type="application/json")


router.add_route("/api/rooms/{room_id}/rolls", api_roll, methods=["POST"])


@router.post("/api/rooms/{room_id}/reveal")
async def api_reveal(room_id: str, request: Request) -> Response:
    d = deps(request)
    meter = d.rooms.meter()
    state = await d.rooms.get(room_id)
    state.check_room_token(bearer(request))
    revealed, _ = await d.rooms.reveal(state, meter)
    return _json(msgspec.convert(revealed, Revealed))


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
async def health(request: Request) -> Response:
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
    status = Health("ok" if healthy else "error", report["database"], report["broker"], os.getpid())
    return _json(status, 200 if healthy else 503)


def _json(body: object, status: int = 200) -> Response:
    return Response(encode(body), status_code=status, media_type="application/json")
