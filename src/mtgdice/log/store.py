"""The roll log on disk: SQLite, WAL journal, one row per roll.

:meth:`RollLog.append` commits before it returns, so a roll that was acknowledged survives the
process being killed (SIGKILL) and, with ``synchronous=FULL`` (the default), a power cut.
``MTGDICE_LOG_SYNC=normal`` leaves the fsync to checkpoints: a commit has still reached the
operating system when it returns (SIGKILL-safe in WAL mode), but a power cut may lose the last
rolls. On this machine both give about 1 400-1 600 rolls/s through the web API.

Commit-reveal seeds are kept per room (:meth:`RollLog.record_commitment`,
:meth:`RollLog.record_reveal`); :meth:`RollLog.export_json` writes the room log that
``mtgdice verify`` checks. One ``RollLog`` may be shared by threads (a lock serialises it);
several processes may share one file (SQLite locking, a busy timeout).

This module leaves out checking a log (``verify``), re-resolving it (``replay``) and rendering.
"""

from __future__ import annotations

import builtins
import csv
import json
import os
import re
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeGuard

from mtgdice.errors import InputError
from mtgdice.fair import CommitRevealSource, Draw, DrawJSON, Room, join_client_seeds
from mtgdice.fair import commitment as commitment_of
from mtgdice.log.records import LoggedRoll, card_label, first_row, outcome_faces
from mtgdice.rules.dice import PlanarFace
from mtgdice.rules.sources import DiceSource

if TYPE_CHECKING:
    from mtgdice.request import Outcome, RollRequest

SCHEMA_VERSION = 1
EXPORT_FORMAT = "mtgdice-room-log/1"
BUSY_TIMEOUT_MS = 10_000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rolls (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    room TEXT,
    time TEXT NOT NULL,
    player TEXT,
    source TEXT NOT NULL,
    card TEXT,
    row INTEGER,
    commitment TEXT,
    client_seeds TEXT NOT NULL,
    nonce INTEGER,
    faces TEXT NOT NULL,
    request TEXT NOT NULL,
    outcome TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS rolls_by_room ON rolls (room, id);
CREATE UNIQUE INDEX IF NOT EXISTS rolls_by_nonce ON rolls (commitment, nonce) WHERE commitment IS NOT NULL;
CREATE TABLE IF NOT EXISTS commitments (
    room TEXT,
    commitment TEXT NOT NULL,
    seed TEXT,
    from_nonce INTEGER NOT NULL,
    to_nonce INTEGER,
    committed_at TEXT NOT NULL,
    revealed_at TEXT
);
CREATE TABLE IF NOT EXISTS rooms (
    room TEXT PRIMARY KEY,
    server_seed TEXT NOT NULL,
    client_seeds TEXT NOT NULL,
    next_nonce INTEGER NOT NULL,
    first_nonce INTEGER NOT NULL,
    updated TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS commitments_by_room ON commitments (ifnull(room, ''), commitment);
"""

_ROLL_COLUMNS = "id, room, time, player, source, card, row, commitment, client_seeds, nonce, faces, request, outcome"
_INSERT_COMMITMENT = (
    "INSERT OR IGNORE INTO commitments (room, commitment, from_nonce, committed_at) VALUES (?, ?, ?, ?)"
)
_PLANAR_VALUES = frozenset(face.value for face in PlanarFace)
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


def default_db_path() -> Path:
    """``$MTGDICE_DB``, else ``$XDG_DATA_HOME/mtgdice/rolls.sqlite`` (``~/.local/share`` by default)."""
    explicit = os.environ.get("MTGDICE_DB")
    if explicit:
        return Path(explicit).expanduser()
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home).expanduser() / "mtgdice" / "rolls.sqlite"


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One roll to log, typed: what was asked, what came of it, where its faces came from."""

    request: RollRequest
    outcome: Outcome
    source: DiceSource
    room: str | None = None
    player: str | None = None

    def fields(self) -> dict[str, Any]:
        """The stored form (:func:`log_fields`)."""
        return log_fields(self.request, self.outcome, self.source, self.room, self.player)


def log_fields(
    request: RollRequest, outcome: Outcome, source: DiceSource, room: str | None, player: str | None
) -> dict[str, Any]:
    """The keyword arguments of :meth:`RollLog.append` for a typed roll: the request and outcome as
    the log stores them (JSON, the log's edge), and for a commit-reveal source its proof."""
    from mtgdice.jsonio import faces_shown, outcome_json, request_json  # here: appending JSON needs no compiler

    fields: dict[str, Any] = {
        "request": request_json(request),
        "outcome": outcome_json(outcome),
        "source": source.name,
        "room": room,
        "player": player,
        "faces": faces_shown(outcome),
    }
    if isinstance(source, CommitRevealSource):
        fields.update(
            commitment=source.commitment,
            client_seeds=tuple(source.client_seeds),
            nonce=source.nonce,
            faces=source.draws,
        )
    return fields


def utc_now() -> str:
    """The current time, UTC, ISO 8601 with microseconds."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _faces_json(faces: Sequence[Draw] | Sequence[DrawJSON]) -> builtins.list[DrawJSON]:
    result: builtins.list[DrawJSON] = []
    for position, pair in enumerate(faces):
        sides, face = pair if isinstance(pair, (tuple, list)) and len(pair) == 2 else (None, None)
        if sides == "planar":
            value = face.value if isinstance(face, PlanarFace) else face
            if value in _PLANAR_VALUES:
                result.append(["planar", value])
                continue
        elif _whole(sides) and _whole(face) and 1 <= face <= sides:
            result.append([sides, face])
            continue
        raise InputError(
            f"faces[{position}]",
            f'expected [sides, face] such as [20, 7] or ["planar", "chaos"], got {pair!r}',
        )
    return result


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


class RollLog:
    """A roll log in one SQLite file (created with its folders if missing).

    >>> import tempfile, pathlib
    >>> log = RollLog(pathlib.Path(tempfile.mkdtemp()) / "rolls.sqlite")
    >>> roll_id = log.append(request={"text": "Roll a d6."}, source="secure",
    ...     outcome={"rolls": [{"dice": [{"sides": 6, "natural": 4, "result": 4, "ignored": False}],
    ...                         "results": [4], "row": None, "doubles": False}]})
    >>> log.get(roll_id).faces, [roll.id for roll in log.list()]
    ([[6, 4]], [1])
    >>> log.close()
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise InputError("db", f"cannot create {str(self.path.parent)!r}: {error.strerror}") from None
        try:
            self._connection = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000
            )
        except sqlite3.Error as error:
            raise InputError("db", f"cannot open the roll log {str(self.path)!r}: {error}") from None
        try:
            self._connection.execute("PRAGMA journal_mode = WAL")
            level = "NORMAL" if os.environ.get("MTGDICE_LOG_SYNC", "").lower() == "normal" else "FULL"
            self._connection.execute(f"PRAGMA synchronous = {level}")
            version = self._connection.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise InputError(
                    "db", f"{str(self.path)!r} has log schema {version}; this mtgdice reads {SCHEMA_VERSION}"
                )
            self._connection.executescript(_SCHEMA)
            self._connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except (sqlite3.Error, InputError) as error:
            self._connection.close()
            if isinstance(error, InputError):
                raise
            raise InputError("db", f"cannot open the roll log {str(self.path)!r}: {error}") from None
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            self._connection.close()

    def __enter__(self) -> RollLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ----------------------------------------------------------------------------------

    def append(
        self,
        *,
        request: Mapping[str, Any],
        outcome: Mapping[str, Any],
        source: str,
        room: str | None = None,
        player: str | None = None,
        commitment: str | None = None,
        client_seeds: Sequence[str] = (),
        nonce: int | None = None,
        faces: Sequence[Draw] | Sequence[DrawJSON] | None = None,
        time: str | None = None,
    ) -> int:
        """Log one roll and return its id; the row is committed (on disk) when this returns.

        ``faces`` defaults to the faces the outcome shows. A commit-reveal roll gives
        ``commitment``, ``client_seeds`` and ``nonce`` together; a nonce is logged once per
        commitment, and the commitment is recorded for the room if it is new.
        """
        if (commitment is None) != (nonce is None):
            raise InputError("nonce", "a commit-reveal roll gives both commitment and nonce; other rolls give neither")
        if commitment is not None:
            commitment = commitment.lower()
            if not _HEX64.match(commitment):
                raise InputError("commitment", f"expected 64 hex digits (SHA-256), got {commitment[:80]!r}")
        if nonce is not None and (isinstance(nonce, bool) or not isinstance(nonce, int) or nonce < 0):
            raise InputError("nonce", f"expected a whole number 0 or more, got {nonce!r}")
        seeds = sorted(client_seeds)
        join_client_seeds(seeds)
        drawn = _faces_json(faces) if faces is not None else outcome_faces(outcome)
        when = time or utc_now()
        values = (
            room,
            when,
            player,
            source,
            card_label(request),
            first_row(outcome),
            commitment,
            _dumps(seeds),
            nonce,
            _dumps(drawn),
            _dumps(request),
            _dumps(outcome),
        )
        with self._lock:
            try:
                self._connection.execute("BEGIN IMMEDIATE")
                try:
                    if commitment is not None:
                        revealed = self._connection.execute(
                            "SELECT 1 FROM commitments WHERE commitment = ? AND seed IS NOT NULL", (commitment,)
                        ).fetchone()
                        if revealed is not None:
                            raise InputError(
                                "commitment",
                                f"the seed of commitment {commitment} is already revealed, so its rolls are "
                                "predictable; rotate the room and roll with the new seed",
                            )
                        self._connection.execute(_INSERT_COMMITMENT, (room, commitment, nonce, when))
                    cursor = self._connection.execute(
                        "INSERT INTO rolls (room, time, player, source, card, row, commitment, client_seeds, "
                        "nonce, faces, request, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        values,
                    )
                    self._connection.execute("COMMIT")
                except BaseException:
                    self._connection.execute("ROLLBACK")
                    raise
            except sqlite3.IntegrityError:
                raise InputError(
                    "nonce",
                    f"nonce {nonce} of commitment {commitment} is already logged; every roll takes the next nonce",
                ) from None
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def record(
        self,
        request: RollRequest,
        outcome: Outcome,
        source: DiceSource,
        *,
        room: str | None = None,
        player: str | None = None,
    ) -> int:
        """Log a roll resolved with ``source``; a commit-reveal source gives its nonce, seeds and draws.

        With another source the faces logged are those the outcome shows.

        >>> import tempfile, pathlib
        >>> from mtgdice.fair import Room
        >>> from mtgdice.request import RollRequest, CardRef, resolve_request
        >>> from mtgdice.rules import ScriptedChooser
        >>> room = Room.open("table")
        >>> source, room = room.next_source()
        >>> request = RollRequest(card=CardRef("", "Roll a d20."))
        >>> outcome = resolve_request(request, None, source, ScriptedChooser())
        >>> with RollLog(pathlib.Path(tempfile.mkdtemp()) / "rolls.sqlite") as log:
        ...     log.get(log.record(request, outcome, source, room="table")).nonce
        0
        """
        return self.append(**log_fields(request, outcome, source, room, player))

    # -- room state (server side, secret) ---------------------------------------------------------

    def save_room(self, room: Room) -> None:
        """Keep a room's fairness state, secret seed included, and record its commitment.

        The seed is stored only in this server-side file; exports show a seed only once revealed
        (:meth:`record_reveal`). Save after opening, rotating or changing client seeds; the next
        nonce is also derived from the logged rolls when loading, so saving after each roll is not
        needed.
        """
        values = (room.id, room.server_seed.hex(), _dumps(builtins.list(room.client_seeds)),
                  room.next_nonce, room.first_nonce, utc_now())  # fmt: skip
        with self._lock:
            self._connection.execute("BEGIN IMMEDIATE")
            try:
                self._connection.execute(
                    "INSERT INTO rooms (room, server_seed, client_seeds, next_nonce, first_nonce, updated) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (room) DO UPDATE SET "
                    "server_seed = excluded.server_seed, client_seeds = excluded.client_seeds, "
                    "next_nonce = excluded.next_nonce, first_nonce = excluded.first_nonce, updated = excluded.updated",
                    values,
                )
                self._connection.execute(_INSERT_COMMITMENT, (room.id, room.commitment, room.first_nonce, utc_now()))
                self._connection.execute("COMMIT")
            except BaseException:
                self._connection.execute("ROLLBACK")
                raise

    def load_room(self, room_id: str) -> Room | None:
        """The saved state of a room, or None; its next nonce follows the last roll logged with its seed.

        >>> import tempfile, pathlib
        >>> from mtgdice.fair import Room
        >>> with RollLog(pathlib.Path(tempfile.mkdtemp()) / "rolls.sqlite") as log:
        ...     log.save_room(Room.open("table"))
        ...     log.load_room("table").next_nonce, log.load_room("elsewhere")
        (0, None)
        """
        with self._lock:
            row = self._connection.execute(
                "SELECT server_seed, client_seeds, next_nonce, first_nonce FROM rooms WHERE room = ?",
                (room_id,),
            ).fetchone()
            if row is None:
                return None
            seed = bytes.fromhex(row[0])
            last = self._connection.execute(
                "SELECT max(nonce) FROM rolls WHERE commitment = ?", (commitment_of(seed),)
            ).fetchone()[0]
        next_nonce = max(row[2], last + 1 if last is not None else 0)
        return Room(room_id, seed, tuple(json.loads(row[1])), next_nonce, row[3])

    def record_commitment(self, room: str | None, commitment: str, from_nonce: int) -> None:
        """Record a published commitment (before any roll uses it). Recording it again does nothing."""
        commitment = commitment.lower()
        if not _HEX64.match(commitment):
            raise InputError("commitment", f"expected 64 hex digits (SHA-256), got {commitment[:80]!r}")
        with self._lock:
            self._connection.execute(
                _INSERT_COMMITMENT,
                (room, commitment, from_nonce, utc_now()),
            )

    def record_reveal(self, room: str | None, seed: bytes, to_nonce: int | None = None) -> str:
        """Record a revealed seed; return the commitment it opens.

        ``to_nonce`` ends the seed's nonces (exclusive); by default, one after the last logged
        roll under it. A seed that opens no commitment of the room is an error.
        """
        committed = commitment_of(seed)
        with self._lock:
            self._connection.execute("BEGIN IMMEDIATE")
            try:
                row = self._connection.execute(
                    "SELECT from_nonce FROM commitments WHERE ifnull(room, '') = ifnull(?, '') AND commitment = ?",
                    (room, committed),
                ).fetchone()
                span = self._connection.execute(
                    "SELECT min(nonce), max(nonce) FROM rolls WHERE ifnull(room, '') = ifnull(?, '')"
                    " AND commitment = ?",
                    (room, committed),
                ).fetchone()
                if row is None and span[0] is None:
                    raise InputError("seed", f"the seed opens commitment {committed}, which room {room!r} never used")
                from_nonce = row[0] if row is not None else span[0]
                end = to_nonce if to_nonce is not None else (span[1] + 1 if span[1] is not None else from_nonce)
                now = utc_now()
                self._connection.execute(
                    _INSERT_COMMITMENT,
                    (room, committed, from_nonce, now),
                )
                self._connection.execute(
                    "UPDATE commitments SET seed = ?, to_nonce = ?, revealed_at = ? "
                    "WHERE ifnull(room, '') = ifnull(?, '') AND commitment = ?",
                    (seed.hex(), end, now, room, committed),
                )
                self._connection.execute("COMMIT")
            except BaseException:
                self._connection.execute("ROLLBACK")
                raise
        return committed

    # -- reading ----------------------------------------------------------------------------------

    def _rows(self, sql: str, parameters: Sequence[Any]) -> builtins.list[LoggedRoll]:
        with self._lock:
            rows = self._connection.execute(sql, parameters).fetchall()
        return [_logged(row) for row in rows]

    def list(self, room: str | None = None, limit: int = 50) -> builtins.list[LoggedRoll]:
        """The latest rolls, newest first (of one room, or of all rooms when ``room`` is None)."""
        if room is None:
            return self._rows(f"SELECT {_ROLL_COLUMNS} FROM rolls ORDER BY id DESC LIMIT ?", (limit,))
        return self._rows(f"SELECT {_ROLL_COLUMNS} FROM rolls WHERE room = ? ORDER BY id DESC LIMIT ?", (room, limit))

    def rolls(self, room: str | None = None, after: int = 0) -> Iterator[LoggedRoll]:
        """Every roll with id above ``after``, oldest first (of one room, or of all rooms)."""
        batch = 500
        while True:
            if room is None:
                rows = self._rows(f"SELECT {_ROLL_COLUMNS} FROM rolls WHERE id > ? ORDER BY id LIMIT ?", (after, batch))
            else:
                rows = self._rows(
                    f"SELECT {_ROLL_COLUMNS} FROM rolls WHERE room = ? AND id > ? ORDER BY id LIMIT ?",
                    (room, after, batch),
                )
            yield from rows
            if len(rows) < batch:
                return
            after = rows[-1].id

    def get(self, roll_id: int) -> LoggedRoll:
        """One roll by id; an unknown id is an :class:`InputError`."""
        rows = self._rows(f"SELECT {_ROLL_COLUMNS} FROM rolls WHERE id = ?", (roll_id,))
        if not rows:
            raise InputError("id", f"no roll {roll_id} in the log {str(self.path)!r}; `mtgdice log list` shows the ids")
        return rows[0]

    def rooms(self) -> builtins.list[str]:
        """The rooms that have rolls or commitments, sorted."""
        with self._lock:
            rows = self._connection.execute(
                "SELECT room FROM rolls WHERE room IS NOT NULL"
                " UNION SELECT room FROM commitments WHERE room IS NOT NULL"
            ).fetchall()
        return sorted(row[0] for row in rows)

    def commitments(self, room: str | None = None) -> builtins.list[dict[str, Any]]:
        """The commitments of one room (or all), in the export format, oldest first."""
        sql = "SELECT room, commitment, seed, from_nonce, to_nonce FROM commitments"
        parameters: tuple[Any, ...] = ()
        if room is not None:
            sql += " WHERE room = ?"
            parameters = (room,)
        with self._lock:
            rows = self._connection.execute(sql + " ORDER BY from_nonce, rowid", parameters).fetchall()
        return [
            {"commitment": committed, "seed": seed, "from_nonce": start, "to_nonce": end, "room": where}
            for where, committed, seed, start, end in rows
        ]

    # -- exporting --------------------------------------------------------------------------------

    def export_json(self, room: str | None = None) -> dict[str, Any]:
        """The room log that ``mtgdice verify`` checks (every room when ``room`` is None).

        ``commitments``: each seed's commitment, the seed in hex once revealed (else null) and its
        nonces, ``from_nonce <= nonce < to_nonce`` (``to_nonce`` null while the seed is in use).
        ``rolls``: oldest first, each with ``id``, ``nonce``, ``client_seeds``, ``commitment``,
        ``request``, ``outcome`` and ``faces`` (every face drawn, in order).
        """
        return {
            "format": EXPORT_FORMAT,
            "room": room,
            "exported": utc_now(),
            "commitments": self.commitments(room),
            "rolls": [roll.export_json() for roll in self.rolls(room)],
        }

    def export_csv(self, room: str | None, file: IO[str]) -> int:
        """Write the rolls of one room (or all) as CSV, oldest first; return how many rows."""
        writer = csv.writer(file)
        writer.writerow(
            [
                "id",
                "time",
                "room",
                "player",
                "source",
                "card",
                "row",
                "results",
                "nonce",
                "commitment",
                "client_seeds",
                "faces",
                "request",
                "outcome",
            ]
        )
        count = 0
        for roll in self.rolls(room):
            writer.writerow(
                [
                    roll.id,
                    roll.time,
                    roll.room or "",
                    roll.player or "",
                    roll.source,
                    roll.card or "",
                    "" if roll.row is None else roll.row,
                    _dumps(roll.results),
                    "" if roll.nonce is None else roll.nonce,
                    roll.commitment or "",
                    _dumps(builtins.list(roll.client_seeds)),
                    _dumps(roll.faces),
                    _dumps(roll.request),
                    _dumps(roll.outcome),
                ]
            )
            count += 1
        return count

    def integrity_check(self) -> str:
        """SQLite's ``PRAGMA integrity_check``: ``"ok"`` for a sound file."""
        with self._lock:
            return str(self._connection.execute("PRAGMA integrity_check").fetchone()[0])


def _logged(row: tuple[Any, ...]) -> LoggedRoll:
    (roll_id, room, time, player, source, card, matched, committed, seeds, nonce, faces, request, outcome) = row
    return LoggedRoll(
        id=roll_id,
        room=room,
        time=time,
        player=player,
        request=json.loads(request),
        outcome=json.loads(outcome),
        source=source,
        faces=json.loads(faces),
        commitment=committed,
        client_seeds=tuple(json.loads(seeds)),
        nonce=nonce,
        card=card,
        row=matched,
    )
