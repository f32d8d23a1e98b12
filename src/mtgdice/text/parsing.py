"""A small parsing library for the dice language: tokens, productions, and their composition.

The grammar (``grammar.py``) is written with these combinators; this module knows nothing of dice.
A sentence is read as tokens (:func:`tokenize`: words, numbers, ``~``, symbols like ``{chaos}``,
single punctuation marks), never as characters, and a production is a parser over them:

- :func:`words` a phrase or one of several ("a", "an", "that many"), :func:`token` a kind of token
  (a number, a die size), :func:`seq`, :func:`alt`, :func:`opt`, :func:`many`, :func:`span` (tokens
  kept as text, up to a stop word or to where another part reads), :func:`somewhere`,
  :func:`ahead` / :func:`not_ahead` / :func:`peek`, :data:`END`;
- :func:`cap` names a part (the value of the production it is, or the text it covers);
- :class:`Rule` is a named production with an optional ``build`` that turns its named parts into a
  value (a :class:`~mtgdice.rules.Condition`, a count ...) or rejects the reading.

Inside a production the parsers are those of a parsing expression grammar: one reading at a place,
alternatives tried in the order written, optional parts and repeats taken whenever they read, a
span ending at the first place its terminator reads. Which *whole* productions read a sentence,
and what happens when two do, is the grammar's business (``grammar.read``): there no production is
tried first.

What it leaves out: error recovery and left recursion (no production of the dice language needs
them). A reading costs time bounded by its sentence: each repeat consumes a token, and readings are
remembered per sentence and production.

>>> number = Rule("N", cap("n", token("number", r"\\d+")), build=lambda f: int(f["n"]))
>>> dice = Rule("DICE", seq(opt(cap("count", number)), cap("sides", token("die", r"d\\d+"))))
>>> sentence = tokenize("roll 2 d6 or d8")
>>> end, value = dice.read(sentence, 1)
>>> end, dict(value)
(3, {'count': 2, 'sides': 'd6'})
>>> dice.read(sentence, 0), dice.read(sentence, 4)[0]
(None, 5)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from typing import Any, TypeVar, cast

from mtgdice.text.nodes import Node

_TOKEN = re.compile(r"\{[^{}\s]*\}|'(?:s|ve|re|ll|d|t|m)\b|\w+|\S")
"""A symbol in braces, a clitic ("'s" of "die's" and "~'s", "'ve"), a word (letters and digits), or
any other single character: "6-sided" is "6", "-", "sided", as a word boundary reads it."""

Caps = tuple[tuple[str, object], ...]
"""The named parts of a reading, in text order: each the value a production built, or the words
it covers (a ``str``)."""
Result = tuple[int, Caps]
"""Where a reading ends, and its named parts."""
Reading = tuple[int, object, Caps]
"""A production's reading, remembered per sentence: where it ends, its value, and the productions
it used (while tracing)."""


class Sentence:
    """A sentence as tokens, with where each starts and ends in its text (for the parts kept as text)."""

    __slots__ = ("text", "words", "vocabulary", "memo", "_starts", "_ends")

    def __init__(self, text: str) -> None:
        self.text = text
        self.words: tuple[str, ...] = tuple(_TOKEN.findall(text))
        self.vocabulary = frozenset(self.words)
        self.memo: dict[int, Reading | None] = {}
        self._starts: tuple[int, ...] | None = None
        self._ends: tuple[int, ...] = ()

    def __len__(self) -> int:
        return len(self.words)

    def _spans(self) -> tuple[int, ...]:
        # Tokens cover every character but white space, so each starts at the next place it occurs
        # (faster than asking the pattern for the spans again).
        starts: list[int] = []
        ends: list[int] = []
        find, position = self.text.index, 0
        for word in self.words:
            position = find(word, position)
            starts.append(position)
            position += len(word)
            ends.append(position)
        self._starts, self._ends = tuple(starts), tuple(ends)
        return self._starts

    @property
    def starts(self) -> tuple[int, ...]:
        """Where each token starts in the text."""
        return self._starts if self._starts is not None else self._spans()

    @property
    def ends(self) -> tuple[int, ...]:
        """Where each token ends in the text."""
        if self._starts is None:
            self._spans()
        return self._ends

    def between(self, start: int, end: int) -> str:
        """The text of tokens ``start`` to ``end`` (exclusive), as written."""
        if end <= start:
            return ""
        starts = self._starts if self._starts is not None else self._spans()
        return self.text[starts[start] : self._ends[end - 1]]

    def spaced(self, i: int) -> bool:
        """Whether white space stands before token ``i`` (and after the token before it)."""
        if not 0 < i < len(self.words):
            return False
        starts = self._starts if self._starts is not None else self._spans()
        return self._ends[i - 1] < starts[i]

    def __repr__(self) -> str:
        return f"Sentence({self.text!r})"


def tokenize(text: str) -> Sentence:
    """The tokens of a sentence in matching form.

    >>> tokenize("roll a 6-sided die, then add ~'s power").words
    ('roll', 'a', '6', '-', 'sided', 'die', ',', 'then', 'add', '~', "'s", 'power')
    """
    return Sentence(text)


class Parser:
    """A production or a part of one: ``parse(sentence, i)`` is its reading from token ``i``, if any."""

    __slots__ = ()

    def parse(self, s: Sentence, i: int) -> Result | None:
        raise NotImplementedError

    def first(self) -> frozenset[str] | None:
        """The words a reading can start with (``None``: any)."""
        return None

    def nullable(self) -> bool:
        """Whether it can read no token at all."""
        return False

    def clauses(self) -> tuple[frozenset[str], ...]:
        """Sets of words, each of which a sentence must share a word with for a reading to exist."""
        return ()

    def notation(self) -> str:
        raise NotImplementedError


def _starts(parser: Parser) -> frozenset[str] | None:
    """The words a reading must start with, when it must start with a word."""
    return None if parser.nullable() else parser.first()


# -- tokens ---------------------------------------------------------------------------------------


@cache
def _phrase(phrase: str) -> tuple[str, ...]:
    """A phrase's tokens, as :func:`tokenize` reads them (many productions share phrases)."""
    return tuple(_TOKEN.findall(phrase))


class Words(Parser):
    """One of several phrases, each a run of tokens ("that many", "1 or more"); the longest that reads."""

    __slots__ = ("phrases", "_by_first", "_first", "_clauses")

    def __init__(self, phrases: tuple[str, ...]) -> None:
        self.phrases = tuple([_phrase(phrase) for phrase in phrases])
        if not all(self.phrases):
            raise ValueError(f"words: an empty phrase in {phrases!r}")
        self._by_first: dict[str, tuple[tuple[str, ...], ...]]
        if len(self.phrases) == 1:  # most parts are one phrase
            only = self.phrases[0]
            self._by_first = {only[0]: (only[1:],)}
        else:
            by_first: dict[str, list[tuple[str, ...]]] = {}
            for phrase in sorted(self.phrases, key=len, reverse=True):
                by_first.setdefault(phrase[0], []).append(phrase[1:])
            self._by_first = {word: tuple(rests) for word, rests in by_first.items()}
        self._first = frozenset(self._by_first)
        self._clauses: tuple[frozenset[str], ...] | None = None

    def parse(self, s: Sentence, i: int) -> Result | None:
        words = s.words
        if i >= len(words):
            return None
        rests = self._by_first.get(words[i])
        if rests is None:
            return None
        for rest in rests:
            if not rest:
                return (i + 1, ())
            j = i + 1
            if words[j : j + len(rest)] == rest:
                return (j + len(rest), ())
        return None

    def first(self) -> frozenset[str]:
        return self._first

    def clauses(self) -> tuple[frozenset[str], ...]:
        # Remembered: one phrase is a part of many productions (``_phrase_parser``).
        if self._clauses is None:
            if len(self.phrases) == 1:
                self._clauses = tuple([frozenset({word}) for word in dict.fromkeys(self.phrases[0])])
            else:
                self._clauses = (self._first,)
        return self._clauses

    def notation(self) -> str:
        shown = [" ".join(phrase) for phrase in self.phrases]
        return shown[0] if len(shown) == 1 else "(" + " | ".join(shown) + ")"


class Token(Parser):
    """One token of a kind, told by a regular expression over the token alone (a number, a die size)."""

    __slots__ = ("name", "pattern", "_fullmatch")

    def __init__(self, name: str, pattern: str) -> None:
        self.name, self.pattern = name, pattern
        # Compiled when first asked: compiling a pattern costs more than most sentences' readings,
        # and a process that reads no sentence with this kind of token never pays for it.
        self._fullmatch: Callable[[str], re.Match[str] | None] = self._compiled

    def _compiled(self, word: str) -> re.Match[str] | None:
        self._fullmatch = re.compile(self.pattern).fullmatch
        return self._fullmatch(word)

    def parse(self, s: Sentence, i: int) -> Result | None:
        if i < len(s.words) and self._fullmatch(s.words[i]):
            return (i + 1, ())
        return None

    def matches(self, word: str) -> bool:
        return self._fullmatch(word) is not None

    def notation(self) -> str:
        return f"<{self.name}>"


class _End(Parser):
    __slots__ = ()

    def parse(self, s: Sentence, i: int) -> Result | None:
        return (i, ()) if i == len(s.words) else None

    def nullable(self) -> bool:
        return True

    def notation(self) -> str:
        return "$"


END: Parser = _End()
"""The end of the sentence."""


class Span(Parser):
    """At least ``least`` tokens kept as text, none of them in ``stop``: up to the first place where
    ``until`` reads (a span that must be followed by something), or as far as it can go."""

    __slots__ = ("least", "stop", "until")

    def __init__(self, least: int, stop: frozenset[str], until: Parser | None) -> None:
        self.least, self.stop, self.until = least, stop, until

    def parse(self, s: Sentence, i: int) -> Result | None:
        words, stop, until = s.words, self.stop, self.until
        n = len(words)
        j = i
        if until is None:
            while j < n and words[j] not in stop:
                j += 1
            return (j, ()) if j - i >= self.least else None
        j = i + self.least
        if j > n or any(word in stop for word in words[i:j]):
            return None
        starts = _starts(until)
        while True:
            if (starts is None or (j < n and words[j] in starts)) and until.parse(s, j) is not None:
                return (j, ())
            if j >= n or words[j] in stop:
                return None
            j += 1

    def nullable(self) -> bool:
        return self.least == 0

    def notation(self) -> str:
        what = "text" if not self.stop else "text without " + " ".join(sorted(self.stop))
        until = f" up to {self.until.notation()}" if self.until is not None else ""
        return f"<{what}{until}>" + ("?" if self.least == 0 else "")


class _Chunk(Parser):
    """Tokens with no white space between them: what a text writes as one word ("+1/+1", "6-sided")."""

    __slots__ = ()

    def parse(self, s: Sentence, i: int) -> Result | None:
        n = len(s.words)
        if i >= n:
            return None
        j = i + 1
        while j < n and not s.spaced(j):
            j += 1
        return (j, ())

    def notation(self) -> str:
        return "<word>"


CHUNK: Parser = _Chunk()
"""One word as written: tokens with no white space between them."""


class _Rest(Parser):
    __slots__ = ()

    def parse(self, s: Sentence, i: int) -> Result | None:
        return (len(s.words), ()) if i < len(s.words) else None

    def notation(self) -> str:
        return "<text>"


REST: Parser = _Rest()
"""The rest of the sentence (at least one token), kept as text."""


# -- composition ------------------------------------------------------------------------------------


class Seq(Parser):
    __slots__ = ("parts", "_starts", "_nullable")

    def __init__(self, parts: tuple[Parser, ...]) -> None:
        self.parts = parts
        # What a parent asks again and again, worked out once (a part is complete when made).
        # The words a reading must start with are the first words: none when every part may be empty.
        self._nullable = all([part.nullable() for part in parts])
        self._starts = self._first_words()

    def parse(self, s: Sentence, i: int) -> Result | None:
        starts = self._starts
        if starts is not None and (i >= len(s.words) or s.words[i] not in starts):
            return None
        caps: Caps = ()
        for part in self.parts:
            found = part.parse(s, i)
            if found is None:
                return None
            i, more = found
            if more:
                caps = caps + more if caps else more
        return (i, caps)

    def _first_words(self) -> frozenset[str] | None:
        found: set[str] = set()
        for part in self.parts:
            part_first = part.first()
            if part_first is None:
                return None
            found |= part_first
            if not part.nullable():
                return frozenset(found)
        return None

    def first(self) -> frozenset[str] | None:
        return self._starts

    def nullable(self) -> bool:
        return self._nullable

    def clauses(self) -> tuple[frozenset[str], ...]:
        return tuple(dict.fromkeys(clause for part in self.parts for clause in part.clauses()))

    def notation(self) -> str:
        return " ".join(part.notation() for part in self.parts)


class Alt(Parser):
    """The first of the options that reads here."""

    __slots__ = ("options", "_by_word", "_anywhere", "_first", "_nullable")

    def __init__(self, options: tuple[Parser, ...]) -> None:
        self.options = options
        firsts = [option.first() for option in options]
        nullables = [option.nullable() for option in options]
        self._nullable = any(nullables)
        known = [first for first in firsts if first is not None]
        self._first = frozenset().union(*known) if len(known) == len(firsts) else None
        # The options worth trying at a word, in order: those that may start with it, and those
        # that may start anywhere (in every list, and alone for a word no option starts with).
        anywhere: list[Parser] = []
        by_word: dict[str, list[Parser]] = {}
        for option, first, nullable in zip(options, firsts, nullables, strict=True):
            if first is None or nullable:
                anywhere.append(option)
                for listed in by_word.values():
                    listed.append(option)
                continue
            for word in first:
                listed_here = by_word.get(word)
                if listed_here is None:
                    by_word[word] = listed_here = list(anywhere)
                listed_here.append(option)
        self._anywhere = tuple(anywhere)
        self._by_word = {word: tuple(listed) for word, listed in by_word.items()}

    def parse(self, s: Sentence, i: int) -> Result | None:
        options = self._by_word.get(s.words[i], self._anywhere) if i < len(s.words) else self._anywhere
        for option in options:
            found = option.parse(s, i)
            if found is not None:
                return found
        return None

    def first(self) -> frozenset[str] | None:
        return self._first

    def nullable(self) -> bool:
        return self._nullable

    def clauses(self) -> tuple[frozenset[str], ...]:
        found: set[str] = set()
        for option in self.options:
            clauses = option.clauses()
            if not clauses:
                return ()
            found |= min(clauses, key=len)
        return (frozenset(found),)

    def notation(self) -> str:
        return "(" + " | ".join(option.notation() for option in self.options) + ")"


class Opt(Parser):
    __slots__ = ("part",)

    def __init__(self, part: Parser) -> None:
        self.part = part

    def parse(self, s: Sentence, i: int) -> Result | None:
        found = self.part.parse(s, i)
        return (i, ()) if found is None else found

    def first(self) -> frozenset[str] | None:
        return self.part.first()

    def nullable(self) -> bool:
        return True

    def notation(self) -> str:
        return "[" + self.part.notation() + "]"


class Many(Parser):
    """``part`` repeated as often as it reads (at least ``least`` times)."""

    __slots__ = ("part", "least")

    def __init__(self, part: Parser, least: int) -> None:
        self.part, self.least = part, least

    def parse(self, s: Sentence, i: int) -> Result | None:
        caps: Caps = ()
        times = 0
        while (found := self.part.parse(s, i)) is not None and found[0] > i:
            i, more = found
            caps += more
            times += 1
        return (i, caps) if times >= self.least else None

    def first(self) -> frozenset[str] | None:
        return self.part.first()

    def nullable(self) -> bool:
        return self.least == 0 or self.part.nullable()

    def clauses(self) -> tuple[frozenset[str], ...]:
        return self.part.clauses() if self.least else ()

    def notation(self) -> str:
        return "{" + self.part.notation() + "}" + ("+" if self.least else "")


class Ahead(Parser):
    """A lookahead: ``part`` must (or, ``negated``, must not) read here; it consumes nothing."""

    __slots__ = ("part", "negated")

    def __init__(self, part: Parser, negated: bool) -> None:
        self.part, self.negated = part, negated

    def parse(self, s: Sentence, i: int) -> Result | None:
        found = self.part.parse(s, i)
        if self.negated:
            return None if found is not None else (i, ())
        return None if found is None else (i, found[1])

    def nullable(self) -> bool:
        return True

    def clauses(self) -> tuple[frozenset[str], ...]:
        return () if self.negated else self.part.clauses()

    def notation(self) -> str:
        return ("!" if self.negated else "&") + "(" + self.part.notation() + ")"


class Peek(Parser):
    """An optional lookahead: the named parts of ``part`` here, if it reads; it consumes nothing."""

    __slots__ = ("part",)

    def __init__(self, part: Parser) -> None:
        self.part = part

    def parse(self, s: Sentence, i: int) -> Result | None:
        found = self.part.parse(s, i)
        return (i, found[1] if found is not None else ())

    def nullable(self) -> bool:
        return True

    def notation(self) -> str:
        return "[&(" + self.part.notation() + ")]"


class Somewhere(Parser):
    """``part`` at the first place it reads, from here on, with any text before and after it: it
    reads to the end of the sentence (the named parts are ``part``'s)."""

    __slots__ = ("part", "_starts")

    def __init__(self, part: Parser) -> None:
        self.part = part
        self._starts = _starts(part)

    def parse(self, s: Sentence, i: int) -> Result | None:
        words, starts, part = s.words, self._starts, self.part
        for j in range(i, len(words)):
            if starts is not None and words[j] not in starts:
                continue
            found = part.parse(s, j)
            if found is not None:
                return (len(words), found[1])
        return None

    def clauses(self) -> tuple[frozenset[str], ...]:
        return self.part.clauses()

    def notation(self) -> str:
        return "<text> " + self.part.notation() + " <text>"


class Cap(Parser):
    """A named part: the value of the production it is, when that production has a ``build``, else
    the text it covers."""

    __slots__ = ("name", "part")

    def __init__(self, name: str, part: Parser) -> None:
        self.name, self.part = name, part

    def parse(self, s: Sentence, i: int) -> Result | None:
        part = self.part
        if isinstance(part, Rule):
            return part.captured(self.name, s, i)
        found = part.parse(s, i)
        if found is None:
            return None
        end, caps = found
        return (end, (*caps, (self.name, s.between(i, end))))

    def first(self) -> frozenset[str] | None:
        return self.part.first()

    def nullable(self) -> bool:
        return self.part.nullable()

    def clauses(self) -> tuple[frozenset[str], ...]:
        return self.part.clauses()

    def notation(self) -> str:
        return self.part.notation()


# -- named productions -----------------------------------------------------------------------------


_V = TypeVar("_V")


class Fields(Mapping[str, Any]):
    """The named parts of a reading of a production, and the text it covers.

    A name given twice (``cap`` inside a repeat) keeps its first value here; :meth:`all` has every one.
    A part is the value its production built, or the words it covers (a ``str``). The typed
    readings check what a part is: :meth:`words_of` the words, :meth:`value` a built value of a
    kind (``None`` when the part is absent, :meth:`needed` when it must be there); reading by
    name (``f["count"]``) gives the part unchecked, for a build that knows its production.

    >>> number = Rule("N_EXAMPLE", cap("n", token("number", r"\\d+")), build=lambda f: int(f.words_of("n")))
    >>> dice = Rule("DICE_EXAMPLE", seq(cap("count", number), cap("sides", token("die", r"d\\d+"))))
    >>> fields = dice.read(tokenize("2 d6"))[1]
    >>> fields.value("count", int), fields.words_of("sides"), fields.value("sides", int)
    (2, 'd6', None)
    >>> fields.needed("sides", int)
    Traceback (most recent call last):
    TypeError: part 'sides' of '2 d6' is 'd6', not a int
    """

    __slots__ = ("_caps", "_first", "sentence", "start", "end")

    def __init__(self, caps: Caps, sentence: Sentence, start: int, end: int) -> None:
        self._caps = caps
        first: dict[str, object] = {}
        for name, value in caps:
            if name not in first and name != "#":
                first[name] = value
        self._first = first
        self.sentence, self.start, self.end = sentence, start, end

    def __getitem__(self, name: str) -> Any:
        return self._first[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._first)

    def __len__(self) -> int:
        return len(self._first)

    def get(self, name: str, default: Any = None) -> Any:
        return self._first.get(name, default)

    def all(self, name: str) -> list[Any]:
        return [value for key, value in self._caps if key == name]

    def words_of(self, name: str, default: str = "") -> str:
        """The words of a part kept as text (``default`` when the reading has no such part)."""
        found = self._first.get(name, default)
        if not isinstance(found, str):
            raise TypeError(f"part {name!r} of {self.text!r} is a {type(found).__name__}, not words")
        return found

    def value(self, name: str, kind: type[_V]) -> _V | None:
        """The value of a part built by its production, if it is a ``kind`` (else ``None``: absent,
        or another production's value, or words)."""
        found = self._first.get(name)
        return found if isinstance(found, kind) else None

    def needed(self, name: str, kind: type[_V]) -> _V:
        """The value of a part that must be there and be a ``kind``."""
        found = self._first.get(name)
        if not isinstance(found, kind):
            raise TypeError(f"part {name!r} of {self.text!r} is {found!r}, not a {kind.__name__}")
        return found

    @property
    def text(self) -> str:
        """The words the reading covers."""
        return self.sentence.between(self.start, self.end)

    def __repr__(self) -> str:
        return f"Fields({self._first!r})"


REJECT: Any = object()
"""What a production's ``build`` returns for a reading its words allow but its numbers do not."""


class Refused(Node):
    """A reading whose numbers the rules refuse (a die of 0 sides, a 19-digit count): the reason."""

    reason: str


_traces: list[set[str]] = []
"""The sets of production names being filled by :func:`tracing`, innermost last."""
_rules: list[Rule] = []
_MEMO_STRIDE = 4096
"""Memo keys are ``token * stride + production``: more productions than this would need a larger stride."""


class Rule(Parser):
    """A named production of the grammar: its body, and what a reading of it means (``build``).

    ``build`` takes the reading's :class:`Fields` and returns its value, or :data:`REJECT`; a
    :class:`~mtgdice.rules.errors.CardTextError` or ``ValueError`` it raises becomes a
    :class:`Refused` value (the grammar read the words; the rules refuse the numbers). Without
    ``build`` the value is the :class:`Fields` themselves. Readings are remembered per sentence.
    """

    __slots__ = ("name", "body", "build", "doc", "_id", "_first", "_clauses", "_nullable")

    def __init__(self, name: str, body: Parser, build: Callable[[Fields], Any] | None = None, doc: str = "") -> None:
        self.name, self.body, self.build, self.doc = name, body, build, doc
        self._id = len(_rules)
        if self._id >= _MEMO_STRIDE:
            raise ValueError("rule: more productions than the memo's stride")
        _rules.append(self)
        self._first, self._clauses, self._nullable = body.first(), body.clauses(), body.nullable()

    def _reading(self, s: Sentence, i: int) -> Reading | None:
        """(end, value, what a parent keeps: the productions used, when tracing), remembered per
        sentence. The value of a production without ``build`` is its named parts."""
        first = self._first
        if first is not None and not self._nullable and (i >= len(s.words) or s.words[i] not in first):
            return None
        key = i * _MEMO_STRIDE + self._id
        memo = s.memo
        if key in memo:
            return memo[key]
        memo[key] = None  # a production that reaches itself at the same token reads nothing there
        found = self.body.parse(s, i)
        reading: Reading | None = None
        if found is not None:
            end, caps = found
            value: object = caps
            if self.build is not None:
                try:
                    value = self.build(Fields(caps, s, i, end))
                except ValueError as error:  # CardTextError is a ValueError
                    value = Refused(str(error).splitlines()[0][:200] if str(error) else type(error).__name__)
            if value is not REJECT:
                kept: Caps = (("#", self.name), *(c for c in caps if c[0] == "#")) if _traces else ()
                reading = (end, value, kept)
        memo[key] = reading
        return reading

    def _value(self, s: Sentence, i: int, end: int, value: object) -> Any:
        # The value of a production without ``build`` is its named parts (``Caps``).
        return Fields(cast("Caps", value), s, i, end) if self.build is None else value

    def read(self, s: Sentence, i: int = 0) -> tuple[int, Any] | None:
        """The reading at ``i``: where it ends and its value (while :func:`tracing`, the productions
        it used are noted: a reading asked for here is one the caller uses)."""
        reading = self._reading(s, i)
        if reading is None:
            return None
        end, value, kept = reading
        note(_used(kept))
        return end, self._value(s, i, end, value)

    def attempt(self, s: Sentence, i: int = 0) -> tuple[int, Any, tuple[str, ...]] | None:
        """The reading at ``i`` as a candidate, noted nowhere: where it ends, its value, and the
        productions it used (recorded while :func:`tracing`)."""
        reading = self._reading(s, i)
        if reading is None:
            return None
        end, value, kept = reading
        return end, self._value(s, i, end, value), _used(kept)

    def whole(self, s: Sentence, i: int = 0) -> tuple[Any, tuple[str, ...]] | None:
        """The reading from ``i`` when it runs to the end of the sentence, and the productions it
        used (noted while :func:`tracing`, as :meth:`read` does)."""
        found = self.attempt(s, i)
        if found is None or found[0] != len(s.words):
            return None
        _end, value, used = found
        note(used)
        return value, used

    def parse(self, s: Sentence, i: int) -> Result | None:
        reading = self._reading(s, i)
        return None if reading is None else (reading[0], reading[2])

    def captured(self, name: str, s: Sentence, i: int) -> Result | None:
        """The reading as a named part (``cap``): the value, or the text when there is no ``build``."""
        reading = self._reading(s, i)
        if reading is None:
            return None
        end, value, kept = reading
        return (end, ((name, value if self.build is not None else s.between(i, end)), *kept))

    def first(self) -> frozenset[str] | None:
        return self._first

    def nullable(self) -> bool:
        return self._nullable

    def clauses(self) -> tuple[frozenset[str], ...]:
        return self._clauses

    def may_read(self, s: Sentence, i: int = 0) -> bool:
        """A quick test that never says no to a sentence the production reads (its first and needed words)."""
        first = self._first
        if first is not None and not self._nullable and (i >= len(s.words) or s.words[i] not in first):
            return False
        vocabulary = s.vocabulary
        for clause in self._clauses:
            if clause.isdisjoint(vocabulary):
                return False
        return True

    def notation(self) -> str:
        return self.name

    def production(self) -> str:
        """The production in grammar notation: ``NAME := body``.

        >>> Rule("COUNT", alt(words("a", "an"), token("N", r"\\d+"))).production()
        'COUNT := ((a | an) | <N>)'
        """
        return f"{self.name} := {self.body.notation()}"

    def __repr__(self) -> str:
        return f"Rule({self.name!r})"


def _used(kept: Caps) -> tuple[str, ...]:
    """The names of the productions a reading used, from what it kept while tracing (``("#", name)``)."""
    return tuple([name for _key, name in kept if isinstance(name, str)]) if kept else ()


@contextmanager
def tracing() -> Iterator[set[str]]:
    """While the block runs, readings record the productions they used, and the names of those
    used by the readings the caller took (:meth:`Rule.read`, :meth:`Rule.whole`, :func:`note`)
    gather in the set it gives.

    >>> rule = Rule("TRACED_EXAMPLE", words("roll"))
    >>> with tracing() as used:
    ...     _ = rule.read(tokenize("roll"))
    >>> sorted(used)
    ['TRACED_EXAMPLE']
    """
    used: set[str] = set()
    _traces.append(used)
    try:
        yield used
    finally:
        _traces.pop()


def note(names: tuple[str, ...]) -> None:
    """Note the productions a reading the caller took used (while :func:`tracing`)."""
    if _traces:
        _traces[-1].update(names)


# -- constructors: how the grammar is written -------------------------------------------------------

Part = Parser | str
"""A part of a production; a string is a phrase (its words in a row)."""


def _part(part: Part) -> Parser:
    return _phrase_parser(part) if isinstance(part, str) else part


@cache
def _phrase_parser(phrase: str) -> Words:
    """One phrase as a part (a parser holds no state, so productions share it)."""
    return Words((phrase,))


def words(*phrases: str) -> Parser:
    """One of several phrases: ``words("a", "an", "that many")`` (the longest that reads)."""
    return _words(phrases)


@cache
def _words(phrases: tuple[str, ...]) -> Words:
    """The same phrases are one part, shared (as :func:`_phrase_parser`: a parser holds no state)."""
    return Words(phrases)


def token(name: str, pattern: str) -> Token:
    """A token of a kind, told by a regular expression over the token alone."""
    return Token(name, pattern)


def seq(*parts: Part) -> Parser:
    """Parts in a row."""
    if len(parts) == 1:
        return _part(parts[0])
    return Seq(tuple([_phrase_parser(part) if isinstance(part, str) else part for part in parts]))


def alt(*options: Part) -> Parser:
    """The first of several parts that reads."""
    return Alt(tuple([_phrase_parser(option) if isinstance(option, str) else option for option in options]))


def opt(*parts: Part) -> Parser:
    """Parts that may be left out (taken when they read)."""
    return Opt(seq(*parts))


def many(*parts: Part, least: int = 0) -> Parser:
    """Parts repeated as often as they read, at least ``least`` times."""
    return Many(seq(*parts), least)


def span(least: int = 1, stop: str = "", until: Part | None = None) -> Parser:
    """Tokens kept as text, none of them one of the space-separated ``stop`` tokens: up to where
    ``until`` first reads, or as far as they go."""
    return Span(least, frozenset(stop.split()), None if until is None else _part(until))


def somewhere(*parts: Part) -> Parser:
    """The parts at the first place they read, with any text before and after: to the end of the sentence."""
    return Somewhere(seq(*parts))


def rest() -> Parser:
    """The rest of the sentence, at least one token."""
    return REST


def ahead(*parts: Part) -> Parser:
    """The parts must read here; nothing is consumed (their named parts are kept)."""
    return Ahead(seq(*parts), negated=False)


def not_ahead(*parts: Part) -> Parser:
    """The parts must not read here; nothing is consumed."""
    return Ahead(seq(*parts), negated=True)


def peek(*parts: Part) -> Parser:
    """The named parts of what the parts read here, if they do; nothing is consumed, and nothing is required."""
    return Peek(seq(*parts))


def cap(name: str, *parts: Part) -> Parser:
    """Name a part: its value when it is one :class:`Rule` with a ``build``, else its text."""
    return Cap(name, seq(*parts))


def either(name: str, *productions: Rule) -> Parser:
    """The first of several productions that reads, its value named ``name``."""
    return alt(*(cap(name, production) for production in productions))
