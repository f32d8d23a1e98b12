"""A fairness self-test of a dice source (CR 706.1b: a digital substitute must be fair).

:func:`check_fairness` rolls a :class:`~mtgdice.rules.DiceSource` (``secure`` or ``seeded``)
many times for each chosen die and runs Pearson's chi-square goodness-of-fit test against the
uniform distribution over the die's faces; for the planar die it tests the 1/6 chaos,
1/6 planeswalk, 4/6 blank split (CR 901.3). The p-value uses the regularised upper incomplete
gamma function (series and continued fraction, as in Numerical Recipes), so no scipy is needed.

It leaves out sequential tests (runs, autocorrelation) and the verifiable room source.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from mtgdice.errors import InputError
from mtgdice.rules import PLANAR_DIE, DiceSource, Die, Face, SecureSource, SeededSource
from mtgdice.rules.budget import Meter

ALPHA = 0.001
"""A die fails when its p-value is below this (a fair source fails one test in a thousand)."""

MIN_EXPECTED = 5.0
"""Chi-square's approximation holds only when every face is expected this many times or more."""


@dataclass(frozen=True, slots=True)
class DieFairness:
    """One die's test: observed counts per face (distinct faces, in order), chi-square, p-value."""

    die: Die
    rolls: int
    observed: tuple[tuple[str, int], ...]
    expected: tuple[tuple[str, float], ...]
    chi_square: float
    degrees: int
    p_value: float

    @property
    def fair(self) -> bool:
        return self.p_value >= ALPHA

    def too_few(self) -> str | None:
        """A warning when some face is expected fewer than :data:`MIN_EXPECTED` times (the test's
        p-value is not valid then), else ``None``.

        >>> from mtgdice.rules import SeededSource
        >>> print(die_fairness(SeededSource(1), Die(20), 60).too_few())
        d20: 3 rolls expected per face, fewer than the 5 chi-square needs; use --rolls 100 or more
        >>> die_fairness(SeededSource(1), Die(20), 100).too_few() is None
        True
        """
        fewest = min(want for _, want in self.expected)
        if fewest >= MIN_EXPECTED:
            return None
        needed = math.ceil(self.rolls * MIN_EXPECTED / fewest)
        return (
            f"{self.die.name}: {fewest:g} rolls expected per face, fewer than the {MIN_EXPECTED:g} chi-square "
            f"needs; use --rolls {needed} or more"
        )


@dataclass(frozen=True, slots=True)
class FairnessReport:
    """Every die tested with one source."""

    source: str
    dice: tuple[DieFairness, ...]

    @property
    def fair(self) -> bool:
        return all(result.fair for result in self.dice)

    def to_json(self) -> dict[str, object]:
        return {
            "source": self.source,
            "fair": self.fair,
            "dice": [
                {
                    "die": result.die.name,
                    "rolls": result.rolls,
                    "chi_square": result.chi_square,
                    "degrees_of_freedom": result.degrees,
                    "p_value": result.p_value,
                    "fair": result.fair,
                    "too_few": result.too_few(),
                    "observed": dict(result.observed),
                }
                for result in self.dice
            ],
        }


def parse_dice(spec: str) -> tuple[Die, ...]:
    """``"d4,d6,planar"`` as dice.

    >>> [die.name for die in parse_dice("d4, d20, planar")]
    ['d4', 'd20', 'planar die']
    """
    dice: list[Die] = []
    for word in (part.strip().lower() for part in spec.split(",")):
        if not word:
            continue
        if word in ("planar", "planar die"):
            dice.append(PLANAR_DIE)
        elif word.startswith("d") and word[1:].isdigit() and int(word[1:]) >= 2:
            dice.append(Die(int(word[1:])))
        else:
            raise InputError("--dice", f"{word!r} is not a die; write d4, d6, d20 or planar, separated by commas")
    if not dice:
        raise InputError("--dice", "name at least one die, e.g. d6,d20,planar")
    return tuple(dice)


class RoomDice:
    """The dice of a web room, as a room rolls them: one commit-reveal source per roll (a new nonce
    each time) under a fresh secret seed, so the test reads the same HMAC-to-face derivation and
    rejection sampling every room roll goes through (:mod:`mtgdice.fair.commit`)."""

    name = "room"

    def __init__(self, seed: bytes | None = None) -> None:
        from mtgdice.fair.commit import new_seed

        self._seed = seed or new_seed()
        self._nonce = 0

    def roll(self, die: Die) -> Face:
        from mtgdice.fair.commit import CommitRevealSource

        source = CommitRevealSource(self._seed, (), self._nonce)
        self._nonce += 1
        return source.roll(die)


SOURCES = ("secure", "seeded", "room")


def source_named(name: str, seed: int | None = None) -> DiceSource:
    """The ``secure``, ``seeded`` or ``room`` source."""
    if name == "secure":
        return SecureSource()
    if name == "seeded":
        return SeededSource(seed)
    if name == "room":
        return RoomDice(None if seed is None else seed.to_bytes(32, "big", signed=False))
    raise InputError("--source", f"{name!r} is not a source; use {', '.join(SOURCES)}")


def upper_gamma_q(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x), for chi-square p-values.

    >>> round(upper_gamma_q(1.0, 2.0), 6) == round(math.exp(-2.0), 6)
    True
    """
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def die_fairness(source: DiceSource, die: Die, rolls: int, meter: Meter | None = None) -> DieFairness:
    """Roll ``die`` ``rolls`` times from ``source`` and test the counts (within ``meter``'s budget:
    the rolls, a count per face)."""
    meter = meter or Meter()
    meter.check_cells(len(die.faces), f"counting the faces of a {die.name}")
    meter.spend_rolls(rolls)
    counts = Counter(source.roll(die) for _ in range(rolls))
    shares = Counter(die.faces)
    observed: list[tuple[str, int]] = []
    expected: list[tuple[str, float]] = []
    chi = 0.0
    for face, share in shares.items():
        label = face.value if not isinstance(face, int) else str(face)
        want = rolls * share / len(die.faces)
        got = counts.get(face, 0)
        observed.append((label, got))
        expected.append((label, want))
        chi += (got - want) ** 2 / want
    degrees = len(shares) - 1
    return DieFairness(die, rolls, tuple(observed), tuple(expected), chi, degrees, upper_gamma_q(degrees / 2, chi / 2))


def check_fairness(
    dice: tuple[Die, ...], rolls: int, source: str = "secure", seed: int | None = None
) -> FairnessReport:
    """Test each die of ``dice`` with ``rolls`` rolls of the named source.

    >>> report = check_fairness(parse_dice("d6,planar"), 6000, "seeded", seed=3)
    >>> report.fair, [result.die.name for result in report.dice]
    (True, ['d6', 'planar die'])
    """
    if rolls < 10:
        raise InputError("--rolls", f"{rolls} rolls are too few for a chi-square test; use 10 or more")
    dice_source = source_named(source, seed)
    return FairnessReport(source, tuple(die_fairness(dice_source, die, rolls) for die in dice))


def fairness_table(report: FairnessReport) -> object:
    """A rich table of the report."""
    from rich.table import Table

    table = Table(
        title=f"Fairness of the {report.source} source (chi-square, fail below p = {ALPHA})", title_justify="left"
    )
    for column in ("die", "rolls", "chi-square", "df", "p-value", "verdict", "counts"):
        table.add_column(column, justify="left" if column in ("die", "counts", "verdict") else "right")
    for result in report.dice:
        counts = " ".join(f"{label}:{count}" for label, count in result.observed) if result.die.planar else ""
        table.add_row(
            result.die.name,
            str(result.rolls),
            f"{result.chi_square:.2f}",
            str(result.degrees),
            f"{result.p_value:.4f}",
            "fair" if result.fair else "SUSPECT",
            counts,
        )
    return table
