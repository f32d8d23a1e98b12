"""A request is prepared once, before resolve: the prepared request carries its instruction and
the policy for decisions nobody answers, and resolving it compiles nothing and asks the shell
nothing (docs/architecture.md, "A roll's way through the code")."""

from __future__ import annotations

import pytest

from mtgdice.game import request as game_request
from mtgdice.game.request import RollKind, RollRequest, enter_source, prepare, resolve_prepared
from mtgdice.rules import Seat
from mtgdice.rules.plain import PlainRoll
from mtgdice.rules.sources import ScriptedSource
from mtgdice.text import CompiledCard

CHOOSE = "Roll two d20 and choose one result."
FACES = [3, 17]


def _choose_request(**fields: object) -> RollRequest:
    return RollRequest(card=enter_source("", None, text=CHOOSE), **fields)  # type: ignore[arg-type]


def _chosen(policy: str | None, **fields: object) -> object:
    """The answer the resolution took to "choose one result" with the dice showing 3 and 17."""
    outcome = resolve_prepared(prepare(_choose_request(**fields), policy=policy), ScriptedSource(FACES))
    ((_, answer),) = outcome.decisions
    return answer


def test_the_policy_answers_what_nobody_answered() -> None:
    assert _chosen("best") == FACES.index(max(FACES))  # the roller's best result
    assert _chosen("minimize") == FACES.index(min(FACES))
    assert _chosen(None) == 0  # the defaults of JSON choices: the first option


def test_given_answers_come_before_the_policy() -> None:
    assert _chosen("best", choices=(0,)) == 0


def test_best_is_for_the_seats_that_roll() -> None:
    prepared = prepare(_choose_request(), policy="best")
    assert getattr(prepared.policy, "rollers", None) == frozenset({Seat(0)})
    assert prepare(_choose_request()).policy is None


def test_a_prepared_request_carries_what_it_resolves() -> None:
    request = _choose_request()
    prepared = prepare(request)
    assert prepared.request is request
    assert prepared.instruction is request.card.compiled.instructions[0]  # type: ignore[union-attr]


@pytest.mark.parametrize(("kind", "read"), [(RollKind.DICE, CompiledCard), (RollKind.PLAIN, PlainRoll)])
def test_notation_is_read_when_the_request_is_made_never_in_prepare(
    monkeypatch: pytest.MonkeyPatch, kind: RollKind, read: type
) -> None:
    request = RollRequest(kind, notation="2d10")
    assert isinstance(request.dice, read)

    def no_compiling(*args: object, **kwargs: object) -> object:
        raise AssertionError("prepare compiled or parsed text")

    for name in ("_compiled", "compile_foreign", "dice_text", "parse_plain"):
        monkeypatch.setattr(game_request, name, no_compiling)
    prepared = prepare(request)
    if isinstance(request.dice, PlainRoll):
        assert prepared.plain is request.dice
        assert resolve_prepared(prepared, ScriptedSource([4, 9])).draws == ((10, 4), (10, 9))  # type: ignore[union-attr]
    else:
        assert prepared.instruction is request.dice.rolls[0]  # type: ignore[union-attr]
        (execution,) = resolve_prepared(prepared, ScriptedSource([4, 9])).executions  # type: ignore[union-attr]
        assert [die.natural for die in execution.dice] == [4, 9]
