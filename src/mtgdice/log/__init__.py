"""The roll log: every roll kept, exported, replayed and verified.

:class:`RollLog` stores rolls in SQLite (one row per roll, committed before ``append`` returns),
:class:`~mtgdice.log.postgres.PostgresLog` in PostgreSQL (``open_log`` picks by the address), each
with the rooms' state beside them;
:func:`verify_export` checks an exported room log against its revealed commit-reveal seeds
(:mod:`mtgdice.fair.commit`); :func:`replay` resolves logged requests again with their logged faces.

A shared room, with :class:`mtgdice.fair.Room` (a value: keep the new one each step):

>>> import tempfile, pathlib
>>> from mtgdice.fair.commit import Room
>>> from mtgdice.game.request import CardRef, RollRequest, resolve_request
>>> from mtgdice.rules import ScriptedChooser
>>> log = RollLog(pathlib.Path(tempfile.mkdtemp()) / "rolls.sqlite")
>>> room = log.load_room("table") or Room.open("table", client_seeds=("alice", "bob"))
>>> log.save_room(room)                         # publish room.commitment now
>>> request = RollRequest(card=CardRef("", "Roll a d20."))
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

from mtgdice.log.records import LoggedRoll, outcome_faces
from mtgdice.log.replay import ReplayResult, replay, replay_roll
from mtgdice.log.store import (
    EXPORT_FORMAT,
    LogEntry,
    RevealStep,
    RollLog,
    RoomTransaction,
    SqlLog,
    StoredRoom,
    default_db_path,
    log_fields,
    open_log,
)
from mtgdice.log.verify import RollCheck, Status, VerifyReport, verify_export

__all__ = [
    "EXPORT_FORMAT",
    "LogEntry",
    "LoggedRoll",
    "ReplayResult",
    "RevealStep",
    "RollCheck",
    "RollLog",
    "RoomTransaction",
    "SqlLog",
    "Status",
    "StoredRoom",
    "VerifyReport",
    "default_db_path",
    "log_fields",
    "open_log",
    "outcome_faces",
    "replay",
    "replay_roll",
    "verify_export",
]
