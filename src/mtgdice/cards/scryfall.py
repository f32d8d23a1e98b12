"""Scryfall card objects as :class:`CardRecord` values, streamed from a bulk file.

A Scryfall bulk file (``oracle_cards``, ``default_cards``, ``all_cards``, or a small file in the same
shape) is one top-level JSON array of card objects, plain or gzip-compressed (recognised by its
magic bytes, whatever the file is called). :class:`BulkFile` streams it with ijson so only one card
object is in memory at a time; every problem with the file becomes a one-line
:class:`~mtgdice.errors.InputError` that names the file.

:func:`fold_name` is the one definition of "the same name" used by the catalog and the index.

Left out: everything about a card that does not touch its rules text (prices, images, legalities),
and the rules text's meaning, which belongs to :mod:`mtgdice.text`.
"""

from __future__ import annotations

import gzip
import io
import os
import unicodedata
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Literal, Protocol, TypedDict

import ijson  # type: ignore[import-untyped]

from mtgdice.errors import InputError

__all__ = [
    "BulkFile",
    "CardRecord",
    "Face",
    "fold_name",
    "iter_records",
    "record_from_json",
]

_GZIP_MAGIC = b"\x1f\x8b"
_WHITESPACE = b" \t\r\n"
_BOM = b"\xef\xbb\xbf"

_FOLD_TABLE = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u00b4": "'",
        "`": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u2033": '"',
        "\u00e6": "ae",
        "\u00c6": "ae",
    }
)


def fold_name(name: str) -> str:
    """A card name reduced for matching: case, accents, quote styles and extra spaces removed.

    >>> fold_name("  D\u00fbn\u2019s   EMBER Lamp ")
    "dun's ember lamp"
    >>> fold_name("\u00c6ther Kettle") == fold_name("aether kettle")
    True
    """
    decomposed = unicodedata.normalize("NFKD", name.translate(_FOLD_TABLE))
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(bare.casefold().split())


@dataclass(frozen=True, slots=True)
class Face:
    """One face of a multi-face card (split, adventure, transform, modal DFC, ...)."""

    name: str
    oracle_text: str
    type_line: str = ""
    mana_cost: str = ""
    printed_name: str | None = None
    printed_text: str | None = None


@dataclass(frozen=True, slots=True)
class CardRecord:
    """The rules-relevant part of one Scryfall card object.

    ``oracle_text`` is the whole card's text; for a multi-face card it is the faces' texts joined
    by newlines, and ``faces`` keeps them apart. ``printed_name``/``printed_text`` are the printing's
    own words on non-English printings (``None`` otherwise).

    >>> record = record_from_json({"name": "Test Card", "oracle_text": "Roll a d6."})
    >>> record.name, record.oracle_text, record.layout, record.lang, record.faces
    ('Test Card', 'Roll a d6.', 'normal', 'en', ())
    """

    name: str
    oracle_text: str
    layout: str = "normal"
    type_line: str = ""
    lang: str = "en"
    set: str = ""
    printed_name: str | None = None
    printed_text: str | None = None
    oracle_id: str | None = None
    faces: tuple[Face, ...] = ()

    @property
    def face_names(self) -> tuple[str, ...]:
        """The names of the faces, front first (empty for a one-face card)."""
        return tuple(face.name for face in self.faces)


class ScryfallFace(TypedDict, total=False):
    """The fields of a Scryfall card face read here (Scryfall's ``card_faces`` items)."""

    name: str
    oracle_text: str
    type_line: str
    mana_cost: str
    printed_name: str
    printed_text: str
    oracle_id: str


class ScryfallCard(TypedDict, total=False):
    """The fields of a Scryfall card object read here; Scryfall sends many more, and each field is
    checked as it is read (the data is another service's JSON)."""

    name: str
    oracle_text: str
    layout: str
    type_line: str
    lang: str
    set: str
    printed_name: str
    printed_text: str
    oracle_id: str
    card_faces: list[ScryfallFace]


_TextField = Literal[
    "name",
    "oracle_text",
    "type_line",
    "mana_cost",
    "printed_name",
    "printed_text",
    "layout",
    "lang",
    "set",
    "oracle_id",
]
"""The text fields of a card object or face."""


def _text(obj: ScryfallCard | ScryfallFace, key: _TextField) -> str:
    value = obj.get(key)
    return value if isinstance(value, str) else ""


def _optional_text(obj: ScryfallCard | ScryfallFace, key: _TextField) -> str | None:
    value = obj.get(key)
    return value if isinstance(value, str) else None


def _joined(parts: list[str | None], separator: str) -> str | None:
    present = [part for part in parts if part]
    return separator.join(present) if present else None


def record_from_json(obj: ScryfallCard) -> CardRecord:
    """Build a :class:`CardRecord` from one Scryfall card object.

    Raises :class:`~mtgdice.errors.InputError` when ``obj`` has no string ``name``.

    >>> card = record_from_json({
    ...     "name": "Front // Back", "layout": "modal_dfc", "type_line": "Sorcery // Land",
    ...     "card_faces": [
    ...         {"name": "Front", "oracle_text": "Roll a d20.", "type_line": "Sorcery"},
    ...         {"name": "Back", "oracle_text": "{T}: Add {R}.", "type_line": "Land"}]})
    >>> card.oracle_text
    'Roll a d20.\\n{T}: Add {R}.'
    >>> card.face_names
    ('Front', 'Back')
    """
    name = obj.get("name")
    if not isinstance(name, str) or not name:
        raise InputError("card", "card object without a 'name'")
    raw_faces = obj.get("card_faces")
    faces: tuple[Face, ...] = ()
    if isinstance(raw_faces, list):
        faces = tuple(
            Face(
                name=_text(face, "name"),
                oracle_text=_text(face, "oracle_text"),
                type_line=_text(face, "type_line"),
                mana_cost=_text(face, "mana_cost"),
                printed_name=_optional_text(face, "printed_name"),
                printed_text=_optional_text(face, "printed_text"),
            )
            for face in raw_faces
            if isinstance(face, dict)
        )
    oracle_text = _optional_text(obj, "oracle_text")
    if oracle_text is None:
        oracle_text = "\n".join(face.oracle_text for face in faces if face.oracle_text)
    type_line = _optional_text(obj, "type_line")
    if type_line is None:
        type_line = " // ".join(face.type_line for face in faces if face.type_line)
    printed_name = _optional_text(obj, "printed_name")
    printed_text = _optional_text(obj, "printed_text")
    if faces and printed_name is None:
        printed_name = _joined([face.printed_name for face in faces], " // ")
    if faces and printed_text is None:
        printed_text = _joined([face.printed_text for face in faces], "\n")
    oracle_id = _optional_text(obj, "oracle_id")
    if oracle_id is None and isinstance(raw_faces, list):
        # Reversible cards carry their oracle_id on the faces only.
        oracle_id = next(
            (face["oracle_id"] for face in raw_faces if isinstance(face, dict) and face.get("oracle_id")),
            None,
        )
    return CardRecord(
        name=name,
        oracle_text=oracle_text,
        layout=_text(obj, "layout") or "normal",
        type_line=type_line,
        lang=_text(obj, "lang") or "en",
        set=_text(obj, "set"),
        printed_name=printed_name,
        printed_text=printed_text,
        oracle_id=oracle_id,
        faces=faces,
    )


class _Readable(Protocol):
    def read(self, size: int = ..., /) -> bytes: ...


class _CountingReader(io.RawIOBase):
    """A raw binary stream that counts the bytes read through it (for progress and size checks)."""

    def __init__(self, inner: _Readable) -> None:
        super().__init__()
        self._inner = inner
        self.bytes_read = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        data = self._inner.read(len(view))
        size = len(data)
        view[:size] = data
        self.bytes_read += size
        return size


class BulkFile:
    """An open Scryfall bulk file, read once from start to end.

    ``bytes_read`` counts bytes of the file on disk (for a progress bar against ``size``);
    ``content_bytes`` counts bytes of JSON after decompression. Use as a context manager.

    >>> import gzip, json, pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder, "cards.json")
    ...     _ = path.write_bytes(gzip.compress(json.dumps([{"name": "A", "oracle_text": ""}]).encode()))
    ...     with BulkFile(path) as bulk:
    ...         [record.name for record in bulk.records()], bulk.gzipped
    (['A'], True)
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._label = str(path)
        try:
            if self.path.is_dir():
                raise self.error("is a directory, not a card file")
            self._file: IO[bytes] = open(self.path, "rb")  # noqa: SIM115
        except FileNotFoundError:
            raise self.error("no such file") from None
        except PermissionError:
            raise self.error("permission denied") from None
        self.size = os.fstat(self._file.fileno()).st_size
        self._disk = _CountingReader(self._file)
        disk_buffer = io.BufferedReader(self._disk, buffer_size=1 << 16)
        self.gzipped = disk_buffer.peek(2)[:2] == _GZIP_MAGIC
        self._content = _CountingReader(gzip.GzipFile(fileobj=disk_buffer, mode="rb") if self.gzipped else disk_buffer)
        self._stream = io.BufferedReader(self._content, buffer_size=1 << 16)

    @property
    def bytes_read(self) -> int:
        """Bytes of the file on disk read so far."""
        return self._disk.bytes_read

    @property
    def content_bytes(self) -> int:
        """Bytes of (decompressed) JSON read so far; after a full read, the JSON's size."""
        return self._content.bytes_read

    def error(self, problem: str) -> InputError:
        """An :class:`~mtgdice.errors.InputError` about this file."""
        return InputError(self._label, problem)

    def __enter__(self) -> BulkFile:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the file (also done on leaving a ``with`` block)."""
        self._file.close()

    def _expect_array(self) -> None:
        while True:
            head = self._stream.peek(3)
            if head.startswith(_BOM):
                self._stream.read(len(_BOM))
            elif head[:1] and head[:1] in _WHITESPACE:
                self._stream.read(1)
            else:
                break
        if not head:
            raise self.error("is empty, expected a JSON array of card objects")
        if head[:1] == b"{":
            raise self.error("is a JSON object, not an array of card objects")
        if head[:1] != b"[":
            raise self.error("is not a JSON array of card objects")

    def objects(self) -> Iterator[ScryfallCard]:
        """Every card object, in file order; the whole file is checked to be one JSON array."""
        try:
            self._expect_array()
            for position, item in enumerate(ijson.items(self._stream, "item", use_float=True)):
                card: ScryfallCard = item  # its fields are checked as record_from_json reads them
                if not isinstance(card, dict):
                    raise self.error(f"item {position} is not a card object")
                yield card
        except ijson.JSONError as error:
            first_line = str(error).strip().splitlines()[0] if str(error).strip() else "parse error"
            raise self.error(f"not valid JSON ({first_line}) after {self.content_bytes} bytes") from None
        except (EOFError, gzip.BadGzipFile, zlib.error) as error:
            raise self.error(f"corrupt gzip data ({error})") from None

    def records(self) -> Iterator[CardRecord]:
        """Every card object as a :class:`CardRecord`; an object without a name is an error."""
        for position, obj in enumerate(self.objects()):
            if not isinstance(obj.get("name"), str) or not obj["name"]:
                raise self.error(f"item {position} has no 'name'")
            yield record_from_json(obj)


def iter_records(path: str | os.PathLike[str]) -> Iterator[CardRecord]:
    """Stream the records of a bulk file (plain or gzip JSON array), one at a time.

    >>> import json, pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder, "cards.json")
    ...     _ = path.write_text(json.dumps([{"name": "A", "oracle_text": "Roll a d4."}]))
    ...     [record.oracle_text for record in iter_records(path)]
    ['Roll a d4.']
    """
    with BulkFile(path) as bulk:
        yield from bulk.records()
