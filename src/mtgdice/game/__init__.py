"""A game of Magic as far as dice care: players, boards, the turn, rolls and their history.

:class:`Game` builds typed roll requests (:mod:`mtgdice.request`) from the board and resolves
them through the rules; open decisions come back as :class:`Pending` questions that the shell
puts to the right player (:mod:`mtgdice.game.choices`). No rules live here, and no I/O.
"""

from mtgdice.game.choices import AnsweringChooser, DecisionPending, Question
from mtgdice.game.table import Activated, Card, Game, Pending, Player, Roll, RollSpec, dice_text, row_texts

__all__ = [
    "Activated",
    "AnsweringChooser",
    "Card",
    "DecisionPending",
    "Game",
    "Pending",
    "Player",
    "Question",
    "Roll",
    "RollSpec",
    "dice_text",
    "row_texts",
]
