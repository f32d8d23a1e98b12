"""Shared fixtures: the dev card catalog and a resolve helper that goes through the JSON interface."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from shared_data import shared_path

# Hypothesis profiles: "ci" draws the same examples on every run (derandomized, a fixed number, no
# deadline on a shared machine), chosen when CI=true or HYPOTHESIS_PROFILE=ci; "dev" is the default.
# A test's own @settings(max_examples=...) still wins over the profile's number.
settings.register_profile("ci", derandomize=True, max_examples=100, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") == "true" else "dev"))
LIVE_TIMEOUT_S = {
    "test_browser.py": 300,
    "test_hardening.py": 300,
    "test_room_faults.py": 600,
    "test_server_kill.py": 300,
    "test_rooms.py": 300,
    "test_work.py": 120,
    "test_cards_download.py": 120,
    "test_log.py": 300,
    "test_cli_roll.py": 300,
    "test_live_server.py": 300,
}
"""Per-test timeouts (pytest-timeout) of the modules that start servers, processes or threads: a guard
against a hang, never a timing claim, so generous for a busy machine. A test that runs out fails with
pytest-timeout's message, and its ``finally`` blocks and fixtures still end the processes it started
(``live_server`` kills the server's whole process group)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Give each test of the live modules its timeout, unless it names its own."""
    for item in items:
        seconds = LIVE_TIMEOUT_S.get(item.path.name)
        if seconds is not None and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(seconds, method="signal"))


@pytest.fixture(scope="session")
def cards_path() -> str:
    return str(shared_path("cards", "dice-cards.json"))


@pytest.fixture(scope="session")
def catalog(cards_path: str) -> Any:
    from mtgdice.cards.catalog import CardCatalog

    return CardCatalog.from_path(cards_path)


@pytest.fixture
def run(catalog: Any) -> Any:
    """``run(request)`` → the resolve output object, in process, as ``mtgdice resolve`` answers it
    (``resolve_table_json``: the outcome and the table after it)."""
    from mtgdice.io.jsonio import resolve_table_json

    def _run(request: dict[str, Any]) -> dict[str, Any]:
        return resolve_table_json(request, catalog)

    return _run


@pytest.fixture(autouse=True)
def _private_roll_log(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """``mtgdice roll`` logs every roll: tests write to a log of their own, never the user's."""
    monkeypatch.setenv("MTGDICE_DB", str(tmp_path_factory.mktemp("log") / "rolls.sqlite"))


@pytest.fixture(scope="session")
def services() -> Iterator[Any]:
    """Real PostgreSQL and Redis on 127.0.0.1: the ones ``.ci/run`` started, else started here.

    Skips when they are not installed, unless ``MTGDICE_REQUIRE_SERVICES=1`` (then it fails).
    """
    import services as servers

    database, broker = os.environ.get("MTGDICE_TEST_DATABASE"), os.environ.get("MTGDICE_TEST_BROKER")
    if database and broker:
        yield servers.Services(database, broker)
        return
    missing = servers.available()
    if missing is not None:
        message = f"{missing}: the PostgreSQL and Redis tests need both servers"
        if os.environ.get("MTGDICE_REQUIRE_SERVICES") == "1":
            pytest.fail(message)
        pytest.skip(message)
    folder = Path(tempfile.mkdtemp(prefix="mtgdice-services-"))
    try:
        started = servers.start(folder)
    except Exception as error:
        servers.stop(folder)
        pytest.fail(f"PostgreSQL or Redis did not start: {error}")
    try:
        yield started
    finally:
        servers.stop(folder)


@pytest.fixture
def postgres(services: Any) -> str:
    """A fresh PostgreSQL database of its own for one test: its address."""
    import services as servers

    return servers.new_database(services.database)
