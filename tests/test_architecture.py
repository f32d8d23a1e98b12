"""The tree shows the architecture: imports point one way, and no card is named in product code.

DESIGN.md §2: ``rules/`` imports nothing else from mtgdice; ``text/`` imports only ``rules``; the
other layers never import the shells (cli, web). No card name and no Oracle sentence of the dev
card file appears anywhere under src/ (the compiler reads the language, not the cards), nor a string
that shares six words in a row with exactly one card's text once its name is written ``~`` and its
pattern syntax is expanded (``literal_windows.py``).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from literal_windows import card_like, string_literals, unique_windows
from shared_data import shared_path

SRC = Path(__file__).resolve().parents[1] / "src" / "mtgdice"

# What each layer may import from mtgdice (module prefixes).
ALLOWED = {
    "rules": ("mtgdice.rules",),
    "text": ("mtgdice.rules", "mtgdice.text"),
    "cards": ("mtgdice.rules", "mtgdice.text", "mtgdice.cards", "mtgdice.errors"),
    "odds": ("mtgdice.rules", "mtgdice.text", "mtgdice.odds", "mtgdice.errors"),
    "sim": ("mtgdice.rules", "mtgdice.text", "mtgdice.odds", "mtgdice.sim", "mtgdice.errors"),
}
SHELLS = ("mtgdice.cli", "mtgdice.web", "mtgdice.cli_")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module" and node.args:
            argument = node.args[0]
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                names.append(argument.value)
    return [name for name in names if name == "mtgdice" or name.startswith("mtgdice.")]


def _modules(layer: str) -> list[Path]:
    return sorted((SRC / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_point_one_way(layer: str) -> None:
    if not (SRC / layer).exists():
        pytest.skip(f"the {layer}/ layer does not exist yet")
    wrong = [
        f"{path.relative_to(SRC)} imports {name}"
        for path in _modules(layer)
        for name in _imports(path)
        if not name.startswith(ALLOWED[layer])
    ]
    assert wrong == []


def test_rules_import_nothing_above_them() -> None:
    wrong = [
        f"{path.relative_to(SRC)} imports {name}"
        for path in _modules("rules")
        for name in _imports(path)
        if not name.startswith("mtgdice.rules")
    ]
    assert wrong == [] and _modules("rules")


def test_no_layer_imports_a_shell() -> None:
    wrong = []
    for path in SRC.rglob("*.py"):
        relative = path.relative_to(SRC)
        if relative.parts[0] in ("web",) or relative.name.startswith("cli") or relative.name == "__main__.py":
            continue
        wrong += [f"{relative} imports {name}" for name in _imports(path) if name.startswith(SHELLS)]
    assert wrong == []


def test_the_checker_catches_a_wrong_arrow(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from mtgdice.text import compile_text\nimport mtgdice.cli\n")
    assert _imports(bad) == ["mtgdice.text", "mtgdice.cli"]


def test_no_card_name_or_oracle_sentence_in_product_code() -> None:
    cards = json.loads(shared_path("cards", "dice-cards.json").read_text(encoding="utf-8"))
    names = {card["name"].lower() for card in cards if len(card["name"]) > 6}
    fragments = set()
    for card in cards:
        for sentence in re.split(r"(?<=[.!:])\s+|\n|\|", (card.get("oracle_text") or "").lower()):
            if len(sentence.strip()) >= 28:
                fragments.add(sentence.strip())
    hits = []
    for path in SRC.rglob("*"):
        if path.is_file() and path.suffix in (".py", ".json", ".html", ".js", ".css", ".txt", ".toml"):
            text = path.read_text(encoding="utf-8", errors="ignore").lower()
            hits += [f"{path.relative_to(SRC)}: name {n!r}" for n in names if n in text]
            hits += [f"{path.relative_to(SRC)}: text {f[:40]!r}" for f in fragments if f in text]
    assert hits == []


def _dev_card_texts() -> list[tuple[str, str]]:
    cards = json.loads(shared_path("cards", "dice-cards.json").read_text(encoding="utf-8"))
    return [
        (
            card["name"],
            card.get("oracle_text") or "\n".join(f.get("oracle_text", "") for f in card.get("card_faces", [])),
        )
        for card in cards
    ]


def test_no_string_in_product_code_reads_like_one_cards_text() -> None:
    """Six words in a row of one card's text (its name as ``~``), read through pattern syntax too."""
    unique = unique_windows(_dev_card_texts())
    hits = []
    for path in sorted(SRC.rglob("*.py")):
        for line, literal in string_literals(path):
            found = card_like(literal, unique)
            if found:
                hits.append(f"{path.relative_to(SRC)}:{line} reads like {found[0]}: {' '.join(found[1])!r}")
    assert hits == []


def test_the_window_check_sees_through_the_name_and_pattern_syntax() -> None:
    cards = [
        ("Gear Keeper", "You may take a result from Gear Keeper to use it for a die you rolled."),
        ("Odd Sky", "Each blank roll of the planar die is a {CHAOS} roll until end of turn."),
        ("Other", "Draw a card. Roll a d20."),
    ]
    unique = unique_windows(cards)
    assert card_like(r"\byou may take a result from ~ to use it for a die you rolled\b", unique)
    assert card_like(r"^each (?P<face>blank|chaos) roll of the planar die is (?:a|an) \{chaos\} roll", unique)
    assert card_like("you may take a result from ~ to use", unique)
    # A phrase composed of general alternatives is not one card's sentence.
    assert card_like(r"(?:each|every) (?:blank|chaos) (?:roll|face) (?:of|on) the (?:planar|chaos) die", unique) is None
    assert card_like(r"roll a d20", unique) is None
