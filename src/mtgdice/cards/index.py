"""The local card index: every card that mentions dice, in one SQLite file, with its compiled form.

:func:`import_bulk` streams a Scryfall bulk file (``oracle_cards``, ``default_cards`` or ``all_cards``)
and keeps the cards whose text mentions dice (:func:`mtgdice.text.mentions_dice`) plus every plane
and phenomenon (their chaos abilities answer the planar die, CR 901.9). Reprints collapse to one row
per Oracle ID and text; non-English printings keep their printed words in the ``printed`` table so
they can be compiled later. The index is built in a temporary file next to the target and moved
into place at the end, so a failed or interrupted import leaves the previous index as it was.

:func:`search` finds cards by name or by dice features read from the compiled form
(``d20``, ``table``, ``roll again``, ``planar``, ``stored``, ``reroll``, ``ignore``, ``choose``).

Left out: the roll log (a separate database), and any card without dice.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)

from mtgdice.cards.scryfall import BulkFile, CardRecord, Face, ScryfallCard, fold_name, record_from_json
from mtgdice.errors import InputError

__all__ = [
    "FEATURES",
    "ImportStats",
    "IndexedCard",
    "default_index_path",
    "dice_features",
    "import_bulk",
    "read_records",
    "search",
]

SCHEMA_VERSION = "1"
FEATURES = ("table", "roll again", "planar", "stored", "reroll", "ignore", "choose")
"""Feature words :func:`search` understands, besides ``dN`` (a die with N sides)."""

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE cards (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    folded_name TEXT NOT NULL,
    oracle_id TEXT,
    layout TEXT NOT NULL,
    type_line TEXT NOT NULL,
    set_code TEXT NOT NULL,
    lang TEXT NOT NULL,
    oracle_text TEXT NOT NULL,
    faces TEXT NOT NULL,
    printed_name TEXT,
    printed_text TEXT,
    compiled TEXT,
    compile_error TEXT
);
CREATE TABLE features (card_id INTEGER NOT NULL REFERENCES cards(id), feature TEXT NOT NULL);
CREATE TABLE printed (
    oracle_id TEXT NOT NULL,
    lang TEXT NOT NULL,
    printed_name TEXT,
    printed_text TEXT NOT NULL,
    UNIQUE (oracle_id, lang, printed_text)
);
"""
_INDEXES = """
CREATE INDEX cards_by_folded_name ON cards (folded_name);
CREATE INDEX cards_by_oracle_id ON cards (oracle_id);
CREATE INDEX features_by_feature ON features (feature, card_id);
"""

# Words in the compiled form (keys and string values) that mark a feature; see dice_features.
_FEATURE_MARKS = (
    ("reroll", "reroll"),
    ("store", "stored"),
    ("ignore", "ignore"),
    ("choose", "choose"),
    ("choice", "choose"),
    ("roll again", "roll again"),
    ("repeat", "roll again"),
    ("planar", "planar"),
    ("chaos", "planar"),
    ("table", "table"),
)
# Free text (the card's own sentences) is not read: only the compiled structure marks features.
_SKIPPED_KEYS = frozenset({"name", "unsupported", "notes", "text", "effect", "note"})
_QUERY_FEATURE = re.compile(r"\b(d\d+|dx|roll again|" + "|".join(FEATURES) + r")\b")
_QUERY_GLUE = re.compile(r"[\s,+&]+|\band\b")
_PROGRESS_EVERY = 512


def default_index_path() -> Path:
    """Where the index lives: ``$MTGDICE_INDEX``, else ``$XDG_DATA_HOME/mtgdice/cards.sqlite``.

    >>> from unittest import mock
    >>> with mock.patch.dict("os.environ", {"MTGDICE_INDEX": "/srv/cards.sqlite"}):
    ...     str(default_index_path())
    '/srv/cards.sqlite'
    >>> with mock.patch.dict("os.environ", {"MTGDICE_INDEX": "", "XDG_DATA_HOME": "/data"}):
    ...     str(default_index_path())
    '/data/mtgdice/cards.sqlite'
    """
    explicit = os.environ.get("MTGDICE_INDEX")
    if explicit:
        return Path(explicit).expanduser()
    data_home = os.environ.get("XDG_DATA_HOME", "")
    base = Path(data_home) if os.path.isabs(data_home) else Path.home() / ".local" / "share"
    return base / "mtgdice" / "cards.sqlite"


def dice_features(compiled: Mapping[str, Any] | None, layout: str = "normal") -> tuple[str, ...]:
    """The searchable dice features of a card, from its compiled form and layout, sorted.

    Every die's ``sides`` gives ``dN``; a key or string value that is present and not empty/false
    marks a feature when it contains one of the feature's words (``ignore_lowest: 1`` is
    ``ignore``; ``table: null`` is nothing). Free text (``text``, ``effect``, ``note``, ``notes``,
    ``unsupported``) is not read.

    >>> dice_features({"rolls": [{"count": 1, "sides": 20, "table": [[1, 9], [10, 20]],
    ...                           "roll_again": False, "ignore_lowest": 0}], "effects": []})
    ('d20', 'table')
    >>> dice_features({"rolls": [], "effects": []}, layout="planar")
    ('planar',)
    """
    found: set[str] = {"planar"} if layout == "planar" else set()
    if compiled is not None:
        _collect_features({key: value for key, value in compiled.items() if key not in _SKIPPED_KEYS}, found)
    return tuple(sorted(found))


def _mark(text: str, found: set[str]) -> None:
    words = text.lower().replace("_", " ")
    for mark, feature in _FEATURE_MARKS:
        if mark in words:
            found.add(feature)


def _collect_features(value: object, found: set[str]) -> None:
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key in _SKIPPED_KEYS or item is None or item is False or item == 0 or item == [] or item == "":
                continue
            if key == "sides":
                if isinstance(item, int) and not isinstance(item, bool):
                    found.add(f"d{item}")
                elif isinstance(item, str):
                    found.add("planar" if item == "planar" else f"d{item.lower()}")
                continue
            _mark(str(key), found)
            _collect_features(item, found)
    elif isinstance(value, list | tuple):
        for item in value:
            _collect_features(item, found)
    elif isinstance(value, str):
        _mark(value, found)


@dataclass(frozen=True, slots=True)
class ImportStats:
    """What one :func:`import_bulk` did."""

    source: str
    db_path: str
    cards_seen: int
    cards_indexed: int
    printed_rows: int
    compile_errors: int
    seconds: float


@dataclass(frozen=True, slots=True)
class IndexedCard:
    """One row of the index: the card, its features and its compiled form (JSON text)."""

    name: str
    oracle_id: str | None
    layout: str
    type_line: str
    set: str
    lang: str
    oracle_text: str
    faces: tuple[Face, ...]
    printed_name: str | None
    printed_text: str | None
    features: tuple[str, ...]
    compiled_json: str | None
    compile_error: str | None

    def to_record(self) -> CardRecord:
        """The card as a :class:`~mtgdice.cards.scryfall.CardRecord` (for a catalog)."""
        return CardRecord(
            name=self.name,
            oracle_text=self.oracle_text,
            layout=self.layout,
            type_line=self.type_line,
            lang=self.lang,
            set=self.set,
            printed_name=self.printed_name,
            printed_text=self.printed_text,
            oracle_id=self.oracle_id,
            faces=self.faces,
        )


def _faces_json(faces: Sequence[Face]) -> str:
    return json.dumps(
        [
            {
                "name": face.name,
                "oracle_text": face.oracle_text,
                "type_line": face.type_line,
                "mana_cost": face.mana_cost,
            }
            for face in faces
        ],
        ensure_ascii=False,
    )


def _faces_from_json(text: str) -> tuple[Face, ...]:
    return tuple(Face(**face) for face in json.loads(text))


@contextmanager
def byte_progress(description: str, total: int | None, enabled: bool) -> Iterator[Callable[[int, int | None], None]]:
    """A rich progress bar on stderr measured in bytes; yields ``advance_to(bytes_done, total)``
    (``total`` ``None`` keeps the total as it is).

    Shown only when stderr is a terminal, so logs and pipes get no bar.
    """
    console = Console(stderr=True)
    if not enabled or not console.is_terminal:

        def ignore(done: int, total: int | None) -> None:
            pass

        yield ignore
        return
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(description, total=total)

        def advance_to(done: int, total: int | None) -> None:
            bar.update(task, completed=done, total=total)

        yield advance_to


def _compile(compile_text: Callable[..., Any], record: CardRecord) -> tuple[str | None, str | None, tuple[str, ...]]:
    from mtgdice.io.compiled import card_json

    try:
        compiled = card_json(
            compile_text(record.oracle_text, name=record.name, layout=record.layout, type_line=record.type_line)
        )
    except Exception as error:  # noqa: BLE001 - one bad card must not sink a whole import; kept per row.
        lines = str(error).strip().splitlines()
        message = f"{type(error).__name__}: {lines[0] if lines else ''}".rstrip(": ")
        return None, message, dice_features(None, record.layout)
    return json.dumps(compiled, ensure_ascii=False), None, dice_features(compiled, record.layout)


class _Builder:
    """Fills a fresh index database from card objects, deduplicating reprints."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        from mtgdice.text import compile_text, mentions_dice

        self._mentions_dice = mentions_dice
        self._compile_text = compile_text
        self._db = connection
        self._rows: dict[tuple[str, str], tuple[int, str]] = {}
        self.cards_seen = 0
        self.printed_rows = 0
        self.compile_errors = 0
        self._db.executescript(_SCHEMA)

    @property
    def cards_indexed(self) -> int:
        return len(self._rows)

    def add(self, obj: ScryfallCard) -> None:
        self.cards_seen += 1
        record = record_from_json(obj)
        if record.layout != "planar" and not self._mentions_dice(record.oracle_text):
            return
        if record.lang != "en" and record.printed_text:
            inserted = self._db.execute(
                "INSERT OR IGNORE INTO printed VALUES (?, ?, ?, ?)",
                (record.oracle_id or record.name, record.lang, record.printed_name, record.printed_text),
            )
            self.printed_rows += inserted.rowcount
        key = (record.oracle_id or record.name, record.oracle_text)
        existing = self._rows.get(key)
        if existing is None:
            self._insert(key, record)
        elif existing[1] != "en" and record.lang == "en":
            self._db.execute(
                "UPDATE cards SET lang = ?, set_code = ?, printed_name = NULL, printed_text = NULL WHERE id = ?",
                (record.lang, record.set, existing[0]),
            )
            self._rows[key] = (existing[0], record.lang)

    def _insert(self, key: tuple[str, str], record: CardRecord) -> None:
        compiled, error, features = _compile(self._compile_text, record)
        self.compile_errors += error is not None
        cursor = self._db.execute(
            "INSERT INTO cards (name, folded_name, oracle_id, layout, type_line, set_code, lang, "
            "oracle_text, faces, printed_name, printed_text, compiled, compile_error) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                record.name,
                fold_name(record.name),
                record.oracle_id,
                record.layout,
                record.type_line,
                record.set,
                record.lang,
                record.oracle_text,
                _faces_json(record.faces),
                record.printed_name,
                record.printed_text,
                compiled,
                error,
            ),
        )
        card_id = cursor.lastrowid
        assert card_id is not None
        self._db.executemany("INSERT INTO features VALUES (?, ?)", [(card_id, feature) for feature in features])
        self._rows[key] = (card_id, record.lang)

    def finish(self, source: str, extra: Mapping[str, str]) -> None:
        self._db.executescript(_INDEXES)
        meta = {
            "source": source,
            **extra,
            "schema": SCHEMA_VERSION,
            "imported_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "cards_seen": str(self.cards_seen),
            "cards_indexed": str(self.cards_indexed),
            "printed_rows": str(self.printed_rows),
            "compile_errors": str(self.compile_errors),
        }
        self._db.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())


def _fsync(path: Path, directory: bool = False) -> None:
    flags = os.O_RDONLY | (getattr(os, "O_DIRECTORY", 0) if directory else 0)
    try:
        descriptor = os.open(path, flags)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def import_bulk(
    path: str | os.PathLike[str],
    db_path: str | os.PathLike[str] | None = None,
    progress: bool = True,
    *,
    expected_size: int | None = None,
    meta: Mapping[str, str] | None = None,
) -> ImportStats:
    """Build the index at ``db_path`` (default :func:`default_index_path`) from a bulk file.

    The previous index is replaced only when the whole file has been read without error and,
    if ``expected_size`` is given, its JSON (after decompression) has exactly that many bytes.
    ``meta`` adds entries to the index's ``meta`` table (the download records its source there).
    Raises :class:`~mtgdice.errors.InputError` for a bad file or an unwritable target.

    >>> import json, pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     bulk = pathlib.Path(folder, "bulk.json")
    ...     _ = bulk.write_text(json.dumps([{"name": "A", "oracle_text": "Roll a d6."},
    ...                                     {"name": "B", "oracle_text": "Flying"}]))
    ...     stats = import_bulk(bulk, pathlib.Path(folder, "cards.sqlite"), progress=False)
    >>> stats.cards_seen, stats.cards_indexed
    (2, 1)
    """
    started = time.perf_counter()
    target = Path(db_path).expanduser() if db_path is not None else default_index_path()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as error:
        raise InputError(str(target), f"cannot write the card index here ({error.strerror})") from None
    os.close(handle)
    temp = Path(temp_name)
    try:
        with BulkFile(path) as bulk, byte_progress("importing", bulk.size, progress) as advance_to:
            connection = sqlite3.connect(temp, isolation_level="DEFERRED")
            try:
                # A throwaway file until the rename below: no journal needed, fsync once at the end.
                connection.execute("PRAGMA journal_mode = OFF")
                connection.execute("PRAGMA synchronous = OFF")
                builder = _Builder(connection)
                for obj in bulk.objects():
                    try:
                        builder.add(obj)
                    except InputError:
                        raise bulk.error(f"item {builder.cards_seen - 1} has no 'name'") from None
                    if builder.cards_seen % _PROGRESS_EVERY == 0:
                        advance_to(bulk.bytes_read, None)
                advance_to(bulk.bytes_read, None)
                if expected_size is not None and bulk.content_bytes != expected_size:
                    raise bulk.error(
                        f"has {bulk.content_bytes:,} bytes of JSON, expected {expected_size:,}: truncated or corrupt"
                    )
                builder.finish(str(path), meta or {})
                connection.commit()
            finally:
                connection.close()
        _fsync(temp)
        os.replace(temp, target)
        _fsync(target.parent, directory=True)
    except sqlite3.Error as error:
        raise InputError(str(target), f"cannot write the card index ({error})") from None
    except OSError as error:
        raise InputError(str(target), f"import failed ({error.strerror or error})") from None
    finally:
        temp.unlink(missing_ok=True)
    return ImportStats(
        source=str(path),
        db_path=str(target),
        cards_seen=builder.cards_seen,
        cards_indexed=builder.cards_indexed,
        printed_rows=builder.printed_rows,
        compile_errors=builder.compile_errors,
        seconds=time.perf_counter() - started,
    )


@contextmanager
def open_index(db_path: str | os.PathLike[str] | None = None) -> Iterator[sqlite3.Connection]:
    """A read-only connection to an existing index; a missing or foreign file is an InputError."""
    path = Path(db_path).expanduser() if db_path is not None else default_index_path()
    if not path.is_file():
        raise InputError(str(path), "no card index here; run 'mtgdice cards import FILE' or 'mtgdice cards download'")
    connection = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)
    try:
        try:
            row = connection.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        except sqlite3.DatabaseError:
            row = None
        if row is None:
            raise InputError(str(path), "not an mtgdice card index; rebuild it with 'mtgdice cards import FILE'")
        if row[0] != SCHEMA_VERSION:
            raise InputError(
                str(path),
                f"card index format {row[0]} is not {SCHEMA_VERSION}; rebuild it with 'cards import'",
            )
        yield connection
    finally:
        connection.close()


def index_meta(db_path: str | os.PathLike[str] | None = None) -> dict[str, str]:
    """The index's ``meta`` table (source, imported_at, counts, ...)."""
    with open_index(db_path) as connection:
        return {str(key): str(value) for key, value in connection.execute("SELECT key, value FROM meta")}


_CARD_COLUMNS = (
    "id, name, oracle_id, layout, type_line, set_code, lang, oracle_text, faces, printed_name, "
    "printed_text, compiled, compile_error"
)


def _cards(connection: sqlite3.Connection, where: str = "", parameters: Sequence[object] = ()) -> list[IndexedCard]:
    rows = connection.execute(
        f"SELECT {_CARD_COLUMNS} FROM cards {where} ORDER BY folded_name, id", parameters
    ).fetchall()
    features: dict[int, list[str]] = {}
    for card_id, feature in connection.execute("SELECT card_id, feature FROM features ORDER BY feature"):
        features.setdefault(card_id, []).append(feature)
    return [
        IndexedCard(
            name=row[1],
            oracle_id=row[2],
            layout=row[3],
            type_line=row[4],
            set=row[5],
            lang=row[6],
            oracle_text=row[7],
            faces=_faces_from_json(row[8]),
            printed_name=row[9],
            printed_text=row[10],
            features=tuple(features.get(row[0], ())),
            compiled_json=row[11],
            compile_error=row[12],
        )
        for row in rows
    ]


def read_records(db_path: str | os.PathLike[str] | None = None) -> list[CardRecord]:
    """Every card in the index as a :class:`~mtgdice.cards.scryfall.CardRecord`."""
    with open_index(db_path) as connection:
        return [card.to_record() for card in _cards(connection)]


def parse_query(query: str) -> tuple[str, ...] | None:
    """The features a query asks for, or ``None`` when it is a name to search for.

    >>> parse_query("d20 table"), parse_query("Roll Again"), parse_query("goblin")
    (('d20', 'table'), ('roll again',), None)
    """
    folded = fold_name(query)
    features = tuple(dict.fromkeys(_QUERY_FEATURE.findall(folded)))
    rest = _QUERY_GLUE.sub("", _QUERY_FEATURE.sub("", folded))
    return features if features and not rest else None


def search(db: str | os.PathLike[str] | None, query: str) -> list[IndexedCard]:
    """Cards of the index whose folded name contains ``query``, or that have all the dice features
    the query names (``d20``, ``d6 table``, ``roll again``, ``planar``, ...), sorted by name.

    An empty query lists every card.

    >>> import json, pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     bulk, db = pathlib.Path(folder, "bulk.json"), pathlib.Path(folder, "cards.sqlite")
    ...     _ = bulk.write_text(json.dumps([{"name": "Dice Goblin", "oracle_text": "Roll a d6."}]))
    ...     _ = import_bulk(bulk, db, progress=False)
    ...     [card.name for card in search(db, "d6")], search(db, "GOBLIN")[0].features
    (['Dice Goblin'], ('d6',))
    """
    features = parse_query(query)
    with open_index(db) as connection:
        if features is not None:
            marks = ", ".join("?" for _ in features)
            return _cards(
                connection,
                f"WHERE id IN (SELECT card_id FROM features WHERE feature IN ({marks}) "
                "GROUP BY card_id HAVING COUNT(DISTINCT feature) = ?)",
                (*features, len(features)),
            )
        return _cards(connection, "WHERE instr(folded_name, ?) > 0", (fold_name(query),))


def printed_texts(name: str, lang: str, db_path: str | os.PathLike[str] | None = None) -> list[tuple[str | None, str]]:
    """The printed name and text of a card in one language, as imported from ``all_cards``.

    ``name`` is the card's Oracle name (case and accents ignored); an empty list means no printing
    in that language was imported.
    """
    with open_index(db_path) as connection:
        row = connection.execute(
            "SELECT oracle_id, name FROM cards WHERE folded_name = ? ORDER BY id", (fold_name(name),)
        ).fetchone()
        if row is None:
            raise InputError("card", f"no card named {name!r} in the card index")
        printed = connection.execute(
            "SELECT printed_name, printed_text FROM printed WHERE oracle_id = ? AND lang = ? ORDER BY rowid",
            (row[0] or row[1], lang),
        ).fetchall()
    return [(printed_name, text) for printed_name, text in printed]
