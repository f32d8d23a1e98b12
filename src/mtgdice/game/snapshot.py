"""A game as a value: what a table is at one moment, to store it and to rebuild it after a restart.

:meth:`GameState.of` takes a typed snapshot of a :class:`~mtgdice.game.Game` (players, boards with
levels, counters, tapped and stored results, the face-up plane, the turn, the active player, the
turn's "once each turn" keys, dice counts and planar-die special actions, the next ids) and
:meth:`GameState.game` builds an equal game from it; a roll resolved on the rebuilt game gives the
same outcome with the same dice. :func:`state_json` and :func:`state_from_json` are the storage
edge (JSON); an open decision (:class:`~mtgdice.game.Pending`) has :func:`pending_json` and
:func:`pending_from_json`. Reading checks every field and names the first wrong one.

A card in a snapshot is the rules' :class:`~mtgdice.rules.Permanent` without its compiled effects
(its name or own text, its state, its id); :meth:`GameState.game` enters each card again into the
new game's table (looked up in the card data it is given, compiled once).

What this module leaves out: the history of finished rolls (the roll log keeps them) and where a
snapshot is stored (``mtgdice.log.rooms``).

>>> from mtgdice.game import Game
>>> game = Game()
>>> alice = game.add_player("Alice")
>>> _ = game.add_card(alice.id, "Example Permanent", text="Roll a d6.", level=2)
>>> game.next_turn()
>>> again = state_from_json(state_json(GameState.of(game))).game()
>>> again.turn, [card.level for card in again.player(alice.id).battlefield], GameState.of(again) == GameState.of(game)
(2, [2], True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypedDict, TypeGuard, cast, get_args

from mtgdice.errors import InputError
from mtgdice.game.choices import Question, QuestionJSON
from mtgdice.game.memory import TableMemory
from mtgdice.game.request import CardSource, enter_card
from mtgdice.game.table import Activated, Game, Pending, RollKindName, RollSpec
from mtgdice.rules import Permanent
from mtgdice.rules.board import PlayerZones
from mtgdice.rules.choices import Answer
from mtgdice.rules.effects.replacement import Replacement

FORMAT = 1
"""Version of the JSON form; a stored state of another version is refused, not guessed at."""


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A player's part of a snapshot: name and zones (each card without its compiled effects)."""

    id: str
    name: str
    battlefield: tuple[Permanent, ...] = ()
    graveyard: tuple[Permanent, ...] = ()


@dataclass(frozen=True, slots=True)
class GameState:
    """A game at one moment. ``used`` is sorted, ``dice_rolled`` in player order."""

    players: tuple[PlayerState, ...] = ()
    turn: int = 1
    active: str | None = None
    used: tuple[str, ...] = ()
    dice_rolled: tuple[tuple[str, int], ...] = ()
    planar_rolls: int = 0
    plane: Permanent | None = None
    next_card_id: int = 1
    next_player_id: int = 1
    pending: tuple[Activated, ...] = ()
    memory: TableMemory = TableMemory()

    @classmethod
    def of(cls, game: Game) -> GameState:
        """The snapshot of ``game`` (its roll history aside)."""
        return cls(
            players=tuple(
                PlayerState(player.id, player.name, _stored(player.battlefield), _stored(player.graveyard))
                for player in game.players.values()
            ),
            turn=game.turn,
            active=game.active,
            used=tuple(sorted(game.used)),
            dice_rolled=tuple(sorted(game.dice_rolled.items())),
            planar_rolls=game.planar_rolls,
            plane=_stored((game.plane,))[0] if game.plane is not None else None,
            next_card_id=game.next_card_id,
            next_player_id=game.next_player_id,
            pending=tuple(replace(waiting, card=_stored((waiting.card,))[0]) for waiting in game.pending),
            memory=game.memory,
        )

    def game(self, cards: CardSource | None = None) -> Game:
        """A new :class:`Game` in this state (with an empty history): every card enters its table
        again, looked up in ``cards`` by name (or given by its text)."""
        game = Game(cards)
        seats: list[PlayerZones] = []
        for position, player in enumerate(self.players):
            where = f"players[{position}]"
            game.names[player.id] = player.name
            seats.append(
                PlayerZones(
                    _entered(player.battlefield, f"{where}.battlefield", cards),
                    _entered(player.graveyard, f"{where}.graveyard", cards),
                )
            )
        game.board = replace(game.board, seats=tuple(seats))
        game.turn = self.turn
        game.active = self.active
        game.used = set(self.used)
        game.dice_rolled = dict(self.dice_rolled)
        game.planar_rolls = self.planar_rolls
        game.plane = _entered((self.plane,), "plane", cards)[0] if self.plane is not None else None
        game.next_card_id = self.next_card_id
        game.next_player_id = self.next_player_id
        game.memory = self.memory
        for position, waiting in enumerate(self.pending):
            card = _entered((waiting.card,), f"pending[{position}]", cards)[0]
            replacements = tuple(effect for effect in card.effects if isinstance(effect, Replacement))
            game.pending.append(replace(waiting, card=replace(card, effects=replacements)))
        return game


def _stored(cards: tuple[Permanent, ...]) -> tuple[Permanent, ...]:
    """Cards as a snapshot keeps them: without their compiled effects."""
    return tuple(replace(card, effects=(), stored_die=None) for card in cards)


def _entered(cards: tuple[Permanent, ...], where: str, source: CardSource | None) -> tuple[Permanent, ...]:
    """A snapshot's cards entering a table again, compiled, with their state and ids."""
    return tuple(
        enter_card(
            card.name,
            source,
            f"{where}[{position}]",
            text=card.text,
            layout=card.layout,
            level=card.level,
            counters=card.counters,
            tapped=card.tapped,
            stored=card.stored,
            noted=card.noted,
            card_id=card.id,
        )
        for position, card in enumerate(cards)
    )


# -- JSON: writing ---------------------------------------------------------------------------------


class CardJSON(TypedDict):
    """A card of a stored game."""

    id: int
    name: str
    text: str | None
    level: int
    counters: list[list[str | int]]
    tapped: bool
    stored: list[int] | None


class PlayerJSON(TypedDict):
    id: str
    name: str
    battlefield: list[CardJSON]
    graveyard: list[CardJSON]


class ActivatedJSON(TypedDict):
    controller: str
    target: str | None
    card: CardJSON


class StateJSON(TypedDict):
    """A stored game (:func:`state_json`)."""

    format: int
    players: list[PlayerJSON]
    turn: int
    active: str | None
    used: list[str]
    dice_rolled: list[list[str | int]]
    planar_rolls: int
    plane: CardJSON | None
    next_card_id: int
    next_player_id: int
    pending: list[ActivatedJSON]
    memory: MemoryJSON


class MemoryJSON(TypedDict):
    """What abilities remembered (:func:`memory_json`): the turn, totals by ability, flips won and
    lost by player, values noted by card id."""

    turn: int
    totals: list[list[str | list[int]]]
    flips: list[list[str | int]]
    noted: list[list[int]]


class SpecJSON(TypedDict):
    """What a roll rolls (:func:`spec_json`)."""

    kind: str
    card_id: int | None
    roll: int
    dice: str
    cause: str
    amounts: dict[str, int]


AnswerJSON = bool | int | list[int]


class PendingJSON(TypedDict):
    """An open decision of a roll (:func:`pending_json`)."""

    player: str
    spec: SpecJSON
    answers: list[AnswerJSON]
    question: QuestionJSON


def card_json(card: Permanent) -> CardJSON:
    """A card as JSON.

    >>> card_json(Permanent("Example", counters=(("lore", 2),), stored=(4, 5), id=3))["counters"]
    [['lore', 2]]
    """
    return {
        "id": card.id,
        "name": card.name,
        "text": card.text,
        "level": card.level,
        "counters": [[name, count] for name, count in card.counters or ()],
        "tapped": card.tapped,
        "stored": list(card.stored) if card.stored is not None else None,
    }


def state_json(state: GameState) -> StateJSON:
    """A snapshot as JSON (the storage edge)."""
    return {
        "format": FORMAT,
        "players": [
            {
                "id": player.id,
                "name": player.name,
                "battlefield": [card_json(card) for card in player.battlefield],
                "graveyard": [card_json(card) for card in player.graveyard],
            }
            for player in state.players
        ],
        "turn": state.turn,
        "active": state.active,
        "used": list(state.used),
        "dice_rolled": [[player, count] for player, count in state.dice_rolled],
        "planar_rolls": state.planar_rolls,
        "plane": card_json(state.plane) if state.plane is not None else None,
        "next_card_id": state.next_card_id,
        "next_player_id": state.next_player_id,
        "pending": [
            {"controller": waiting.controller, "target": waiting.target, "card": card_json(waiting.card)}
            for waiting in state.pending
        ],
        "memory": memory_json(state.memory),
    }


def spec_json(spec: RollSpec) -> SpecJSON:
    """What a roll rolls, as JSON."""
    return {
        "kind": spec.kind,
        "card_id": spec.card_id,
        "roll": spec.roll,
        "dice": spec.dice,
        "cause": spec.cause,
        "amounts": dict(spec.amounts),
    }


def answer_json(answer: object) -> AnswerJSON:
    """An answer as JSON: a bool, a number, or a list of option numbers."""
    if isinstance(answer, bool | int):
        return answer
    return list(cast(tuple[int, ...], answer))


def pending_json(pending: Pending) -> PendingJSON:
    """An open decision of a roll as JSON: the roll, the answers so far, the question.

    >>> question = Question("p2", "yes/no", "reroll", "Reroll the 3?", ("no", "yes"), 1)
    >>> pending = Pending("p1", RollSpec.plain("d6"), (0,), question)
    >>> pending_from_json(pending_json(pending)) == pending
    True
    """
    return {
        "player": pending.player,
        "spec": spec_json(pending.spec),
        "answers": [answer_json(answer) for answer in pending.answers],
        "question": pending.question.to_json(),
    }


# -- JSON: reading ---------------------------------------------------------------------------------


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _get(data: object, key: str, where: str) -> Any:
    if not isinstance(data, Mapping):
        raise InputError(where or "state", f"expected an object, got {type(data).__name__}")
    if key not in data:
        raise InputError(f"{where}.{key}" if where else key, "missing")
    return data[key]


def _int(data: object, key: str, where: str, low: int = 0) -> int:
    value = _get(data, key, where)
    if not _whole(value) or value < low:
        raise InputError(f"{where}.{key}" if where else key, f"expected a whole number {low} or more, got {value!r}")
    return value


def _text(data: object, key: str, where: str, optional: bool = False) -> Any:
    value = _get(data, key, where)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise InputError(f"{where}.{key}" if where else key, f"expected text, got {type(value).__name__}")
    return value


def _items(data: object, key: str, where: str) -> list[Any]:
    value = _get(data, key, where)
    if not isinstance(value, list):
        raise InputError(f"{where}.{key}" if where else key, f"expected a list, got {type(value).__name__}")
    return value


def card_from_json(data: object, where: str = "card") -> Permanent:
    """A card from :func:`card_json`; a wrong field is an :class:`InputError` naming it."""
    counters = []
    for position, pair in enumerate(_items(data, "counters", where)):
        if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str) and _whole(pair[1])):
            raise InputError(f"{where}.counters[{position}]", f"expected [name, count], got {pair!r}")
        counters.append((pair[0], pair[1]))
    stored = _get(data, "stored", where)
    if stored is not None and not (isinstance(stored, list) and all(_whole(value) for value in stored)):
        raise InputError(f"{where}.stored", f"expected null or a list of whole numbers, got {stored!r}")
    tapped = _get(data, "tapped", where)
    if not isinstance(tapped, bool):
        raise InputError(f"{where}.tapped", f"expected true or false, got {tapped!r}")
    return Permanent(
        _text(data, "name", where),
        level=_int(data, "level", where, 1),
        counters=tuple(counters) or None,
        tapped=tapped,
        stored=tuple(stored) if stored is not None else None,
        text=_text(data, "text", where, optional=True),
        id=_int(data, "id", where, 1),
    )


def _cards(data: object, key: str, where: str) -> tuple[Permanent, ...]:
    return tuple(
        card_from_json(item, f"{where}.{key}[{position}]") for position, item in enumerate(_items(data, key, where))
    )


def state_from_json(data: object) -> GameState:
    """A snapshot from :func:`state_json`; a wrong field is an :class:`InputError` naming it."""
    version = _get(data, "format", "")
    if version != FORMAT:
        raise InputError("format", f"game state format {version!r}; this mtgdice reads {FORMAT}")
    players = []
    for position, player in enumerate(_items(data, "players", "")):
        where = f"players[{position}]"
        players.append(
            PlayerState(
                _text(player, "id", where),
                _text(player, "name", where),
                _cards(player, "battlefield", where),
                _cards(player, "graveyard", where),
            )
        )
    used = _items(data, "used", "")
    if not all(isinstance(key, str) for key in used):
        raise InputError("used", "expected a list of texts")
    rolled = []
    for position, pair in enumerate(_items(data, "dice_rolled", "")):
        if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str) and _whole(pair[1])):
            raise InputError(f"dice_rolled[{position}]", f"expected [player, count], got {pair!r}")
        rolled.append((pair[0], pair[1]))
    plane = _get(data, "plane", "")
    pending = []
    # A snapshot written before activated replacements were kept has none waiting.
    waiting = _items(data, "pending", "") if isinstance(data, Mapping) and "pending" in data else []
    for position, item in enumerate(waiting):
        where = f"pending[{position}]"
        target = _text(item, "target", where, optional=True)
        pending.append(
            Activated(_text(item, "controller", where), card_from_json(_get(item, "card", where), where), target)
        )
    # A snapshot written before the memory of abilities was kept remembers nothing.
    memory = memory_from_json(data["memory"]) if isinstance(data, Mapping) and "memory" in data else TableMemory()
    return GameState(
        memory=memory,
        players=tuple(players),
        turn=_int(data, "turn", "", 1),
        active=_text(data, "active", "", optional=True),
        used=tuple(used),
        dice_rolled=tuple(rolled),
        planar_rolls=_int(data, "planar_rolls", ""),
        plane=card_from_json(plane, "plane") if plane is not None else None,
        next_card_id=_int(data, "next_card_id", "", 1),
        next_player_id=_int(data, "next_player_id", "", 1),
        pending=tuple(pending),
    )


_KINDS = get_args(RollKindName)


def spec_from_json(data: object, where: str = "spec") -> RollSpec:
    """A roll's spec from :func:`spec_json`."""
    kind = _text(data, "kind", where)
    if kind not in _KINDS:
        raise InputError(f"{where}.kind", f"expected one of {', '.join(_KINDS)}, got {kind!r}")
    card_id = _get(data, "card_id", where)
    if card_id is not None and not _whole(card_id):
        raise InputError(f"{where}.card_id", f"expected null or a whole number, got {card_id!r}")
    cause = _text(data, "cause", where)
    if cause not in ("action", "effect"):
        raise InputError(f"{where}.cause", f"expected action or effect, got {cause!r}")
    amounts = _get(data, "amounts", where)
    if not isinstance(amounts, Mapping) or not all(_whole(value) for value in amounts.values()):
        raise InputError(f"{where}.amounts", "expected an object of whole numbers")
    return RollSpec(kind, card_id, _int(data, "roll", where), _text(data, "dice", where), cause, dict(amounts))


def answer_from_json(value: object, where: str) -> Answer:
    """An answer from :func:`answer_json`."""
    if isinstance(value, bool) or _whole(value):
        return value
    if isinstance(value, list) and all(_whole(item) for item in value):
        return tuple(value)
    raise InputError(where, f"expected true, false, a number or a list of numbers, got {value!r}")


def question_from_json(data: object, where: str = "question") -> Question:
    """A question from :meth:`Question.to_json`."""
    options = _items(data, "options", where)
    if not all(isinstance(option, str) for option in options):
        raise InputError(f"{where}.options", "expected a list of texts")
    return Question(
        _text(data, "player", where),
        _text(data, "ask", where),
        _text(data, "topic", where),
        _text(data, "prompt", where),
        tuple(options),
        _int(data, "position", where),
    )


def pending_from_json(data: object, where: str = "pending") -> Pending:
    """An open decision from :func:`pending_json`."""
    answers: Sequence[object] = _items(data, "answers", where)
    return Pending(
        _text(data, "player", where),
        spec_from_json(_get(data, "spec", where), f"{where}.spec"),
        tuple(answer_from_json(answer, f"{where}.answers[{i}]") for i, answer in enumerate(answers)),
        question_from_json(_get(data, "question", where), f"{where}.question"),
    )


def memory_json(memory: TableMemory) -> MemoryJSON:
    """What abilities remembered, as JSON (:class:`~mtgdice.game.memory.TableMemory`)."""
    return {
        "turn": memory.turn,
        "totals": [[name, list(values)] for name, values in memory.totals],
        "flips": [[player, won, lost] for player, won, lost in memory.flips],
        "noted": [[card, value] for card, value in memory.noted],
    }


def memory_from_json(data: object, where: str = "memory") -> TableMemory:
    """The memory from :func:`memory_json`; a wrong field is an :class:`InputError` naming it."""
    totals = []
    for position, pair in enumerate(_items(data, "totals", where)):
        if not (
            isinstance(pair, list)
            and len(pair) == 2
            and isinstance(pair[0], str)
            and isinstance(pair[1], list)
            and all(_whole(value) for value in pair[1])
        ):
            raise InputError(f"{where}.totals[{position}]", f"expected [permanent, [totals]], got {pair!r}")
        totals.append((pair[0], tuple(pair[1])))
    flips = []
    for position, entry in enumerate(_items(data, "flips", where)):
        if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], str)):
            raise InputError(f"{where}.flips[{position}]", f"expected [player, won, lost], got {entry!r}")
        if not (_whole(entry[1]) and _whole(entry[2]) and entry[1] >= 0 and entry[2] >= 0):
            raise InputError(f"{where}.flips[{position}]", f"expected counts of 0 or more, got {entry!r}")
        flips.append((entry[0], entry[1], entry[2]))
    noted = []
    for position, pair in enumerate(_items(data, "noted", where)):
        if not (isinstance(pair, list) and len(pair) == 2 and _whole(pair[0]) and _whole(pair[1])):
            raise InputError(f"{where}.noted[{position}]", f"expected [card id, value], got {pair!r}")
        noted.append((pair[0], pair[1]))
    return TableMemory(_int(data, "turn", where), tuple(totals), tuple(flips), tuple(noted))
