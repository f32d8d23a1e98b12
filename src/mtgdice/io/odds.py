"""Exact odds and simulation counts as JSON (docs/odds.md), as typed models.

``mtgdice odds --json`` prints a :class:`DiceOdds` (every probability an exact fraction written as
a string, the policy used, and for a table read for each result the chance of at least one die in
each row and the expected count) or a :class:`CoinOdds`; :func:`odds_model` reads the odds engine's
object into them. ``mtgdice simulate --json`` prints a :class:`SimulationCounts` of a roll of dice.
This module leaves out the maths (``mtgdice.odds``, ``mtgdice.sim``), which it does not import.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import msgspec
from msgspec import UNSET, UnsetType

from mtgdice.io.outcome_model import Model

__all__ = ["CoinOdds", "DiceOdds", "SimulationCounts", "odds_model"]


class DiceOdds(Model, frozen=True, kw_only=True):
    """The exact odds of a roll of dice: each table row's probability (``rows``, then ``no_row``),
    each result's (``results``, by result; ``none`` for no result), the expected executions and
    triggers, as fractions written as strings (``"81/400"``), and the ``policy`` used. A table read
    for each result adds ``table_read`` ``each result`` and per row the chance of at least one die
    and the expected number of dice (``table_read`` ``once`` otherwise)."""

    rows: list[str]
    no_row: str | None
    results: dict[str, str]
    expected_executions: str
    triggers: dict[str, str]
    policy: str
    table_read: Literal["once", "each result"] | UnsetType = UNSET
    rows_at_least_one: list[str] | UnsetType = UNSET
    rows_expected: list[str] | UnsetType = UNSET
    no_row_at_least_one: str | UnsetType = UNSET
    no_row_expected: str | UnsetType = UNSET


class CoinOdds(Model, frozen=True, kw_only=True):
    """The exact odds of a coin flip (CR 705): each outcome's probability or expected times, each
    counted face's, the first flip won or lost, the expected flips won and lost, executions and
    triggers (fractions as strings), the method and the ``policy`` used."""

    sides: Literal["coin"]
    outcomes: list[str]
    results: dict[str, str]
    first_won: dict[str, str]
    expected_won: str
    expected_lost: str
    expected_executions: str
    triggers: dict[str, str]
    method: str
    policy: str


class SimulationCounts(Model, frozen=True, kw_only=True):
    """A simulation of a roll of dice: how many first executions (``rolls``) by which ``method``;
    the count of each table row, of no row, of each result (``none``: no result), of doubles, of
    rolls again, of executions (and per resolution), and of each card's triggers."""

    rolls: int
    method: str
    rows: list[int]
    no_row: int
    results: dict[str, int]
    doubles: int
    again: int
    executions: int
    expected_executions: float
    triggers: dict[str, int]


def odds_model(written: Mapping[str, object], policy: str) -> DiceOdds | CoinOdds:
    """The exact odds as the odds engine writes them (``Odds.to_json``, ``CoinOdds.to_json``) read
    strictly into their model, with the ``policy`` used (a coin flip's has ``"sides": "coin"``).

    >>> odds_model({"rows": [], "no_row": None, "results": {"1": "1/2", "2": "1/2"},
    ...             "expected_executions": "1", "triggers": {}}, "decline").results
    {'1': '1/2', '2': '1/2'}
    """
    data = {**written, "policy": policy}
    if data.get("sides") == "coin":
        return msgspec.convert(data, CoinOdds)
    return msgspec.convert(data, DiceOdds)
