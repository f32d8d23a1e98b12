"""The roll log and the rooms in PostgreSQL (psycopg 3), for several workers on one database.

:class:`PostgresLog` runs :class:`~mtgdice.log.store.SqlLog`'s queries on a small pool of
connections. It differs from SQLite where several processes write at once: a room's transaction
locks the room's row (``SELECT ... FOR UPDATE``) before the worker reads the room and hands out its
next nonce, so two workers never give out the same nonce and a room's rolls reach the log in nonce
order; the unique index on (commitment, nonce) refuses a second roll with a nonce all the same.
The schema is created or migrated at start under an advisory lock (workers starting together do it
once); ``schema_version`` lists the versions applied. Rolls, requests and outcomes are kept as the
same JSON text the SQLite log keeps (not ``jsonb``), so a row holds exactly the bytes written.

What this module leaves out: the queries (``store``), and installing or running PostgreSQL.
"""

from __future__ import annotations

import queue
import re
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from mtgdice.errors import InputError, StorageUnavailable
from mtgdice.game.record import utc_now
from mtgdice.log.store import SCHEMA_VERSION, Cursor, RoleCheck, Sql, SqlLog, migrate_to_3, migrate_to_4

POOL_SIZE = 8
"""Connections one process keeps at most (rooms' transactions and reads wait for a free one)."""
CONNECT_TIMEOUT_S = 5
SLOT_TIMEOUT_S = 10
"""How long a request waits for a free connection before it is told the database is busy."""
CHECK_IDLE_S = 2.0
"""A connection idle longer than this is checked (``SELECT 1``) before it is used again."""
_MIGRATION_LOCK = 0x6D74_6764  # pg_advisory_xact_lock key: "mtgd"

_SCHEMA_2 = """
CREATE TABLE rolls (
    id BIGSERIAL PRIMARY KEY,
    room TEXT,
    time TEXT NOT NULL,
    player TEXT,
    source TEXT NOT NULL,
    card TEXT,
    "row" INTEGER,
    commitment TEXT,
    client_seeds TEXT NOT NULL,
    nonce BIGINT,
    faces TEXT NOT NULL,
    request TEXT NOT NULL,
    outcome TEXT NOT NULL,
    turn INTEGER
);
CREATE INDEX rolls_by_room ON rolls (room, id);
CREATE UNIQUE INDEX rolls_by_nonce ON rolls (commitment, nonce) WHERE commitment IS NOT NULL;
CREATE TABLE commitments (
    id BIGSERIAL PRIMARY KEY,
    room TEXT,
    commitment TEXT NOT NULL,
    seed TEXT,
    from_nonce BIGINT NOT NULL,
    to_nonce BIGINT,
    committed_at TEXT NOT NULL,
    revealed_at TEXT
);
CREATE UNIQUE INDEX commitments_by_room ON commitments (coalesce(room, ''), commitment);
CREATE TABLE rooms (
    room TEXT PRIMARY KEY,
    server_seed TEXT NOT NULL,
    client_seeds TEXT NOT NULL,
    next_nonce BIGINT NOT NULL,
    first_nonce BIGINT NOT NULL,
    updated TEXT NOT NULL,
    version BIGINT NOT NULL DEFAULT 0,
    state TEXT
)
"""
_PASSWORD = re.compile(r"(://[^:/@]*:)[^@]*@")


def redacted(dsn: str) -> str:
    """A connection address without its password, for messages.

    >>> redacted("postgresql://mtgdice:secret@127.0.0.1:5432/rooms")
    'postgresql://mtgdice:***@127.0.0.1:5432/rooms'
    """
    return _PASSWORD.sub(r"\1***@", dsn)


class _Pg:
    """A psycopg connection that takes ``?`` placeholders (the queries are written once for both engines)."""

    _converted: dict[str, str] = {}

    def __init__(self, connection: Any) -> None:
        self.connection = connection

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Cursor:
        converted = self._converted.get(sql)
        if converted is None:
            converted = self._converted[sql] = sql.replace("?", "%s")
        cursor: Cursor = self.connection.execute(converted, parameters)
        return cursor


class PostgresLog(SqlLog):
    """The log and rooms in the PostgreSQL database at ``dsn`` (``postgresql://user@host:port/name``)."""

    _COMMITMENT_ORDER = "from_nonce, id"
    shared = True

    def __init__(self, dsn: str, pool_size: int = POOL_SIZE) -> None:
        try:
            import psycopg
        except ImportError:
            raise InputError(
                "database", "PostgreSQL needs psycopg: pip install 'mtgdice[web]' (psycopg[binary])"
            ) from None
        self._psycopg = psycopg
        self._UNIQUE_ERRORS = (psycopg.errors.UniqueViolation,)
        self._UNAVAILABLE_ERRORS = (psycopg.OperationalError, psycopg.InterfaceError)
        self.dsn = dsn
        self.path = redacted(dsn)
        self._idle: queue.LifoQueue[tuple[Any, int, float]] = queue.LifoQueue()
        self._generation = 0
        """Counts connection failures: a connection made before the last one is not reused."""
        self._slots = threading.BoundedSemaphore(pool_size)
        self._closed = False
        self._migrate()

    def _connect(self) -> Any:
        try:
            return self._psycopg.connect(self.dsn, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)
        except self._psycopg.Error as error:
            self._lost()
            message = " ".join(str(error).split())[:300]
            raise StorageUnavailable(f"database: cannot connect to {self.path} now: {message}") from None

    def _lost(self) -> None:
        """A connection failed: every idle one (made before) is closed, so recovery starts at the next connect."""
        self._generation += 1
        while True:
            try:
                self._idle.get_nowait()[0].close()
            except queue.Empty:
                return

    def _idle_connection(self) -> tuple[Any, int] | None:
        """A reusable idle connection of the current generation (checked if idle a while), or None."""
        while True:
            try:
                connection, generation, since = self._idle.get_nowait()
            except queue.Empty:
                return None
            if generation == self._generation and not connection.broken and not connection.closed:
                if time.monotonic() - since < CHECK_IDLE_S:
                    return connection, generation
                try:
                    connection.execute("SELECT 1")
                    return connection, generation
                except self._psycopg.Error:
                    pass
            connection.close()

    @contextmanager
    def _pooled(self) -> Iterator[Any]:
        if self._closed:
            raise InputError("database", f"the connection to {self.path} is closed")
        if not self._slots.acquire(timeout=SLOT_TIMEOUT_S):
            raise StorageUnavailable(f"database: no free connection to {self.path} within {SLOT_TIMEOUT_S} s")
        connection = None
        try:
            idle = self._idle_connection()
            connection, generation = idle if idle is not None else (self._connect(), self._generation)
            try:
                yield connection
            except self._UNAVAILABLE_ERRORS as error:
                self._lost()
                message = " ".join(str(error).split())[:300]
                raise StorageUnavailable(f"database: {self.path} did not answer: {message}") from error
        finally:
            if connection is not None:
                if connection.broken or connection.closed or self._closed or generation != self._generation:
                    connection.close()
                else:
                    self._idle.put((connection, generation, time.monotonic()))
            self._slots.release()

    @contextmanager
    def _reading(self) -> Iterator[Sql]:
        with self._pooled() as connection:
            yield _Pg(connection)

    @contextmanager
    def _snapshot(self) -> Iterator[Sql]:
        # One REPEATABLE READ transaction: every statement in it sees the same committed state.
        with self._pooled() as connection, connection.transaction():
            connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            yield _Pg(connection)

    @contextmanager
    def _writing(self) -> Iterator[Sql]:
        with self._pooled() as connection, connection.transaction():
            yield _Pg(connection)

    def _room_lock(self) -> tuple[AbstractContextManager[Sql], Sql]:
        held = self._writing()
        return held, held.__enter__()

    def _migrate(self) -> None:
        try:
            self._migrate_now()
        except self._psycopg.errors.InsufficientPrivilege as error:
            message = " ".join(str(error).split())[:200]
            raise InputError(
                "database",
                f"the role may not create or migrate the schema in {self.path} ({message}); "
                "run mtgdice db init as the database's owner first",
            ) from None

    def _migrate_now(self) -> None:
        with self._writing() as sql:
            sql.execute(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")
            if not sql.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()[0]:
                sql.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
            current = sql.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()[0]
            if current > SCHEMA_VERSION:
                raise InputError("database", f"{self.path} has schema {current}; this mtgdice reads {SCHEMA_VERSION}")
            if current < 2:
                for statement in _SCHEMA_2.split(";"):
                    sql.execute(statement.strip())
                sql.execute("INSERT INTO schema_version VALUES (2, ?)", (utc_now(),))
            if current < 3:
                migrate_to_3(sql)
            if current < 4:
                migrate_to_4(sql)

    def role_checks(self, workers: int = 1) -> list[RoleCheck]:
        """The schema, then what the role may do: use each table and sequence, make the connections
        ``workers`` workers keep (:data:`POOL_SIZE` each), and whether it is more powerful than it needs."""
        checks = super().role_checks(workers)
        with self._reading() as sql:
            role, superuser, limit = sql.execute(
                "SELECT current_user, rolsuper, rolconnlimit FROM pg_roles WHERE rolname = current_user"
            ).fetchone()
            for table in ("rolls", "commitments", "rooms", "schema_version"):
                missing = [
                    right
                    for right in ("SELECT", "INSERT", "UPDATE", "DELETE")  # has_table_privilege: any of a list
                    if not sql.execute("SELECT has_table_privilege(?, ?)", (table, right)).fetchone()[0]
                ]
                lacks = f" (it may not {', '.join(right.lower() for right in missing)})" if missing else ""
                checks.append(
                    RoleCheck(f"role {role} may read, insert, update and delete in {table}{lacks}", not missing)
                )
            for sequence in ("rolls_id_seq", "commitments_id_seq"):
                allowed = sql.execute("SELECT has_sequence_privilege(?, 'USAGE')", (sequence,)).fetchone()[0]
                checks.append(RoleCheck(f"role {role} may use the sequence {sequence}", bool(allowed)))
            server_limit = int(sql.execute("SHOW max_connections").fetchone()[0])
            needed = workers * POOL_SIZE
            role_limit = server_limit if limit is None or limit < 0 else min(limit, server_limit)
            checks.append(
                RoleCheck(
                    f"{workers} workers keep up to {needed} connections; the role may open {role_limit}",
                    needed <= role_limit,
                )
            )
            if superuser:
                checks.append(RoleCheck(f"role {role} is a superuser (it works; a plain owner role is enough)", True))
        return checks

    def close(self) -> None:
        self._closed = True
        while True:
            try:
                self._idle.get_nowait()[0].close()
            except queue.Empty:
                return

    def integrity_check(self) -> str:
        """PostgreSQL's amcheck on the log's tables and indexes: ``"ok"``, or what it found.

        Needs the ``amcheck`` extension (part of PostgreSQL) and the right to create it.
        """
        with self._reading() as sql:
            sql.execute("CREATE EXTENSION IF NOT EXISTS amcheck")
            problems: list[str] = []
            for table in ("rolls", "commitments", "rooms", "schema_version"):
                found = sql.execute("SELECT blkno, offnum, msg FROM verify_heapam(?::regclass)", (table,)).fetchall()
                for row in found:
                    problems.append(f"{table} block {row[0]} item {row[1]}: {row[2]}")
            indexes = sql.execute(
                "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                "JOIN pg_class t ON t.oid = i.indrelid WHERE t.relname IN ('rolls', 'commitments', 'rooms', "
                "'schema_version')"
            ).fetchall()
            for (index,) in indexes:
                sql.execute("SELECT bt_index_check(?::regclass, true)", (index,))
        return "ok" if not problems else "; ".join(problems[:10])
