"""The exact odds engine: acceptance numbers, fast paths against brute force, the CLI."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgdice.odds import fast, odds
from mtgdice.rules import (
    PLANAR_DIE,
    Amount,
    Board,
    Die,
    Event,
    ExtraDice,
    InRange,
    NaturalMax,
    Permanent,
    RerollPermission,
    ResultModifier,
    ResultsTable,
    RollInstruction,
    Row,
    Trigger,
    Zone,
)
from mtgdice.rules.errors import RollLimitError

PIXIE = Permanent("Pixie", (ExtraDice(),))
SPELLBOOK_TABLE = ResultsTable((Row(1, 9), Row(10, 19), Row(20, 20)))


@pytest.fixture(scope="module")
def compiled(catalog: Any) -> Any:
    from mtgdice.game.request import compile_record

    return lambda name: compile_record(catalog.lookup(name))


def _board(compiled: Any, *names: str, graveyard: tuple[str, ...] = ()) -> Board:
    return Board.from_zones(
        battlefield=tuple(Permanent(name, compiled(name).effects) for name in names),
        graveyard=tuple(Permanent(name, compiled(name).effects) for name in graveyard),
    )


def _fractions(values: list[str]) -> list[Fraction]:
    return [Fraction(value) for value in values]


# -- acceptance numbers (issue 4) ------------------------------------------------------------------


def test_spellbook_with_pixie_guide(compiled: Any) -> None:
    spellbook = compiled("Wizard's Spellbook").rolls[0]
    result = odds(spellbook, board=_board(compiled, "Pixie Guide"))
    assert result.to_json()["rows"] == ["81/400", "7/10", "39/400"]
    assert result.no_row == 0
    assert sum(p for _, p in result.results) == 1


def test_sword_expected_executions(compiled: Any) -> None:
    sword = compiled("Sword of Dungeons & Dragons").rolls[0]
    assert odds(sword).expected_executions == Fraction(20, 19)
    assert odds(sword, board=_board(compiled, "Pixie Guide")).expected_executions == Fraction(400, 361)


def test_delina_accepts_roll_again(compiled: Any) -> None:
    delina = compiled("Delina, Wild Mage").rolls[0]
    board = _board(compiled, "Pixie Guide")
    assert odds(delina, board=board, policy="accept").expected_executions == Fraction(100, 49)
    assert odds(delina, board=board, policy="decline").expected_executions == 1


def test_triggers_over_the_whole_resolution(compiled: Any) -> None:
    sword = compiled("Sword of Dungeons & Dragons").rolls[0]
    result = odds(sword, board=_board(compiled, graveyard=("Critical Hit",)))
    # Each execution triggers with 1/20; 20/19 executions are expected.
    assert dict(result.triggers) == {"Critical Hit": Fraction(1, 19)}


# -- anchors that other exact engines agree on (research/dicelibs.md §2C) --------------------------


def test_highest_of_two_d20_plus_one() -> None:
    instruction = RollInstruction(
        Amount(2),
        Die(20),
        keep_highest=1,
        modifier=Amount(1),
        table=ResultsTable((Row(1, 9), Row(10, 19), Row(20, None))),
    )
    result = odds(instruction)
    assert list(result.rows) == [Fraction(4, 25), Fraction(13, 20), Fraction(19, 100)]
    assert sum(value * p for value, p in result.results) == Fraction(593, 40)  # type: ignore[operator]


def test_ten_d20_keep_highest_three() -> None:
    result = odds(RollInstruction(Amount(10), Die(20), keep_highest=3))
    assert result.method == "totals"
    assert dict(result.results)[60] == Fraction(29449106891, 2560000000000)
    assert sum(value * p for value, p in result.results) == Fraction(2588121164321, 51200000000)  # type: ignore[operator]


def test_twenty_d20_sum() -> None:
    result = odds(RollInstruction(Amount(20), Die(20)))
    assert result.method == "totals"
    assert dict(result.results)[210] == Fraction(10061930463988810524203, 655360000000000000000000)
    assert result.doubles == Fraction(20, 20**20)


def test_rerolling_ones_settles_exactly() -> None:
    # A permission that may be used again on the new roll: 1s are rerolled until they are not 1s.
    board = Board.from_zones(battlefield=(Permanent("Rerolls", (RerollPermission(condition=InRange(1, 1)),)),))
    result = odds(RollInstruction(Amount(1), Die(6)), board=board, policy="accept")
    assert dict(result.results) == {face: Fraction(1, 5) for face in range(2, 7)}
    once = Board.from_zones(
        battlefield=(Permanent("Rerolls", (RerollPermission(condition=InRange(1, 1), once_each_turn=True),)),)
    )
    result = odds(RollInstruction(Amount(1), Die(6)), board=once, policy="accept")
    assert dict(result.results)[1] == Fraction(1, 36)


def test_planar_die_split() -> None:
    result = dict(odds(RollInstruction(Amount(1), PLANAR_DIE)).results)
    assert result == {"chaos": Fraction(1, 6), "planeswalk": Fraction(1, 6), "blank": Fraction(2, 3)}


def test_certain_roll_again_is_an_error() -> None:
    always = RollInstruction(Amount(1), Die(2), table=ResultsTable((Row(1, 2, roll_again=True),)))
    with pytest.raises(RollLimitError):
        odds(always)


def test_once_each_turn_chain_matches_brute_force() -> None:
    # A once-each-turn reroll, used in one execution, is gone for the next: two turn states.
    board = Board.from_zones(
        battlefield=(Permanent("Once", (RerollPermission(condition=InRange(1, 2), once_each_turn=True),)),)
    )
    instruction = RollInstruction(Amount(1), Die(4), table=ResultsTable((Row(1, 3), Row(4, 4, roll_again=True))))
    auto = odds(instruction, board=board, policy="accept")
    brute = odds(instruction, board=board, policy="accept", method="brute")
    assert auto.expected_executions == brute.expected_executions
    # Unused: again 1/4 (a 4) staying unused, 1/8 (a 1 or 2 rerolled into a 4) using it;
    # used: again 1/4, so 4/3 executions. E = 1 + E/4 + (1/8)(4/3) = 14/9.
    assert auto.expected_executions == Fraction(14, 9)


# -- fast paths against brute force ----------------------------------------------------------------

CONDITIONS = st.sampled_from([InRange(1, 1), InRange(3, None), InRange(None, 2, natural=True), NaturalMax()])


@st.composite
def cases(draw: Any) -> tuple[RollInstruction, Board, str]:
    sides = draw(st.integers(2, 6))
    count = draw(st.integers(1, 3))
    effects: list[Any] = []
    for _ in range(draw(st.integers(0, 2))):
        effects.append(ExtraDice())
    if draw(st.booleans()):
        effects.append(ResultModifier(delta=draw(st.integers(-2, 2))))
    if draw(st.booleans()):
        effects.append(Trigger(event=draw(st.sampled_from(list(Event))), condition=draw(CONDITIONS)))
    if draw(st.booleans()):
        # Unbounded rerolls with extra dice loop with period two draws; the search closes loops of
        # one draw only (see odds/enumerate.py), so those combine with once-each-turn rerolls here.
        once = draw(st.booleans()) or any(isinstance(effect, ExtraDice) for effect in effects)
        effects.append(RerollPermission(condition=InRange(1, 1), once_each_turn=once))
    high = count * sides
    cut = draw(st.integers(1, max(1, high - 1)))
    table = draw(st.sampled_from([None, ResultsTable((Row(1, cut), Row(cut + 1, None)))]))
    instruction = RollInstruction(
        Amount(count),
        Die(sides),
        ignore_lowest=draw(st.integers(0, count - 1)),
        modifier=draw(st.sampled_from([None, Amount(1), Amount(-1)])),
        table=table,
        repeat_when=draw(st.sampled_from([None, InRange(sides + 5, None)])),
    )
    return (
        instruction,
        Board.from_zones(battlefield=(Permanent("Board", tuple(effects)),)),
        draw(st.sampled_from(["decline", "accept"])),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_fast_paths_equal_brute_force(case: tuple[RollInstruction, Board, str]) -> None:
    instruction, board, policy = case
    auto = odds(instruction, board=board, policy=policy)
    brute = odds(instruction, board=board, policy=policy, method="brute")
    assert dict(auto.first) == dict(brute.first)
    assert auto.expected_executions == brute.expected_executions
    assert auto.triggers == brute.triggers


DP_CASES = [
    RollInstruction(Amount(4), Die(4), keep_highest=2, table=ResultsTable((Row(1, 5), Row(6, 8)))),
    RollInstruction(Amount(3), Die(5), ignore_lowest=1, modifier=Amount(2)),
    RollInstruction(Amount(4), Die(3)),
    RollInstruction(Amount(3), Die(4), table=ResultsTable((Row(3, 6), Row(7, 12)))),
]
DP_IDS = ["4d4-keep-2", "3d5-ignore-1-plus-2", "4d3-sum", "3d4-sum-table"]


@pytest.mark.parametrize("per_die", [False, True], ids=["totals", "kept-dice"])
@pytest.mark.parametrize("instruction", DP_CASES, ids=DP_IDS)
def test_dp_paths_equal_brute_force(instruction: RollInstruction, per_die: bool) -> None:
    effects: tuple[Any, ...] = (Trigger(event=Event.DICE_ROLLED), ResultModifier(delta=1))
    if per_die:
        effects += (Trigger(condition=InRange(4, None)),)
    board = Board.from_zones(battlefield=(PIXIE, Permanent("Board", effects)))
    auto = odds(instruction, board=board)
    assert auto.method == ("kept dice" if per_die else "totals")
    assert dict(auto.first) == dict(odds(instruction, board=board, method="brute").first)


def test_polynomial_totals_equal_brute_force(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast, "MAX_KEPT", 0)
    instruction = RollInstruction(Amount(4), Die(3), table=ResultsTable((Row(4, 6), Row(7, 9), Row(10, 11))))
    board = Board.from_zones(battlefield=(Permanent("Board", (ResultModifier(delta=-1),)),))
    auto = odds(instruction, board=board)
    assert auto.method == "totals"
    assert dict(auto.first) == dict(odds(instruction, board=board, method="brute").first)


def test_rerolling_five_d6_ones() -> None:
    board = Board.from_zones(battlefield=(Permanent("Rerolls", (RerollPermission(condition=InRange(1, 1)),)),))
    result = dict(odds(RollInstruction(Amount(5), Die(6)), board=board, policy="accept").results)
    # Each die settles on 2-6, uniformly: the totals are those of 5d5 shifted by 5.
    fives = dict(odds(RollInstruction(Amount(5), Die(5), modifier=Amount(1))).results)
    assert result == fives


# -- CLI -------------------------------------------------------------------------------------------


@pytest.fixture()
def cli() -> Any:
    from mtgdice.cli import cli as app

    runner = CliRunner()
    return lambda args, stdin="": runner.invoke(app, args, input=stdin)


def test_cli_odds_json(cli: Any, cards_path: str) -> None:
    request = {"card": "Wizard's Spellbook", "battlefield": ["Pixie Guide"]}
    result = cli(["odds", "--json", "--cards", cards_path], json.dumps(request))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"rows", "no_row", "results", "expected_executions", "triggers"} <= set(data)  # fields may be added
    assert data["rows"] == ["81/400", "7/10", "39/400"]
    assert data["expected_executions"] == "1"
    request = {"card": "Delina, Wild Mage", "battlefield": ["Pixie Guide"], "policy": "accept"}
    data = json.loads(cli(["odds", "--json", "--cards", cards_path], json.dumps(request)).stdout)
    assert data["expected_executions"] == "100/49"
    request = {"card": "Sword of Dungeons & Dragons", "graveyard": ["Critical Hit"]}
    data = json.loads(cli(["odds", "--json", "--cards", cards_path], json.dumps(request)).stdout)
    assert data["no_row"] is None
    assert data["triggers"] == {"Critical Hit": "1/19"} and data["expected_executions"] == "20/19"


@pytest.mark.parametrize(
    "request_",
    [{"card": "No Such Card"}, {"card": "Hoarding Ogre", "policy": "greedy"}, {"card": "Hoarding Ogre", "dice": [3]}],
    ids=["unknown-card", "bad-policy", "dice-given"],
)
def test_cli_odds_errors(cli: Any, cards_path: str, request_: dict[str, Any]) -> None:
    result = cli(["odds", "--json", "--cards", cards_path], json.dumps(request_))
    assert result.exit_code == 2
    assert result.stdout == ""


def test_cli_odds_table_and_plot(cli: Any, cards_path: str, tmp_path: Any) -> None:
    chart = tmp_path / "spellbook.svg"
    result = cli(
        ["odds", "--card", "Wizard's Spellbook", "--with", "Pixie Guide", "--cards", cards_path, "--plot", str(chart)]
    )
    assert result.exit_code == 0, result.output
    assert "81/400" in result.stdout and "20.25%" in result.stdout
    assert chart.read_text().lstrip().startswith("<?xml")


def test_planar_die_paths_equal_brute_force() -> None:
    from mtgdice.rules import FaceCountsAs, FaceIs, PlanarFace

    board = Board.from_zones(
        battlefield=(PIXIE, Permanent("Chaos", (Trigger(planar=True, condition=FaceIs(PlanarFace.CHAOS)),))),
        command=(Permanent("Plane", (FaceCountsAs(zone=Zone.COMMAND),)),),
    )
    instruction = RollInstruction(Amount(2), PLANAR_DIE)
    auto = odds(instruction, board=board)
    assert dict(auto.first) == dict(odds(instruction, board=board, method="brute").first)
    # Each blank counts as chaos for the trigger: 5/6 of the two dice trigger it.
    assert dict(auto.triggers) == {"Chaos": Fraction(10, 6)}


@pytest.mark.parametrize(
    ("policy", "either", "low", "high"),
    [("decline", False, 1, 6), ("accept", False, 2, 7), ("maximize", True, 2, 7), ("minimize", False, 1, 6)],
)
def test_policies_on_an_optional_modifier(policy: str, either: bool, low: int, high: int) -> None:
    optional = Permanent("Optional", (ResultModifier(delta=1, optional=True, either_direction=either),))
    result = dict(
        odds(RollInstruction(Amount(1), Die(6)), board=Board.from_zones(battlefield=(optional,)), policy=policy).results
    )
    assert (min(result), max(result)) == (low, high)  # type: ignore[type-var]
    assert set(result.values()) == {Fraction(1, 6)}


def test_too_large_to_enumerate_is_an_error() -> None:
    # A trigger on the third die this turn reads positions: only the enumeration may count it.
    board = Board.from_zones(battlefield=(Permanent("Third", (Trigger(nth_this_turn=3),)),))
    with pytest.raises(RollLimitError, match="mtgdice simulate"):
        odds(RollInstruction(Amount(12), Die(20)), board=board)


def test_pairs_of_many_dice_reduce_group_by_group() -> None:
    from mtgdice.rules import PairEachDie

    # Under "decline" each pair keeps the die the first pick leaves (its second): 12 uniform d20.
    board = Board.from_zones(battlefield=(Permanent("Pairs", (PairEachDie(),)),))
    paired = odds(RollInstruction(Amount(12), Die(20)), board=board)
    assert paired.method == "composed"
    assert paired.results == odds(RollInstruction(Amount(12), Die(20))).results
    best = odds(RollInstruction(Amount(2), Die(6)), board=board, policy="maximize")
    assert dict(best.results)[12] == Fraction(11, 36) ** 2  # each pair keeps its higher die: P(6) = 11/36
