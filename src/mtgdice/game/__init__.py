"""A game of Magic as far as dice care: players, boards, the turn, rolls and their history.

:class:`Game` builds typed roll requests (:mod:`mtgdice.game.request`) from the board and resolves
them through the rules; open decisions come back as :class:`Pending` questions that the shell
puts to the right player (:mod:`mtgdice.game.choices`). No rules live here, and no I/O.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mtgdice.game.choices import AnsweringChooser, DecisionPending, Question
    from mtgdice.game.table import Activated, Game, Pending, Roll, RollSpec, Seated, dice_text, row_texts

__all__ = [
    "Activated",
    "AnsweringChooser",
    "DecisionPending",
    "Game",
    "Pending",
    "Question",
    "Roll",
    "RollSpec",
    "Seated",
    "dice_text",
    "row_texts",
]

_MODULES = {name: "mtgdice.game.choices" for name in ("AnsweringChooser", "DecisionPending", "Question")} | {
    name: "mtgdice.game.table"
    for name in ("Activated", "Game", "Pending", "Roll", "RollSpec", "Seated", "dice_text", "row_texts")
}
"""Where each public name lives: loaded on first use, so that the roll record (``game.record``),
which logging a plain roll needs, loads neither the table nor the compiler."""


def __getattr__(name: str) -> Any:
    if name not in _MODULES:
        raise AttributeError(f"module 'mtgdice.game' has no attribute {name!r}")
    value = getattr(importlib.import_module(_MODULES[name]), name)
    globals()[name] = value
    return value
