"""The card data that ships inside the package: a compact index built from Scryfall-format files.

``scripts/build_card_index.py`` calls :func:`write_embedded` on one or more Scryfall-format JSON
arrays; the result is ``data/cards.json.gz`` beside this module (gzip of one JSON object with a
``meta`` part, naming each source file with its SHA-256 and card count and the build date, and a
``cards`` list holding only what a :class:`~mtgdice.cards.scryfall.CardRecord` keeps). The file is
written deterministically (sorted records, gzip without a timestamp), so building it twice from the
same files gives the same bytes.

:func:`load_embedded` reads it back; :func:`embedded_info` reads only its ``meta`` part. The
catalog uses it last, after ``--cards``, ``$MTGDICE_CARDS`` and the user's own index
(:func:`mtgdice.cards.catalog.card_source`).

Left out: printed texts in other languages and compiled forms (the index of ``mtgdice cards
import`` keeps those); the embedded data holds English Oracle text only.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, NotRequired, TypedDict

from mtgdice.cards.scryfall import CardRecord, Face, iter_records
from mtgdice.errors import InputError

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

__all__ = [
    "EMBEDDED_NAME",
    "EmbeddedInfo",
    "SourceFile",
    "embedded_enabled",
    "embedded_info",
    "load_embedded",
    "write_embedded",
]

FORMAT = 1
EMBEDDED_NAME = "the embedded card data"
"""How the embedded data is named in messages (``no card named ... in the embedded card data``)."""

_DISABLE_VARIABLE = "MTGDICE_EMBEDDED_CARDS"


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One Scryfall-format file the embedded data was built from."""

    name: str
    sha256: str
    cards: int


@dataclass(frozen=True, slots=True)
class EmbeddedInfo:
    """What the embedded data is: its source files, when it was built, how many cards it holds.

    >>> info = EmbeddedInfo((SourceFile("dice.json", "ab" * 32, 3),), "2026-12-02", 3)
    >>> info.describe()
    '3 cards from dice.json (3 cards, sha256 abababababab...), built 2026-12-02'
    """

    sources: tuple[SourceFile, ...]
    built: str
    cards: int

    def describe(self) -> str:
        """One line for people: the card count, each source file and the build date."""
        files = ", ".join(
            f"{source.name} ({source.cards} cards, sha256 {source.sha256[:12]}...)" for source in self.sources
        )
        return f"{self.cards} cards from {files}, built {self.built}"


def _data_file() -> Traversable:
    return resources.files("mtgdice.cards").joinpath("data", "cards.json.gz")


def embedded_enabled() -> bool:
    """False when ``$MTGDICE_EMBEDDED_CARDS`` is ``0`` (or ``no``/``false``/``off``): then the
    embedded data is never used, and a missing ``--cards`` is an error as before.

    >>> from unittest import mock
    >>> with mock.patch.dict("os.environ", {"MTGDICE_EMBEDDED_CARDS": "0"}):
    ...     embedded_enabled()
    False
    """
    return os.environ.get(_DISABLE_VARIABLE, "").strip().lower() not in ("0", "no", "false", "off")


class EncodedFace(TypedDict):
    """One face of a card in the embedded data."""

    name: str
    oracle_text: str
    type_line: str
    mana_cost: str


class EncodedCard(TypedDict):
    """One card in the embedded data: a field equal to its default is left out."""

    name: str
    oracle_text: str
    layout: NotRequired[str]
    type_line: NotRequired[str]
    set: NotRequired[str]
    oracle_id: NotRequired[str]
    faces: NotRequired[list[EncodedFace]]


class EncodedSource(TypedDict):
    """A card file the embedded data was built from."""

    name: str
    sha256: str
    cards: int


class EncodedMeta(TypedDict):
    """What the embedded data says of itself."""

    format: int
    built: str
    sources: list[EncodedSource]
    cards: int


class EncodedPayload(TypedDict):
    """The embedded data file (gzip-compressed JSON)."""

    meta: EncodedMeta
    cards: list[EncodedCard]


def _encode_record(record: CardRecord) -> EncodedCard:
    encoded: EncodedCard = {"name": record.name, "oracle_text": record.oracle_text}
    if record.layout != "normal":
        encoded["layout"] = record.layout
    if record.type_line:
        encoded["type_line"] = record.type_line
    if record.set:
        encoded["set"] = record.set
    if record.oracle_id is not None:
        encoded["oracle_id"] = record.oracle_id
    if record.faces:
        encoded["faces"] = [
            {
                "name": face.name,
                "oracle_text": face.oracle_text,
                "type_line": face.type_line,
                "mana_cost": face.mana_cost,
            }
            for face in record.faces
        ]
    return encoded


def _decode_record(encoded: EncodedCard) -> CardRecord:
    faces = tuple(
        Face(
            name=face["name"],
            oracle_text=face["oracle_text"],
            type_line=face["type_line"],
            mana_cost=face["mana_cost"],
        )
        for face in encoded.get("faces", ())
    )
    return CardRecord(
        name=encoded["name"],
        oracle_text=encoded["oracle_text"],
        layout=encoded.get("layout", "normal"),
        type_line=encoded.get("type_line", ""),
        set=encoded.get("set", ""),
        oracle_id=encoded.get("oracle_id"),
        faces=faces,
    )


def _sort_key(encoded: EncodedCard) -> str:
    return json.dumps(encoded, sort_keys=True, ensure_ascii=False)


def build_embedded(paths: Sequence[str | os.PathLike[str]], built: str) -> bytes:
    """The embedded data file's bytes for the English cards of ``paths`` (Scryfall-format arrays).

    Equal records (the same card in two files, or reprints with the same text) are kept once.

    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder, "cards.json")
    ...     _ = path.write_text(json.dumps([{"name": "A", "oracle_text": "Roll a d4."}] * 2))
    ...     data = build_embedded([path], "2026-12-02")
    >>> payload = json.loads(gzip.decompress(data))
    >>> payload["meta"]["built"], payload["cards"]
    ('2026-12-02', [{'name': 'A', 'oracle_text': 'Roll a d4.'}])
    """
    sources: list[EncodedSource] = []
    unique: dict[str, EncodedCard] = {}
    for path in paths:
        digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        count = 0
        for record in iter_records(path):
            if record.lang != "en":
                continue
            count += 1
            encoded = _encode_record(record)
            unique.setdefault(_sort_key(encoded), encoded)
        sources.append({"name": Path(path).name, "sha256": digest, "cards": count})
    payload: EncodedPayload = {
        "meta": {"format": FORMAT, "built": built, "sources": sources, "cards": len(unique)},
        "cards": [unique[key] for key in sorted(unique)],
    }
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=9, mtime=0, filename="") as compressed:
        compressed.write(text)
    return buffer.getvalue()


def write_embedded(paths: Sequence[str | os.PathLike[str]], target: str | os.PathLike[str], built: str) -> int:
    """Build the embedded data from ``paths`` into ``target``; returns the number of bytes written."""
    data = build_embedded(paths, built)
    Path(target).parent.mkdir(parents=True, exist_ok=True)
    Path(target).write_bytes(data)
    return len(data)


def _payload(data: bytes | None = None) -> EncodedPayload:
    try:
        raw = data if data is not None else _data_file().read_bytes()
        payload: EncodedPayload = json.loads(gzip.decompress(raw))
    except (OSError, EOFError, ValueError) as error:
        raise InputError("cards", f"the embedded card data cannot be read ({error}); reinstall mtgdice") from None
    meta = payload.get("meta") if isinstance(payload, dict) else None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise InputError("cards", "the embedded card data has an unknown format; reinstall mtgdice")
    return payload


def _info(meta: EncodedMeta) -> EmbeddedInfo:
    sources = tuple(SourceFile(item["name"], item["sha256"], item["cards"]) for item in meta["sources"])
    return EmbeddedInfo(sources, meta["built"], meta["cards"])


def embedded_info(data: bytes | None = None) -> EmbeddedInfo:
    """The source files and build date of the embedded data (``data``: another file's bytes).

    >>> info = embedded_info()
    >>> info.cards == len(load_embedded()) and all(source.name.endswith(".json") for source in info.sources)
    True
    """
    return _info(_payload(data)["meta"])


def load_embedded(data: bytes | None = None) -> tuple[CardRecord, ...]:
    """The card records of the embedded data (``data``: another file's bytes).

    >>> records = load_embedded()
    >>> all(isinstance(record, CardRecord) and record.oracle_text is not None for record in records)
    True
    """
    return tuple(_decode_record(encoded) for encoded in _payload(data)["cards"])
