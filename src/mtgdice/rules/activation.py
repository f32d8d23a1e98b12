"""Replacements that wait for their activation (json-interface.md ``pending``).

An activated ability "the next time target player would roll ... this turn, instead ..." creates a
replacement effect that waits for the next roll of the player it targets (CR 614, CR 616). On a
card in a zone it does nothing (:meth:`~mtgdice.rules.board.Holder.sees`: a "target player"
effect sees no roll); once activated it joins the table's waiting replacements
(:class:`~mtgdice.rules.board.Waiting`) with its controller and target, and the first roll it
applies to uses it up. This module says which compiled effects are such abilities, for the shells
that offer to activate them (a room's board).
"""

from __future__ import annotations

from collections.abc import Iterable

from mtgdice.rules.effects.base import EffectBase
from mtgdice.rules.effects.replacement import Replacement
from mtgdice.rules.players import Scope


def waits_for_activation(effect: EffectBase) -> bool:
    """Whether ``effect`` is a replacement that acts only once activated against a target player.

    >>> from mtgdice.rules.effects.replacement import ExtraDice
    >>> waits_for_activation(ExtraDice(scope=Scope.TARGET)), waits_for_activation(ExtraDice(scope=Scope.YOU))
    (True, False)
    """
    return isinstance(effect, Replacement) and effect.scope is Scope.TARGET


def activated_replacements(effects: Iterable[EffectBase]) -> tuple[EffectBase, ...]:
    """The effects of a card that wait for their activation, in text order."""
    return tuple(effect for effect in effects if waits_for_activation(effect))
