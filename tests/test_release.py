"""What a new user and an engine builder get from the package itself: the card data inside it and
the lookup order around it, one version, a licence, ``python -m mtgdice``, and the small things of
issue 20 (the enumeration limit names ``mtgdice simulate``; ``fairness`` warns when the test is not
valid)."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

import mtgdice
from mtgdice.cards.catalog import CardCatalog, card_source, default_catalog
from mtgdice.cards.embedded import build_embedded, embedded_info, load_embedded
from mtgdice.cards.index import import_bulk
from mtgdice.cli import cli as app
from mtgdice.errors import InputError
from shared_data import shared_path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src" / "mtgdice" / "cards" / "data" / "cards.json.gz"
runner = CliRunner()


@pytest.fixture
def no_card_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No --cards, no $MTGDICE_CARDS, no index at the default path: only the embedded data."""
    monkeypatch.delenv("MTGDICE_CARDS", raising=False)
    monkeypatch.delenv("MTGDICE_INDEX", raising=False)
    monkeypatch.delenv("MTGDICE_EMBEDDED_CARDS", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


def _shared_card_files() -> list[Path]:
    return [shared_path("cards", "dice-cards.json"), shared_path("cards", "coin-cards.json")]


# -- the embedded card data ----------------------------------------------------------------------


def test_the_committed_data_is_what_the_script_builds_from_the_shared_cards() -> None:
    built = embedded_info(DATA.read_bytes()).built
    assert build_embedded(_shared_card_files(), built) == DATA.read_bytes()


def test_the_embedded_data_holds_every_english_card_of_its_sources_once() -> None:
    sources = []
    for path in _shared_card_files():
        sources += [card for card in json.loads(path.read_text(encoding="utf-8")) if card.get("lang", "en") == "en"]
    catalog = CardCatalog(load_embedded(), "embedded")
    assert {card["name"] for card in sources} == set(catalog.names())
    texts: dict[str, set[str]] = {}
    for card in sources:
        texts.setdefault(card["name"], set()).add(card["oracle_text"])
    for name, expected in texts.items():  # Un-set variants share a name with different texts
        assert {record.oracle_text for record in catalog if record.name == name} == expected
    info = embedded_info()
    assert [source.name for source in info.sources] == ["dice-cards.json", "coin-cards.json"]
    assert [source.cards for source in info.sources] == [119, 57] and info.cards == len(catalog)
    assert len(DATA.read_bytes()) < 64_000  # small enough to ship in the wheel


def test_the_script_writes_the_data_file_and_says_what_it_holds(tmp_path: Path) -> None:
    out = tmp_path / "cards.json.gz"
    script = ROOT / "scripts" / "build_card_index.py"
    files = [str(path) for path in _shared_card_files()]
    done = subprocess.run(
        [sys.executable, str(script), *files, "--out", str(out), "--date", "2030-01-02"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "built 2030-01-02" in done.stdout and "dice-cards.json (119 cards" in done.stdout
    payload = json.loads(gzip.decompress(out.read_bytes()))
    assert payload["meta"]["built"] == "2030-01-02" and len(payload["cards"]) == payload["meta"]["cards"]
    bad = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "missing.json"), "--out", str(tmp_path / "x.gz")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and "missing.json" in bad.stderr and "Traceback" not in bad.stderr


def test_a_damaged_embedded_file_is_one_line_error() -> None:
    with pytest.raises(InputError, match="embedded card data cannot be read"):
        load_embedded(b"not gzip")


# -- lookup order ----------------------------------------------------------------------------------


def test_lookup_order_flag_environment_index_embedded(no_card_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dice = shared_path("cards", "dice-cards.json")
    coins = shared_path("cards", "coin-cards.json")
    assert card_source(None).kind == "embedded"
    assert default_catalog(None).source == "the embedded card data"
    import_bulk(coins, no_card_env / "data" / "mtgdice" / "cards.sqlite", progress=False)
    assert card_source(None).kind == "index"
    monkeypatch.setenv("MTGDICE_CARDS", str(dice))
    assert card_source(None).kind == "environment" and default_catalog(None).source == str(dice)
    assert card_source(str(coins)).kind == "flag" and default_catalog(coins).source == str(coins)
    monkeypatch.setenv("MTGDICE_EMBEDDED_CARDS", "0")  # only the last step is turned off
    assert card_source(None).kind == "environment"


def test_the_embedded_data_can_be_turned_off(no_card_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MTGDICE_EMBEDDED_CARDS", "0")
    assert card_source(None) is None
    with pytest.raises(InputError, match="no card data"):
        default_catalog(None)


def test_a_card_roll_works_with_only_the_embedded_data(no_card_env: Path) -> None:
    result = runner.invoke(
        app, ["roll", "--no-log", "--card", "Wizard's Spellbook", "--with", "Pixie Guide", "--seed", "7"]
    )
    assert result.exit_code == 0, result.output
    assert "Wizard's Spellbook" in result.output and result.output.count("│ d20 │") == 2
    unknown = runner.invoke(app, ["roll", "--no-log", "--card", "Wizards Spelbook"])
    assert unknown.exit_code == 2
    assert "in the embedded card data; did you mean 'Wizard's Spellbook'" in unknown.output


def test_cards_info_names_the_source_in_use_and_the_embedded_files(no_card_env: Path) -> None:
    info = runner.invoke(app, ["cards", "info"])
    assert info.exit_code == 0, info.output
    lines = info.output.splitlines()
    assert lines[0] == f"Card data in use: the embedded card data ({embedded_info().cards} cards)."
    assert "not set" in info.output and "absent" in info.output
    embedded = embedded_info()
    assert f"built {embedded.built}" in lines[-1] and "dice-cards.json" in lines[-1] and "coin-cards.json" in lines[-1]
    dice = shared_path("cards", "dice-cards.json")
    flagged = runner.invoke(app, ["cards", "info", "--cards", str(dice)])
    assert flagged.output.splitlines()[0] == f"Card data in use: --cards {dice} (119 cards)."
    missing = runner.invoke(app, ["cards", "info", "--cards", str(no_card_env / "nothing.json")])
    assert missing.exit_code == 2 and "nothing.json" in missing.output


# -- version, licence, entry points ----------------------------------------------------------------


def test_the_version_is_written_once() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    assert project["tool"]["hatch"]["version"]["path"] == "src/mtgdice/__init__.py"
    source = (ROOT / "src" / "mtgdice" / "__init__.py").read_text(encoding="utf-8")
    assert source.count(f'__version__ = "{mtgdice.__version__}"') == 1
    assert runner.invoke(app, ["--version"]).output == f"mtgdice {mtgdice.__version__}\n"


def test_licence_and_changelog() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert project["project"]["license"] == "MIT" and licence.startswith("MIT License")
    assert "Copyright (c) 2026 the mtgdice authors" in licence
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in changelog and f"## [{mtgdice.__version__}] - " in changelog
    assert (ROOT / "src" / "mtgdice" / "py.typed").is_file()


def test_python_dash_m_runs_the_command() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    done = subprocess.run(
        [sys.executable, "-m", "mtgdice", "roll", "d6", "--no-log", "--seed", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "d6" in done.stdout
    bad = subprocess.run([sys.executable, "-m", "mtgdice", "roll", "d0"], capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and bad.stderr.startswith("mtgdice: error:")


# -- small things ----------------------------------------------------------------------------------


def test_the_enumeration_limit_names_the_simulate_command() -> None:
    request = json.dumps({"name": "T", "text": "Roll six d20 and choose one result."})
    result = runner.invoke(app, ["odds"], input=request)
    assert result.exit_code == 2
    assert "20^6 face sequences" in result.output and "'mtgdice simulate'" in result.output
    assert "mtgdice.sim" not in result.output


@pytest.mark.parametrize(("rolls", "warned"), [(60, ["d20"]), (99, ["d20"]), (100, []), (29, ["d6", "d20"])])
def test_fairness_warns_when_fewer_than_five_rolls_are_expected_per_face(rolls: int, warned: list[str]) -> None:
    result = runner.invoke(
        app, ["fairness", "--rolls", str(rolls), "--dice", "d6,d20", "--source", "seeded", "--seed", "2", "--json"]
    )
    assert result.exit_code == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("mtgdice: warning: ")]
    assert [line.split()[2].rstrip(":") for line in warnings] == warned
    report = json.loads(result.stdout)
    assert [die["too_few"] is not None for die in report["dice"]] == [name in warned for name in ("d6", "d20")]


def test_the_readme_first_command_needs_nothing_beside_the_clone() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = readme.split("```sh\n", 1)[1].splitlines()[0]
    assert first.endswith(""".venv/bin/mtgdice roll --card "Wizard's Spellbook" --with "Pixie Guide\"""")
    assert "--cards" not in first and "shared" not in first
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert """venv/bin/mtgdice roll --card "Wizard's Spellbook" --with "Pixie Guide\"""" in ci
