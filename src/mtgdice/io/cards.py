"""Indexed cards as JSON: what ``mtgdice cards search --json`` prints for each card found.

This module leaves out the index itself (``mtgdice.cards.index``) and compiling (``mtgdice.text``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from mtgdice.io.outcome import JSON, JSONObject


class IndexedCard(Protocol):
    """What this module reads of an indexed card (``mtgdice.cards.index.IndexedCard``; the cards
    package imports io's compile writer, so io names the shape instead of importing it)."""

    @property
    def name(self) -> str: ...
    @property
    def oracle_id(self) -> str | None: ...
    @property
    def layout(self) -> str: ...
    @property
    def type_line(self) -> str: ...
    @property
    def set(self) -> str: ...
    @property
    def oracle_text(self) -> str: ...
    @property
    def features(self) -> tuple[str, ...]: ...
    @property
    def compiled_json(self) -> str | None: ...
    @property
    def compile_error(self) -> str | None: ...


def indexed_card_json(card: IndexedCard) -> JSONObject:
    """One indexed card: its identity, text, dice features and compiled form (or why it did not compile)."""
    compiled: JSON = None if card.compiled_json is None else json.loads(card.compiled_json)
    return {
        "name": card.name,
        "oracle_id": card.oracle_id,
        "layout": card.layout,
        "type_line": card.type_line,
        "set": card.set,
        "oracle_text": card.oracle_text,
        "features": list(card.features),
        "compiled": compiled,
        "compile_error": card.compile_error,
    }
