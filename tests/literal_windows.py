"""Six-word windows: does a string in product code read like one card's text?

A card's text is read in two forms, as printed (its name written ``~``) and as the grammar reads it
(``normalize.for_matching``: number words as digits, "this creature" as ``~``). A window of six
words that occurs in exactly one card's text is that card's. A string literal of ``src/`` is read
the same way; a literal that is a regular expression is also read through its syntax: each
alternative, optional part and repeat is expanded (:func:`expansions`), so ``(?:a|an)`` or
``\\b`` cannot hide a card's sentence.
"""

from __future__ import annotations

import ast
import random
import re
import re._parser as sre_parse  # the standard library's own reader of pattern syntax
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mtgdice.text.normalize import for_matching, replace_self, standard_punctuation

WINDOW = 6
_TOKEN = re.compile(r"[a-z0-9~']+")
_SAMPLES = 150


def words(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def windows(tokens: list[str]) -> Iterable[tuple[str, ...]]:
    return (tuple(tokens[i : i + WINDOW]) for i in range(len(tokens) - WINDOW + 1))


def card_forms(name: str, text: str) -> list[str]:
    printed = text
    for part in name.split(" // "):
        printed = printed.replace(part, "~")
    return [printed, for_matching(replace_self(standard_punctuation(text), name))]


def unique_windows(cards: Iterable[tuple[str, str]]) -> dict[tuple[str, ...], str]:
    """The windows that occur in one card's text only, with that card's name."""
    owners: dict[tuple[str, ...], set[str]] = defaultdict(set)
    for name, text in cards:
        for form in card_forms(name, text):
            for window in windows(words(form)):
                owners[window].add(name)
    return {window: next(iter(names)) for window, names in owners.items() if len(names) == 1}


Piece = tuple[str, bool]
"""A character of an expansion and whether the pattern fixes it (outside any alternative or class)."""


def _expand(items: Any, rng: random.Random, fixed: bool = True) -> list[Piece]:
    """One string the parsed pattern ``items`` matches, choices made by ``rng``."""
    out: list[Piece] = []
    for op, arg in items:
        name = str(op)
        if name == "LITERAL":
            out.append((chr(arg), fixed))
        elif name in ("NOT_LITERAL", "ANY"):
            out.append((" ", False))
        elif name == "IN":
            literals = [chr(value) for kind, value in arg if str(kind) == "LITERAL"]
            categories = [str(value) for kind, value in arg if str(kind) == "CATEGORY"]
            if literals:
                out.append((rng.choice(literals), fixed and len(literals) == 1))
            elif "CATEGORY_DIGIT" in categories:
                out.append(("1", fixed))  # a number written \d+ is still the card's number
            else:
                out.append((" ", fixed))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, sub = arg
            times = low if high == 0 else rng.choice((low, max(low, 1)))
            for _ in range(min(times, 3)):
                out.extend(_expand(sub, rng, fixed))
        elif name == "BRANCH":
            out.extend(_expand(rng.choice(arg[1]), rng, False))
        elif name in ("SUBPATTERN", "ATOMIC_GROUP"):
            out.extend(_expand(arg[-1], rng, fixed))
        # AT (\\b, ^, $), ASSERT, ASSERT_NOT, GROUPREF: no characters.
    return out


def expansions(literal: str) -> list[list[tuple[str, bool]]]:
    """Words of strings a pattern matches (each word with whether the pattern fixes it), alternatives
    chosen at random (seeded); a literal with no pattern syntax is its own words, all fixed."""
    # As written, escapes aside (the before-stop hook's reading): every word fixed.
    found = [[(word, True) for word in words(re.sub(r"\\[a-z]", " ", literal))]]
    if len(found[0]) < WINDOW or not re.search(r"[(|?*+\[\\]", literal):
        return found
    try:
        parsed = sre_parse.parse(literal)
    except (re.error, OverflowError, RecursionError, ValueError):
        return found
    rng = random.Random(literal)
    for _ in range(_SAMPLES):
        pieces = _expand(parsed, rng)
        text = "".join(char for char, _ in pieces).lower()
        marks = [is_fixed for _, is_fixed in pieces]
        found.append([(m.group(), all(marks[m.start() : m.end()])) for m in _TOKEN.finditer(text)])
    return found


def string_literals(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module, docstrings aside (line, value)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                docs.add(id(value))
    literals = [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
    ]
    # Patterns are often written as adjacent literals joined with "+": read each module's
    # expressions that concatenate strings as one literal too.
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            try:
                joined = _joined(node)
            except ValueError:
                continue
            literals.append((node.lineno, joined))
    return literals


def _joined(node: ast.AST) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _joined(node.left) + _joined(node.right)
    raise ValueError("not a string")


FIXED_WORDS = 5
"""A window is the card's when at least this many of its six words are fixed by the pattern: a
sentence with its number or name swapped for a slot is caught, a phrase composed of alternatives
(each one general) is not."""


def card_like(literal: str, unique: dict[tuple[str, ...], str]) -> tuple[str, tuple[str, ...]] | None:
    """The card whose text a literal reads like, with the window, or ``None``."""
    for sample in expansions(literal):
        for i in range(len(sample) - WINDOW + 1):
            part = sample[i : i + WINDOW]
            window = tuple(word for word, _ in part)
            if window in unique and sum(is_fixed for _, is_fixed in part) >= FIXED_WORDS:
                return unique[window], window
    return None
