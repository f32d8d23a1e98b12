"""A compiled card as JSON: the ``compile`` object of json-interface.md, as typed models.

:func:`card_model` builds a :class:`CompileOutput` from a compiled card (its field names are
the interface's, not the card's words) and :func:`card_json` gives it as plain values;
``mtgdice compile --json`` prints it, the card index stores it, and the published JSON Schema
(``mtgdice schema compile``) is generated from these classes.

A roll instruction and a coin instruction are one model, :class:`InstructionShown`: the fields
both have are always written, the fields of one kind only for that kind (a flip has ``"sides":
"coin"``). An effect is one :class:`EffectShown`: its kind, step, zone and scope, then the details
its kind has. This module leaves out compiling (``mtgdice.text``) and reading a compiled card back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import msgspec
from msgspec import UNSET, UnsetType

from mtgdice.io.outcome_model import Model
from mtgdice.rules import RollInstruction
from mtgdice.rules.coins import FlipInstruction

if TYPE_CHECKING:
    from mtgdice.io.outcome import JSONObject
    from mtgdice.rules import Effect, Outcome
    from mtgdice.rules.coins import FlipOutcome
    from mtgdice.text.compiler import CompiledCard

__all__ = [
    "CompileOutput",
    "EffectShown",
    "Detail",
    "DiceGroupShown",
    "ComparisonShown",
    "InstructionShown",
    "OutcomeShown",
    "RowShown",
    "TableRange",
    "card_json",
    "card_model",
    "effect_model",
    "flip_model",
    "roll_model",
]

Detail = int | str | bool | None
"""One detail of an effect: a number, a word or phrase, a flag, or nothing."""
TableRange = Annotated[list[int | None], msgspec.Meta(min_length=2, max_length=2)]
"""A results-table row's range, ``[min, max]`` (``max`` null for an open range N+)."""


class RowShown(Model, frozen=True, kw_only=True):
    """One row of a results table, in printed order: its ``results`` label ("1-9", "20"), its
    text, whether it rolls again (``optional``: "you may roll again") and how many ``times``."""

    results: str
    text: str
    roll_again: bool
    optional: bool
    times: int


class DiceGroupShown(Model, frozen=True, kw_only=True):
    """More dice of another kind rolled in the same roll ("roll a d20 and a d6")."""

    count: int | str
    sides: int | None


class ComparisonShown(Model, frozen=True, kw_only=True):
    """Players compare results: the ``extreme`` that wins, and whether ties are rerolled."""

    extreme: str
    break_ties: bool


class OutcomeShown(Model, frozen=True, kw_only=True):
    """What an instruction's result leads to: ``when`` it holds and its ``text``; a roll's outcome
    has ``reads``, ``times`` (and ``extreme``, ``who``), a flip's has ``each``, ``at_least``,
    ``all`` and ``over_all``."""

    when: str | None
    reads: str | UnsetType = UNSET
    times: int | None | UnsetType = UNSET
    each: bool | UnsetType = UNSET
    at_least: int | UnsetType = UNSET
    all: bool | UnsetType = UNSET
    over_all: bool | UnsetType = UNSET
    text: str
    extreme: str | UnsetType = UNSET
    who: str | UnsetType = UNSET


class InstructionShown(Model, frozen=True, kw_only=True):
    """One roll instruction of a card (or a coin instruction, ``"sides": "coin"``), in text order.

    ``count`` and ``sides`` are whole numbers or amount names (``sides`` "planar" for the planar
    die); ``ignore_lowest`` the lowest rolls it ignores; ``modifier`` null, a number or a signed
    amount name; ``amounts`` the variable amounts it needs; ``choose`` the roller chooses one
    result; ``table`` null or its rows as ``[min, max]`` (max null for N+); ``roll_again`` a row
    rolls again or the text repeats. A coin instruction adds ``call``, ``until`` (null, "lose",
    "win"), ``times``, ``may_stop`` and ``flipper``; a roll adds the rest."""

    count: int | str
    sides: int | str
    call: bool | UnsetType = UNSET
    until: str | None | UnsetType = UNSET
    times: int | str | None | UnsetType = UNSET
    may_stop: bool | UnsetType = UNSET
    flipper: str | UnsetType = UNSET
    ignore_lowest: int | str
    modifier: int | str | None
    amounts: list[str]
    choose: bool
    table: list[TableRange] | None
    roll_again: bool
    keep_highest: int | None | UnsetType = UNSET
    table_each_result: bool | UnsetType = UNSET
    rows: list[RowShown] | None | UnsetType = UNSET
    repeat_when: str | None | UnsetType = UNSET
    repeat_optional: bool | UnsetType = UNSET
    store: bool | UnsetType = UNSET
    reroll_stored: bool | UnsetType = UNSET
    roller: str | UnsetType = UNSET
    also: list[DiceGroupShown] | UnsetType = UNSET
    compare: ComparisonShown | None | UnsetType = UNSET
    purpose: str | None | UnsetType = UNSET
    outcomes: list[OutcomeShown]
    text: str


class EffectShown(Model, frozen=True, kw_only=True):
    """An ability of the card that acts on other rolls: its ``kind`` (``extra dice``, ``pair each
    die``, ``reroll``, ``modifier``, ``face counts as``, ``trigger``, ``passive``, ...), the CR
    ``step`` it acts at, its ``zone`` and ``scope``, the Class ``level`` it exists from (when not
    1), ``once_each_turn`` (when so), the details its kind has, and its ``text``."""

    kind: str
    step: str
    zone: str
    scope: str
    level: int | UnsetType = UNSET
    once_each_turn: bool | UnsetType = UNSET
    activated: Detail | UnsetType = UNSET
    again: Detail | UnsetType = UNSET
    chosen_by: Detail | UnsetType = UNSET
    condition: Detail | UnsetType = UNSET
    cost: Detail | UnsetType = UNSET
    counts_as: Detail | UnsetType = UNSET
    delta: Detail | UnsetType = UNSET
    dice: Detail | UnsetType = UNSET
    doubles: Detail | UnsetType = UNSET
    effect: Detail | UnsetType = UNSET
    either_direction: Detail | UnsetType = UNSET
    event: Detail | UnsetType = UNSET
    extra: Detail | UnsetType = UNSET
    face: Detail | UnsetType = UNSET
    ignore: Detail | UnsetType = UNSET
    many: Detail | UnsetType = UNSET
    note: Detail | UnsetType = UNSET
    nth_this_turn: Detail | UnsetType = UNSET
    numeric_effect: Detail | UnsetType = UNSET
    optional: Detail | UnsetType = UNSET
    planar: Detail | UnsetType = UNSET
    purpose: Detail | UnsetType = UNSET
    rerolled_by: Detail | UnsetType = UNSET
    sides: Detail | UnsetType = UNSET
    then: Detail | UnsetType = UNSET
    what: Detail | UnsetType = UNSET
    text: str


class CompileOutput(Model, frozen=True, kw_only=True):
    """The ``compile`` output (json-interface.md): the card's ``name``, every roll instruction in
    text order (``rolls``, numbered from 0 as a request's ``roll`` counts them), the ``effects`` on
    other rolls, each dice sentence the compiler did not understand (``unsupported``: empty when
    the card compiled completely) and the compiler's ``notes``."""

    name: str
    rolls: list[InstructionShown]
    effects: list[EffectShown]
    unsupported: list[str]
    notes: list[str]


def card_model(card: CompiledCard) -> CompileOutput:
    """The ``compile`` object of json-interface.md.

    >>> from mtgdice.text import compile_text
    >>> card_model(compile_text("Roll a d20.", name="Test")).rolls[0].sides
    20
    """
    return CompileOutput(
        name=card.name,
        rolls=[
            roll_model(roll) if isinstance(roll, RollInstruction) else flip_model(roll) for roll in card.instructions
        ],
        effects=[effect_model(effect) for effect in card.effects],
        unsupported=list(card.unsupported),
        notes=list(card.notes),
    )


def card_json(card: CompiledCard) -> JSONObject:
    """:func:`card_model` as plain values (what ``json.loads`` of the printed object gives).

    >>> from mtgdice.text import compile_text
    >>> card_json(compile_text("Flip a coin.", name="Test"))["rolls"][0]["sides"]
    'coin'
    """
    data: JSONObject = msgspec.to_builtins(card_model(card))
    return data


def effect_model(effect: Effect) -> EffectShown:
    """An effect as the ``compile`` object lists it: its description's fields and details, by name
    (a detail the model does not name is an error, so nothing is dropped silently)."""
    return msgspec.convert(effect.describe(), EffectShown)


def roll_model(roll: RollInstruction) -> InstructionShown:
    """One roll instruction as json-interface.md describes it, plus mtgdice's own fields."""
    sides: int | str
    if roll.sides_amount is not None:
        sides = roll.sides_amount.describe()
    else:
        sides = roll.die.sides if roll.die.sides is not None else "planar"
    ignore: int | str = roll.ignore_lowest
    if roll.keep_highest is not None:
        if roll.count.fixed:
            ignore = max(roll.count.constant - roll.keep_highest, 0)
        else:
            ignore = f"{roll.count.describe()} - {roll.keep_highest}"
    table = roll.table
    compare = roll.compare
    return InstructionShown(
        count=roll.count.describe(),
        sides=sides,
        ignore_lowest=ignore,
        modifier=roll.modifier.describe_signed() if roll.modifier is not None else None,
        amounts=list(roll.amounts),
        choose=roll.choose,
        table=[[row.low, row.high] for row in table.rows] if table is not None else None,
        roll_again=roll.roll_again,
        keep_highest=roll.keep_highest,
        table_each_result=roll.table_each_result,
        rows=[
            RowShown(
                results=row.label,
                text=row.text,
                roll_again=row.roll_again,
                optional=row.roll_again_optional,
                times=row.roll_again_times,
            )
            for row in table.rows
        ]
        if table is not None
        else None,
        repeat_when=roll.repeat_when.describe() if roll.repeat_when is not None else None,
        repeat_optional=roll.repeat_optional,
        store=roll.store,
        reroll_stored=roll.reroll_stored,
        roller=roll.roller.value,
        also=[DiceGroupShown(count=group.count.describe(), sides=group.die.sides) for group in roll.also],
        compare=ComparisonShown(extreme=compare.extreme.value, break_ties=compare.break_ties)
        if compare is not None
        else None,
        purpose=roll.purpose or None,
        outcomes=[_outcome(outcome) for outcome in roll.outcomes],
        text=roll.text,
    )


def flip_model(flip: FlipInstruction) -> InstructionShown:
    """A flip instruction as json-interface.md's "Coins on cards" lists it, with the dice fields
    a flip does not use at their empty values."""
    return InstructionShown(
        count=flip.count.describe(),
        sides="coin",
        call=flip.call,
        until=flip.until.value if flip.until is not None else None,
        times=flip.times.describe() if flip.times is not None else None,
        may_stop=flip.may_stop,
        flipper=flip.flipper.value,
        ignore_lowest=0,
        modifier=None,
        amounts=list(flip.amounts),
        choose=False,
        table=None,
        roll_again=flip.until is not None,
        outcomes=[_flip_outcome(outcome) for outcome in flip.outcomes],
        text=flip.text,
    )


def _outcome(outcome: Outcome) -> OutcomeShown:
    return OutcomeShown(
        when="doubles" if outcome.doubles else (outcome.condition.describe() if outcome.condition else None),
        reads=outcome.reads.value,
        times=outcome.times,
        text=outcome.text,
        extreme=outcome.extreme.value if outcome.extreme is not None else UNSET,
        who=outcome.who.value if outcome.who is not None else UNSET,
    )


def _flip_outcome(outcome: FlipOutcome) -> OutcomeShown:
    return OutcomeShown(
        when=outcome.reads.value,
        each=outcome.each,
        at_least=outcome.at_least,
        all=outcome.every,
        over_all=outcome.over_all,
        text=outcome.text,
    )
