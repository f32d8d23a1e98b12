"""Outcomes as JSON (spec/json-interface.md): a resolution of dice, a coin flip or a plain roll.

:func:`outcome_model` builds the typed outcome of :mod:`mtgdice.io.outcome_model` (a
:class:`~mtgdice.io.outcome_model.DiceOutcome`, :class:`~mtgdice.io.outcome_model.FlipOutcome` or
:class:`~mtgdice.io.outcome_model.PlainOutcome`) from a resolution, and :func:`outcome_text` encodes
it with msgspec; :func:`outcome_json` gives the same object as plain Python values (what
``json.loads`` of the text gives back), and :func:`die_json`, :func:`execution_json`,
:func:`resolution_json`, :func:`flip_json` and :func:`plain_json` its parts. :data:`JSON` is the
type of a JSON value.

A plain roll is written without msgspec (:func:`plain_json` builds plain values that
:class:`~mtgdice.io.outcome_model.PlainOutcome` reads back strictly, a test checks it): a plain
``mtgdice roll d20`` loads neither msgspec, the request reader nor the compiler. This module reads
nothing (requests are read by ``mtgdice.io.jsonio``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, TypeAlias

from mtgdice.rules.dice import DieRoll
from mtgdice.rules.plain import GroupResult, PlainResult

if TYPE_CHECKING:
    from mtgdice.io.outcome_model import (
        DiceOutcome,
        FlipOutcome,
        PlainOutcome,
    )
    from mtgdice.rules.coins import FlipResolution
    from mtgdice.rules.resolution import Execution, Resolution

    Outcome: TypeAlias = Resolution | FlipResolution | PlainResult

JSON: TypeAlias = "Mapping[str, JSON] | Sequence[JSON] | str | int | float | bool | None"
"""A JSON value: an object, a list, a string, a number, true or false, null (read-only views, so
a list of strings is one)."""
JSONObject: TypeAlias = "dict[str, JSON]"
"""A JSON object."""

__all__ = [
    "JSON",
    "JSONObject",
    "die_json",
    "dumps",
    "execution_json",
    "flip_json",
    "outcome_json",
    "outcome_model",
    "outcome_text",
    "plain_json",
    "plain_model",
    "resolution_json",
]


def die_json(roll: DieRoll) -> JSONObject:
    """One physical die as json-interface.md writes it (:func:`~mtgdice.io.outcome_model.die_model`), as plain values.

    >>> from mtgdice.rules.dice import Die
    >>> die_json(DieRoll(index=0, die=Die(20), face=7))
    {'sides': 20, 'natural': 7, 'result': 7, 'ignored': False, 'index': 0}
    """
    from mtgdice.io.outcome_model import die_model

    return _builtins(die_model(roll))


def execution_json(execution: Execution) -> JSONObject:
    """One execution of an instruction (:func:`~mtgdice.io.outcome_model.execution_model`), as plain values."""
    from mtgdice.io.outcome_model import execution_model

    return _builtins(execution_model(execution))


def resolution_json(resolution: Resolution) -> JSONObject:
    """The outcome of a roll of dice (:func:`~mtgdice.io.outcome_model.resolution_model`), as plain values."""
    from mtgdice.io.outcome_model import resolution_model

    return _builtins(resolution_model(resolution))


def flip_json(flip: FlipResolution) -> JSONObject:
    """The outcome of a coin flip (:func:`~mtgdice.io.outcome_model.flip_model`), as plain values."""
    from mtgdice.io.outcome_model import flip_model

    return _builtins(flip_model(flip))


def plain_json(result: PlainResult) -> JSONObject:
    """The outcome object of a plain roll (``"kind": "plain"``; a card roll has ``rolls``).

    ``terms`` lists every repetition's terms in order (each with ``set``, from 0, when the roll is
    repeated); ``total`` is the roll's total, and a repeated roll also has ``totals``.

    >>> from mtgdice.rules.plain import DiceGroup, PlainRoll, roll_plain
    >>> from mtgdice.rules.sources import ScriptedSource
    >>> plain_json(roll_plain(PlainRoll((DiceGroup(1, 20),)), ScriptedSource([7])))["total"]
    7
    """
    terms: list[JSON] = []
    repeated = len(result.sets) > 1
    for number, term_results in enumerate(result.sets):
        for term in term_results:
            item: JSONObject
            if isinstance(term, GroupResult):
                sides: int | str = "F" if term.group.fudge else term.group.sides
                rolls: list[JSON] = []
                for die in term.dice:
                    shown: JSONObject = {"sides": sides, "face": die.value, "kept": die.kept, "index": die.index}
                    if die.rerolled:
                        shown["rerolled"] = True
                    if die.exploded:
                        shown["exploded"] = True
                    rolls.append(shown)
                item = {"dice": term.group.notation, "sign": term.group.sign, "rolls": rolls, "value": term.value}
            else:
                item = {"number": term.value, "sign": term.sign}
            if repeated:
                item["set"] = number
            terms.append(item)
    data: JSONObject = {"kind": "plain", "notation": result.roll.notation, "terms": terms, "total": result.total}
    if repeated:
        data["totals"] = list(result.totals)
    if result.roll.label is not None:
        data["label"] = result.roll.label
    return data


def plain_model(result: PlainResult) -> PlainOutcome:
    """:func:`plain_json` read into its model, strictly (an unknown or mistyped field is an error).

    >>> from mtgdice.rules.plain import DiceGroup, PlainRoll, roll_plain
    >>> from mtgdice.rules.sources import ScriptedSource
    >>> plain_model(roll_plain(PlainRoll((DiceGroup(1, 20),)), ScriptedSource([7]))).total
    7
    """
    import msgspec

    from mtgdice.io.outcome_model import PlainOutcome

    return msgspec.convert(plain_json(result), PlainOutcome, strict=True)


def outcome_model(outcome: Outcome) -> DiceOutcome | FlipOutcome | PlainOutcome:
    """The typed outcome object of a resolution, a coin flip or a plain roll."""
    if isinstance(outcome, PlainResult):
        return plain_model(outcome)
    from mtgdice.io.outcome_model import flip_model, resolution_model
    from mtgdice.rules.coins import FlipResolution  # here: a plain roll loads no Magic rules

    if isinstance(outcome, FlipResolution):
        return flip_model(outcome)
    return resolution_model(outcome)


def outcome_json(outcome: Outcome) -> JSONObject:
    """The outcome object of a resolution, a coin flip or a plain roll, as plain values."""
    if isinstance(outcome, PlainResult):
        return plain_json(outcome)
    return _builtins(outcome_model(outcome))


def outcome_text(outcome: Outcome) -> str:
    """The outcome object as compact JSON text (as the roll log stores it): the model encoded by
    msgspec, a plain roll by ``json`` (no msgspec on a plain roll's path).

    >>> from mtgdice.rules.plain import DiceGroup, PlainRoll, roll_plain
    >>> from mtgdice.rules.sources import ScriptedSource
    >>> outcome_text(roll_plain(PlainRoll((DiceGroup(1, 4),)), ScriptedSource([3])))[:40]
    '{"kind":"plain","notation":"d4","terms":'
    """
    if isinstance(outcome, PlainResult):
        return json.dumps(plain_json(outcome), ensure_ascii=False, separators=(",", ":"))
    import msgspec

    return msgspec.json.encode(outcome_model(outcome)).decode()


def _builtins(model: object) -> JSONObject:
    import msgspec

    data: JSONObject = msgspec.to_builtins(model)
    return data


def dumps(data: object) -> str:
    """JSON text as the shells print it (UTF-8 characters kept, a space after ``,`` and ``:``): a
    model or plain values, encoded by msgspec.

    >>> dumps({"name": "Été", "rolls": [1, 2]})
    '{"name": "Été", "rolls": [1, 2]}'
    """
    import msgspec

    return msgspec.json.format(msgspec.json.encode(data), indent=0).decode()
