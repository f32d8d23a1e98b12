"""The documentation site: its API reference lists exactly the public API, every public name has a
doctested example, every page is in the navigation, the code on the pages runs, the numbers on the
limits page are the code's, and no page cites notes that are not in the repository.

``mkdocs build --strict`` itself runs in ``.ci/run`` (it needs the ``docs`` extra). The odds chart the
site shows is made here: ``test-artifacts/odds-chart.png`` (the site uses the committed copy
``docs/odds-chart.png``; the room screenshot comes from ``tests/test_browser.py``).
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import mtgdice
from mtgdice.rules.budget import CLI_BUDGET, WEB_BUDGET

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
ARTIFACTS = ROOT / "test-artifacts"
PAGES = sorted(DOCS.rglob("*.md"))
PNG = b"\x89PNG\r\n\x1a\n"


def _directives(text: str) -> list[str]:
    return re.findall(r"^::: *(\S+)", text, flags=re.MULTILINE)


def test_the_api_page_documents_exactly_the_public_api() -> None:
    documented = _directives((DOCS / "api.md").read_text(encoding="utf-8"))
    assert sorted(documented) == sorted(f"mtgdice.{name}" for name in mtgdice.__all__)
    assert len(documented) == len(set(documented))
    elsewhere = {page.name: _directives(page.read_text(encoding="utf-8")) for page in PAGES if page.name != "api.md"}
    assert {name: found for name, found in elsewhere.items() if found} == {}


def _version_docstring() -> str | None:
    tree = ast.parse((ROOT / "src" / "mtgdice" / "__init__.py").read_text(encoding="utf-8"))
    body = tree.body
    for node, following in zip(body, body[1:], strict=False):
        targets = [target.id for target in getattr(node, "targets", []) if isinstance(target, ast.Name)]
        if targets == ["__version__"] and isinstance(following, ast.Expr):
            value = following.value
            return value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) else None
    return None


@pytest.mark.parametrize("name", mtgdice.__all__)
def test_every_public_name_has_a_docstring_with_an_example(name: str) -> None:
    if name == "__version__":
        doc = _version_docstring()
    elif name == "PLANAR_DIE":
        source = (ROOT / "src" / "mtgdice" / "rules" / "dice.py").read_text(encoding="utf-8")
        doc = source.split("PLANAR_DIE = Die(None)\n", 1)[1].split('"""')[1]
    else:
        doc = getattr(mtgdice, name).__doc__
    assert doc and doc.strip(), f"{name} has no docstring"
    assert ">>> " in doc, f"{name}'s docstring has no example"


def _nav_files(node: object) -> list[str]:
    if isinstance(node, str):
        return [node] if node.endswith(".md") else []
    if isinstance(node, list):
        return [path for item in node for path in _nav_files(item)]
    if isinstance(node, dict):
        return [path for value in node.values() for path in _nav_files(value)]
    return []


def test_every_page_is_in_the_navigation_and_every_entry_exists() -> None:
    yaml = pytest.importorskip("yaml")
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    nav = _nav_files(config["nav"])
    assert sorted(nav) == sorted(str(page.relative_to(DOCS)) for page in PAGES)
    assert config["strict"] is True


def test_no_page_or_module_cites_notes_outside_the_repository() -> None:
    cited = []
    for path in [*PAGES, *sorted((ROOT / "src").rglob("*.py")), ROOT / "README.md"]:
        text = path.read_text(encoding="utf-8")
        cited += [f"{path.relative_to(ROOT)}" for line in text.splitlines() if "DESIGN.md" in line]
    assert cited == []
    design = (DOCS / "design.md").read_text(encoding="utf-8")
    for number in range(1, 16):  # the steps src/ cites as "docs/design.md §N"
        assert re.search(rf"^### {number}\. ", design, flags=re.MULTILINE), number
    citations = set()
    for path in sorted((ROOT / "src").rglob("*.py")):
        citations |= {int(n) for n in re.findall(r"docs/design\.md §(\d+)", path.read_text(encoding="utf-8"))}
    assert citations and max(citations) <= 15


def _python_blocks() -> list[tuple[str, str]]:
    blocks = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for number, block in enumerate(re.findall(r"^```python\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)):
            blocks.append((f"{page.relative_to(DOCS)}#{number}", block))
    return blocks


@pytest.mark.parametrize(("where", "code"), _python_blocks(), ids=[where for where, _ in _python_blocks()])
def test_the_python_on_the_pages_runs(where: str, code: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(code, where, "exec"), {"__name__": "docs"})


def test_the_limits_page_shows_the_budgets_of_the_code() -> None:
    text = (DOCS / "limits.md").read_text(encoding="utf-8")
    shown = {}
    for row in re.findall(r"^\| `(\w+)` \|[^|]*\| *([^|]+?) *\| *([^|]+?) *\|$", text, flags=re.MULTILINE):
        field, cli, web = row
        shown[field] = (cli, web)

    def number(text: str) -> float | None:
        return None if text == "none" else float(text.replace(" ", ""))

    assert set(shown) == {"dice", "options", "runs", "cells", "rolls", "draws", "seconds"}
    for field, (cli, web) in shown.items():
        assert (number(cli), number(web)) == (getattr(CLI_BUDGET, field), getattr(WEB_BUDGET, field)), field


def test_shell_completion_as_the_docs_say() -> None:
    assert "_MTGDICE_COMPLETE=bash_source mtgdice" in (DOCS / "start" / "player.md").read_text(encoding="utf-8")
    env = dict(os.environ, COMP_WORDS="mtgdice ca", COMP_CWORD="1", _MTGDICE_COMPLETE="bash_complete")
    env["PYTHONPATH"] = str(ROOT / "src")
    done = subprocess.run(
        [sys.executable, "-m", "mtgdice"], capture_output=True, text=True, timeout=60, env=env, check=False
    )
    assert done.stdout.split() == ["plain,cards"], done.stderr


def test_the_odds_chart_of_the_site(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    ARTIFACTS.mkdir(exist_ok=True)
    chart = ARTIFACTS / "odds-chart.png"
    env = {key: value for key, value in os.environ.items() if key not in ("MTGDICE_CARDS", "MTGDICE_EMBEDDED_CARDS")}
    env |= {"MTGDICE_INDEX": str(tmp_path / "none.sqlite"), "PYTHONPATH": str(ROOT / "src"), "MPLBACKEND": "Agg"}
    command = ["odds", "--card", "Wizard's Spellbook", "--with", "Pixie Guide", "--plot", str(chart)]
    done = subprocess.run(
        [sys.executable, "-m", "mtgdice", *command], capture_output=True, text=True, timeout=120, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "81/400" in done.stdout and chart.read_bytes().startswith(PNG) and chart.stat().st_size > 10_000
    assert (DOCS / "odds-chart.png").read_bytes().startswith(PNG)
    assert (DOCS / "room.png").read_bytes().startswith(PNG)
