"""The fairness self-test: chi-square per die size and the planar die's 1/1/4 split."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mtgdice.errors import InputError
from mtgdice.fair.selftest import check_fairness, parse_dice, upper_gamma_q
from mtgdice.rules import PLANAR_DIE, Die


def test_seeded_source_is_fair() -> None:
    report = check_fairness(parse_dice("d4,d6,d20,planar"), 12_000, "seeded", seed=706)
    assert report.fair
    planar = report.dice[-1]
    assert planar.die == PLANAR_DIE
    assert dict(planar.expected) == {"chaos": 2000.0, "planeswalk": 2000.0, "blank": 8000.0}
    assert sum(count for _, count in planar.observed) == 12_000


def test_secure_source_is_fair() -> None:
    assert check_fairness((Die(6),), 6_000, "secure").dice[0].degrees == 5


def test_a_loaded_die_is_caught() -> None:
    from mtgdice.fair.selftest import die_fairness

    class Loaded:
        name = "loaded"

        def roll(self, die: Die) -> int:
            return 6

    assert not die_fairness(Loaded(), Die(6), 600).fair


def test_p_values_match_scipy() -> None:
    from scipy.stats import chi2

    for degrees, statistic in [(1, 0.5), (3, 7.8), (19, 30.1), (5, 40.0), (2, 0.01)]:
        assert upper_gamma_q(degrees / 2, statistic / 2) == pytest.approx(chi2.sf(statistic, degrees), rel=1e-9)


@pytest.mark.parametrize("spec", ["d1", "x7", "", "d20,,zz"])
def test_bad_dice(spec: str) -> None:
    with pytest.raises(InputError):
        parse_dice(spec)


def test_cli_fairness() -> None:
    from mtgdice.cli import cli as app

    runner = CliRunner()
    result = runner.invoke(
        app, ["fairness", "--rolls", "3000", "--dice", "d6,planar", "--source", "seeded", "--seed", "5", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [die["die"] for die in data["dice"]] == ["d6", "planar die"]
    bad = runner.invoke(app, ["fairness", "--source", "dice-tower"])
    assert bad.exit_code == 2


def test_the_room_dice_are_fair_and_one_nonce_per_roll() -> None:
    from mtgdice.fair.commit import CommitRevealSource
    from mtgdice.fair.selftest import RoomDice

    report = check_fairness(parse_dice("d6,d20,planar"), 12_000, "room", seed=12345)
    assert report.fair and report.source == "room"
    seed = (12345).to_bytes(32, "big")
    dice = RoomDice(seed)
    first = [dice.roll(Die(20)) for _ in range(3)]
    assert first == [CommitRevealSource(seed, (), nonce).roll(Die(20)) for nonce in range(3)]


def test_fairness_refuses_what_its_budget_does_not_allow() -> None:
    import subprocess
    import sys

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "mtgdice.cli", "fairness", *args], capture_output=True, text=True, timeout=60
        )

    for args, needle in ((("--dice", "d100000000"), "d100000000"), (("--rolls", "1000000000000"), "rolls")):
        done = run(*args)
        assert done.returncode == 2 and needle in done.stderr and "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
