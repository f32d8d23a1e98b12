"""Card data: Scryfall card objects, name lookup, and the local SQLite index of dice cards.

:class:`CardCatalog` finds cards by name (``--cards PATH``, ``$MTGDICE_CARDS`` or the index:
:func:`default_catalog`); :func:`import_bulk` and :func:`download_oracle_cards` build the index
from a Scryfall bulk file; :func:`search` queries it. This package reads card data only: what the
text means is :mod:`mtgdice.text`'s business, and it imports that lazily, when an index is built.
"""

from mtgdice.cards.catalog import CardCatalog, default_catalog
from mtgdice.cards.download import RetryPolicy, download_oracle_cards
from mtgdice.cards.index import ImportStats, IndexedCard, default_index_path, import_bulk, search
from mtgdice.cards.scryfall import CardRecord, Face, fold_name, iter_records, record_from_json

__all__ = [
    "CardCatalog",
    "CardRecord",
    "Face",
    "ImportStats",
    "IndexedCard",
    "RetryPolicy",
    "default_catalog",
    "default_index_path",
    "download_oracle_cards",
    "fold_name",
    "import_bulk",
    "iter_records",
    "record_from_json",
    "search",
]
