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


def test_simulate_reads_a_request_file_like_odds(tmp_path: Path) -> None:
    """A roll whose 6 repeats the process two more times (a repeat can repeat): 3/2 executions exactly."""
    rows = "\n".join(f"{face} | Draw a card." for face in range(1, 6))
    request = tmp_path / "repeat.json"
    text = f"Roll a six-sided die.\n{rows}\n6 | Repeat this process two more times."
    request.write_text(json.dumps({"text": text, "policy": "accept"}), encoding="utf-8")
    exact = json.loads(subprocess.run([MTGDICE, "odds", str(request), "--json"], capture_output=True, text=True).stdout)
    assert exact["expected_executions"] == "3/2"
    run = subprocess.run(
        [MTGDICE, "simulate", str(request), "--rolls", "200000", "--seed", "3", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    simulated = json.loads(run.stdout)
    # Executions per resolution are the total progeny of a branching process whose executions each
    # ask for 0 more (5/6) or 2 more (1/6): mean m = 1/3, variance s2 = 5/9, so the total has mean
    # 1 / (1 - m) = 3/2 and variance s2 / (1 - m)^3 = 15/8.
    assert abs(simulated["expected_executions"] - 1.5) < 5 * (15 / 8 / 200_000) ** 0.5
