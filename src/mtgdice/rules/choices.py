"""Decisions met while resolving, and the injected ``Chooser`` that answers them (docs/design.md, choices).

Every decision (ignore which tied die, reroll or not, apply an optional modifier, increase or
decrease, choose one result, roll again, which stored results to reroll) is a :class:`Decision`
passed to one protocol. A decision is asked only when it has two or more options; the pipeline
makes sure of that.

Implementations here: :class:`ScriptedChooser` (JSON ``choices``: answers in order, defaults when
they run out) and :class:`PolicyChooser` (``decline``, ``accept``, ``maximize``, ``minimize``).
Interactive choosers (CLI prompt, web page) live in the shells and satisfy the same protocol.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from mtgdice.rules.dice import DieRoll
from mtgdice.rules.errors import ChoiceError
from mtgdice.rules.players import Seat
from mtgdice.rules.records import direct_init
from mtgdice.rules.zones import Zone

Answer = bool | int | tuple[int, ...]


class Ask(enum.Enum):
    """The shape of an answer."""

    YES_NO = "yes/no"
    PICK_ONE = "pick one"
    PICK_ANY = "pick any number"


class Topic(enum.Enum):
    """What a decision is about; policies and renderers read it, the pipeline never branches on text."""

    ORDER = "order"  # which replacement applies first (CR 616.1)
    REPLACE = "replace"  # apply an optional replacement ("you may instead roll ...")
    IGNORE = "ignore"  # which die to ignore (pair choice, tie for lowest, chosen ignore)
    KEEP = "keep"  # which one of a die and its several partners counts
    REROLL = "reroll"  # use a reroll permission on this die
    REROLL_WHICH = "reroll which"  # which dice a "one or more dice" permission rerolls
    MODIFY = "modify"  # apply an optional modifier (with its cost)
    DIRECTION = "direction"  # increase (0) or decrease (1)
    CHOOSE_RESULT = "choose result"  # "roll two d10 and choose one result"
    ROLL_AGAIN = "roll again"  # an optional "you may roll again"
    STORED = "stored"  # which stored results to reroll (CR 706.8b)
    REFLIP = "reflip"  # use a reflip permission on this coin (CR 705)
    CALL = "call"  # call a coin flip: heads (0) or tails (1) (CR 705.1)


@direct_init
@dataclass(frozen=True, slots=True)
class Decision:
    """One question for one player.

    ``player`` is the seat that answers; ``options`` label the choices of a pick; ``values``
    give, where it means something, the result each option leads to (a policy that maximises
    the result reads them). ``dice`` are the dice of the execution as they stand when it is asked
    (shown before any decision about them); ``source``, ``zone`` and ``position`` name the card
    whose effect asks, and where it is on the board.

    >>> Decision(Ask.YES_NO, Topic.REROLL, Seat(0), "Reroll the 3 (a reroll permission)?").ask.value
    'yes/no'
    """

    ask: Ask
    topic: Topic
    player: Seat
    prompt: str
    options: tuple[str, ...] = ()
    values: tuple[float | None, ...] = ()
    source: str = ""
    dice: tuple[DieRoll, ...] = ()
    zone: Zone | None = None
    position: int | None = None


@runtime_checkable
class Chooser(Protocol):
    """Answers decisions: ``bool`` for yes/no, ``int`` for pick one, ``tuple[int, ...]`` for pick any.

    Any object with a ``decide`` method is one; this one takes the highest of the offered values:

    >>> from mtgdice import ScriptedSource, compile_text, resolve
    >>> class Highest:
    ...     def decide(self, decision):
    ...         return max(range(len(decision.values)), key=decision.values.__getitem__)
    >>> isinstance(Highest(), Chooser)
    True
    >>> card = compile_text("Roll two d6 and choose one result.\\n1\u20143 | Scry 1.\\n4\u20146 | Draw a card.")
    >>> outcome = resolve(card.rolls[0], source="Example", dice=ScriptedSource([2, 5]), chooser=Highest())
    >>> outcome.executions[0].chosen, outcome.executions[0].row, outcome.decisions[0][0].prompt
    (1, 1, 'Choose one result')
    """

    def decide(self, decision: Decision) -> Answer: ...


def default_answer(decision: Decision) -> Answer:
    """The answer when nobody says otherwise: decline, the first option, nothing."""
    if decision.ask is Ask.YES_NO:
        return False
    if decision.ask is Ask.PICK_ONE:
        return 0
    return ()


def check_answer(decision: Decision, answer: object, where: str = "choices") -> Answer:
    """Validate ``answer`` for ``decision``; raise :class:`ChoiceError` naming ``where``."""
    if decision.ask is Ask.YES_NO:
        if not isinstance(answer, bool):
            raise ChoiceError(f"{where}: {decision.prompt} needs true or false, got {answer!r}")
        return answer
    if decision.ask is Ask.PICK_ONE:
        if isinstance(answer, bool) or not isinstance(answer, int):
            raise ChoiceError(f"{where}: {decision.prompt} needs an index, got {answer!r}")
        if not 0 <= answer < len(decision.options):
            raise ChoiceError(f"{where}: {decision.prompt} has options 0 to {len(decision.options) - 1}, got {answer}")
        return answer
    if not isinstance(answer, (list, tuple)) or any(
        isinstance(item, bool) or not isinstance(item, int) for item in answer
    ):
        raise ChoiceError(f"{where}: {decision.prompt} needs a list of indices, got {answer!r}")
    picked = tuple(answer)
    if len(set(picked)) != len(picked):
        raise ChoiceError(f"{where}: {decision.prompt} lists an index twice: {list(picked)}")
    for item in picked:
        if not 0 <= item < len(decision.options):
            raise ChoiceError(f"{where}: {decision.prompt} has options 0 to {len(decision.options) - 1}, got {item}")
    return tuple(sorted(picked))


class ScriptedChooser:
    """Answers given in advance, in the order the pipeline meets the decisions.

    When the answers run out: yes/no is declined, a pick takes index 0, a subset is empty.

    >>> chooser = ScriptedChooser([True])
    >>> chooser.decide(Decision(Ask.YES_NO, Topic.ROLL_AGAIN, Seat(0), "Roll again?"))
    True
    >>> chooser.decide(Decision(Ask.YES_NO, Topic.ROLL_AGAIN, Seat(0), "Roll again?"))
    False
    """

    def __init__(self, answers: Iterable[object] = (), then: Chooser | None = None, field: str = "choices") -> None:
        self._answers = list(answers)
        self._next = 0
        self._then = then
        self._field = field
        self.asked: list[Decision] = []

    def decide(self, decision: Decision) -> Answer:
        """The next answer given; past the last one, ``then``'s answer (else the defaults)."""
        self.asked.append(decision)
        if self._next >= len(self._answers):
            return default_answer(decision) if self._then is None else self._then.decide(decision)
        position = self._next
        self._next += 1
        return check_answer(decision, self._answers[position], f"{self._field}[{position}]")


class Policy(enum.Enum):
    """How a :class:`PolicyChooser` answers: decline every optional action, accept every one, or
    take the options that make the result as large or as small as they can.

    >>> Policy("maximize"), [policy.value for policy in Policy]
    (<Policy.MAXIMIZE: 'maximize'>, ['decline', 'accept', 'maximize', 'minimize'])
    """

    DECLINE = "decline"
    ACCEPT = "accept"
    MAXIMIZE = "maximize"
    MINIMIZE = "minimize"


class RollerBest:
    """The stated policy for decisions nobody answers (docs/design.md, "Choices and dice sources"):
    each of the rollers' own picks takes the best result for them, as ``maximize`` reads "best" (the
    option whose value is highest); every optional action — a cost, a reroll, a roll again — is declined; other players'
    picks take their first option.

    >>> from mtgdice.rules.dice import Die
    >>> pair = Decision(Ask.PICK_ONE, Topic.IGNORE, Seat(0), "Ignore which?", ("20", "7"), (7, 20))
    >>> RollerBest((Seat(0),)).decide(pair), RollerBest((Seat(1),)).decide(pair)
    (1, 0)
    """

    name = "best"
    describe = "the roller's best result for the roller's own choices; optional actions declined"

    def __init__(self, rollers: Iterable[Seat]) -> None:
        self.rollers = frozenset(rollers)
        self._best = PolicyChooser(Policy.MAXIMIZE)

    def decide(self, decision: Decision) -> Answer:
        if decision.ask is Ask.PICK_ONE and decision.player in self.rollers:
            return self._best.decide(decision)
        return default_answer(decision)


class PolicyChooser:
    """Answers every decision by a named policy.

    ``decline`` refuses every optional action and takes the first option; ``accept`` takes every
    optional action; ``maximize``/``minimize`` pick the option whose ``values`` entry is largest
    or smallest and take optional actions whose decision carries values (the value if declined,
    then each value accepting can lead to) only when they help.

    >>> PolicyChooser("accept").decide(Decision(Ask.YES_NO, Topic.ROLL_AGAIN, Seat(0), "Roll again?"))
    True
    """

    def __init__(self, policy: Policy | str = Policy.DECLINE) -> None:
        self.policy = Policy(policy)

    def decide(self, decision: Decision) -> Answer:
        if decision.ask is Ask.YES_NO:
            if self.policy is Policy.DECLINE:
                return False
            if self.policy is Policy.ACCEPT:
                return True
            return self._better(decision.values)
        if decision.ask is Ask.PICK_ONE:
            if self.policy in (Policy.MAXIMIZE, Policy.MINIMIZE) and any(v is not None for v in decision.values):
                return self._best_index(decision.values)
            return 0
        if self.policy is Policy.ACCEPT:
            return tuple(range(len(decision.options)))
        return ()

    def _best_index(self, values: Sequence[float | None]) -> int:
        sign = 1 if self.policy is Policy.MAXIMIZE else -1
        scored = [(sign * v, -i) for i, v in enumerate(values) if v is not None]
        return -max(scored)[1]

    def _better(self, values: Sequence[float | None]) -> bool:
        # values = (value if declined, then each value accepting can lead to)
        if len(values) < 2 or any(value is None for value in values):
            return False
        declined, accepted = values[0], [value for value in values[1:] if value is not None]
        assert declined is not None
        if self.policy is Policy.MAXIMIZE:
            return max(accepted) > declined
        return min(accepted) < declined
