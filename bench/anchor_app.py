"""The anchor for ``bench/load_web.py``'s CPU per roll: a plain FastAPI app doing the least a roll
server must do, to compare ``mtgdice serve`` with.

It takes the same request as the room API (``POST /api/rooms/{id}/rolls`` with a bearer token and
the same JSON body), checks the token's SHA-256, rolls the dice the request stands for with
:mod:`random` (two d20, the lower ignored: what a Pixie Guide does to one d20), and commits one
SQLite row per roll (WAL, ``synchronous`` as the mtgdice log: FULL unless ``MTGDICE_LOG_SYNC=normal``)
before it answers JSON. A plain ``def`` route: FastAPI runs it in its thread pool, as such apps do.

    ANCHOR_DB=anchor.sqlite python -m uvicorn bench.anchor_app:app --port 8766 --no-access-log

What it leaves out: everything that makes mtgdice a rules engine (card text, replacement effects,
fair dice, the hash chain, decisions, pages, sockets): it is the floor, not a competitor.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import secrets
import sqlite3
import threading
import time
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse

app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
_lock = threading.Lock()
_db = sqlite3.connect(os.environ.get("ANCHOR_DB", "anchor.sqlite"), check_same_thread=False, isolation_level=None)
_db.execute("PRAGMA journal_mode = WAL")
_db.execute(f"PRAGMA synchronous = {'NORMAL' if os.environ.get('MTGDICE_LOG_SYNC') == 'normal' else 'FULL'}")
_db.execute(
    "CREATE TABLE IF NOT EXISTS rolls (id INTEGER PRIMARY KEY, room TEXT, time REAL, request TEXT, outcome TEXT)"
)
_rooms: dict[str, str] = {}


@app.post("/api/rooms", status_code=201)
def create_room() -> dict[str, str]:
    room, token = secrets.token_urlsafe(8), secrets.token_urlsafe(24)
    _rooms[room] = hashlib.sha256(token.encode()).hexdigest()
    return {"id": room, "token": token}


@app.post("/api/rooms/{room}/rolls")
def roll(room: str, request: Request, body: dict[str, Any]) -> JSONResponse:
    token = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
    if _rooms.get(room) != hashlib.sha256(token.encode()).hexdigest():
        raise HTTPException(401, "this room needs its token")
    dice = [random.randint(1, 20), random.randint(1, 20)]
    ignored = dice.index(min(dice))
    outcome = {
        "rolls": [{"dice": [{"sides": 20, "natural": face, "ignored": i == ignored} for i, face in enumerate(dice)]}],
        "results": [max(dice)],
    }
    with _lock:
        cursor = _db.execute(
            "INSERT INTO rolls (room, time, request, outcome) VALUES (?, ?, ?, ?)",
            (room, time.time(), json.dumps(body), json.dumps(outcome)),
        )  # autocommit: one committed row per roll
    return JSONResponse({**outcome, "id": cursor.lastrowid})
