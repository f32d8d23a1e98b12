"""Printed text from Scryfall's all_cards file, compiled in its language to the same rolls as Oracle text."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

MTGDICE = str(Path(sys.executable).with_name("mtgdice"))
ALL_CARDS = Path(__file__).parent / "fixtures" / "cards" / "all-cards.json"


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = tmp_path_factory.mktemp("index") / "cards.sqlite"
    run = subprocess.run([MTGDICE, "cards", "import", str(ALL_CARDS), "--db", str(db)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return str(db)


def compile_json(*args: str) -> dict:  # type: ignore[type-arg]
    run = subprocess.run([MTGDICE, "compile", "--json", *args], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)  # type: ignore[no-any-return]


@pytest.mark.parametrize("lang", ["de", "ja"])
def test_printed_text_compiles_to_the_oracle_rolls(index: str, lang: str) -> None:
    english = compile_json("--cards", index, "--card", "Contact Other Plane")
    printed = compile_json("--cards", index, "--card", "Contact Other Plane", "--lang", lang)
    keys = ("count", "sides", "ignore_lowest", "choose", "table", "roll_again")
    assert [{k: r[k] for k in keys} for r in printed["rolls"]] == [{k: r[k] for k in keys} for r in english["rolls"]]
    assert printed["unsupported"] == []


def test_a_missing_language_is_a_one_line_error(index: str) -> None:
    run = subprocess.run(
        [MTGDICE, "compile", "--cards", index, "--card", "Contact Other Plane", "--lang", "fr"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1 and "--lang" in run.stderr
