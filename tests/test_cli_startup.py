"""What a command loads: plain dice load neither the compiler, the card data, rich, numpy nor HTTP;
the lazy package namespaces give every public name. (How long start-up takes is measured in
``bench/bench_startup.py``, not asserted here.)"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "mtgdice"

PROBE = """
import json, sys
from mtgdice.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""

HEAVY = ("mtgdice.text.compiler", "mtgdice.io.jsonio", "msgspec", "mtgdice.cards", "rich", "numpy", "httpx")


def loaded(*args: str) -> set[str]:
    run = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=60)
    modules: list[str] = json.loads(run.stderr.strip().splitlines()[-1])
    return set(modules)


@pytest.mark.parametrize("args", [["roll", "--no-log", "3d6+2"], ["roll", "d20"], ["--version"]], ids=" ".join)
def test_plain_dice_and_version_load_nothing_heavy(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MTGDICE_DB", str(tmp_path / "rolls.sqlite"))
    modules = loaded(*args)
    heavy = sorted(name for name in modules if name.startswith(HEAVY))
    assert heavy == []


def test_a_card_roll_loads_what_it_needs(cards_path: str) -> None:
    modules = loaded("roll", "--no-log", "--cards", cards_path, "--card", "Hoarding Ogre", "--no-ask")
    assert {"mtgdice.rules.resolution", "mtgdice.text.compiler", "rich"} <= modules
    assert "numpy" not in modules and "httpx" not in modules and "fastapi" not in modules


@pytest.mark.parametrize("package", ["mtgdice", "mtgdice.text"])
def test_every_public_name_of_a_lazy_package_resolves(package: str) -> None:
    module = __import__(package, fromlist=["__all__"])
    missing = [name for name in module.__all__ if getattr(module, name, None) is None]
    assert missing == [] and set(module.__all__) <= set(dir(module))
    with pytest.raises(AttributeError):
        _ = module.no_such_name


@pytest.mark.parametrize("path", ["__init__.py", "text/__init__.py"])
def test_names_for_type_checkers_match_the_names_loaded(path: str) -> None:
    """The ``if TYPE_CHECKING:`` imports (what mypy sees) name exactly ``__all__`` (what loads)."""
    tree = ast.parse((SRC / path).read_text(encoding="utf-8"))
    checked = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        for child in node.body
        if isinstance(child, ast.ImportFrom)
        for alias in child.names
    }
    package = "mtgdice" + ("." + path.split("/")[0] if "/" in path else "")
    exported = set(__import__(package, fromlist=["__all__"]).__all__) - {"__version__"}
    assert checked == exported
