"""The JSON edge's wire model: msgspec structs mirroring the request contract, their JSON Schema,
and msgspec's complaints said as our one-line errors (the field's JSON path, the problem, the
nearest known name)."""

from __future__ import annotations

from typing import Any

import jsonschema
import msgspec
import pytest

from mtgdice.errors import InputError
from mtgdice.io.jsonio import request_from_json, wire_request
from mtgdice.io.request_model import Request


def test_the_schema_validates_the_contract_examples_and_refuses_unknown_fields() -> None:
    schema = msgspec.json.schema(Request)
    validator = jsonschema.Draft202012Validator(schema)
    good = {
        "card": "Chaos Dragon",
        "controller": 0,
        "seats": [{"battlefield": ["Pixie Guide"], "graveyard": ["Critical Hit"], "command": []}, {}],
        "turn": {"used": ["Pixie Guide#0"], "dice_rolled": [1, 0], "flips": [{"won": 1, "lost": 0}]},
        "pending": [{"card": "Bamboozling Beeble", "controller": 1, "target": 0}],
        "dice": [12, 20],
        "choices": [True, 0, [1, 2]],
    }
    assert list(validator.iter_errors(good)) == []
    assert list(validator.iter_errors({**good, "batlefield": []}))
    assert list(validator.iter_errors({**good, "seats": [{}] * 9}))
    assert msgspec.convert(good, Request).seats is not None


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({"card": "A", "batlefield": []}, "batlefield", 'did you mean "battlefield"'),
        ({"card": "A", "seats": [{"graveyrd": []}]}, "seats[0].graveyrd", 'did you mean "graveyard"'),
        ({"card": "A", "turn": {"flips": [{"wn": 1}]}}, "turn.flips[0].wn", 'did you mean "won"'),
        ({"card": "A", "opponents": [{"card": "B", "seet": 2}]}, "opponents[0].seet", 'did you mean "seat"'),
        ({"card": "A", "roll": "one"}, "roll", 'expected a whole number, got a string "one"'),
        ({"card": "A", "amounts": {"X": 1, "Y": "3"}}, "amounts.Y", "expected a whole number"),
        (
            {"card": "A", "battlefield": [{"card": "B", "level": 0}]},
            "battlefield[0].level",
            "expected 1 or more, got 0",
        ),
        (
            {"card": "A", "battlefield": [{"card": "B", "counters": {"c": -1}}]},
            "battlefield[0].counters.c",
            "0 or more",
        ),
        ({"card": "A", "seats": [{}] * 9}, "seats", "at most 8"),
        ({"card": "A", "players": 10**17}, "players", "at most 8"),
        ({"card": "A", "players": 10}, "players", "expected at most 8, got 10"),
        ({"card": "A", "opponents": [{"card": "B", "seat": 8}]}, "opponents[0].seat", "at most 7, got 8"),
        ({"card": "A", "kind": "cards"}, "kind", '"cards" is not one of'),
        ({"card": "A", "seats": [3]}, "seats[0]", "expected an object, got a whole number"),
    ],
)
def test_a_bad_field_is_one_line_naming_its_path(data: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(InputError) as raised:
        wire_request(data)
    assert raised.value.field == field
    assert words in raised.value.problem
    assert "\n" not in str(raised.value)


def test_a_shells_own_field_is_kept_aside() -> None:
    request = request_from_json({"text": "Roll a d6.", "policy": "maximize"}, allow=("policy",))
    assert request.extra == {"policy": "maximize"}
    with pytest.raises(InputError, match="policy"):
        request_from_json({"card": "A", "policy": "maximize"})


@pytest.mark.parametrize("kind", ["dice", "plain"])
def test_bad_notation_names_the_requests_own_field(kind: str) -> None:
    """The notation reader says "dice" at the CLI's argument; a JSON request's field is ``notation``."""
    with pytest.raises(InputError) as raised:
        request_from_json({"kind": kind, "notation": "3q7"}, {})
    assert raised.value.field == "notation"
    assert "'3q7' is not dice notation" in raised.value.problem
