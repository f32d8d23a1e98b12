"""The public conformance suites (../shared/conformance/rules.json and rules-v3.json), case by case.

In process through the JSON interface (``resolve_json``), compared with the suite's own checker
(``compare`` of ../shared/conformance/check.py, loaded by path); and once end to end through the
real ``mtgdice resolve`` command with check.py itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from shared_data import SHARED_ROOT, conformance_checker, shared_path

SUITE = SHARED_ROOT / "conformance" / "rules.json"
CASES = json.loads(SUITE.read_text()) if SUITE.exists() else []
SUITE_V3 = SHARED_ROOT / "conformance" / "rules-v3.json"
CASES_V3 = json.loads(SUITE_V3.read_text()) if SUITE_V3.exists() else []


def test_suite_is_present() -> None:
    shared_path("conformance", "rules.json")
    assert len(CASES) >= 49


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_conformance_case(case: dict[str, Any], run: Any) -> None:
    outcome = json.loads(json.dumps(run(case["input"])))
    problems = conformance_checker().compare(case["expect"], outcome)
    assert problems == [], f"{case['id']} [{case['rule']}] {case['why']}: " + "; ".join(problems)


def test_v3_suite_is_present() -> None:
    shared_path("conformance", "rules-v3.json")
    assert len(CASES_V3) >= 17


@pytest.mark.parametrize("case", [pytest.param(case, id=case["id"]) for case in CASES_V3])
def test_conformance_v3_case(case: dict[str, Any], run: Any) -> None:
    outcome = json.loads(json.dumps(run(case["input"])))
    problems = conformance_checker().compare(case["expect"], outcome)
    assert problems == [], f"{case['id']} [{case['rule']}] {case['why']}: " + "; ".join(problems)


def test_check_py_through_the_cli(cards_path: str) -> None:
    """The acceptance command itself: check.py against `mtgdice resolve`."""
    mtgdice = Path(sys.executable).with_name("mtgdice")
    command = [
        sys.executable,
        str(shared_path("conformance", "check.py")),
        str(SUITE),
        "--cards",
        cards_path,
        "--cmd",
        f"{mtgdice} resolve",
    ]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600, env=os.environ.copy())
    assert run.stdout.strip().splitlines()[-1] == f"{len(CASES)} passed, 0 failed", run.stdout[-2000:]
    assert run.returncode == 0
