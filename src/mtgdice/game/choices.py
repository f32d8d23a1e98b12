"""Decisions in a shared game: answers given so far, and the question still open.

A room cannot block inside the resolver while it waits for a person, so interactive play works
by re-resolving (see :mod:`mtgdice.game.table`): the roll is resolved with the answers the
players have given, in the order the pipeline meets the decisions. When the pipeline asks a
decision that has no answer yet, :class:`AnsweringChooser` stops the resolution with
:class:`DecisionPending`; the page shows that question to the player it belongs to, and the roll
is resolved again from the start with the same nonce (so the same faces) and one more answer.

What this module leaves out: rules (the pipeline decides which questions are asked and when)
and transport (pages and websockets live in :mod:`mtgdice.web`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from mtgdice.rules import Ask, Decision
from mtgdice.rules.choices import Answer, check_answer


class QuestionJSON(TypedDict):
    """A question as JSON (a room's stored state, the pages' messages)."""

    player: str
    ask: str
    topic: str
    prompt: str
    options: list[str]
    position: int


@dataclass(frozen=True, slots=True)
class Question:
    """An open decision, as a page shows it: who answers, what is asked, the options.

    >>> Question("p1", "yes/no", "reroll", "Reroll the 3?", ("no", "yes"), 0).answer_from("1")
    True
    """

    player: str
    ask: str
    topic: str
    prompt: str
    options: tuple[str, ...]
    position: int

    def answer_from(self, raw: str | Sequence[str]) -> Answer:
        """Turn form values (option indices as text) into an answer of the right type."""
        values = [raw] if isinstance(raw, str) else list(raw)
        try:
            numbers = [int(value) for value in values]
        except ValueError:
            raise ValueError(f"answer: expected option numbers, got {values!r}") from None
        if self.ask == Ask.YES_NO.value:
            if len(numbers) != 1 or numbers[0] not in (0, 1):
                raise ValueError("answer: expected 0 (no) or 1 (yes)")
            return numbers[0] == 1
        if self.ask == Ask.PICK_ONE.value:
            if len(numbers) != 1:
                raise ValueError("answer: pick exactly one option")
            return numbers[0]
        return tuple(numbers)

    def to_json(self) -> QuestionJSON:
        return {
            "player": self.player,
            "ask": self.ask,
            "topic": self.topic,
            "prompt": self.prompt,
            "options": list(self.options),
            "position": self.position,
        }


class DecisionPending(Exception):
    """Raised through the resolver when a decision has no answer yet (not an error)."""

    def __init__(self, decision: Decision, position: int) -> None:
        super().__init__(decision.prompt)
        self.decision = decision
        self.position = position


class AnsweringChooser:
    """Answers decisions from the answers given; stops at the first decision without one.

    Each answer is checked against its decision like the JSON ``choices`` are.

    >>> from mtgdice.rules import Topic
    >>> chooser = AnsweringChooser([True])
    >>> chooser.decide(Decision(Ask.YES_NO, Topic.REROLL, "you", "Reroll?", ("no", "yes")))
    True
    >>> chooser.decide(Decision(Ask.YES_NO, Topic.REROLL, "you", "Reroll?", ("no", "yes")))
    Traceback (most recent call last):
      ...
    mtgdice.game.choices.DecisionPending: Reroll?
    """

    def __init__(self, answers: Sequence[object] = ()) -> None:
        self.answers = list(answers)
        self._next = 0

    def decide(self, decision: Decision) -> Answer:
        if self._next >= len(self.answers):
            raise DecisionPending(decision, self._next)
        position = self._next
        self._next += 1
        return check_answer(decision, self.answers[position], f"choices[{position}]")
