"""The table model: a card is compiled once, when it enters the table, never again per roll.

Compilations are counted at the compiler's door (``compile_foreign``, which every card text goes
through) across 100 rolls of a room's game table and across a batch of 100 JSON requests at one
table; the table entered is the same :class:`~mtgdice.rules.Board` object roll after roll.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

import mtgdice.game.request as request_module
from mtgdice.game import Game, Roll, RollSpec
from mtgdice.io.jsonio import request_from_json, resolve_json
from mtgdice.rules import SeededSource

ROLLS = 100


@pytest.fixture
def compilations(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Every compilation of a card text from now on, by card name (caches emptied first)."""
    counted: Counter[str] = Counter()
    compile_foreign = request_module.compile_foreign

    def counting(text: str, name: str, **kwargs: Any) -> Any:
        counted[name] += 1
        return compile_foreign(text, name, **kwargs)

    request_module._compiled.cache_clear()
    request_module._ENTERED.clear()
    monkeypatch.setattr(request_module, "compile_foreign", counting)
    yield counted
    request_module._compiled.cache_clear()
    request_module._ENTERED.clear()


def test_a_room_table_compiles_each_card_once_across_100_rolls(compilations: Counter[str], catalog: Any) -> None:
    game = Game(catalog)
    alice, bob = game.add_player("Alice").id, game.add_player("Bob").id
    game.add_card(alice, "Pixie Guide")
    game.add_card(alice, "Critical Hit", zone="graveyard")
    game.add_card(bob, "Brazen Dwarf")
    spellbook = game.add_card(alice, "Wizard's Spellbook")
    boards = set()
    for nonce in range(ROLLS):
        roll = game.resolve_roll(alice, RollSpec("card", card_id=spellbook.id), SeededSource(nonce), (), catalog, True)
        assert isinstance(roll, Roll)
        game.record(roll)
        boards.add(id(roll.request.board))
    assert compilations == Counter({"Pixie Guide": 1, "Critical Hit": 1, "Brazen Dwarf": 1, "Wizard's Spellbook": 1}), (
        compilations
    )
    assert len(boards) == 1  # one table entered, the same Board for every roll


def test_a_json_batch_at_one_table_compiles_each_card_once(compilations: Counter[str], catalog: Any) -> None:
    table = {
        "card": "Vexing Puzzlebox",
        "seats": [{"battlefield": ["Pixie Guide"], "graveyard": ["Critical Hit"]}, {"battlefield": ["Brazen Dwarf"]}],
    }
    for face in range(ROLLS):
        outcome = resolve_json({**table, "dice": [face % 20 + 1, 20 - face % 20]}, catalog)
        assert len(outcome["rolls"][0]["dice"]) == 2
    assert compilations == Counter({"Vexing Puzzlebox": 1, "Pixie Guide": 1, "Critical Hit": 1, "Brazen Dwarf": 1}), (
        compilations
    )


def test_a_changed_table_enters_only_the_new_card(compilations: Counter[str], catalog: Any) -> None:
    first = request_from_json({"card": "Hoarding Ogre", "seats": [{"battlefield": ["Pixie Guide"]}]}, catalog)
    second = request_from_json(
        {"card": "Hoarding Ogre", "seats": [{"battlefield": ["Pixie Guide", "Brazen Dwarf"]}]}, catalog
    )
    assert second.board is not first.board
    assert compilations == Counter({"Hoarding Ogre": 1, "Pixie Guide": 1, "Brazen Dwarf": 1})


BEEBLE = (
    "{1}, {T}: The next time target player would roll one or more dice this turn, instead they roll that many "
    "dice plus one and you choose one of those rolls to ignore."
)


def test_a_room_keeps_an_activated_replacement_until_it_is_used_up(catalog: Any) -> None:
    from mtgdice.game.snapshot import GameState, state_from_json, state_json

    game = Game(catalog)
    alice, bob = game.add_player("Alice").id, game.add_player("Bob").id
    ogre = game.add_card(alice, "Hoarding Ogre")
    beeble = game.add_card(bob, "Bamboozling Beeble", text=BEEBLE)
    game.activate(bob, beeble.id, target=alice)
    again = state_from_json(state_json(GameState.of(game))).game(catalog)  # kept in the room's snapshot
    assert [(w.controller, w.card.name, w.target) for w in again.pending] == [(bob, "Bamboozling Beeble", alice)]
    asked = game.resolve_roll(alice, RollSpec("card", card_id=ogre.id), SeededSource(1), (), catalog)
    assert not isinstance(asked, Roll) and asked.question.player == bob  # the Beeble's controller picks
    first = game.resolve_roll(alice, RollSpec("card", card_id=ogre.id), SeededSource(1), (0,), catalog)
    assert isinstance(first, Roll) and first.resolution is not None
    assert len(first.resolution.executions[0].dice) == 2
    game.record(first)
    assert game.pending == []
    second = game.resolve_roll(alice, RollSpec("card", card_id=ogre.id), SeededSource(2), (), catalog, True)
    assert isinstance(second, Roll) and second.resolution is not None
    assert len(second.resolution.executions[0].dice) == 1


def test_a_room_keeps_the_rules_board_and_replaces_it_on_each_change(catalog: Any) -> None:
    game = Game(catalog)
    alice, bob = game.add_player("Alice").id, game.add_player("Bob").id
    guide = game.add_card(alice, "Pixie Guide")
    game.add_card(bob, "Critical Hit", zone="graveyard")
    before, table = game.board, game.table()
    assert game.table() is table  # nothing changed: the same table for the next roll
    assert [p.name for p in before.seat(1).graveyard] == ["Critical Hit"]
    game.update_card(alice, guide.id, tapped=True, counters=(("lore", 1),))
    assert before.seat(0).battlefield[0].tapped is False  # the old board is a value: unchanged
    assert game.board.seat(0).battlefield[0].tapped and game.board.seat(0).battlefield[0].counter("lore") == 1
    assert game.table() is not table
    game.update_card(alice, guide.id, zone="graveyard")
    assert game.board.seat(0).battlefield == () and game.board.seat(0).graveyard[0].id == guide.id
    assert game.players[alice].graveyard[0].effects is guide.effects  # compiled once, kept as it moves


def test_a_json_request_holds_the_table_as_permanents(catalog: Any) -> None:
    from mtgdice.errors import InputError

    request = request_from_json(
        {"card": "Hoarding Ogre", "seats": [{"battlefield": [{"card": "Barbarian Class", "level": 2}]}, {}]}, catalog
    )
    assert request.board.seat(0).battlefield[0].level == 2 and request.board.seat(0).battlefield[0].effects
    assert request.card is not None and request.card.compiled.rolls
    with pytest.raises(InputError) as raised:
        request_from_json({"card": "Hoarding Ogre"})  # a name and no card data: refused where it enters
    assert raised.value.field == "cards"


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("{T}: Roll a d20.", "battlefield"),
        ("As this creature enters, roll a d20.", None),
        ("When this creature dies, roll a d20.", "graveyard"),
        ("Flip a coin.", "battlefield"),
    ],
)
def test_where_an_instruction_functions_from_is_declared_by_the_compiler(text: str, zone: str | None) -> None:
    from mtgdice.text import compile_text

    instruction = compile_text(text).instructions[0]
    assert (instruction.functions_from.value if instruction.functions_from is not None else None) == zone
    request = request_from_json({"text": text, "name": "Source", "seats": [{}, {}]})
    from mtgdice.game.request import prepare

    placed = [p.name for p in prepare(request).board.seat(0).battlefield]
    assert placed == (["Source"] if zone == "battlefield" else [])  # the source sees its own roll from there
