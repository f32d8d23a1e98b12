"""The grammar of dice on cards: the dice language, as named productions composed of smaller ones.

The compiler (``compiler.py``) reads each sentence of an ability through these productions, on the
tokens of its matching form (``normalize.for_matching``: lower case, number words as digits, every
dash an em dash, the card's own name or "this creature" as ``~``; ``parsing.tokenize``: words,
numbers, ``~``, symbols like ``{chaos}``, punctuation). A production is a wording family of the
language, never one card's sentence: a test runs every production over the dev cards and asks three
synthetic texts of any that only one card uses (``tests/test_grammar_rules.py``).

A sentence is understood when one of the :data:`SENTENCES` reads all of it; when two do, the pair
must be declared in :data:`PRECEDENCE` (a test fails on any other), and :data:`FALLBACK` reads a
sentence only when nothing else does. No production is "tried first".

The language, from its words up (``⟨NAME⟩`` is a production of this module)::

    count     := a | an | N | x | that many                                  COUNT
    die       := dN | N-sided die | the planar die | dice (no size: refused)  SIZED_DIE, DIE
    who       := you | a player | any player | an opponent | each player ...  WHO
    condition := [a] [natural] N [or higher | or lower] | a N, M, or K
                 | a die's highest natural result | {CHAOS} | blank ...      CONDITION
    roll      := [who] roll(s) count die tail*                                ROLL
               | roll a number of die equal to amount tail*                   NUMBER_OF_DICE
               | the result of count die roll tail*                           IMPLICIT_ROLL
               | roll the planar die | roll to visit your Attractions         PLANAR_ROLL, VISIT_ROLL
               | reroll ... stored results                                    REROLL_STORED
    tail      := and count die | twice | for each amount | plus an additional die for each amount
               | and ignore the [N] lowest rolls | and ignore all but the highest N rolls
               | and keep the N highest | and choose one result | and use the total
               | and add|subtract amount | and store those results on ~       TAIL_*
    rolls     := text roll (text roll)* text [, where X is amount]           ROLLS, WHERE_X
    table     := row+ (on their own lines or one line)                        CHART_ROW, LIST_ROW, ROW_START
    row       := N | N—M | N+ (| or —) text [roll again | repeat this process N more times]   ROW_AGAIN
    outcome   := if the result is condition, ... | if you rolled doubles, ... | otherwise, ...
               | for each result [of N], ... | if you rolled N exactly K times, ...
               | the player with the lowest|highest result ... | reroll ties    CONDITIONAL, DOUBLES, ...
    repeat    := if you roll condition, [you may] repeat this process          REPEAT
    replacement := [if] who would roll dice, [they] [may] [instead] how      REPLACEMENT
    how       := that many dice plus N and ignore the lowest | ... and ignore N | ... an opponent
                 chooses N to ignore | two of those dice and ignore one | N dice and ignore the lower
               | N dice and use the total | them and <then>                   HOW_*
    modifier  := increase|decrease the result of each die who rolls by N     STATIC_MODIFIER
               | after who rolls a die, you may cost. if you do, increase or decrease the result by N
               | you may cost to increase the result of a die who rolled by N AFTER_ROLL, IF_YOU_DO, COSTED_MODIFIER
    reroll    := if you roll condition [on a die], you may reroll that die     REROLL_IF
               | [once each turn,] you may cost to [have who] reroll dice    REROLL_BY_COST
               | cost: reflip any coin [or reroll any die]                   REROLL_ACTIVATED
    trigger   := whenever who roll(s) what, [if its result is condition,] effect (effect: text, its rolls)
               | whenever a N is rolled, ... | whenever chaos ensues, ...     TRIGGER, INTERVENING_IF, ...
    what      := a die | one or more dice | condition [on a die] | doubles | your Nth die each turn
               | the planar die | to visit your Attractions                   WHAT, NTH_DIE, ...
    coins     := if who would flip a coin, instead flip N coins and ignore N-1 (CR 705)   COIN_REPLACEMENT
    flips     := text [flipper] [may] flip(s) count coin(s) flip-tail* text            FLIPS, FLIP_HEAD
                 (a third-person verb or "may" with no flipper named: a player the text names)
    flip-tail := until you lose|win a flip [or choose to stop flipping] | N times | twice [or until ...]
               | for each amount | , where X is amount          FLIP_UNTIL, FLIP_TIMES, FLIP_FOR_EACH, FLIP_WHERE
    flip-outcome := if|when who win(s)|lose(s) [the flip|a flip|either flip|N or more flips|N or more of them
                    |all [N] flips|no flips], ...
               | if the coin|it|both coins come(s) up heads|tails, ... | ... for each flip you won
               | ... equal to the number of flips you won | each player whose coin comes up tails ...
               | each player|opponent who won|lost the flip ... | repeat this process until both coins come up heads
                                                  COIN_IF, COIN_SIDE_IF, COIN_EACH, COIN_REPEAT, COIN_FOLLOW_UP
    coin-trigger := whenever who win(s)|lose(s) a coin flip | 1 or more coin flips, ...   COIN_TRIGGER, FIRST_FLIP
               | whenever who flip(s) a coin | 1 or more coins, ... (recognised)   FLIP_TRIGGER
    face      := each <face> roll of the planar die counts as a <face> roll   FACE_COUNTS_AS
    stored    := store|install the result on ~ | use a stored result for a die   STORE_SENTENCE, USE_STORED
    recognised (not applied): protection from dice, rolled this turn, until a roll, stacked dice   RECOGNISED
    ability   := [ability word —] [cost :] sentence+ (a line of text; quotes are abilities of their own)
                                                                   ABILITY_WORD, COST_SPLIT, COST_HINT

Every production that means something builds a typed value from its parts (``build``): a count is
an ``Amount``, a die a ``Die``, "who" a ``Scope``, a condition a ``Condition``, each kind of "how"
its own frozen node (``nodes.Node``), and each sentence production a sentence node (``Replacement``,
``TriggerNode``, ``Rolls``, ``FlipPhrase``, ...). The compiler folds the sentence nodes into a card
by their type and reads no words; the English lives here only. Each compiled value's canonical
wording (``canonical.py``'s round trip) is registered beside the production that reads it
(:func:`wording`), keyed by the value's type.

A new wording family is a new production here, built from the ones above, and added to
:data:`SENTENCES` when it is a sentence of its own. Regular expressions appear only for single
tokens (a number, ``dN``, ``4th``). How to add one: write the production from the ones above
(``parsing``'s combinators) with a ``build`` that returns its node, put it in :data:`SENTENCES`
with where it may stand, give its node type an action in ``compiler._ACTIONS``, register the
canonical wording of any new compiled value beside it (:func:`wording`), and add three synthetic
texts in ``tests/test_grammar_rules.py`` if only one known card uses it; if it reads a sentence
another production also reads, the precedence test says so, and the pair goes in
:data:`PRECEDENCE` with its reason.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from mtgdice.rules import PLANAR_DIE as THE_PLANAR_DIE
from mtgdice.rules import (
    Amount,
    AnyOf,
    Condition,
    Cost,
    Decider,
    DiceGroup,
    Die,
    Effect,
    Event,
    ExtraDice,
    Extreme,
    FaceCountsAs,
    FaceIs,
    IgnoreMode,
    InRange,
    NaturalMax,
    Outcome,
    PairEachCoin,
    PairEachDie,
    Parity,
    Passive,
    PlanarFace,
    Reads,
    ReflipPermission,
    RerollPermission,
    ResultModifier,
    Roller,
    Scope,
    Trigger,
)
from mtgdice.rules.coin_instruction import CoinReads, FlipOutcome, Flipper, Until
from mtgdice.rules.effects.coin import CoinTrigger
from mtgdice.rules.errors import CardTextError
from mtgdice.rules.zones import Zone
from mtgdice.text.amounts import amount_name
from mtgdice.text.nodes import Node
from mtgdice.text.parsing import (
    CHUNK,
    END,
    REJECT,
    Fields,
    Parser,
    Refused,
    Result,
    Rule,
    Sentence,
    ahead,
    alt,
    cap,
    either,
    many,
    not_ahead,
    note,
    opt,
    peek,
    rest,
    seq,
    somewhere,
    span,
    token,
    tokenize,
    words,
)

MAX_DIGITS = 18
"""Longest number read from card text, as the JSON reader allows; a longer one is refused."""


def number(digits: str) -> int:
    """A number of the text; :class:`CardTextError` past :data:`MAX_DIGITS` digits.

    >>> number("20")
    20
    """
    if len(digits) > MAX_DIGITS:
        raise CardTextError(f"number: {digits[:12]}... has more than {MAX_DIGITS} digits")
    return int(digits)


def count(words: str) -> Amount:
    """How many dice or coins a count names: "a" is 1, digits their number, "x" the variable X.

    >>> count("a").constant, count("3").constant, count("x").name, count("that many").name
    (1, 3, 'X', 'that many')
    """
    if words in ("a", "an"):
        return Amount(1)
    if words.isdigit():
        return Amount(number(words))
    if words == "x":
        return Amount.named(VARIABLE)
    return Amount.named(words)


VARIABLE = "X"
"""The variable a count may name, which a "where X is ..." clause defines."""


def where_x(amount: Amount, where: str) -> Amount | None:
    """The amount a "where X is <words>" clause gives a count of X; ``None`` for another count."""
    return Amount.named(amount_name(where), aliases=(VARIABLE,)) if amount.name == VARIABLE else None


def die(words: str) -> Die:
    """The die a phrase names; :class:`CardTextError` when it names no size or an impossible one.

    >>> die("a d20").sides, die("the planar die").planar
    (20, True)
    """
    words = words.strip()
    if "planar" in words.split():
        return THE_PLANAR_DIE
    digits = die_sides(words)
    if digits is None:
        raise CardTextError(f"die: {words!r} names no number of sides")
    sides = number(digits)
    if sides < 1:
        raise CardTextError(f"die: a die with {sides} sides cannot be rolled")
    return Die(sides)


def sides_filter(words: str | None) -> int | None:
    """The die size a phrase names ("one or more d20s": 20), or ``None`` for any die."""
    digits = die_sides(words) if words else None
    return number(digits) if digits is not None else None


def scope(who: str | None) -> Scope:
    """Whose rolls an effect sees, from its "who" words: its controller's, an opponent's, the player
    it targets, or any player's."""
    if who == "target player":
        return Scope.TARGET
    if who == "you":
        return Scope.YOU
    if who in ("an opponent", "each opponent", "another player", "your opponents"):
        return Scope.OPPONENT
    return Scope.ANY


def in_command_zone(layout: str, type_line: str) -> bool:
    """A plane or phenomenon (CR 901): its abilities function in the command zone."""
    return layout == "planar" or "plane" in type_line.lower().split()


def functions_from(text: str) -> Zone | None:
    """Where the ability an instruction's text belongs to functions from: ``None`` for a roll made
    as its permanent enters ("As ~ enters", CR 614.1c), the graveyard for an ability of a dying
    permanent or of a card in the graveyard, else the battlefield.

    >>> functions_from("As this enters, roll a d20."), functions_from("When this dies, roll a d6.")
    (None, <Zone.GRAVEYARD: 'graveyard'>)
    """
    words = text.casefold().replace(",", " ").split()
    if words[:1] == ["as"] and any(word.startswith("enter") for word in words):
        return None
    if {"dies", "graveyard"} & set(words):
        return Zone.GRAVEYARD
    return Zone.BATTLEFIELD


_READS_WORDS = (
    ("difference", Reads.DIFFERENCE),
    ("total", Reads.TOTAL),
    ("other result", Reads.OTHER),
    ("first result", Reads.EACH),
    ("each result", Reads.EACH),
)


def reads_of(text: str) -> Reads:
    """Which number of a roll words that use it read: its total, the difference, each result, ...

    >>> reads_of("gain life equal to the total"), reads_of("draw that many cards")
    (<Reads.TOTAL: 'total'>, <Reads.RESULT: 'result'>)
    """
    for word, reads in _READS_WORDS:
        if word in text:
            return reads
    return Reads.RESULT


class Recognition(Node):
    """An ability about dice that ``resolve`` recognises without applying (a ``Passive`` effect):
    what it is, why it is not applied, and its details."""

    what: str
    note: str
    details: tuple[tuple[str, Any], ...] = ()
    no_roll: bool = False
    """The ability means its card rolls no dice (the card's notes say so)."""

    @property
    def passive_note(self) -> str:
        return f"{self.note}; recognised, not applied by resolve"

    @property
    def card_note(self) -> str:
        return f"no roll: {self.note}"


def not_read(words: str) -> str:
    """Why part of a sentence is unsupported: words about dice that no production read."""
    return f"not read: {words}"


def ambiguous(sentence: str, productions: list[str]) -> str:
    """An ``unsupported`` entry for a sentence two productions read with no declared winner."""
    return f"{sentence} (ambiguous: read as {' and as '.join(productions)})"


def too_long(length: int, limit: int) -> str:
    """Why a text is refused before it is read (bounded time and memory)."""
    return f"text: {length} characters is more than the {limit} a card can have"


def table_without_roll(rows: list[Any]) -> str:
    """An ``unsupported`` entry for table rows under an ability that rolls nothing."""
    return "results table without a roll: " + " / ".join(f"{row.label} | {row.text}" for row in rows)


# -- canonical wordings ---------------------------------------------------------------------------
# What a production reads, written back in one fixed Oracle-style wording (``canonical.py``'s round
# trip): each wording is registered beside the production that reads it, keyed by the type of the
# compiled value it writes (a condition, an effect).

_Write = TypeVar("_Write", bound=Callable[[Any], str])
_WORDINGS: dict[Any, Callable[[Any], str]] = {}


def wording(*kinds: Any) -> Callable[[_Write], _Write]:
    """Register the canonical wording of values of these types, or of a roll's outcomes that read
    these numbers (a ``Reads``), beside the production that reads them."""

    def register(write: _Write) -> _Write:
        for kind in kinds:
            _WORDINGS[kind] = write
        return write

    return register


def canonical(value: Any) -> str:
    """A compiled condition or effect in the one wording its production reads back.

    >>> canonical(InRange(4, None)), canonical(AnyOf((InRange(1, 1), InRange(2, 2))))
    ('a 4 or higher', 'a 1 or 2')
    """
    write = _WORDINGS.get(type(value))
    if write is None:
        raise ValueError(f"{type(value).__name__}: {value!r} has no wording in the dice language")
    return write(value)


NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


NEUTRAL_EFFECT = "apply it"
"""The effect a canonical outcome is written with (an outcome's own effect is the card's words)."""


def outcome_words(outcome: Outcome) -> str:
    """An outcome of a roll in the one wording its production reads back, with the neutral effect.

    >>> outcome_words(Outcome("", reads=Reads.OTHERWISE))
    'Otherwise, apply it.'
    """
    return _WORDINGS[Reads.DOUBLES if outcome.doubles else outcome.reads](outcome)


_FlipWrite = TypeVar("_FlipWrite", bound=Callable[[Any, Any], str])
_FLIP_WORDINGS: dict[CoinReads, Callable[[FlipOutcome, Until | None], str]] = {}


def flip_wording(*reads: CoinReads) -> Callable[[_FlipWrite], _FlipWrite]:
    """Register the canonical wording of a flip's outcomes that read these (beside their production)."""

    def register(write: _FlipWrite) -> _FlipWrite:
        for kind in reads:
            _FLIP_WORDINGS[kind] = write
        return write

    return register


def flip_outcome_words(outcome: FlipOutcome, until: Until | None) -> str:
    """An outcome of a flip in the one wording its production reads back (``until``: how the flip repeats)."""
    return _FLIP_WORDINGS[outcome.reads](outcome, until)


def number_words(n: int) -> str:
    """A count in Oracle style: words up to ten, digits beyond.

    >>> number_words(2), number_words(12)
    ('two', '12')
    """
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


FACE_WORDS = {PlanarFace.BLANK: "blank", PlanarFace.CHAOS: "{CHAOS}", PlanarFace.PLANESWALK: "{PLANESWALKER}"}
"""How a canonical text writes a face of the planar die."""
_WHOSE = {
    Scope.YOU: ("you", "roll"),
    Scope.OPPONENT: ("an opponent", "rolls"),
    Scope.ANY: ("a player", "rolls"),
    Scope.TARGET: ("target player", "rolls"),
}


def whose(scope: Scope) -> tuple[str, str]:
    """Who rolls, for a canonical sentence, and the verb's form after it."""
    return _WHOSE[scope]


def _they(scope: Scope) -> str:
    return "you" if scope is Scope.YOU else "they"


def sized(sides: int | None, one: bool) -> str:
    """ "a d20", "one or more d20s", "a die", "one or more dice"."""
    if sides is None:
        return "a die" if one else "one or more dice"
    return f"a d{sides}" if one else f"one or more d{sides}s"


def used_once(effect: Effect) -> str:
    """The sentence after an effect limited to once each turn."""
    return " Use this ability only once each turn." if effect.once_each_turn else ""


# -- tokens -------------------------------------------------------------------------------------

NUMBER = token("N", r"\d+")
SIZE = token("dN", r"d\d+s?")
ORDINAL_NUMBER = token("Nth", r"\d+(?:st|nd|rd|th)")
ROLL_TOKEN = token("roll", r"(?:re)?roll(?:s|ed|ing)?")
"""A form of "roll" or "reroll" (a hyphen is a token of its own: "re-roll" is "re", "-", "roll")."""
_ROLL_FORMS = frozenset(prefix + "roll" + ending for prefix in ("", "re") for ending in ("", "s", "ed", "ing"))
"""Every token :data:`ROLL_TOKEN` reads, for a test against a sentence's vocabulary."""
assert all(ROLL_TOKEN.matches(form) for form in _ROLL_FORMS)

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")

# -- words ------------------------------------------------------------------------------------

COUNT = Rule("COUNT", alt(words("a", "an", "x", "that many"), NUMBER), doc='How many dice: "a", "2", "x".')

SIZED_DIE = Rule(
    "SIZED_DIE",
    alt(SIZE, seq(NUMBER, "-sided", words("dice", "die"))),
    doc='A die with its number of sides: "d20", "d20s", "6-sided die", "6-sided dice".',
)

PLANAR_DIE = Rule("PLANAR_DIE", seq(opt("the"), "planar die"))

DIE = Rule(
    "DIE",
    alt(SIZED_DIE, PLANAR_DIE, words("dice", "die")),
    doc='A kind of die: a sized die, "the planar die", or "dice"/"die" with no size (the context gives it).',
)

WHO = Rule(
    "WHO",
    words(
        "you",
        "a player",
        "any player",
        "an opponent",
        "each opponent",
        "each player",
        "another player",
        "that player",
        "target player",
        "target opponent",
        "your opponents",
    ),
    doc='Whose roll: "you", "a player", "any player", "an opponent", ... (:func:`scope` reads it).',
)

FACE = Rule(
    "FACE",
    words("blank", "chaos", "planeswalk", "planeswalker", "{chaos}", "{planeswalker}", "{pw}"),
    doc="A face of the planar die (CR 901.9): blank, {CHAOS}, {PLANESWALKER}.",
)

ONE_DIE = Rule("ONE_DIE", seq(words("a", "an", "any", "1"), DIE), doc='One die: "a die", "a d20", "any die".')


def _sided(s: Sentence, k: int) -> str | None:
    """The number of "N-sided" when token ``k`` is its "sided" (written as one word)."""
    found = s.words
    if found[k] == "sided" and k >= 2 and found[k - 1] == "-" and NUMBER.matches(found[k - 2]):
        if not s.spaced(k - 1) and not s.spaced(k):
            return found[k - 2]
    return None


def die_sides(text: str) -> str | None:
    """The number of sides a phrase names first ("one or more d20s" → "20"), as written.

    >>> die_sides("a 6-sided die"), die_sides("one or more dice"), die_sides("two d20s")
    ('6', None, '20')
    """
    s = tokenize(text)
    for k, word in enumerate(s.words):
        if word[0] == "d" and SIZE.matches(word):
            return word[1:].rstrip("s")
        if (number_of_sides := _sided(s, k)) is not None:
            return number_of_sides
    return None


def mentions(
    s: Sentence,
    vocabulary: frozenset[str],
    phrases: tuple[tuple[str, ...], ...] = (),
    start: int = 0,
    end: int | None = None,
) -> bool:
    """Whether tokens ``start`` to ``end`` of a sentence hold one of the words, or one of the phrases."""
    whole = start == 0 and (end is None or end >= len(s.words))
    found = s.words if whole else s.words[start:end]
    if not vocabulary.isdisjoint(s.vocabulary if whole else found):
        return True
    return any(
        found[i : i + len(phrase)] == phrase for phrase in phrases if phrase[0] in found for i in range(len(found))
    )


_DICE_VOCABULARY = frozenset({"dice", "die", "{chaos}", "{pw}"})


def mentions_dice(s: Sentence, start: int = 0, end: int | None = None) -> bool:
    """Any mention of dice in tokens ``start`` to ``end``: a die or dice, ``dN``, ``N-sided``, a form
    of roll or reroll, {CHAOS}, "chaos ensues". The test, independent of any production, for "this
    sentence is about dice".

    >>> mentions_dice(tokenize("whenever you roll 1 or more dice")), mentions_dice(tokenize("flying"))
    (True, False)
    """
    if mentions(s, _DICE_VOCABULARY | _ROLL_FORMS, (("chaos", "ensues"),), start, end):
        return True
    found = s.words
    for index in range(start, len(found) if end is None else end):
        word = found[index]
        if word[0] == "d" and SIZE.matches(word):
            return True
        if index >= start + 2 and _sided(s, index) is not None:
            return True
    return False


def mentions_rolling(s: Sentence) -> bool:
    """A form of "roll" or "reroll" in the sentence."""
    return not _ROLL_FORMS.isdisjoint(s.vocabulary)


_RESULT_WORDS = frozenset({"result", "results", "dice", "die"})
_RESULT_PHRASES = (("that", "much"), ("the", "total"), ("the", "difference"))


def uses_result(s: Sentence, start: int = 0, end: int | None = None) -> bool:
    """Tokens that use the dice just rolled: their result, total or difference, "that much"."""
    return mentions(s, _RESULT_WORDS, _RESULT_PHRASES, start, end)


# -- conditions on a result (CR 706.2) ------------------------------------------------------------


def _values(f: Fields) -> tuple[int, ...]:
    return tuple(number(digits) for digits in f.all("value"))


def _value_condition(f: Fields) -> Condition:
    natural = "natural" in f
    values = _values(f)
    if f.get("up"):
        return InRange(values[0], None, natural)
    if f.get("down"):
        return InRange(None, values[0], natural)
    if len(values) > 1:
        return AnyOf(tuple(InRange(v, v, natural) for v in values))
    return InRange(values[0], values[0], natural)


_ARTICLE = opt(words("a", "an"))
_AND_VALUE = seq(alt(", or", "or", ","), _ARTICLE, cap("value", NUMBER))

VALUE_CONDITION = Rule(
    "VALUE_CONDITION",
    seq(
        _ARTICLE,
        opt(cap("natural", "natural")),
        cap("value", NUMBER),
        alt(
            seq("or", alt(cap("up", words("higher", "greater", "more")), cap("down", words("lower", "less", "fewer")))),
            many(_AND_VALUE),
        ),
    ),
    build=_value_condition,
    doc='"a 6", "4 or higher", "3 or less", "a 1 or 2", "a 1, 2, or 3", "a natural 20".',
)

HIGHEST_NATURAL = Rule(
    "HIGHEST_NATURAL",
    seq(_ARTICLE, opt(words("die's", "the")), "highest natural result", opt("on", words("a", "the"), "die")),
    build=lambda f: NaturalMax(),
    doc="A die's highest natural result (CR 706.2: its number of sides).",
)

PARITY_CONDITION = Rule(
    "PARITY_CONDITION",
    seq(
        _ARTICLE,
        opt(cap("natural", "natural")),
        cap("parity", words("even", "odd")),
        opt(words("number", "result")),
    ),
    build=lambda f: Parity(even=f.words_of("parity") == "even", natural="natural" in f),
    doc='An even or odd number: "an even result", "odd", "an even number".',
)

_FACES = {
    PlanarFace.CHAOS: ("{chaos}", "chaos"),
    PlanarFace.PLANESWALK: ("{planeswalker}", "{pw}", "planeswalk", "the planeswalker symbol", "the planeswalk symbol"),
    PlanarFace.BLANK: ("a blank", "blank", "a blank face"),
}

FACE_CONDITION = Rule(
    "FACE_CONDITION",
    alt(*(cap(face.value, words(*wordings)) for face, wordings in _FACES.items())),
    build=lambda f: FaceIs(PlanarFace(next(iter(f)))),
    doc="A face of the planar die rolled: {CHAOS}, {PLANESWALKER}, a blank.",
)


def _condition(f: Fields) -> Condition:
    parts: list[Condition] = []
    for part in f.all("part"):
        if isinstance(part, Refused):
            raise CardTextError(part.reason)
        parts.append(part)
    if len(parts) == 1:
        return parts[0]
    # One list of alternatives: "a natural 1 or a natural 20", "a 1 or 2 or {chaos}".
    first = parts[0]
    natural = (
        isinstance(first, InRange)
        and first.natural
        or (isinstance(first, AnyOf) and any(getattr(c, "natural", False) for c in first.conditions))
    )
    flat = list(first.conditions) if isinstance(first, AnyOf) else [first]
    for part in parts[1:]:
        if natural and isinstance(part, InRange):
            part = InRange(part.low, part.high, True)
        flat.append(part)
    return AnyOf(tuple(flat))


_ONE_VALUE = Rule(
    "ONE_VALUE",
    seq(_ARTICLE, opt(cap("natural", "natural")), cap("value", NUMBER)),
    build=_value_condition,
)

CONDITION = Rule(
    "CONDITION",
    seq(
        either("part", HIGHEST_NATURAL, FACE_CONDITION, PARITY_CONDITION, VALUE_CONDITION),
        many(alt(", or", "or", ","), either("part", HIGHEST_NATURAL, FACE_CONDITION, _ONE_VALUE)),
    ),
    build=_condition,
    doc="A condition on a result: one production for triggers, rerolls, repeats and outcomes alike.",
)

SYMBOLIC_CONDITION = Rule(
    "SYMBOLIC_CONDITION",
    seq(
        alt(
            words("equal to", "greater than", "less than", "the same as", "higher than", "lower than", "any other"),
        ),
        span(0, stop=","),
    ),
    build=lambda f: None,
    doc="A result compared with something the text names, not a number: kept as an outcome's words.",
)


@wording(NaturalMax)
def _natural_max_words(condition: NaturalMax) -> str:
    return "a die's highest natural result"


@wording(FaceIs)
def _face_words(condition: FaceIs) -> str:
    return "a blank" if condition.face is PlanarFace.BLANK else FACE_WORDS[condition.face]


def one_value(condition: Condition) -> str:
    """The one value a condition is met by ("6"); ``ValueError`` for another condition."""
    if isinstance(condition, InRange) and condition.low is not None and condition.low == condition.high:
        return str(condition.low)
    raise ValueError(f"condition: {condition!r} is not one value")


@wording(AnyOf)
def _any_of_words(condition: AnyOf) -> str:
    values = [one_value(part) for part in condition.conditions]
    natural = "natural " if any(getattr(part, "natural", False) for part in condition.conditions) else ""
    if len(values) == 2:
        return f"a {natural}{values[0]} or {values[1]}"
    return f"a {natural}" + ", ".join(values[:-1]) + f", or {values[-1]}"


@wording(Parity)
def _parity_words(condition: Parity) -> str:
    return f"an {condition.describe()} number" if not condition.natural else f"a {condition.describe()} number"


@wording(InRange)
def _in_range_words(condition: InRange) -> str:
    natural = "natural " if condition.natural else ""
    if condition.high is None and condition.low is not None:
        return f"a {natural}{condition.low} or higher"
    if condition.low is None and condition.high is not None:
        return f"a {natural}{condition.high} or lower"
    if condition.low == condition.high and condition.low is not None:
        return f"a {natural}{condition.low}"
    raise ValueError(f"condition: {condition!r} has no wording in the dice language")


# -- results tables (CR 706.3a) ---------------------------------------------------------------


class RowWords(Node):
    """A results-table row as the line writes it: its numbers (as written), whether it is open
    ("15+"), the text after them, and whether it is a list item ("5 — ...") or a chart row ("5 | ...")."""

    low: str
    high: str | None
    open: bool
    text: str
    listed: bool


def _row(listed: bool) -> Callable[[Fields], RowWords]:
    return lambda f: RowWords(f["low"], f.get("high") or f.get("alt"), "open" in f, f.get("text", ""), listed)


class _SpacedDash(Parser):
    """An em dash with space on both sides: how a list row sets its numbers off from its text."""

    __slots__ = ()

    def parse(self, s: Sentence, i: int) -> Result | None:
        if i < len(s.words) - 1 and s.words[i] == "\u2014" and s.spaced(i) and s.spaced(i + 1):
            return (i + 1, ())
        return None

    def first(self) -> frozenset[str]:
        return frozenset({"\u2014"})

    def clauses(self) -> tuple[frozenset[str], ...]:
        return (frozenset({"\u2014"}),)

    def notation(self) -> str:
        return "' \u2014 '"


CHART_ROW = Rule(
    "CHART_ROW",
    seq(
        cap("low", NUMBER),
        opt(alt(seq("\u2014", cap("high", NUMBER)), cap("open", "+"))),
        "|",
        opt(cap("text", rest())),
    ),
    build=_row(listed=False),
    doc='A chart row: "1—9 | effect", "20 | effect", "15+ | effect" (dashes already made em dashes).',
)

LIST_ROW = Rule(
    "LIST_ROW",
    seq(
        opt("\u2022"),
        cap("low", NUMBER),
        alt(
            seq(
                alt(seq(words("\u2014", "to"), cap("high", NUMBER)), seq("or", cap("alt", NUMBER)), cap("open", "+")),
                _SpacedDash(),
            ),
            _SpacedDash(),
        ),
        cap("text", rest()),
    ),
    build=_row(listed=True),
    doc='A list item: "5 — Destroy it.", "1 or 2 — ...", "• 2 — menace", "1-3 - ..." after dash folding.',
)


def row_breaks(line: Sentence) -> list[int]:
    """Where chart rows start after an earlier one on the same line: a sentence end (".", "!", ")"),
    a space, then ``N—M |`` (the character offsets, for cutting the line)."""
    cuts: list[int] = []
    for k in range(1, len(line.words)):
        previous = line.words[k - 1]
        if previous in (".", "!", ")") and line.ends[k - 1] < line.starts[k] and ROW_START.may_read(line, k):
            if ROW_START.read(line, k) is not None:
                cuts.append(line.starts[k])
    return cuts


ROW_START = Rule(
    "ROW_START",
    seq(NUMBER, opt(alt(seq(words("\u2014", "-"), NUMBER), "+")), "|"),
    doc='Where a chart row starts after an earlier one on the same line (a sentence end, then "N—M |").',
)


class RowAgain(Node):
    """A row that rolls again: how many more times, and whether by choice."""

    times: int
    optional: bool


ROW_AGAIN = Rule(
    "ROW_AGAIN",
    seq(
        opt(cap("may", "you may")),
        words("roll again", "repeat this process"),
        opt(cap("times", NUMBER), opt("more"), "times"),
    ),
    build=lambda f: RowAgain(number(f["times"]) if "times" in f else 1, "may" in f),
    doc='A row that rolls again (CR 706.3c): "roll again", "you may repeat this process", "... 2 more times".',
)


def may_be_level_or_row(line: str) -> bool:
    """A quick test on a line's matching form that never says no to a level line or a table row."""
    return "level" in line or line.lstrip("\u2022 \t")[:1].isdecimal()


LEVEL_LINE = Rule(
    "LEVEL_LINE",
    seq(many(token("{cost}", r"\{[^}]*\}"), least=1), ":", "level", cap("level", NUMBER), END),
    build=lambda f: number(f["level"]),
    doc='A Class card\'s level-up line: "{1}{R}: Level 2".',
)


def _ability_word(f: Fields) -> Any:
    word: str = f["word"]
    return f if len(word) <= _LONGEST_ABILITY_WORD and word[0] not in ",!-" else REJECT


_LONGEST_ABILITY_WORD = 45

ABILITY_WORD = Rule(
    "ABILITY_WORD",
    seq(cap("word", many(token("ability word", r"[a-z0-9',!-]+"), least=1)), _SpacedDash(), cap("rest", rest())),
    build=_ability_word,
    doc='An ability word or flavor word before an em dash: "psionic spells \u2014 when ..." (letters, digits, '
    "apostrophes, commas, hyphens; at most 45 characters).",
)


class _Spaced(Parser):
    """White space before the token here (it reads no token)."""

    __slots__ = ()

    def parse(self, s: Sentence, i: int) -> Result | None:
        return (i, ()) if s.spaced(i) else None

    def nullable(self) -> bool:
        return True

    def notation(self) -> str:
        return "' '"


_LONGEST_COST = 160
"""Longest cost read before a colon (a bound on the text an ability's cost may take)."""


def _cost_split(f: Fields) -> Any:
    return (f["cost"], f["body"]) if len(f["cost"]) <= _LONGEST_COST else REJECT


COST_SPLIT = Rule(
    "COST_SPLIT",
    seq(
        cap(
            "cost",
            many(alt(seq("[", many(token("loyalty", r"[^\]]+")), "]"), token("cost", r'[^:"\[]+')), least=1),
        ),
        ":",
        _Spaced(),
        cap("body", rest()),
    ),
    build=_cost_split,
    doc='An activated ability\'s cost and effect, read on the text as printed: "{2}, {T}: <effect>", a loyalty '
    'ability "[0]: <effect>" (the cost holds no colon or quote outside its brackets).',
)

COST_HINT = Rule(
    "COST_HINT",
    alt(
        seq("[", opt(rest())),
        somewhere(
            alt(
                token("{", r"\{.*"),
                words("sacrifice", "tap", "untap", "remove", "exile", "discard", "pay", "uninstall", "return"),
                words("reveal", "roll"),
            )
        ),
    ),
    doc='What tells a cost from other text before a colon: a symbol, a loyalty "[", or a cost\'s verb.',
)

# -- roll instructions (CR 706.1) -------------------------------------------------------------

_ROLL_VERB = cap("verb", words("roll", "rolls"))
_NOT_PLANAR_DIE = alt(SIZED_DIE, words("dice", "die"))

_AND_TAIL_WORDS = ("add", "adds", "subtract", "subtracts", "ignore", "choose", "store", "install", "use")
_TAIL_END = ahead(alt(seq("and", words(*_AND_TAIL_WORDS)), ",", END))
"""Where a noun phrase inside a roll's tail ends: at the next tail of the roll, a comma or the end."""


def _amount_words(until: Parser = _TAIL_END) -> Parser:
    """An amount's noun phrase ("the number of artifacts you control"), up to where ``until`` reads."""
    return cap("what", span(stop=", .", until=until))


class RollHead(Node):
    """How a roll phrase starts (``HEADS``): how many dice, which die, who rolls, and what for."""

    how_many: Amount
    die: Die
    roller: Roller = Roller.YOU
    purpose: str = ""
    reroll_stored: bool = False


_SUBJECTS = {
    "they": Roller.THAT_PLAYER,
    "each player": Roller.EACH_PLAYER,
    "each opponent": Roller.EACH_OPPONENT,
    "that player": Roller.THAT_PLAYER,
    "target player": Roller.TARGET_PLAYER,
    "target opponent": Roller.TARGET_OPPONENT,
}


def other_player(subject: str | None, verb: str, may: bool) -> bool:
    """Whether an instruction's unnamed subject is another player than its controller: its verb is
    in the third person ("its controller rolls", "defending player flips") or its subject stands
    before "may" ("enchanted creature's controller may flip"); "you" and the imperative are not."""
    return subject is None and (verb.endswith("s") or may)


def _roll_head(f: Fields) -> RollHead:
    rolled = die(f["die"])
    subject = f.get("subject")
    roller = _SUBJECTS.get(subject or "", Roller.YOU)
    if other_player(subject, f.get("verb", "roll"), "may" in f):
        roller = Roller.THAT_PLAYER
    return RollHead(count(f["count"]), rolled, roller)


ROLL = Rule(
    "ROLL",
    seq(
        opt(
            cap(
                "subject",
                words("each player", "each opponent", "that player", "target player", "target opponent", "they", "you"),
            )
        ),
        opt(cap("may", "may")),
        _ROLL_VERB,
        cap("count", COUNT),
        cap("die", _NOT_PLANAR_DIE),
    ),
    build=_roll_head,
    doc='"Roll two d20", "each opponent rolls an eight-sided die", "target opponent may roll a d4", "its '
    'controller rolls a d6" (a player the text names), "roll X dice" (no size: refused).',
)
NUMBER_OF_DICE = Rule(
    "NUMBER_OF_DICE",
    seq(_ROLL_VERB, "a number of", cap("die", _NOT_PLANAR_DIE), "equal to", _amount_words(), _TAIL_END),
    build=lambda f: RollHead(Amount.named(amount_name(f["what"])), die(f["die"])),
    doc='"Roll a number of d6 equal to the number of creatures you control".',
)
IMPLICIT_ROLL = Rule(
    "IMPLICIT_ROLL",
    seq(
        "the result of",
        cap("count", alt(words("a", "an"), NUMBER)),
        cap("die", _NOT_PLANAR_DIE),
        words("roll", "rolls"),
    ),
    build=_roll_head,
    doc='"... equal to the result of a d12 roll".',
)
PLANAR_ROLL = Rule(
    "PLANAR_ROLL",
    seq(_ROLL_VERB, words("the", "a"), "planar die"),
    build=lambda f: RollHead(Amount(1), THE_PLANAR_DIE),
    doc="Rolling the planar die.",
)
VISIT_ATTRACTIONS = "visit attractions"
"""The purpose of a roll to visit Attractions (Unfinity)."""
VISIT_ROLL = Rule(
    "VISIT_ROLL",
    seq("roll to visit", words("your", "their"), "attractions"),
    build=lambda f: RollHead(Amount(1), Die(6), purpose=VISIT_ATTRACTIONS),
)
"""Unfinity: rolling to visit your Attractions is rolling a d6."""
_STORED = RollHead(Amount.named("chosen stored results"), Die(6), reroll_stored=True)
"""Stored results rolled again: of the die the card stores (the compiler links it, CR 706.8b)."""
REROLL_STORED = Rule(
    "REROLL_STORED",
    seq(
        "reroll",
        opt(alt(words("any number of", "1 of", "all of", "each of", "all", "each"), seq("up to", NUMBER, "of"))),
        words("~'s", "its", "the", "those"),
        words("stored", "installed"),
        "results",
    ),
    build=lambda f: _STORED,
    doc='Rerolling results stored on the permanent (CR 706.8b): "reroll any number of its stored results".',
)

CHOOSE_STORED = Rule(
    "CHOOSE_STORED",
    seq(
        "choose",
        alt(words("any number of", "1 of", "all of", "each of"), seq("up to", NUMBER, "of")),
        alt(
            seq(words("~'s", "its", "the"), words("stored", "installed"), "results"),
            seq("the results", words("stored", "installed"), "on", words("~", "it")),
        ),
        "and reroll",
        words("it", "them", "those results", "that result"),
    ),
    build=lambda f: _STORED,
    doc='Choosing stored results to roll again (CR 706.8b): "choose one of ~\'s stored results and reroll it".',
)


class Tail(Node):
    """What a roll's tail says (``TAILS``); a roll's tails read in order fold into one (:meth:`then`)."""

    also: tuple[DiceGroup, ...] = ()
    twice: bool = False
    for_each: str | None = None
    """The amount's name: one die for each."""
    plus_each: str | None = None
    ignore_lowest: int = 0
    keep_highest: int | None = None
    choose: bool = False
    total: bool = False
    modifier: Amount | None = None
    store: bool = False

    def then(self, later: Tail) -> Tail:
        """This tail and a later one: more dice add up, anything else the later one says wins."""
        return Tail(
            also=self.also + later.also,
            twice=later.twice or self.twice,
            for_each=_later_wins(self.for_each, later.for_each, None),
            plus_each=_later_wins(self.plus_each, later.plus_each, None),
            ignore_lowest=_later_wins(self.ignore_lowest, later.ignore_lowest, 0),
            keep_highest=_later_wins(self.keep_highest, later.keep_highest, None),
            choose=later.choose or self.choose,
            total=later.total or self.total,
            modifier=_later_wins(self.modifier, later.modifier, None),
            store=later.store or self.store,
        )


_T = TypeVar("_T")


def _later_wins(earlier: _T, later: _T, default: _T) -> _T:
    """A later tail's part where it says one (it differs from the default), else the earlier's."""
    return later if later != default else earlier


def _ignore(f: Fields) -> Tail:
    if "all_but" in f:  # "ignore all but the highest N": keep N
        return _keep(f)
    return Tail(ignore_lowest=number(f.get("n") or "1"))


def _keep(f: Fields) -> Tail:
    return Tail(keep_highest=number(f.get("keep") or "1"))


def _add(f: Fields) -> Tail:
    sign = 1 if f["verb"].startswith("add") else -1
    what = f["what"].strip()
    return Tail(modifier=Amount(sign * number(what)) if what.isdigit() else Amount.named(amount_name(what), sign=sign))


# A roll's tails, read one after another from where the dice end; what no tail reads is the rest of
# the sentence. The tails are disjoint: at a place at most one of them reads (a test checks it).
TAIL_ALSO = Rule(
    "TAIL_ALSO",
    seq(words(", and", ",", "and", "plus"), cap("count", alt(words("a", "an"), NUMBER)), cap("die", SIZED_DIE)),
    build=lambda f: Tail(also=(DiceGroup(count(f["count"]), die(f["die"])),)),
    doc='More dice of another kind in the same roll: " and a d6" after "roll a d20".',
)
TAIL_TWICE = Rule("TAIL_TWICE", words("twice"), build=lambda f: Tail(twice=True))
TAIL_FOR_EACH = Rule(
    "TAIL_FOR_EACH",
    seq("for each", _amount_words(), _TAIL_END),
    build=lambda f: Tail(for_each=amount_name("each " + f["what"])),
)
TAIL_PLUS_EACH = Rule(
    "TAIL_PLUS_EACH",
    seq("plus an additional", cap("die", DIE), "for each", _amount_words(), _TAIL_END),
    build=lambda f: Tail(plus_each=amount_name(f["what"])),
)
_ROLLS_NOUN = words("roll", "rolls", "result", "results", "dice", "die")
TAIL_IGNORE = Rule(
    "TAIL_IGNORE",
    seq(
        "and ignore",
        alt(
            seq("the", opt(cap("n", NUMBER)), words("lower", "lowest"), opt(cap("n", NUMBER)), _ROLLS_NOUN),
            seq(
                cap("all_but", "all but the"),
                opt(cap("keep", NUMBER)),
                "highest",
                opt(cap("keep", NUMBER)),
                _ROLLS_NOUN,
            ),
        ),
    ),
    build=_ignore,
)
TAIL_KEEP = Rule(
    "TAIL_KEEP",
    seq("and keep the", opt(cap("keep", NUMBER)), "highest", opt(cap("keep", NUMBER)), _ROLLS_NOUN),
    build=_keep,
    doc="Keep the highest N (the same as ignoring all but the highest N).",
)
TAIL_CHOOSE = Rule(
    "TAIL_CHOOSE",
    seq("and choose", words("1", "one"), alt("result", seq("of", words("those", "the"), "results"))),
    build=lambda f: Tail(choose=True),
)
_TO_THE_RESULT = seq(words("to", "from"), words("the", "that", "its"), words("result", "roll", "total"))
_TOTAL = seq("the total", opt("of", words("those", "the", "their"), words("results", "rolls", "dice")))
TAIL_TOTAL = Rule(
    "TAIL_TOTAL",
    seq("and", words("use", "add"), _TOTAL, ahead(alt(END, ",", ".", "and"))),
    build=lambda f: Tail(total=True),
)
TAIL_ADD = Rule(
    "TAIL_ADD",
    seq(
        "and",
        cap("verb", words("add", "adds", "subtract", "subtracts")),
        not_ahead(_TOTAL, alt(END, ",", ".", "and")),
        _amount_words(until=seq(opt(_TO_THE_RESULT), alt(",", END, "and"))),
        opt(_TO_THE_RESULT),
        ahead(alt(",", END, "and")),
    ),
    build=_add,
)
TAIL_STORE = Rule(
    "TAIL_STORE",
    seq(
        "and",
        words("store", "install"),
        words("those", "the", "that", "its"),
        words("result", "results"),
        "on",
        words("~", "it", "them"),
    ),
    build=lambda f: Tail(store=True),
)
TAILS = (
    TAIL_ALSO,
    TAIL_TWICE,
    TAIL_FOR_EACH,
    TAIL_PLUS_EACH,
    TAIL_IGNORE,
    TAIL_KEEP,
    TAIL_CHOOSE,
    TAIL_TOTAL,
    TAIL_ADD,
    TAIL_STORE,
)
"""The tails of a roll (``compiler`` says what each sets)."""

WHERE_X = Rule(
    "WHERE_X",
    seq(opt(","), "where x is", cap("what", span(stop="."))),
    doc="The amount X names, at the end of the sentence (its noun phrase keeps every clause).",
)

HEADS = (ROLL, NUMBER_OF_DICE, IMPLICIT_ROLL, PLANAR_ROLL, VISIT_ROLL, REROLL_STORED, CHOOSE_STORED)
"""The ways a sentence rolls dice."""
_HEAD_WORDS = frozenset().union(*(head.first() or () for head in HEADS))
_HEADS_BY_WORD = {word: tuple(head for head in HEADS if word in (head.first() or ())) for word in _HEAD_WORDS}
_TAIL_WORDS = frozenset().union(*(tail.first() or () for tail in TAILS))
assert all(production.first() for production in (*HEADS, *TAILS)), "a head or tail that may start anywhere"
_ROLLING = frozenset({"roll", "rolls", "reroll"})
assert all(any(clause <= _ROLLING for clause in head.clauses()) for head in HEADS), "a head that may not roll"
_TAILED = frozenset({ROLL.name, NUMBER_OF_DICE.name, IMPLICIT_ROLL.name})
_IN_CONDITION = frozenset({ROLL.name, NUMBER_OF_DICE.name})
"""Heads that a trigger or "if" condition may name without rolling ("if you roll a d20 ...")."""
_CONDITION_OPENERS = frozenset({"whenever", "when", "after", "if"})


class RollPhrase(Node):
    """One roll in a sentence: its head (which production, and its value), its tails' values, and
    the tokens after them up to the next roll (or the end of the sentence). A head or tail whose
    numbers the rules refuse is a :class:`Refused`."""

    production: str
    head: RollHead | Refused
    tails: tuple[Tail | Refused, ...]
    after: tuple[int, int]


class Rolls(Node):
    """The rolls of a sentence in text order, the tokens before the first, and the "where X is"
    amount at its end."""

    sentence: Sentence
    lead: tuple[int, int]
    phrases: tuple[RollPhrase, ...]
    where: tuple[int, str] | None

    def text(self, tokens: tuple[int, int]) -> str:
        """The words of a range of tokens."""
        return self.sentence.between(*tokens)


class _Rolls(Parser):
    """``text (head tail* text)+ [, where X is amount]``: every roll of the text, left to right.

    Deterministic: the text between two rolls runs to the next place a head reads, and the tails
    after a head are read in sequence (at a place at most one reads). A ROLL or NUMBER_OF_DICE head
    before the first comma of an open condition ("if you roll a d20 and ...") is not a roll."""

    __slots__ = ()

    def _head(self, s: Sentence, j: int, start: int, first: bool, used: list[str]) -> tuple[str, int, Any] | None:
        heads = _HEADS_BY_WORD.get(s.words[j])
        if heads is None:
            return None
        opened = first and s.words[start] in _CONDITION_OPENERS and "," not in s.words[start:j]
        for head in heads:
            if (opened and head.name in _IN_CONDITION) or not head.may_read(s, j):
                continue
            reading = head.attempt(s, j)
            if reading is not None:
                used += reading[2]
                return head.name, reading[0], reading[1]
        return None

    def _tails(self, s: Sentence, j: int, used: list[str]) -> tuple[tuple[Tail | Refused, ...], int]:
        found: list[Tail | Refused] = []
        while j < len(s.words) and s.words[j] in _TAIL_WORDS:
            for tail in TAILS:
                if tail.may_read(s, j) and (reading := tail.attempt(s, j)) is not None:
                    found.append(reading[1])
                    used += reading[2]
                    j = reading[0]
                    break
            else:
                break
        return tuple(found), j

    def _where(self, s: Sentence, start: int) -> tuple[int, str, tuple[str, ...]] | None:
        """A "where X is ..." clause that runs to the end of the sentence, from the first place it may."""
        for k in range(start, len(s.words)):
            if s.words[k] in (",", "where") and (reading := WHERE_X.attempt(s, k)) is not None:
                end, value, used = reading
                if end == len(s.words):
                    return k, value["what"], used
        return None

    def scan(self, s: Sentence, i: int, used: list[str]) -> Rolls | None:
        """The rolls from token ``i``; ``used`` gathers the productions read (while tracing)."""
        n = len(s.words)
        found: list[tuple[str, Any, tuple[Tail | Refused, ...], int]] = []  # production, head, tails, end
        starts: list[int] = []
        j = i
        while j < n:
            head = self._head(s, j, i, not found, used)
            if head is None:
                j += 1
                continue
            name, end, value = head
            tails: tuple[Tail | Refused, ...] = ()
            if name in _TAILED:
                tails, end = self._tails(s, end, used)
            starts.append(j)
            found.append((name, value, tails, end))
            j = end
        if not found:
            return None
        where_x = self._where(s, found[-1][3])
        where: tuple[int, str] | None = None
        if where_x is not None:
            where = where_x[:2]
            used += where_x[2]
        last = where[0] if where is not None else n
        phrases = tuple(
            RollPhrase(name, value, tails, (end, starts[k + 1] if k + 1 < len(found) else last))
            for k, (name, value, tails, end) in enumerate(found)
        )
        return Rolls(s, (i, starts[0]), phrases, where)

    def parse(self, s: Sentence, i: int) -> Result | None:
        used: list[str] = []
        found = self.scan(s, i, used) if i < len(s.words) else None
        if found is None:
            return None
        return (len(s.words), (("rolls", found), *(("#", name) for name in used)))

    def first(self) -> None:
        return None

    def clauses(self) -> tuple[frozenset[str], ...]:
        return (_ROLLING,)

    def notation(self) -> str:
        return "<text> HEAD TAIL* {<text> HEAD TAIL*} <text> [WHERE_X]"


ROLLS = Rule(
    "ROLLS",
    _Rolls(),
    build=lambda f: f["rolls"],
    doc="A sentence that rolls: every roll phrase in it, each with its tails, and the text between.",
)
ROLLS_IN_EFFECT = Rule("ROLLS_IN_EFFECT", _Rolls(), build=lambda f: f["rolls"])
"""The rolls inside a triggered ability's effect or a recognised ability's sentence."""

# -- sentences that follow a roll (CR 706.3b, 706.4) -------------------------------------------
# Each sentence production builds a node: a frozen value that says what the sentence means, which
# the compiler folds into the card (``compiler._ACTIONS``, keyed by the node's type).

_EFFECT = cap("text", rest())


def _known(value: Any) -> Any:
    """A part's value, or the refusal its numbers met raised again (the sentence is refused with it)."""
    if isinstance(value, Refused):
        raise CardTextError(value.reason)
    return value


@wording(Reads.RESULT, Reads.CHOSEN)
def _on_result_words(outcome: Outcome) -> str:
    if isinstance(outcome.condition, Parity):
        return f"If the result is {outcome.condition.describe()}, {NEUTRAL_EFFECT}."
    if outcome.condition is not None:
        return f"If the result is {canonical(outcome.condition)[2:]}, {NEUTRAL_EFFECT}."
    return "Apply the result."


@wording(Reads.DOUBLES)
def _doubles_words(outcome: Outcome) -> str:
    return f"If you rolled doubles, {NEUTRAL_EFFECT}."


@wording(Reads.OTHERWISE)
def _otherwise_words(outcome: Outcome) -> str:
    return f"Otherwise, {NEUTRAL_EFFECT}."


@flip_wording(CoinReads.OTHERWISE)
def _coin_otherwise_words(outcome: FlipOutcome, until: Until | None) -> str:
    return f"Otherwise, {NEUTRAL_EFFECT}."


@wording(Reads.TIES)
def _ties_words(outcome: Outcome) -> str:
    return "Reroll to break ties."


@wording(Reads.STANDING)
def _standing_words(outcome: Outcome) -> str:
    assert outcome.extreme is not None
    if outcome.who is None:
        return f"The player with the {outcome.extreme.value} result applies it."
    who = "you" if outcome.who is Scope.YOU else "an opponent"
    return f"If {who} had the {outcome.extreme.value} result, {NEUTRAL_EFFECT}."


@wording(Reads.COUNT)
def _exactly_words(outcome: Outcome) -> str:
    assert outcome.condition is not None and outcome.times is not None
    value, times = one_value(outcome.condition), number_words(outcome.times)
    return f"If you rolled {value} exactly {times} times, {NEUTRAL_EFFECT}."


@wording(Reads.EACH)
def _for_each_words(outcome: Outcome) -> str:
    if isinstance(outcome.condition, Parity):
        return f"For each {outcome.condition.describe()} result, {NEUTRAL_EFFECT}."
    if outcome.condition is not None:
        return f"For each result of {one_value(outcome.condition)}, {NEUTRAL_EFFECT}."
    return f"For each die, {NEUTRAL_EFFECT}."


_NUMBER_USED = {Reads.TOTAL: "the total", Reads.DIFFERENCE: "the difference", Reads.OTHER: "the other result"}


@wording(*_NUMBER_USED)
def _number_used_words(outcome: Outcome) -> str:
    """A sentence after a roll that uses one of its numbers (``FOLLOW_UP``), or an outcome on the
    total (``CONDITIONAL``)."""
    if outcome.reads is Reads.TOTAL and isinstance(outcome.condition, Parity):
        return f"If the total is {outcome.condition.describe()}, {NEUTRAL_EFFECT}."
    if outcome.reads is Reads.TOTAL and outcome.condition is not None:
        return f"If the total is {canonical(outcome.condition)[2:]}, {NEUTRAL_EFFECT}."
    return f"Apply {_NUMBER_USED[outcome.reads]}."


class Repeat(Node):
    """ "If you roll <condition>, [you may] repeat this process" (CR 706.3c)."""

    condition: Condition
    optional: bool


class OnResult(Node):
    """An outcome on the result: "if the result is <condition>, ..." (``None``: compared with
    something the text names). ``total``: the text names the total ("if the total is 7");
    ``rolled``: it says what was rolled ("if you rolled 12"), which after several counted dice
    is their total."""

    condition: Condition | None
    total: bool = False
    rolled: bool = False


class EffectIf(Node):
    """A later conditional sentence of a triggered ability: part of its effect."""


class Doubles(Node):
    """ "If you rolled doubles, ..."."""


class Exactly(Node):
    """ "If you rolled <value> exactly <times> times, ..."."""

    value: int
    times: int


class ForEachResult(Node):
    """An outcome for each result (of one value, when ``condition`` says it)."""

    condition: Condition | None = None


class Otherwise(Node):
    """ "Otherwise, ...": the outcome when none other applied."""


class Ties(Node):
    """Ties between players' results are rolled again."""


class Standing(Node):
    """An outcome on who had the lowest or highest result (``who``: only when the text names one)."""

    extreme: Extreme
    who: Scope | None = None


class Store(Node):
    """The results of the roll before are stored on the permanent (CR 706.8)."""


class FollowUp(Node):
    """A sentence after a roll that uses its dice without rolling: whether it uses the result,
    whether it names dice, and which number of the roll it reads (each found when asked: this
    production reads every sentence after a roll, and most readings lose to another)."""

    sentence: Sentence

    @property
    def uses_result(self) -> bool:
        return uses_result(self.sentence)

    @property
    def names_dice(self) -> bool:
        return mentions_dice(self.sentence)

    @property
    def reads(self) -> Reads:
        return reads_of(self.sentence.text)


REPEAT = Rule(
    "REPEAT",
    seq(
        "if",
        words("you roll", "the result is", "the roll is", "it's"),
        cap("cond", CONDITION),
        ",",
        opt(cap("may", "you may")),
        "repeat this process",
        END,
    ),
    build=lambda f: Repeat(_known(f["cond"]), "may" in f),
)
_CONDITIONAL_HEAD = alt(
    seq(
        "if",
        alt(
            cap("rolled", seq("you", opt("a"), words("roll", "rolled"))),
            seq("the", words("result", "roll"), words("is", "was")),
            seq("the result of", words("that", "the"), "roll is"),
            words("it's", "it is", "that player roll", "that player rolls", "they roll"),
            cap(
                "total",
                seq("the total", opt("of", words("those", "the", "their"), words("results", "rolls", "dice")), "is"),
            ),
            seq(words("any of those results", "any of the results", "1 of those results"), words("is", "was")),
        ),
    ),
    "on",
)
CONDITIONAL = Rule(
    "CONDITIONAL",
    seq(_CONDITIONAL_HEAD, either("cond", CONDITION, SYMBOLIC_CONDITION), ",", _EFFECT, END),
    build=lambda f: OnResult(_known(f["cond"]), "total" in f, "rolled" in f),
    doc='An outcome on the result: "if the result is 5 or more, ...", "if you rolled a 1, 2, or 3, ...".',
)
EFFECT_IF = Rule(
    "EFFECT_IF",
    seq(_CONDITIONAL_HEAD, span(stop=","), ",", _EFFECT, END),
    build=lambda f: EffectIf(),
    doc="A later sentence of a triggered ability that is conditional on something (part of its effect).",
)
_SAME_RESULTS = seq(
    opt(words("both", "all", "all the", "the", "the 2")),
    words("results", "die rolls", "rolls", "dice"),
    words("are the same", "are equal", "match", "show the same number", "show the same result"),
)
"""Doubles in other words (CR 706.5): every counted result equal to the others."""
DOUBLES = Rule(
    "DOUBLES",
    seq(
        "if",
        alt(
            seq(words("you", "they", "that player", "he or she", "a player"), words("roll", "rolled"), "doubles"),
            _SAME_RESULTS,
        ),
        opt(","),
        _EFFECT,
    ),
    build=lambda f: Doubles(),
    doc='"If you rolled doubles, ...", "if both results are the same, ...", "if the dice show the same number, ..." '
    "(CR 706.5).",
)
EXACTLY = Rule(
    "EXACTLY",
    seq("if you rolled", cap("value", NUMBER), "exactly", cap("times", NUMBER), words("times", "time"), ",", _EFFECT),
    build=lambda f: Exactly(number(f["value"]), number(f["times"])),
)


def _for_each(f: Fields) -> ForEachResult:
    if "value" in f:
        value = number(f["value"])
        return ForEachResult(InRange(value, value))
    if "parity" in f:
        return ForEachResult(Parity(even=f.words_of("parity") == "even"))
    return ForEachResult()


FOR_EACH = Rule(
    "FOR_EACH",
    seq(
        "for each",
        alt(
            "die",
            seq(
                opt(alt(cap("parity", words("odd", "even")), words("other", "different"))),
                words("result", "results"),
                opt("of", cap("value", NUMBER)),
                ahead(","),
            ),
            seq("result", words("of", "that is"), span(stop=",")),
        ),
        ",",
        _EFFECT,
    ),
    build=_for_each,
)
_EACH_MEETING = alt(
    seq(cap("parity", words("odd", "even")), words("result", "results")),
    seq(words("result", "results"), "of", cap("value", NUMBER)),
)
FOR_EACH_AFTER = Rule(
    "FOR_EACH_AFTER",
    seq(span(until=seq("for each", _EACH_MEETING, END)), "for each", _EACH_MEETING, END),
    build=_for_each,
    doc='An outcome for each result that meets a condition, named after its effect: "draw a card for each odd result".',
)
OTHERWISE = Rule("OTHERWISE", seq("otherwise ,", _EFFECT), build=lambda f: Otherwise())


# -- totals the turn or the permanent remembers (rules/memory.py) ----------------------------------


class RememberedTotal(Node):
    """An outcome on a total equal to another total rolled this turn for the same ability."""


class NoteTotal(Node):
    """The total is noted on the permanent when no other outcome held ("... any other total, note it")."""


class NotedTotal(Node):
    """An outcome on a total equal to the one noted on the permanent."""


_THE_TOTAL_IS = seq("if the total", opt("of", words("those", "the", "their"), words("results", "rolls", "dice")), "is")
_YOU_ROLL = seq("if you", words("roll", "rolled"))
_THIS_ABILITY = seq(opt("you have", words("rolled", "roll")), "this turn", "for this ability")
REMEMBERED_TOTAL = Rule(
    "REMEMBERED_TOTAL",
    seq(
        alt(seq(_THE_TOTAL_IS, opt(words("equal to", "the same as"))), _YOU_ROLL),
        words("any other total", "a total"),
        _THIS_ABILITY,
        ",",
        _EFFECT,
        END,
    ),
    build=lambda f: RememberedTotal(),
    doc='An outcome on a total rolled before this turn for the same ability ("any other total ... for this ability").',
)
NOTE_TOTAL = Rule(
    "NOTE_TOTAL",
    seq(
        _YOU_ROLL,
        "any other total ,",
        "note",
        words("that total", "the total", "that result", "the result"),
        END,
    ),
    build=lambda f: NoteTotal(),
    doc='The total noted on the permanent when no other outcome held ("... any other total, note it").',
)
NOTED_TOTAL = Rule(
    "NOTED_TOTAL",
    seq(alt(_YOU_ROLL, _THE_TOTAL_IS), "the noted", words("total", "result"), ",", _EFFECT, END),
    build=lambda f: NotedTotal(),
    doc='An outcome on the total noted on the permanent: "if you roll the noted total, ...".',
)
_REMEMBERED_WORDS = ("If the total is equal to any other total", "you have rolled this turn", "for this ability")


@wording(Reads.REMEMBERED)
def _remembered_words(outcome: Outcome) -> str:
    return f"{' '.join(_REMEMBERED_WORDS)}, {NEUTRAL_EFFECT}."


@wording(Reads.NOTE)
def _note_words(outcome: Outcome) -> str:
    return " ".join(("If you rolled", "any other total,", "note that total."))


@wording(Reads.NOTED)
def _noted_words(outcome: Outcome) -> str:
    return f"If you roll the noted total, {NEUTRAL_EFFECT}."


EACH_WHO_ROLLED = Rule(
    "EACH_WHO_ROLLED",
    seq(
        words("each player", "each opponent", "each of those players", "a player", "an opponent", "any player"),
        words("who", "that"),
        words("rolled", "rolls", "rolls a result of"),
        cap("cond", CONDITION),
        opt(","),
        rest(),
    ),
    build=lambda f: ForEachResult(_known(f["cond"])),
    doc='An outcome for each player whose result meets a condition: "each opponent who rolled a 1 loses 2 life".',
)
REROLL_TIES = Rule(
    "REROLL_TIES",
    seq(
        alt(
            seq(
                opt(words("tied players", "players who tied", "they")),
                words("reroll", "roll again"),
                alt(
                    seq("to break", opt("a"), words("tie", "ties")),
                    seq("if", words("there is", "there's"), "a tie"),
                    seq(words("any", "all"), "ties"),
                ),
            ),
            seq(words("break", "settle"), "ties by rerolling"),
        ),
        opt(", if necessary"),
        END,
    ),
    build=lambda f: Ties(),
    doc='Ties between players\' results are rerolled: "roll again to break ties", "reroll any ties".',
)
_STANDING_PHRASE = seq(
    "the",
    words("player", "players", "opponent", "opponents"),
    "with the",
    cap("extreme", words("lowest", "highest")),
    words("result", "roll", "total"),
)
STANDING = Rule(
    "STANDING",
    somewhere(_STANDING_PHRASE),
    build=lambda f: Standing(Extreme(f["extreme"])),
    doc="Players' results compared: the player or opponent with the lowest or highest (when each player rolls).",
)
WHO_HAD = Rule(
    "WHO_HAD",
    seq(
        "if",
        cap("who", words("1 or more opponents", "an opponent", "you")),
        words("had", "rolled", "got"),
        "the",
        cap("extreme", words("highest", "lowest")),
        words("result", "roll", "total"),
        opt("or tied for", alt("it", seq("the", words("highest", "lowest"), opt("result")))),
        ",",
        _EFFECT,
    ),
    build=lambda f: Standing(Extreme(f["extreme"]), Scope.YOU if f["who"] == "you" else Scope.OPPONENT),
    doc='An outcome on who had the lowest or highest result: "if one or more opponents had the highest result, ...".',
)
STORE_SENTENCE = Rule(
    "STORE_SENTENCE",
    seq(
        words("store", "install", "put"),
        words("those", "the", "that", "its"),
        words("result", "results"),
        "on",
        words("~", "it", "them"),
        END,
    ),
    build=lambda f: Store(),
    doc='The results of the roll before are stored on the permanent (CR 706.8): "install the result on ~".',
)
FOLLOW_UP = Rule(
    "FOLLOW_UP",
    rest(),
    build=lambda f: REJECT if mentions_rolling(f.sentence) else FollowUp(f.sentence),
    doc='A sentence after a roll that uses its dice without rolling ("it becomes a Die token").',
)

# -- effects on other rolls ---------------------------------------------------------------------


class ExtraDiceHow(Node):
    """ "Instead roll that many dice plus N and ignore the lowest" (or N that a player chooses)."""

    extra: int
    chosen: bool = False
    chosen_by: Decider = Decider.ROLLER
    """Who picks the dice to ignore: the roller, the effect's controller ("you choose"), or another player."""


class MoreOfThemHow(Node):
    """ "Instead roll N of that die and ignore the lower rolls" (one die rolled as N)."""

    n: int


class PairHow(Node):
    """ "Instead roll two of those dice and ignore one of the results"."""


_USE_THE_TOTAL = Recognition(
    "use the total",
    "a one-time replacement (the next roll this turn): each die becomes several whose total is its result",
)


class TotalHow(Node):
    """ "Instead roll N dice and use the total": recognised, not applied."""

    n: int

    @property
    def recognition(self) -> Recognition:
        return _USE_THE_TOTAL

    def details(self, sides: int | None) -> tuple[tuple[str, Any], ...]:
        return (("dice", self.n), ("sides", sides))


_ROLL_THEN = Recognition(
    "roll, then", "the dice are rolled as they are; what the replacement does after the roll is kept as text"
)


class ThenHow(Node):
    """ "Roll them and <then>": the dice as they are, then the rest kept as text."""

    then: str

    @property
    def recognition(self) -> Recognition:
        return _ROLL_THEN

    def details(self, sides: int | None) -> tuple[tuple[str, Any], ...]:
        return (("sides", sides), ("then", self.then))


How = ExtraDiceHow | MoreOfThemHow | PairHow | TotalHow | ThenHow
"""How a replacement rolls instead (``HOW_*``)."""


def _extra(f: Fields) -> int:
    return 1 if f["extra"] in ("a", "an") else number(f["extra"])


_INSTEAD_ROLL = seq(opt("instead"), opt("roll"))
_THAT_MANY_PLUS = seq(
    _INSTEAD_ROLL,
    "that many",
    alt("dice", "of those dice", seq(CHUNK, "dice")),
    "plus",
    cap("extra", alt(words("a", "an"), NUMBER)),
    opt("instead"),
)
HOW_EXTRA_LOWEST = Rule(
    "HOW_EXTRA_LOWEST",
    seq(
        _THAT_MANY_PLUS,
        "and",
        words("ignore", "ignores"),
        "the",
        opt(cap("n", NUMBER)),
        "lowest",
        opt(words("roll", "rolls", "result", "results", "die", "dice")),
    ),
    build=lambda f: ExtraDiceHow(_extra(f)),
)


def _chooser(who: object) -> Decider:
    """Who picks an extra die to ignore: "you" (the effect's controller), another player, or the roller."""
    if who is None:
        return Decider.ROLLER
    return Decider.CONTROLLER if str(who).lower() == "you" else Decider.OPPONENT


HOW_EXTRA_CHOSEN = Rule(
    "HOW_EXTRA_CHOSEN",
    seq(
        _THAT_MANY_PLUS,
        "and",
        alt(
            seq(
                cap(
                    "chooser",
                    words("an opponent", "target opponent", "another player", "that player's opponent", "you"),
                ),
                words("chooses", "choose"),
                alt(NUMBER, "a"),
                opt(words("of them", "of those results", "of those rolls")),
                "to ignore",
            ),
            seq(
                words("ignore", "ignores"),
                cap("n", NUMBER),
                opt("of", alt("them", seq("those", words("dice", "results", "rolls")))),
            ),
        ),
    ),
    build=lambda f: ExtraDiceHow(_extra(f), chosen=True, chosen_by=_chooser(f.get("chooser"))),
)
HOW_MORE_OF_THEM = Rule(
    "HOW_MORE_OF_THEM",
    seq(
        _INSTEAD_ROLL,
        cap("n", NUMBER),
        cap("die", DIE),
        opt("instead"),
        "and ignore the",
        words("lower", "lowest"),
        opt(cap("k", NUMBER)),
        words("roll", "rolls", "result", "results"),
    ),
    build=lambda f: MoreOfThemHow(number(f["n"])),
    doc='Roll one die as several and keep the best: "instead roll two d20s and ignore the lower roll".',
)
HOW_PAIR = Rule(
    "HOW_PAIR",
    seq(
        _INSTEAD_ROLL,
        cap("n", NUMBER),
        "of",
        words("those", "that"),
        words("dice", "die"),
        "and",
        words("ignore", "ignores"),
        cap("ignore", NUMBER),
        "of",
        words("those", "the"),
        words("results", "rolls", "dice"),
    ),
    build=lambda f: PairHow() if number(f["n"]) == 2 and number(f["ignore"]) == 1 else REJECT,
)
HOW_TOTAL = Rule(
    "HOW_TOTAL",
    seq(_INSTEAD_ROLL, cap("n", NUMBER), cap("die", DIE), "and use the total"),
    build=lambda f: TotalHow(number(f["n"])),
)
HOW_THEN = Rule(
    "HOW_THEN",
    seq(_INSTEAD_ROLL, words("them", "those dice", "that die", "it"), "and", cap("then", rest())),
    build=lambda f: ThenHow(f["then"]),
    doc='A replacement that rolls the dice as they are and then does something more ("... and you may <do>").',
)
HOW = Rule(
    "HOW",
    either("how", HOW_EXTRA_LOWEST, HOW_EXTRA_CHOSEN, HOW_MORE_OF_THEM, HOW_PAIR, HOW_TOTAL, HOW_THEN),
    build=lambda f: f["how"],
    doc="How a replacement rolls instead.",
)


class Replacement(Node):
    """ "If <who> would roll <dice>, [they may] instead <how>" (CR 614): whose rolls, of which die,
    whether by choice, and how they are rolled instead."""

    scope: Scope
    sides: int | None
    optional: bool
    how: How


def _replacement(f: Fields) -> Any:
    how = f["how"]
    if isinstance(how, MoreOfThemHow) and ("one" not in f or how.n < 2):
        # "If you would roll a d20, instead roll two d20s and ignore the lower roll": one die only.
        return REJECT
    return Replacement(scope(f["who"]), sides_filter(f["what"]), "may" in f, _known(how))


_REPLACEMENT_WHO = words("you", "a player", "an opponent", "each player", "target player")
_WOULD_ROLL = seq(opt("if"), _REPLACEMENT_WHO, "would roll")

REPLACEMENT = Rule(
    "REPLACEMENT",
    seq(
        opt(
            alt(
                seq(span(until=seq(",", _WOULD_ROLL)), ","),
                seq(span(0, until=seq("the next time", _WOULD_ROLL)), "the next time"),
            )
        ),
        opt("if"),
        cap("who", _REPLACEMENT_WHO),
        "would roll",
        cap(
            "what", alt(seq(cap("one", ONE_DIE), ahead(opt("this turn"), ",")), span(until=seq(opt("this turn"), ",")))
        ),
        opt("this turn"),
        ",",
        opt(opt("instead"), words("they", "you", "that player")),
        opt(cap("may", "may")),
        opt("instead"),
        opt(words("roll", "rolls")),
        cap("how", HOW),
        END,
    ),
    build=_replacement,
    doc='"If you would roll one or more dice, instead roll that many dice plus one and ignore the lowest roll".',
)


@wording(ExtraDice)
def _extra_dice_words(effect: ExtraDice) -> str:
    who, _verb = whose(effect.scope)
    may = "may " if effect.optional else ""
    extra = number_words(effect.extra)
    dice, they = sized(effect.sides, one=False), _they(effect.scope)
    lead = f"If {who} would roll {dice}, {they} {may}instead roll that many dice plus "
    if effect.ignore is IgnoreMode.LOWEST:
        lowest = "the lowest roll" if effect.extra == 1 else f"the {effect.extra} lowest rolls"
        return lead + f"{extra} and ignore {lowest}." + used_once(effect)
    if effect.chosen_by is Decider.OPPONENT:
        return lead + f"{extra} and an opponent chooses {extra} of them to ignore." + used_once(effect)
    if effect.chosen_by is Decider.CONTROLLER:
        return lead + f"{extra} and you choose {extra} of them to ignore." + used_once(effect)
    return lead + f"{extra} and ignore {extra} of them." + used_once(effect)


@wording(PairEachDie)
def _pair_words(effect: PairEachDie) -> str:
    who, _verb = whose(effect.scope)
    dice = sized(effect.sides, one=True)
    they = _they(effect.scope)
    return f"If {who} would roll {dice}, instead {they} roll two of that die and ignore one of the rolls." + used_once(
        effect
    )


_VERB = cap("verb", words("increase or decrease", "decrease or increase", "increase", "decrease"))


class Modifier(Node):
    """A change to a result (CR 706.2): by how much (signed), whether either way, the cost of an
    optional one, whose rolls and of which die."""

    delta: int
    either: bool = False
    cost: Cost | None = None
    scope: Scope = Scope.ANY
    sides: int | None = None


def _delta(f: Fields) -> int:
    return number(f["n"]) * (-1 if f["verb"] == "decrease" else 1)


class AfterRoll(Node):
    """ "After <who> rolls a die, you may <cost>": an optional modifier's first sentence."""

    cost: Cost
    scope: Scope
    sides: int | None


class IfYouDo(Node):
    """ "If you do, increase or decrease the result by N": the optional modifier's change."""

    delta: int
    either: bool


class OnceEachTurn(Node):
    """ "Do this only once each turn": the ability before is limited."""


STATIC_MODIFIER = Rule(
    "STATIC_MODIFIER",
    seq(
        cap("verb", words("increase", "decrease")),
        "the",
        words("result", "results"),
        "of each",
        cap("die", DIE),
        alt(seq(cap("who", WHO), words("roll", "rolls")), "rolled"),
        "by",
        cap("n", NUMBER),
        END,
    ),
    build=lambda f: Modifier(_delta(f), scope=scope(f.get("who") or "a player"), sides=sides_filter(f["die"])),
)
AFTER_ROLL = Rule(
    "AFTER_ROLL",
    seq(
        "after",
        cap("who", WHO),
        words("roll", "rolls"),
        words("a", "an", "1 or more"),
        cap("die", DIE),
        ", you may",
        cap("cost", rest()),
    ),
    build=lambda f: AfterRoll(cost(f["cost"]), scope(f["who"]), sides_filter(f["die"])),
)
COSTED_MODIFIER = Rule(
    "COSTED_MODIFIER",
    seq(
        "you may",
        cap("cost", span(until=seq("to", _VERB, "the result of"))),
        "to",
        _VERB,
        "the result of",
        words("a", "an", "1"),
        cap("die", DIE),
        cap("who", WHO),
        "rolled by",
        cap("n", NUMBER),
        END,
    ),
    build=lambda f: Modifier(_delta(f), " or " in f["verb"], cost(f["cost"]), scope(f["who"]), sides_filter(f["die"])),
    doc='An optional modifier in one sentence: "you may pay {1} to increase the result of a die you rolled by 1".',
)
IF_YOU_DO = Rule(
    "IF_YOU_DO",
    seq("if you do ,", _VERB, words("the", "that"), "result by", cap("n", NUMBER), END),
    build=lambda f: IfYouDo(_delta(f), " or " in f["verb"]),
)
ONCE_EACH_TURN = Rule(
    "ONCE_EACH_TURN",
    seq(words("do this", "use this ability", "activate"), "only once each turn", END),
    build=lambda f: OnceEachTurn(),
)


@wording(ResultModifier)
def _modifier_words(effect: ResultModifier) -> str:
    who, verb = whose(effect.scope)
    size = f"d{effect.sides}" if effect.sides is not None else "die"
    amount = abs(effect.delta)
    direction = "increase or decrease" if effect.either_direction else ("increase" if effect.delta > 0 else "decrease")
    if not effect.optional:
        return f"{direction.capitalize()} the result of each {size} {who} {verb} by {amount}." + used_once(effect)
    assert effect.cost is not None
    return (
        f"After {who} {verb} a {size}, you may {effect.cost.text}. If you do, {direction} the result by {amount}."
        + used_once(effect)
    )


class Reroll(Node):
    """A permission to reroll (CR 706.6): on a condition or for a cost, how many dice, whose,
    once each turn; ``activated``: an activated ability's (its cost before the colon)."""

    condition: Condition | None = None
    sides: int | None = None
    cost: Cost | None = None
    many: bool = False
    once: bool = False
    scope: Scope = Scope.YOU


def _reroll_by_cost(f: Fields) -> Reroll:
    what: str = f["what"]
    return Reroll(
        cost=cost(f["cost"]),
        many=what.startswith(("1 or more", "any number")),
        once="once" in f,
        scope=Scope.ANY if "who" in f or what == "any die" else Scope.YOU,
    )


class ActivatedReroll(Node):
    """ "<cost>: Reflip any coin [or reroll any die]": which permissions, and whether of many dice."""

    coin: bool
    die: bool
    many: bool


REROLL_IF = Rule(
    "REROLL_IF",
    seq(
        "if you roll",
        cap("cond", CONDITION),
        opt("on", words("a", "an"), cap("die", DIE)),
        ", you may reroll",
        words("that die", "it", "that roll"),
        END,
    ),
    build=lambda f: Reroll(condition=_known(f["cond"]), sides=sides_filter(f.get("die"))),
)
_REROLLER = words("any player", "target player", "that player")
REROLL_BY_COST = Rule(
    "REROLL_BY_COST",
    seq(
        opt(cap("once", "once each turn ,")),
        "you may",
        cap("cost", span(until=seq("to", opt("have", _REROLLER), "reroll"))),
        "to",
        opt("have", cap("who", _REROLLER)),
        "reroll",
        cap(
            "what",
            alt(
                seq(words("1 or more", "any number of"), "dice", words("you", "that player"), "rolled"),
                seq(words("a", "any", "target"), alt("die", SIZED_DIE), opt(words("you", "that player"), "rolled")),
            ),
        ),
        END,
    ),
    build=_reroll_by_cost,
)
_REROLL_WHAT = seq("reroll", cap("what", words("any die", "a die", "target die", "any number of dice")))
REROLL_ACTIVATED = Rule(
    "REROLL_ACTIVATED",
    seq(
        alt(seq(cap("coin", "reflip", words("any", "a", "target"), "coin"), opt("or", _REROLL_WHAT)), _REROLL_WHAT),
        END,
    ),
    build=lambda f: ActivatedReroll(
        "coin" in f, bool(f.get("what")), bool(f.get("what")) and f["what"].startswith("any number")
    ),
    doc='An activated reroll, reflip, or both joined by "or" (two permissions, in text order).',
)


class CoinReplacement(Node):
    """ "If <who> would flip a coin, instead flip N coins and ignore N-1" (CR 705, 616)."""

    scope: Scope
    extra: int


_ACTIVATE_ONCE = " Activate only once each turn."


@wording(RerollPermission)
def _reroll_words(effect: RerollPermission) -> str:
    if effect.activated:
        assert effect.cost is not None
        what = "any number of dice" if effect.many else "any die"
        return f"{effect.cost.text}: Reroll {what}." + (_ACTIVATE_ONCE if effect.once_each_turn else "")
    if effect.cost is not None:
        once = "Once each turn, you" if effect.once_each_turn else "You"
        if effect.many:
            what = "any number of dice you rolled"
        elif effect.scope is Scope.ANY:
            what = "any die"
        else:
            what = "a die you rolled"
        return f"{once} may {effect.cost.text} to reroll {what}."
    assert effect.condition is not None
    on = f" on a d{effect.sides}" if effect.sides is not None else ""
    return f"If you roll {canonical(effect.condition)}{on}, you may reroll that die." + used_once(effect)


@wording(ReflipPermission)
def _reflip_words(effect: ReflipPermission) -> str:
    assert effect.cost is not None
    once = (_ACTIVATE_ONCE if effect.activated else used_once(effect)) if effect.once_each_turn else ""
    return f"{effect.cost.text}: Reflip any coin." + once


def _coins(f: Fields) -> Any:
    ignore, n = number(f["ignore"]), number(f["n"])
    return CoinReplacement(scope(f["who"]), n - 1) if ignore == n - 1 and n >= 2 else REJECT


COIN_REPLACEMENT = Rule(
    "COIN_REPLACEMENT",
    seq(
        opt("if"),
        cap("who", WHO),
        "would flip a coin ,",
        alt(
            seq("instead", opt(words("you", "they", "that player"))),
            seq(words("you", "they", "that player"), "instead"),
        ),
        "flip",
        cap("n", NUMBER),
        "coins and ignore",
        cap("ignore", NUMBER),
        opt("of them"),
        END,
    ),
    build=_coins,
    doc='A partner-coin replacement (CR 705, 616): "if you would flip a coin, instead flip 2 coins and ignore 1".',
)


@wording(PairEachCoin)
def _coin_pair_words(effect: PairEachCoin) -> str:
    who, _verb = whose(effect.scope)
    coins, extra = number_words(effect.extra + 1), number_words(effect.extra)
    they = _they(effect.scope)
    return f"If {who} would flip a coin, instead {they} flip {coins} coins and ignore {extra} of them." + used_once(
        effect
    )


# -- coins (CR 705) -------------------------------------------------------------------------------
# A flip instruction is read like a roll: its head anywhere in the sentence, then its tails; the
# outcomes of a flip are sentences of their own after it. Each production builds a typed value.

_FLIP_VERB = words("flip", "flips")
_FLIP_WORDS = frozenset({"flip", "flips", "flipped"})
_COIN_OUTCOME_WORDS = frozenset({"coin", "coins", "heads", "tails", "win", "wins", "won", "lose", "loses", "lost"})


def _names_flips_only(s: Sentence) -> bool:
    """A sentence that names flips but no coin, side, win or loss (those an outcome production reads)."""
    return mentions(s, _FLIP_WORDS) and not mentions(s, _COIN_OUTCOME_WORDS) and find(FLIP_HEAD, s) is None


_COIN_NOUN = words("coin", "coins")


class FlipHead(Node):
    """ "<who> flip(s) <count> coin(s)": who flips and how many coins."""

    flipper: Flipper
    how_many: Amount


_FLIPPERS = {
    "you": Flipper.YOU,
    "each player": Flipper.EACH_PLAYER,
    "each opponent": Flipper.EACH_OPPONENT,
    "that player": Flipper.THAT_PLAYER,
    "the player": Flipper.THAT_PLAYER,
    "target player": Flipper.THAT_PLAYER,
    "target opponent": Flipper.THAT_PLAYER,
    "they": Flipper.THAT_PLAYER,
    "you and target opponent each": Flipper.YOU_AND_OPPONENT,
    "you and target player each": Flipper.YOU_AND_OPPONENT,
    "you and an opponent each": Flipper.YOU_AND_OPPONENT,
}


def _flip_head(f: Fields) -> FlipHead:
    flipper = f.get("flipper")
    how_many = Amount.named(amount_name(f["what"])) if "what" in f else count(f["count"])
    if other_player(flipper, f["verb"], "may" in f):
        return FlipHead(Flipper.THAT_PLAYER, how_many)
    return FlipHead(_FLIPPERS[flipper or "you"], how_many)


FLIP_HEAD = Rule(
    "FLIP_HEAD",
    seq(
        opt(cap("flipper", words(*_FLIPPERS))),
        opt(cap("may", "may")),
        cap("verb", _FLIP_VERB),
        alt(
            seq(cap("count", COUNT), _COIN_NOUN),
            seq("a number of coins equal to", cap("what", span(stop=", .", until=alt("until", "twice", END)))),
        ),
    ),
    build=_flip_head,
    doc='"Flip a coin", "flip 3 coins", "each player flips a coin", "you and target opponent each flip a coin", '
    '"its controller flips a coin" (a player the text names), "flip a number of coins equal to <amount>".',
)


class FlipTail(Node):
    """What follows a flip's coins: "until you lose a flip [or choose to stop flipping]", "N times",
    "for each <amount>" (the count it gives), ", where X is <amount>" (its words)."""

    until: Until | None = None
    may_stop: bool = False
    times: Amount | None = None
    for_each: Amount | None = None
    where: str | None = None


_WIN_WORDS = ("win", "wins", "won")
_LOSE_WORDS = ("lose", "loses", "lost")
_WIN_OR_LOSE = alt(cap("win", words(*_WIN_WORDS)), cap("lose", words(*_LOSE_WORDS)))


def _until(f: Fields) -> FlipTail:
    return FlipTail(until=Until.WIN if "win" in f else Until.LOSE, may_stop="stop" in f)


FLIP_UNTIL = Rule(
    "FLIP_UNTIL",
    seq(
        "until",
        words("you", "they", "that player"),
        _WIN_OR_LOSE,
        words("a flip", "a coin flip"),
        opt(cap("stop", "or choose to stop flipping")),
    ),
    build=_until,
    doc='"until you lose a flip", "until you win a flip", "... or choose to stop flipping".',
)
FLIP_TIMES = Rule(
    "FLIP_TIMES",
    seq(
        alt(seq(cap("times", alt(words("that many", "x"), NUMBER)), "times"), cap("twice", "twice")),
        opt("or", cap("until", FLIP_UNTIL)),
        opt(", whichever comes first"),
    ),
    build=lambda f: FlipTail(
        until=f["until"].until if "until" in f else None,
        may_stop="until" in f and f["until"].may_stop,
        times=Amount(2) if "twice" in f else count(f["times"]),
    ),
    doc='"that many times or until you lose a flip, whichever comes first", "twice".',
)
FLIP_FOR_EACH = Rule(
    "FLIP_FOR_EACH",
    seq("for each", cap("what", span(stop=", ."))),
    build=lambda f: FlipTail(for_each=Amount.named(amount_name("each " + f["what"]))),
    doc='"flip a coin for each opponent you have": the count is that amount.',
)
FLIP_WHERE = Rule(
    "FLIP_WHERE",
    seq(opt(","), "where x is", cap("what", span(stop=".")), END),
    build=lambda f: FlipTail(where=f["what"]),
    doc='"flip X coins, where X is <amount>": the amount X names.',
)
FLIP_TAILS = (FLIP_UNTIL, FLIP_TIMES, FLIP_FOR_EACH, FLIP_WHERE)


class FlipPhrase(Node):
    """A sentence's flip: the text before it, its head and tails, and the text after them."""

    sentence: Sentence
    lead: tuple[int, int]
    head: FlipHead | Refused
    tails: tuple[FlipTail | Refused, ...]
    after: tuple[int, int]


class _Flips(Parser):
    """``text FLIP_HEAD FLIP_TAIL* text``: the first flip of a sentence, wherever it stands."""

    __slots__ = ()

    def parse(self, s: Sentence, i: int) -> Result | None:
        n = len(s.words)
        for j in range(i, n):
            if s.words[j] not in _FLIP_STARTS or (reading := FLIP_HEAD.attempt(s, j)) is None:
                continue
            end, head, used = reading
            if end < n and s.words[end] == "again":
                continue  # "flip a coin again": the flip made again, read by its outcome (FLIP_AGAIN)
            tails: list[FlipTail | Refused] = []
            progressed = True
            while progressed and end < n:
                progressed = False
                for tail in FLIP_TAILS:
                    if tail.may_read(s, end) and (found := tail.attempt(s, end)) is not None:
                        tails.append(found[1])
                        used += found[2]
                        end = found[0]
                        progressed = True
                        break
            phrase = FlipPhrase(s, (i, j), head, tuple(tails), (end, n))
            return (n, (("flips", phrase), *(("#", name) for name in used)))
        return None

    def clauses(self) -> tuple[frozenset[str], ...]:
        return (frozenset({"flip", "flips"}), frozenset({"coin", "coins"}))

    def notation(self) -> str:
        return "<text> FLIP_HEAD FLIP_TAIL* <text>"


_FLIP_STARTS = frozenset({phrase.split()[0] for phrase in _FLIPPERS} | {"flip", "flips", "may"})

FLIPS = Rule(
    "FLIPS",
    _Flips(),
    build=lambda f: f["flips"],
    doc="A sentence that flips coins (CR 705): its flip, with the text before and after it.",
)


class CoinWhen(Node):
    """What an outcome of a flip reads (``reads``), how often (``each``), how many flips must meet
    it (``at_least``) or whether all must (``every``), and the effect's words."""

    reads: CoinReads
    each: bool = False
    at_least: int = 1
    every: bool = False
    text: str = ""
    again: bool = False
    """Its effect flips again by choice ("... decides whether to flip again", "... and repeat this process")."""
    rolls: Rolls | None = None
    """The rolls of dice its effect makes (``ROLLS_IN_EFFECT``), if any."""
    single: bool = False
    """It reads "the flip" just made (each execution's own), not "a flip" of all of them."""


def _won_or_lost(f: Fields) -> CoinReads:
    return CoinReads.WON if "win" in f else CoinReads.LOST


_COIN_WHO = words("you", "they", "that player", "the player", "he or she", "a player", "that opponent", "an opponent")


FLIP_AGAIN = Rule(
    "FLIP_AGAIN",
    somewhere(
        alt(
            seq(words("decide", "decides"), "whether to flip again"),
            "repeat this process",
            seq(words("flip", "flips"), words("a coin", "again"), opt("again")),
        )
    ),
    doc='An outcome whose effect flips again if a player chooses: "... decides whether to flip again", '
    '"... unless you pay {3} and repeat this process", "you may flip a coin again".',
)


def _coin_if(f: Fields) -> CoinWhen:
    every = "all" in f or "none" in f
    at_least = number(f["n"]) if "n" in f else 1
    reads = _won_or_lost(f)
    if "none" in f:  # winning no flip is losing every one (a called flip is won or lost, CR 705.1)
        reads = CoinReads.LOST if reads is CoinReads.WON else CoinReads.WON
    return CoinWhen(
        reads,
        every=every,
        at_least=at_least,
        text=f.get("text", ""),
        again="again" in f,
        rolls=f.get("rolls"),
        single="single" in f,
    )


COIN_IF = Rule(
    "COIN_IF",
    seq(
        words("if", "when"),
        _COIN_WHO,
        _WIN_OR_LOSE,
        alt(
            cap("single", alt(words("the flip", "that flip"), ahead(","))),
            words("a flip", "1 flip", "either flip", "any flip", "any of the flips"),
            seq(opt("at least"), cap("n", NUMBER), alt("or more flips", seq("flips", opt("this way")))),
            seq(opt("at least"), cap("n", NUMBER), alt("or more of", "of"), words("the flips", "them", "those flips")),
            cap("all", words("all of them", "both of them", "each of them")),
            seq(cap("all", words("all", "all the", "all of the", "both", "each of the")), opt(NUMBER), opt("flips")),
            cap("none", words("no flips", "neither flip", "none of the flips", "none of them")),
        ),
        ",",
        peek(cap("again", FLIP_AGAIN)),
        peek(cap("rolls", ROLLS_IN_EFFECT)),
        cap("text", rest()),
    ),
    build=_coin_if,
    doc='"If you win the flip, ...", "if you win, ...", "when you lose the flip, ...", "if you lose either flip, '
    '...", "if you win 2 or more flips, ...", "if you lose at least 2 of them, ...", "if you win all 3 flips, '
    '...", "if you win no flips, ..." (every flip lost).',
)


@flip_wording(CoinReads.WON, CoinReads.LOST)
def _won_or_lost_words(outcome: FlipOutcome, until: Until | None) -> str:
    again = ", and you decide whether to flip again" if until is Until.CHOSEN else ""
    verb = "win" if outcome.reads is CoinReads.WON else "lose"
    if outcome.each:
        return f"For each flip you {verb}, {NEUTRAL_EFFECT}."
    if outcome.every:
        return f"If you {verb} all the flips, {NEUTRAL_EFFECT}{again}."
    if outcome.at_least > 1:
        return f"If you {verb} {number_words(outcome.at_least)} or more flips, {NEUTRAL_EFFECT}{again}."
    if outcome.over_all:
        return f"If you {verb} a flip, {NEUTRAL_EFFECT}{again}."
    return f"If you {verb} the flip, {NEUTRAL_EFFECT}{again}."


_COMES_UP = words("comes up", "came up", "come up", "lands", "land")
_SIDE = cap("side", words("heads", "tails"))


def _side(f: Fields) -> CoinReads:
    return CoinReads.HEADS if f["side"] == "heads" else CoinReads.TAILS


COIN_SIDE_IF = Rule(
    "COIN_SIDE_IF",
    seq(
        "if",
        alt(
            seq("the", opt(words("first", "second")), "coin"),
            "it",
            "that coin",
            seq(cap("all", words("both", "all", "all the", "both of the", "all of the", "each of the")), "coins"),
        ),
        _COMES_UP,
        _SIDE,
        ",",
        peek(cap("rolls", ROLLS_IN_EFFECT)),
        cap("text", rest()),
    ),
    build=lambda f: CoinWhen(_side(f), every="all" in f, text=f["text"], rolls=f.get("rolls")),
    doc='"If the coin comes up heads, ...", "if it comes up tails, ...", "if both coins come up heads, ...".',
)


@flip_wording(CoinReads.HEADS, CoinReads.TAILS)
def _side_words(outcome: FlipOutcome, until: Until | None) -> str:
    side = outcome.reads.value
    if outcome.each:
        return f"Apply it for each coin that comes up {side}."
    if outcome.every:
        return f"If all the coins come up {side}, {NEUTRAL_EFFECT}."
    return f"If the coin comes up {side}, {NEUTRAL_EFFECT}."


_COUNTED_COIN = alt(
    seq(words("flip", "flips"), alt(seq(_COIN_WHO, _WIN_OR_LOSE), seq("that", _COIN_WHO, _WIN_OR_LOSE))),
    seq(_COIN_NOUN, opt(words("that", "which")), _COMES_UP, _SIDE),
    seq(words("player", "players"), "whose coin", _COMES_UP, _SIDE),
    seq(
        words("player", "players", "opponent", "opponents"),
        "who",
        _WIN_OR_LOSE,
        words("the flip", "a flip", "their flip", "1 or more flips"),
    ),
)
_EACH_COIN = seq(
    alt(words("for each", "to each", "each"), seq(opt(words("where x is", "equal to")), "the number of")),
    _COUNTED_COIN,
)


def _coin_each(f: Fields) -> CoinWhen:
    reads = _side(f) if "side" in f else _won_or_lost(f)
    return CoinWhen(reads, each=True, text=f.text)


COIN_EACH = Rule(
    "COIN_EACH",
    seq(opt(span(until=_EACH_COIN)), _EACH_COIN, opt(rest())),
    build=_coin_each,
    doc='"For each flip you win, ...", "... for each flip you won", "... for each coin that comes up heads", '
    '"each player whose coin comes up tails ...", "each opponent who loses the flip ...", "... equal to the '
    'number of flips you won", "X ..., where X is how many coins came up heads" (its words).',
)


class CoinRepeat(Node):
    """ "Repeat this process until ...": the flip is made again until then."""

    until: Until


COIN_REPEAT = Rule(
    "COIN_REPEAT",
    seq(
        "repeat this process until",
        words("both", "all", "each"),
        opt(words("players", "player's", "of the")),
        opt("'"),
        _COIN_NOUN,
        _COMES_UP,
        cap("side", "heads"),
        opt("on the same flip"),
        END,
    ),
    build=lambda f: CoinRepeat(Until.ALL_HEADS),
    doc='"Repeat this process until both players\' coins come up heads on the same flip."',
)


class CoinTriggerNode(Node):
    """A coin trigger's parts: whose flips, won or lost, and its effect's words."""

    scope: Scope
    won: bool
    effect: str
    batch: bool = False
    """ "one or more coin flips": once for all the flips of one execution."""


_FIRST_FLIP = Recognition(
    "first flip each turn", "an effect on the first flip of a turn; the rest of its effect is kept as text"
)


class FirstFlip(Node):
    """ "The first time <who> flips one or more coins each turn, <effect>": recognised, not applied."""

    scope: Scope
    effect: str

    @property
    def recognition(self) -> Recognition:
        return _FIRST_FLIP

    def details(self) -> tuple[tuple[str, Any], ...]:
        return (("effect", self.effect),)


COIN_TRIGGER = Rule(
    "COIN_TRIGGER",
    seq(
        words("whenever", "when"),
        cap("who", WHO),
        _WIN_OR_LOSE,
        alt(words("a coin flip", "a flip"), cap("batch", words("1 or more coin flips", "1 or more flips"))),
        ",",
        cap("effect", rest()),
    ),
    build=lambda f: CoinTriggerNode(scope(f["who"]), "win" in f, f["effect"], "batch" in f),
    doc='"Whenever you win a coin flip, ...", "whenever a player loses a coin flip, ...", "whenever you win 1 or '
    'more coin flips, ..." (CR 603, 705.1).',
)


@wording(CoinTrigger)
def _coin_trigger_words(effect: CoinTrigger) -> str:
    who, verb = whose(effect.scope)
    win = ("win" if effect.won else "lose") if verb == "roll" else ("wins" if effect.won else "loses")
    flips = "one or more coin flips" if effect.batch else "a coin flip"
    return f"Whenever {who} {win} {flips}, {effect.effect}." + used_once(effect)


FIRST_FLIP = Rule(
    "FIRST_FLIP",
    seq(
        "the first time",
        cap("who", WHO),
        _FLIP_VERB,
        words("1 or more coins", "a coin"),
        words("each turn", "this turn"),
        ",",
        cap("effect", rest()),
    ),
    build=lambda f: FirstFlip(scope(f["who"]), f["effect"]),
    doc='"The first time you flip one or more coins each turn, ..." (an effect on that flip).',
)


_FLIP_TRIGGER = Recognition(
    "flip trigger", "an ability that triggers on flipping coins, won or not; the rules trigger on flips won or lost"
)


class FlipTrigger(Node):
    """ "Whenever <who> flip(s) a coin | one or more coins, <effect>": recognised, not applied."""

    scope: Scope
    effect: str

    @property
    def recognition(self) -> Recognition:
        return _FLIP_TRIGGER

    def details(self) -> tuple[tuple[str, Any], ...]:
        return (("effect", self.effect),)


FLIP_TRIGGER = Rule(
    "FLIP_TRIGGER",
    seq(
        words("whenever", "when"),
        cap("who", WHO),
        _FLIP_VERB,
        words("a coin", "1 or more coins", "coins"),
        ",",
        cap("effect", rest()),
    ),
    build=lambda f: FlipTrigger(scope(f["who"]), f["effect"]),
    doc='"Whenever you flip one or more coins, ...", "whenever a player flips a coin, ..." (a trigger on the flip '
    "itself, CR 603, 705).",
)


@flip_wording(CoinReads.NONE)
def _coin_follow_up_words(outcome: FlipOutcome, until: Until | None) -> str:
    """A sentence that speaks of the flips without reading them keeps its own words."""
    return outcome.text


class CoinFollowUp(Node):
    """A sentence after a flip that speaks of its flips without flipping: an outcome's words."""


COIN_FOLLOW_UP = Rule(
    "COIN_FOLLOW_UP",
    rest(),
    build=lambda f: CoinFollowUp() if _names_flips_only(f.sentence) else REJECT,
    doc='A sentence after a flip that speaks of its flips without flipping ("double the stakes with each flip").',
)


# -- triggers (CR 603, 706.2) -------------------------------------------------------------------

NUMERIC_EFFECT = Rule(
    "NUMERIC_EFFECT", words("the result", "that many", "those results"), doc="An effect that uses the number rolled."
)
FROM_GRAVEYARD = Rule(
    "FROM_GRAVEYARD",
    seq(words("return", "put", "cast"), "~ from your graveyard"),
    doc="A trigger whose effect returns the card from the graveyard functions there.",
)


class What(Node):
    """What a trigger waits for: its event, a condition on the die, a die size, the planar die,
    the Nth die of a turn, doubles, and its purpose (``VISIT_ATTRACTIONS``)."""

    event: Event
    condition: Condition | None = None
    sides: int | None = None
    planar: bool = False
    nth: int | None = None
    purpose: str = ""
    doubles: bool = False


def _nth(f: Fields) -> What:
    order = number(f["n"][:-2]) if "n" in f else ORDINALS.index(f["word"]) + 1
    return What(Event.DIE_ROLLED, nth=order)


NTH_DIE = Rule(
    "NTH_DIE",
    seq(
        "your",
        alt(cap("n", ORDINAL_NUMBER), cap("word", words(*ORDINALS))),
        "die",
        opt(words("each turn", "this turn")),
    ),
    build=_nth,
    doc='The Nth die a player rolls in a turn: "your third die each turn", "your 4th die this turn".',
)
VISIT_WHAT = Rule(
    "VISIT_WHAT",
    seq("to visit", words("your", "their"), "attractions"),
    build=lambda f: What(Event.DIE_ROLLED, purpose=VISIT_ATTRACTIONS),
)
WHAT_BATCH = Rule(
    "WHAT_BATCH",
    alt("1 or more dice", "dice", seq("1 or more", cap("die", DIE))),
    build=lambda f: What(Event.DICE_ROLLED, sides=sides_filter(f.text)),
    doc='One or more dice at once: "one or more dice", "one or more d20s".',
)
DOUBLES_WHAT = Rule("DOUBLES_WHAT", words("doubles", "a double"), build=lambda f: What(Event.DICE_ROLLED, doubles=True))
ONE_DIE_WHAT = Rule("ONE_DIE_WHAT", ONE_DIE, build=lambda f: What(Event.DIE_ROLLED, sides=sides_filter(f.text)))
PLANAR_WHAT = Rule("PLANAR_WHAT", PLANAR_DIE, build=lambda f: What(Event.DIE_ROLLED, planar=True))


def _condition_what(f: Fields) -> What:
    condition = f["condition"]
    if isinstance(condition, Refused):
        raise CardTextError(condition.reason)
    return What(Event.DIE_ROLLED, condition, planar=isinstance(condition, FaceIs))


CONDITION_WHAT = Rule("CONDITION_WHAT", cap("condition", CONDITION), build=_condition_what)


def _what(f: Fields) -> What:
    what: What = f["base"]
    if isinstance(what, Refused):
        raise CardTextError(what.reason)
    if "die" in f and not what.doubles and not (what.planar and what.condition is None):
        # "a 6 on a d6", "one or more dice on a d20": the die the suffix names, unless the phrase has one.
        what = what.replace(sides=what.sides if what.sides is not None else sides_filter(f["die"]))
        if isinstance(what.condition, FaceIs) or what.condition is None and "planar" in f["die"].split():
            what = what.replace(planar=True)  # "{CHAOS} on the planar die": the planar die's face
    if "visiting" in f:
        what = what.replace(purpose=VISIT_ATTRACTIONS, doubles=False)
    return what


_SUFFIXED = (DOUBLES_WHAT, WHAT_BATCH, ONE_DIE_WHAT, PLANAR_WHAT, CONDITION_WHAT)
_WHAT_ENDS = ahead(words(",", "on", "while rolling"))
"""Where what a trigger waits for ends: its comma, "on a d6", "while rolling to visit ..."."""
WHAT = Rule(
    "WHAT",
    seq(
        alt(
            *(seq(cap("base", what), _WHAT_ENDS) for what in (NTH_DIE, VISIT_WHAT)),
            seq(
                alt(*(seq(cap("base", what), _WHAT_ENDS) for what in _SUFFIXED)),
                opt("on", opt(words("a", "an", "any")), cap("die", DIE)),
            ),
        ),
        opt(cap("visiting", "while rolling to visit"), words("your", "their"), "attractions"),
    ),
    build=_what,
    doc='What "whenever you roll ..." waits for.',
)

INTERVENING_IF = Rule(
    "INTERVENING_IF",
    seq(
        "if",
        alt(
            seq("you", words("roll", "rolled")),
            seq(words("the", "its", "that die's"), "result is"),
            words("the roll is", "it's", "any of those results is", "any of those results was"),
        ),
        alt(seq(cap("cond", CONDITION), ahead(",")), span(stop=",")),
        ",",
        rest(),
    ),
    build=lambda f: f.get("cond"),
    doc='An intervening "if" (CR 603.4) on the die that triggered: "if its result is 6, ...".',
)

_TRIGGER_EFFECT = seq(
    peek(cap("intervening", INTERVENING_IF)),
    peek("you may", cap("may_cost", rest())),
    peek(cap("rolls", ROLLS_IN_EFFECT)),
    peek(somewhere(cap("numeric", NUMERIC_EFFECT))),
    peek(somewhere(cap("graveyard", FROM_GRAVEYARD))),
    cap("effect", rest()),
)
TRIGGER_PASSIVE_VOICE = Rule(
    "TRIGGER_PASSIVE_VOICE",
    seq(
        words("whenever", "when"),
        words("a", "an"),
        cap("value", NUMBER),
        "is rolled",
        opt("on", words("a", "an"), cap("die", DIE)),
    ),
    build=lambda f: What(Event.DIE_ROLLED, InRange(number(f["value"]), number(f["value"])), sides_filter(f.get("die"))),
    doc='"Whenever a 3 is rolled on a d8, ..." (anyone\'s roll).',
)
CHAOS_ENSUES = Rule(
    "CHAOS_ENSUES",
    words("whenever chaos ensues"),
    build=lambda f: What(Event.DIE_ROLLED, FaceIs(PlanarFace.CHAOS), planar=True),
)
"""Planechase: "whenever chaos ensues" is a roll of {CHAOS} (CR 901.9)."""


class TriggerNode(Node):
    """ "Whenever <who> rolls <what>, <effect>" (CR 603): what it waits for, whose rolls, an
    intervening "if" on the die, its effect's words, and what the effect holds: a number rolled,
    a return from the graveyard, an optional cost ("you may <cost>"), rolls of its own."""

    what: What
    scope: Scope
    intervening: Condition | Refused | None
    effect: str
    numeric: bool
    graveyard: bool
    may_cost: str | None
    rolls: Rolls | None


def _trigger(f: Fields) -> TriggerNode:
    if "passive" in f:
        what, who = _known(f["passive"]), Scope.ANY
    elif "chaos" in f:
        what, who = f["chaos"], Scope.YOU
    else:
        what, who = _known(f["what"]), scope(f["who"])
    return TriggerNode(
        what,
        who,
        f.get("intervening"),
        f["effect"],
        "numeric" in f,
        "graveyard" in f,
        f.get("may_cost"),
        f.get("rolls"),
    )


TRIGGER = Rule(
    "TRIGGER",
    seq(
        alt(
            seq(
                cap("when", words("whenever", "when")),
                cap("who", words("you", "a player", "an opponent", "each player", "another player")),
                words("roll", "rolls"),
                cap("what", WHAT),
            ),
            cap("passive", TRIGGER_PASSIVE_VOICE),
            cap("chaos", CHAOS_ENSUES),
        ),
        ",",
        _TRIGGER_EFFECT,
    ),
    build=_trigger,
    doc='"Whenever you roll 5 or more on a d10, ...", "whenever a 2 is rolled, ...", "whenever chaos ensues, ...".',
)


class FaceCounts(Node):
    """A face of the planar die that counts as another (CR 901.9)."""

    face: PlanarFace
    counts_as: PlanarFace


def _face(words: str) -> PlanarFace:
    words = words.strip("{}")
    return {"blank": PlanarFace.BLANK, "chaos": PlanarFace.CHAOS}.get(words, PlanarFace.PLANESWALK)


FACE_COUNTS_AS = Rule(
    "FACE_COUNTS_AS",
    somewhere(
        words("each", "every", "a", "any"),
        cap("face", FACE),
        words("roll", "result", "face"),
        words("of", "on"),
        "the planar die",
        words("is", "counts as", "is treated as"),
        words("a", "an"),
        cap("as", FACE),
        words("roll", "result", "face"),
    ),
    build=lambda f: FaceCounts(_face(f["face"]), _face(f["as"])),
    doc="A face of the planar die seen as another (a <face> roll, result or face counts as a <face> one).",
)


@wording(Trigger)
def _trigger_words(effect: Trigger) -> str:
    who, verb = whose(effect.scope)
    size = f" on a d{effect.sides}" if effect.sides is not None and effect.condition is not None else ""
    if effect.doubles:
        what = "doubles"
    elif effect.nth_this_turn is not None:
        nth = effect.nth_this_turn
        what = f"your {ORDINALS[nth - 1] if nth <= len(ORDINALS) else f'{nth}th'} die each turn"
        if effect.condition is not None and not effect.effect.lower().startswith("if "):
            raise ValueError("trigger: an Nth-die trigger keeps its condition in an intervening 'if'")
    elif effect.event is Event.DICE_ROLLED:
        what = sized(effect.sides, one=False)
    elif effect.condition is not None:
        what = canonical(effect.condition)
    elif effect.planar:
        what = "the planar die"
    elif effect.purpose == VISIT_ATTRACTIONS:
        what = "to visit your Attractions"
    else:
        what = sized(effect.sides, one=True)
    if effect.purpose == VISIT_ATTRACTIONS and what != "to visit your Attractions":
        what += " while rolling to visit your Attractions"
    return f"Whenever {who} {verb} {what}{size}, {effect.effect}." + used_once(effect)


@wording(FaceCountsAs)
def _face_counts_words(effect: FaceCountsAs) -> str:
    face, counts_as = FACE_WORDS[effect.face], FACE_WORDS[effect.counts_as]
    return f"Every {face} face of the planar die counts as a {counts_as} face." + used_once(effect)


# -- recognised, not applied ----------------------------------------------------------------------

PROTECTION = Rule("PROTECTION", seq("protection from", words("die rolls", "dice")))
ROLLED_THIS_TURN = Rule(
    "ROLLED_THIS_TURN",
    seq(
        words("if", "as long as"),
        alt(seq(words("you", "a player"), opt(words("'ve", "have", "has"))), "you've"),
        "rolled",
        alt(
            words("a die", "dice", "1 or more dice"),
            seq(NUMBER, "or", words("more", "fewer"), "dice"),
            seq(NUMBER, "dice"),
        ),
        "this turn",
    ),
)
_WHILE_VISITING = seq("while rolling to visit", words("your", "their"), "attractions")
UNTIL_ROLL = Rule(
    "UNTIL_ROLL",
    seq(
        "until",
        words("you", "a player", "that player"),
        words("roll", "rolls"),
        span(stop=", .", until=seq(opt(_WHILE_VISITING), alt(END, ",", "."))),
        opt(_WHILE_VISITING),
        ahead(alt(END, ",", ".")),
    ),
)
STACK_DICE = Rule(
    "STACK_DICE",
    alt(
        seq("stack", alt(NUMBER, words("a", "an", "x", "that many")), alt(words("dice", "die"), SIZED_DIE)),
        seq(words("dice", "die"), "in", words("its", "~'s", "the", "your"), "stack"),
        seq(words("the", "its", "~'s", "your"), "stack", words("falls", "topples", "collapses")),
    ),
    doc="Dexterity dice: stacked, never rolled (stacking N dice, the dice in a stack, a stack that falls).",
)
USE_STORED = Rule(
    "USE_STORED",
    seq(
        words("uninstall", "remove", "use"),
        words("a", "1", "any"),
        opt(words("stored", "installed")),
        words("result", "results"),
        words("from", "on", "stored on", "installed on"),
        words("~", "it"),
        opt(words("to use it", "and use it")),
        words("for", "as", "instead of"),
        opt("the result of"),
        words("a", "1", "any"),
        alt("die", SIZED_DIE),
    ),
    doc="A stored result used in place of a die's result (removed, uninstalled or used, for or as a die's result).",
)
RECOGNISED_ABILITIES = (PROTECTION, ROLLED_THIS_TURN, STACK_DICE, USE_STORED, UNTIL_ROLL)
"""Abilities about dice that the rules recognise without applying; a sentence is the first it names."""
_RECOGNITIONS = {
    PROTECTION.name: Recognition("protection from die rolls", "a targeting rule; no roll changes"),
    ROLLED_THIS_TURN.name: Recognition("rolled this turn", "a condition on the turn's history, checked by a game"),
    STACK_DICE.name: Recognition("stack dice", "a dexterity ability: the dice are stacked, never rolled", no_roll=True),
    USE_STORED.name: Recognition("use stored result", "replaces a result with a stored one"),
    UNTIL_ROLL.name: Recognition("until a roll", "a duration that a later roll ends; tracked by a game"),
}


class Recognised(Node):
    """A sentence with an ability the rules recognise without applying, and the rolls it makes."""

    recognition: Recognition
    rolls: Rolls | None


def _recognised(f: Fields) -> Recognised:
    name = next(name for name in _RECOGNITIONS if name in f)
    return Recognised(_RECOGNITIONS[name], f.get("rolls"))


RECOGNISED = Rule(
    "RECOGNISED",
    seq(
        ahead(alt(*(somewhere(cap(ability.name, ability)) for ability in RECOGNISED_ABILITIES))),
        peek(cap("rolls", ROLLS_IN_EFFECT)),
        rest(),
    ),
    build=_recognised,
    doc="A sentence with an ability about dice that the rules recognise without applying (and its rolls).",
)


@wording(Passive)
def _passive_words(effect: Passive) -> str:
    """A recognised ability keeps its own sentence."""
    return effect.text + used_once(effect)


# -- phrases inside other text ----------------------------------------------------------------------

INDICATED = Rule("INDICATED", alt("the indicated", seq("for each", opt("other"), "result")))
COST_COUNTER = Rule(
    "COST_COUNTER",
    seq("remove", words("a", "an", "1", "one"), cap("kind", CHUNK), "counter"),
    build=lambda f: f["kind"],
)
COST_TAP = Rule("COST_TAP", words("tap", "{t}"))


def cost(words: str) -> Cost:
    """A cost as written, with the counter it removes and whether it taps (what a board checks)."""
    lowered = tokenize(words.lower())
    return Cost(words.strip(), find(COST_COUNTER, lowered), find(COST_TAP, lowered) is not None)


def find(production: Rule, s: Sentence) -> Any:
    """The value of the reading of ``production`` at the first place it reads, or ``None``."""
    vocabulary = s.vocabulary
    if any(clause.isdisjoint(vocabulary) for clause in production.clauses()):
        return None  # a word it needs is nowhere in the sentence
    for i in range(len(s.words)):
        if production.may_read(s, i) and (reading := production.read(s, i)) is not None:
            return reading[1]
    return None


# -- sentences ------------------------------------------------------------------------------------


class Context(Node):
    """What earlier sentences of the same ability set up, as the productions of a sentence see it."""

    roll: bool = False
    """A roll instruction before, in the same ability (an outcome needs one)."""
    each_player: bool = False
    """That roll is made by each player or each opponent (their results are compared)."""
    trigger: bool = False
    """The ability is triggered (a later conditional sentence is part of its effect)."""
    effect: bool = False
    """An effect was made by an earlier sentence."""
    pending: bool = False
    """An optional cost ("you may pay {1}.") waits for "if you do, ..."."""
    activated: bool = False
    """The ability has a cost before a colon."""
    flip: bool = False
    """A flip instruction before, in the same ability (a flip's outcome needs one)."""


class SentenceRule(Node):
    """A production that reads a whole sentence, and the abilities it may stand in."""

    rule: Rule
    where: str
    allowed: Callable[[Context], bool]


def _always(context: Context) -> bool:
    return True


def _after_roll(context: Context) -> bool:
    return context.roll


def _after_flip(context: Context) -> bool:
    return context.flip


SENTENCES = (
    SentenceRule(COIN_REPLACEMENT, "any ability", _always),
    SentenceRule(REPLACEMENT, "any ability", _always),
    SentenceRule(STATIC_MODIFIER, "any ability", _always),
    SentenceRule(COSTED_MODIFIER, "any ability", _always),
    SentenceRule(AFTER_ROLL, "any ability", _always),
    SentenceRule(IF_YOU_DO, "after an optional cost", lambda context: context.pending),
    SentenceRule(ONCE_EACH_TURN, "any ability", _always),
    SentenceRule(REROLL_IF, "any ability", _always),
    SentenceRule(REROLL_BY_COST, "any ability", _always),
    SentenceRule(REROLL_ACTIVATED, "an activated ability", lambda context: context.activated),
    SentenceRule(TRIGGER, "any ability", _always),
    SentenceRule(FACE_COUNTS_AS, "any ability", _always),
    SentenceRule(RECOGNISED, "any ability", _always),
    SentenceRule(STORE_SENTENCE, "after a roll", _after_roll),
    SentenceRule(REPEAT, "after a roll", _after_roll),
    SentenceRule(DOUBLES, "after a roll", _after_roll),
    SentenceRule(EXACTLY, "after a roll", _after_roll),
    SentenceRule(FOR_EACH, "after a roll", _after_roll),
    SentenceRule(FOR_EACH_AFTER, "after a roll", _after_roll),
    SentenceRule(REROLL_TIES, "after a roll", _after_roll),
    SentenceRule(WHO_HAD, "after a roll by each player", lambda context: context.each_player),
    SentenceRule(STANDING, "after a roll by each player", lambda context: context.each_player),
    SentenceRule(EACH_WHO_ROLLED, "after a roll by each player", lambda context: context.each_player),
    SentenceRule(REMEMBERED_TOTAL, "after a roll", _after_roll),
    SentenceRule(NOTE_TOTAL, "after a roll", _after_roll),
    SentenceRule(NOTED_TOTAL, "after a roll", _after_roll),
    SentenceRule(OTHERWISE, "after a roll or a flip", lambda context: context.roll or context.flip),
    SentenceRule(FLIPS, "any ability", _always),
    SentenceRule(COIN_TRIGGER, "any ability", _always),
    SentenceRule(FIRST_FLIP, "any ability", _always),
    SentenceRule(FLIP_TRIGGER, "any ability", _always),
    SentenceRule(COIN_IF, "after a flip", _after_flip),
    SentenceRule(COIN_SIDE_IF, "after a flip", _after_flip),
    SentenceRule(COIN_EACH, "after a flip", _after_flip),
    SentenceRule(COIN_REPEAT, "after a flip", _after_flip),
    SentenceRule(COIN_FOLLOW_UP, "after a flip", _after_flip),
    SentenceRule(ROLLS, "any ability", _always),
    SentenceRule(CONDITIONAL, "after a roll", _after_roll),
    SentenceRule(
        EFFECT_IF,
        "in a triggered ability with no roll yet",
        lambda context: not context.roll and context.trigger and context.effect,
    ),
    SentenceRule(FOLLOW_UP, "after a roll or in a triggered ability", lambda context: context.roll or context.trigger),
)
"""The productions that read a whole sentence, with the abilities where each may stand."""

PRECEDENCE = (
    (REPEAT.name, CONDITIONAL.name, "'if you roll N, repeat this process' repeats the roll (CR 706.3c)"),
    (NOTE_TOTAL.name, CONDITIONAL.name, "'if you rolled any other total, note that total' notes it: no number"),
    (REMEMBERED_TOTAL.name, CONDITIONAL.name, "'any other total ... for this ability' reads the turn's totals"),
    (
        REPLACEMENT.name,
        ROLLS.name,
        "'instead roll that many dice plus one' says how a roll is made, it rolls none",
    ),
    (TRIGGER.name, ROLLS.name, "'whenever you roll the planar die, ...' names the trigger's event, not a roll"),
    (COIN_IF.name, ROLLS.name, "'if you win the flip, roll a d4': an outcome of the flip whose effect rolls"),
    (COIN_SIDE_IF.name, ROLLS.name, "'if the coin comes up heads, roll a d6': an outcome that rolls"),
    (COIN_REPLACEMENT.name, FLIPS.name, "'instead flip two coins and ignore one' says how a flip is made"),
    (FIRST_FLIP.name, FLIPS.name, "'the first time you flip a coin each turn, ...' names the flip an effect acts on"),
    (FLIP_TRIGGER.name, FLIPS.name, "'whenever a player flips a coin, ...' names a trigger's event, not a flip"),
)
"""Every pair of productions that read the same sentence, the winner first, and why. A test reads
every sentence of the known cards, the synthetic families and generated Oracle texts with every
production, and fails on a pair not listed here."""

FALLBACK = FOLLOW_UP.name
"""The production that reads a sentence only when no other does: a sentence after a roll that uses
its dice ("you gain life equal to that result")."""
FALLBACKS = frozenset({FALLBACK, COIN_FOLLOW_UP.name})
"""Every fallback: the dice one, and its coin twin (a sentence after a flip that names flips)."""

_BEATS = {(winner, loser) for winner, loser, _why in PRECEDENCE}


class Reading(Node):
    """A production that read a whole sentence: its name, its value, and the productions it used
    (recorded while ``parsing.tracing``)."""

    production: str
    value: Any
    fired: tuple[str, ...] = ()


_FIRST_WORDS = tuple((entry, entry.rule.first()) for entry in SENTENCES)


def _starting(word: str) -> tuple[SentenceRule, ...]:
    return tuple(entry for entry, first in _FIRST_WORDS if first is None or word in first)


_BY_FIRST_WORD = {word: _starting(word) for _, first in _FIRST_WORDS for word in first or ()}
_ANYWHERE = _starting("")


def readings(s: Sentence, context: Context) -> list[Reading]:
    """Every production of :data:`SENTENCES` that may stand here and reads all of ``s``."""
    found: list[Reading] = []
    candidates = _BY_FIRST_WORD.get(s.words[0], _ANYWHERE) if s.words else ()
    for entry in candidates:
        rule = entry.rule
        if not entry.allowed(context) or not rule.may_read(s):
            continue
        reading = rule.attempt(s)
        if reading is not None and reading[0] == len(s.words):
            found.append(Reading(rule.name, reading[1], reading[2]))
    return found


def choose(found: list[Reading]) -> Reading | list[Reading] | None:
    """The reading of a sentence: the one production that read it, the winner of a declared pair,
    or any production over :data:`FALLBACK`; a list when the readings conflict undeclared."""
    if len(found) > 1:
        found = [r for r in found if r.production not in FALLBACKS] or found
    if len(found) > 1:
        found = [r for r in found if not any((other.production, r.production) in _BEATS for other in found)]
    if not found:
        return None
    return found[0] if len(found) == 1 else found


def read(text: str, context: Context) -> tuple[Sentence, Reading | list[Reading] | None]:
    """A sentence's tokens and its reading (see :func:`choose`).

    >>> _, reading = read("roll 2 d20 and ignore the lowest roll", Context())
    >>> reading.production, [phrase.production for phrase in reading.value.phrases]
    ('ROLLS', ['ROLL'])
    """
    s = tokenize(text)
    chosen = choose(readings(s, context))
    if isinstance(chosen, Reading):
        note(chosen.fired)
    return s, chosen


def productions() -> dict[str, Rule]:
    """Every named production of the grammar, by name."""
    return {value.name: value for value in globals().values() if isinstance(value, Rule)}


def written() -> str:
    """The whole grammar in its notation, one production a line (``NAME := body``), in the order
    this module writes them: the grammar as documentation, generated from the productions themselves.

    >>> print(written().splitlines()[0])
    COUNT := ((a | an | x | that many) | <N>)
    """
    return "\n".join(production.production() for production in productions().values())
