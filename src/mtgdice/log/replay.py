"""Replay logged rolls: resolve each logged request again with its logged faces, compare outcomes.

A replay feeds the faces a roll drew, in order, to a scripted source and the decisions the outcome
records to a scripted chooser (or the request's own ``choices``), then reports every difference
from the logged outcome (the ``source`` name aside) and any logged face left unused. It catches
engine changes that alter old results and logs edited by hand.

This module leaves out whether the faces were fair (``verify``) and printing (the CLI).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mtgdice.errors import InputError, MtgDiceError
from mtgdice.log.records import LoggedRoll, without_card_hashes
from mtgdice.rules import PlanarFace, ScriptedChooser, ScriptedSource

if TYPE_CHECKING:
    from mtgdice.game.request import CardSource, Outcome, RollRequest

MAX_DIFFERENCES = 5
IGNORED_KEYS = frozenset({"source"})


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


def differences(logged: Any, replayed: Any, path: str = "", limit: int = MAX_DIFFERENCES) -> list[str]:
    """Where two JSON values differ, as ``path: logged X, now Y`` (at most ``limit``).

    >>> differences({"rolls": [{"row": 1}]}, {"rolls": [{"row": 2}]})
    ['rolls[0].row: logged 1, now 2']
    """
    found: list[str] = []

    def walk(left: Any, right: Any, where: str) -> None:
        if len(found) >= limit:
            return
        if isinstance(left, Mapping) and isinstance(right, Mapping):
            for key in sorted(set(left) | set(right), key=str):
                if not where and key in IGNORED_KEYS:
                    continue
                step = f"{where}.{key}" if where else str(key)
                if key not in left:
                    found.append(f"{step}: not logged, now {_short(right[key])}")
                elif key not in right:
                    found.append(f"{step}: logged {_short(left[key])}, now missing")
                else:
                    walk(left[key], right[key], step)
        elif isinstance(left, list) and isinstance(right, list):
            for position, (a, b) in enumerate(zip(left, right, strict=False)):
                walk(a, b, f"{where}[{position}]")
            if len(left) != len(right):
                found.append(f"{where}: logged {len(left)} items, now {len(right)}")
        elif left != right or type(left) is not type(right):
            found.append(f"{where or 'outcome'}: logged {_short(left)}, now {_short(right)}")

    walk(logged, replayed, path)
    return found[:limit]


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _answers(roll: LoggedRoll) -> list[Any]:
    choices = roll.request.get("choices")
    if isinstance(choices, list) and choices:
        return choices
    decisions = roll.outcome.get("decisions", [])
    return [d.get("answer") for d in decisions if isinstance(d, Mapping)] if isinstance(decisions, list) else []


def resolve_logged(roll: LoggedRoll, cards: CardSource | None) -> tuple[RollRequest, Outcome, ScriptedSource]:
    """The logged request, typed, resolved again with the roll's logged faces and decisions; the
    source tells how many faces it used. Raises what reading or resolving raises."""
    # Imported here: writing to the log (this package) never needs the compiler.
    from mtgdice.game.request import resolve_request
    from mtgdice.io.jsonio import request_from_json

    numbers = [face for sides, face in roll.faces if sides != "planar"]
    planar = [face for sides, face in roll.faces if sides == "planar"]
    source = ScriptedSource([int(face) for face in numbers], [PlanarFace(str(face)) for face in planar])
    request = request_from_json(without_card_hashes(roll.request))
    return request, resolve_request(request, cards, source, ScriptedChooser(_answers(roll))), source


def replay_roll(roll: LoggedRoll, cards: CardSource | None) -> ReplayResult:
    """Resolve one logged request again with its logged faces and compare the outcome."""
    from mtgdice.io.jsonio import outcome_json

    numbers = [face for sides, face in roll.faces if sides != "planar"]
    planar = [face for sides, face in roll.faces if sides == "planar"]
    try:
        _, resolved, source = resolve_logged(roll, cards)
        outcome = outcome_json(resolved)
    except InputError as error:
        return ReplayResult(roll.id, error=str(error), unchecked=error.field == "cards" and cards is None)
    except (MtgDiceError, ValueError, TypeError) as error:
        return ReplayResult(roll.id, error=str(error))
    found = differences(roll.outcome, outcome)
    used_numbers, used_planar = source.used
    if (used_numbers, used_planar) != (len(numbers), len(planar)) and len(found) < MAX_DIFFERENCES:
        found.append(
            f"faces: {len(numbers) - used_numbers + len(planar) - used_planar} of {len(roll.faces)} "
            "logged faces left unused"
        )
    return ReplayResult(roll.id, tuple(found))


def replay(rolls: Iterable[LoggedRoll], cards: CardSource | None) -> Iterator[ReplayResult]:
    """Replay every roll, in the order given."""
    for roll in rolls:
        yield replay_roll(roll, cards)
