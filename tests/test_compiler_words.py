"""The compiler is a fold over the grammar's typed sentence nodes: it reads no words (issue 17 item 2).

The English of the dice language lives in ``text/grammar.py`` only: ``compiler.py`` holds no word
literal outside its docstrings and comments, and reads no production's named parts (``f["..."]``).
The canonical wordings are registered beside the productions, keyed by the compiled value's type.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from mtgdice.rules import AnyOf, ExtraDice, InRange, NaturalMax, Scope
from mtgdice.text import grammar as g
from mtgdice.text.compiler import compile_text

COMPILER = Path(g.__file__).with_name("compiler.py")
_WORD = re.compile(r"[A-Za-z]{2,}")


def _literals(source: str) -> list[tuple[int, str]]:
    """Every string constant of a module that is not a docstring or a bare string statement."""
    tree = ast.parse(source)
    documentation = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in documentation
    ]


def test_compiler_holds_no_word_literal() -> None:
    words = [(line, text) for line, text in _literals(COMPILER.read_text(encoding="utf-8")) if _WORD.search(text)]
    assert words == []


def test_the_word_check_finds_a_word() -> None:
    source = 'def f(x):\n    """Doc."""\n    return x == "each player"\n'
    assert [text for _line, text in _literals(source) if _WORD.search(text)] == ["each player"]


def test_compiler_reads_no_named_parts() -> None:
    assert COMPILER.read_text(encoding="utf-8").count('f["') == 0


def test_every_sentence_production_builds_a_node() -> None:
    assert [entry.rule.name for entry in g.SENTENCES if entry.rule.build is None] == []


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (
            "If you would roll one or more dice, instead roll that many dice plus one and ignore the lowest roll.",
            g.Replacement,
        ),
        ("Whenever you roll a 6 on a d6, draw a card.", g.TriggerNode),
        ("Roll two d8 and add 3.", g.Rolls),
        ("Flip a coin until you lose a flip.", g.FlipPhrase),
        ("Increase the result of each die you roll by 1.", g.Modifier),
    ],
)
def test_a_sentence_reads_as_its_node(text: str, kind: type) -> None:
    from mtgdice.text.normalize import for_matching

    _s, reading = g.read(for_matching(text).rstrip("."), g.Context())
    assert isinstance(reading, g.Reading) and isinstance(reading.value, kind)


def test_replacement_node_carries_meaning_not_words() -> None:
    from mtgdice.text.normalize import for_matching

    text = "If an opponent would roll a d20, they may instead roll that many dice plus 2 and ignore the 2 lowest rolls"
    _s, reading = g.read(for_matching(text), g.Context())
    assert isinstance(reading, g.Reading)
    node = reading.value
    assert node == g.Replacement(Scope.OPPONENT, 20, True, g.ExtraDiceHow(2))


def test_tails_fold_in_text_order() -> None:
    folded = g.Tail(ignore_lowest=1).then(g.Tail(keep_highest=2)).then(g.Tail(ignore_lowest=3))
    assert (folded.ignore_lowest, folded.keep_highest) == (3, 2)
    card = compile_text("Roll four d6 and ignore the lowest roll and add 2.")
    roll = card.rolls[0]
    assert (roll.ignore_lowest, roll.modifier and roll.modifier.constant) == (1, 2)


def test_wordings_are_keyed_by_type() -> None:
    assert g.canonical(InRange(4, None)) == "a 4 or higher"
    assert g.canonical(AnyOf((InRange(1, 1), InRange(2, 2), InRange(3, 3)))) == "a 1, 2, or 3"
    assert g.canonical(NaturalMax()) == "a die's highest natural result"
    effect = ExtraDice(extra=1, scope=Scope.YOU)
    assert g.canonical(effect).startswith("If you would roll one or more dice, you instead roll")
    with pytest.raises(ValueError, match="no wording"):
        g.canonical(object())
