"""Coins on cards (CR 705), end to end: compile, resolve, exact odds, simulation, the CLI and the log.

- every card of ``../shared/cards/coin-cards.json`` compiles with nothing unsupported to the
  structure of ``fixtures/golden/coin_cards.json`` (read card by card against its Oracle text);
- Oracle-style texts written here (other numbers, flippers and clause orders than any card) compile
  to the structure written beside them;
- the coin cases of ``../shared/conformance/rules-v3.json`` pass in the earlier request form (the
  seat-0 zones as ``battlefield``), with the suite's own checker;
- exact odds agree with brute force (every face sequence of a whole resolution through
  :func:`mtgdice.rules.flip`, code the odds engine does not use) and with simulation within five
  standard errors; "flip a coin until you lose a flip" has exactly one expected flip won;
- a coin is never a die: no die trigger sees a flip, no coin trigger sees a roll.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from mtgdice.io.compiled import card_json
from mtgdice.io.jsonio import resolve_json
from mtgdice.odds.coins import CoinPolicy, coin_odds
from mtgdice.rules import Amount, Board, Permanent
from mtgdice.rules.coins import CoinFace, CoinReads, FlipInstruction, Until, flip
from mtgdice.rules.dice import Die, Face
from mtgdice.rules.errors import RollLimitError
from mtgdice.sim.coins import simulate_flips
from mtgdice.text import compile_text
from shared_data import SHARED_ROOT, conformance_checker, shared_path

GOLDEN = json.loads((Path(__file__).parent / "fixtures" / "golden" / "coin_cards.json").read_text(encoding="utf-8"))
COIN_CARDS_PATH = SHARED_ROOT / "cards" / "coin-cards.json"
COIN_CARDS: list[dict[str, Any]] = (
    json.loads(COIN_CARDS_PATH.read_text(encoding="utf-8")) if COIN_CARDS_PATH.exists() else []
)
V3 = SHARED_ROOT / "conformance" / "rules-v3.json"
V3_COIN_CASES = [case for case in json.loads(V3.read_text()) if case["id"].startswith("v3-coin")] if V3.exists() else []

THUMB = "If you would flip a coin, instead flip two coins and ignore one."
LUCK = "Whenever you win a coin flip, put a luck counter on ~."


def card_text(card: dict[str, Any]) -> str:
    if card.get("oracle_text") is not None:
        return str(card["oracle_text"])
    return "\n".join(face.get("oracle_text", "") for face in card.get("card_faces", []))


def structure(compiled: dict[str, Any]) -> dict[str, Any]:
    """The fields the golden fixture checks, from a ``compile --json`` object."""
    rolls = []
    for roll in compiled["rolls"]:
        if roll["sides"] != "coin":
            rolls.append({"sides": roll["sides"], "count": roll["count"]})
            continue
        keys = ("count", "call", "until", "times", "may_stop", "flipper")
        found = {"sides": "coin"} | {key: roll[key] for key in keys}
        found["outcomes"] = [[o["when"], o["each"], o["at_least"], o["all"], o["over_all"]] for o in roll["outcomes"]]
        rolls.append(found)
    effects = [
        {"kind": e["kind"], "scope": e["scope"]} | ({"event": e["event"]} if "event" in e else {})
        for e in compiled["effects"]
    ]
    return {"rolls": rolls, "effects": effects}


# -- compiling ---------------------------------------------------------------------------------------


def test_one_golden_structure_per_coin_card() -> None:
    cards = json.loads(shared_path("cards", "coin-cards.json").read_text(encoding="utf-8"))
    assert [fixture["name"] for fixture in GOLDEN["cards"]] == [card["name"] for card in cards]


@pytest.mark.parametrize("card", COIN_CARDS, ids=[card["name"] for card in COIN_CARDS])
def test_a_coin_card_compiles_to_its_golden_structure(card: dict[str, Any]) -> None:
    compiled = card_json(compile_text(card_text(card), name=card["name"], type_line=card.get("type_line", "")))
    assert compiled["unsupported"] == []
    expected = next(fixture for fixture in GOLDEN["cards"] if fixture["name"] == card["name"])
    assert structure(compiled) == {"rolls": expected["rolls"], "effects": expected["effects"]}


WON, LOST, HEADS, TAILS = "won", "lost", "heads", "tails"

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    # (text, expected: count, call, until, flipper, outcome readings (reads, each), effect kinds)
    (
        "{3}, {T}: Flip two coins. For each flip you lose, ~ deals 1 damage to you.",
        {"count": 2, "call": True, "until": None, "outcomes": [(LOST, True)]},
    ),
    (
        "When ~ dies, you may flip a coin. If you win the flip, return ~ to its owner's hand.",
        {"count": 1, "call": True, "until": None, "outcomes": [(WON, False)]},
    ),
    (
        "Flip X coins, where X is the number of artifacts you control. Draw a card for each flip you won.",
        {"count": "artifacts you control", "call": True, "until": None, "outcomes": [(WON, True)]},
    ),
    (
        "At the beginning of your end step, flip a coin until you win a flip. You lose 2 life for each flip you lost.",
        {"count": 1, "call": True, "until": "win", "outcomes": [(LOST, True)]},
    ),
    (
        "Whenever ~ attacks, flip four coins. If all the coins come up tails, sacrifice ~.",
        {"count": 4, "call": False, "until": None, "outcomes": [(TAILS, False)]},
    ),
    (
        "Each player flips a coin. Each player whose coin comes up heads gains 3 life.",
        {"count": 1, "call": False, "until": None, "flipper": "each player", "outcomes": [(HEADS, True)]},
    ),
    (
        "Target opponent flips a coin. If that player loses the flip, they discard a card.",
        {"count": 1, "call": True, "until": None, "flipper": "that player", "outcomes": [(LOST, False)]},
    ),
    (
        "Flip a coin. If you lose the flip, sacrifice a land. Otherwise, draw a card.",
        {"count": 1, "call": True, "until": None, "outcomes": [(LOST, False), ("otherwise", False)]},
    ),
    (
        "{1}{R}, {T}: Flip three coins. If you win 2 or more flips, ~ deals 4 damage to any target.",
        {"count": 3, "call": True, "until": None, "outcomes": [(WON, False)]},
    ),
    (
        "Flip a coin for each land you control. Create a Treasure token for each coin that comes up heads.",
        {"count": "lands you control", "call": False, "until": None, "outcomes": [(HEADS, True)]},
    ),
]


@pytest.mark.parametrize(("text", "expected"), VARIANTS, ids=[str(i) for i in range(len(VARIANTS))])
def test_oracle_style_coin_texts_compile(text: str, expected: dict[str, Any]) -> None:
    compiled = card_json(compile_text(text, name="Tester"))
    assert compiled["unsupported"] == []
    (roll,) = compiled["rolls"]
    assert roll["sides"] == "coin"
    for key in ("count", "call", "until", "flipper"):
        if key in expected:
            assert roll[key] == expected[key], key
    assert [(o["when"], o["each"]) for o in roll["outcomes"]] == expected["outcomes"]


def test_coin_triggers_replacements_and_reflips_are_effects() -> None:
    compiled = compile_text(
        "Whenever an opponent loses a coin flip, you gain 1 life.\n" + THUMB + "\n{1}: Reflip any coin.", name="Tester"
    )
    kinds = [(effect.kind, effect.scope.value) for effect in compiled.effects]
    assert kinds == [("coin trigger", "opponent"), ("pair each coin", "you"), ("reflip", "any")]
    assert compiled.rolls == () and compiled.flips == () and compiled.unsupported == ()


def test_flips_and_rolls_keep_text_order() -> None:
    compiled = compile_text("Roll a d6. Then flip a coin. If you win the flip, roll a d4.", name="Tester")
    assert [roll["sides"] for roll in card_json(compiled)["rolls"]] == [6, "coin", 4]
    request = {"text": "Roll a d6. Then flip a coin. If you win the flip, roll a d4.", "roll": 1, "coins": ["heads"]}
    assert resolve_json(request | {"choices": [0]}, None)["rolls"][0]["won"] == 1


# -- resolving ---------------------------------------------------------------------------------------


def _old_form(request: dict[str, Any]) -> dict[str, Any]:
    """A v3 request whose seats are only seat 0, in the earlier form (seat 0's zones at the top)."""
    request = dict(request)
    seats = request.pop("seats", None)
    if seats is not None:
        assert len(seats) == 1
        request.update(seats[0])
    return request


def test_the_suite_has_its_coin_cases() -> None:
    shared_path("conformance", "rules-v3.json")
    assert len(V3_COIN_CASES) >= 5


@pytest.mark.parametrize("case", V3_COIN_CASES, ids=[case["id"] for case in V3_COIN_CASES])
def test_v3_coin_case_in_the_earlier_request_form(case: dict[str, Any]) -> None:
    outcome = json.loads(json.dumps(resolve_json(_old_form(case["input"]), None)))
    assert conformance_checker().compare(case["expect"], outcome) == [], case["why"]


def test_a_reflipped_coin_keeps_its_place_and_its_call() -> None:
    request = {
        "text": "Flip a coin. If you win the flip, draw a card.",
        "battlefield": [{"text": "{R}, {T}: Reflip any coin.", "name": "Reflipper"}],
        "coins": ["heads", "tails"],
        "choices": [1, True],
    }
    (execution,) = resolve_json(request, None)["rolls"]
    assert [(d["face"], d["call"], d.get("reflipped", False)) for d in execution["dice"]] == [
        ("heads", "tails", True),
        ("tails", "tails", False),
    ]
    assert execution["won"] == 1 and execution["results"] == ["tails"]


def test_until_you_lose_is_bounded() -> None:
    class Heads:
        name = "scripted"

        def roll(self, die: Die) -> Face:
            return CoinFace.HEADS.face

    with pytest.raises(RollLimitError, match="executions"):
        flip(FlipInstruction(call=True, until=Until.LOSE), source=Heads(), chooser=CoinPolicy("decline"))


def test_a_coin_is_not_a_die() -> None:
    dice_trigger = {"text": "Whenever you roll a die, you gain 1 life.", "name": "Die Watcher"}
    coin_trigger = {"text": LUCK, "name": "Luck Watcher"}
    flipped = resolve_json(
        {"text": "Flip a coin.", "battlefield": [dice_trigger, coin_trigger], "coins": ["heads"], "choices": [0]},
        None,
    )
    assert flipped["triggers"] == ["Luck Watcher"]
    rolled = resolve_json({"text": "Roll a d6.", "battlefield": [dice_trigger, coin_trigger], "dice": [3]}, None)
    assert rolled["triggers"] == ["Die Watcher"]


# -- odds and simulation -----------------------------------------------------------------------------


def brute_force(
    instruction: FlipInstruction, board: Board, amounts: dict[str, int], depth: int = 10
) -> tuple[Fraction, Fraction]:
    """Expected flips won over whole resolutions, by running :func:`flip` on every face sequence of
    up to ``depth`` coins: (the expectation over the sequences that ended, the probability of those
    that did not end within ``depth``)."""

    class Out(Exception):
        pass

    class Prefix:
        name = "scripted"

        def __init__(self, faces: tuple[int, ...]) -> None:
            self.faces, self.position = faces, 0

        def roll(self, die: Die) -> Face:
            if self.position == len(self.faces):
                raise Out
            self.position += 1
            return self.faces[self.position - 1]

    expected, unfinished = Fraction(0), Fraction(0)
    pending: list[tuple[int, ...]] = [()]
    while pending:
        faces = pending.pop()
        try:
            resolution = flip(
                instruction, source=Prefix(faces), board=board, chooser=CoinPolicy("decline"), amounts=amounts
            )
        except Out:
            if len(faces) >= depth:
                unfinished += Fraction(1, 2 ** len(faces))
            else:
                pending += [faces + (1,), faces + (2,)]
            continue
        expected += Fraction(resolution.flips_won, 2 ** len(faces))
    return expected, unfinished


def _board(*texts: str) -> Board:
    permanents = []
    for number, text in enumerate(texts):
        compiled = compile_text(text, name=f"Card {number}")
        permanents.append(Permanent(compiled.name, compiled.effects))
    return Board.from_zones(battlefield=tuple(permanents))


BOARDS = {"empty": (), "thumb": (THUMB,), "luck": (LUCK,), "thumb and luck": (THUMB, LUCK)}
AMOUNTS = {"X": 2, "that many": 3, "opponents you have": 2}


def _flip_cards() -> list[tuple[str, str]]:
    """The coin cards that flip, one for each kind of flip instruction (the same structure with other
    words is the same question for the odds)."""
    seen: set[FlipInstruction] = set()
    found = []
    for card in COIN_CARDS:
        flips = compile_text(card_text(card), name=card["name"]).flips
        shapes = {replace(f, text="", outcomes=tuple(replace(o, text="") for o in f.outcomes)) for f in flips}
        if flips and not shapes <= seen:
            seen |= shapes
            found.append((card["name"], card_text(card)))
    return found


@pytest.mark.parametrize("board", list(BOARDS), ids=list(BOARDS))
def test_coin_odds_agree_with_brute_force_for_every_coin_card(board: str) -> None:
    checked = 0
    for name, text in _flip_cards():
        compiled = compile_text(text, name=name)
        for instruction in compiled.flips:
            if instruction.until is Until.CHOSEN or instruction.may_stop:
                continue  # the choice to go on is a policy's; decline stops at once (checked below)
            exact = coin_odds(instruction, board=_board(*BOARDS[board]), amounts=AMOUNTS, name=name)
            found, unfinished = brute_force(instruction, _board(*BOARDS[board]), AMOUNTS)
            # Every unfinished sequence has won fewer than depth flips, and goes on geometrically.
            assert found <= exact.expected_won <= found + unfinished * 40, name
            if unfinished == 0:
                assert exact.expected_won == found, name
            checked += 1
    assert checked >= 15


def test_until_you_lose_has_one_expected_flip_won_with_a_fair_coin() -> None:
    odds = coin_odds(FlipInstruction(call=True, until=Until.LOSE))
    assert (odds.expected_won, odds.expected_lost, odds.expected_executions) == (1, 1, 2)
    with_thumb = coin_odds(FlipInstruction(call=True, until=Until.LOSE), board=_board(THUMB))
    assert with_thumb.expected_won == 3  # win 3/4 a flip: (3/4) / (1/4)


def test_fixed_times_or_until_you_lose() -> None:
    compiled = compile_text(
        "Flip a coin 3 times or until you lose a flip, whichever comes first. If you win all the flips, draw a card."
    )
    odds = coin_odds(compiled.flips[0])
    assert odds.expected_executions == Fraction(7, 4) and odds.outcomes == (Fraction(1, 8),)


@pytest.mark.parametrize("board", list(BOARDS), ids=list(BOARDS))
def test_coin_odds_agree_with_simulation(board: str) -> None:
    for name, text in _flip_cards():
        for instruction in compile_text(text, name=name).flips:
            if instruction.until is Until.CHOSEN:
                continue
            exact = coin_odds(instruction, board=_board(*BOARDS[board]), amounts=AMOUNTS, name=name)
            sim = simulate_flips(instruction, rolls=400, seed=11, board=_board(*BOARDS[board]), amounts=AMOUNTS)
            mean, error = sim.mean_and_error(sim.won, sim.won_squared)
            assert abs(mean - float(exact.expected_won)) <= 5 * max(error, 1e-9), name
            executions, spread = sim.mean_and_error(sim.executions, sim.executions_squared)
            assert abs(executions - float(exact.expected_executions)) <= 5 * max(spread, 1e-9), name


def test_outcome_odds_read_what_they_say() -> None:
    compiled = compile_text("Flip two coins. If both coins come up heads, draw a card. For each flip you win, scry 1.")
    instruction = compiled.flips[0]
    assert [o.reads for o in instruction.outcomes] == [CoinReads.HEADS, CoinReads.WON]
    odds = coin_odds(instruction)
    assert odds.outcomes == (Fraction(1, 4), Fraction(1))


# -- the command line and the log -------------------------------------------------------------------


def _mtgdice(*args: str) -> subprocess.CompletedProcess[str]:
    command = [str(Path(sys.executable).with_name("mtgdice")), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_roll_odds_and_replay_of_a_coin_card(tmp_path: Path) -> None:
    cards = str(shared_path("cards", "coin-cards.json"))
    db = str(tmp_path / "rolls.sqlite")
    rolled = _mtgdice(
        "roll", "--db", db, "--cards", cards, "--card", "Crazed Firecat", "--with", "Chance Encounter",
        "--seed", "2", "--choices", "[1, 1, 1, 1, 1, 1]", "--json",
    )  # fmt: skip
    assert rolled.returncode == 0, rolled.stderr
    outcome = json.loads(rolled.stdout)
    assert outcome["rolls"][-1]["lost"] == 1 and all(roll["lost"] == 0 for roll in outcome["rolls"][:-1])
    assert len(outcome["triggers"]) == sum(roll["won"] for roll in outcome["rolls"])
    replay = _mtgdice("replay", "--db", db, "--cards", cards)
    assert replay.returncode == 0 and "1 of 1" in replay.stdout
    odds = _mtgdice("odds", "--cards", cards, "--card", "Crazed Firecat", "--json")
    assert json.loads(odds.stdout)["expected_won"] == "1"


# -- real coin cards that are not in coin-cards.json (Oracle text in current wording) ---------------

OTHER_REAL_CARDS = [
    # (name, text, [(count, call, until, flipper, outcome readings)], effect kinds)
    (
        "Mana Crypt",
        "At the beginning of your upkeep, flip a coin. If you lose the flip, Mana Crypt deals 3 damage to you.",
        [(1, True, None, "you", ["lost"])],
        [],
    ),
    (
        "Zndrsplt, Eye of Wisdom",
        "At the beginning of combat on your turn, flip a coin until you lose a flip.\n"
        "Whenever a player wins a coin flip, draw a card.",
        [(1, True, "lose", "you", [])],
        ["coin trigger"],
    ),
    (
        "Tavern Scoundrel",
        "Whenever you win one or more coin flips, create a Treasure token.\n"
        "{1}, {T}, Sacrifice another permanent: Flip a coin.",
        [(1, True, None, "you", [])],
        ["coin trigger"],
    ),
    (
        "Odds // Ends",
        "Flip a coin. If it comes up heads, counter target instant or sorcery spell. If it comes up tails, copy "
        "target instant or sorcery spell. You may choose new targets for the copy.",
        [(1, False, None, "you", ["heads", "tails"])],
        [],
    ),
    (
        "Planar Chaos",
        "At the beginning of your upkeep, flip a coin. If you lose the flip, sacrifice Planar Chaos.\n"
        "Whenever a player casts a spell, that player flips a coin. If that player loses the flip, counter that spell.",
        [(1, True, None, "you", ["lost"]), (1, True, None, "that player", ["lost"])],
        [],
    ),
    (
        "Volatile Rig",
        "Whenever Volatile Rig is dealt damage, flip a coin. If you lose the flip, sacrifice Volatile Rig.\n"
        "When Volatile Rig dies, flip a coin. If you lose the flip, it deals 4 damage to each creature and each player.",
        [(1, True, None, "you", ["lost"]), (1, True, None, "you", ["lost"])],
        [],
    ),
    (
        "Molten Birth",
        "Create two 1/1 red Elemental creature tokens. Then flip a coin. If you win the flip, return Molten Birth "
        "to its owner's hand.",
        [(1, True, None, "you", ["won"])],
        [],
    ),
]


@pytest.mark.parametrize(
    ("name", "text", "flips", "effects"), OTHER_REAL_CARDS, ids=[card[0] for card in OTHER_REAL_CARDS]
)
def test_other_real_coin_cards_compile(name: str, text: str, flips: list[Any], effects: list[str]) -> None:
    compiled = compile_text(text, name=name)
    assert compiled.unsupported == ()
    found = [
        (
            f.count.describe(),
            f.call,
            f.until.value if f.until else None,
            f.flipper.value,
            [o.reads.value for o in f.outcomes],
        )
        for f in compiled.flips
    ]
    assert found == flips
    assert [effect.kind for effect in compiled.effects] == effects


def test_one_or_more_flips_won_triggers_once_an_execution() -> None:
    scoundrel = {"text": "Whenever you win one or more coin flips, create a Treasure token.", "name": "Scoundrel"}
    request = {"text": "Flip three coins.", "battlefield": [scoundrel], "coins": ["heads", "heads", "tails"]}
    outcome = resolve_json(request | {"choices": [0, 0, 0]}, None)
    assert outcome["won"] == 2 and outcome["triggers"] == ["Scoundrel"]


@pytest.mark.parametrize("card", COIN_CARDS, ids=[card["name"] for card in COIN_CARDS])
def test_a_coin_card_describes_itself_and_reads_back(card: dict[str, Any]) -> None:
    """``describe()`` writes the flips, outcomes and coin effects canonically; it compiles back."""
    from mtgdice.text.canonical import structure

    compiled = compile_text(card_text(card), name=card["name"])
    back = compile_text(compiled.describe(), name=card["name"])
    assert back.unsupported == ()
    assert structure(back) == structure(compiled)


def test_exact_coin_odds_refuse_what_they_cannot_follow() -> None:
    many = FlipInstruction(Amount.named("X"), call=True)
    with pytest.raises(RollLimitError, match="simulate"):
        coin_odds(many, amounts={"X": 10_000})
    with pytest.raises(RollLimitError, match="simulate"):
        coin_odds(many, board=_board(THUMB), amounts={"X": 40})
    assert coin_odds(many, amounts={"X": 60}).expected_won == 30
