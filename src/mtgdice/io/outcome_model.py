"""The outcome object as typed models (msgspec Structs): what ``mtgdice resolve`` writes.

The writers of :mod:`mtgdice.io.outcome` build these and msgspec encodes them; the published JSON
Schema (``mtgdice schema outcome``, :mod:`mtgdice.io.schemas`) is generated from the same classes.
A resolution of dice is a :class:`DiceOutcome`, a coin flip a :class:`FlipOutcome`, a plain roll a
:class:`PlainOutcome`; :data:`OUTCOME_TYPES` lists the three. A field whose default is ``UNSET`` is
left out of the JSON when it is not set (json-interface.md: written only when it applies).

:func:`die_model`, :func:`execution_model`, :func:`resolution_model` and :func:`flip_model` fill
them from a resolution; :mod:`mtgdice.io.outcome` is the face the shells use (text, plain values).
This module reads nothing. It imports msgspec, so a plain ``mtgdice roll d20`` never loads it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from msgspec import UNSET, Struct, UnsetType

from mtgdice.rules.dice import DieRoll, PlanarFace
from mtgdice.rules.players import YOU, seat_name

if TYPE_CHECKING:
    from mtgdice.rules.choices import Answer
    from mtgdice.rules.choices import Decision as Asked
    from mtgdice.rules.coins import FlipExecution as CoinExecution
    from mtgdice.rules.coins import FlipResolution
    from mtgdice.rules.resolution import Execution, Resolution

__all__ = [
    "OUTCOME_TYPES",
    "CoinShown",
    "Decision",
    "DiceExecution",
    "DiceOutcome",
    "DieShown",
    "FlipCoin",
    "FlipExecution",
    "FlipOutcome",
    "FlipSummary",
    "FlipsOfSeat",
    "Model",
    "ModifierShown",
    "PendingShown",
    "PlainDie",
    "PlainOutcome",
    "PlainTerm",
    "RefusedOutcome",
    "TurnShown",
    "die_model",
    "execution_model",
    "flip_model",
    "resolution_model",
]


class Model(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The base of every model at the JSON edge: frozen, fields by keyword, unknown fields refused when read."""


class ModifierShown(Model, frozen=True, kw_only=True):
    """One change to a die's result (CR 706.2): how much, and the card it came from."""

    delta: int
    source: str


class DieShown(Model, frozen=True, kw_only=True):
    """One physical die, in the order rolled: ``natural`` (CR 706.2), ``result`` after every
    modifier, ``ignored`` (CR 706.6). A planar die has ``sides`` "planar", its ``face`` and null
    numbers; a rerolled-away die keeps its place with ``rerolled`` true; ``index`` is its identity
    (the order it was rolled), ``rerolls`` the die a reroll replaced, ``roller`` who rolled it when
    not you."""

    sides: int | Literal["planar"]
    natural: int | None
    result: int | None
    ignored: bool
    face: str | None | UnsetType = UNSET
    rerolled: bool | UnsetType = UNSET
    modifiers: list[ModifierShown] | UnsetType = UNSET
    index: int
    rerolls: int | UnsetType = UNSET
    roller: str | UnsetType = UNSET


class DiceExecution(Model, frozen=True, kw_only=True):
    """One carrying out of a roll instruction: every die rolled, the counted ``results`` in dice
    order, the matched ``row`` (0-based; null: no table, no match, or a table read per result, then
    ``rows``), ``doubles`` (CR 706.5); ``chosen``, ``total``, ``outcomes`` and ``standing`` when
    they apply."""

    dice: list[DieShown]
    results: list[int | str]
    row: int | None
    doubles: bool
    rows: list[int | None] | UnsetType = UNSET
    chosen: int | UnsetType = UNSET
    total: int | UnsetType = UNSET
    outcomes: list[int] | UnsetType = UNSET
    standing: list[str] | UnsetType = UNSET


class Decision(Model, frozen=True, kw_only=True):
    """A decision met during the resolution, with its answer: true/false for yes or no, an index
    for pick one, a list of indices for pick any."""

    ask: str
    topic: str
    prompt: str
    answer: bool | int | list[int]


class FlipsOfSeat(Model, frozen=True, kw_only=True):
    """Coin flips one player won and lost this turn."""

    won: int
    lost: int


class TurnShown(Model, frozen=True, kw_only=True):
    """What the turn remembers after the roll (json-interface.md v3), to pass into the next
    request of the same turn."""

    used: list[str]
    dice_rolled: list[int]
    planar_actions: int
    totals: dict[str, list[int]]
    flips: list[FlipsOfSeat]


class PendingShown(Model, frozen=True, kw_only=True):
    """A replacement still waiting for a later roll: the card it comes from, its seats."""

    card: str
    text: str | UnsetType = UNSET
    layout: str | UnsetType = UNSET
    controller: int
    target: int | UnsetType = UNSET


class DiceOutcome(Model, frozen=True, kw_only=True):
    """The outcome of a roll of dice (the ``resolve`` output of json-interface.md): one entry of
    ``rolls`` per execution, the ``triggers`` that fired (once per triggering), the ``stored``
    results that changed, where the dice came from, the decisions with their answers, the
    once-each-turn abilities used; ``mtgdice resolve`` adds the table after it (``turn``,
    ``pending``, ``noted``)."""

    rolls: list[DiceExecution]
    triggers: list[str]
    stored: dict[str, list[int]]
    source: str
    decisions: list[Decision]
    used: list[str]
    planar_cost: int | UnsetType = UNSET
    turn: TurnShown | UnsetType = UNSET
    pending: list[PendingShown] | UnsetType = UNSET
    noted: dict[str, int] | UnsetType = UNSET


class CoinShown(Model, frozen=True, kw_only=True):
    """One coin of a flip's execution (CR 705): its ``face``, the ``call`` and whether it ``won``
    (null for an uncalled flip), ``ignored``, and ``reflipped`` when a reflip replaced it."""

    sides: Literal["coin"]
    face: str
    call: str | None
    won: bool | None
    ignored: bool
    reflipped: bool | UnsetType = UNSET


class FlipExecution(Model, frozen=True, kw_only=True):
    """One carrying out of a flip instruction: its coins, the counted faces, flips won and lost,
    and the outcomes that held."""

    dice: list[CoinShown]
    results: list[str]
    won: int
    lost: int
    outcomes: list[int]


class FlipCoin(Model, frozen=True, kw_only=True):
    """Every coin of a flip with its fate (the earlier shape of a bare flip)."""

    side: str
    ignored: bool
    index: int
    reflipped: bool | UnsetType = UNSET
    reflips: int | UnsetType = UNSET


class FlipSummary(Model, frozen=True, kw_only=True):
    """A flip's coins, counted faces, call and wins, as a bare flip was first written."""

    coins: list[FlipCoin]
    results: list[str]
    call: str | None
    won: list[bool] | None


class FlipOutcome(Model, frozen=True, kw_only=True):
    """The outcome of a coin flip (CR 705; json-interface.md "Coins on cards"): one entry of ``rolls``
    per execution, ``flip`` (every coin with its fate), flips ``won`` and ``lost``, and the fields
    of a roll's outcome."""

    rolls: list[FlipExecution]
    flip: FlipSummary
    won: int
    lost: int
    triggers: list[str]
    stored: dict[str, list[int]]
    source: str
    decisions: list[Decision]
    used: list[str]
    turn: TurnShown | UnsetType = UNSET
    pending: list[PendingShown] | UnsetType = UNSET
    noted: dict[str, int] | UnsetType = UNSET


class PlainDie(Model, frozen=True, kw_only=True):
    """One die of a plain roll: its ``face``, whether it is ``kept``, its identity; ``rerolled``
    and ``exploded`` when so."""

    sides: int | Literal["F"]
    face: int
    kept: bool
    index: int
    rerolled: bool | UnsetType = UNSET
    exploded: bool | UnsetType = UNSET


class PlainTerm(Model, frozen=True, kw_only=True):
    """One term of a plain roll: a group of dice (``dice`` its notation, ``rolls``, ``value``) or a
    ``number``, with its ``sign``; ``set`` (from 0) when the roll is repeated."""

    dice: str | UnsetType = UNSET
    number: int | UnsetType = UNSET
    sign: int
    rolls: list[PlainDie] | UnsetType = UNSET
    value: int | UnsetType = UNSET
    set: int | UnsetType = UNSET


class PlainOutcome(Model, frozen=True, kw_only=True):
    """The outcome of a plain roll (``"kind": "plain"``): every repetition's terms in order, the
    ``total``, the ``totals`` of a repeated roll, its ``label``."""

    kind: Literal["plain"]
    notation: str
    terms: list[PlainTerm]
    total: int
    totals: list[int] | UnsetType = UNSET
    label: str | UnsetType = UNSET


class RefusedOutcome(Model, frozen=True, kw_only=True):
    """The outcome the roll log keeps for a room roll refused after its nonce was spent: why."""

    refused: str


OUTCOME_TYPES: tuple[type[Model], ...] = (DiceOutcome, FlipOutcome, PlainOutcome)
"""The three kinds of outcome object, as the schema's ``anyOf`` lists them."""


# -- building the models from a resolution ----------------------------------------------------------


def die_model(roll: DieRoll) -> DieShown:
    """One physical die as json-interface.md writes it, with its modifiers and identity.

    >>> from mtgdice.rules.dice import Die
    >>> die_model(DieRoll(index=0, die=Die(20), face=7))
    DieShown(sides=20, natural=7, result=7, ignored=False, face=UNSET, rerolled=UNSET, modifiers=UNSET, index=0, \
rerolls=UNSET, roller=UNSET)
    """
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


def execution_model(execution: Execution) -> DiceExecution:
    """One execution of an instruction: its dice, counted results, matched row and doubles."""
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


def _decisions(decisions: tuple[tuple[Asked, Answer], ...]) -> list[Decision]:
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
    return DiceOutcome(
        rolls=[execution_model(execution) for execution in resolution.executions],
        triggers=[hit.card for hit in resolution.triggers],
        stored={name: list(values) for name, values in resolution.stored.items()},
        source=resolution.source,
        decisions=_decisions(resolution.decisions),
        used=sorted(resolution.used),
        planar_cost=resolution.planar_cost if resolution.planar_cost is not None else UNSET,
    )


def flip_model(flip: FlipResolution) -> FlipOutcome:
    """The outcome object of a flip (CR 705; json-interface.md "Coins on cards"): one entry of
    ``rolls`` per execution with its coins, counted faces, flips won and lost; the win/lose
    triggers; and, under ``flip``, every coin with its fate (the earlier shape of a bare flip)."""
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


def _flip_execution(execution: CoinExecution) -> FlipExecution:
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
