"""How an effect changes the distribution of what it acts on: its transform (docs/architecture.md).

Beside its footprint, every effect kind says how it acts on the *law* of a die (each value with
its probability) instead of on one roll, so the odds engine can fold a board over the steps of
CR 706 without listing faces:

- adding dice and ignoring the lowest (CR 706.6) keeps the top order statistics of the dice;
- a die with partners, one of which the roller keeps, becomes the kept die of a group: the highest
  or the lowest of the group when the policy compares values, the first offered otherwise;
- a reroll permission makes a mixture: a die that meets the condition is replaced by a new roll
  (CR 706.2b), which "applies to rerolls as well" where the permission may reroll its own reroll;
- ±N shifts the law (CR 706.2);
- triggers add indicator expectations (one per counted die or per execution).

A kind that declares no transform (``None``) sends the odds engine to enumeration (default-deny).
This module holds the transform names and the law arithmetic, exact in integers over a common
denominator; it leaves out the fold itself (``mtgdice.odds.compose``).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations_with_replacement


class Transform(enum.Enum):
    """What an effect kind does to the law of the dice it acts on."""

    IDENTITY = "identity"
    """Changes no die's law (an ability that changes no roll, a coin effect: a coin is never a die)."""
    ORDER_STATISTIC = "order statistic"
    """Adds dice to the count and ignores the lowest: the counted dice are the top order statistics."""
    KEPT_OF_GROUP = "kept of group"
    """Each die becomes a group of which one is kept: max or min under a comparing policy, else the
    first offered (whose law is the die's own)."""
    MIXTURE = "mixture"
    """A die meeting a condition is replaced by a new roll: law | not c + P(c) x law of the new roll."""
    SHIFT = "shift"
    """The same amount added to every counted die it sees."""
    MAP = "map"
    """Each counted die's result maps to one result by a decision the policy makes from that die
    alone; read from the rules once per class of outcomes."""
    INDICATORS = "indicators"
    """Triggerings: expected counts are sums of indicator probabilities, read per class of outcomes."""


class Keep(enum.Enum):
    """Which die of a group a stateless policy keeps."""

    HIGHEST = "highest"
    LOWEST = "lowest"
    FIRST = "first"


@dataclass(frozen=True, slots=True)
class Law:
    """A law on consecutive integers: ``weights[i]`` ways out of ``denominator`` for ``low + i``.

    >>> law = Law.uniform(6)
    >>> law.probability(3)
    Fraction(1, 6)
    >>> law.highest_of(2).weights[-1], law.highest_of(2).denominator
    (11, 36)
    """

    low: int
    weights: tuple[int, ...]
    denominator: int

    @staticmethod
    def uniform(sides: int) -> Law:
        """A numbered die: faces 1..sides, one way each (CR 706.1a)."""
        return Law(1, (1,) * sides, sides)

    @property
    def high(self) -> int:
        return self.low + len(self.weights) - 1

    def values(self) -> range:
        return range(self.low, self.low + len(self.weights))

    def probability(self, value: int) -> object:
        from fractions import Fraction

        index = value - self.low
        return Fraction(self.weights[index], self.denominator) if 0 <= index < len(self.weights) else Fraction(0)

    def top_multisets(self, dice: int, kept: int) -> Iterator[tuple[tuple[int, ...], int]]:
        """CR 706.6, the lowest ignored: each multiset of the ``kept`` highest of ``dice`` dice of this
        law (in increasing order) with its number of ways out of ``denominator ** dice``.

        With ``low`` the lowest kept value, shown by ``at_low`` kept dice, the dice above it are
        placed among the positions (a multinomial); the ``rest`` show at most ``low``, at least
        ``at_low`` of them exactly ``low``.

        >>> sorted(Law.uniform(2).top_multisets(2, 1))
        [((1,), 1), ((2,), 3)]
        """
        support = [(value, weight) for value, weight in zip(self.values(), self.weights, strict=True) if weight]
        below: dict[int, int] = {}
        running = 0
        for value, weight in support:
            below[value] = running
            running += weight
        weight_of = dict(support)
        factorial = [math.factorial(n) for n in range(dice + 1)]
        tails: dict[tuple[int, int, int], int] = {}
        for combo in combinations_with_replacement([value for value, _ in support], kept):
            low = combo[0]
            at_low = 1
            while at_low < kept and combo[at_low] == low:
                at_low += 1
            rest = dice - kept + at_low
            ways = factorial[dice] // factorial[rest]
            run = 1
            weight = 1
            for position in range(at_low, kept):
                weight *= weight_of[combo[position]]
                if position > at_low and combo[position] == combo[position - 1]:
                    run += 1
                    ways //= run
                else:
                    run = 1
            key = (low, rest, at_low)
            tail = tails.get(key)
            if tail is None:
                tail = sum(
                    math.comb(rest, i) * weight_of[low] ** i * below[low] ** (rest - i) for i in range(at_low, rest + 1)
                )
                tails[key] = tail
            yield combo, ways * weight * tail

    def sum_of(self, count: int) -> Law:
        """The total of ``count`` (1 or more) independent dice of this law, exactly.

        The weights are the coefficients of a polynomial and the total's law is its ``count``-th
        power, taken as one power of an integer (Kronecker substitution): each weight is packed in
        a field of bytes wide enough for the largest coefficient, ``sum(weights) ** count``, so no
        field carries into the next, and the coefficients are read back field by field.

        >>> two = Law.uniform(6).sum_of(2)
        >>> two.low, two.weights, two.denominator
        (2, (1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1), 36)
        """
        if count < 1:
            raise ValueError(f"sum_of: {count} dice; a total needs one or more")
        width = (sum(self.weights) ** count).bit_length() // 8 + 1
        packed = int.from_bytes(b"".join(weight.to_bytes(width, "little") for weight in self.weights), "little")
        length = (len(self.weights) - 1) * count + 1
        raw = (packed**count).to_bytes(width * length, "little")
        weights = tuple(int.from_bytes(raw[i * width : (i + 1) * width], "little") for i in range(length))
        return Law(self.low * count, weights, self.denominator**count)

    def highest_of(self, count: int) -> Law:
        """The highest of ``count`` independent dice of this law: P(max <= v) = F(v)^count."""
        cumulative = 0
        previous = 0
        out = []
        for weight in self.weights:
            cumulative += weight
            power = cumulative**count
            out.append(power - previous)
            previous = power
        return Law(self.low, tuple(out), self.denominator**count)

    def lowest_of(self, count: int) -> Law:
        """The lowest of ``count`` independent dice of this law: P(min >= v) = S(v)^count."""
        survival = 0
        previous = 0
        out = []
        for weight in reversed(self.weights):
            survival += weight
            power = survival**count
            out.append(power - previous)
            previous = power
        return Law(self.low, tuple(reversed(out)), self.denominator**count)

    def kept_of_group(self, size: int, keep: Keep) -> Law:
        """The kept die of a group of ``size`` independent dice under ``keep``."""
        if size == 1 or keep is Keep.FIRST:
            return self
        return self.highest_of(size) if keep is Keep.HIGHEST else self.lowest_of(size)

    def shifted(self, delta: int) -> Law:
        return Law(self.low + delta, self.weights, self.denominator)

    def split(self, holds: Callable[[int], bool]) -> tuple[Law, int]:
        """The part of this law where ``holds`` is false (same denominator) and the weight where it is true."""
        kept = []
        moved = 0
        for value, weight in zip(self.values(), self.weights, strict=True):
            if holds(value):
                kept.append(0)
                moved += weight
            else:
                kept.append(weight)
        return Law(self.low, tuple(kept), self.denominator), moved

    def mixed(self, holds: Callable[[int], bool], new: Law) -> Law:
        """Values where ``holds`` replaced by a draw from ``new``: law|not c + P(c) x new."""
        rest, moved = self.split(holds)
        low = min(rest.low, new.low)
        high = max(rest.high, new.high)
        weights = [0] * (high - low + 1)
        for value, weight in zip(rest.values(), rest.weights, strict=True):
            weights[value - low] += weight * new.denominator
        for value, weight in zip(new.values(), new.weights, strict=True):
            weights[value - low] += moved * weight
        return Law(low, tuple(weights), self.denominator * new.denominator)

    def settled(self, holds: Callable[[int], bool]) -> Law | None:
        """Redrawn from this law while ``holds``: law | not c, scaled by 1 / (1 - P(c)) (a geometric
        series, exact); ``None`` when every value holds (the draws never stop)."""
        rest, moved = self.split(holds)
        if moved == self.denominator:
            return None
        return Law(rest.low, rest.weights, self.denominator - moved)
