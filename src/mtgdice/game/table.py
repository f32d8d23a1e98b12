"""A game at one table: players, their boards, the turn, and rolling through the rules.

:class:`Game` keeps what a dice roll needs to know about a game of Magic and nothing else: each
player's permanents (a card from the card data or a card given by its text, with Class level,
counters, tapped, stored results — CR 706.8) and graveyard, the face-up plane, the turn number,
the active player, the "once each turn" keys used this turn, how many dice each player has rolled
this turn (for "your third die each turn"), the planar-die special actions taken this turn
(CR 901.9b), and the history of finished rolls.

Rolling is two steps, so a shell can log a roll before the game changes:

1. :meth:`Game.resolve_roll` builds a typed :class:`~mtgdice.game.request.RollRequest` from the roller's
   view of the board (battlefield = own permanents, opponents = every other player's permanents,
   graveyard, command = the face-up plane) and resolves it with the dice source and the answers
   given so far. It changes nothing. A decision without an answer yet comes back as
   :class:`Pending`, addressed to the player it belongs to — re-resolve with the same source (same
   seed and nonce, so the same faces) and one more answer (:mod:`mtgdice.game.choices`).
2. :meth:`Game.record` applies a finished :class:`Roll`: stored results, the turn state, history.

What this module leaves out: the rules (``rules``, through ``request``), where faces come from
(the caller passes a ``DiceSource``, in rooms the commit-reveal one), persistence and transport.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from mtgdice.errors import InputError
from mtgdice.game.choices import AnsweringChooser, DecisionPending, Question
from mtgdice.game.memory import TableMemory
from mtgdice.game.request import (
    CardRef,
    CardSource,
    Outcome,
    PendingItem,
    Prepared,
    RollKind,
    RollRequest,
    SeatItems,
    ZoneItem,
    prepare,
    resolve_prepared,
)
from mtgdice.rules import (
    Decision,
    DiceSource,
    Execution,
    FlipResolution,
    Resolution,
    RollInstruction,
    ScriptedChooser,
    Seat,
    TurnState,
    check_planar_action,
)
from mtgdice.text.notation import dice_text as notation_text
from mtgdice.text.notation import instruction_text, parse_plain

MAX_PLAYERS = 8
MAX_CARDS_PER_PLAYER = 60
MAX_HISTORY = 500

GameZone = Literal["battlefield", "graveyard"]
RollKindName = Literal["card", "dice", "planar", "coin"]


@dataclass(frozen=True, slots=True)
class Card:
    """A card a player has: from the card data (``text`` is None) or given by its own text.

    >>> Card(1, "Example Permanent", level=2).item().level
    2
    """

    id: int
    name: str
    text: str | None = None
    level: int = 1
    counters: tuple[tuple[str, int], ...] = ()
    tapped: bool = False
    stored: tuple[int, ...] | None = None

    def ref(self) -> CardRef:
        return CardRef(self.name, self.text)

    def item(self) -> ZoneItem:
        """The card as a zone item of a request."""
        return ZoneItem(self.ref(), self.level, self.counters or None, self.tapped, self.stored)


@dataclass(frozen=True, slots=True)
class Activated:
    """A replacement a player activated that waits for the next roll it applies to ("the next time
    target player would roll ..."): who controls it, the card whose ability made it, the player it
    targets (json-interface.md ``pending``). It lasts until used up or the turn ends."""

    controller: str
    card: Card
    target: str | None = None


@dataclass(slots=True)
class Player:
    """A player: a name, permanents on the battlefield, a graveyard."""

    id: str
    name: str
    battlefield: list[Card] = field(default_factory=list)
    graveyard: list[Card] = field(default_factory=list)

    def zone(self, zone: GameZone) -> list[Card]:
        return self.battlefield if zone == "battlefield" else self.graveyard

    def cards(self) -> Iterator[tuple[GameZone, Card]]:
        zones: tuple[GameZone, GameZone] = ("battlefield", "graveyard")
        for zone in zones:
            for card in self.zone(zone):
                yield zone, card


@dataclass(frozen=True, slots=True)
class RollSpec:
    """What to roll: a card's instruction, plain dice, the planar die or a coin.

    ``card_id`` picks one of the roller's cards; ``roll`` which instruction of it. ``dice`` is
    ``NdS`` with an optional ``+M``/``-M``. ``cause`` tells a planar-die special action
    (``"action"``, CR 901.9a) from a roll an effect causes (``"effect"``, free, any player).

    >>> RollSpec.plain("2d10").label
    '2d10'
    """

    kind: RollKindName
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
    """A finished roll: who, what, the typed request and outcome, the instruction it carried out.

    ``row_texts`` has one entry per execution: the matched rows' label and text.
    """

    player: str
    player_name: str
    label: str
    kind: RollKindName
    request: RollRequest
    outcome: Outcome
    instruction: RollInstruction | None = None
    turn: int = 1
    card_id: int | None = None

    @property
    def resolution(self) -> Resolution | None:
        return self.outcome if isinstance(self.outcome, Resolution) else None

    @property
    def flip(self) -> FlipResolution | None:
        return self.outcome if isinstance(self.outcome, FlipResolution) else None

    @property
    def planar_cost(self) -> int | None:
        resolution = self.resolution
        return resolution.planar_cost if resolution is not None else None

    @property
    def row_texts(self) -> tuple[tuple[str, ...], ...]:
        resolution = self.resolution
        if resolution is None or self.instruction is None:
            return ()
        return row_texts(self.instruction, resolution)


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


@dataclass(frozen=True, slots=True)
class _View:
    """A request at this table, and which player sits in each seat (seat order = join order)."""

    request: RollRequest
    owners: tuple[str, ...]


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
        self.dice_rolled: dict[str, int] = {}
        self.planar_rolls = 0
        self.plane: Card | None = None
        self.pending: list[Activated] = []
        self.history: list[Roll] = []
        self.next_card_id = 1
        self.next_player_id = 1
        self.memory = TableMemory()  # what abilities wrote: this turn's flips and totals, noted values

    # -- players and cards -----------------------------------------------------------------------

    def add_player(self, name: str) -> Player:
        name = " ".join(name.split())[:40]
        if not name:
            raise InputError("name", "give a name of 1 to 40 characters")
        if len(self.players) >= MAX_PLAYERS:
            raise InputError("name", f"this room already has {MAX_PLAYERS} players")
        player = Player(f"p{self.next_player_id}", name)
        self.next_player_id += 1
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
        zone: GameZone = "battlefield",
        level: int = 1,
    ) -> Card:
        """Give a player a card; the caller checks a name against the card data first."""
        player = self.player(player_id)
        if sum(1 for _ in player.cards()) >= MAX_CARDS_PER_PLAYER:
            raise InputError("card", f"a player may have up to {MAX_CARDS_PER_PLAYER} cards here")
        card = Card(self._card_id(), name[:120], text[:4000] if text is not None else None, max(1, min(level, 9)))
        player.zone(zone).append(card)
        return card

    def find_card(self, player_id: str, card_id: int) -> tuple[GameZone, Card]:
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

    def activate(self, player_id: str, card_id: int, target: str | None = None) -> Activated:
        """``player_id`` activates a replacement of their card ``card_id`` that waits for the next
        roll it applies to (targeting ``target``'s rolls, when it targets a player)."""
        _, card = self.find_card(player_id, card_id)
        if target is not None:
            self.player(target)
        if len(self.pending) >= MAX_CARDS_PER_PLAYER:
            raise InputError("card_id", f"up to {MAX_CARDS_PER_PLAYER} activated replacements may wait at once")
        activated = Activated(player_id, card, target)
        self.pending.append(activated)
        return activated

    def set_plane(self, name: str | None, text: str | None = None) -> Card | None:
        """Put a plane or phenomenon face up in the command zone (``None`` clears it)."""
        self.plane = None if name is None else Card(self._card_id(), name[:120], text)
        return self.plane

    # -- turns -------------------------------------------------------------------------------------

    def next_turn(self) -> None:
        """The next player's turn: the turn's uses, dice counts and the planar die's cost start over."""
        self.turn += 1
        self.used.clear()
        self.dice_rolled.clear()
        self.planar_rolls = 0
        self.pending.clear()  # "the next time ... this turn"
        order = list(self.players)
        if order:
            position = order.index(self.active) if self.active in order else -1
            self.active = order[(position + 1) % len(order)]

    def planar_cost(self) -> int:
        """Generic mana the next planar-die special action costs this turn (CR 901.9b)."""
        return self.planar_rolls

    # -- rolling -----------------------------------------------------------------------------------

    def request_for(self, player_id: str, spec: RollSpec) -> RollRequest:
        """The request (without dice) for ``player_id`` rolling ``spec``."""
        return self._view(player_id, spec).request

    def _view(self, player_id: str, spec: RollSpec, answers: Sequence[object] = ()) -> _View:
        """The table as a request: every player's zones in seat (join) order; the roller controls
        the source; the face-up plane is in the active player's command zone (CR 901.3)."""
        self.player(player_id)
        owners = tuple(self.players)
        plane = (self.plane.item(),) if self.plane is not None else ()
        holder = self.active if self.active in self.players else owners[0]
        seats = tuple(
            SeatItems(
                tuple(card.item() for card in player.battlefield),
                tuple(card.item() for card in player.graveyard),
                plane if player.id == holder else (),
            )
            for player in self.players.values()
        )
        if len(seats) < 2:
            seats += (SeatItems(),)  # a table rolls with at least one opponent (as before)
        rolled = [self.dice_rolled.get(owner, 0) for owner in owners]
        pending = tuple(
            PendingItem(
                waiting.card.ref(),
                Seat(owners.index(waiting.controller)),
                Seat(owners.index(waiting.target)) if waiting.target is not None else None,
            )
            for waiting in self._waiting()
        )
        base = RollRequest(
            seats=seats,
            seated=True,
            controller=Seat(owners.index(player_id)),
            pending=pending,
            amounts=tuple(spec.amounts.items()),
            choices=tuple(answers),
            turn=TurnState(frozenset(self.used), rolled[0], self.planar_rolls, tuple(rolled[1:])),
        )
        base = self.with_memory(base)
        if spec.kind == "card":
            if spec.card_id is None:
                raise InputError("card_id", "pick one of your cards to roll")
            _, card = self.find_card(player_id, spec.card_id)
            request = replace(base, card=card.ref(), roll=spec.roll)
        elif spec.kind == "dice":
            # One reader of notation: what a card could print is a Magic roll on the board, the rest plain dice.
            plain = parse_plain(spec.dice)
            magic = instruction_text(plain, max_count=20) is not None
            request = replace(base, kind=RollKind.DICE if magic else RollKind.PLAIN, notation=plain.notation)
        elif spec.kind == "planar":
            request = replace(base, kind=RollKind.PLANAR, action=spec.cause == "action")
        else:
            request = replace(base, kind=RollKind.COIN)
        return _View(request, owners)

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
        if spec.kind == "planar" and spec.cause == "action":
            check_planar_action(player_id == self.active, self._active_name())
        view = self._view(player_id, spec, answers)
        prepared: Prepared = prepare(view.request, cards)
        chooser = ScriptedChooser(answers) if finish else AnsweringChooser(answers)
        try:
            outcome = resolve_prepared(prepared, view.request, source, chooser)
        except DecisionPending as pending:
            decision = pending.decision
            question = Question(
                self._who_decides(roller, decision, view),
                decision.ask.value,
                decision.topic.value,
                decision.prompt,
                tuple(decision.options),
                pending.position,
            )
            return Pending(player_id, spec, tuple(answers), question)
        return Roll(
            player=player_id,
            player_name=roller.name,
            label=prepared.name if spec.kind == "card" else spec.label,
            kind=spec.kind,
            request=view.request,
            outcome=outcome,
            instruction=prepared.instruction,
            turn=self.turn,
            card_id=spec.card_id,
        )

    def record(self, roll: Roll) -> None:
        """Apply a finished roll: stored results (CR 706.8), the turn's uses and counts, history."""
        roller = self.player(roll.player)
        resolution = roll.resolution
        if resolution is not None:
            for name, values in resolution.stored.items():
                target = self._stored_target(roller, name, roll.card_id)
                if target is not None:
                    self.update_card(roller.id, target.id, stored=tuple(values))
            turn = resolution.turn
            for seat, owner in enumerate(self._seat_owners(roll.request)):
                if owner in self.players and turn.rolled(Seat(seat)):
                    self.dice_rolled[owner] = turn.rolled(Seat(seat))
            self.planar_rolls = max(self.planar_rolls, resolution.planar_actions)
            if resolution.pending_used and roll.request.seated:
                waiting = self._waiting()
                used_up = [waiting[position] for position in resolution.pending_used if position < len(waiting)]
                self.pending = [activated for activated in self.pending if activated not in used_up]
        self.used.update(roll.outcome.used)
        self.history.append(roll)
        del self.history[:-MAX_HISTORY]
        self.remember(roll)

    # -- helpers -----------------------------------------------------------------------------------

    def _card_id(self) -> int:
        card_id = self.next_card_id
        self.next_card_id += 1
        return card_id

    def _active_name(self) -> str:
        return self.players[self.active].name if self.active in self.players else "nobody"

    def _stored_target(self, roller: Player, name: str, card_id: int | None) -> Card | None:
        if card_id is not None:
            for _, card in roller.cards():
                if card.id == card_id and card.name == name:
                    return card
        return next((card for card in roller.battlefield if card.name == name), None)

    def _waiting(self) -> list[Activated]:
        """The activated replacements whose players are still at the table, in activation order."""
        return [
            activated
            for activated in self.pending
            if activated.controller in self.players and (activated.target is None or activated.target in self.players)
        ]

    def _seat_owners(self, request: RollRequest) -> tuple[str, ...]:
        """The player in each seat of a request of this game (seat order = join order; a request
        from before seats has the roller in seat 0)."""
        if request.seated:
            return tuple(self.players)
        return ()

    def _who_decides(self, roller: Player, decision: Decision, view: _View) -> str:
        """The game player a decision belongs to (docs/design.md §15): the one in the seat the rules name."""
        if 0 <= decision.player < len(view.owners):
            return view.owners[decision.player]
        return roller.id

    # -- what abilities remember (json-interface.md v3 ``turn``, ``noted``) -------------------------

    def with_memory(self, request: RollRequest) -> RollRequest:
        """A request of this table with what abilities remembered (:mod:`mtgdice.game.memory`): this
        turn's flips won and lost and totals rolled for an ability in its ``turn``, the values noted
        on cards on their zone items."""
        memory = self.memory
        turn = replace(
            request.turn,
            totals=memory.turn_totals(self.turn),
            flips=memory.turn_flips(tuple(self.players), self.turn),
        )
        if not memory.noted:
            return replace(request, turn=turn)

        def noted(items: tuple[ZoneItem, ...], cards: Sequence[Card]) -> tuple[ZoneItem, ...]:
            found = [memory.noted_on(card.id) for card in cards]
            return tuple(
                replace(item, noted=value) if value is not None else item
                for item, value in zip(items, found, strict=False)
            )

        players = list(self.players.values())
        seats = tuple(
            replace(
                items,
                battlefield=noted(items.battlefield, players[i].battlefield),
                graveyard=noted(items.graveyard, players[i].graveyard),
            )
            if i < len(players)
            else items
            for i, items in enumerate(request.seats)
        )
        return replace(request, turn=turn, seats=seats)

    def remember(self, roll: Roll) -> None:
        """Keep what a finished roll of this table wrote into the turn and onto permanents."""
        outcome = roll.outcome
        if not roll.request.seated or not isinstance(outcome, Resolution | FlipResolution):
            return
        turn = outcome.turn
        noted: dict[int, int] = {}
        for name, value in outcome.noted if isinstance(outcome, Resolution) else ():
            card = self._permanent_named(name)
            if card is not None:
                noted[card.id] = value
        self.memory = self.memory.after(self.turn, tuple(self.players), turn.totals, turn.flips, noted)

    def _permanent_named(self, name: str) -> Card | None:
        """The card the turn names ``NAME`` or ``NAME#k``: the k-th card of that name counted over
        the seats, then zone order (battlefield, graveyard, the plane in the command zone)."""
        base, _, k = name.rpartition("#")
        if not base or not k.isdigit():
            base, k = name, "0"
        holder = self.active if self.active in self.players else next(iter(self.players), None)
        seen = 0
        for player in self.players.values():
            plane = [self.plane] if self.plane is not None and player.id == holder else []
            for card in (*player.battlefield, *player.graveyard, *plane):
                if card.name == base:
                    if seen == int(k):
                        return card
                    seen += 1
        return None


def row_texts(instruction: RollInstruction, resolution: Resolution) -> tuple[tuple[str, ...], ...]:
    """The matched rows' label and text, per execution of a resolution (empty: no table)."""
    if instruction.table is None:
        return ()
    return tuple(_row_texts(instruction, execution) for execution in resolution.executions)


def _row_texts(instruction: RollInstruction, execution: Execution) -> tuple[str, ...]:
    table = instruction.table
    assert table is not None
    if execution.row is not None:
        row = table.rows[execution.row]
        return (f"{row.label} | {row.text}",)
    texts: list[str] = []
    for index in execution.rows or ():
        if index is not None:
            row = table.rows[index]
            texts.append(f"{row.label} | {row.text}")
    return tuple(texts)
