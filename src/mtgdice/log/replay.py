"""Replay logged rolls: resolve each logged request again with its logged faces, compare outcomes.

:func:`record_of` gives a logged roll's typed :class:`~mtgdice.game.record.RollRecord` back: it
feeds the faces the roll drew, in order, to a scripted source and the decisions the outcome records
to a scripted chooser (or the request's own ``choices``). :func:`replay_roll` writes that outcome
again and reports every difference from the logged one (the ``source`` name aside,
:func:`mtgdice.io.record.differences`) and any logged face left unused. It catches engine changes
that alter old results and logs edited by hand.

This module leaves out whether the faces were fair (``verify``) and printing (the CLI).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from mtgdice.errors import InputError, MtgDiceError
from mtgdice.game.record import LoggedRoll, RollRecord
from mtgdice.io import record as codec
from mtgdice.io.outcome import JSON, outcome_json
from mtgdice.rules import PlanarFace, ScriptedChooser, ScriptedSource

if TYPE_CHECKING:
    from mtgdice.game.request import CardSource

MAX_DIFFERENCES = 5
"""Most differences reported for one roll."""


def differences(logged: JSON, replayed: JSON, limit: int = MAX_DIFFERENCES) -> list[str]:
    """Where two JSON outcomes differ (:func:`mtgdice.io.record.differences`).

    >>> differences({"rolls": [{"row": 1}]}, {"rolls": [{"row": 2}]})
    ['rolls[0].row: logged 1, now 2']
    """
    return codec.differences(logged, replayed, limit=limit)


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """One roll replayed: ``differences`` (paths with both values) or the ``error`` raised;
    ``unchecked``: the roll names cards and no card data was given, so nothing was compared."""

    id: int
    differences: tuple[str, ...] = ()
    error: str | None = None
    unchecked: bool = False

    @property
    def same(self) -> bool:
        return not self.differences and self.error is None

    def line(self) -> str:
        if self.error is not None:
            return f"roll {self.id}: error: {self.error}"
        if self.differences:
            return f"roll {self.id}: differs: " + "; ".join(self.differences)
        return f"roll {self.id}: same"


def _source(roll: LoggedRoll) -> ScriptedSource:
    numbers = [face for _, face in roll.faces if isinstance(face, int)]
    planar = [face for sides, face in roll.faces if isinstance(face, PlanarFace)]
    return ScriptedSource(numbers, planar)


def record_of(roll: LoggedRoll, cards: CardSource | None) -> tuple[RollRecord, ScriptedSource]:
    """The typed record of a logged roll: its request read and resolved again with its logged faces
    and the answers it logged (or its request's own ``choices``), with the provenance it was logged
    with; the scripted source tells how many faces it used. Raises what reading or resolving raises."""
    from mtgdice.game.request import resolve_request

    request = codec.request_of(roll, cards)
    seen = codec.shown(roll)
    source = _source(roll)
    if seen.refused is not None:  # its nonce was spent, but it did not resolve
        return RollRecord(request, None, roll.faces, roll.provenance, seen.refused), source
    answers = request.choices or seen.answers
    outcome = resolve_request(request, cards, source, ScriptedChooser(answers))
    outcome = replace(outcome, source=roll.source)  # drawn again from a script, first from the logged source
    return RollRecord(request, outcome, roll.faces, roll.provenance), source


def replay_roll(roll: LoggedRoll, cards: CardSource | None) -> ReplayResult:
    """Resolve one logged request again with its logged faces and compare the outcome, every field."""
    try:
        record, source = record_of(roll, cards)
        if record.outcome is None:
            return ReplayResult(roll.id, error=f"logged as refused ({record.refused}): nothing to resolve")
        outcome = outcome_json(record.outcome)
    except InputError as error:
        return ReplayResult(roll.id, error=str(error), unchecked=error.field == "cards" and cards is None)
    except (MtgDiceError, ValueError, TypeError) as error:
        return ReplayResult(roll.id, error=str(error))
    found = differences(codec.logged_outcome(roll), outcome)
    used_numbers, used_planar = source.used
    planar = sum(1 for sides, _ in roll.faces if sides == "planar")
    numbers = len(roll.faces) - planar
    if (used_numbers, used_planar) != (numbers, planar) and len(found) < MAX_DIFFERENCES:
        found.append(
            f"faces: {numbers - used_numbers + planar - used_planar} of {len(roll.faces)} logged faces left unused"
        )
    return ReplayResult(roll.id, tuple(found))


def replay(rolls: Iterable[LoggedRoll], cards: CardSource | None) -> Iterator[ReplayResult]:
    """Replay every roll, in the order given."""
    for roll in rolls:
        yield replay_roll(roll, cards)


__all__ = ["ReplayResult", "differences", "record_of", "replay", "replay_roll"]
