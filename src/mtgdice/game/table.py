"""A game at one table: players, their boards, the turn, and rolling through the JSON interface.

:class:`Game` keeps what a dice roll needs to know about a game of Magic and nothing else: each
player's permanents (a card from the card data or a card given by its text, with Class level,
counters, tapped, stored results — CR 706.8) and graveyard, the face-up plane, the turn number,
the active player, the "once each turn" keys used this turn, the number of planar-die special
actions taken this turn (CR 901.9b: the Nth costs N−1 generic mana; rolls caused by effects
don't count), and the history of finished rolls.

Rolling is two steps, so a shell can log a roll before the game changes:

1. :meth:`Game.resolve_roll` builds a ``resolve`` request from the roller's view of the board
   (battlefield = own permanents, opponents = every other player's permanents, graveyard, command
   = the face-up plane) and resolves it with the dice source and the answers given so far. It
   changes nothing. A decision without an answer yet comes back as :class:`Pending` — re-resolve
   with the same source (same seed and nonce, so the same faces) and one more answer
   (:mod:`mtgdice.game.choices`).
2. :meth:`Game.record` applies a finished :class:`Roll`: stored results, used keys, the planar
   count, the history.

What this module leaves out: the rules (``jsonio`` and ``rules`` resolve), where faces come from
(the caller passes a ``DiceSource``, in rooms the commit-reveal one), persistence and transport.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from mtgdice.errors import InputError
from mtgdice.game.choices import AnsweringChooser, DecisionPending, Question
from mtgdice.jsonio import CardSource, instruction_from, resolve_json
from mtgdice.rules import YOU, DiceSource, RollInstruction, ScriptedChooser, Seat
from mtgdice.text.notation import PLANAR_TEXT
from mtgdice.text.notation import dice_text as notation_text

MAX_PLAYERS = 8
MAX_CARDS_PER_PLAYER = 60
MAX_HISTORY = 500

Zone = Literal["battlefield", "graveyard"]
RollKind = Literal["card", "dice", "planar", "coin"]


@dataclass(frozen=True, slots=True)
class Card:
    """A card a player has: from the card data (``text`` is None) or given by its own text.

    >>> Card(1, "Example Permanent").request_item()
    {'card': 'Example Permanent', 'level': 1, 'tapped': False}
    >>> Card(2, "Homebrew", text="Roll a d6.").request_item()["text"]
    'Roll a d6.'
    """

    id: int
    name: str
    text: str | None = None
    level: int = 1
    counters: tuple[tuple[str, int], ...] = ()
    tapped: bool = False
    stored: tuple[int, ...] | None = None

    def request_item(self) -> dict[str, Any]:
        """The card as a zone item of a ``resolve`` request."""
        item: dict[str, Any] = {"text": self.text, "name": self.name} if self.text is not None else {"card": self.name}
        item["level"] = self.level
        if self.counters:
            item["counters"] = dict(self.counters)
        item["tapped"] = self.tapped
        if self.stored is not None:
            item["stored"] = list(self.stored)
        return item

    def source_fields(self) -> dict[str, Any]:
        """The card as the source of a roll (``card`` or ``text`` of a request)."""
        return {"text": self.text, "name": self.name} if self.text is not None else {"card": self.name}


@dataclass(slots=True)
class Player:
    """A player: a name, permanents on the battlefield, a graveyard."""

    id: str
    name: str
    battlefield: list[Card] = field(default_factory=list)
    graveyard: list[Card] = field(default_factory=list)

    def zone(self, zone: Zone) -> list[Card]:
        return self.battlefield if zone == "battlefield" else self.graveyard

    def cards(self) -> Iterator[tuple[Zone, Card]]:
        zones: tuple[Zone, Zone] = ("battlefield", "graveyard")
        for zone in zones:
            for card in self.zone(zone):
                yield zone, card


@dataclass(frozen=True, slots=True)
class RollSpec:
    """What to roll: a card's instruction, plain dice, the planar die or a coin.

    ``card_id`` picks one of the roller's cards; ``roll`` which instruction of it. ``dice`` is
    ``NdS`` with an optional ``+M``/``-M``. ``cause`` tells a planar-die special action
    (``"action"``, CR 901.9b) from a roll an effect causes (``"effect"``, free, any player).

    >>> RollSpec.plain("2d10").label
    '2d10'
    """

    kind: RollKind
    card_id: int | None = None
    roll: int = 0
    dice: str = ""
    cause: Literal["action", "effect"] = "action"
    amounts: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def plain(cls, dice: str) -> RollSpec:
        return cls("dice", dice=dice)

    @property
    def label(self) -> str:
        if self.kind == "dice":
            return self.dice
        if self.kind == "planar":
            return "planar die"
        if self.kind == "coin":
            return "coin"
        return f"card #{self.card_id} roll {self.roll}"


@dataclass(frozen=True, slots=True)
class Roll:
    """A finished roll: who, what, the ``resolve`` output, the matched rows' text, its cost.

    ``output`` has the shape of json-interface.md's ``resolve`` output (a coin flip has no
    ``rolls`` and a ``coin`` face instead). ``row_texts`` has one entry per execution.
    """

    player: str
    player_name: str
    label: str
    kind: RollKind
    request: dict[str, Any]
    output: dict[str, Any]
    row_texts: tuple[tuple[str, ...], ...] = ()
    turn: int = 1
    planar_cost: int | None = None
    card_id: int | None = None


@dataclass(frozen=True, slots=True)
class Pending:
    """A roll waiting for an answer; resolve again with ``answers`` plus the new one."""

    player: str
    spec: RollSpec
    answers: tuple[object, ...]
    question: Question


def dice_text(spec: str) -> str:
    """``2d10``, ``d20``, ``d6+1`` as a roll instruction's text; a table rolls 1 to 20 dice at once.

    >>> dice_text("2d10")
    'Roll 2 d10.'
    """
    return notation_text(spec, max_count=20)


COIN_TEXT = "Roll a d2."
"""A coin flip (CR 705) drawn as a two-sided face, on an empty board: a coin is not a die, so
no die effect applies to it (coin effects are not modelled). Face 1 is heads."""


class Game:
    """Players at one table, their boards and the turn.

    >>> game = Game()
    >>> alice = game.add_player("Alice")
    >>> game.planar_cost()
    0
    >>> game.next_turn(); game.turn
    2
    """

    def __init__(self) -> None:
        self.players: dict[str, Player] = {}
        self.turn = 1
        self.active: str | None = None
        self.used: set[str] = set()
        self.planar_rolls = 0
        self.plane: Card | None = None
        self.history: list[Roll] = []
        self._ids = itertools.count(1)
        self._player_ids = itertools.count(1)

    # -- players and cards -----------------------------------------------------------------------

    def add_player(self, name: str) -> Player:
        name = " ".join(name.split())[:40]
        if not name:
            raise InputError("name", "give a name of 1 to 40 characters")
        if len(self.players) >= MAX_PLAYERS:
            raise InputError("name", f"this room already has {MAX_PLAYERS} players")
        player = Player(f"p{next(self._player_ids)}", name)
        self.players[player.id] = player
        if self.active is None:
            self.active = player.id
        return player

    def player(self, player_id: str) -> Player:
        try:
            return self.players[player_id]
        except KeyError:
            raise InputError("player", f"no player {player_id!r} in this game") from None

    def add_card(
        self,
        player_id: str,
        name: str,
        text: str | None = None,
        zone: Zone = "battlefield",
        level: int = 1,
    ) -> Card:
        """Give a player a card; the caller checks a name against the card data first."""
        player = self.player(player_id)
        if sum(1 for _ in player.cards()) >= MAX_CARDS_PER_PLAYER:
            raise InputError("card", f"a player may have up to {MAX_CARDS_PER_PLAYER} cards here")
        card = Card(next(self._ids), name[:120], text[:4000] if text is not None else None, max(1, min(level, 9)))
        player.zone(zone).append(card)
        return card

    def find_card(self, player_id: str, card_id: int) -> tuple[Zone, Card]:
        for zone, card in self.player(player_id).cards():
            if card.id == card_id:
                return zone, card
        raise InputError("card_id", f"player {player_id!r} has no card #{card_id}")

    def update_card(self, player_id: str, card_id: int, **changes: Any) -> Card:
        """Change a card's ``level``, ``counters``, ``tapped`` or ``stored``; ``zone`` moves it."""
        zone, card = self.find_card(player_id, card_id)
        move_to = changes.pop("zone", None)
        allowed = {"level", "counters", "tapped", "stored"}
        unknown = set(changes) - allowed
        if unknown:
            raise InputError(sorted(unknown)[0], "cannot be changed here")
        updated = replace(card, **changes)
        cards = self.player(player_id).zone(zone)
        cards[cards.index(card)] = updated
        if move_to is not None and move_to != zone:
            cards.remove(updated)
            self.player(player_id).zone(move_to).append(updated)
        return updated

    def remove_card(self, player_id: str, card_id: int) -> None:
        zone, card = self.find_card(player_id, card_id)
        self.player(player_id).zone(zone).remove(card)

    def set_plane(self, name: str | None, text: str | None = None) -> Card | None:
        """Put a plane or phenomenon face up in the command zone (``None`` clears it)."""
        self.plane = None if name is None else Card(next(self._ids), name[:120], text)
        return self.plane

    # -- turns -------------------------------------------------------------------------------------

    def next_turn(self) -> None:
        """The next player's turn: once-each-turn keys and the planar die's cost start over."""
        self.turn += 1
        self.used.clear()
        self.planar_rolls = 0
        order = list(self.players)
        if order:
            position = order.index(self.active) if self.active in order else -1
            self.active = order[(position + 1) % len(order)]

    def planar_cost(self) -> int:
        """Generic mana the next planar-die special action costs this turn (CR 901.9b)."""
        return self.planar_rolls

    # -- rolling -----------------------------------------------------------------------------------

    def request_for(self, player_id: str, spec: RollSpec) -> dict[str, Any]:
        """The ``resolve`` request (without ``dice``) for ``player_id`` rolling ``spec``."""
        roller = self.player(player_id)
        request: dict[str, Any] = {
            "battlefield": [card.request_item() for card in roller.battlefield],
            "opponents": [
                card.request_item()
                for other in self.players.values()
                if other.id != roller.id
                for card in other.battlefield
            ],
            "graveyard": [card.request_item() for card in roller.graveyard],
            "command": [self.plane.request_item()] if self.plane is not None else [],
            "amounts": dict(spec.amounts),
            "used": sorted(self.used),
        }
        if spec.kind == "card":
            if spec.card_id is None:
                raise InputError("card_id", "pick one of your cards to roll")
            _, card = self.find_card(player_id, spec.card_id)
            request.update(card.source_fields())
            request["roll"] = spec.roll
        elif spec.kind == "dice":
            request.update({"text": dice_text(spec.dice), "name": f"plain {spec.dice.strip().lower()}"})
        elif spec.kind == "planar":
            request.update({"text": PLANAR_TEXT, "name": "planar roll"})
        else:
            request = {"text": COIN_TEXT, "name": "coin", "used": request["used"]}
        return request

    def resolve_roll(
        self,
        player_id: str,
        spec: RollSpec,
        source: DiceSource,
        answers: Sequence[object] = (),
        cards: CardSource | None = None,
        finish: bool = False,
    ) -> Roll | Pending:
        """Resolve ``spec`` for ``player_id`` with ``source`` and the answers so far; change nothing.

        With ``finish``, decisions without an answer take the defaults of JSON ``choices``
        (decline, the first option, nothing) instead of coming back as :class:`Pending`.
        """
        roller = self.player(player_id)
        planar_cost: int | None = None
        if spec.kind == "planar" and spec.cause == "action":
            # CR 901.9b: only the active player rolls the planar die as a special action.
            if player_id != self.active:
                raise InputError(
                    "player",
                    f"only the active player ({self._active_name()}) may roll the planar die "
                    "as a special action; an effect's roll uses cause 'effect'",
                )
            planar_cost = self.planar_cost()
        request = self.request_for(player_id, spec)
        request["choices"] = list(answers)
        try:
            _, instruction = instruction_from(request, cards)
            chooser = ScriptedChooser(answers) if finish else AnsweringChooser(answers)
            output = resolve_json(request, cards, source=source, chooser=chooser)
        except DecisionPending as pending:
            decision = pending.decision
            question = Question(
                self._who_decides(roller, decision.player, decision.source),
                decision.ask.value,
                decision.topic.value,
                decision.prompt,
                tuple(decision.options),
                pending.position,
            )
            return Pending(player_id, spec, tuple(answers), question)
        if spec.kind == "coin":
            results = output["rolls"][0]["results"] if output["rolls"] else []
            output["coin"] = "heads" if results == [1] else "tails"
        rows = row_texts(instruction, output)
        return Roll(
            player=player_id,
            player_name=roller.name,
            label=spec.label if spec.kind != "card" else str(request.get("name") or request.get("card")),
            kind=spec.kind,
            request=request,
            output=output,
            row_texts=rows,
            turn=self.turn,
            planar_cost=planar_cost,
            card_id=spec.card_id,
        )

    def record(self, roll: Roll) -> None:
        """Apply a finished roll: stored results (CR 706.8), used keys, the planar count, history."""
        roller = self.player(roll.player)
        for name, values in roll.output.get("stored", {}).items():
            target = self._stored_target(roller, name, roll.card_id)
            if target is not None:
                self.update_card(roller.id, target.id, stored=tuple(values))
        self.used.update(roll.output.get("used", []))
        if roll.planar_cost is not None:
            self.planar_rolls += 1
        self.history.append(roll)
        del self.history[:-MAX_HISTORY]

    # -- helpers -----------------------------------------------------------------------------------

    def _active_name(self) -> str:
        return self.players[self.active].name if self.active in self.players else "nobody"

    def _stored_target(self, roller: Player, name: str, card_id: int | None) -> Card | None:
        if card_id is not None:
            for _, card in roller.cards():
                if card.id == card_id and card.name == name:
                    return card
        return next((card for card in roller.battlefield if card.name == name), None)

    def _who_decides(self, roller: Player, player: Seat, source: str) -> str:
        """The game player a decision belongs to (DESIGN.md §3.15).

        The resolver names the roller (``"you"``/``"roller"``) or another player, and the card
        whose effect asks; an effect on exactly one other player's battlefield is theirs to use.
        """
        if source:
            owners = [
                other.id
                for other in self.players.values()
                if other.id != roller.id and any(card.name == source for card in other.battlefield)
            ]
            mine = any(card.name == source for _, card in roller.cards())
            if len(owners) == 1 and not mine:
                return owners[0]
        if player != YOU:
            others = [other.id for other in self.players.values() if other.id != roller.id]
            if len(others) == 1:
                return others[0]
        return roller.id


def row_texts(instruction: RollInstruction, output: Mapping[str, Any]) -> tuple[tuple[str, ...], ...]:
    """The matched rows' label and text, per execution of a ``resolve`` output (empty: no table)."""
    if instruction.table is None:
        return ()
    return tuple(_row_texts(instruction, execution) for execution in output.get("rolls", []))


def _row_texts(instruction: RollInstruction, execution: Mapping[str, Any]) -> tuple[str, ...]:
    table = instruction.table
    assert table is not None
    if execution.get("row") is not None:
        row = table.rows[execution["row"]]
        return (f"{row.label} | {row.text}",)
    texts: list[str] = []
    for index in execution.get("rows", []) or []:
        if index is not None:
            row = table.rows[index]
            texts.append(f"{row.label} | {row.text}")
    return tuple(texts)
