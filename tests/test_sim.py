"""The vectorised simulation agrees with the exact engine (chi-square), and is reproducible."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from mtgdice.odds import odds
from mtgdice.rules import Amount, Board, Die, Permanent, RollInstruction
from mtgdice.sim import simulate

# (card, battlefield, graveyard, policy, amounts, expected method)
CASES = [
    ("Wizard's Spellbook", ("Pixie Guide",), (), "decline", {}, "vectorised"),
    ("Hoarding Ogre", (), (), "decline", {}, "vectorised"),
    ("Hoarding Ogre", ("Pixie Guide",), ("Critical Hit",), "decline", {}, "vectorised"),
    ("Delina, Wild Mage", ("Pixie Guide",), (), "accept", {}, "vectorised"),
    ("Sword of Dungeons & Dragons", (), ("Critical Hit",), "decline", {}, "vectorised"),
    ("Elvish Impersonators", (), (), "decline", {}, "vectorised"),
    ("Hoarding Ogre", ("Squirrel-Powered Scheme",), (), "decline", {}, "vectorised"),
    ("Very Cryptic Command", ("Pixie Guide",), (), "decline", {}, "vectorised"),
    ("Six-Sided Die", (), (), "decline", {}, "vectorised"),
    ("Goblin Tutor", ("Pixie Guide",), (), "decline", {}, "vectorised"),
    ("Underdark Rift", (), (), "decline", {}, "vectorised"),
    ("Netherese Puzzle-Ward", (), (), "decline", {}, "vectorised"),
    ("Treasure Chest", ("Barbarian Class",), (), "decline", {}, "vectorised"),
    ("Hydradoodle", (), (), "decline", {"X": 3}, "vectorised"),
    ("Neverwinter Hydra", ("Pixie Guide",), (), "decline", {"X": 4}, "vectorised"),
    ("Spiked Pit Trap", ("Pixie Guide", "Pixie Guide"), (), "decline", {}, "vectorised"),
    ("Urza's Science Fair Project", (), (), "decline", {}, "vectorised"),
    ("Thud-for-Duds", ("Pixie Guide",), (), "decline", {}, "vectorised"),
    ("Lae'zel's Acrobatics", (), (), "decline", {}, "vectorised"),
    ("Fractured Powerstone", (), (), "decline", {}, "resolve loop"),
    ("Grave Endeavor", (), (), "decline", {}, "resolve loop"),
    ("Hoarding Ogre", ("Krark's Other Thumb",), (), "maximize", {}, "resolve loop"),
    ("Goblin Bowling Team", ("Clam-I-Am",), (), "accept", {}, "resolve loop"),
]


def _board(compiled: Any, battlefield: tuple[str, ...], graveyard: tuple[str, ...]) -> Board:
    return Board.from_zones(
        battlefield=tuple(Permanent(name, compiled(name).effects) for name in battlefield),
        graveyard=tuple(Permanent(name, compiled(name).effects) for name in graveyard),
    )


@pytest.fixture(scope="module")
def compiled(catalog: Any) -> Any:
    from mtgdice.game.request import compile_record

    return lambda name: compile_record(catalog.lookup(name))


def chi_square_p(observed: dict[Any, int], exact: dict[Any, Fraction], rolls: int) -> float:
    """Pearson's test of counts against exact probabilities; bins expected below 5 are pooled."""
    from scipy.stats import chisquare

    assert set(observed) <= set(exact), set(observed) - set(exact)
    f_obs: list[float] = []
    f_exp: list[float] = []
    pooled_obs = pooled_exp = 0.0
    for key, p in exact.items():
        expected = float(p) * rolls
        if expected < 5:
            pooled_obs += observed.get(key, 0)
            pooled_exp += expected
        else:
            f_obs.append(observed.get(key, 0))
            f_exp.append(expected)
    if pooled_exp > 0:
        f_obs.append(pooled_obs)
        f_exp.append(pooled_exp)
    if len(f_obs) < 2:
        return 1.0
    return float(chisquare(f_obs, f_exp).pvalue)


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}+{'+'.join(c[1] + c[2]) or 'alone'}" for c in CASES])
def test_simulation_agrees_with_exact_odds(case: tuple[Any, ...], compiled: Any) -> None:
    name, battlefield, graveyard, policy, amounts, method = case
    instruction = compiled(name).rolls[0]
    board = _board(compiled, battlefield, graveyard)
    exact = odds(instruction, source=name, board=board, policy=policy, amounts=amounts)
    rolls = 40_000 if method == "vectorised" else 8_000
    sim = simulate(instruction, source=name, board=board, policy=policy, amounts=amounts, rolls=rolls, seed=706)
    assert sim.method == method
    assert sum(sim.results.values()) == rolls
    assert chi_square_p(sim.results, dict(exact.results), rolls) > 0.001
    if instruction.table is not None:
        rows = dict(enumerate(sim.rows))
        rows[-1] = sim.no_row
        probabilities = dict(enumerate(exact.rows))
        probabilities[-1] = exact.no_row or Fraction(0)
        assert chi_square_p(rows, probabilities, rolls) > 0.001
    first = dict(exact.first)
    again = sum((p for summary, p in first.items() if summary.again), Fraction(0))
    assert chi_square_p({True: sim.again, False: rolls - sim.again}, {True: again, False: 1 - again}, rolls) > 0.001
    # Over whole resolutions (every roll again and repeat carried out): executions and triggerings,
    # each a z-test of the per-resolution mean against the exact expectation.
    se = max(sim.standard_error(sim.executions, sim.executions_squared), 1e-9)
    assert abs(sim.expected_executions - float(exact.expected_executions)) / se < 5
    expected = dict(exact.triggers)
    assert set(sim.triggers) <= set(expected)
    for card, mean in expected.items():
        count = sim.triggers.get(card, 0)
        se = max(sim.standard_error(count, sim.triggers_squared.get(card, 0)), 1 / rolls)
        assert abs(count / rolls - float(mean)) / se < 5, (card, count, mean)


def test_seeded_simulation_is_reproducible() -> None:
    instruction = RollInstruction(Amount(3), Die(6), ignore_lowest=1)
    a = simulate(instruction, rolls=5000, seed=1, chunk=1000)
    b = simulate(instruction, rolls=5000, seed=1, chunk=1000)
    assert a == b
    assert sum(a.results.values()) == 5000


def test_large_pool_vectorised_matches_exact() -> None:
    instruction = RollInstruction(Amount(10), Die(20), keep_highest=3)
    sim = simulate(instruction, rolls=50_000, seed=3)
    assert sim.method == "vectorised"
    assert chi_square_p(sim.results, dict(odds(instruction).results), 50_000) > 0.001


def test_progress_bar_runs() -> None:
    sim = simulate(RollInstruction(Amount(1), Die(20)), rolls=3000, seed=2, chunk=1000, progress=True)
    assert sim.rolls == 3000


def test_a_negative_seed_is_refused_naming_the_field() -> None:
    from mtgdice.rules.errors import InputError

    with pytest.raises(InputError, match="seed"):
        simulate(RollInstruction(Amount(1), Die(20)), rolls=10, seed=-1)


def test_a_die_far_wider_than_the_sample_counts_only_the_values_rolled() -> None:
    # A d1000000000: tallying by offset would hold a billion counters; the sample holds 2,000 values.
    sim = simulate(RollInstruction(Amount(2), Die(10**9)), rolls=2_000, seed=3)
    assert sum(sim.results.values()) == 2_000
    assert all(2 <= total <= 2 * 10**9 for total in sim.results)
    assert len(sim.results) > 1_900  # nearly every total distinct
