"""The command line as a player uses it: help and version, plain notation with totals, board options
that take every card name and a permanent's state, errors in flag terms, the log and replay of
every kind of roll, human output of simulate, odds and compile, serve's checks, and no traceback
from a base install without the extras."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

MTGDICE = str(Path(sys.executable).with_name("mtgdice"))


def run(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([MTGDICE, *args], capture_output=True, text=True, timeout=timeout, env=env)


def ok(*args: str, env: dict[str, str] | None = None) -> str:
    result = run(*args, env=env)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


def one_line_error(result: subprocess.CompletedProcess[str], *needles: str, status: int = 2) -> str:
    assert result.returncode == status, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


# -- help, version ------------------------------------------------------------------------------------


def test_version_and_short_help() -> None:
    from mtgdice import __version__

    assert ok("--version").strip() == f"mtgdice {__version__}"
    assert "Commands:" in ok("-h") and "roll" in ok("-h")
    roll_help = ok("roll", "-h")
    assert "--with NAMES" in roll_help and "<bool>" not in roll_help and "plain" in roll_help.lower()
    assert "Usage:" in ok("log", "list", "-h")
    assert ok().startswith("Usage: mtgdice") and ok("log").startswith("Usage: mtgdice log")  # a group alone: help


def test_a_usage_mistake_is_one_line() -> None:
    one_line_error(run("roll", "--bogus"), "--bogus", "mtgdice roll -h")
    one_line_error(run("nosuchcommand"), "nosuchcommand")
    one_line_error(run("log", "list", "--limit", "0"), "--limit")


# -- plain dice ---------------------------------------------------------------------------------------


def test_plain_notation_prints_each_total_and_says_it_is_not_a_card_roll() -> None:
    text = ok("roll", "--no-log", "--seed", "2", "3d6+2", "d%", "2d20kh1", "4d6dl1", "2d6", "+", "1", "4dF", "adv")
    lines = [line for line in text.splitlines() if not line.startswith(" ")]
    assert [line.split(" = ")[0] for line in lines] == ["3d6+2", "d%", "2d20kh1", "4d6dl1", "2d6+1", "4dF", "2d20kh1"]
    assert all("plain dice" in line and "no Magic effect" in line for line in lines)
    assert "dropped" in text  # the kept/dropped dice are shown


def test_plain_json_totals_add_up() -> None:
    for line in ok("roll", "--no-log", "--json", "--seed", "9", "10d6kh3-2", "d20 - 1d4 + 3").splitlines():
        outcome = json.loads(line)
        total = 0
        for term in outcome["terms"]:
            value = term.get("number", 0) + sum(d["face"] for d in term.get("rolls", []) if d["kept"])
            total += term["sign"] * value
        assert outcome["kind"] == "plain" and outcome["total"] == total


# -- board options ------------------------------------------------------------------------------------


def _logged_request(db: Path) -> dict[str, Any]:
    shown = json.loads(ok("log", "show", "1", "--db", str(db)))
    request: dict[str, Any] = shown["request"]
    return request


def test_names_with_commas_and_a_permanents_state(cards_path: str, tmp_path: Path) -> None:
    db = tmp_path / "rolls.sqlite"
    ok(
        "roll", "--db", str(db), "--cards", cards_path, "--card", "Hoarding Ogre", "--no-ask", "--seed", "1",
        "--with", "Pippa, Duchess of Dice; Barbarian Class@2",
        "--with", "Xenosquirrels+2!tapped",
        "--with", "Vexing Puzzlebox[charge=30]",
        "--graveyard", "Critical Hit",
    )  # fmt: skip
    request = _logged_request(db)
    yours = request["seats"][0]  # the command line's table, seat 0 the player rolling
    assert yours["battlefield"] == [
        "Pippa, Duchess of Dice",
        {"card": "Barbarian Class", "level": 2},
        {"card": "Xenosquirrels", "counters": {"+1/+1": 2}, "tapped": True},
        {"card": "Vexing Puzzlebox", "counters": {"charge": 30}},
    ]
    assert yours["graveyard"] == ["Critical Hit"]


def test_the_level_reaches_the_rules(cards_path: str) -> None:
    def triggers(entry: str) -> list[str]:
        line = ok("roll", "--no-log", "--json", "--cards", cards_path, "--card", "Hoarding Ogre", "--seed", "3",
                  "--no-ask", "--with", entry)  # fmt: skip
        result: list[str] = json.loads(line)["triggers"]
        return result

    # Barbarian Class's "whenever you roll one or more dice" is its level 2 ability.
    assert "Barbarian Class" not in triggers("Barbarian Class")
    assert "Barbarian Class" in triggers("Barbarian Class@2")


ERRORS = [
    (["--with", "Barbarian Klass"], ["--with 'Barbarian Klass'", "did you mean 'Barbarian Class'"]),
    (["--with", "Pixie Guide; Barbarian Class@0"], ["--with 'Barbarian Class@0'", "level"]),
    (["--with", "Vexing Puzzlebox[charge=lots]"], ["--with 'Vexing Puzzlebox[charge=lots]'", "KIND=N"]),
    (["--opponents", "Pipa, Duchess of Dice"], ["--opponents 'Pipa, Duchess of Dice'"]),
    (["--roll", "3"], ["--roll", "has 1 roll instruction; leave --roll out"]),
    (["--roll", "0"], ["--roll"]),
    (["--choices", "[1,"], ["--choices", "JSON"]),
    (["--choices", '{"a": 1}'], ["--choices", "list"]),
    (["--amount", "X"], ["--amount", "NAME=NUMBER"]),
]


@pytest.mark.parametrize(("extra", "needles"), ERRORS, ids=[" ".join(e[0]) for e in ERRORS])
def test_errors_speak_in_flags(cards_path: str, extra: list[str], needles: list[str]) -> None:
    result = run("roll", "--no-log", "--cards", cards_path, "--card", "Hoarding Ogre", "--no-ask", *extra)
    one_line_error(result, *needles)


def test_missing_amount_and_wrong_choice_in_flag_terms(cards_path: str) -> None:
    hydra = run("roll", "--no-log", "--cards", cards_path, "--card", "Neverwinter Hydra", "--no-ask")
    one_line_error(hydra, "--amount X=...", "give --amount X=N")
    delina = run("roll", "--no-log", "--cards", cards_path, "--card", "Delina, Wild Mage", "--choices", "[3]",
                 "--seed", "1")  # fmt: skip
    assert delina.returncode == 0 or "--choices[0]" in delina.stderr
    ambiguous = run("roll", "--no-log", "--cards", cards_path, "--card", "Garbage Elemental", "--no-ask")
    line = one_line_error(ambiguous, "--card")
    assert 'with "text"' not in line and "mtgdice resolve" in line


# -- the log and replay -------------------------------------------------------------------------------


def test_every_kind_of_roll_replays_and_lists_as_people_read_it(cards_path: str, tmp_path: Path) -> None:
    db = str(tmp_path / "rolls.sqlite")
    ok("roll", "--db", db, "d20", "3d6+2", "4dF", "planar", "coin")
    ok("roll", "--db", db, "--seed", "5", "--cards", cards_path, "--card", "Wizard's Spellbook", "--no-ask",
       "--with", "Pixie Guide")  # fmt: skip
    replayed = run("replay", "--db", db, "--cards", cards_path)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "6 of 6 rolls replay to the logged outcome" in replayed.stdout
    listed = ok("log", "list", "--db", db, "--cards", cards_path)
    assert "3d6+2" in listed and "total" in listed and "planar die" in listed
    assert ("heads" in listed) != ("tails" in listed)
    assert any(label in listed for label in ("1—9", "10—19", "20")) and "row 2" not in listed


def test_an_edited_plain_roll_is_found(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "rolls.sqlite"
    ok("roll", "--db", str(db), "--seed", "1", "2d6")
    with sqlite3.connect(db) as raw:
        outcome = json.loads(raw.execute("SELECT outcome FROM rolls").fetchone()[0])
        outcome["total"] += 1
        raw.execute("UPDATE rolls SET outcome = ?", (json.dumps(outcome),))
    changed = run("replay", "--db", str(db))
    assert changed.returncode == 1 and "roll 1: differs: total" in changed.stdout


def test_room_ids_are_never_cut(tmp_path: Path) -> None:
    from mtgdice.log import RollLog
    from mtgdice.rules import ScriptedSource
    from mtgdice.rules.plain import roll_plain
    from mtgdice.text.notation import parse_plain

    room = "a-room-id-that-is-much-longer-than-eighty-columns-would-allow-in-a-table-0123456789"
    with RollLog(tmp_path / "rolls.sqlite") as log:
        source, plain = ScriptedSource([4]), parse_plain("d6")
        log.record(plain, roll_plain(plain, source), source, room=room)
    listed = ok("log", "list", "--db", str(tmp_path / "rolls.sqlite"))
    assert room in listed


# -- human output ---------------------------------------------------------------------------------------


def test_simulate_shows_rows_results_again_and_triggers(cards_path: str) -> None:
    common = ("simulate", "--cards", cards_path, "--card", "Hoarding Ogre", "--with", "Barbarian Class@2",
              "--rolls", "20000", "--seed", "3")  # fmt: skip
    text = ok(*common)
    assert "1—9" in text and "result 20" in text and "roll again" in text and "triggers of Barbarian Class" in text
    data = json.loads(ok(*common, "--json"))
    keys = list(data["results"])
    assert keys == sorted(keys, key=int) and keys[:2] == ["1", "2"]


def test_odds_plot_is_titled_with_card_and_board_and_says_where(cards_path: str, tmp_path: Path) -> None:
    chart = tmp_path / "odds.svg"
    text = ok("odds", "--cards", cards_path, "--card", "Wizard's Spellbook", "--with", "Pixie Guide",
              "--plot", str(chart))  # fmt: skip
    assert f"chart written to {chart}" in text and "with Pixie Guide" in text
    svg = chart.read_text(encoding="utf-8")
    assert "Wizard" in svg and "Pixie Guide" in svg and "row" in svg  # matplotlib keeps each text as a comment


def test_compile_shows_rows_and_outcome_sentences(cards_path: str) -> None:
    text = ok("compile", "--cards", cards_path, "--card", "Inhumaniac")
    assert "roll 1" in text and "outcome: when the result is 3 or 4" in text
    assert "1—9" in ok("compile", "--cards", cards_path, "--card", "Hoarding Ogre")


@pytest.mark.parametrize(
    ("text", "shown", "not_shown"),
    [
        ("Roll a d20 and a d6.", "1 d20 and 1 d6", None),
        ("Roll a d8 and two d4.", "1 d8 and 2 d4", None),
        ("Roll a d20. If you roll a 20, repeat this process.", "repeat on 20", "roll again"),
        ("Each player rolls a d6.", "rolled by each player", None),
    ],
)
def test_compile_shows_every_part_of_a_roll(text: str, shown: str, not_shown: str | None) -> None:
    output = " ".join(ok("compile", "--text", text).split())
    assert shown in output
    assert not_shown is None or not_shown not in output


# -- serve ----------------------------------------------------------------------------------------------


def test_serve_checks_the_port_and_the_card_data_before_announcing(cards_path: str, tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = str(busy.getsockname()[1])
        result = run("serve", "--port", port, "--cards", cards_path, "--db", str(tmp_path / "r.sqlite"), timeout=30)
    assert "serving on" not in result.stderr
    one_line_error(result, "--port", port)
    env = {k: v for k, v in os.environ.items() if k != "MTGDICE_CARDS"} | {
        "MTGDICE_INDEX": str(tmp_path / "none"),
        "MTGDICE_EMBEDDED_CARDS": "0",
    }
    no_cards = run("serve", "--port", "0", "--db", str(tmp_path / "r.sqlite"), env=env, timeout=30)
    assert "serving on" not in no_cards.stderr
    one_line_error(no_cards, "no card data", "--no-cards")


# -- a base install and unexpected errors --------------------------------------------------------------

BLOCKER = """
import importlib.abc, sys

class _NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {"fastapi", "starlette", "uvicorn", "jinja2", "matplotlib"}:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, _NotInstalled())
"""


@pytest.fixture
def base_install(tmp_path: Path) -> dict[str, str]:
    """The environment of an install without the web and plot extras (their imports fail)."""
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / "sitecustomize.py").write_text(BLOCKER, encoding="utf-8")
    return os.environ | {"PYTHONPATH": str(shim)}


def test_a_base_install_names_the_extra_and_never_shows_a_traceback(
    base_install: dict[str, str], cards_path: str, tmp_path: Path
) -> None:
    serve = run("serve", "--port", "0", "--cards", cards_path, env=base_install, timeout=30)
    one_line_error(serve, "pip install 'mtgdice[web]'")
    plot = run("odds", "--cards", cards_path, "--card", "Hoarding Ogre", "--plot", str(tmp_path / "o.png"),
               env=base_install)  # fmt: skip
    one_line_error(plot, "pip install 'mtgdice[plot]'")
    assert "= " in ok("roll", "--no-log", "3d6", env=base_install)
    simulated = ok("simulate", "--cards", cards_path, "--card", "Hoarding Ogre", "--rolls", "1000", env=base_install)
    assert "1—9" in simulated  # numpy is part of the base install


def test_an_unexpected_error_is_one_line_unless_debug(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    import mtgdice.rules.plain
    from mtgdice import cli

    def broken(*args: object) -> None:
        raise RuntimeError("something inside broke\nsecond line")

    monkeypatch.setattr(mtgdice.rules.plain, "roll_plain", broken)
    monkeypatch.setitem(cli._DEBUG, "on", False)
    with pytest.raises(SystemExit) as stopped:
        cli.main(["roll", "--no-log", "d20"])
    err = capsys.readouterr().err
    assert stopped.value.code == 1 and len(err.strip().splitlines()) == 1
    assert "RuntimeError: something inside broke" in err and "--debug" in err and "Traceback" not in err
    with pytest.raises(SystemExit):
        cli.main(["--debug", "roll", "--no-log", "d20"])
    assert "Traceback" in capsys.readouterr().err


# -- prompts ----------------------------------------------------------------------------------------------


def test_prompts_number_from_one_and_show_the_dice_first(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    from rich.prompt import IntPrompt, Prompt

    from mtgdice.cli.roll import PromptChooser
    from mtgdice.rules import Ask, Decision, Die, DieRoll, Topic
    from mtgdice.rules.players import Seat

    dice = (DieRoll(0, Die(20), 7), DieRoll(1, Die(20), 7))
    decision = Decision(
        Ask.PICK_ONE, Topic.IGNORE, Seat(0), "Which die to ignore?", ("the first", "the second"), dice=dice
    )
    monkeypatch.setattr(IntPrompt, "ask", classmethod(lambda cls, *a, **k: 2))
    assert PromptChooser().decide(decision) == 1  # the second option, 0-based for the rules
    err = capsys.readouterr().err
    assert "  1: the first" in err and "  2: the second" in err and "  0:" not in err
    assert err.index("Dice: #1 d20: 7, #2 d20: 7") < err.index("1: the first")  # the dice come first
    many = Decision(Ask.PICK_ANY, Topic.STORED, Seat(0), "Reroll which?", ("4", "6", "2"))
    monkeypatch.setattr(Prompt, "ask", classmethod(lambda cls, *a, **k: "1, 3"))
    assert PromptChooser().decide(many) == (0, 2)


def test_a_decision_at_the_terminal_shows_the_dice_then_takes_a_1_based_answer(cards_path: str) -> None:
    for answer, ignored in (("1", 0), ("2", 1)):
        result = subprocess.run(
            [MTGDICE, "roll", "--no-log", "--json", "--ask", "--seed", "1", "--cards", cards_path,
             "--card", "Wizard's Spellbook", "--with", "Krark's Other Thumb"],
            input=answer + "\n", capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        dice = json.loads(result.stdout)["rolls"][0]["dice"]
        assert [die["ignored"] for die in dice] == [position == ignored for position in range(2)]
        shown = f"Dice: #1 d20: {dice[0]['natural']}, #2 d20: {dice[1]['natural']}"
        assert result.stderr.index(shown) < result.stderr.index("Ignore which")


def test_rolls_made_in_a_web_room_replay_too(cards_path: str, tmp_path: Path) -> None:
    import warnings

    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

    from mtgdice.cards.catalog import CardCatalog
    from mtgdice.web import create_app

    db = tmp_path / "rolls.sqlite"
    client = TestClient(create_app(db, CardCatalog.from_path(cards_path), rate=0))
    room = client.post("/rooms", follow_redirects=False).headers["location"].rsplit("/", 1)[1]
    client.post(f"/r/{room}/join", data={"name": "Alice"}, follow_redirects=False)
    for form in ({"kind": "dice", "dice": "2d10"}, {"kind": "planar", "cause": "action"}, {"kind": "coin"}):
        assert client.post(f"/r/{room}/roll", data=form).status_code == 200
    client.close()
    ok("roll", "--db", str(db), "3d6+2")  # a plain roll from the command line in the same log
    replayed = run("replay", "--db", str(db), "--cards", cards_path)
    assert replayed.returncode == 0 and "4 of 4 rolls replay" in replayed.stdout, replayed.stdout


@pytest.mark.parametrize(("command", "hint"), [("odds", "--card NAME"), ("resolve", "JSON request")])
def test_a_command_given_no_request_says_how_to_give_one(command: str, hint: str, tmp_path: Path) -> None:
    quiet = subprocess.run([MTGDICE, command], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    one_line_error(quiet, "nothing on standard input", hint, f"mtgdice {command} -h")
    empty = tmp_path / "empty.json"
    empty.write_text("  \n", encoding="utf-8")
    one_line_error(run(command, str(empty)), "is empty", hint)


def test_odds_for_people_list_the_first_results_and_the_rest_together(tmp_path: Path) -> None:
    request = tmp_path / "d1000.json"
    request.write_text('{"text": "Roll a d1000."}', encoding="utf-8")
    shown = " ".join(ok("odds", str(request)).split())
    assert "│ 200 │ 1/1000 │" in shown and "│ 201 │" not in shown
    assert "800 more results (--json lists them) │ 4/5 │ 80.00%" in shown
    assert len(json.loads(ok("odds", str(request), "--json"))["results"]) == 1000


def test_compile_of_text_without_dice_says_so() -> None:
    assert "no dice instructions" in ok("compile", "--text", "Flying")
