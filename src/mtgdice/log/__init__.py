"""The roll log: every roll kept, exported, replayed and verified.

:class:`RollLog` stores rolls in SQLite (one row per roll, committed before ``append`` returns),
:class:`~mtgdice.log.postgres.PostgresLog` in PostgreSQL (``open_log`` picks by the address), each
with the rooms' state beside them;
:func:`verify_export` checks an exported room log against its revealed commit-reveal seeds
(:mod:`mtgdice.fair.commit`); :func:`replay` resolves logged requests again with their logged faces.
A roll travels as one typed :class:`RollRecord` (request, outcome, faces, provenance); the log
writes and reads it through one codec, :mod:`mtgdice.io.record`.

A shared room, with :class:`mtgdice.fair.Room` (a value: keep the new one each step):

>>> import tempfile, pathlib
>>> from mtgdice.fair.commit import Room
>>> from mtgdice.log import RollLog, verify_export
>>> from mtgdice.game.request import RollRequest, enter_source, resolve_request
>>> from mtgdice.rules import ScriptedChooser
>>> log = RollLog(pathlib.Path(tempfile.mkdtemp()) / "rolls.sqlite")
>>> room = log.load_room("table") or Room.open("table", client_seeds=("alice", "bob"))
>>> log.save_room(room)                         # publish room.commitment now
>>> request = RollRequest(card=enter_source("", None, text="Roll a d20."))
>>> source, after = room.next_source()
>>> outcome = resolve_request(request, None, source, ScriptedChooser())  # if this raises, keep `room`
>>> roll_id = log.record(request, outcome, source, room="table", player="alice")
>>> room = after.logged(log.chain_head("table"))  # the room's hash chain now ends with this roll
>>> reveal, room = room.rotate()                # reveal the old seed, commit to a new one (covering the roll)
>>> _ = log.record_reveal("table", reveal)
>>> log.save_room(room)
>>> verify_export(log.export_json("table")).summary()
'1 verified, 0 bad, 0 unverifiable, of 1 rolls'
>>> log.close()

This package leaves out the CLI (``mtgdice.cli.log``) and rendering for people.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mtgdice.fair.verdict import RollCheck, Status, VerifyReport
    from mtgdice.game.record import LoggedRoll, Proof, Provenance, RollRecord, SourceKind, faces_of
    from mtgdice.log.replay import ReplayResult, record_of, replay, replay_roll
    from mtgdice.log.store import (
        EXPORT_FORMAT,
        LogEntry,
        RevealStep,
        RollLog,
        RoomTransaction,
        SqlLog,
        StoredRoom,
        default_db_path,
        open_log,
    )
    from mtgdice.log.verify import verify_export

__all__ = [
    "EXPORT_FORMAT",
    "LogEntry",
    "LoggedRoll",
    "Proof",
    "Provenance",
    "ReplayResult",
    "RevealStep",
    "RollCheck",
    "RollLog",
    "RollRecord",
    "RoomTransaction",
    "SourceKind",
    "SqlLog",
    "Status",
    "StoredRoom",
    "VerifyReport",
    "default_db_path",
    "faces_of",
    "open_log",
    "record_of",
    "replay",
    "replay_roll",
    "verify_export",
]

_MODULES = {
    "EXPORT_FORMAT": "mtgdice.log.store",
    "LogEntry": "mtgdice.log.store",
    "LoggedRoll": "mtgdice.game.record",
    "Proof": "mtgdice.game.record",
    "Provenance": "mtgdice.game.record",
    "ReplayResult": "mtgdice.log.replay",
    "RevealStep": "mtgdice.log.store",
    "RollCheck": "mtgdice.fair.verdict",
    "RollLog": "mtgdice.log.store",
    "RollRecord": "mtgdice.game.record",
    "RoomTransaction": "mtgdice.log.store",
    "SourceKind": "mtgdice.game.record",
    "SqlLog": "mtgdice.log.store",
    "Status": "mtgdice.fair.verdict",
    "StoredRoom": "mtgdice.log.store",
    "VerifyReport": "mtgdice.fair.verdict",
    "default_db_path": "mtgdice.log.store",
    "faces_of": "mtgdice.game.record",
    "open_log": "mtgdice.log.store",
    "record_of": "mtgdice.log.replay",
    "replay": "mtgdice.log.replay",
    "replay_roll": "mtgdice.log.replay",
    "verify_export": "mtgdice.log.verify",
}
"""Where each public name lives: loaded on first use (the codec, ``mtgdice.io.record``, imports
``records`` without the store)."""


# ``replay`` is a function and a module of this package: importing the module (as the codec's users
# do) would make ``mtgdice.log.replay`` the module; the function is bound here, after the module.
from mtgdice.log.replay import replay  # noqa: E402


def __getattr__(name: str) -> Any:
    if name not in _MODULES:
        raise AttributeError(f"module 'mtgdice.log' has no attribute {name!r}")
    value = getattr(importlib.import_module(_MODULES[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
