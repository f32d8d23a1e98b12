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
from typing import Literal, cast

from mtgdice.errors import InputError
from mtgdice.game.choices import AnsweringChooser, DecisionPending, Question
from mtgdice.game.memory import TableMemory
from mtgdice.game.request import (
    CardSource,
    Outcome,
    Prepared,
    RollKind,
    RollRequest,
    SourceCard,
    enter_card,
    enter_source,
    prepare,
    resolve_prepared,
)
from mtgdice.rules import (
    Board,
    Decision,
    DiceSource,
    Execution,
    FlipResolution,
    Permanent,
    Resolution,
    RollInstruction,
    ScriptedChooser,
    Seat,
    TurnState,
    check_planar_action,
)
from mtgdice.rules.board import PlayerZones, Waiting
from mtgdice.rules.effects.replacement import Replacement
from mtgdice.text.notation import dice_text as notation_text
from mtgdice.text.notation import instruction_text, parse_plain

MAX_PLAYERS = 8
MAX_CARDS_PER_PLAYER = 60
MAX_HISTORY = 500

GameZone = Literal["battlefield", "graveyard"]
CardChange = int | bool | tuple[int, ...] | tuple[tuple[str, int], ...] | str | None
"""A value :meth:`Game.update_card` sets: a level, tapped, stored results, counters, or a zone to move to."""
RollKindName = Literal["card", "dice", "planar", "coin"]


@dataclass(frozen=True, slots=True)
class Activated:
    """A replacement a player activated that waits for the next roll it applies to ("the next time
    target player would roll ..."): who controls it, the card whose ability made it, the player it
    targets (json-interface.md ``pending``). It lasts until used up or the turn ends."""

    controller: str
    card: Permanent
    target: str | None = None


@dataclass(frozen=True, slots=True)
class Seated:
    """A player at the table as a room shows them: their id, their name and their seat's zones
    (read from the game's :class:`~mtgdice.rules.Board`; a read-only view, changed through the game).

    >>> Seated("p1", "Alice").battlefield
    ()
    """

    id: str
    name: str
    zones: PlayerZones = PlayerZones()

    @property
    def battlefield(self) -> tuple[Permanent, ...]:
        return self.zones.battlefield

    @property
    def graveyard(self) -> tuple[Permanent, ...]:
        return self.zones.graveyard

    def zone(self, zone: GameZone) -> tuple[Permanent, ...]:
        return self.zones.battlefield if zone == "battlefield" else self.zones.graveyard

    def cards(self) -> Iterator[tuple[GameZone, Permanent]]:
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

    The table is the rules' own model: :attr:`board`, a :class:`~mtgdice.rules.Board` with one
    seat per player in join order, each card a :class:`~mtgdice.rules.Permanent` entered once (looked
    up in :attr:`cards` by name, or given by its text, and compiled) with its room state (``id``,
    Class level, counters, tapped, stored results). Every change replaces the board with a new one;
    a roll reads it as it is, so rolling again at an unchanged table builds and compiles nothing.

    >>> game = Game()
    >>> alice = game.add_player("Alice")
    >>> game.add_card(alice.id, "Die", text="Roll a d6.").id, game.board.seat(0).battlefield[0].name
    (1, 'Die')
    >>> game.planar_cost()
    0
    >>> game.next_turn(); game.turn
    2
    """

    def __init__(self, cards: CardSource | None = None) -> None:
        self.cards = cards
        """The card data a card named by its name is looked up in when it enters the table."""
        self.board = Board()
        """Every player's zones, one seat per player in join order (the plane and the waiting
        replacements are added for a roll: :meth:`table`)."""
        self.names: dict[str, str] = {}
        """Each player's name by id, in join (seat) order."""
        self.turn = 1
        self.active: str | None = None
        self.used: set[str] = set()
        self.dice_rolled: dict[str, int] = {}
        self.planar_rolls = 0
        self.plane: Permanent | None = None
        self.pending: list[Activated] = []
        self.history: list[Roll] = []
        self.next_card_id = 1
        self.next_player_id = 1
        self.memory = TableMemory()  # what abilities wrote: this turn's flips and totals, noted values
        self._table: tuple[tuple[object, ...], Board] | None = None
        self._sources: dict[tuple[int, str, str | None], SourceCard] = {}

    # -- players and cards -----------------------------------------------------------------------

    @property
    def players(self) -> dict[str, Seated]:
        """Every player by id, in join (seat) order, with their zones."""
        return {
            player_id: Seated(player_id, name, self.board.seat(Seat(seat)))
            for seat, (player_id, name) in enumerate(self.names.items())
        }

    def seat_of(self, player_id: str) -> Seat:
        """The seat ``player_id`` sits in (join order)."""
        self.player(player_id)
        return Seat(list(self.names).index(player_id))

    def add_player(self, name: str) -> Seated:
        name = " ".join(name.split())[:40]
        if not name:
            raise InputError("name", "give a name of 1 to 40 characters")
        if len(self.names) >= MAX_PLAYERS:
            raise InputError("name", f"this room already has {MAX_PLAYERS} players")
        player_id = f"p{self.next_player_id}"
        self.next_player_id += 1
        self.names[player_id] = name
        self.board = replace(self.board, seats=self.board.seats + (PlayerZones(),))
        if self.active is None:
            self.active = player_id
        return self.player(player_id)

    def player(self, player_id: str) -> Seated:
        if player_id not in self.names:
            raise InputError("player", f"no player {player_id!r} in this game")
        return self.players[player_id]

    def add_card(
        self,
        player_id: str,
        name: str,
        text: str | None = None,
        zone: GameZone = "battlefield",
        level: int = 1,
    ) -> Permanent:
        """Give a player a card: it enters the table (looked up in :attr:`cards`, or by its text)."""
        player = self.player(player_id)
        if sum(1 for _ in player.cards()) >= MAX_CARDS_PER_PLAYER:
            raise InputError("card", f"a player may have up to {MAX_CARDS_PER_PLAYER} cards here")
        card = enter_card(
            name[:120],
            self.cards,
            "card",
            text=text[:4000] if text is not None else None,
            level=max(1, min(level, 9)),
            card_id=self.next_card_id,
        )
        self.next_card_id += 1
        self._put(player_id, zone, player.zone(zone) + (card,))
        return card

    def find_card(self, player_id: str, card_id: int) -> tuple[GameZone, Permanent]:
        for zone, card in self.player(player_id).cards():
            if card.id == card_id:
                return zone, card
        raise InputError("card_id", f"player {player_id!r} has no card #{card_id}")

    def update_card(self, player_id: str, card_id: int, **changes: CardChange) -> Permanent:
        """Change a card's ``level``, ``counters``, ``tapped`` or ``stored``; ``zone`` moves it."""
        zone, card = self.find_card(player_id, card_id)
        move_to = changes.pop("zone", None)
        allowed = {"level", "counters", "tapped", "stored"}
        unknown = set(changes) - allowed
        if unknown:
            raise InputError(sorted(unknown)[0], "cannot be changed here")
        if "counters" in changes:
            changes["counters"] = changes["counters"] or None  # none set: the rules count them as not given
        updated = replace(card, **changes)  # type: ignore[arg-type]
        player = self.player(player_id)
        listed = player.zone(zone)
        position = listed.index(card)
        if move_to is not None and move_to != zone:
            self._put(player_id, zone, listed[:position] + listed[position + 1 :])
            self._put(
                player_id, cast(GameZone, move_to), self.player(player_id).zone(cast(GameZone, move_to)) + (updated,)
            )
        else:
            self._put(player_id, zone, listed[:position] + (updated,) + listed[position + 1 :])
        return updated

    def remove_card(self, player_id: str, card_id: int) -> None:
        zone, card = self.find_card(player_id, card_id)
        listed = self.player(player_id).zone(zone)
        self._put(player_id, zone, tuple(kept for kept in listed if kept is not card))

    def activate(self, player_id: str, card_id: int, target: str | None = None) -> Activated:
        """``player_id`` activates a replacement of their card ``card_id`` that waits for the next
        roll it applies to (targeting ``target``'s rolls, when it targets a player)."""
        _, card = self.find_card(player_id, card_id)
        if target is not None:
            self.player(target)
        if len(self.pending) >= MAX_CARDS_PER_PLAYER:
            raise InputError("card_id", f"up to {MAX_CARDS_PER_PLAYER} activated replacements may wait at once")
        replacements = tuple(effect for effect in card.effects if isinstance(effect, Replacement))
        if not replacements:
            raise InputError(
                "card_id", f"{card.name} has no replacement effect on a roll; only a replacement waits for a roll"
            )
        activated = Activated(player_id, replace(card, effects=replacements), target)
        self.pending.append(activated)
        return activated

    def set_plane(self, name: str | None, text: str | None = None) -> Permanent | None:
        """Put a plane or phenomenon face up in the command zone (``None`` clears it)."""
        if name is None:
            self.plane = None
            return None
        self.plane = enter_card(name[:120], self.cards, "plane", text=text, card_id=self.next_card_id)
        self.next_card_id += 1
        return self.plane

    def _put(self, player_id: str, zone: GameZone, cards: tuple[Permanent, ...]) -> None:
        """Replace one zone of one seat: a new board."""
        seat = self.seat_of(player_id)
        seats = list(self.board.seats)
        seats[seat] = replace(seats[seat], **{zone: cards})
        self.board = replace(self.board, seats=tuple(seats))

    # -- turns -------------------------------------------------------------------------------------

    def next_turn(self) -> None:
        """The next player's turn: the turn's uses, dice counts and the planar die's cost start over."""
        self.turn += 1
        self.used.clear()
        self.dice_rolled.clear()
        self.planar_rolls = 0
        self.pending.clear()  # "the next time ... this turn"
        order = list(self.names)
        if order:
            position = order.index(self.active) if self.active in order else -1
            self.active = order[(position + 1) % len(order)]

    def planar_cost(self) -> int:
        """Generic mana the next planar-die special action costs this turn (CR 901.9b)."""
        return self.planar_rolls

    # -- rolling -----------------------------------------------------------------------------------

    def table(self) -> Board:
        """The board a roll resolves against: :attr:`board` with the face-up plane in the active
        player's command zone (CR 901.3) and the activated replacements that wait; at least two
        seats (a table rolls with at least one opponent). The same object while nothing changed."""
        waiting = tuple(self._waiting())
        key = (self.board, self.plane, self.active, *waiting)
        if self._table is not None and len(self._table[0]) == len(key):
            if all(a is b for a, b in zip(self._table[0], key, strict=True)):
                return self._table[1]
        owners = list(self.names)
        seats = list(self.board.seats)
        if self.plane is not None and seats:
            holder = owners.index(self.active) if self.active in owners else 0
            seats[holder] = replace(seats[holder], command=(self.plane,))
        if len(seats) < 2:
            seats += [PlayerZones()] * (2 - len(seats))
        pending = tuple(
            Waiting(
                activated.card,
                Seat(owners.index(activated.controller)),
                Seat(owners.index(activated.target)) if activated.target is not None else None,
            )
            for activated in waiting
        )
        board = Board(tuple(seats), pending)
        self._table = (key, board)
        return board

    def request_for(self, player_id: str, spec: RollSpec) -> RollRequest:
        """The request (without dice) for ``player_id`` rolling ``spec``."""
        return self._view(player_id, spec).request

    def _view(self, player_id: str, spec: RollSpec, answers: Sequence[object] = ()) -> _View:
        """The table as a request: every player's zones in seat (join) order; the roller controls
        the source; the face-up plane is in the active player's command zone (CR 901.3)."""
        self.player(player_id)
        owners = tuple(self.names)
        rolled = [self.dice_rolled.get(owner, 0) for owner in owners]
        base = RollRequest(
            board=self.table(),
            seated=True,
            controller=Seat(owners.index(player_id)),
            amounts=tuple(spec.amounts.items()),
            choices=tuple(answers),
            turn=TurnState(frozenset(self.used), rolled[0], self.planar_rolls, tuple(rolled[1:])),
        )
        base = self.with_memory(base)
        if spec.kind == "card":
            if spec.card_id is None:
                raise InputError("card_id", "pick one of your cards to roll")
            _, card = self.find_card(player_id, spec.card_id)
            request = replace(base, card=self._source(card), roll=spec.roll)
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
        (``cards`` is not read: the game's cards entered its table from :attr:`cards`.)
        """
        roller = self.player(player_id)
        if spec.kind == "planar" and spec.cause == "action":
            check_planar_action(player_id == self.active, self._active_name())
        view = self._view(player_id, spec, answers)
        prepared: Prepared = prepare(view.request)
        chooser = ScriptedChooser(answers) if finish else AnsweringChooser(answers)
        try:
            outcome = resolve_prepared(prepared, source, chooser)
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
                if owner in self.names and turn.rolled(Seat(seat)):
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

    def _source(self, card: Permanent) -> SourceCard:
        """A card of the table as the source of its own roll (its instructions compiled when it
        entered; kept by card, so rolling it again looks nothing up)."""
        key = (card.id, card.name, card.text)
        known = self._sources.get(key)
        if known is None:
            known = enter_source(card.name, self.cards, "card_id", text=card.text, layout=card.layout)
            self._sources[key] = known
        return known

    def _active_name(self) -> str:
        return self.names[self.active] if self.active in self.names else "nobody"

    def _stored_target(self, roller: Seated, name: str, card_id: int | None) -> Permanent | None:
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
            if activated.controller in self.names and (activated.target is None or activated.target in self.names)
        ]

    def _seat_owners(self, request: RollRequest) -> tuple[str, ...]:
        """The player in each seat of a request of this game (seat order = join order; a request
        from before seats has the roller in seat 0)."""
        if request.seated:
            return tuple(self.names)
        return ()

    def _who_decides(self, roller: Seated, decision: Decision, view: _View) -> str:
        """The game player a decision belongs to (docs/design.md §15): the one in the seat the rules name."""
        if 0 <= decision.player < len(view.owners):
            return view.owners[decision.player]
        return roller.id

    # -- what abilities remember (json-interface.md v3 ``turn``, ``noted``) -------------------------

    def with_memory(self, request: RollRequest) -> RollRequest:
        """A request of this table with what abilities remembered (:mod:`mtgdice.game.memory`): this
        turn's flips won and lost and totals rolled for an ability in its ``turn``, the values noted
        on the permanents that hold them."""
        memory = self.memory
        turn = replace(
            request.turn,
            totals=memory.turn_totals(self.turn),
            flips=memory.turn_flips(tuple(self.players), self.turn),
        )
        if not memory.noted:
            return replace(request, turn=turn)

        def noted(cards: tuple[Permanent, ...]) -> tuple[Permanent, ...]:
            found = [memory.noted_on(card.id) for card in cards]
            return tuple(
                replace(card, noted=value) if value is not None else card
                for card, value in zip(cards, found, strict=True)
            )

        board = request.board
        seats = tuple(
            replace(zones, battlefield=noted(zones.battlefield), graveyard=noted(zones.graveyard))
            for zones in board.seats
        )
        return replace(request, turn=turn, board=replace(board, seats=seats))

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

    def _permanent_named(self, name: str) -> Permanent | None:
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
