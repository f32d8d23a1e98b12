"""Card lookup by name: :class:`CardCatalog` and where card data comes from (:func:`card_source`,
:func:`default_catalog`): ``--cards PATH``, else ``$MTGDICE_CARDS``, else the user's index, else the
card data embedded in the package (:mod:`mtgdice.cards.embedded`).

Names match when they are equal after :func:`~mtgdice.cards.scryfall.fold_name` (case, accents,
quote styles and surrounding spaces ignored); the front face of a multi-face card names the card
too. An unknown name raises :class:`~mtgdice.errors.UnknownCardError` with near names; a name
shared by different rules texts (Un-set variants) raises :class:`~mtgdice.errors.AmbiguousCardError`;
reprints with the same text are one card.

Left out: fuzzy lookup by printed (non-English) names, and anything about a card's rules.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from mtgdice.cards.embedded import EMBEDDED_NAME, embedded_enabled, load_embedded
from mtgdice.cards.index import default_index_path, read_records
from mtgdice.cards.scryfall import CardRecord, fold_name, iter_records
from mtgdice.errors import AmbiguousCardError, InputError, UnknownCardError

__all__ = ["CardCatalog", "CardSource", "card_source", "default_catalog", "optional_catalog"]

_SQLITE_MAGIC = b"SQLite format 3\x00"
_SUGGESTIONS = 3


def _quoted_list(names: list[str]) -> str:
    quoted = [f"'{name}'" for name in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


@dataclass(frozen=True, slots=True)
class CardCatalog:
    """Card records looked up by name.

    ``source`` names where the records came from, for error messages.

    >>> catalog = CardCatalog.from_records(
    ...     [CardRecord("Lucky Sprite", "Roll a d20."), CardRecord("Dice Goblin", "Roll a d6.")],
    ...     source="cards.json")
    >>> catalog.lookup("  LUCKY sprite ").oracle_text
    'Roll a d20.'
    >>> try:
    ...     catalog.lookup("Lucky Sprit")
    ... except LookupError as error:
    ...     print(error)
    card: no card named 'Lucky Sprit' in cards.json; did you mean 'Lucky Sprite'?
    """

    records: tuple[CardRecord, ...]
    source: str = "the card data"
    _by_name: dict[str, tuple[CardRecord, ...]] = field(init=False, default_factory=dict, repr=False, compare=False)
    _by_face: dict[str, tuple[CardRecord, ...]] = field(init=False, default_factory=dict, repr=False, compare=False)
    _display: dict[str, str] = field(init=False, default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_name: dict[str, list[CardRecord]] = {}
        by_face: dict[str, list[CardRecord]] = {}
        for record in self.records:
            folded = fold_name(record.name)
            by_name.setdefault(folded, []).append(record)
            self._display.setdefault(folded, record.name)
            for face_name in record.face_names[:1]:
                folded_face = fold_name(face_name)
                by_face.setdefault(folded_face, []).append(record)
                self._display.setdefault(folded_face, face_name)
        self._by_name.update((key, tuple(value)) for key, value in by_name.items())
        self._by_face.update((key, tuple(value)) for key, value in by_face.items())

    @classmethod
    def from_records(cls, records: Iterable[CardRecord], source: str = "the card data") -> CardCatalog:
        """A catalog of the given records."""
        return cls(tuple(records), source)

    @classmethod
    def from_path(cls, path: str | os.PathLike[str]) -> CardCatalog:
        """Load a Scryfall-format JSON array (plain or gzip), or an index built by ``cards import``.

        Problems with the file raise a one-line :class:`~mtgdice.errors.InputError` naming it.
        """
        try:
            with open(path, "rb") as probe:
                is_index = probe.read(len(_SQLITE_MAGIC)) == _SQLITE_MAGIC
        except OSError:
            is_index = False  # BulkFile reports the problem with the file.
        if is_index:
            return cls.from_index(path)
        return cls(tuple(iter_records(path)), str(path))

    @classmethod
    def from_index(cls, db_path: str | os.PathLike[str]) -> CardCatalog:
        """The cards of a local index built by :func:`mtgdice.cards.index.import_bulk`."""
        return cls(tuple(read_records(db_path)), f"the card index {db_path}")

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[CardRecord]:
        return iter(self.records)

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        folded = fold_name(name)
        return folded in self._by_name or folded in self._by_face

    def names(self) -> list[str]:
        """Every distinct card name, sorted."""
        return sorted({record.name for record in self.records})

    def lookup(self, name: str) -> CardRecord:
        """The record named ``name`` (a full name or a front-face name).

        Raises :class:`~mtgdice.errors.UnknownCardError` (with up to three near names) or
        :class:`~mtgdice.errors.AmbiguousCardError` (the name has several different texts).
        """
        folded = fold_name(name)
        candidates = self._by_name.get(folded) or self._by_face.get(folded)
        if not candidates:
            raise UnknownCardError(f"card: no card named '{name.strip()}' in {self.source}{self._hint(folded)}")
        texts = {record.oracle_text for record in candidates}
        if len(texts) > 1:
            raise AmbiguousCardError(
                f"card: '{candidates[0].name}' names {len(texts)} cards with different texts in "
                f'{self.source}; give the card\'s Oracle text with "text" instead'
            )
        english = [record for record in candidates if record.lang == "en"]
        return (english or list(candidates))[0]

    def suggestions(self, name: str) -> list[str]:
        """Up to three names close to ``name`` (compared folded), closest first.

        >>> CardCatalog.from_records([CardRecord("Dice Goblin", "")]).suggestions("dice gobin")
        ['Dice Goblin']
        """
        matches = difflib.get_close_matches(fold_name(name), self._display.keys(), n=_SUGGESTIONS)
        return [self._display[match] for match in matches]

    def _hint(self, folded: str) -> str:
        near = self.suggestions(folded)
        return f"; did you mean {_quoted_list(near)}?" if near else ""


@dataclass(frozen=True, slots=True)
class CardSource:
    """Where card data comes from, in the lookup order: ``kind`` is ``flag`` (``--cards PATH``),
    ``environment`` (``$MTGDICE_CARDS``), ``index`` (the user's own index, ``$MTGDICE_INDEX`` or the
    default path) or ``embedded`` (the data inside the package); ``location`` is the path, or
    ``None`` for the embedded data.

    >>> CardSource("flag", "cards.json").describe()
    '--cards cards.json'
    """

    kind: str
    location: str | None = None

    def describe(self) -> str:
        """The source for people, as ``mtgdice cards info`` prints it."""
        if self.kind == "flag":
            return f"--cards {self.location}"
        if self.kind == "environment":
            return f"$MTGDICE_CARDS={self.location}"
        if self.kind == "index":
            return f"the card index {self.location}"
        return EMBEDDED_NAME

    def load(self) -> CardCatalog:
        """The catalog of this source (a file or index problem is a one-line ``InputError``)."""
        if self.location is None:
            return CardCatalog(load_embedded(), EMBEDDED_NAME)
        if self.kind == "index":
            return CardCatalog.from_index(self.location)
        return CardCatalog.from_path(self.location)


def card_source(cards_path: str | os.PathLike[str] | None = None) -> CardSource | None:
    """The card data to use, first found in this order: ``cards_path`` (the ``--cards`` flag),
    ``$MTGDICE_CARDS``, the user's index (:func:`~mtgdice.cards.index.default_index_path`, when the
    file exists), the data embedded in the package (unless ``$MTGDICE_EMBEDDED_CARDS=0``).
    ``None`` when there is none.

    >>> from unittest import mock
    >>> with mock.patch.dict("os.environ", {"MTGDICE_CARDS": "mine.json"}):
    ...     card_source(None).describe(), card_source("other.json").describe()
    ('$MTGDICE_CARDS=mine.json', '--cards other.json')
    >>> with mock.patch.dict("os.environ", {"MTGDICE_CARDS": "", "MTGDICE_INDEX": "/nowhere/cards.sqlite"}):
    ...     card_source(None).describe()
    'the embedded card data'
    """
    if cards_path is not None and str(cards_path):
        return CardSource("flag", str(cards_path))
    from_env = os.environ.get("MTGDICE_CARDS")
    if from_env:
        return CardSource("environment", from_env)
    index_path = default_index_path()
    if index_path.is_file():
        return CardSource("index", str(index_path))
    if embedded_enabled():
        return CardSource("embedded")
    return None


def default_catalog(cards_path: str | os.PathLike[str] | None = None) -> CardCatalog:
    """The card data to use (:func:`card_source`): ``--cards PATH``, else ``$MTGDICE_CARDS``, else
    the local index, else the data embedded in the package.

    Raises :class:`~mtgdice.errors.InputError` when there is none (the embedded data turned off).
    """
    source = card_source(cards_path)
    if source is None:
        raise InputError(
            "cards", "no card data: pass --cards PATH, set MTGDICE_CARDS, or run 'mtgdice cards import FILE'"
        )
    return source.load()


def optional_catalog(cards_path: str | os.PathLike[str] | None = None) -> CardCatalog | None:
    """:func:`default_catalog`, or ``None`` when no card data is installed and none was asked for
    (requests that give cards by their text still work); an explicit path that fails is an error."""
    try:
        return default_catalog(cards_path)
    except InputError:
        if cards_path is not None:
            raise
        return None
