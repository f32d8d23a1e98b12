"""One logged roll as a value, and the faces an outcome object shows.

This module leaves out storage (``store``), checking (``verify``) and re-resolving (``replay``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mtgdice.fair import DrawJSON


@dataclass(frozen=True, slots=True)
class LoggedRoll:
    """One row of the roll log: the request, its outcome and where the faces came from.

    ``faces`` lists every face drawn, in order, as JSON pairs (``[20, 7]``, ``["planar", "chaos"]``).
    ``commitment``, ``client_seeds`` and ``nonce`` are set for commit-reveal rolls only. ``card``
    and ``row`` (the first execution's matched row) are copies of the request and outcome, for
    listing; ``turn`` is the game's turn when a table rolled it (not exported).

    >>> roll = LoggedRoll(1, None, "2026-01-01T00:00:00+00:00", None, {"text": "Roll a d6."},
    ...                   {"rolls": [{"dice": [], "results": [4], "row": None}]}, "secure", [[6, 4]])
    >>> roll.results
    [[4]]
    """

    id: int
    room: str | None
    time: str
    player: str | None
    request: dict[str, Any]
    outcome: dict[str, Any]
    source: str
    faces: list[DrawJSON]
    commitment: str | None = None
    client_seeds: tuple[str, ...] = ()
    nonce: int | None = None
    card: str | None = None
    row: int | None = None
    turn: int | None = None

    @property
    def results(self) -> list[list[Any]]:
        """The counted results of each execution, as the outcome lists them."""
        return [list(execution.get("results", [])) for execution in _executions(self.outcome)]

    def export_json(self) -> dict[str, Any]:
        """The roll as it appears in an exported room log (what ``mtgdice verify`` reads)."""
        return {
            "id": self.id,
            "nonce": self.nonce,
            "client_seeds": list(self.client_seeds),
            "commitment": self.commitment,
            "source": self.source,
            "room": self.room,
            "time": self.time,
            "player": self.player,
            "request": self.request,
            "outcome": self.outcome,
            "faces": self.faces,
        }


def _executions(outcome: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    rolls = outcome.get("rolls", [])
    return [execution for execution in rolls if isinstance(execution, Mapping)] if isinstance(rolls, list) else []


def outcome_faces(outcome: Mapping[str, Any]) -> list[list[Any]]:
    """The faces an outcome object shows, die by die in the order listed (json-interface.md).

    A numbered die shows ``[sides, natural]``, the planar die ``["planar", face]``.

    >>> outcome_faces({"rolls": [{"dice": [{"sides": 20, "natural": 7},
    ...                                    {"sides": "planar", "natural": None, "face": "chaos"}]}]})
    [[20, 7], ['planar', 'chaos']]
    """
    faces: list[list[Any]] = []
    for execution in _executions(outcome):
        dice = execution.get("dice", [])
        for die in dice if isinstance(dice, list) else []:
            if not isinstance(die, Mapping):
                faces.append(["?", "?"])  # shown as a mismatch by verify
            elif die.get("sides") == "planar":
                faces.append(["planar", die.get("face")])
            else:
                faces.append([die.get("sides"), die.get("natural")])
    return faces


def first_row(outcome: Mapping[str, Any]) -> int | None:
    """The matched row of the first execution, if any."""
    executions = _executions(outcome)
    row = executions[0].get("row") if executions else None
    return row if isinstance(row, int) and not isinstance(row, bool) else None


def card_label(request: Mapping[str, Any]) -> str | None:
    """The name of the request's card (``card``, else ``name``), for listing."""
    for key in ("card", "name"):
        value = request.get(key)
        if isinstance(value, str) and value:
            return value
    return None
