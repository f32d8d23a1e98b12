"""The published JSON Schemas (``mtgdice schema NAME``): the shipped files are what the typed models
generate now, and what the engine writes validates against them (Draft 2020-12, ``jsonschema``):
every outcome the conformance suites produce, the compile output of every shared card, and the log
rows the CLI and a web room write. A schema that accepted anything would pass those, so each is
also shown to refuse a broken document."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from jsonschema import Draft202012Validator

from mtgdice.errors import InputError
from mtgdice.io.jsonio import request_from_json
from mtgdice.io.outcome import plain_json, plain_model
from mtgdice.io.outcome_model import PlainOutcome
from mtgdice.io.schemas import DRAFT, NAMES, json_schema, schema_text, shipped
from mtgdice.rules.plain import roll_plain
from mtgdice.rules.sources import ScriptedSource
from mtgdice.text.notation import parse_plain
from shared_data import SHARED_ROOT, shared_path

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "src" / "mtgdice" / "io" / "schema"


def validator(name: str) -> Draft202012Validator:
    schema = json_schema(name)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def problems(name: str, document: object) -> list[str]:
    return [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}" for error in validator(name).iter_errors(document)
    ]


def mtgdice(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mtgdice", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


# -- the shipped files ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_shipped_file_is_what_the_models_generate(name: str) -> None:
    """A model changed without ``python scripts/build_schemas.py`` fails here."""
    assert (SHIPPED / f"{name}.schema.json").read_text(encoding="utf-8") == schema_text(name)
    assert shipped(name) == schema_text(name)


@pytest.mark.parametrize("name", NAMES)
def test_each_schema_is_draft_2020_12_with_an_id_title_and_descriptions(name: str) -> None:
    schema = json_schema(name)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == DRAFT and schema["$id"] == f"urn:mtgdice:schema:{name}"
    assert schema["title"] == f"mtgdice {name}" and schema["description"]
    definitions = schema["$defs"]
    assert isinstance(definitions, dict)
    undescribed = [key for key, part in definitions.items() if not part.get("description")]
    assert undescribed == []  # every model has a docstring


def test_the_build_script_finds_nothing_stale() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "build_schemas.py"), "--check"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize("name", NAMES)
def test_the_command_prints_the_shipped_file(name: str) -> None:
    result = mtgdice("schema", name)
    assert result.returncode == 0, result.stderr
    assert result.stdout == shipped(name) and json.loads(result.stdout)["$id"].endswith(name)


@pytest.mark.parametrize("name", ["dice", "Outcome", ""])
def test_an_unknown_schema_is_a_one_line_error(name: str) -> None:
    result = mtgdice("schema", name)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "is not a schema; use one of outcome, compile, log" in result.stderr


# -- outcomes ---------------------------------------------------------------------------------------


def conformance_cases() -> list[tuple[str, dict[str, Any]]]:
    folder = SHARED_ROOT / "conformance"
    cases = []
    for path in sorted(folder.glob("*.json")) if folder.exists() else []:
        cases += [(f"{path.stem}:{case['id']}", case) for case in json.loads(path.read_text(encoding="utf-8"))]
    return cases


CASES = conformance_cases()


@pytest.mark.parametrize(("case_id", "case"), CASES or [("no suites", {})], ids=[c for c, _ in CASES] or None)
def test_every_conformance_outcome_validates(case_id: str, case: dict[str, Any], run: Any) -> None:
    shared_path("conformance")  # skips (fails under MTGDICE_REQUIRE_SHARED=1) without the shared suites
    assert CASES, "no conformance suites found"
    outcome = run(case["input"])
    assert problems("outcome", outcome) == []


def test_every_conformance_input_validates_against_the_printed_request_schema() -> None:
    shared_path("conformance")
    assert CASES, "no conformance suites found"
    printed = mtgdice("schema", "request")
    assert printed.returncode == 0, printed.stderr
    checker = Draft202012Validator(json.loads(printed.stdout))
    failed = {
        case_id: [error.message for error in checker.iter_errors(case["input"])][:3]
        for case_id, case in CASES
        if not checker.is_valid(case["input"])
    }
    assert failed == {}


@pytest.mark.parametrize(
    "broken",
    [
        {"card": "Pixie Guide", "rol": 0},  # a misspelt field
        {"card": "Pixie Guide", "roll": "first"},
        {"card": "Pixie Guide", "players": 9},  # more seats than a table has
        {"card": "Pixie Guide", "seats": [{"hand": []}]},
    ],
)
def test_the_request_schema_refuses_what_the_reader_refuses(broken: dict[str, Any]) -> None:
    assert problems("request", broken) != []
    with pytest.raises(InputError):
        request_from_json(broken, None)


def test_the_conformance_suites_were_read() -> None:
    shared_path("conformance", "rules.json")
    assert {case_id.split(":")[0] for case_id, _ in CASES} >= {"rules", "rules-v3"}


def test_the_outcome_schema_refuses_a_broken_outcome(run: Any) -> None:
    outcome = run({"card": "Wizard's Spellbook", "battlefield": ["Pixie Guide"], "dice": [20, 7]})
    assert problems("outcome", outcome) == []
    for broken in (
        {key: value for key, value in outcome.items() if key != "rolls"},
        outcome | {"dice_total": 27},
        outcome | {"triggers": "Critical Hit"},
    ):
        assert problems("outcome", broken) != []
    die = copy.deepcopy(outcome)
    die["rolls"][0]["dice"][0]["natural"] = "twenty"
    assert problems("outcome", die) != []


@pytest.mark.parametrize(
    ("notation", "faces"),
    [("d20", [7]), ("4d6dl1 + 2", [3, 1, 6, 4]), ("3x d6", [1, 2, 3]), ("4dF", [1, 2, 3, 2]), ("d6! + d4", [6, 2, 3])],
)
def test_a_plain_outcome_is_read_back_strictly_by_its_model_and_validates(notation: str, faces: list[int]) -> None:
    """The plain roll's writer builds plain values (no msgspec on ``mtgdice roll d20``); its model
    reads them back with every field known and typed, and gives the same object again."""
    result = roll_plain(parse_plain(notation), ScriptedSource(faces))
    written = plain_json(result)
    model = plain_model(result)
    assert isinstance(model, PlainOutcome) and msgspec.to_builtins(model) == written
    assert problems("outcome", written) == []
    with pytest.raises(msgspec.ValidationError, match="unknown field"):
        msgspec.convert(written | {"totl": 3}, PlainOutcome)


# -- compile output ---------------------------------------------------------------------------------


def card_text(card: dict[str, Any]) -> str:
    return card.get("oracle_text") or "\n".join(face.get("oracle_text", "") for face in card.get("card_faces", []))


@pytest.mark.parametrize("file", ["dice-cards.json", "coin-cards.json"])
def test_the_compile_output_of_every_shared_card_validates(file: str) -> None:
    from mtgdice.io.compiled import card_json
    from mtgdice.text import compile_text

    cards = json.loads(shared_path("cards", file).read_text(encoding="utf-8"))
    check = validator("compile")
    wrong = {}
    for card in cards:
        compiled = card_json(compile_text(card_text(card), name=card["name"], type_line=card.get("type_line", "")))
        errors = [error.message for error in check.iter_errors(compiled)]
        if errors:
            wrong[card["name"]] = errors[:3]
    assert len(cards) > 20 and wrong == {}


def test_the_compile_command_prints_what_validates(cards_path: str) -> None:
    result = mtgdice("compile", "--cards", cards_path, "--card", "Berserker's Frenzy", "--json")
    assert result.returncode == 0, result.stderr
    compiled = json.loads(result.stdout)
    assert compiled["rolls"][0]["ignore_lowest"] == 1 and problems("compile", compiled) == []
    assert problems("compile", compiled | {"name": None}) != []
    del compiled["rolls"][0]["table"]
    assert problems("compile", compiled) != []


# -- log rows ---------------------------------------------------------------------------------------


def test_log_rows_written_by_the_cli_validate(tmp_path: Path, cards_path: str) -> None:
    db = str(tmp_path / "rolls.sqlite")
    coins = str(shared_path("cards", "coin-cards.json"))
    for args in (
        ["roll", "d20"],
        ["roll", "4d6dl1+2", "adv"],
        ["roll", "--cards", cards_path, "--card", "Wizard's Spellbook", "--with", "Pixie Guide", "--no-ask"],
        ["roll", "--cards", cards_path, "--card", "Hoarding Ogre", "--no-ask"],
        ["roll", "--cards", coins, "--card", "Aleatory", "--no-ask"],
    ):
        result = mtgdice(*args, "--db", db)
        assert result.returncode == 0, (args, result.stderr)
    result = mtgdice("log", "export", "--format", "json", "--db", db)
    assert result.returncode == 0, result.stderr
    exported = json.loads(result.stdout)
    assert len(exported["rolls"]) == 6
    assert {roll["outcome"].get("kind", "rolls" in roll["outcome"] and "card") for roll in exported["rolls"]} == {
        "plain",
        "card",
    }
    assert problems("log", exported) == []
    broken = copy.deepcopy(exported)
    broken["rolls"][0]["faces"] = [[20]]
    assert problems("log", broken) != []
    broken = copy.deepcopy(exported)
    broken["rolls"][2]["outcome"]["rolls"] = "none"
    assert problems("log", broken) != []


def test_log_rows_written_by_a_room_validate(tmp_path: Path, catalog: Any) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from mtgdice.web import create_app

    client = TestClient(create_app(tmp_path / "rolls.sqlite", catalog, rate=0))
    room = client.post("/api/rooms").json()
    headers = {"Authorization": f"Bearer {room['token']}"}
    for body in (
        {"card": "Wizard's Spellbook", "battlefield": ["Pixie Guide"]},
        {"card": "Hoarding Ogre"},
        {"kind": "dice", "notation": "2d10"},
    ):
        response = client.post(f"/api/rooms/{room['id']}/rolls", json=body, headers=headers)
        assert response.status_code == 200, response.text
    assert client.post(f"/api/rooms/{room['id']}/reveal", headers=headers).status_code == 200
    exported = client.get(f"/api/rooms/{room['id']}/log").json()
    assert len(exported["rolls"]) == 3 and exported["commitments"][0]["seed"]
    assert problems("log", exported) == []
    broken = copy.deepcopy(exported)
    broken["commitments"][0]["from_nonce"] = "0"
    assert problems("log", broken) != []


# -- parts for other documents ----------------------------------------------------------------------


def test_components_move_the_references_and_can_leave_the_outcome_open(run: Any) -> None:
    """An HTTP answer that adds its own fields to an outcome composes with ``allOf`` only when the
    outcome's top-level objects are open; everything below them stays closed."""
    from mtgdice.io.schemas import components

    outcome = run({"card": "Wizard's Spellbook", "battlefield": ["Pixie Guide"], "dice": [20, 7]})
    answer = outcome | {"id": 7}
    for closed, fits in ((True, False), (False, True)):
        top, parts = components("outcome", ref_template="#/$defs/{name}", closed=closed)
        schema = {"$schema": DRAFT, "allOf": [top, {"properties": {"id": {"type": "integer"}}}], "$defs": parts}
        Draft202012Validator.check_schema(schema)
        assert Draft202012Validator(schema).is_valid(answer) is fits
        broken = copy.deepcopy(answer)
        broken["rolls"][0]["dice"][0]["colour"] = "red"
        assert not Draft202012Validator(schema).is_valid(broken)
    top, parts = components("log")
    assert top == {"$ref": "#/components/schemas/ExportedLog"}
    text = json.dumps(parts)
    assert "#/$defs/" not in text and '"#/components/schemas/DiceOutcome"' in text


def test_a_plain_roll_still_loads_no_msgspec(tmp_path: Path) -> None:
    """The outcome models need msgspec; a plain ``mtgdice roll d20``, which writes to the log, does not load it."""
    probe = "import sys\nfrom mtgdice.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\nprint('msgspec' in sys.modules, file=sys.stderr)"
    for args in (["roll", "d20", "--db", str(tmp_path / "rolls.sqlite")], ["roll", "--no-log", "4d6dl1+2"]):
        run = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=60)
        assert run.stderr.strip().splitlines()[-1] == "False", run.stderr
    logged = mtgdice("log", "export", "--format", "json", "--db", str(tmp_path / "rolls.sqlite"))
    assert logged.returncode == 0 and problems("log", json.loads(logged.stdout)) == []


@pytest.mark.parametrize(
    ("request_text", "outcome_text", "field"), [('{"kind":', "{}", "request"), ("{}", "[1]", "outcome")]
)
def test_an_exported_roll_keeps_only_whole_json_objects(request_text: str, outcome_text: str, field: str) -> None:
    """A row's request and outcome are exported as the text the log stored, once checked to be one JSON object."""
    from mtgdice.errors import InputError
    from mtgdice.game.record import LoggedRoll, Provenance, SourceKind
    from mtgdice.io.record import export_roll

    def logged(request: str, outcome: str) -> LoggedRoll:
        return LoggedRoll(1, Provenance(SourceKind.SECURE, "2026-01-01T00:00:00+00:00"), ((6, 4),), request, outcome)

    kept = export_roll(logged('{"kind": "plain", "notation": "d6"}', '{"kind":"plain","total":4}'))
    assert kept["request"] == {"kind": "plain", "notation": "d6"} and kept["outcome"] == {"kind": "plain", "total": 4}
    with pytest.raises(InputError, match=f"^{field}: expected a JSON object"):
        export_roll(logged(request_text, outcome_text))
