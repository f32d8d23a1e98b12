"""Mutation tests: the compiler must follow every change made to a dev card's dice sentences.

A small generator (below, in the test itself, independent of the compiler) rewrites the first roll
instruction of each dev card of ``../shared/cards/dice-cards.json`` and its results table:

- ``count``: another number of dice, 1–5, as a word ("a", "two", ...) or as digits;
- ``sides``: another die, "dN" (d4 … d100) or "N-sided" in words or digits. On a card with a
  results table only dice at least as large as the table's top row are used, so the table stays
  readable for that die;
- ``ranges``: a results table of ``N1—N2 | ...`` rows rewritten with new disjoint, in-order ranges
  over the same span (an open last row ``N+`` stays open);
- ``dashes``: the em dash of each range and each list row ("2 — menace") replaced by a hyphen or an
  en dash; nothing may change;
- ``reorder``: two rows of a table swapped. What we assert: DESIGN.md §3.7 says tables are checked
  when compiled ("rows disjoint, in order"), so out-of-order rows must be reported in
  ``unsupported``; and if a table is produced anyway, it must be in printed order (never silently
  sorted);
- ``modifier``: a printed modifier added to (or swapped into) a roll: "add 3", "subtract 2", "add /
  subtract the number of cards in your hand" → ``3``, ``-2``, ``"+cards in hand"``, ``"-cards in hand"``.

Expectations come from the mutation itself (what was written) and, for unchanged fields, from the
hand-written golden fixtures — never from the compiler's output. A deterministic sample of a few
hundred cases is checked.
"""

from __future__ import annotations

import json
import random
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from mtgdice.io.compiled import card_json
from mtgdice.text import compile_text
from shared_data import shared_path

GOLDEN_PATH = Path(__file__).parent / "fixtures" / "golden" / "cards.json"
# Read at collection time to parametrise; the tests call shared_path() so a missing ../shared skips
# (or fails with MTGDICE_REQUIRE_SHARED=1) like the rest of the suite.
CARDS_PATH = Path(__file__).resolve().parents[1].parent / "shared" / "cards" / "dice-cards.json"
SAMPLE_SIZE = 360

NUMBER_WORDS = {
    1: "one",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    8: "eight",
    10: "ten",
    12: "twelve",
    20: "twenty",
    100: "one hundred",
}
WORD_NUMBERS = {word: n for n, word in NUMBER_WORDS.items()} | {"a": 1, "an": 1}
DIE_SIZES = (4, 6, 8, 10, 12, 20, 100)

# The first roll instruction: "roll a d20", "Roll two d20", "rolls two six-sided dice",
# "roll X d6", "roll a six-sided die twice", "roll a 20-sided die".
ROLL_PHRASE = re.compile(
    r"\b(?P<verb>[Rr]olls?)\s+(?P<count>an?|one|two|three|four|five|X|\d+)\s+"
    r"(?P<die>d\d+|(?:[a-z]+|\d+)-sided (?:die|dice))(?P<twice> twice)?(?P<after>[^\n]{0,12})"
)
# A results-table row "1—9 | text", "15+ | text", "20 | text".
PIPE_ROW = re.compile(r"^(?P<lo>\d+)(?:(?P<dash>—)(?P<hi>\d+)|(?P<plus>\+))? \| (?P<text>.*)$")
# A list row "2 — menace", "• 2 — menace", "1 or 2 — ...".
LIST_ROW = re.compile(r"^(?P<bullet>• )?(?P<range>\d+(?: or \d+)?) (?P<dash>—) (?P<text>.*)$")


@dataclass
class Mutation:
    card: str
    kind: str
    text: str
    expect: dict[str, Any] = field(default_factory=dict)  # fields of rolls[0]
    base: dict[str, Any] = field(default_factory=dict)  # unchanged fields, from the golden fixture
    rolls: int = 1
    out_of_order: bool = False
    printed_table: list[list[int | None]] | None = None


def load_cards() -> list[dict[str, Any]]:
    if not CARDS_PATH.exists():
        return []
    return json.loads(CARDS_PATH.read_text(encoding="utf-8"))


def load_golden() -> dict[int, dict[str, Any]]:
    return {f["index"]: f for f in json.loads(GOLDEN_PATH.read_text(encoding="utf-8"))["cards"]}


def count_phrase(n: int, sides_phrase: str, rng: random.Random) -> str:
    """``n`` dice of the kind ``sides_phrase`` ("d20" or "six-sided"), as Oracle text could say it."""
    if n == 1:
        if sides_phrase.startswith("d"):
            return f"a {sides_phrase}"
        article = "an" if sides_phrase[0] in "ae" or sides_phrase.startswith(("8-", "11-")) else "a"
        return f"{rng.choice([article, 'one'])} {sides_phrase} die"
    number = rng.choice([NUMBER_WORDS[n], str(n)])
    return f"{number} {sides_phrase}" if sides_phrase.startswith("d") else f"{number} {sides_phrase} dice"


def sides_phrases(sides: int) -> list[str]:
    phrases = [f"d{sides}", f"{sides}-sided"]
    if sides in NUMBER_WORDS and sides != 100:
        phrases.append(f"{NUMBER_WORDS[sides]}-sided")
    return phrases


def parse_sides(die: str) -> str:
    """The die phrase without "die"/"dice": "d20" or "six-sided"."""
    return die.split(" ")[0]


def table_rows(lines: list[str], start: int) -> list[int]:
    """Indices of the results-table lines right after line ``start``."""
    rows = []
    for i in range(start + 1, len(lines)):
        if PIPE_ROW.match(lines[i]) or LIST_ROW.match(lines[i]):
            rows.append(i)
        elif rows:
            break
        else:
            break
    return rows


def render_range(lo: int, hi: int | None, dash: str = "—") -> str:
    if hi is None:
        return f"{lo}+"
    return str(lo) if lo == hi else f"{lo}{dash}{hi}"


def mutations_for(card: dict[str, Any], golden: dict[str, Any], rng: random.Random) -> list[Mutation]:
    text: str = card.get("oracle_text") or ""
    rolls = golden.get("rolls") or []
    if not rolls or not text:
        return []
    match = ROLL_PHRASE.search(text)
    if match is None:
        return []
    # Unchanged fields expected from the golden fixture (the printed modifier is left to test_golden).
    base = {k: rolls[0][k] for k in ("count", "sides", "table") if k in rolls[0]}
    name = card["name"] if card["name"] != "Garbage Elemental" else f"Garbage Elemental #{golden['index']}"
    out: list[Mutation] = []
    lines = text.split("\n")
    line_no = text[: match.start()].count("\n")
    row_idx = table_rows(lines, line_no)
    table = base.get("table")
    top = max((r[1] or r[0]) for r in table) if table else 0
    compound = match.group("after").startswith((" plus", ", where X"))

    def mk(kind: str, new_text: str, **kw: Any) -> Mutation:
        return Mutation(name, kind, new_text, base=dict(base), rolls=len(rolls), **kw)

    verb, die = match.group("verb"), match.group("die")
    end = match.end("twice") if match.group("twice") else match.end("die")
    head, tail = text[: match.start()], text[end:]
    old_sides = parse_sides(die)
    # count
    if not compound and isinstance(base.get("sides"), int):
        for n in range(1, 6):
            new = f"{verb} {count_phrase(n, old_sides, rng)}"
            m = mk("count", head + new + tail, expect={"count": n, "sides": base["sides"]})
            m.base.pop("count", None)
            out.append(m)
    # sides
    if isinstance(base.get("count"), (int, str)) and not compound:
        count_word = match.group("count")
        n = WORD_NUMBERS.get(count_word.lower(), None)
        if match.group("twice"):
            n = 2
        if n is None and count_word.isdigit():
            n = int(count_word)
        for sides in DIE_SIZES:
            if sides < top:
                continue
            for phrase in sides_phrases(sides):
                if n is None:  # "X"
                    new = f"{verb} X {phrase}" if phrase.startswith("d") else f"{verb} X {phrase} dice"
                else:
                    new = f"{verb} {count_phrase(n, phrase, rng)}"
                m = mk("sides", head + new + tail, expect={"sides": sides, "count": base.get("count")})
                m.base.pop("sides", None)
                out.append(m)
    # modifier
    if (not compound and base.get("sides") == 20) or base.get("modifier") is not None:
        modifiers = [
            ("add 3", 3),
            ("subtract 2", -2),
            ("add 1", 1),
            ("add the number of cards in your hand", "+cards in hand"),
            ("subtract the number of cards in your hand", "-cards in hand"),
        ]
        existing = re.search(r" and (?:add|subtract) [^.]*?(?=\.)", text)
        for phrase, value in modifiers:
            if existing is not None:
                new_text = text[: existing.start()] + f" and {phrase}" + text[existing.end() :]
            elif tail.startswith("."):
                new_text = head + text[match.start() : len(text) - len(tail)] + f" and {phrase}" + tail
            else:
                continue
            m = mk("modifier", new_text, expect={"modifier": value})
            m.base.pop("modifier", None)
            out.append(m)
    if not row_idx or table is None:
        return out
    pipe = all(PIPE_ROW.match(lines[i]) for i in row_idx)
    # dashes
    for dash in ("-", "\u2013"):
        new_lines = list(lines)
        for i in row_idx:
            if pipe:
                new_lines[i] = re.sub(r"^(\d+)—(\d+)", rf"\g<1>{dash}\g<2>", new_lines[i])
            else:
                new_lines[i] = re.sub(r"^((?:• )?\d+(?: or \d+)?) — ", rf"\g<1> {dash} ", new_lines[i])
        if new_lines != lines:
            out.append(mk("dashes", "\n".join(new_lines), expect={"table": table}))
    # ranges (pipe tables)
    if pipe and len(table) >= 2:
        lo_span = table[0][0]
        open_end = table[-1][1] is None
        hi_span = table[-1][0] + 3 if open_end else table[-1][1]
        k = len(table)
        for _ in range(4):
            cuts = sorted(rng.sample(range(lo_span + 1, hi_span + 1), k - 1))
            starts = [lo_span, *cuts]
            new_table: list[list[int | None]] = []
            for j, s in enumerate(starts):
                e: int | None = starts[j + 1] - 1 if j + 1 < k else (None if open_end else hi_span)
                new_table.append([s, e])
            new_lines = list(lines)
            for j, i in enumerate(row_idx):
                row = PIPE_ROW.match(lines[i])
                assert row is not None
                new_lines[i] = f"{render_range(new_table[j][0], new_table[j][1])} | {row.group('text')}"
            m = mk("ranges", "\n".join(new_lines), expect={"table": new_table})
            m.base.pop("table", None)
            out.append(m)
    # reorder: swap two adjacent rows
    if len(row_idx) >= 2:
        j = rng.randrange(len(row_idx) - 1)
        new_lines = list(lines)
        a, b = row_idx[j], row_idx[j + 1]
        new_lines[a], new_lines[b] = lines[b], lines[a]
        printed = list(table)
        printed[j], printed[j + 1] = printed[j + 1], printed[j]
        m = mk("reorder", "\n".join(new_lines), out_of_order=True, printed_table=printed)
        m.base.pop("table", None)
        out.append(m)
    return out


def generate_mutations(sample: int | None = SAMPLE_SIZE) -> list[Mutation]:
    """All mutations of the dev cards (deterministic), or a deterministic sample of them."""
    cards = load_cards()
    if not cards:
        return []
    golden = load_golden()
    rng = random.Random(706)
    everything: list[Mutation] = []
    for index, card in enumerate(cards):
        everything += mutations_for(card, golden[index], rng)
    if sample is None or len(everything) <= sample:
        return everything
    # Keep every kind represented: round-robin over kinds, in a seeded order.
    by_kind: dict[str, list[Mutation]] = {}
    for m in everything:
        by_kind.setdefault(m.kind, []).append(m)
    for group in by_kind.values():
        rng.shuffle(group)
    picked: list[Mutation] = []
    while len(picked) < sample and any(by_kind.values()):
        for group in by_kind.values():
            if group and len(picked) < sample:
                picked.append(group.pop())
    return picked


MUTATIONS = generate_mutations()


def mutation_id(m: Mutation) -> str:
    first = ROLL_PHRASE.search(m.text)
    phrase = first.group(0).strip() if first else ""
    return f"{m.card}-{m.kind}-{phrase}-{zlib.crc32(m.text.encode()) % 10_000:04d}"


def compile_mutation(m: Mutation) -> dict[str, Any]:
    return card_json(compile_text(m.text, name=m.card.split(" #")[0]))


def test_generator_covers_every_kind() -> None:
    shared_path("cards", "dice-cards.json")
    kinds = {m.kind for m in MUTATIONS}
    assert kinds == {"count", "sides", "modifier", "dashes", "ranges", "reorder"}
    assert 200 <= len(MUTATIONS) <= SAMPLE_SIZE


@pytest.mark.parametrize("m", [m for m in MUTATIONS if m.kind != "reorder"], ids=lambda m: mutation_id(m))
def test_compiler_follows_mutation(m: Mutation) -> None:
    shared_path("cards", "dice-cards.json")
    out = compile_mutation(m)
    problems = []
    if out["unsupported"]:
        problems.append(f"unsupported: expected [], got {out['unsupported']!r}")
    if len(out["rolls"]) != m.rolls:
        problems.append(f"rolls: expected {m.rolls}, got {len(out['rolls'])}")
    if out["rolls"]:
        roll = out["rolls"][0]
        for key, want in {**m.base, **m.expect}.items():
            if isinstance(want, dict):
                continue  # a {"re": ...} golden value; not re-checked here
            if roll.get(key) != want:
                problems.append(f"rolls[0].{key}: expected {want!r}, got {roll.get(key)!r}")
    assert not problems, f"{m.card} [{m.kind}]\n{m.text}\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("m", [m for m in MUTATIONS if m.kind == "reorder"], ids=lambda m: mutation_id(m))
def test_rows_out_of_order_are_reported(m: Mutation) -> None:
    """DESIGN.md §3.7: tables are checked when compiled (rows disjoint, in order)."""
    out = compile_mutation(m)
    assert out["unsupported"], f"{m.card}: rows out of order were not reported\n{m.text}"
    for roll in out["rolls"]:
        if roll.get("table") is not None and sorted(map(tuple, m.printed_table or [])) == sorted(
            map(tuple, roll["table"])
        ):
            assert roll["table"] == m.printed_table, f"{m.card}: table re-sorted instead of printed order"
