"""What the exact odds and the simulation refuse, and how: one line naming the limit and the way on.

A tie rerolled until it is broken ("each player rolls ... reroll to break ties") used to run the
counting of the first roll into the reroll cap, with an error that named neither the odds' limit
nor ``mtgdice simulate``; a simulation of a huge die with more rolls than it may count is refused
before any die is drawn. Also the two helpers of the fast paths these touch, checked by brute force.
"""

from __future__ import annotations

import subprocess
import sys
from itertools import product
from pathlib import Path

import pytest

from mtgdice.odds import Problem, count_first_roll, odds
from mtgdice.odds.enumerate import MAX_DEPTH
from mtgdice.odds.fast import _unlike
from mtgdice.rules import Amount, Board, Die, Permanent, PolicyChooser, RollInstruction, TurnState
from mtgdice.rules.board import PlayerZones
from mtgdice.rules.budget import Budget, Meter
from mtgdice.rules.errors import RollLimitError
from mtgdice.sim import simulate
from mtgdice.text import compile_text

MTGDICE = str(Path(sys.executable).with_name("mtgdice"))
TIES = (
    "Each player rolls a six-sided die. The player with the lowest result discards a card. "
    "Players who tied reroll to break ties."
)
REROLL_A_THREE = "If you roll a 3 on a six-sided die, you may reroll that die."


def _ties() -> RollInstruction:
    return compile_text(TIES).rolls[0]


@pytest.mark.parametrize("seats", [2, 3, 6])
def test_the_first_roll_of_a_tie_broken_by_rerolls_is_counted_without_a_tie(seats: int) -> None:
    board = Board(tuple(PlayerZones() for _ in range(seats)))
    problem = Problem(_ties(), "~", board, PolicyChooser(), {}, TurnState())
    assert count_first_roll(problem) == seats  # one die each; no tie, so no reroll


@pytest.mark.parametrize("policy", ["decline", "accept"])
def test_odds_of_ties_rerolled_name_the_draw_limit_and_the_simulation(policy: str) -> None:
    clam = Permanent("Clam", compile_text(REROLL_A_THREE).effects)
    with pytest.raises(RollLimitError) as refused:
        odds(_ties(), board=Board.from_zones(battlefield=(clam,)), policy=policy)
    message = str(refused.value)
    assert "\n" not in message
    assert f"more than {MAX_DEPTH} draws" in message and "mtgdice simulate" in message


def test_the_cli_refuses_the_tie_board_in_one_line_naming_simulate(cards_path: str) -> None:
    run = subprocess.run(
        [MTGDICE, "odds", "--cards", cards_path, "--card", "Ricochet", "--with", "Clam-I-Am", "--policy", "accept"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "mtgdice simulate" in lines[0] and str(MAX_DEPTH) in lines[0]


def test_a_simulation_that_could_count_more_results_than_its_budget_is_refused_up_front() -> None:
    meter = Meter(Budget(cells=1_000))
    with pytest.raises(RollLimitError) as refused:
        simulate(RollInstruction(Amount(1), Die(10**9)), rolls=1_001, seed=0, meter=meter)
    assert "1000" in str(refused.value) and "rolls" in str(refused.value)
    assert meter.draws == 0  # refused before any die was drawn


def test_a_simulation_of_few_totals_may_roll_past_the_cells() -> None:
    meter = Meter(Budget(cells=1_000))
    sim = simulate(RollInstruction(Amount(2), Die(6)), rolls=5_000, seed=0, meter=meter)
    assert sum(sim.results.values()) == 5_000 and len(sim.results) <= 11


@pytest.mark.parametrize(
    ("arguments", "field"),
    [(["--seed", "-1"], "seed"), (["--rolls", "5000000"], "rolls")],
    ids=["negative-seed", "more-results-than-cells"],
)
def test_the_simulate_command_refuses_in_one_line(tmp_path: Path, arguments: list[str], field: str) -> None:
    request = tmp_path / "huge.json"
    request.write_text('{"text": "Roll a d1000000000."}', encoding="utf-8")
    run = subprocess.run([MTGDICE, "simulate", str(request), *arguments], capture_output=True, text=True, timeout=120)
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 2 and len(lines) == 1 and field in lines[0], run.stderr


@pytest.mark.parametrize(("sides", "first"), [(1, 1), (1, 3), (2, 2), (4, 1), (4, 3), (6, 2), (3, 4)])
def test_unlike_finds_unlike_faces_for_exactly_the_totals_that_have_them(sides: int, first: int) -> None:
    reached: dict[int, bool] = {}  # total -> whether some sequence of unlike faces reaches it
    for faces in product(range(1, sides + 1), repeat=first):
        total = sum(faces)
        reached[total] = reached.get(total, False) or len(set(faces)) > 1 or first < 2
    for total, has_unlike in reached.items():
        found = _unlike(total, sides, first)
        if not has_unlike:
            assert found is None
            continue
        assert found is not None and sum(found) == total and len(found) == first
        assert all(1 <= face <= sides for face in found)
        assert first < 2 or len(set(found)) > 1
