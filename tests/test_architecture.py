"""The tree shows the architecture: imports point one way, and no card is named in product code.

STYLE.md §1, DESIGN.md §2: the top level of ``src/mtgdice`` holds ``__init__``, ``errors`` and
packages; every package declares below which packages of mtgdice it may import (``ALLOWED``), a
package without a declaration fails, and every import is checked against the table. ``rules/``
imports nothing else from mtgdice; the shells (``cli``, ``web``) are imported by no other package;
a command module of ``cli/`` never imports the package ``mtgdice.cli`` (its shared helpers are in
``cli/common.py``). No card name and no Oracle sentence of the dev card file appears anywhere under
src/ (the compiler reads the language, not the cards), nor a string that shares six words in a row
with exactly one card's text once its name is written ``~`` and its pattern syntax is expanded
(``literal_windows.py``).
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

# Which packages of mtgdice each package may import, besides itself ("mtgdice" = the package's own
# face, its lazy public names). A new package is declared here, with its arrows, before it is used.
ALLOWED: dict[str, frozenset[str]] = {
    "rules": frozenset(),
    "text": frozenset({"rules"}),
    "cards": frozenset({"rules", "text", "io", "errors"}),
    "odds": frozenset({"rules", "text", "errors"}),
    "sim": frozenset({"rules", "text", "odds", "errors"}),
    "game": frozenset({"rules", "text", "odds", "fair", "errors"}),
    "fair": frozenset({"rules", "errors"}),
    "io": frozenset({"rules", "text", "game", "fair", "errors"}),
    "log": frozenset({"rules", "text", "game", "io", "fair", "errors"}),
    "web": frozenset({"mtgdice", "rules", "text", "cards", "odds", "game", "io", "fair", "log", "errors"}),
    "cli": frozenset(
        {"mtgdice", "rules", "text", "cards", "odds", "sim", "game", "io", "fair", "log", "web", "errors"}
    ),
}
# The modules allowed at the top level, and what they import: the package's faces (``__init__``, and
# ``__main__`` for ``python -m mtgdice`` if there is one, which only starts the CLI) and ``errors``.
TOP = {
    "__init__": frozenset({"rules", "text"}),
    "__main__": frozenset({"cli"}),
    "errors": frozenset({"rules"}),
}
TOP_FILES = {"__init__.py", "__main__.py", "errors.py", "py.typed"}
SHELLS = ("cli", "web")
# Inside cli/: the group imports the shared helpers; a command module imports the helpers, never
# the package (``mtgdice.cli``) nor another command.
CLI_INSIDE = {"__init__": {"common"}, "__main__": {""}, "common": set()}
CLI_COMMAND = {"common"}


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


def _package_of(name: str) -> str:
    """``mtgdice.io.jsonio`` -> ``io``; ``mtgdice`` -> ``mtgdice``."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "mtgdice"


def _modules(layer: str, root: Path = SRC) -> list[Path]:
    return sorted((root / layer).rglob("*.py"))


def layout_problems(root: Path = SRC) -> list[str]:
    """Top-level files other than ``__init__``, ``errors`` and ``py.typed``; packages not in ``ALLOWED``."""
    problems = []
    for path in sorted(root.iterdir()):
        if path.name == "__pycache__":
            continue
        if path.is_dir():
            if path.name not in ALLOWED:
                problems.append(f"{path.name}/ is a package with no declared imports (add it to ALLOWED)")
            elif not (path / "__init__.py").exists():
                problems.append(f"{path.name}/ has no __init__.py")
        elif path.name not in TOP_FILES:
            problems.append(f"{path.name} stands at the top level (only __init__, errors and packages do)")
    return problems


def wrong_arrows(root: Path = SRC) -> list[str]:
    """Every import of a package of mtgdice that its importer's declaration does not allow."""
    wrong = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        if "__pycache__" in relative.parts:
            continue
        owner = relative.parts[0] if len(relative.parts) > 1 else relative.stem
        allowed = ALLOWED.get(owner, TOP.get(owner))
        if allowed is None:
            continue  # reported by layout_problems
        for name in _imports(path):
            package = _package_of(name)
            if package != owner and package not in allowed:
                wrong.append(
                    f"{relative} imports {name} ({owner} may import {', '.join(sorted(allowed)) or 'nothing'})"
                )
    return wrong


def cli_loops(root: Path = SRC) -> list[str]:
    """Imports inside cli/ that go back into the package ``mtgdice.cli`` or from one command to another."""
    wrong = []
    for path in _modules("cli", root):
        module = path.stem
        allowed = CLI_INSIDE.get(module, CLI_COMMAND)
        for name in _imports(path):
            if name == "mtgdice.cli" or name.startswith("mtgdice.cli."):
                inside = name.removeprefix("mtgdice.cli").removeprefix(".").split(".")[0]
                if inside not in allowed:
                    wrong.append(f"cli/{path.name} imports {name}")
    return wrong


def test_the_top_level_holds_init_errors_and_declared_packages() -> None:
    assert layout_problems() == []


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_every_declared_package_exists(layer: str) -> None:
    assert (SRC / layer / "__init__.py").exists() and _modules(layer)


def test_every_import_follows_the_declared_arrows() -> None:
    assert wrong_arrows() == []


def test_rules_import_nothing_above_them() -> None:
    wrong = [
        f"{path.relative_to(SRC)} imports {name}"
        for path in _modules("rules")
        for name in _imports(path)
        if not name.startswith("mtgdice.rules")
    ]
    assert wrong == [] and _modules("rules")


def test_no_layer_imports_a_shell() -> None:
    """The table itself: only the shells may import a shell, and the web app never imports the CLI."""
    assert [layer for layer in ALLOWED if layer not in SHELLS and ALLOWED[layer] & set(SHELLS)] == []
    assert "cli" not in ALLOWED["web"]


def test_a_command_module_never_imports_the_cli_package() -> None:
    assert cli_loops() == []


def test_every_lazy_subcommand_lives_in_a_module_of_cli() -> None:
    """The lazy group's table (read by importlib, so invisible to the walk above) names cli's modules."""
    from mtgdice.cli.common import COMMANDS

    wrong = [
        target
        for target in COMMANDS.values()
        if not re.fullmatch(r"mtgdice\.cli\.[a-z_]+:[a-z_]+", target)
        or target.split(":")[0].rsplit(".", 1)[1] in CLI_INSIDE
        or not (SRC / "cli" / (target.split(":")[0].rsplit(".", 1)[1] + ".py")).exists()
    ]
    assert wrong == [] and COMMANDS


def test_the_checker_catches_a_wrong_arrow(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from mtgdice.text import compile_text\nimport mtgdice.cli\n")
    assert _imports(bad) == ["mtgdice.text", "mtgdice.cli"]


def test_the_checks_fail_on_a_tree_that_breaks_them(tmp_path: Path) -> None:
    """An undeclared package, a module at the top, a wrong arrow and a loop back into cli are all caught."""
    root = tmp_path / "mtgdice"
    for folder in ("rules", "text", "cli", "extra"):
        (root / folder).mkdir(parents=True)
        (root / folder / "__init__.py").write_text("")
    (root / "__init__.py").write_text("")
    (root / "errors.py").write_text("from mtgdice.rules import x\n")
    (root / "loose.py").write_text("")
    (root / "rules" / "dice.py").write_text("from mtgdice.text import compile_text\n")
    (root / "text" / "grammar.py").write_text("from mtgdice.rules.dice import Die\n")
    (root / "cli" / "roll.py").write_text("from mtgdice.cli import console\nfrom mtgdice.cli.common import out\n")
    assert layout_problems(root) == [
        "extra/ is a package with no declared imports (add it to ALLOWED)",
        "loose.py stands at the top level (only __init__, errors and packages do)",
    ]
    assert wrong_arrows(root) == ["rules/dice.py imports mtgdice.text (rules may import nothing)"]
    assert cli_loops(root) == ["cli/roll.py imports mtgdice.cli"]


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
