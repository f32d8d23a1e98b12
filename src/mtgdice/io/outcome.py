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

from mtgdice.rules.dice import DieRoll, PlanarFace
from mtgdice.rules.plain import GroupResult, PlainResult
from mtgdice.rules.players import YOU, seat_name

if TYPE_CHECKING:
    from mtgdice.io.outcome_model import (
        CoinShown,
        Decision,
        DiceExecution,
        DiceOutcome,
        DieShown,
        FlipCoin,
        FlipExecution,
        FlipOutcome,
        PlainOutcome,
    )
    from mtgdice.rules.choices import Answer
    from mtgdice.rules.choices import Decision as Asked
    from mtgdice.rules.coins import FlipExecution as CoinExecution
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
    "die_model",
    "dumps",
    "execution_json",
    "execution_model",
    "flip_json",
    "flip_model",
    "outcome_json",
    "outcome_model",
    "outcome_text",
    "plain_json",
    "plain_model",
    "resolution_json",
    "resolution_model",
]


def die_model(roll: DieRoll) -> DieShown:
    """One physical die as json-interface.md writes it, with its modifiers and identity.

    >>> from mtgdice.rules.dice import Die
    >>> die_model(DieRoll(index=0, die=Die(20), face=7))
    DieShown(sides=20, natural=7, result=7, ignored=False, face=UNSET, rerolled=UNSET, modifiers=UNSET, index=0, \
rerolls=UNSET, roller=UNSET)
    """
    from msgspec import UNSET

    from mtgdice.io.outcome_model import DieShown, ModifierShown

    sides = roll.die.sides
    face = roll.planar_face
    return DieShown(
        sides=sides if sides is not None else "planar",
        natural=roll.natural,
        result=roll.result if roll.counted else roll.natural,
        ignored=roll.fate.value == "ignored",
        face=(face.value if face is not None else None) if sides is None else UNSET,
        rerolled=True if roll.fate.value == "rerolled" else UNSET,
        modifiers=[ModifierShown(delta=m.delta, source=m.source) for m in roll.modifiers]
        if roll.modifiers and roll.counted
        else UNSET,
        index=roll.index,
        rerolls=roll.rerolls if roll.rerolls is not None else UNSET,
        roller=seat_name(roll.roller) if roll.roller != YOU else UNSET,
    )


def die_json(roll: DieRoll) -> JSONObject:
    """:func:`die_model` as plain values.

    >>> from mtgdice.rules.dice import Die
    >>> die_json(DieRoll(index=0, die=Die(20), face=7))
    {'sides': 20, 'natural': 7, 'result': 7, 'ignored': False, 'index': 0}
    """
    return _builtins(die_model(roll))


def execution_model(execution: Execution) -> DiceExecution:
    """One execution of an instruction: its dice, counted results, matched row and doubles."""
    from msgspec import UNSET

    from mtgdice.io.outcome_model import DiceExecution

    return DiceExecution(
        dice=[die_model(roll) for roll in execution.dice],
        results=[r.value if isinstance(r, PlanarFace) else r for r in execution.results],
        row=execution.row,
        doubles=execution.doubles,
        rows=list(execution.rows) if execution.rows is not None else UNSET,
        chosen=execution.chosen if execution.chosen is not None else UNSET,
        total=execution.total if execution.total is not None and len(execution.counted) > 1 else UNSET,
        outcomes=list(execution.outcomes) if execution.outcomes else UNSET,
        standing=[seat_name(seat) for seat in execution.standing] if execution.standing else UNSET,
    )


def execution_json(execution: Execution) -> JSONObject:
    """:func:`execution_model` as plain values."""
    return _builtins(execution_model(execution))


def _decisions(decisions: tuple[tuple[Asked, Answer], ...]) -> list[Decision]:
    from mtgdice.io.outcome_model import Decision

    return [
        Decision(
            ask=decision.ask.value,
            topic=decision.topic.value,
            prompt=decision.prompt,
            answer=list(answer) if isinstance(answer, tuple) else answer,
        )
        for decision, answer in decisions
    ]


def resolution_model(resolution: Resolution) -> DiceOutcome:
    """The ``resolve`` output object of a resolution of dice."""
    from msgspec import UNSET

    from mtgdice.io.outcome_model import DiceOutcome

    return DiceOutcome(
        rolls=[execution_model(execution) for execution in resolution.executions],
        triggers=[hit.card for hit in resolution.triggers],
        stored={name: list(values) for name, values in resolution.stored.items()},
        source=resolution.source,
        decisions=_decisions(resolution.decisions),
        used=sorted(resolution.used),
        planar_cost=resolution.planar_cost if resolution.planar_cost is not None else UNSET,
    )


def resolution_json(resolution: Resolution) -> JSONObject:
    """:func:`resolution_model` as plain values."""
    return _builtins(resolution_model(resolution))


def flip_model(flip: FlipResolution) -> FlipOutcome:
    """The outcome object of a flip (CR 705; json-interface.md "Coins on cards"): one entry of
    ``rolls`` per execution with its coins, counted faces, flips won and lost; the win/lose
    triggers; and, under ``flip``, every coin with its fate (the earlier shape of a bare flip)."""
    from msgspec import UNSET

    from mtgdice.io.outcome_model import FlipCoin, FlipOutcome, FlipSummary

    coins: list[FlipCoin] = [
        FlipCoin(
            side=coin.side.value,
            ignored=coin.fate.value == "ignored",
            index=coin.index,
            reflipped=True if coin.fate.value == "rerolled" else UNSET,
            reflips=coin.reflips if coin.reflips is not None else UNSET,
        )
        for coin in flip.coins
    ]
    return FlipOutcome(
        rolls=[_flip_execution(execution) for execution in flip.executions],
        flip=FlipSummary(
            coins=coins,
            results=[side.value for side in flip.results],
            call=flip.call.value if flip.call is not None else None,
            won=list(flip.won) if flip.won is not None else None,
        ),
        won=flip.flips_won,
        lost=flip.flips_lost,
        triggers=[hit.card for hit in flip.triggers],
        stored={},
        source=flip.source,
        decisions=_decisions(flip.decisions),
        used=sorted(flip.used),
    )


def flip_json(flip: FlipResolution) -> JSONObject:
    """:func:`flip_model` as plain values."""
    return _builtins(flip_model(flip))


def _flip_execution(execution: CoinExecution) -> FlipExecution:
    from msgspec import UNSET

    from mtgdice.io.outcome_model import CoinShown, FlipExecution

    dice: list[CoinShown] = [
        CoinShown(
            sides="coin",
            face=coin.side.value,
            call=coin.call.value if coin.call is not None else None,
            won=coin.won,
            ignored=coin.fate.value == "ignored",
            reflipped=True if coin.fate.value == "rerolled" else UNSET,
        )
        for coin in execution.coins
    ]
    return FlipExecution(
        dice=dice,
        results=[side.value for side in execution.results],
        won=execution.won,
        lost=execution.lost,
        outcomes=list(execution.outcomes),
    )


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
