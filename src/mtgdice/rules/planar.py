"""The planar die as a special action (CR 901.9): who may roll it, and what the next roll costs.

In a Planechase game the active player may roll the planar die as a special action any time they
could cast a sorcery (CR 901.9a); the first such roll in a turn costs nothing and each further one
costs one generic mana more (CR 901.9b). Rolls that effects cause, rerolls and extra dice are not
special actions and cost nothing. The roll itself is an ordinary roll of the planar die
(:func:`mtgdice.rules.resolution`, with ``action=True`` so it counts toward the next cost).
"""

from __future__ import annotations

from mtgdice.rules.errors import InputError
from mtgdice.rules.resolution import TurnState


def planar_action_cost(turn: TurnState) -> int:
    """Generic mana the next planar-die special action costs this turn (CR 901.9b).

    >>> planar_action_cost(TurnState()), planar_action_cost(TurnState(planar_actions=2))
    (0, 2)
    """
    return turn.planar_actions


def check_planar_action(active: bool, active_name: str = "the active player") -> None:
    """Refuse a planar-die special action by anyone but the active player (CR 901.9a)."""
    if not active:
        raise InputError(
            "player",
            f"only the active player ({active_name}) may roll the planar die as a special action; "
            "a roll an effect causes is not a special action",
        )
