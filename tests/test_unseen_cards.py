"""Real dice cards outside the dev file (tests/fixtures/unseen_cards.json, sources beside it).

They stand in for the held-out set: the compiler never saw them while its grammar was written.
Expectations are read off each card's text by hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mtgdice.io.compiled import card_json
from mtgdice.text import compile_text

CARDS = {
    card["name"]: card for card in json.loads((Path(__file__).parent / "fixtures" / "unseen_cards.json").read_text())
}
KNOWN_GAPS: dict[str, list[str]] = {}
"""Sentences of these cards the compiler does not read yet (Spark Fiend's noted total is read now:
tests/test_turn_memory.py)."""

# name -> [(count, sides, table or None, choose)] and effect kinds (with a key field)
EXPECTED: dict[str, tuple[list[tuple[Any, Any, Any, bool]], list[tuple[str, Any]]]] = {
    "Ancient Gold Dragon": ([(1, 20, None, False)], []),
    "Swarming Goblins": ([(1, 20, [[1, 9], [10, 19], [20, 20]], False)], []),
    "Bucknard's Everfull Purse": ([(1, 4, None, False)], []),
    "Arcane Endeavor": ([(2, 8, None, True)], []),
    "Wild Endeavor": ([(2, 4, None, True)], []),
    "Valiant Endeavor": ([(2, 6, None, True)], []),
    "Reckless Endeavor": ([(2, 12, None, True)], []),
    "Clay Golem": ([(1, 8, None, False)], []),
    "Chaos Channeler": ([(1, 20, [[1, 9], [10, 19], [20, 20]], False)], []),
    "Strategy, Schmategy": ([(1, 6, [[1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6]], False)], []),
    "Jack-in-the-Mox": ([(1, 6, [[1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6]], False)], []),
    "Spark Fiend": ([(2, 6, None, False), (2, 6, None, False)], []),
    "Willing Test Subject": ([(1, 6, None, False)], [("trigger", "4+")]),
    "Steel Squirrel": ([(1, 6, None, False)], [("trigger", "5+")]),
    "Complaints Clerk": ([], [("trigger", "1")]),
    "Dee Kay, Finder of the Lost": ([], [("trigger", "2"), ("trigger", "4"), ("trigger", "6")]),
    "Feywild Trickster": ([], [("trigger", None)]),
    '"Lifetime" Pass Holder': ([], [("trigger", "6")]),
    "Line Cutter": ([(1, 6, None, False)], []),
    "Ten Wizards Mountain": ([], [("trigger", None), ("trigger", "chaos")]),
    "Sea of Sand": ([], [("trigger", "chaos")]),
    "Wyll's Reversal": ([(1, 20, [[1, 14], [15, None]], False)], []),
    "Attempted Murder": ([("X", 6, None, False)], []),
    "Sword of Hours": ([(1, 12, None, False)], []),
}


@pytest.mark.parametrize("name", sorted(CARDS))
def test_unseen_card_compiles_completely(name: str) -> None:
    card = CARDS[name]
    compiled = compile_text(card["oracle_text"], name=name, layout=card["layout"], type_line=card["type_line"])
    assert list(compiled.unsupported) == KNOWN_GAPS.get(name, [])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_unseen_card_rolls_and_effects(name: str) -> None:
    card = CARDS[name]
    data = card_json(compile_text(card["oracle_text"], name=name, layout=card["layout"], type_line=card["type_line"]))
    rolls, effects = EXPECTED[name]
    assert [(r["count"], r["sides"], r["table"], r["choose"]) for r in data["rolls"]] == rolls
    assert [(e["kind"], e.get("condition")) for e in data["effects"] if e["kind"] != "passive"] == effects


def test_visit_rolls_trigger_visit_triggers_only() -> None:
    from mtgdice.rules import Board, Permanent, ScriptedSource, resolve

    holder = CARDS['"Lifetime" Pass Holder']
    effects = compile_text(holder["oracle_text"], name=holder["name"]).effects
    board = Board.from_zones(graveyard=(Permanent("Holder", effects),))  # it returns from the graveyard
    visit = compile_text(CARDS["Line Cutter"]["oracle_text"], name="Cutter").rolls[0]
    plain = compile_text("Roll a six-sided die.").rolls[0]
    assert [h.card for h in resolve(visit, source="Cutter", dice=ScriptedSource([6]), board=board).triggers] == [
        "Holder"
    ]
    assert resolve(visit, source="Cutter", dice=ScriptedSource([5]), board=board).triggers == ()
    assert resolve(plain, source="X", dice=ScriptedSource([6]), board=board).triggers == ()


def test_repeat_this_process_two_more_times() -> None:
    from mtgdice.rules import ScriptedSource, resolve

    strategy = CARDS["Strategy, Schmategy"]
    roll = compile_text(strategy["oracle_text"], name="Strategy, Schmategy").rolls[0]
    outcome = resolve(roll, source="S", dice=ScriptedSource([6, 2, 6, 1, 3]))
    assert [e.results[0] for e in outcome.executions] == [6, 2, 6, 1, 3]


def test_an_older_advantage_wording_adds_a_die_for_d20s_only() -> None:
    from mtgdice.rules import Board, Permanent, ScriptedSource, resolve

    effects = compile_text("If you would roll a d20, instead roll two d20s and ignore the lower roll.").effects
    board = Board.from_zones(battlefield=(Permanent("Old", effects),))
    d20 = compile_text("Roll a d20.").rolls[0]
    d6 = compile_text("Roll a six-sided die.").rolls[0]
    outcome = resolve(d20, source="S", dice=ScriptedSource([4, 17]), board=board)
    assert outcome.executions[0].results == (17,) and len(outcome.executions[0].dice) == 2
    assert len(resolve(d6, source="S", dice=ScriptedSource([4]), board=board).executions[0].dice) == 1
