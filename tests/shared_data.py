"""Where the shared project data lives (``../shared``, next to the repository), for tests.

``shared_path("cards", "dice-cards.json")`` is the path of a shared file. When it is missing, the
test is skipped with a message, unless ``MTGDICE_REQUIRE_SHARED=1``: then it fails.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

import pytest

SHARED_ROOT = Path(os.environ.get("MTGDICE_SHARED") or Path(__file__).resolve().parents[1].parent / "shared")
"""``MTGDICE_SHARED`` names the shared folder when it does not sit next to the repository (a git worktree)."""
SHARED = SHARED_ROOT


def shared_path(*parts: str) -> Path:
    """The path of a file in the shared folder; skips (or fails) the test when it is missing."""
    path = SHARED_ROOT.joinpath(*parts)
    if not path.exists():
        message = f"shared data {path} is missing (the shared folder sits next to the repository)"
        if os.environ.get("MTGDICE_REQUIRE_SHARED") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return path


def conformance_checker() -> ModuleType:
    """The shared conformance checker (``conformance/check.py``), loaded as a module for its ``compare``."""
    spec = importlib.util.spec_from_file_location("conformance_check", shared_path("conformance", "check.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
