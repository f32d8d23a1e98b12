"""Quantities printed on cards: a number, or a named variable amount (json-interface.md "Amounts").

``Amount(2)`` is two; ``Amount.named("cards in hand")`` is read from the values supplied with the
roll; ``Amount(1, "mana from treasures spent")`` is one plus a named amount; ``sign`` -1 makes
"subtract the number of cards in your hand". The name of a "where X is ..." amount can also be
given as ``X`` (``aliases``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from mtgdice.rules.errors import MissingAmountError

_NOISE = r"\b(?:the number of|the|a|an|your|their|its|his|her)\b|'s\b"
"""Words a loose match ignores (compiled when first used: only a name not supplied as written needs it)."""


def _loose(name: str) -> str:
    """A name for loose matching: "the toughness of the creature" ~ "toughness of creature"."""
    return " ".join(re.sub(_NOISE, " ", name.casefold()).split())


@dataclass(frozen=True, slots=True)
class Amount:
    """``constant + sign * value(name)``.

    >>> Amount(3).value({})
    3
    >>> Amount.named("cards in hand", sign=-1).value({"cards in hand": 4})
    -4
    >>> Amount.named("bobbleheads you control", aliases=("X",)).value({"X": 2})
    2
    >>> Amount.named("toughness of creature you sacrificed").value({"the toughness of the creature you sacrificed": 3})
    3
    """

    constant: int = 0
    name: str | None = None
    sign: int = 1
    aliases: tuple[str, ...] = ()

    @classmethod
    def named(cls, name: str, sign: int = 1, aliases: tuple[str, ...] = (), constant: int = 0) -> Amount:
        return cls(constant, name, sign, aliases)

    @property
    def fixed(self) -> bool:
        return self.name is None

    def value(self, amounts: Mapping[str, int]) -> int:
        if self.name is None:
            return self.constant
        for key in (self.name, *self.aliases):
            if key in amounts:
                return self.constant + self.sign * amounts[key]
        # Names are matched loosely too: case, articles, possessives and "the number of" aside.
        folded = {_loose(k): v for k, v in amounts.items()}
        for key in (self.name, *self.aliases):
            if _loose(key) in folded:
                return self.constant + self.sign * folded[_loose(key)]
        raise MissingAmountError(self.name)

    def describe(self) -> int | str:
        """The JSON form: an integer, a name, or an expression such as ``"1 + mana spent"``."""
        if self.name is None:
            return self.constant
        named = self.name if self.sign > 0 else f"-{self.name}"
        if self.constant == 0:
            return named
        return f"{self.constant} + {self.name}" if self.sign > 0 else f"{self.constant} - {self.name}"

    def describe_signed(self) -> int | str:
        """The JSON form of a modifier: an integer or ``"+name"`` / ``"-name"``."""
        if self.name is None:
            return self.constant
        described = self.describe()
        if isinstance(described, str) and not described.startswith("-") and self.constant == 0:
            return f"+{described}"
        return described
