"""Exact odds of the rows of a roll a player is about to make, for the odds panel.

A thin adapter: it builds the same request :class:`~mtgdice.game.table.Game` would resolve and
asks :func:`mtgdice.odds.odds` (every optional action declined) for the probability of each
results-table row. Rolls whose first physical roll has too many face sequences to enumerate
quickly are refused with a reason instead of blocking a web request.

What this module leaves out: the odds themselves (``mtgdice.odds``) and rendering.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from mtgdice.game.request import CardSource, prepare
from mtgdice.game.table import Game, RollSpec
from mtgdice.rules import PolicyChooser
from mtgdice.rules.budget import Meter
from mtgdice.rules.errors import RollLimitError

MAX_SEQUENCES = 200_000
"""Most face sequences of the first physical roll the panel will have enumerated."""


@dataclass(frozen=True, slots=True)
class RowOdds:
    """One results-table row and the probability the first execution lands in it."""

    label: str
    text: str
    probability: Fraction

    @property
    def percent(self) -> float:
        return float(self.probability) * 100


@dataclass(frozen=True, slots=True)
class OddsView:
    """The odds panel's content: rows, the chance of no row, or why there are none."""

    rows: tuple[RowOdds, ...] = ()
    no_row: Fraction | None = None
    note: str = ""


def row_odds(
    game: Game, player_id: str, spec: RollSpec, cards: CardSource | None, meter: Meter | None = None
) -> OddsView:
    """The odds of each row of ``spec`` rolled by ``player_id`` on the current board.

    ``meter`` is the request's work budget: past its deadline the panel says so instead of going on.

    >>> game = Game(); alice = game.add_player("Alice")
    >>> row_odds(game, alice.id, RollSpec.plain("d20"), None).note
    'this roll has no results table'
    """
    try:
        from mtgdice.odds import Problem, count_first_roll, odds
    except ImportError:  # pragma: no cover - the odds package ships with mtgdice
        return OddsView(note="the odds engine is not installed")
    request = game.request_for(player_id, spec)
    prepared = prepare(request, cards)
    instruction = prepared.instruction
    if instruction is None or instruction.table is None:
        return OddsView(note="this roll has no results table")
    board, amounts, turn = prepared.board, prepared.amounts, request.turn
    die = instruction.die_for(amounts)
    sides = 6 if die.sides is None else die.sides
    try:
        problem = Problem(instruction, prepared.name, board, PolicyChooser("decline"), amounts, turn)
        count = count_first_roll(problem)
    except Exception as error:  # an amount missing, a limit: say why there are no odds
        return OddsView(note=f"no odds: {error}")
    if sides**count > MAX_SEQUENCES:
        return OddsView(note=f"no odds: {count} d{sides} has too many face sequences to enumerate here")
    try:
        result = odds(instruction, source=prepared.name, board=board, amounts=amounts, turn=turn, meter=meter)
    except RollLimitError as error:
        return OddsView(note=f"no odds: {error}")
    rows = tuple(
        RowOdds(row.label, row.text, probability)
        for row, probability in zip(instruction.table.rows, result.rows, strict=True)
    )
    return OddsView(rows, result.no_row)
