"""Printed card text in another language → canonical English dice sentences.

The English compiler reads one language. Cards printed in German, Spanish, French, Italian,
Portuguese, Japanese, Korean, Russian and Chinese say the same dice instructions with other words,
and those words live in data: one lexicon per language in ``text/lexicons/<code>.json``. This module
is the generic machine that reads them:

1. :func:`detect_language` tells the language of a text: English when it has the English dice
   words ("roll"), else from its script (kana, Hangul, Cyrillic, Han) and, for Latin script, from
   each lexicon's characteristic words.
2. :func:`to_english` normalises each sentence (NFKC folds full-width digits and punctuation, lower
   case, number words as digits, die words as ``dN``) and matches it against the lexicon's sentence
   patterns, each a regular expression with an English template. Table rows ("1—9 | …",
   "5 — …") are language-neutral and kept with their numbers; "roll again" inside a row is
   translated. Sentences that do not mention dice are dropped.
3. :func:`compile_foreign` compiles the English and reports, in ``unsupported``, every foreign dice
   sentence that no pattern understood.

What it leaves out: the non-dice parts of an ability (targets, tokens, damage) are not translated;
an effect after "whenever you roll …," is kept in its own language unless it is itself a dice
instruction.

Lexicon format (all keys optional except ``code``):

- ``signature`` (English only): a regex; a text it finds is English, whatever else it holds.
- ``script``: a regex character class; a text with such characters is in this language when
  ``script_exclusive`` is true (kana, Hangul, Cyrillic), else in the lexicon sharing that script
  whose ``markers`` it uses most (Han: Simplified or Traditional Chinese).
- ``markers`` / ``strong_markers``: words (or, for Han script, characters) counted for detection.
- ``word_boundaries``: whether number words must stand alone (Latin and Cyrillic) or may touch
  other characters (Japanese and Chinese); ``number_context`` overrides the boundary pattern.
- ``numbers``: number word → value.
- ``macros``: named regex fragments, used as ``{NAME}`` in patterns.
- ``replace``: ``[regex, replacement]`` pairs run over the whole sentence before numbers are read;
  a replacement's ``{n}`` is the group ``n`` read as a number (``sechsseitigen Würfel`` → ``d6``).
- ``sentences``: ``[regex, template]``: the whole (normalised) sentence must match; the template
  fills ``{count}``, ``{die}``, ``{tail}``, ``{effect}``, ``{cond}``, ``{amount}``, ``{n}``,
  ``{value}`` from the groups of the same name.
- ``tails``, ``conditions``, ``amounts``, ``row_phrases``: ``[regex, English]`` fragments for what
  follows a roll, what a trigger looks for, a modifier's amount, and phrases inside table rows.
- ``level``: a regex with ``{N}`` for a Class card's level line after its cost ("Stufe 2").
- ``dice_words``: a regex that tells a sentence mentions dice (``dN`` always does); such a sentence
  that no pattern reads is returned as untranslated.
- ``coin_words``: a regex for coins and flips (CR 705), read by ``text.detector`` with ``dice_words``:
  a sentence about coins that no pattern reads is returned as untranslated too.

A group may be named ``n2``, ``count2`` ... where a pattern needs ``n`` twice in alternatives.
"""

from __future__ import annotations

import json
import re
import unicodedata
from contextvars import ContextVar
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

from mtgdice.rules.errors import CardTextError
from mtgdice.text import detector
from mtgdice.text import grammar as g
from mtgdice.text.compiler import MAX_TEXT, CompiledCard, compile_text
from mtgdice.text.normalize import NUMBER_WORDS, standard_punctuation, strip_reminder
from mtgdice.text.parsing import tokenize

_ENGLISH_NUMBER = {value: word for word, value in NUMBER_WORDS.items() if " " not in word and value <= 20}


def _english_number(digits: str) -> str:
    """ "2" → "two" (the canonical English of counts up to twenty); other numbers stay digits."""
    try:
        return _ENGLISH_NUMBER.get(int(digits), digits)
    except ValueError:
        return digits


LANGUAGES = ("de", "es", "fr", "it", "pt", "ja", "ko", "ru", "zhs", "zht")
"""The languages with a lexicon, as Scryfall's ``lang`` codes."""

_GENERIC_MACROS = {
    "COUNT": r"(?P<count>\d+|x)",
    "DIE": r"d(?P<sides>\d+)",
    "TAIL": r"(?P<tail>.*)",
    "EFFECT": r"(?P<effect>.+)",
    "COND": r"(?P<cond>.+?)",
    "AMOUNT": r"(?P<amount>.+?)",
    "N": r"(?P<n>\d+)",
    "VALUE": r"(?P<value>\d+)",
}
_LONGEST_SENTENCE = 600
"""Longer sentences are not matched (no printed dice sentence is that long; bounded time)."""
_MOST_CLAUSES = 6
"""Clause boundaries tried as the start of a dice instruction ("…, then roll a d20")."""

_COMPILING_TRANSLATION: ContextVar[bool] = ContextVar("_COMPILING_TRANSLATION", default=False)
"""Set while :func:`compile_foreign` compiles its English: that text is never translated again."""

_MACRO = re.compile(r"\{([A-Z][A-Z_0-9]*)\}")
_FIELD = re.compile(r"\{([a-z]+)\}")

_SENTENCE_END = re.compile(r"(?<=[.!?\u3002])\s+|(?<=\u3002)")
_TRAILING = re.compile(r"[\s.!?\u3002]+$")
_CLAUSE = re.compile(r"[,\u3001]\s*")
_COST = re.compile(r"^(?P<cost>\[[^\]]*\]|[+\u2014-]?(?:\d+|x)|[^:.\u3002\"]*\{[^:.\u3002\"]*?)\s*:\s*(?P<body>.+)$")
"""An activated ability's cost: mana and tap symbols (with any words), or a loyalty cost."""
_ABILITY_WORD = re.compile(r"^(?P<word>[^.\u3002|\u2014]{1,60}?)\s+\u2014\s+(?P<rest>\S.*)$")
_RANGE_DASH = re.compile(r"(?<=\d)\s*[~\u301c\uff5e-]\s*(?=\d)")
"""Range dashes other scripts print between a row's numbers ("1〜9", "1~9"): the grammar's em dash."""
_SPLIT_NDM = re.compile(r"(?<![a-z0-9])(\d+|x) ?d(\d+)\b")
_ANY_DIE = re.compile(r"(?<![a-z])d\d+(?![0-9])")


@dataclass(frozen=True, slots=True)
class Lexicon:
    """One language's words and phrase patterns, compiled from its JSON file."""

    code: str
    language: str
    script: re.Pattern[str] | None
    script_exclusive: bool
    markers: frozenset[str]
    strong_markers: frozenset[str]
    numbers: tuple[tuple[re.Pattern[str], str], ...]
    number_values: dict[str, int]
    replace: tuple[tuple[re.Pattern[str], str], ...]
    sentences: tuple[tuple[re.Pattern[str], str], ...]
    tails: tuple[tuple[re.Pattern[str], str], ...]
    conditions: tuple[tuple[re.Pattern[str], str], ...]
    amounts: tuple[tuple[re.Pattern[str], str], ...]
    row_phrases: tuple[tuple[re.Pattern[str], str], ...]
    dice_words: re.Pattern[str] | None
    signature: re.Pattern[str] | None
    level: re.Pattern[str] | None


def _expand(pattern: str, macros: dict[str, str]) -> str:
    previous = None
    while previous != pattern:
        previous = pattern
        pattern = _MACRO.sub(lambda m: macros.get(m.group(1), m.group(0)), pattern)
    return pattern


def _pairs(raw: Any, macros: dict[str, str], code: str, key: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    pairs = []
    for entry in raw or ():
        pattern, template = entry
        try:
            pairs.append((re.compile(_expand(pattern, macros)), template))
        except re.error as error:
            raise ValueError(f"lexicon {code}: {key} pattern {pattern!r} is not a regex: {error}") from error
    return tuple(pairs)


@cache
def lexicon(code: str) -> Lexicon:
    """The lexicon of a language code ("de", "ja", "zhs", ...), loaded once.

    >>> lexicon("de").language
    'German'
    """
    try:
        raw = json.loads(resources.files("mtgdice.text.lexicons").joinpath(f"{code}.json").read_text("utf-8"))
    except FileNotFoundError as error:
        raise ValueError(f"language {code!r}: no lexicon; known: {', '.join(LANGUAGES)}") from error
    macros = dict(_GENERIC_MACROS)
    for name, fragment in (raw.get("macros") or {}).items():
        macros[name] = fragment
    values = {word.lower(): int(value) for word, value in (raw.get("numbers") or {}).items()}
    context = raw.get("number_context") or (r"\b{word}\b" if raw.get("word_boundaries", True) else "{word}")
    numbers = tuple(
        (re.compile(context.replace("{word}", re.escape(word))), str(values[word]))
        for word in sorted(values, key=len, reverse=True)
    )
    script = raw.get("script")
    dice_words = raw.get("dice_words")
    return Lexicon(
        code=raw["code"],
        language=raw.get("language", raw["code"]),
        script=re.compile(script) if script else None,
        script_exclusive=bool(raw.get("script_exclusive", False)),
        markers=frozenset(w.lower() for w in raw.get("markers") or ()),
        strong_markers=frozenset(w.lower() for w in raw.get("strong_markers") or ()),
        numbers=numbers,
        number_values=values,
        replace=_pairs(raw.get("replace"), macros, code, "replace"),
        sentences=_pairs(raw.get("sentences"), macros, code, "sentences"),
        tails=_pairs(raw.get("tails"), macros, code, "tails"),
        conditions=_pairs(raw.get("conditions"), macros, code, "conditions"),
        amounts=_pairs(raw.get("amounts"), macros, code, "amounts"),
        row_phrases=_pairs(raw.get("row_phrases"), macros, code, "row_phrases"),
        dice_words=re.compile(_expand(dice_words, macros)) if dice_words else None,
        signature=re.compile(raw["signature"]) if raw.get("signature") else None,
        level=re.compile(_expand(raw["level"], macros)) if raw.get("level") else None,
    )


# -- language detection ---------------------------------------------------------------------------

_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def detect_language(text: str) -> str:
    """The language of a card text: ``"en"`` or one of :data:`LANGUAGES`.

    English dice words ("roll", "rolls") decide first; then scripts (kana → Japanese, Hangul →
    Korean, Cyrillic → Russian, Han → the Chinese lexicon whose characters it uses most);
    Latin-script text goes to the lexicon whose characteristic words it uses most, English when
    none wins.

    >>> detect_language("Roll a d20."), detect_language("Lancez un d20."), detect_language("d6を３回振る。")
    ('en', 'fr', 'ja')
    """
    if _COMPILING_TRANSLATION.get():
        # A translation keeps foreign effect and row text; compile_text may call back here.
        return "en"
    folded = unicodedata.normalize("NFKC", text).lower()
    english = lexicon("en")
    if english.signature is not None and english.signature.search(folded):
        # Canonical English dice words ("roll") are never printed in another language, so a
        # translation that keeps a foreign effect or table row is still read as English.
        return "en"
    by_script: list[Lexicon] = []
    for code in LANGUAGES:
        lex = lexicon(code)
        if lex.script is not None and lex.script.search(folded):
            by_script.append(lex)
    if by_script:
        # A lexicon whose script is exclusive (kana, Hangul) wins over one that shares Han.
        exclusive = [lex for lex in by_script if lex.script_exclusive]
        if exclusive:
            return exclusive[0].code
        scores = {lex.code: sum(folded.count(ch) for ch in lex.markers) for lex in by_script}
        return max(by_script, key=lambda lex: scores[lex.code]).code
    words = _WORD.findall(folded)
    best, best_score = "en", _score(words, lexicon("en"))
    for code in LANGUAGES:
        lex = lexicon(code)
        if lex.script is not None:
            continue
        score = _score(words, lex)
        if score > best_score:
            best, best_score = code, score
    return best


def _score(words: list[str], lex: Lexicon) -> int:
    return sum(3 if word in lex.strong_markers else 1 if word in lex.markers else 0 for word in words)


# -- normalising ----------------------------------------------------------------------------------


def _fold(text: str) -> str:
    """NFKC (full-width digits, ``＋``, ``｜``), lower case, one dash, straight quotes, one space."""
    text = unicodedata.normalize("NFKC", text).lower().replace("\u00ab", '"').replace("\u00bb", '"')
    return standard_punctuation(text).strip()


def _number(words: str | None, lex: Lexicon) -> str | None:
    if words is None:
        return None
    words = words.strip()
    if words.isdigit() or words == "x":
        return words
    if words in lex.number_values:
        return str(lex.number_values[words])
    for pattern, value in lex.numbers:
        words = pattern.sub(value, words)
    return words


def normalise(sentence: str, lex: Lexicon) -> str:
    """A foreign sentence in the form the lexicon's patterns read.

    >>> normalise("Würfle drei W6 und suche dir ein Ergebnis aus.", lexicon("de"))
    'würfle 3 d6 und suche dir 1 ergebnis aus'
    """
    text = _fold(sentence)
    for pattern, template in lex.replace:
        text = pattern.sub(lambda m, t=template: _fill_plain(t, m, lex), text)  # type: ignore[misc]
    for pattern, value in lex.numbers:
        text = pattern.sub(value, text)
    text = _SPLIT_NDM.sub(r"\1 d\2", text)
    return _TRAILING.sub("", text).strip()


def _fill_plain(template: str, match: re.Match[str], lex: Lexicon) -> str:
    groups = _groups(match)

    def field(m: re.Match[str]) -> str:
        name = m.group(1)
        value = groups.get(name)
        if value is None:
            return ""
        return _number(value, lex) or "" if name in ("n", "count", "sides", "value") else value

    return _FIELD.sub(field, template)


# -- translating ----------------------------------------------------------------------------------


class _NotUnderstood(Exception):
    """A pattern matched but a part of it (a condition) has no English."""


def _fragment(text: str, pairs: tuple[tuple[re.Pattern[str], str], ...], lex: Lexicon) -> str | None:
    for pattern, english in pairs:
        match = pattern.fullmatch(text.strip())
        if match is not None:
            return _fill(english, match, lex)
    return None


def _tail(text: str, lex: Lexicon) -> tuple[str, str]:
    """English for what follows a roll ("and choose one result"), and what was left over."""
    english = ""
    rest = text
    while rest.strip(" ,\u3001"):
        for pattern, template in lex.tails:
            match = pattern.match(rest)
            if match is not None and match.end() > 0:
                english += _fill(template, match, lex)
                rest = rest[match.end() :]
                break
        else:
            break
    return english, rest.strip(" ,\u3001")


def _amount(text: str, lex: Lexicon) -> str:
    words = text.strip()
    if words.isdigit():
        return words
    if words == "x":
        return "X"
    return _fragment(words, lex.amounts, lex) or words


def _groups(match: re.Match[str]) -> dict[str, str | None]:
    """A match's groups, ``n2``, ``count2`` ... read as ``n``, ``count`` (a regex names a group once)."""
    groups: dict[str, str | None] = {}
    for name, value in match.groupdict().items():
        base = name.rstrip("0123456789")
        if groups.get(base) is None:
            groups[base] = value
    return groups


def _fill(template: str, match: re.Match[str], lex: Lexicon) -> str:
    groups = _groups(match)

    def field(m: re.Match[str]) -> str:
        name = m.group(1)
        value = groups.get(name)
        if name == "count":
            count = _number(value, lex)
            if count in (None, "", "1"):
                return "a"
            if count == "x":
                return "X"
            return _english_number(str(count))
        if name == "die":
            return "d" + (_number(groups.get("sides"), lex) or "")
        if value is None:
            return ""
        if name == "n":
            number = _number(value, lex) or ""
            return _english_number(number)
        if name in ("sides", "value"):
            return _number(value, lex) or ""
        if name == "tail":
            english, _rest = _tail(value, lex)
            return english
        if name == "cond":
            condition = _fragment(value, lex.conditions, lex)
            if condition is None:
                raise _NotUnderstood(value)
            return condition
        if name == "amount":
            return _amount(value, lex)
        if name == "effect":
            inner = _translate_sentence(value, lex)
            if inner is None:
                return value.strip()
            return inner[0][:1].lower() + inner[0][1:].rstrip(".")
        return value

    return _FIELD.sub(field, template)


def _translate_sentence(text: str, lex: Lexicon) -> tuple[str, str] | None:
    """(English, leftover) for a normalised sentence, or None when no pattern reads it.

    Tried on the whole sentence first, then on what follows each clause boundary, so that
    "choose a target, then roll a d20" reads as its roll.
    """
    if len(text) > _LONGEST_SENTENCE:
        return None
    starts = [0] + [m.end() for m in _CLAUSE.finditer(text)][: _MOST_CLAUSES - 1]
    for start in starts:
        candidate = text[start:].strip()
        for pattern, template in lex.sentences:
            match = pattern.fullmatch(candidate)
            if match is None:
                continue
            try:
                english = _fill(template, match, lex)
            except _NotUnderstood:
                continue
            leftover = ""
            if "tail" in match.groupdict() and match.group("tail"):
                leftover = _tail(match.group("tail"), lex)[1]
            english = english.strip()
            english = english[:1].upper() + english[1:]
            if not english.endswith("."):
                english += "."
            return english, leftover
    return None


def _mentions_dice(normalised: str, lex: Lexicon) -> bool:
    if _ANY_DIE.search(normalised):
        return True
    return bool(lex.dice_words is not None and lex.dice_words.search(normalised))


def _sentences(paragraph: str) -> list[str]:
    return [part.strip() for part in _SENTENCE_END.split(paragraph) if part.strip()]


_ROW_CUT = re.compile(r"(?<=[.!)\u3002\uff0e])\s*(?=\d+\s*(?:[\u2014\u2013~\u301c-]\s*\d+\s*|\+\s*)?[|\uff5c])")
"""Where a results-table row starts after a sentence end on the same line ("... W20. 1–9 | ..."),
in any language: a table written on one line reads as the same table on its own lines."""


def _row(line: str, lex: Lexicon) -> str | None:
    """A results-table row in English layout, its own text kept (with "roll again" translated)."""
    # The grammar's own row phrases read it, once the printed range dashes are its em dash.
    folded = _RANGE_DASH.sub("\u2014", _fold(line))
    tokens = tokenize(folded)
    found = g.CHART_ROW.whole(tokens) or g.LIST_ROW.whole(tokens)
    if found is None:
        return None
    row: g.RowWords = found[0]
    separator = " \u2014 " if row.listed else " | "
    label = row.low + ("+" if row.open else f"\u2014{row.high}" if row.high else "")
    printed = unicodedata.normalize("NFKC", line)
    original = re.split(r"\s*[|\uff5c]\s*|\s+[\u2014\u2013-]\s+", printed, maxsplit=1)
    text = original[-1].strip() if len(original) > 1 else row.text
    if any(pattern.search(normalise(text, lex)) for pattern, _english in lex.row_phrases):
        text = " ".join(_row_sentence(sentence, lex) for sentence in _sentences(text))
    bullet = "\u2022 " if separator != " | " and folded.startswith("\u2022") else ""
    return f"{bullet}{label}{separator}{text}"


def _row_sentence(sentence: str, lex: Lexicon) -> str:
    """One sentence of a row's text: "roll again" in English, anything else as printed."""
    normalised = normalise(sentence, lex)
    for pattern, english in lex.row_phrases:
        if pattern.fullmatch(normalised):
            return english[:1].upper() + english[1:] + "."
    translated = normalised
    for pattern, english in lex.row_phrases:
        translated = pattern.sub(english, translated)
    return sentence if translated == normalised else translated + "."


def to_english(text: str, lang: str | None = None) -> tuple[str, str, list[str]]:
    """Canonical English for the dice sentences of a printed card text.

    Returns (English text, language code, foreign dice sentences that were not understood).
    Sentences that do not mention dice are dropped; table rows are kept with their numbers.

    >>> to_english("Tira 3d6 y elige un resultado. Roba una carta.")
    ('Roll three d6 and choose one result.', 'es', [])
    """
    if len(text) > MAX_TEXT:
        raise CardTextError(f"text: {len(text)} characters is more than the {MAX_TEXT} a card can have")
    code = lang or detect_language(text)
    if code == "en":
        return text, "en", []
    lex = lexicon(code)
    text = strip_reminder(unicodedata.normalize("NFKC", text))
    entries: list[tuple[str, str]] = []
    untranslated: list[str] = []
    for line in (piece.strip() for raw in text.split("\n") for piece in _ROW_CUT.split(raw)):
        if not line:
            continue
        row = _row(line, lex)
        if row is not None:
            entries.append(("row", row))
            continue
        english, missed = _paragraph(line, lex)
        untranslated.extend(missed)
        # An ability with no dice sentence keeps its place only when rows follow it, so that
        # those rows do not join the roll of an earlier ability (the compiler reports them).
        entries.append(("ability", english) if english else ("placeholder", line))
    lines = [
        line
        for index, (kind, line) in enumerate(entries)
        if kind != "placeholder" or (index + 1 < len(entries) and entries[index + 1][0] == "row")
    ]
    return "\n".join(lines), code, untranslated


def _paragraph(line: str, lex: Lexicon) -> tuple[str, list[str]]:
    cost = ""
    body = line
    match = _COST.match(_fold(line))
    if match is not None:
        cost_text = line.split(":", 1)[0]
        cost, body = cost_text.strip() + ": ", line.split(":", 1)[1].strip()
        level = lex.level.fullmatch(normalise(body, lex)) if lex.level is not None else None
        if level is not None:
            # A Class card's level line: "{1}{R}: Stufe 2" (CR 716).
            return f"{cost}Level {_number(_groups(level).get('n'), lex)}", []
    english: list[str] = []
    missed: list[str] = []
    for sentence in _sentences(body):
        normalised = normalise(sentence, lex)
        result = _translate_sentence(normalised, lex)
        if result is None:
            word = _ABILITY_WORD.match(normalised)
            if word is not None:
                result = _translate_sentence(word.group("rest"), lex)
        if result is None:
            if _mentions_dice(normalised, lex) or detector.speaks(sentence):
                missed.append(sentence)
            continue
        sentence_english, leftover = result
        english.append(sentence_english)
        if leftover and _mentions_dice(leftover, lex):
            missed.append(sentence)
    if not english:
        return "", missed
    return cost + " ".join(english), missed


def compile_foreign(
    text: str, name: str = "", *, lang: str | None = None, layout: str = "normal", type_line: str = ""
) -> CompiledCard:
    """Compile printed text in any language with a lexicon (English is compiled as it is).

    The dice sentences no lexicon pattern understood are added to ``unsupported``. While the
    English is compiled, :func:`detect_language` answers ``"en"``, so a ``compile_text`` that
    translates what it detects as foreign never translates a translation again.

    >>> card = compile_foreign("Lancez trois d6 et choisissez un résultat.")
    >>> card.rolls[0].count.constant, card.rolls[0].die.sides, card.rolls[0].choose
    (3, 6, True)
    """
    english, code, untranslated = to_english(text, lang)
    token = _COMPILING_TRANSLATION.set(True)
    try:
        card = compile_text(text if code == "en" else english, name=name, layout=layout, type_line=type_line)
    finally:
        _COMPILING_TRANSLATION.reset(token)
    if not untranslated:
        return card
    return replace(card, unsupported=card.unsupported + tuple(untranslated))
