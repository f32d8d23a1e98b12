"""A compiled card as JSON: the ``compile`` object of json-interface.md (its field names are the
interface's, not the card's words)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtgdice.rules import Outcome, RollInstruction
from mtgdice.rules.coins import FlipInstruction

if TYPE_CHECKING:
    from mtgdice.text.compiler import CompiledCard


def card_json(card: CompiledCard) -> dict[str, Any]:
    """The ``compile`` JSON object of json-interface.md."""
    return {
        "name": card.name,
        "rolls": [
            roll_json(roll) if isinstance(roll, RollInstruction) else flip_instruction_json(roll)
            for roll in card.instructions
        ],
        "effects": [effect.describe() for effect in card.effects],
        "unsupported": list(card.unsupported),
        "notes": list(card.notes),
    }


def roll_json(roll: RollInstruction) -> dict[str, Any]:
    """One roll instruction as json-interface.md describes it, plus our own fields."""
    sides: int | str | None
    if roll.sides_amount is not None:
        sides = roll.sides_amount.describe()
    else:
        sides = "planar" if roll.die.planar else roll.die.sides
    ignore: int | str = roll.ignore_lowest
    if roll.keep_highest is not None:
        if roll.count.fixed:
            ignore = max(roll.count.constant - roll.keep_highest, 0)
        else:
            ignore = f"{roll.count.describe()} - {roll.keep_highest}"
    table = roll.table
    return {
        "count": roll.count.describe(),
        "sides": sides,
        "ignore_lowest": ignore,
        "modifier": roll.modifier.describe_signed() if roll.modifier is not None else None,
        "amounts": list(roll.amounts),
        "choose": roll.choose,
        "table": [[row.low, row.high] for row in table.rows] if table is not None else None,
        "roll_again": roll.roll_again,
        "keep_highest": roll.keep_highest,
        "table_each_result": roll.table_each_result,
        "rows": [
            {
                "results": row.label,
                "text": row.text,
                "roll_again": row.roll_again,
                "optional": row.roll_again_optional,
                "times": row.roll_again_times,
            }
            for row in table.rows
        ]
        if table is not None
        else None,
        "repeat_when": roll.repeat_when.describe() if roll.repeat_when is not None else None,
        "repeat_optional": roll.repeat_optional,
        "store": roll.store,
        "reroll_stored": roll.reroll_stored,
        "roller": roll.roller.value,
        "also": [{"count": group.count.describe(), "sides": group.die.sides} for group in roll.also],
        "compare": {"extreme": roll.compare.extreme.value, "break_ties": roll.compare.break_ties}
        if roll.compare is not None
        else None,
        "purpose": roll.purpose or None,
        "outcomes": [outcome_json(outcome) for outcome in roll.outcomes],
        "text": roll.text,
    }


def flip_instruction_json(flip: FlipInstruction) -> dict[str, Any]:
    """A flip instruction as json-interface.md's "Coins on cards" lists it, with the dice fields
    a flip does not use at their empty values."""
    return {
        "count": flip.count.describe(),
        "sides": "coin",
        "call": flip.call,
        "until": flip.until.value if flip.until is not None else None,
        "times": flip.times.describe() if flip.times is not None else None,
        "may_stop": flip.may_stop,
        "flipper": flip.flipper.value,
        "ignore_lowest": 0,
        "modifier": None,
        "amounts": list(flip.amounts),
        "choose": False,
        "table": None,
        "roll_again": flip.until is not None,
        "outcomes": [outcome.describe() for outcome in flip.outcomes],
        "text": flip.text,
    }


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    data: dict[str, Any] = {
        "when": "doubles" if outcome.doubles else (outcome.condition.describe() if outcome.condition else None),
        "reads": outcome.reads.value,
        "times": outcome.times,
        "text": outcome.text,
    }
    if outcome.extreme is not None:
        data["extreme"] = outcome.extreme.value
    if outcome.who is not None:
        data["who"] = outcome.who.value
    return data
