"""The roll log and the rooms' state in SQL: SQLite by default (one file, WAL), PostgreSQL when it grows.

:class:`SqlLog` holds every query once; :class:`RollLog` runs them on SQLite and
:class:`~mtgdice.log.postgres.PostgresLog` on PostgreSQL (``open_log`` picks by the address).

:meth:`SqlLog.append` commits before it returns, so a roll that was acknowledged survives the
process being killed (SIGKILL) and, with ``synchronous=FULL`` (SQLite's default here), a power cut.
``MTGDICE_LOG_SYNC=normal`` leaves SQLite's fsync to checkpoints: a commit has still reached the
operating system when it returns (SIGKILL-safe in WAL mode), but a power cut may lose the last rolls.

Commit-reveal seeds are kept per room (:meth:`SqlLog.record_commitment`, :meth:`SqlLog.record_reveal`);
:meth:`SqlLog.export_json` writes the room log that ``mtgdice verify`` checks. A web room's whole
state (its fairness state in columns, the rest as one JSON text, and a version that counts its
changes) is a row of ``rooms``: :meth:`SqlLog.create_room`, :meth:`SqlLog.load_room_state`, and
:meth:`SqlLog.begin_room` / :meth:`RoomTransaction.commit`, which write a room's rolls, reveals and
new state in one transaction — all of them or none (on SQLite, rooms' transactions that wait
together share one commit, each in a savepoint; :meth:`RoomTransaction.commit_then` lets the
caller's thread go on while its commit waits for the group being written). The schema is created or migrated when a log
opens; ``schema_version`` lists the versions applied.

This module leaves out checking a log (``verify``), re-resolving it (``replay``), rendering, and what
a room's state JSON says (``mtgdice.web``).
"""

from __future__ import annotations

import builtins
import json
import logging
import os
import re
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

from mtgdice.errors import InputError
from mtgdice.fair.commit import GENESIS, Reveal, Room, seed_hash
from mtgdice.game.record import LoggedCommitment, LoggedRoll, RollRecord, utc_now
from mtgdice.io import record as codec
from mtgdice.io.outcome import JSONObject
from mtgdice.rules.sources import DiceSource

if TYPE_CHECKING:
    from mtgdice.game.record import Request
    from mtgdice.game.request import CardSource, Outcome

SCHEMA_VERSION = 4
"""1: rolls, commitments, rooms' seeds. 2: the ``schema_version`` table, each roll's turn, rooms' state and
version. 3: the hash chain (each roll's ``chain``, what a commitment covers, the chain at a reveal), which
player's request spent each nonce (``spent_by``). 4: a seeded roll's seed (``seed``; NULL for rows before)."""
EXPORT_FORMAT = "mtgdice-room-log/2"
BUSY_TIMEOUT_MS = 10_000

_SCHEMA_1 = """
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

_SCHEMA_2 = """
CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL);
ALTER TABLE rolls ADD COLUMN turn INTEGER;
ALTER TABLE rooms ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rooms ADD COLUMN state TEXT;
"""

_SCHEMA_3 = """
ALTER TABLE rolls ADD COLUMN spent_by TEXT;
ALTER TABLE rolls ADD COLUMN chain TEXT;
ALTER TABLE commitments ADD COLUMN seed_hash TEXT;
ALTER TABLE commitments ADD COLUMN covers TEXT;
ALTER TABLE commitments ADD COLUMN chain TEXT;
ALTER TABLE rooms ADD COLUMN covers TEXT;
ALTER TABLE rooms ADD COLUMN chain TEXT
"""
"""Rooms and commitments made before schema 3 keep ``covers`` NULL: their commitment is the seed's hash alone."""

SCHEMA_4 = "ALTER TABLE rolls ADD COLUMN seed TEXT"
"""Rolls logged before schema 4 keep ``seed`` NULL (their provenance has no seed)."""

_COLUMN_NAMES = ", ".join(f'"{name}"' if name == "row" else name for name in codec.COLUMNS)
_ROLL_COLUMNS = f"id, {_COLUMN_NAMES}"
_INSERT_ROLL = f"INSERT INTO rolls ({_COLUMN_NAMES}) VALUES ({', '.join('?' * len(codec.COLUMNS))}) RETURNING id"

_INSERT_COMMITMENT = (
    "INSERT INTO commitments (room, commitment, from_nonce, committed_at, seed_hash, covers) "
    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
)
_ROOM_COLUMNS = "server_seed, client_seeds, next_nonce, first_nonce, version, state, covers, chain"
_LAST_CHAIN = "SELECT chain FROM rolls WHERE room = ? AND chain IS NOT NULL ORDER BY id DESC LIMIT 1"
"""The hash of a room's last chained roll: read backwards along the index ``rolls_by_room`` (room, id)."""
_LAST_CHAIN_NO_ROOM = "SELECT chain FROM rolls WHERE room IS NULL AND chain IS NOT NULL ORDER BY id DESC LIMIT 1"
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
logger = logging.getLogger("mtgdice.log")


def default_db_path() -> Path:
    """``$MTGDICE_DB``, else ``$XDG_DATA_HOME/mtgdice/rolls.sqlite`` (``~/.local/share`` by default)."""
    explicit = os.environ.get("MTGDICE_DB")
    if explicit:
        return Path(explicit).expanduser()
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home).expanduser() / "mtgdice" / "rolls.sqlite"


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One roll to log, as its row (:class:`~mtgdice.io.record.LogRow`, every field checked), and
    its place in the room's hash chain: ``prev`` is the hash of the room's roll before it (None for
    a roll outside any chain); its own is :attr:`chain`. Made from a typed roll by :meth:`of`."""

    row: codec.LogRow
    prev: str | None = None

    @property
    def chain(self) -> str | None:
        return self.row.chain

    @property
    def values(self) -> tuple[str | int | None, ...]:
        return self.row.values()

    @classmethod
    def of(
        cls,
        request: Request,
        outcome: Outcome | None,
        source: DiceSource,
        *,
        room: str | None = None,
        player: str | None = None,
        by: str | None = None,
        turn: int | None = None,
        prev: str | None = None,
        cards: CardSource | None = None,
        refused: str | None = None,
    ) -> LogEntry:
        """A typed roll's entry: ``by`` is the player whose request spent its nonce, ``turn`` the
        game's turn when a table rolled it; ``cards`` gives the text hashes of the cards it names;
        ``refused`` (with no outcome) records a roll whose nonce was spent but which did not resolve."""
        record = RollRecord.of(request, outcome, source, refused=refused, room=room, player=player, by=by, turn=turn)
        return cls.of_record(record, prev=prev, cards=cards)

    @classmethod
    def of_record(cls, record: RollRecord, *, prev: str | None = None, cards: CardSource | None = None) -> LogEntry:
        """A record's entry (its row encoded by the codec, :func:`mtgdice.io.record.encode`)."""
        return cls(codec.encode(record, cards=cards, prev=prev), prev)


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Cursor(Protocol):
    """What both drivers' cursors give."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> builtins.list[Any]: ...


class Sql(Protocol):
    """A connection that runs one statement with ``?`` placeholders."""

    def execute(self, sql: str, parameters: Sequence[Any] = ...) -> Cursor: ...


@dataclass(frozen=True, slots=True)
class StoredRoom:
    """A room as stored: its fairness state (secret seed included), its state JSON and version."""

    fair: Room
    state: str | None
    version: int


@dataclass(frozen=True, slots=True)
class RevealStep:
    """A reveal inside a room's transaction: the seed retired and its nonces, and the room after it
    (whose new commitment is recorded then)."""

    reveal: Reveal
    then: Room


class NonceTaken(InputError):
    """A roll's nonce is already in the log under its commitment (another writer took it)."""


class RoomChanged(InputError):
    """The room changed under a transaction that did not lock it (another process wrote it)."""


Committed = Callable[[builtins.list[int] | None, Exception | None], None]
"""What :meth:`RoomTransaction.commit_then` calls once a room's transaction is committed (its rolls'
ids) or has failed (the error)."""


class RoomTransaction:
    """One transaction of one room: begun by :meth:`SqlLog.begin_room`, then committed or aborted.

    ``fresh`` is the stored room when its version is not the one the caller knows (another worker
    changed it; the caller must start from it), else None. A transaction that locks (PostgreSQL)
    holds the room's row from ``begin_room`` until ``commit`` or ``abort``.
    """

    def __init__(
        self,
        log: SqlLog,
        room: str,
        version: int,
        fresh: StoredRoom | None,
        held: AbstractContextManager[Sql] | None = None,
        sql: Sql | None = None,
    ) -> None:
        self.log = log
        self.room = room
        self.version = version if fresh is None else fresh.version
        self.fresh = fresh
        self._held = held
        self._sql = sql

    def commit(self, steps: Sequence[LogEntry | RevealStep], fair: Room, state: str) -> builtins.list[int]:
        """Write ``steps`` in order (rolls, reveals), then the room's new state; commit; the new rolls' ids."""
        return self.log._commit_room(self, steps, fair, state)

    def commit_then(self, steps: Sequence[LogEntry | RevealStep], fair: Room, state: str, then: Committed) -> None:
        """:meth:`commit`, and ``then(ids, None)`` once it is committed (``then(None, error)`` if it
        failed: nothing of it is stored). ``then`` is called exactly once, maybe from another thread
        and after this returns: on SQLite a commit that finds another being written joins the next
        group, which the writing thread commits (so the caller's thread is free meanwhile)."""
        self.log._commit_room_then(self, steps, fair, state, then)

    def abort(self) -> None:
        """Give up the transaction (nothing of it is written)."""
        self.log._release(self, failed=True)


@dataclass(frozen=True, slots=True)
class RoleCheck:
    """One line of ``mtgdice db init``: what was checked, and whether it holds."""

    what: str
    ok: bool


class SqlLog:
    """The queries of the roll log and the rooms, over a connection a subclass provides.

    Subclasses give :meth:`_reading` (a connection for reads), :meth:`_writing` (a transaction,
    committed when the block ends, rolled back on an error) and, for a database several processes
    write, :meth:`_room_lock` (a transaction holding one room's row). Queries use ``?`` placeholders.
    """

    path: Any
    shared = False
    """Whether other processes write this database too (then rooms are locked and read fresh)."""
    _UNIQUE_ERRORS: tuple[type[BaseException], ...] = ()
    _UNAVAILABLE_ERRORS: tuple[type[BaseException], ...] = ()

    def unavailable(self, error: BaseException) -> bool:
        """Whether ``error`` means the database cannot be reached now (try again later), not a bad request."""
        from mtgdice.errors import StorageUnavailable

        return isinstance(error, (StorageUnavailable, *self._UNAVAILABLE_ERRORS))

    def _reading(self) -> AbstractContextManager[Sql]:
        raise NotImplementedError

    def _writing(self) -> AbstractContextManager[Sql]:
        raise NotImplementedError

    def _room_lock(self) -> tuple[AbstractContextManager[Sql], Sql] | None:
        """A transaction entered for :meth:`begin_room` to lock a room in; None when this process is the only writer."""
        return None

    def close(self) -> None:
        raise NotImplementedError

    def integrity_check(self) -> str:
        raise NotImplementedError

    def __enter__(self) -> SqlLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def health(self) -> str:
        """``"ok"`` when the database answers a query (an error otherwise)."""
        with self._reading() as sql:
            sql.execute("SELECT 1").fetchall()
        return "ok"

    def role_checks(self, workers: int = 1) -> builtins.list[RoleCheck]:
        """What ``mtgdice db init`` reports: the schema is current, and the connection may read and write it."""
        versions = self.schema_versions()
        checks = [RoleCheck(f"schema version {versions[-1] if versions else 0} (this mtgdice: {SCHEMA_VERSION})",
                            bool(versions) and versions[-1] == SCHEMA_VERSION)]  # fmt: skip
        with self._reading() as sql:
            for table in ("rolls", "commitments", "rooms", "schema_version"):
                try:
                    sql.execute(f"SELECT count(*) FROM {table}").fetchone()  # noqa: S608 - fixed names
                    checks.append(RoleCheck(f"table {table} can be read", True))
                except Exception as error:  # reported: this is the check
                    checks.append(RoleCheck(f"table {table} can be read: {' '.join(str(error).split())[:120]}", False))
        return checks

    def schema_versions(self) -> builtins.list[int]:
        """The schema versions applied, in order (the last is :data:`SCHEMA_VERSION`)."""
        with self._reading() as sql:
            return [row[0] for row in sql.execute("SELECT version FROM schema_version ORDER BY version").fetchall()]

    # -- writing ----------------------------------------------------------------------------------

    def append(self, record: RollRecord, *, cards: CardSource | None = None) -> int:
        """Log one roll and return its id; the row is committed (on disk) when this returns.

        A commit-reveal roll's nonce is logged once per commitment, and its commitment is recorded
        for the room if it is new; the roll continues its room's hash chain. ``cards`` give the text
        hashes of the cards its request names.
        """
        entry = LogEntry.of_record(record, cards=cards)  # checked before the transaction begins
        with self._writing() as sql:
            proof = record.provenance.proof
            if proof is not None:
                room = record.provenance.room
                prev = _last_chain(sql, room)
                entry = LogEntry.of_record(record, prev=prev[0] if prev is not None else GENESIS, cards=cards)
                revealed = sql.execute(
                    "SELECT 1 FROM commitments WHERE commitment = ? AND seed IS NOT NULL", (proof.commitment,)
                ).fetchone()
                if revealed is not None:
                    raise InputError(
                        "commitment",
                        f"the seed of commitment {proof.commitment} is already revealed, so its rolls are "
                        "predictable; rotate the room and roll with the new seed",
                    )
                sql.execute(_INSERT_COMMITMENT, (room, proof.commitment, proof.nonce, entry.row.time, None, None))
            return self._insert_roll(sql, entry.values)

    def _insert_rolls(self, sql: Sql, rows: Sequence[tuple[Any, ...]]) -> builtins.list[int]:
        """Insert rows in one statement; their ids, in the rows' order (ids are handed out in order)."""
        if not rows:
            return []
        head, values = _INSERT_ROLL.split(" VALUES ", 1)
        placeholders = values.removesuffix(" RETURNING id")
        statement = f"{head} VALUES {', '.join([placeholders] * len(rows))} RETURNING id"
        try:
            found = sql.execute(statement, [value for row in rows for value in row]).fetchall()
        except self._UNIQUE_ERRORS:
            nonces = ", ".join(str(row[8]) for row in rows)
            raise NonceTaken(
                "nonce",
                f"one of nonces {nonces} of commitment {rows[0][6]} is already logged; rolls take the next nonce",
            ) from None
        return sorted(int(row[0]) for row in found)

    def _insert_roll(self, sql: Sql, values: Sequence[Any]) -> int:
        try:
            return int(sql.execute(_INSERT_ROLL, values).fetchall()[0][0])
        except self._UNIQUE_ERRORS:
            raise NonceTaken(
                "nonce",
                f"nonce {values[8]} of commitment {values[6]} is already logged; every roll takes the next nonce",
            ) from None

    def record(
        self,
        request: Request,
        outcome: Outcome,
        source: DiceSource,
        *,
        room: str | None = None,
        player: str | None = None,
        by: str | None = None,
        turn: int | None = None,
        cards: CardSource | None = None,
    ) -> int:
        """Log a roll resolved with ``source``; a commit-reveal source gives its nonce, seeds and draws.

        With another source the faces logged are those the outcome shows. ``cards`` give the text
        hashes of the cards the request names; ``by`` is whose request spent the nonce.

        >>> import tempfile, pathlib
        >>> from mtgdice.fair.commit import Room
        >>> from mtgdice.game.request import RollRequest, enter_source, resolve_request
        >>> from mtgdice.rules import ScriptedChooser
        >>> room = Room.open("table")
        >>> source, room = room.next_source()
        >>> request = RollRequest(card=enter_source("", None, text="Roll a d20."))
        >>> outcome = resolve_request(request, None, source, ScriptedChooser())
        >>> with RollLog(pathlib.Path(tempfile.mkdtemp()) / "rolls.sqlite") as log:
        ...     log.get(log.record(request, outcome, source, room="table")).nonce
        0
        """
        record = RollRecord.of(request, outcome, source, room=room, player=player, by=by, turn=turn)
        return self.append(record, cards=cards)

    # -- room state (server side, secret) ---------------------------------------------------------

    def save_room(self, room: Room) -> None:
        """Keep a room's fairness state, secret seed included, and record its commitment.

        The seed is stored only in this server-side database; exports show a seed only once revealed
        (:meth:`record_reveal`). Save after opening, rotating or changing client seeds; the next
        nonce is also derived from the logged rolls when loading, so saving after each roll is not
        needed.
        """
        values = (room.id, room.server_seed.hex(), _dumps(builtins.list(room.client_seeds)),
                  room.next_nonce, room.first_nonce, utc_now(), room.covers, room.chain)  # fmt: skip
        with self._writing() as sql:
            sql.execute(
                "INSERT INTO rooms (room, server_seed, client_seeds, next_nonce, first_nonce, updated, covers, chain) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (room) DO UPDATE SET "
                "server_seed = excluded.server_seed, client_seeds = excluded.client_seeds, "
                "next_nonce = excluded.next_nonce, first_nonce = excluded.first_nonce, updated = excluded.updated, "
                "covers = excluded.covers, chain = excluded.chain",
                values,
            )
            _record_commitment(sql, room)

    def chain_head(self, room: str | None) -> str:
        """The hash of the room's last logged roll (:data:`~mtgdice.fair.GENESIS` when it has none):
        what a room's next commitment covers (``room.logged(log.chain_head(id)).rotate()``)."""
        with self._reading() as sql:
            row = _last_chain(sql, room)
        return str(row[0]) if row is not None else GENESIS

    def load_room(self, room_id: str) -> Room | None:
        """The saved state of a room, or None; its next nonce follows the last roll logged with its seed.

        >>> import tempfile, pathlib
        >>> from mtgdice.fair.commit import Room
        >>> with RollLog(pathlib.Path(tempfile.mkdtemp()) / "rolls.sqlite") as log:
        ...     log.save_room(Room.open("table"))
        ...     log.load_room("table").next_nonce, log.load_room("elsewhere")
        (0, None)
        """
        stored = self.load_room_state(room_id)
        return stored.fair if stored is not None else None

    def create_room(self, fair: Room, state: str) -> int:
        """Store a new room (its fairness state and its state JSON) and record its commitment; its version (1)."""
        values = (fair.id, fair.server_seed.hex(), _dumps(builtins.list(fair.client_seeds)),
                  fair.next_nonce, fair.first_nonce, utc_now(), state, fair.covers, fair.chain)  # fmt: skip
        with self._writing() as sql:
            try:
                sql.execute(
                    "INSERT INTO rooms (room, server_seed, client_seeds, next_nonce, first_nonce, updated, version, "
                    "state, covers, chain) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?)",
                    values,
                )
            except self._UNIQUE_ERRORS:
                raise InputError("room", f"room {fair.id!r} exists already") from None
            _record_commitment(sql, fair)
        return 1

    def delete_empty_rooms(self, before: str, limit: int = 1000) -> builtins.list[str]:
        """Delete up to ``limit`` rooms nothing happened in (no player joined, no roll: still at
        version 1) since before ``before`` (an ISO time), with their unused commitments; their ids."""
        gone: builtins.list[str] = []
        with self._writing() as sql:
            found = sql.execute(
                "SELECT room FROM rooms WHERE version = 1 AND updated < ? LIMIT ?", (before, limit)
            ).fetchall()
            for (room,) in found:
                if sql.execute("SELECT 1 FROM rolls WHERE room = ? LIMIT 1", (room,)).fetchone() is not None:
                    continue  # logged through another path: the room is not empty
                sql.execute("DELETE FROM commitments WHERE room = ? AND seed IS NULL", (room,))
                sql.execute("DELETE FROM rooms WHERE room = ? AND version = 1", (room,))
                gone.append(room)
        return gone

    def load_room_state(self, room_id: str) -> StoredRoom | None:
        """A stored room, or None; its next nonce and its hash chain follow the rolls logged under it
        (saving the room after each roll is not needed)."""
        with self._reading() as sql:
            row = sql.execute(f"SELECT {_ROOM_COLUMNS} FROM rooms WHERE room = ?", (room_id,)).fetchone()
            if row is None:
                return None
            stored = _stored(room_id, row, None)
            last = sql.execute("SELECT max(nonce) FROM rolls WHERE commitment = ?", (stored.fair.commitment,))
            last_nonce = last.fetchone()[0]
            chain = _last_chain(sql, room_id)
        return _stored(room_id, (*row[:7], chain[0] if chain is not None else row[7]), last_nonce)

    def room_version(self, room_id: str) -> int | None:
        """A stored room's version (how many changes it has had), or None."""
        with self._reading() as sql:
            row = sql.execute("SELECT version FROM rooms WHERE room = ?", (room_id,)).fetchone()
        return int(row[0]) if row is not None else None

    def begin_room(self, room_id: str, version: int) -> RoomTransaction:
        """Begin a room's transaction, knowing its state at ``version``.

        Where several processes write (PostgreSQL), this locks the room's row until the commit, so
        the state read here is the latest and the nonces handed out are the room's next ones.
        """
        locked = self._room_lock()
        if locked is None:
            return RoomTransaction(self, room_id, version, None, None)
        held, sql = locked
        try:
            row = sql.execute(f"SELECT {_ROOM_COLUMNS} FROM rooms WHERE room = ? FOR UPDATE", (room_id,)).fetchone()
            if row is None:
                raise LookupError(f"room: no room {room_id[:40]!r} on this server; create one first")
        except BaseException as error:
            held.__exit__(type(error), error, error.__traceback__)
            raise
        fresh = None if row[4] == version else _stored(room_id, row, None)
        return RoomTransaction(self, room_id, version, fresh, held, sql)

    def _commit_room(
        self, txn: RoomTransaction, steps: Sequence[LogEntry | RevealStep], fair: Room, state: str
    ) -> builtins.list[int]:
        if txn._sql is None:
            with self._writing() as sql:
                return self._write_room(sql, txn, steps, fair, state)
        try:
            ids = self._write_room(txn._sql, txn, steps, fair, state)
        except BaseException:
            self._release(txn, failed=True)
            raise
        self._release(txn, failed=False)
        return ids

    def _commit_room_then(
        self, txn: RoomTransaction, steps: Sequence[LogEntry | RevealStep], fair: Room, state: str, then: Committed
    ) -> None:
        try:
            ids = self._commit_room(txn, steps, fair, state)
        except Exception as error:
            then(None, error)
            return
        then(ids, None)

    def _release(self, txn: RoomTransaction, failed: bool) -> None:
        held, txn._held, txn._sql = txn._held, None, None
        if held is not None:
            if failed:
                error = RuntimeError("room transaction aborted")
                held.__exit__(RuntimeError, error, None)
            else:
                held.__exit__(None, None, None)

    def _write_room(
        self, sql: Sql, txn: RoomTransaction, steps: Sequence[LogEntry | RevealStep], fair: Room, state: str
    ) -> builtins.list[int]:
        # The room's own seed is not revealed (the room says so, and its row is ours): a roll under
        # it needs neither the revealed check nor its commitment recorded again. Rolls between
        # reveals go in as one statement (one round trip to PostgreSQL). The batch's rolls must
        # continue the room's hash chain where the log has it.
        ids: builtins.list[int] = []
        rows: builtins.list[tuple[Any, ...]] = []
        now = utc_now()
        last = _last_chain(sql, txn.room)
        head = last[0] if last is not None else GENESIS
        for step in steps:
            if isinstance(step, RevealStep):
                ids += self._insert_rolls(sql, rows)
                rows = []
                _check_chain(txn.room, step.reveal.chain, head)
                self._reveal_in(sql, txn.room, step.reveal.seed, step.reveal.end_nonce, step.reveal.commitment, head)
                _record_commitment(sql, step.then)
            else:
                if step.prev is not None and step.chain is not None:
                    _check_chain(txn.room, step.prev, head)
                    head = step.chain
                rows.append(step.values)
        ids += self._insert_rolls(sql, rows)
        _check_chain(txn.room, fair.chain, head)
        cursor = sql.execute(
            "UPDATE rooms SET server_seed = ?, client_seeds = ?, next_nonce = ?, first_nonce = ?, state = ?, "
            "covers = ?, chain = ?, version = version + 1, updated = ? WHERE room = ? AND version = ?",
            (
                fair.server_seed.hex(),
                _dumps(builtins.list(fair.client_seeds)),
                fair.next_nonce,
                fair.first_nonce,
                state,
                fair.covers,
                fair.chain,
                now,
                txn.room,
                txn.version,
            ),  # fmt: skip
        )
        if cursor.rowcount != 1:
            raise RoomChanged("room", f"room {txn.room!r} was changed by another process; try again")
        return ids

    def record_commitment(
        self, room: str | None, commitment: str, from_nonce: int, digest: str | None = None, covers: str | None = None
    ) -> None:
        """Record a published commitment (before any roll uses it); ``digest`` and ``covers`` are the
        seed's hash and the chain it covers (:func:`mtgdice.fair.commitment`). Recording it again does nothing."""
        commitment = commitment.lower()
        for name, value in (("commitment", commitment), ("seed_hash", digest), ("covers", covers)):
            if value is not None and not _HEX64.match(value):
                raise InputError(name, f"expected 64 hex digits (SHA-256), got {value[:80]!r}")
        with self._writing() as sql:
            sql.execute(_INSERT_COMMITMENT, (room, commitment, from_nonce, utc_now(), digest, covers))

    def record_reveal(self, room: str | None, revealed: Reveal | bytes, to_nonce: int | None = None) -> str:
        """Record a revealed seed (a :class:`~mtgdice.fair.Reveal`, or the seed alone); return the
        commitment it opens.

        ``to_nonce`` ends the seed's nonces (exclusive); by default, the reveal's, else one after
        the last logged roll under it. The room's hash chain as it stands is recorded with it. A seed
        that opens no commitment of the room is an error.
        """
        with self._writing() as sql:
            if isinstance(revealed, Reveal):
                end = revealed.end_nonce if to_nonce is None else to_nonce
                return self._reveal_in(sql, room, revealed.seed, end, revealed.commitment)
            return self._reveal_in(sql, room, revealed, to_nonce)

    def _reveal_in(
        self,
        sql: Sql,
        room: str | None,
        seed: bytes,
        to_nonce: int | None,
        committed: str | None = None,
        chain: str | None = None,
    ) -> str:
        digest = seed_hash(seed)
        if committed is None:  # the commitment whose seed hash this is (or, made before chains, that is the hash)
            found = sql.execute(
                "SELECT commitment FROM commitments WHERE coalesce(room, '') = coalesce(?, '') "
                "AND (seed_hash = ? OR commitment = ?)",
                (room, digest, digest),
            ).fetchone()
            committed = found[0] if found is not None else digest
        row = sql.execute(
            "SELECT from_nonce FROM commitments WHERE coalesce(room, '') = coalesce(?, '') AND commitment = ?",
            (room, committed),
        ).fetchone()
        span = sql.execute(
            "SELECT min(nonce), max(nonce) FROM rolls WHERE coalesce(room, '') = coalesce(?, '') AND commitment = ?",
            (room, committed),
        ).fetchone()
        if row is None and span[0] is None:
            raise InputError("seed", f"the seed opens commitment {committed}, which room {room!r} never used")
        from_nonce = row[0] if row is not None else span[0]
        end = to_nonce if to_nonce is not None else (span[1] + 1 if span[1] is not None else from_nonce)
        if chain is None:
            last = _last_chain(sql, room)
            chain = last[0] if last is not None else GENESIS
        now = utc_now()
        sql.execute(_INSERT_COMMITMENT, (room, committed, from_nonce, now, None, None))
        sql.execute(
            "UPDATE commitments SET seed = ?, to_nonce = ?, revealed_at = ?, chain = ? "
            "WHERE coalesce(room, '') = coalesce(?, '') AND commitment = ?",
            (seed.hex(), end, now, chain, room, committed),
        )
        return committed

    # -- reading ----------------------------------------------------------------------------------

    def _rows(self, sql: str, parameters: Sequence[Any]) -> builtins.list[LoggedRoll]:
        with self._reading() as connection:
            rows = connection.execute(sql, parameters).fetchall()
        return [codec.decode(row) for row in rows]

    def list(self, room: str | None = None, limit: int = 50) -> builtins.list[LoggedRoll]:
        """The latest rolls, newest first (of one room, or of all rooms when ``room`` is None)."""
        if room is None:
            return self._rows(f"SELECT {_ROLL_COLUMNS} FROM rolls ORDER BY id DESC LIMIT ?", (limit,))
        return self._rows(f"SELECT {_ROLL_COLUMNS} FROM rolls WHERE room = ? ORDER BY id DESC LIMIT ?", (room, limit))

    def rolls(self, room: str | None = None, after: int = 0, through: int | None = None) -> Iterator[LoggedRoll]:
        """Every roll with id above ``after`` (and at most ``through``), oldest first (of one room,
        or of all rooms)."""
        batch = 500
        last = (1 << 62) if through is None else through
        while True:
            if room is None:
                rows = self._rows(
                    f"SELECT {_ROLL_COLUMNS} FROM rolls WHERE id > ? AND id <= ? ORDER BY id LIMIT ?",
                    (after, last, batch),
                )
            else:
                rows = self._rows(
                    f"SELECT {_ROLL_COLUMNS} FROM rolls WHERE room = ? AND id > ? AND id <= ? ORDER BY id LIMIT ?",
                    (room, after, last, batch),
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
        with self._reading() as sql:
            rows = sql.execute(
                "SELECT room FROM rolls WHERE room IS NOT NULL"
                " UNION SELECT room FROM commitments WHERE room IS NOT NULL"
            ).fetchall()
        return sorted(row[0] for row in rows)

    _COMMITMENT_ORDER = "from_nonce, rowid"

    def commitments(self, room: str | None = None) -> builtins.list[LoggedCommitment]:
        """The commitments of one room (or all), oldest first."""
        with self._reading() as connection:
            return self._commitments(connection, room)

    def _commitments(self, connection: Sql, room: str | None) -> builtins.list[LoggedCommitment]:
        sql = "SELECT room, commitment, seed, from_nonce, to_nonce, seed_hash, covers, chain FROM commitments"
        parameters: tuple[Any, ...] = ()
        if room is not None:
            sql += " WHERE room = ?"
            parameters = (room,)
        rows = connection.execute(f"{sql} ORDER BY {self._COMMITMENT_ORDER}", parameters).fetchall()
        return [
            LoggedCommitment(
                room=where,
                commitment=committed,
                from_nonce=start,
                seed=bytes.fromhex(seed) if seed is not None else None,
                to_nonce=end,
                seed_hash=digest,
                covers=covers,
                count=None if end is None else end - start,
                chain=chain if seed is not None else None,
            )
            for where, committed, seed, start, end, digest, covers, chain in rows
        ]

    # -- exporting --------------------------------------------------------------------------------

    def export_json(self, room: str | None = None) -> JSONObject:
        """The room log that ``mtgdice verify`` checks (every room when ``room`` is None).

        ``commitments``: each seed's commitment with what it binds (``seed_hash``, ``from_nonce``,
        ``covers``: :func:`mtgdice.fair.commitment`; both null for a commitment made before the log
        had a hash chain, which is the seed's hash alone), and once revealed the seed in hex, its
        nonces ``from_nonce <= nonce < to_nonce``, their ``count`` and the hash ``chain`` had reached
        (else null). ``rolls``: oldest first, each with ``id``, ``nonce``, ``client_seeds``,
        ``commitment``, ``player``, ``by`` (whose request spent the nonce), ``request``, ``outcome``,
        ``faces`` (every face drawn, in order) and ``chain`` (:func:`mtgdice.game.record.roll_hash`).
        """
        head, last = self._export_head(room)
        return {**head, "rolls": [codec.export_roll(roll) for roll in self.rolls(room, through=last)]}

    def export_text(self, room: str | None = None, batch: int = 100) -> Iterator[str]:
        """:meth:`export_json` as JSON text, in pieces of up to ``batch`` rolls (a large log is never
        held whole: a web server streams it).

        >>> import tempfile, pathlib
        >>> with RollLog(pathlib.Path(tempfile.mkdtemp()) / "rolls.sqlite") as log:
        ...     text = "".join(log.export_text("table"))
        >>> json.loads(text)["rolls"], json.loads(text)["format"]
        ([], 'mtgdice-room-log/2')
        """
        snapshot, last = self._export_head(room)
        yield from codec.export_text(snapshot, self.rolls(room, through=last), batch)

    def _export_head(self, room: str | None) -> tuple[JSONObject, int]:
        """The export's head and the id of the last roll it covers, read as one snapshot: rolls are
        appended, never changed, so the rolls up to that id, read later in pieces, are the ones
        the commitments speak of (a reveal or roll during a long export is not half in it)."""
        with self._snapshot() as sql:
            commitments = self._commitments(sql, room)
            if room is None:
                last = sql.execute("SELECT coalesce(max(id), 0) FROM rolls").fetchone()[0]
            else:
                last = sql.execute("SELECT coalesce(max(id), 0) FROM rolls WHERE room = ?", (room,)).fetchone()[0]
        head: JSONObject = {
            "format": EXPORT_FORMAT,
            "room": room,
            "exported": utc_now(),
            "commitments": [codec.commitment_json(entry) for entry in commitments],
        }
        return head, int(last)

    def _snapshot(self) -> AbstractContextManager[Sql]:
        """Several reads that see one state of the log (one process's SQLite: its lock)."""
        return self._reading()

    def export_csv(self, room: str | None, file: IO[str]) -> int:
        """Write the rolls of one room (or all) as CSV, oldest first; return how many rows."""
        return codec.export_csv(self.rolls(room), file)


class RollLog(SqlLog):
    """A roll log in one SQLite file (created with its folders if missing, migrated if older).

    One ``RollLog`` may be shared by threads (a lock serialises it); several processes may share one
    file (SQLite locking, a busy timeout).

    >>> import tempfile, pathlib
    >>> log = RollLog(pathlib.Path(tempfile.mkdtemp()) / "rolls.sqlite")
    >>> from mtgdice.game.record import RollRecord
    >>> from mtgdice.rules.plain import DiceGroup, PlainRoll, roll_plain
    >>> from mtgdice.rules.sources import ScriptedSource
    >>> source, plain = ScriptedSource([4]), PlainRoll((DiceGroup(1, 6),))
    >>> roll_id = log.append(RollRecord.of(plain, roll_plain(plain, source), source))
    >>> log.get(roll_id).faces, [roll.id for roll in log.list()], log.schema_versions()
    (((6, 4),), [1], [1, 2, 3, 4])
    >>> log.close()
    """

    _UNIQUE_ERRORS = (sqlite3.IntegrityError,)
    _UNAVAILABLE_ERRORS = (sqlite3.OperationalError,)  # locked past the busy timeout, disk I/O

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
            self._migrate()
        except (sqlite3.Error, InputError) as error:
            self._connection.close()
            if isinstance(error, InputError):
                raise
            raise InputError("db", f"cannot open the roll log {str(self.path)!r}: {error}") from None
        self._lock = threading.Lock()
        self._waiting: builtins.list[_RoomCommit] = []
        self._waiting_lock = threading.Lock()
        self._writer = False
        """Whether a thread is writing groups of room commits (see :meth:`_commit_room_then`)."""

    def _commit_room(
        self, txn: RoomTransaction, steps: Sequence[LogEntry | RevealStep], fair: Room, state: str
    ) -> builtins.list[int]:
        """:meth:`_commit_room_then`, waited for."""
        committed = threading.Event()
        outcome: builtins.list[tuple[builtins.list[int] | None, Exception | None]] = []

        def then(ids: builtins.list[int] | None, error: Exception | None) -> None:
            outcome.append((ids, error))
            committed.set()

        self._commit_room_then(txn, steps, fair, state, then)
        committed.wait()
        ids, error = outcome[0]
        if error is not None:
            raise error
        assert ids is not None
        return ids

    def _commit_room_then(
        self, txn: RoomTransaction, steps: Sequence[LogEntry | RevealStep], fair: Room, state: str, then: Committed
    ) -> None:
        """Group commit: the rooms' transactions waiting together are written in one SQLite transaction
        (one fsync), each inside a savepoint of its own, so one that fails leaves the others whole.

        The first thread to commit writes; a commit that comes while it writes waits in
        :attr:`_waiting` and its thread goes on (a roll server's worker resolves the next batch).
        When the writing thread is done it calls each unit's ``then`` and writes the units that
        came meanwhile, as one group, until none wait: fsyncs are shared by the rooms whose
        batches finish while one is being written, however few threads resolve them."""
        unit = _RoomCommit(txn, steps, fair, state, then=then)
        with self._waiting_lock:
            self._waiting.append(unit)
            if self._writer:
                return  # the thread writing now writes it with the next group
            self._writer = True
        while True:
            with self._waiting_lock:
                units, self._waiting = self._waiting, []
                if not units:
                    self._writer = False
                    return
            try:
                with self._lock:
                    self._write_group(units)
            except BaseException:  # not an error of the group (those are the units'): hand the writing on
                with self._waiting_lock:
                    self._writer = False
                raise
            finally:
                for done in units:
                    done.finish()

    def _write_group(self, units: Sequence[_RoomCommit]) -> None:
        connection = self._connection
        if len(units) == 1:  # alone: its own transaction, no savepoint needed
            unit = units[0]
            try:
                with self._writing_locked() as sql:
                    unit.ids = self._write_room(sql, unit.txn, unit.steps, unit.fair, unit.state)
            except Exception as error:
                unit.error = error
            finally:
                unit.done = True
            return
        try:
            connection.execute("BEGIN IMMEDIATE")
            try:
                for unit in units:
                    connection.execute("SAVEPOINT room")
                    try:
                        unit.ids = self._write_room(connection, unit.txn, unit.steps, unit.fair, unit.state)
                    except Exception as error:
                        connection.execute("ROLLBACK TO room")
                        unit.error = error
                    connection.execute("RELEASE room")
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise
        except Exception as error:  # the commit itself failed: none of the group is stored
            for unit in units:
                unit.error = unit.error or error
        finally:
            for unit in units:
                unit.done = True

    def _migrate(self) -> None:
        connection = self._connection
        connection.execute("BEGIN IMMEDIATE")
        try:
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise InputError(
                    "db", f"{str(self.path)!r} has log schema {version}; this mtgdice reads {SCHEMA_VERSION}"
                )
            if version < 1:
                for statement in _statements(_SCHEMA_1):
                    connection.execute(statement)
            if version < 2:
                for statement in _statements(_SCHEMA_2):
                    connection.execute(statement)
                now = utc_now()
                connection.execute("INSERT INTO schema_version VALUES (1, ?), (2, ?)", (now, now))
            if version < 3:
                migrate_to_3(connection)
            if version < 4:
                migrate_to_4(connection)
            connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise

    def close(self) -> None:
        with self._lock:
            self._connection.close()

    def __enter__(self) -> RollLog:
        return self

    @contextmanager
    def _reading(self) -> Iterator[Sql]:
        with self._lock:
            yield self._connection

    @contextmanager
    def _writing(self) -> Iterator[Sql]:
        with self._lock, self._writing_locked() as sql:
            yield sql

    @contextmanager
    def _writing_locked(self) -> Iterator[Sql]:
        """A transaction on the connection, its lock already held."""
        self._connection.execute("BEGIN IMMEDIATE")
        try:
            yield self._connection
        except BaseException:
            self._connection.execute("ROLLBACK")
            raise
        self._connection.execute("COMMIT")

    def integrity_check(self) -> str:
        """SQLite's ``PRAGMA integrity_check``: ``"ok"`` for a sound file."""
        with self._lock:
            return str(self._connection.execute("PRAGMA integrity_check").fetchone()[0])


@dataclass(slots=True)
class _RoomCommit:
    txn: RoomTransaction
    steps: Sequence[LogEntry | RevealStep]
    fair: Room
    state: str
    ids: builtins.list[int] = field(default_factory=builtins.list)
    error: Exception | None = None
    done: bool = False
    then: Committed | None = None

    def finish(self) -> None:
        """Tell the committer how it went (once the group's transaction has ended)."""
        if not self.done and self.error is None:  # the group was interrupted before it reached this unit
            self.error = RuntimeError("room transaction aborted")
        if self.then is not None:
            try:
                self.then(None if self.error is not None else self.ids, self.error)
            except Exception:  # the committer is gone (its event loop closed): the others are still told
                logger.exception("a room commit's caller could not be told it is committed")


def open_log(database: str | os.PathLike[str]) -> SqlLog:
    """The log at ``database``: a ``postgresql://`` address, else a SQLite file's path.

    >>> import tempfile, pathlib
    >>> type(open_log(pathlib.Path(tempfile.mkdtemp()) / "rolls.sqlite")).__name__
    'RollLog'
    """
    text = os.fspath(database)
    if isinstance(text, str) and text.startswith(("postgresql://", "postgres://")):
        from mtgdice.log.postgres import PostgresLog

        return PostgresLog(text)
    return RollLog(database)


def _statements(script: str) -> builtins.list[str]:
    return [statement.strip() for statement in script.split(";") if statement.strip()]


_ROLL_COLUMNS_3 = _ROLL_COLUMNS.removesuffix(", seed")
"""A roll's columns in schema 3 (what migrating to 3 reads)."""


def migrate_to_3(sql: Sql) -> None:
    """Schema 3 inside a migration's transaction: the new columns, and the hash chain of the rolls
    already logged (each room's in log order; their commitments stay the seeds' hashes)."""
    for statement in _statements(_SCHEMA_3):
        sql.execute(statement)
    heads: dict[str | None, str] = {}
    after = 0
    while True:
        rows = sql.execute(
            f"SELECT {_ROLL_COLUMNS_3} FROM rolls WHERE commitment IS NOT NULL AND id > ? ORDER BY id LIMIT 1000",
            (after,),
        ).fetchall()
        for row in rows:
            roll = codec.decode((*row, None))  # before schema 4: no seed column
            heads[roll.room] = codec.roll_hash(heads.get(roll.room, GENESIS), codec.export_roll(roll))
            sql.execute("UPDATE rolls SET chain = ? WHERE id = ?", (heads[roll.room], roll.id))
            after = roll.id
        if len(rows) < 1000:
            break
    for room, chain in heads.items():
        sql.execute("UPDATE rooms SET chain = ? WHERE room = ?", (chain, room))
    sql.execute("INSERT INTO schema_version VALUES (3, ?)", (utc_now(),))


def _last_chain(sql: Sql, room: str | None) -> tuple[str] | None:
    """The row of the hash of the room's last chained roll (None: it has none)."""
    found: tuple[str] | None = (
        sql.execute(_LAST_CHAIN_NO_ROOM).fetchone() if room is None else sql.execute(_LAST_CHAIN, (room,)).fetchone()
    )
    return found


def _record_commitment(sql: Sql, room: Room) -> None:
    """Record a room's current commitment, with what it binds (made before chains: the seed's hash alone)."""
    digest = room.seed_hash if room.covers is not None else None
    sql.execute(_INSERT_COMMITMENT, (room.id, room.commitment, room.first_nonce, utc_now(), digest, room.covers))


def _check_chain(room: str, expected: str | None, head: str) -> None:
    if expected != head:
        raise RoomChanged("room", f"room {room!r}: its rolls do not continue the log's hash chain; try again")


def _stored(room_id: str, row: Sequence[Any], last_nonce: int | None) -> StoredRoom:
    """A room from its row (the columns ``_ROOM_COLUMNS``); ``last_nonce``: the last logged under its seed."""
    seed, seeds, next_nonce, first_nonce, version, state, covers, chain = row
    if last_nonce is not None:
        next_nonce = max(next_nonce, last_nonce + 1)
    fair = Room(
        room_id, bytes.fromhex(seed), tuple(json.loads(seeds)), next_nonce, first_nonce, covers, chain or GENESIS
    )
    return StoredRoom(fair, state, version)


def migrate_to_4(sql: Sql) -> None:
    """Schema 4 inside a migration's transaction: each roll's seed (NULL for the rolls already logged)."""
    sql.execute(SCHEMA_4)
    sql.execute("INSERT INTO schema_version VALUES (4, ?)", (utc_now(),))
