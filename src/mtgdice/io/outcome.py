"""Outcomes as JSON (spec/json-interface.md): a resolution of dice, a coin flip or a plain roll.

:func:`outcome_json` writes any outcome as the ``resolve`` output object; :func:`die_json`,
:func:`execution_json`, :func:`resolution_json`, :func:`flip_json` and :func:`plain_json` write
its parts. :data:`JSON` is the type of a JSON value (what ``json.loads`` gives back).

This module reads nothing (requests are read by ``mtgdice.io.jsonio``) and loads neither the request
reader nor the compiler: a plain roll is written without them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, TypeAlias

from mtgdice.rules.dice import DieRoll, PlanarFace
from mtgdice.rules.plain import GroupResult, PlainResult
from mtgdice.rules.players import YOU, seat_name

if TYPE_CHECKING:
    from mtgdice.rules.choices import Answer, Decision
    from mtgdice.rules.coins import FlipExecution, FlipResolution
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
    "plain_json",
    "resolution_json",
]


def die_json(roll: DieRoll) -> JSONObject:
    """One physical die as json-interface.md writes it, with its modifiers and identity.

    >>> from mtgdice.rules.dice import Die
    >>> die_json(DieRoll(index=0, die=Die(20), face=7))
    {'sides': 20, 'natural': 7, 'result': 7, 'ignored': False, 'index': 0}
    """
    data: JSONObject = {
        "sides": "planar" if roll.die.planar else roll.die.sides,
        "natural": roll.natural,
        "result": roll.result if roll.counted else roll.natural,
        "ignored": roll.fate.value == "ignored",
    }
    if roll.die.planar:
        face = roll.planar_face
        data["face"] = face.value if face is not None else None
    if roll.fate.value == "rerolled":
        data["rerolled"] = True
    if roll.modifiers and roll.counted:
        data["modifiers"] = [{"delta": m.delta, "source": m.source} for m in roll.modifiers]
    data["index"] = roll.index
    if roll.rerolls is not None:
        data["rerolls"] = roll.rerolls
    if roll.roller != YOU:
        data["roller"] = seat_name(roll.roller)
    return data


def execution_json(execution: Execution) -> JSONObject:
    """One execution of an instruction: its dice, counted results, matched row and doubles."""
    data: JSONObject = {
        "dice": [die_json(roll) for roll in execution.dice],
        "results": [r.value if isinstance(r, PlanarFace) else r for r in execution.results],
        "row": execution.row,
        "doubles": execution.doubles,
    }
    if execution.rows is not None:
        data["rows"] = list(execution.rows)
    if execution.chosen is not None:
        data["chosen"] = execution.chosen
    if execution.total is not None and len(execution.counted) > 1:
        data["total"] = execution.total
    if execution.outcomes:
        data["outcomes"] = list(execution.outcomes)
    if execution.standing:
        data["standing"] = [seat_name(seat) for seat in execution.standing]
    return data


def _answer(answer: Answer) -> JSON:
    return list(answer) if isinstance(answer, tuple) else answer


def _decisions_json(decisions: tuple[tuple[Decision, Answer], ...]) -> list[JSON]:
    return [
        {
            "ask": decision.ask.value,
            "topic": decision.topic.value,
            "prompt": decision.prompt,
            "answer": _answer(answer),
        }
        for decision, answer in decisions
    ]


def resolution_json(resolution: Resolution) -> JSONObject:
    """The ``resolve`` output object of a resolution of dice."""
    data: JSONObject = {
        "rolls": [execution_json(execution) for execution in resolution.executions],
        "triggers": [hit.card for hit in resolution.triggers],
        "stored": {name: list(values) for name, values in resolution.stored.items()},
        "source": resolution.source,
        "decisions": _decisions_json(resolution.decisions),
        "used": sorted(resolution.used),
    }
    if resolution.planar_cost is not None:
        data["planar_cost"] = resolution.planar_cost
    return data


def flip_json(flip: FlipResolution) -> JSONObject:
    """The outcome object of a flip (CR 705; json-interface.md "Coins on cards"): one entry of
    ``rolls`` per execution with its coins, counted faces, flips won and lost; the win/lose
    triggers; and, under ``flip``, every coin with its fate (the earlier shape of a bare flip)."""
    coins: list[JSON] = []
    for coin in flip.coins:
        entry: JSONObject = {"side": coin.side.value, "ignored": coin.fate.value == "ignored", "index": coin.index}
        if coin.fate.value == "rerolled":
            entry["reflipped"] = True
        if coin.reflips is not None:
            entry["reflips"] = coin.reflips
        coins.append(entry)
    return {
        "rolls": [_flip_execution_json(execution) for execution in flip.executions],
        "flip": {
            "coins": coins,
            "results": [side.value for side in flip.results],
            "call": flip.call.value if flip.call is not None else None,
            "won": list(flip.won) if flip.won is not None else None,
        },
        "won": flip.flips_won,
        "lost": flip.flips_lost,
        "triggers": [hit.card for hit in flip.triggers],
        "stored": {},
        "source": flip.source,
        "decisions": _decisions_json(flip.decisions),
        "used": sorted(flip.used),
    }


def _flip_execution_json(execution: FlipExecution) -> JSONObject:
    dice: list[JSON] = []
    for coin in execution.coins:
        entry: JSONObject = {
            "sides": "coin",
            "face": coin.side.value,
            "call": coin.call.value if coin.call is not None else None,
            "won": coin.won,
            "ignored": coin.fate.value == "ignored",
        }
        if coin.fate.value == "rerolled":
            entry["reflipped"] = True
        dice.append(entry)
    return {
        "dice": dice,
        "results": [side.value for side in execution.results],
        "won": execution.won,
        "lost": execution.lost,
        "outcomes": list(execution.outcomes),
    }


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


def outcome_json(outcome: Outcome) -> JSONObject:
    """The outcome object of a resolution, a coin flip or a plain roll."""
    if isinstance(outcome, PlainResult):
        return plain_json(outcome)
    from mtgdice.rules.coins import FlipResolution  # here: a plain roll loads no Magic rules

    if isinstance(outcome, FlipResolution):
        return flip_json(outcome)
    return resolution_json(outcome)


def dumps(data: object) -> str:
    """JSON text as the shells print it (UTF-8 characters kept)."""
    return json.dumps(data, ensure_ascii=False)
