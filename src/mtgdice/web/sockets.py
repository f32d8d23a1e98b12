"""The room's websocket: every committed change of the room, in order, from whichever worker made it.

A socket is admitted within the caps of :class:`~mtgdice.web.limits.SocketCaps` (per room and per
client address, shared by the workers through the broker), fed by :mod:`mtgdice.web.fanout`, and
closed when its client has sent nothing for the idle timeout (pages ping).
"""

from __future__ import annotations

import asyncio
import logging
import os

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from mtgdice.errors import MtgDiceError
from mtgdice.web.deps import deps
from mtgdice.web.limits import SOCKET_TTL_S

router = APIRouter()
logger = logging.getLogger("mtgdice.web")


@router.websocket("/ws/rooms/{room_id}")
async def socket(websocket: WebSocket, room_id: str) -> None:
    d = deps(websocket)
    try:
        state = await d.rooms.get(room_id)
    except Exception as error:
        unavailable = d.log.unavailable(error)
        if not unavailable and not isinstance(error, (LookupError, MtgDiceError)):
            raise
        await websocket.close(code=1013 if unavailable else 4404)  # 1013: try again later
        return
    client = (websocket.client.host if websocket.client else "?")[:100]
    member = f"{os.getpid()}:{id(websocket)}"
    refused = await d.limits.admit(state.id, client, member)
    if refused is not None:
        logger.info("websocket to room %s refused: %s", state.id, refused)
        await websocket.close(code=1008, reason=refused[:120])
        return
    queue = d.fanout.join(state.id)
    try:
        # Subscribed, and the room's version read, before the socket opens: a client that rolls as
        # soon as it is connected hears of the roll.
        await d.events.subscribe(state.id)
        d.fanout.start(state.id, (await d.rooms.get(state.id, fresh=True)).version)
        await websocket.accept(headers=[(b"x-mtgdice-worker", str(os.getpid()).encode())])
    except BaseException:
        await d.limits.release(state.id, client, member)
        if d.fanout.leave(state.id, queue):
            await d.events.unsubscribe(state.id)
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
            await d.limits.keep(state.id, client, member)

    sender = asyncio.create_task(pump())
    keeper = asyncio.create_task(keep())
    try:
        while True:
            try:
                received = await asyncio.wait_for(websocket.receive(), d.sockets.idle_s)
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
        await d.limits.release(state.id, client, member)
        if d.fanout.leave(state.id, queue):
            await d.events.unsubscribe(state.id)
