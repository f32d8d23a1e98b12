"""``mtgdice simulate``: the vectorised simulation from the command line agrees with the exact odds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from scipy.stats import chisquare

MTGDICE = str(Path(sys.executable).with_name("mtgdice"))


def test_simulate_spellbook_with_advantage_matches_the_exact_rows(cards_path: str) -> None:
    rolls = 200_000
    run = subprocess.run(
        [
            MTGDICE,
            "simulate",
            "--cards",
            cards_path,
            "--card",
            "Wizard's Spellbook",
            "--with",
            "Pixie Guide",
            "--rolls",
            str(rolls),
            "--seed",
            "7",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["rolls"] == rolls and data["no_row"] == 0
    expected = [rolls * p for p in (81 / 400, 280 / 400, 39 / 400)]
    assert chisquare(data["rows"], expected).pvalue > 0.001


def test_simulate_refuses_an_absurd_count(cards_path: str) -> None:
    run = subprocess.run(
        [MTGDICE, "simulate", "--cards", cards_path, "--card", "Hoarding Ogre", "--rolls", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and "--rolls" in run.stderr and len(run.stderr.strip().splitlines()) == 1
