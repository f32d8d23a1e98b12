"""The published JSON Schemas, generated from the typed models the JSON edge writes.

:data:`NAMES` lists them: ``outcome`` (what ``mtgdice resolve`` writes,
:mod:`mtgdice.io.outcome_model`), ``compile`` (what ``mtgdice compile --json`` writes,
:mod:`mtgdice.io.compiled`) and ``log`` (the exported roll log, :mod:`mtgdice.io.log_model`).
:func:`json_schema` makes one now, with msgspec, from the models (Draft 2020-12, with ``$schema``,
``$id``, a title and the models' docstrings as descriptions); ``scripts/build_schemas.py`` writes
them to ``mtgdice/io/schema/NAME.schema.json``, shipped in the package, and :func:`shipped`
reads that file (what ``mtgdice schema NAME`` prints; a test checks that the two agree).

This module leaves out validating documents against a schema (the tests use ``jsonschema``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources

from mtgdice.errors import InputError

__all__ = ["DRAFT", "NAMES", "json_schema", "schema_text", "shipped"]

DRAFT = "https://json-schema.org/draft/2020-12/schema"
"""The JSON Schema dialect of every schema."""
ID_PREFIX = "urn:mtgdice:schema:"
"""Each schema's ``$id`` is this followed by its name."""
SCHEMA_PACKAGE = "mtgdice.io"
SCHEMA_FOLDER = "schema"
"""The package and folder the built schema files are shipped in."""

Schema = dict[str, object]
"""A JSON Schema document."""


def _outcome() -> tuple[str, Schema]:
    import msgspec

    from mtgdice.io.outcome_model import OUTCOME_TYPES

    kinds, defs = msgspec.json.schema_components(OUTCOME_TYPES, ref_template="#/$defs/{name}")
    return (
        "The outcome object of a roll, as `mtgdice resolve` writes it (json-interface.md): a roll of "
        "dice (DiceOutcome), a coin flip (FlipOutcome) or a plain roll (PlainOutcome).",
        {"anyOf": list(kinds), "$defs": defs},
    )


def _compile() -> tuple[str, Schema]:
    import msgspec

    from mtgdice.io.compiled import CompileOutput

    return (
        "What `mtgdice compile --json` writes of a card (json-interface.md): its roll and coin "
        "instructions, effects on other rolls, and what the compiler did not understand.",
        dict(msgspec.json.schema(CompileOutput)),
    )


def _log() -> tuple[str, Schema]:
    import msgspec

    from mtgdice.io.log_model import LOGGED_OUTCOME_TYPES, ExportedLog

    (top, *_), defs = msgspec.json.schema_components(
        (ExportedLog, *LOGGED_OUTCOME_TYPES), ref_template="#/$defs/{name}"
    )
    return (
        "The exported roll log (`mtgdice log export --format json`, `GET /api/rooms/{id}/log`): its "
        "commitments and every roll with its request, outcome and faces (docs/log.md).",
        {**top, "$defs": defs},
    )


_MODELS: dict[str, Callable[[], tuple[str, Schema]]] = {
    "outcome": _outcome,
    "compile": _compile,
    "log": _log,
    # INTEGRATOR: add "request" here: a function giving msgspec.json.schema(mtgdice.io.request_model.Request).
}
NAMES: tuple[str, ...] = tuple(_MODELS)
"""The names of the published schemas."""


def _known(name: str) -> Callable[[], tuple[str, Schema]]:
    if name not in _MODELS:
        raise InputError("schema", f"{name!r} is not a schema; use one of {', '.join(NAMES)}")
    return _MODELS[name]


def json_schema(name: str) -> Schema:
    """The JSON Schema ``name`` (one of :data:`NAMES`) as the models generate it now.

    >>> schema = json_schema("outcome")
    >>> schema["$schema"], schema["$id"], sorted(ref["$ref"] for ref in schema["anyOf"])[0]
    ('https://json-schema.org/draft/2020-12/schema', 'urn:mtgdice:schema:outcome', '#/$defs/DiceOutcome')
    >>> json_schema("dice")
    Traceback (most recent call last):
      ...
    mtgdice.rules.errors.InputError: schema: 'dice' is not a schema; use one of outcome, compile, log
    """
    description, body = _known(name)()
    head: Schema = {"$schema": DRAFT, "$id": ID_PREFIX + name, "title": f"mtgdice {name}", "description": description}
    return _prose(head | body)


def _prose(value: object) -> Schema:
    """Every ``description`` as prose for readers of JSON: a docstring's lines joined into paragraphs,
    its double backticks single."""

    def walk(node: object) -> object:
        if isinstance(node, dict):
            return {
                key: _paragraphs(item) if key == "description" and isinstance(item, str) else walk(item)
                for key, item in node.items()
            }
        if isinstance(node, list):
            return [walk(item) for item in node]
        return node

    schema = walk(value)
    assert isinstance(schema, dict)
    return schema


def _paragraphs(text: str) -> str:
    return "\n\n".join(" ".join(part.split()) for part in text.replace("``", "`").split("\n\n"))


def schema_text(name: str) -> str:
    """:func:`json_schema` as the shipped file's text: indented, keys in the order made, a final newline."""
    return json.dumps(json_schema(name), indent=2, ensure_ascii=False) + "\n"


def shipped(name: str) -> str:
    """The text of the schema file shipped in the package (``mtgdice/io/schema/NAME.schema.json``).

    >>> shipped("compile") == schema_text("compile")
    True
    """
    _known(name)
    return resources.files(SCHEMA_PACKAGE).joinpath(SCHEMA_FOLDER, f"{name}.schema.json").read_text(encoding="utf-8")
