"""The records a roll makes on its hot path (``records.builder``) are the ordinary record classes."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from mtgdice.rules import Board, Permanent, ScriptedSource, resolve
from mtgdice.rules.dice import Die, DieRoll, Fate, Modifier
from mtgdice.rules.records import builder
from mtgdice.rules.resolution import Execution, Resolution
from mtgdice.text import compile_text


def test_a_built_die_roll_is_a_die_roll_in_every_way() -> None:
    made = builder(DieRoll)(3, Die(20), 7, (Modifier(1, "Plus"),), Fate.IGNORED, None, 1)
    plain = DieRoll(3, Die(20), 7, (Modifier(1, "Plus"),), Fate.IGNORED, None, 1)
    assert type(made) is DieRoll
    assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
    assert dataclasses.replace(made, face=8) == dataclasses.replace(plain, face=8)
    assert pickle.loads(pickle.dumps(made)) == plain
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.face = 8  # type: ignore[misc]


def test_a_builder_needs_slots_that_are_the_fields() -> None:
    @dataclasses.dataclass(frozen=True)
    class Loose:
        x: int

    with pytest.raises(TypeError, match="slotted"):
        builder(Loose)


def test_resolve_returns_the_public_record_classes() -> None:
    card = compile_text("Roll a d20.\n1\u20149 | A.\n10\u201420 | B.")
    pixie = compile_text(
        "If you would roll one or more dice, instead roll that many dice plus one and ignore the lowest roll."
    )
    board = Board.from_zones(battlefield=(Permanent("Pixie", pixie.effects),))
    outcome = resolve(card.rolls[0], source="Card", dice=ScriptedSource([4, 15]), board=board)
    assert type(outcome) is Resolution and type(outcome.executions[0]) is Execution
    dice = outcome.executions[0].dice
    assert all(type(die) is DieRoll for die in dice)
    assert [(die.face, die.fate) for die in dice] == [(4, Fate.IGNORED), (15, Fate.COUNTED)]
    assert outcome.executions[0].row == 1
    assert pickle.loads(pickle.dumps(outcome)) == outcome
