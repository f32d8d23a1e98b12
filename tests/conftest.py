"""Shared fixtures: the dev card catalog and a resolve helper that goes through the JSON interface."""

from __future__ import annotations

from typing import Any

import pytest

from shared_data import shared_path


@pytest.fixture(scope="session")
def cards_path() -> str:
    return str(shared_path("cards", "dice-cards.json"))


@pytest.fixture(scope="session")
def catalog(cards_path: str) -> Any:
    from mtgdice.cards.catalog import CardCatalog

    return CardCatalog.from_path(cards_path)


@pytest.fixture
def run(catalog: Any) -> Any:
    """``run(request)`` → the resolve output object, in process, through ``resolve_json``."""
    from mtgdice.jsonio import resolve_json

    def _run(request: dict[str, Any]) -> dict[str, Any]:
        return resolve_json(request, catalog)

    return _run


@pytest.fixture(autouse=True)
def _private_roll_log(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """``mtgdice roll`` logs every roll: tests write to a log of their own, never the user's."""
    monkeypatch.setenv("MTGDICE_DB", str(tmp_path_factory.mktemp("log") / "rolls.sqlite"))
