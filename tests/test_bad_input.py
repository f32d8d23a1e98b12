"""Bad input gets a one-line error naming the field, a non-zero exit, in bounded time and memory.

Each case runs the real ``mtgdice`` command in a subprocess capped at 20 s and 1 GiB of address
space.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

MTGDICE = str(Path(sys.executable).with_name("mtgdice"))


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def mtgdice(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([MTGDICE, *args], input=stdin, capture_output=True, text=True, timeout=20, preexec_fn=_limits)


def resolve(cards_path: str, request: Any) -> subprocess.CompletedProcess[str]:
    raw = request if isinstance(request, str) else json.dumps(request)
    return mtgdice(["resolve", "--cards", cards_path], raw)


def one_line_error(run: subprocess.CompletedProcess[str], *needles: str) -> str:
    assert run.returncode != 0, run.stdout
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert "Traceback" not in run.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


CASES = [
    ("malformed-json", '{"card": "Hoarding Ogre", "dice": [1,', ("input", "not valid JSON")),
    (
        "misspelt-field",
        {"card": "Hoarding Ogre", "batlefield": ["Pixie Guide"], "dice": [3, 4]},
        ("batlefield", 'did you mean "battlefield"'),
    ),
    ("not-an-object", "[1, 2]", ("input", "JSON object")),
    ("unknown-card", {"card": "Pixy Guide", "dice": [3]}, ("card", "Pixy Guide", "Pixie Guide")),
    (
        "unknown-board-card",
        {"card": "Hoarding Ogre", "battlefield": ["Barbarian Klass"], "dice": [3]},
        ("battlefield[0]", "Barbarian Class"),
    ),
    ("ambiguous-card", {"card": "Garbage Elemental", "dice": [3, 4]}, ("card", "Garbage Elemental", "text")),
    ("dice-exhausted", {"card": "Hoarding Ogre", "battlefield": ["Pixie Guide"], "dice": [20]}, ("dice", "add more")),
    ("planar-exhausted", {"card": "Fractured Powerstone", "planar": []}, ("planar",)),
    ("face-not-on-die", {"card": "Hoarding Ogre", "dice": [21]}, ("dice[0]", "d20")),
    ("missing-amount", {"card": "Neverwinter Hydra", "dice": [1, 2]}, ("amounts.X",)),
    ("wrong-amount-type", {"card": "Neverwinter Hydra", "amounts": {"X": "3"}, "dice": [1]}, ("amounts.X",)),
    ("negative-count", {"card": "Neverwinter Hydra", "amounts": {"X": -2}, "dice": [1]}, ("count",)),
    ("absurd-count", {"card": "Neverwinter Hydra", "amounts": {"X": 10**9}, "dice": [1]}, ("count", "limit")),
    ("zero-sided-die", {"text": "Roll a 0-sided die.", "dice": [1]}, ("die", "0 sides")),
    ("bad-planar-face", {"card": "Fractured Powerstone", "planar": ["purple"]}, ("planar[0]",)),
    ("wrong-choice-type", {"card": "Delina, Wild Mage", "dice": [16, 3], "choices": [3]}, ("choices[0]",)),
    ("roll-index", {"card": "Hoarding Ogre", "roll": 4, "dice": [1]}, ("roll", "0 to 0")),
    ("no-roll", {"card": "Pixie Guide", "dice": [1]}, ("card", "no roll")),
    (
        "bad-level",
        {"card": "Hoarding Ogre", "battlefield": [{"card": "Barbarian Class", "level": "two"}], "dice": [1]},
        ("battlefield[0].level",),
    ),
    # Version 3: the whole table (issue 16, bad input).
    (
        "no-such-controller",
        {"card": "Hoarding Ogre", "seats": [{}, {}], "controller": 2, "dice": [3]},
        ("controller", "seat 2"),
    ),
    ("no-such-roller", {"card": "GO TO JAIL", "seats": [{}, {}], "roller": 5, "dice": [3, 4]}, ("roller", "seat 5")),
    (
        "no-such-target",
        {"card": "Hoarding Ogre", "pending": [{"card": "Pixie Guide", "target": 3}], "dice": [3]},
        ("pending[0].target", "seat 3"),
    ),
    (
        "roller-without-a-text-naming-one",
        {"card": "Hoarding Ogre", "roller": 1, "dice": [3]},
        ("roller", "Hoarding Ogre"),
    ),
    ("roller-of-a-coin", {"kind": "coin", "roller": 1, "coins": ["heads"]}, ("roller",)),
    (
        "that-player-without-roller",
        {"card": "GO TO JAIL", "seats": [{}, {}], "dice": [3, 4]},
        ("roller", "that player"),
    ),
    (
        "seats-and-earlier-zones",
        {"card": "Hoarding Ogre", "seats": [{}], "opponents": [], "dice": [3]},
        ("seats", "opponents"),
    ),
    ("seats-and-players", {"card": "Hoarding Ogre", "seats": [{}], "players": 3, "dice": [3]}, ("seats", "players")),
    (
        "unknown-turn-key",
        {"card": "Hoarding Ogre", "turn": {"dice_roled": [1]}, "dice": [3]},
        ("turn.dice_roled", "dice_rolled"),
    ),
    (
        "unknown-pending-key",
        {"card": "Hoarding Ogre", "pending": [{"card": "Pixie Guide", "targt": 1}], "dice": [3]},
        ("pending[0].targt", "target"),
    ),
    (
        "pending-not-a-replacement",
        {"card": "Hoarding Ogre", "pending": [{"card": "Critical Hit"}], "dice": [3]},
        ("pending[0]", "replacement"),
    ),
    ("nine-seats", {"card": "Hoarding Ogre", "seats": [{}] * 9, "dice": [3]}, ("seats", "8")),
    ("players-beyond-the-table", {"card": "Hoarding Ogre", "players": 10**17, "dice": [3]}, ("players", "8")),
    ("ten-players", {"card": "Hoarding Ogre", "players": 10, "dice": [3]}, ("players", "at most 8, got 10")),
    (
        "seat-field-in-seats",
        {"card": "Hoarding Ogre", "seats": [{"battlefield": [{"card": "Pixie Guide", "seat": 1}]}], "dice": [3]},
        ("seats[0].battlefield[0].seat",),
    ),
    (
        "dice-rolled-beyond-the-seats",
        {"card": "Hoarding Ogre", "turn": {"dice_rolled": [1, 2, 3]}, "dice": [3]},
        ("turn.dice_rolled", "seat"),
    ),
    (
        "unknown-seat-card",
        {"card": "Hoarding Ogre", "seats": [{}, {"graveyard": ["Critical Hitt"]}], "dice": [3]},
        ("seats[1].graveyard[0]", "Critical Hit"),
    ),
]


@pytest.mark.parametrize(("case", "request_", "needles"), CASES, ids=[c[0] for c in CASES])
def test_bad_resolve_request(cards_path: str, case: str, request_: Any, needles: tuple[str, ...]) -> None:
    one_line_error(resolve(cards_path, request_), *needles)


def test_endless_roll_again_stops_at_the_documented_limit(cards_path: str) -> None:
    from mtgdice.rules import MAX_EXECUTIONS

    run = resolve(cards_path, {"card": "Sword of Dungeons & Dragons", "dice": [20] * (MAX_EXECUTIONS + 5)})
    one_line_error(run, "roll again", str(MAX_EXECUTIONS))


def test_endless_optional_roll_again_stops_too(cards_path: str) -> None:
    from mtgdice.rules import MAX_EXECUTIONS

    request = {
        "card": "Delina, Wild Mage",
        "dice": [20] * (MAX_EXECUTIONS + 5),
        "choices": [True] * (MAX_EXECUTIONS + 5),
    }
    one_line_error(resolve(cards_path, request), "roll again")


def test_huge_request_is_refused(cards_path: str) -> None:
    run = resolve(cards_path, json.dumps({"card": "Hoarding Ogre", "dice": [1] * 600_000}))
    one_line_error(run, "input", "bytes")


def test_missing_card_file() -> None:
    run = mtgdice(["resolve", "--cards", "/nonexistent/cards.json"], '{"card": "Hoarding Ogre", "dice": [1]}')
    one_line_error(run, "cards.json")


def test_nothing_written_to_stdout_on_error(cards_path: str) -> None:
    run = resolve(cards_path, {"card": "Hoarding Ogre", "dice": []})
    assert run.stdout == ""


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("d0", "1 or more sides"),
        ("2x6", "not dice notation"),
        ("-3d6", "starts with dice"),
        ("3d6+", "ends with a sign"),
        ("20001d6", "1 to 10000"),
        ("6000d6+6000d6", "limit of 10000"),
        ("4d6dl4", "cannot drop 4 of 4"),
        ("d6" * 300, "at most 500"),
        ("", "no dice given"),
    ],
    ids=["d0", "2x6", "-3d6", "3d6+", "too-many-in-a-group", "too-many-in-all", "drop-all", "too-long", "empty"],
)
def test_bad_plain_dice(spec: str, needle: str) -> None:
    one_line_error(mtgdice(["roll", "--", spec]), "dice", needle)


def test_roll_command_plain_dice_shows_every_die() -> None:
    run = mtgdice(["roll", "--seed", "7", "--json", "3d6"])
    assert run.returncode == 0, run.stderr
    outcome = json.loads(run.stdout)
    assert outcome["kind"] == "plain" and len(outcome["terms"][0]["rolls"]) == 3
    assert all(1 <= d["face"] <= 6 for d in outcome["terms"][0]["rolls"])
    assert outcome["total"] == sum(d["face"] for d in outcome["terms"][0]["rolls"])


CLI_CASES = [
    ("roll-card-and-dice", ["roll", "--card", "Hoarding Ogre", "d20"], ("dice", "not both")),
    ("roll-nothing", ["roll"], ("dice", "say what to roll")),
    ("roll-bad-board-suffix", ["roll", "--card", "Hoarding Ogre", "--with", "Xenosquirrels[+1/+1=x]"], ("--with",)),
    ("roll-choices-not-json", ["roll", "--card", "Hoarding Ogre", "--choices", "[true,"], ("--choices",)),
    ("roll-roll-zero", ["roll", "--card", "Hoarding Ogre", "--roll", "0"], ("--roll",)),
    ("roll-unknown-option", ["roll", "--wiht", "Pixie Guide", "d20"], ("--wiht",)),
    ("roll-seed-not-a-number", ["roll", "--seed", "abc", "d20"], ("--seed",)),
    ("unknown-command", ["rol", "d20"], ("rol",)),
    ("compile-both", ["compile", "--card", "Hoarding Ogre", "--text", "Roll a d6."], ("--card", "exactly one")),
    ("compile-unknown-card", ["compile", "--card", "Hoarding Orge"], ("--card", "Hoarding Ogre")),
    ("odds-bad-policy", ["odds", "--card", "Hoarding Ogre", "--policy", "always"], ("--policy",)),
    ("odds-plot-suffix", ["odds", "--card", "Hoarding Ogre", "--plot", "chart.txt"], ("--plot", ".png or .svg")),
    ("simulate-no-card", ["simulate"], ("--card",)),
    ("simulate-zero-rolls", ["simulate", "--card", "Hoarding Ogre", "--rolls", "0"], ("--rolls",)),
    ("fairness-too-few", ["fairness", "--rolls", "5"], ("--rolls",)),
    ("fairness-bad-die", ["fairness", "--dice", "d6,d1x"], ("--dice", "d1x")),
    ("log-show-not-an-id", ["log", "show", "seven"], ("ID",)),
    ("log-export-format", ["log", "export", "--format", "xml"], ("--format", "json or csv")),
    ("verify-missing-file", ["verify", "/nonexistent/log.json"], ("LOG.json", "cannot read")),
    ("cards-import-missing", ["cards", "import", "/nonexistent/oracle.json", "--db", "/nonexistent/x.sqlite"], ()),
    ("serve-port-out-of-range", ["serve", "--port", "99999"], ("--port",)),
]


@pytest.mark.parametrize(("case", "args", "needles"), CLI_CASES, ids=[c[0] for c in CLI_CASES])
def test_bad_command_line(
    cards_path: str, tmp_path: Path, case: str, args: list[str], needles: tuple[str, ...]
) -> None:
    db = ["--db", str(tmp_path / "rolls.sqlite")] if args[0] in ("log",) else []
    cards = ["--cards", cards_path] if args[0] in ("roll", "compile", "odds", "simulate") else []
    run = mtgdice([*args, *cards, *db])
    line = one_line_error(run, *needles)
    assert line.startswith("mtgdice: error: ")


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ('{"card": "x", "amounts": {"X": ' + "9" * 5000 + "}}", "digits"),
        ("[" * 100_000 + "]" * 100_000, "nested"),
        ('{"card": "x", "name": "\\ud800"}', "surrogate"),
        (b'{"card": "\xff"}', "UTF-8"),
        ('{"card": "x", "amounts": {"X": NaN}}', "NaN"),
    ],
)
def test_the_json_reader_refuses_what_would_break_later(raw: str | bytes, message: str) -> None:
    from mtgdice.errors import InputError
    from mtgdice.io.jsonio import parse_request

    with pytest.raises(InputError, match=message):
        parse_request(raw)


def test_a_misspelt_field_of_an_odds_request_is_refused(cards_path: str) -> None:
    run = mtgdice(["odds", "--json", "--cards", cards_path], stdin='{"card": "Hoarding Ogre", "batlefield": []}')
    one_line_error(run, "batlefield", 'did you mean "battlefield"')
