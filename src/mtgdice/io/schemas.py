"""The published JSON Schemas, generated from the typed models the JSON edge writes.

:data:`NAMES` lists them: ``outcome`` (what ``mtgdice resolve`` writes,
:mod:`mtgdice.io.outcome_model`), ``compile`` (what ``mtgdice compile --json`` writes,
:mod:`mtgdice.io.compiled`) and ``log`` (the exported roll log, :mod:`mtgdice.io.log_model`).
:func:`json_schema` makes one now, with msgspec, from the models (Draft 2020-12, with ``$schema``,
``$id``, a title and the models' docstrings as descriptions); ``scripts/build_schemas.py`` writes
them to ``mtgdice/io/schema/NAME.schema.json``, shipped in the package, and :func:`shipped`
reads that file (what ``mtgdice schema NAME`` prints; a test checks that the two agree).
:func:`components` gives a schema's parts for another document (an OpenAPI description's
``components``), its references rewritten.

This module leaves out validating documents against a schema (the tests use ``jsonschema``).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from importlib import resources
from typing import NamedTuple

from mtgdice.errors import InputError

__all__ = ["DRAFT", "NAMES", "components", "json_schema", "schema_text", "shipped"]

DRAFT = "https://json-schema.org/draft/2020-12/schema"
"""The JSON Schema dialect of every schema."""
ID_PREFIX = "urn:mtgdice:schema:"
"""Each schema's ``$id`` is this followed by its name."""
SCHEMA_PACKAGE = "mtgdice.io"
SCHEMA_FOLDER = "schema"
"""The package and folder the built schema files are shipped in."""

Schema = dict[str, object]
"""A JSON Schema document."""


class _Published(NamedTuple):
    """One published schema: its description, the models it is made of (imported when it is made),
    and whether a document is any one of them (``anyOf``) or the first one (the rest are referred to)."""

    description: str
    models: Callable[[], tuple[type, ...]]
    any_of: bool = False


def _models(module: str, *names: str) -> Callable[[], tuple[type, ...]]:
    """The models ``names`` of the module ``module`` of ``mtgdice.io``, imported when asked for (so
    importing this module loads neither msgspec nor the models)."""

    def load() -> tuple[type, ...]:
        loaded = importlib.import_module(module)
        return tuple(getattr(loaded, name) for name in names)

    return load


_PUBLISHED: dict[str, _Published] = {
    "outcome": _Published(
        "The outcome object of a roll, as `mtgdice resolve` writes it (json-interface.md): a roll of dice "
        "(DiceOutcome), a coin flip (FlipOutcome) or a plain roll (PlainOutcome).",
        _models("mtgdice.io.outcome_model", "DiceOutcome", "FlipOutcome", "PlainOutcome"),
        any_of=True,
    ),
    "compile": _Published(
        "What `mtgdice compile --json` writes of a card (json-interface.md): its roll and coin instructions, "
        "effects on other rolls, and what the compiler did not understand.",
        _models("mtgdice.io.compiled", "CompileOutput"),
    ),
    "log": _Published(
        "The exported roll log (`mtgdice log export --format json`, `GET /api/rooms/{id}/log`): its "
        "commitments and every roll with its request, outcome and faces (docs/log.md).",
        # The logged outcome refers to the outcome models, so they are listed too.
        _models("mtgdice.io.log_model", "ExportedLog", "DiceOutcome", "FlipOutcome", "PlainOutcome", "RefusedOutcome"),
    ),
    "request": _Published(
        "The request object `mtgdice resolve` reads (json-interface.md, versions 1 to 3): a card's roll or "
        "flip with the table (seats, turn, pending replacements), plain dice, the planar die or a coin.",
        _models("mtgdice.io.request_model", "Request"),
    ),
}
NAMES: tuple[str, ...] = tuple(_PUBLISHED)
"""The names of the published schemas."""
LOCAL_REFS = "#/$defs/"
"""Where a schema file's references point: its own ``$defs``."""


def _known(name: str) -> _Published:
    if name not in _PUBLISHED:
        raise InputError("schema", f"{name!r} is not a schema; use one of {', '.join(NAMES)}")
    return _PUBLISHED[name]


def _parts(name: str) -> tuple[str, Schema, dict[str, Schema]]:
    """The description, the top-level schema and the definitions of the schema ``name``."""
    import msgspec

    published = _known(name)
    refs, definitions = msgspec.json.schema_components(published.models(), ref_template=LOCAL_REFS + "{name}")
    top: Schema = {"anyOf": list(refs)} if published.any_of else dict(refs[0])
    return published.description, top, {key: _prose(value) for key, value in definitions.items()}


def components(
    name: str, ref_template: str = "#/components/schemas/{name}", closed: bool = True
) -> tuple[Schema, dict[str, Schema]]:
    """The schema ``name`` as a document's components (an OpenAPI document's, by default): the
    top-level schema and every definition, by model name, their references made with ``ref_template``.
    With ``closed=False`` the top-level objects allow more properties (a response that adds its own
    fields to an outcome, composed with ``allOf``); the rest stay closed.

    >>> top, parts = components("outcome", closed=False)
    >>> top["anyOf"][0], "additionalProperties" in parts["DiceOutcome"], parts["DieShown"]["additionalProperties"]
    ({'$ref': '#/components/schemas/DiceOutcome'}, False, False)
    """
    _, top, definitions = _parts(name)
    prefix = ref_template.replace("{name}", "")

    def moved(node: object) -> object:
        if isinstance(node, dict):
            return {
                key: prefix + item.removeprefix(LOCAL_REFS) if key == "$ref" and isinstance(item, str) else moved(item)
                for key, item in node.items()
            }
        if isinstance(node, list):
            return [moved(item) for item in node]
        return node

    kinds = top.get("anyOf", [top])
    outer = (
        {str(ref["$ref"]).removeprefix(LOCAL_REFS) for ref in kinds if isinstance(ref, dict)}
        if isinstance(kinds, list)
        else set()
    )
    parts: dict[str, Schema] = {}
    for key, definition in definitions.items():
        part = moved(definition)
        assert isinstance(part, dict)
        if not closed and key in outer:
            part.pop("additionalProperties", None)
        parts[key] = part
    head = moved(top)
    assert isinstance(head, dict)
    return head, parts


def json_schema(name: str) -> Schema:
    """The JSON Schema ``name`` (one of :data:`NAMES`) as the models generate it now.

    >>> schema = json_schema("outcome")
    >>> schema["$schema"], schema["$id"], sorted(ref["$ref"] for ref in schema["anyOf"])[0]
    ('https://json-schema.org/draft/2020-12/schema', 'urn:mtgdice:schema:outcome', '#/$defs/DiceOutcome')
    >>> json_schema("dice")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    mtgdice.rules.errors.InputError: schema: 'dice' is not a schema; use one of outcome, compile, log...
    """
    description, top, definitions = _parts(name)
    head: Schema = {"$schema": DRAFT, "$id": ID_PREFIX + name, "title": f"mtgdice {name}", "description": description}
    return head | top | {"$defs": definitions}


def _prose(value: Schema) -> Schema:
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
