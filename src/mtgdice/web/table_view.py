"""What the room's panels show of the table model: each card's controls, the waiting
replacements, a coin roll's flips and the turn's memory.

Small typed views built from the game (:class:`~mtgdice.game.Game`) and the compiled cards, for the
templates: a card's roll and flip instructions in text order (the request's ``roll`` numbers them
so), whether it has an activated "the next time target player would roll ..." replacement
(:func:`mtgdice.rules.activation.waits_for_activation`), the replacements waiting for a roll
(json-interface.md ``pending``), the coins of a flip with their calls and whether each was won
(CR 705.1), the outcomes of the flip that held, and what the turn remembers (json-interface.md
``turn``: flips won and lost, totals rolled for an ability, noted values).

What this module leaves out: routes, rendering and the rules themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

from mtgdice.errors import MtgDiceError
from mtgdice.game import Game, Roll
from mtgdice.game.request import CardSource, compile_card, instruction_of
from mtgdice.rules import FlipInstruction, Permanent, RollInstruction
from mtgdice.rules.activation import activated_replacements

Instruction = RollInstruction | FlipInstruction


@dataclass(frozen=True, slots=True)
class CardControls:
    """One card of a player's board with what its controls offer: its instructions (rolls and flips
    in text order), its Class levels (None: no Class) and whether it can be activated."""

    zone: str
    card: Permanent
    instructions: tuple[Instruction, ...]
    levels: int | None
    activates: bool

    def is_flip(self, index: int) -> bool:
        return isinstance(self.instructions[index], FlipInstruction)


def card_controls(card: Permanent, zone: str, cards: CardSource | None, levels: int | None) -> CardControls:
    """A card's controls; an activated replacement is offered on the battlefield only."""
    compiled = compile_card(card.name, card.text, "card", cards, card.layout)
    activates = zone == "battlefield" and bool(activated_replacements(compiled.effects))
    return CardControls(zone, card, compiled.instructions, levels, activates)


@dataclass(frozen=True, slots=True)
class WaitingView:
    """A replacement that waits for the next roll it applies to: whose, which card, whose rolls."""

    controller: str
    card: str
    target: str | None


def waiting_views(game: Game) -> tuple[WaitingView, ...]:
    """The game's waiting replacements, in activation order, with players by name."""

    def name(player_id: str | None) -> str | None:
        if player_id is None:
            return None
        found = game.players.get(player_id)
        return found.name if found is not None else "a player who left"

    return tuple(
        WaitingView(name(waiting.controller) or "", waiting.card.name, name(waiting.target)) for waiting in game.pending
    )


@dataclass(frozen=True, slots=True)
class CoinView:
    """One coin as the result panel shows it: its side, its call and whether it was won (None: an
    uncalled flip, CR 705.2), and its fate (counted, ignored, reflipped)."""

    side: str
    call: str | None
    won: bool | None
    fate: str

    @property
    def counted(self) -> bool:
        return self.fate == "counted"


@dataclass(frozen=True, slots=True)
class FlipExecutionView:
    """One carrying out of a flip: its coins, flips won and lost, and the outcomes that held."""

    coins: tuple[CoinView, ...]
    won: int
    lost: int
    outcomes: tuple[str, ...]


def flip_view(roll: Roll, cards: CardSource | None) -> tuple[FlipExecutionView, ...]:
    """A coin roll's executions for the result panel (empty: not a coin roll). The outcomes' words
    come from the instruction the request picks (compiled once, cached)."""
    flip = roll.flip
    if flip is None:
        return ()
    instruction: Instruction | None = None
    if roll.request.card is not None:
        try:
            instruction = instruction_of(roll.request, cards)[1]
        except (MtgDiceError, LookupError):
            instruction = None
    outcomes = instruction.outcomes if isinstance(instruction, FlipInstruction) else ()
    return tuple(
        FlipExecutionView(
            tuple(
                CoinView(
                    coin.side.value,
                    coin.call.value if coin.call is not None else None,
                    coin.won,
                    coin.fate.value,
                )
                for coin in execution.coins
            ),
            execution.won,
            execution.lost,
            tuple(outcomes[i].text for i in execution.outcomes if i < len(outcomes)),
        )
        for execution in flip.executions
    )


def outcome_texts(roll: Roll) -> tuple[tuple[str, ...], ...]:
    """Per execution of a dice roll, the words of its outcomes that held (beside its table rows)."""
    resolution, instruction = roll.resolution, roll.instruction
    if resolution is None or instruction is None or not instruction.outcomes:
        return ()
    outcomes = instruction.outcomes
    return tuple(
        tuple(outcomes[i].text for i in execution.outcomes if i < len(outcomes) and outcomes[i].text)
        for execution in resolution.executions
    )


@dataclass(frozen=True, slots=True)
class MemoryView:
    """What abilities wrote that the table remembers (json-interface.md v3 ``turn`` and ``noted``):
    this turn's flips won and lost by player, totals rolled for a permanent's ability, and the
    values noted on cards."""

    flips: tuple[tuple[str, int, int], ...] = ()
    totals: tuple[tuple[str, tuple[int, ...]], ...] = ()
    noted: tuple[tuple[str, int], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.flips or self.totals or self.noted)


def memory_view(game: Game) -> MemoryView:
    """The game's memory with players and cards by name."""
    memory = game.memory
    owners = tuple(game.players)
    flips = tuple(
        (game.players[owner].name, won, lost)
        for owner, (won, lost) in zip(owners, memory.turn_flips(owners, game.turn), strict=False)
        if won or lost
    )
    names = {card.id: card.name for player in game.players.values() for _, card in player.cards()}
    noted = tuple((names[card_id], value) for card_id, value in memory.noted if card_id in names)
    return MemoryView(flips, memory.turn_totals(game.turn), noted)
