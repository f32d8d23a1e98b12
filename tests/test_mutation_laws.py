"""The law arithmetic of ``rules/transforms.py`` against plain enumeration of every face sequence.

Each operation the composed odds fold (CR 706.6 order statistics, a group's kept die, a reroll's
mixture and its geometric settling, ±N) is compared on small laws — uniform dice and lopsided ones
with a value of weight zero, whose low is not 1 — with the same quantity counted over every
sequence of faces by ``itertools.product``, which shares nothing with the closed forms. Written to
kill the ``rules/transforms.py`` mutants of the mutation run (bench/results/mutation-2026-12-02-*.md).
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from mtgdice.rules.transforms import Keep, Law

LAWS = {
    "d2": Law.uniform(2),
    "d4": Law.uniform(4),
    "lopsided": Law(2, (1, 0, 3, 2), 6),  # 2: 1, 3: 0, 4: 3, 5: 2 ways of 6
    "zero at the ends": Law(0, (0, 2, 1, 0), 3),
}


def _faces(law: Law) -> list[tuple[int, int]]:
    return [(value, weight) for value, weight in zip(law.values(), law.weights, strict=True)]


def _sequences(law: Law, dice: int) -> list[tuple[tuple[int, ...], int]]:
    """Every sequence of ``dice`` faces with its number of ways (out of denominator ** dice)."""
    found = []
    for combo in itertools.product(_faces(law), repeat=dice):
        ways = 1
        for _, weight in combo:
            ways *= weight
        found.append((tuple(value for value, _ in combo), ways))
    return found


def _as_fractions(law: Law) -> dict[int, Fraction]:
    return {value: Fraction(w, law.denominator) for value, w in _faces(law) if w}


def _counted(pairs: list[tuple[int, int]], denominator: int) -> dict[int, Fraction]:
    total: Counter[int] = Counter()
    for value, ways in pairs:
        total[value] += ways
    return {value: Fraction(ways, denominator) for value, ways in total.items() if ways}


@pytest.mark.parametrize("name", list(LAWS))
@pytest.mark.parametrize(("dice", "kept"), [(1, 1), (2, 1), (3, 1), (3, 2), (4, 2), (3, 3)])
def test_top_multisets_equal_enumeration(name: str, dice: int, kept: int) -> None:
    law = LAWS[name]
    expected: Counter[tuple[int, ...]] = Counter()
    for faces, ways in _sequences(law, dice):
        if ways:
            expected[tuple(sorted(faces)[dice - kept :])] += ways
    found = dict(law.top_multisets(dice, kept))
    assert {key: ways for key, ways in found.items() if ways} == dict(expected)
    assert sum(found.values()) == law.denominator**dice


@pytest.mark.parametrize("name", list(LAWS))
@pytest.mark.parametrize("count", [1, 2, 3])
def test_highest_and_lowest_of_equal_enumeration(name: str, count: int) -> None:
    law = LAWS[name]
    sequences = _sequences(law, count)
    denominator = law.denominator**count
    highest = law.highest_of(count)
    lowest = law.lowest_of(count)
    assert highest.denominator == lowest.denominator == denominator
    assert (highest.low, lowest.low) == (law.low, law.low)
    assert _as_fractions(highest) == _counted([(max(f), w) for f, w in sequences], denominator)
    assert _as_fractions(lowest) == _counted([(min(f), w) for f, w in sequences], denominator)


@pytest.mark.parametrize("name", list(LAWS))
def test_the_kept_die_of_a_group(name: str) -> None:
    law = LAWS[name]
    assert law.kept_of_group(1, Keep.HIGHEST) == law
    assert law.kept_of_group(3, Keep.FIRST) == law
    assert law.kept_of_group(2, Keep.HIGHEST) == law.highest_of(2)
    assert law.kept_of_group(2, Keep.LOWEST) == law.lowest_of(2)


def test_a_shift_moves_every_value() -> None:
    law = LAWS["lopsided"].shifted(-3)
    assert (law.low, law.high, law.weights, law.denominator) == (-1, 2, (1, 0, 3, 2), 6)
    assert list(law.values()) == [-1, 0, 1, 2]


def test_probability_inside_and_outside_the_law() -> None:
    law = LAWS["lopsided"]
    assert [law.probability(v) for v in range(0, 8)] == [
        Fraction(0),
        Fraction(0),
        Fraction(1, 6),
        Fraction(0),
        Fraction(1, 2),
        Fraction(1, 3),
        Fraction(0),
        Fraction(0),
    ]
    assert law.high == 5


@pytest.mark.parametrize("name", list(LAWS))
@pytest.mark.parametrize("new_name", ["d2", "lopsided"])
def test_a_reroll_mixture_equals_enumeration(name: str, new_name: str) -> None:
    # One die of ``law``; when it shows an even value it is replaced by one draw of ``new``.
    law, new = LAWS[name], LAWS[new_name]

    def even(value: int) -> bool:
        return value % 2 == 0

    pairs = []
    for value, weight in _faces(law):
        for other, other_weight in _faces(new):
            pairs.append((other if even(value) else value, weight * other_weight))
    mixed = law.mixed(even, new)
    assert mixed.denominator == law.denominator * new.denominator
    assert _as_fractions(mixed) == _counted(pairs, law.denominator * new.denominator)


def test_split_keeps_the_rest_and_counts_the_moved_weight() -> None:
    rest, moved = LAWS["lopsided"].split(lambda value: value >= 4)
    assert (rest, moved) == (Law(2, (1, 0, 0, 0), 6), 5)


def test_settling_redraws_until_the_condition_fails() -> None:
    # A d4 redrawn while it shows 1 or 2: 3 and 4 each 1/2 (the geometric series summed).
    settled = LAWS["d4"].settled(lambda value: value <= 2)
    assert settled is not None
    assert _as_fractions(settled) == {3: Fraction(1, 2), 4: Fraction(1, 2)}
    lopsided = LAWS["lopsided"].settled(lambda value: value == 5)
    assert lopsided is not None and _as_fractions(lopsided) == {2: Fraction(1, 4), 4: Fraction(3, 4)}
    assert LAWS["d2"].settled(lambda value: True) is None
