"""Oracle text → roll instructions and effects: the compiler of the dice language.

:func:`compile_text` reads a card's text paragraph by paragraph (one ability each), attaches
results-table rows to the roll above them (CR 706.3b: one ability), and reads each sentence with
the grammar (``grammar.py``): the one production that reads all of it (or the winner of a declared
pair) builds a typed sentence node, and the action for that node's type (``_ACTIONS``) maps it,
with the card read so far and the sentence's place in its ability, to a new card and place: the
compiler is a fold over sentence nodes, and no step changes a value it was given. No action reads
words: the English is the grammar's. A sentence
that mentions dice and that no production reads is reported in ``unsupported``, and so is one that
two productions read without a declared winner — never dropped, never called "not about dice".

The compiler knows no card: it reads the language. Self references become ``~`` first, reminder
text is removed, number words become digits. What it leaves out: the non-dice parts of an
ability (targets, tokens, damage) are kept as text for renderers, not compiled.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from mtgdice.rules import (
    Amount,
    Comparison,
    Condition,
    Cost,
    Decider,
    DiceGroup,
    Effect,
    Event,
    ExtraDice,
    FaceCountsAs,
    IgnoreMode,
    InRange,
    Outcome,
    PairEachCoin,
    PairEachDie,
    Passive,
    Reads,
    ReflipPermission,
    RerollPermission,
    ResultModifier,
    ResultsTable,
    Roller,
    RollInstruction,
    Row,
    Scope,
    Trigger,
    Zone,
)
from mtgdice.rules.coin_instruction import CoinReads, FlipInstruction, FlipOutcome, Until
from mtgdice.rules.effects.coin import CoinTrigger
from mtgdice.rules.errors import CardTextError
from mtgdice.text import detector
from mtgdice.text import grammar as g
from mtgdice.text.nodes import Node
from mtgdice.text.normalize import (
    for_matching,
    promote_defining_reminders,
    replace_self,
    standard_punctuation,
    strip_reminder,
)
from mtgdice.text.parsing import Refused, Sentence, tokenize

MAX_TEXT = 20_000
"""Longest card text compiled; longer input is refused (bounded time and memory)."""


@dataclass(frozen=True, slots=True)
class CompiledCard:
    """A card's dice abilities: roll instructions in text order, effects on other rolls, and every
    dice sentence that was not understood.

    >>> card = compile_text("Roll a d20.\\n1\u20149 | Draw a card.\\n10\u201420 | Draw two cards.")
    >>> card.rolls[0].die.name, [row.label for row in card.rolls[0].table.rows]
    ('d20', ['1\u20149', '10\u201420'])
    """

    name: str
    rolls: tuple[RollInstruction, ...] = ()
    effects: tuple[Effect, ...] = ()
    unsupported: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    flips: tuple[FlipInstruction, ...] = ()
    flip_positions: tuple[int, ...] = ()
    """Where each flip stands among the card's instructions in text order (``instructions``)."""

    @property
    def instructions(self) -> tuple[RollInstruction | FlipInstruction, ...]:
        """Every roll and flip instruction in text order: what ``compile --json`` lists as
        ``rolls`` and a request's ``roll`` numbers.

        >>> [type(i).__name__ for i in compile_text("Roll a d6. Flip a coin.").instructions]
        ['RollInstruction', 'FlipInstruction']
        """
        if not self.flips:
            return self.rolls
        positions = self.flip_positions or tuple(range(len(self.rolls), len(self.rolls) + len(self.flips)))
        found: list[RollInstruction | FlipInstruction] = []
        rolls, flips = iter(self.rolls), iter(self.flips)
        for index in range(len(self.rolls) + len(self.flips)):
            found.append(next(flips) if index in positions else next(rolls))
        return tuple(found)

    def describe(self) -> str:
        """The card in canonical English, which compiles back to the same structure (``canonical.py``)."""
        from mtgdice.text.canonical import render  # here: compiling writes no English

        return render(self)


def mentions_dice(text: str) -> bool:
    """Whether any rules text (reminder text aside) mentions dice, rolling or the planar die.

    >>> mentions_dice("Whenever you roll one or more dice, draw a card."), mentions_dice("Flying")
    (True, False)
    """
    return g.mentions_dice(tokenize(for_matching(strip_reminder(text))))


def _mentions(text: str) -> bool:
    return g.mentions_dice(tokenize(for_matching(text))) or detector.speaks(text, languages=False)


def compile_text(text: str, *, name: str = "", layout: str = "", type_line: str = "") -> CompiledCard:
    """Compile a card's Oracle text.

    ``name`` lets the text name itself; ``layout`` ``"planar"`` puts its abilities in the command
    zone (planes and phenomena, CR 901).

    >>> card = compile_text("If you would roll one or more dice, instead roll that many dice plus one "
    ...                     "and ignore the lowest roll.")
    >>> card.effects[0].kind, card.effects[0].extra, card.unsupported
    ('extra dice', 1, ())
    """
    if len(text) > MAX_TEXT:
        raise CardTextError(g.too_long(len(text), MAX_TEXT))
    zone = Zone.COMMAND if g.in_command_zone(layout, type_line) else Zone.BATTLEFIELD
    prepared = replace_self(standard_punctuation(strip_reminder(promote_defining_reminders(text))), name)
    abilities, refused = _abilities(prepared)
    card = _Card(name=name, zone=zone, unsupported=refused)
    for ability in abilities:
        card = _ability(card, ability)
    return card.result()


_T = TypeVar("_T")


# -- the compiler: a fold over sentence nodes ------------------------------------------------------
# The card read so far (``_Card``) and where a sentence stands in its ability (``_Place``) are
# values: each sentence's node maps to a new pair (``_ACTIONS``), and the fold carries it on.


class _Ability(Node):
    """One paragraph of rules text and the table rows printed under it."""

    text: str
    level: int
    rows: tuple[Row, ...] = ()
    listed: bool = False


def _put(items: tuple[_T, ...], index: int, item: _T) -> tuple[_T, ...]:
    return (*items[:index], item, *items[index + 1 :])


class _Card(Node):
    """What the fold has read of a card so far; each step returns a new one (a node: the fold
    makes one per sentence, and a named tuple's copy is quicker than a dataclass's)."""

    name: str
    zone: Zone
    rolls: tuple[RollInstruction, ...] = ()
    effects: tuple[Effect, ...] = ()
    unsupported: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    flips: tuple[FlipInstruction, ...] = ()
    flip_positions: tuple[int, ...] = ()

    def result(self) -> CompiledCard:
        rolls = [_functioning(_named_roll(roll, self.name)) for roll in _link_stored(list(self.rolls))]
        effects = [_named_effect(effect, self.name) for effect in self.effects]
        unsupported = [_named(text, self.name) for text in self.unsupported]
        wins = any(isinstance(effect, CoinTrigger) for effect in self.effects)
        flips = tuple(_functioning_flip(_called(flip, wins, self.name)) for flip in self.flips)
        return CompiledCard(
            self.name, tuple(rolls), tuple(effects), tuple(unsupported), self.notes, flips, self.flip_positions
        )

    def reported(self, entry: str) -> _Card:
        return self.replace(unsupported=(*self.unsupported, entry))

    def with_roll(self, index: int, roll: RollInstruction) -> _Card:
        return self.replace(rolls=_put(self.rolls, index, roll))

    def with_effect(self, index: int, effect: Effect) -> _Card:
        return self.replace(effects=_put(self.effects, index, effect))

    def with_flip(self, index: int, flip: FlipInstruction) -> _Card:
        return self.replace(flips=_put(self.flips, index, flip))


class _Place(Node):
    """Where a sentence stands in its ability: what the sentences before it set up."""

    cost: str | None
    roll: int | None = None
    effect: int | None = None
    trigger: bool = False
    pending_cost: tuple[Cost, Scope, int | None, str] | None = None
    """The cost, whose rolls, of which die, and the sentence of an optional modifier's "you may <cost>"."""
    flip: int | None = None
    last_flip: bool = False
    """The latest instruction of the ability is a flip (an "otherwise" is its outcome)."""
    body: str = ""
    """The ability's text: when it speaks of dice or coins (``detector``), a sentence of it that
    names a result is marked too (asked only of a sentence no production read)."""


_Step = tuple[_Card, _Place, bool]
"""A sentence folded in: the card, the place after it, and whether the sentence was understood."""


def _ability(card: _Card, ability: _Ability) -> _Card:
    """One ability folded into the card: its quoted abilities, its cost, then each sentence."""
    body, quotes = _take_quotes(ability.text)
    for quote in quotes:
        if _mentions(quote):
            card = _ability(card, _Ability(quote, ability.level))
    body = _drop_ability_word(body)
    cost, body = _split_cost(body)
    first_roll, first_effect = len(card.rolls), len(card.effects)
    roll: int | None = None
    if cost is not None and _mentions(cost):
        # A roll in the cost ("{6}, Roll a d8: ..."): the effect uses its result.
        card, _ = _sentence(card, cost, _Place(cost=None))
        if len(card.rolls) > first_roll:
            roll = len(card.rolls) - 1
    place = _Place(cost=cost, roll=roll, body=body)
    for sentence in _sentences(body):
        card, place = _sentence(card, sentence, place)
    if ability.rows:
        if len(card.rolls) == first_roll:
            card = card.reported(g.table_without_roll(list(ability.rows)))
        else:
            card = _with_table(card, len(card.rolls) - 1, ability, body)
    if card.zone is Zone.COMMAND or ability.level != 1:
        effects = tuple(
            _placed(effect, card.zone, ability.level) if index >= first_effect else effect
            for index, effect in enumerate(card.effects)
        )
        card = card.replace(effects=effects)
    return card


def _placed(effect: Effect, card_zone: Zone, level: int) -> Effect:
    """An effect of a card in the command zone works there; one under a level line has its level."""
    zone = Zone.COMMAND if card_zone is Zone.COMMAND and effect.zone is Zone.BATTLEFIELD else effect.zone
    if zone is effect.zone and level == 1:
        return effect
    return replace(effect, zone=zone, level=level)


def _with_table(card: _Card, index: int, ability: _Ability, body: str) -> _Card:
    roll = card.rolls[index]
    try:
        table = ResultsTable(ability.rows, listed=ability.listed)
    except CardTextError as error:
        return card.reported(f"{error}")
    indicated = g.find(g.INDICATED, tokenize(for_matching(body))) is not None
    each = ability.listed and indicated and roll.count.constant != 1
    return card.with_roll(index, replace(roll, table=table, table_each_result=each))


def _sentence(card: _Card, original: str, place: _Place) -> tuple[_Card, _Place]:
    """One sentence folded in: the node its production builds, through that node's action."""
    text = for_matching(original).rstrip(".").strip()
    if not text:
        return card, place
    original = original.strip()
    s, reading = g.read(text, _context(card, place))
    if isinstance(reading, list):
        return card.reported(g.ambiguous(original, [r.production for r in reading])), place
    if reading is not None:
        try:
            node = _value(reading.value)
            folded, after, understood = _ACTIONS[type(node)](card, node, original, place)
        except (CardTextError, ValueError) as error:
            # The grammar read it but the rules refuse it (a die of 0 sides, a number past int's digits).
            return card.reported(f"{original} ({_reason(error)})"), place
        if understood:
            return folded, after
        card, place = folded, after
    if g.mentions_dice(s) or _marked(original, place):
        card = card.reported(original)
    return card, place


def _context(card: _Card, place: _Place) -> g.Context:
    """What the grammar needs to know of the sentences before, in the same ability."""
    roll = _current_roll(card, place)
    return g.Context(
        roll=roll is not None,
        each_player=_each_player(roll),
        trigger=place.trigger,
        effect=place.effect is not None,
        pending=place.pending_cost is not None,
        activated=place.cost is not None,
        flip=place.flip is not None,
    )


# -- what the actions build from: each returns new values, none changes one ------------------------


def _report_part(card: _Card, original: str, reason: str) -> _Card:
    return card.reported(f"{original.strip()} ({reason})")


def _add_roll(card: _Card, place: _Place, roll: RollInstruction) -> tuple[_Card, _Place]:
    card = card.replace(rolls=(*card.rolls, roll))
    return card, place.replace(roll=len(card.rolls) - 1, effect=None, last_flip=False)


def _add_flip(card: _Card, place: _Place, flip: FlipInstruction) -> tuple[_Card, _Place]:
    positions = (*card.flip_positions, len(card.rolls) + len(card.flips))
    card = card.replace(flips=(*card.flips, flip), flip_positions=positions)
    return card, place.replace(flip=len(card.flips) - 1, effect=None, last_flip=True)


def _add_effect(card: _Card, place: _Place, effect: Effect) -> _Step:
    card = card.replace(effects=(*card.effects, effect))
    return card, place.replace(effect=len(card.effects) - 1), True


def _update_flip(
    card: _Card, place: _Place, outcome: FlipOutcome | None = None, each_execution: bool = False, **changes: Any
) -> _Step:
    """An outcome added to the ability's flip (or the flip changed); not understood when there is
    none. An outcome after a flip repeated by its own words reads every execution, unless
    ``each_execution``."""
    if place.flip is None:
        return card, place, False
    flip = card.flips[place.flip]
    if outcome is not None:
        over_all = flip.until is not None and outcome.reads is not CoinReads.NONE and not each_execution
        flip = replace(flip, outcomes=(*flip.outcomes, replace(outcome, over_all=over_all)))
    return card.with_flip(place.flip, replace(flip, **changes)), place, True


def _current_roll(card: _Card, place: _Place) -> RollInstruction | None:
    return card.rolls[place.roll] if place.roll is not None else None


def _update_roll(card: _Card, place: _Place, **changes: Any) -> _Card:
    assert place.roll is not None
    return card.with_roll(place.roll, replace(card.rolls[place.roll], **changes))


def _extend_effect(card: _Card, place: _Place, original: str) -> _Step:
    """A later sentence of the same triggered ability: it joins the ability's text."""
    if place.effect is None:
        return card, place, False
    effect = card.effects[place.effect]
    return card.with_effect(place.effect, replace(effect, text=f"{effect.text} {original}")), place, True


def _add_outcome(card: _Card, place: _Place, outcome: Outcome) -> _Step:
    roll = _current_roll(card, place)
    if roll is None:
        return card, place, False
    return _update_roll(card, place, outcomes=(*roll.outcomes, outcome)), place, True


def _marked(original: str, place: _Place) -> bool:
    """Whether the detector marks a sentence no production read (``detector.marked``'s rule)."""
    if detector.speaks(original, languages=False):
        return True
    if detector.speaks_of_winning(original) and detector.speaks_of_coins(place.body):
        return True
    return detector.speaks_of_result(original) and detector.speaks(place.body, languages=False)


# -- splitting text into abilities and sentences ----------------------------------------------


def _abilities(prepared: str) -> tuple[list[_Ability], tuple[str, ...]]:
    """The paragraphs of a text, each with the table rows under it, and each row or level line
    whose numbers the rules refuse, with the reason."""
    paragraphs: list[tuple[str, int]] = []
    rows: list[list[Row]] = []  # the rows under each paragraph
    listed: list[bool] = []  # whether they are a list ("1 — ...") rather than a chart ("1 | ...")
    refused: list[str] = []
    level = 1
    for raw in _lines(prepared):
        line = raw.strip()
        if not line:
            continue
        form = for_matching(line)
        matching = tokenize(form) if g.may_be_level_or_row(form) else None
        try:
            level_line = g.LEVEL_LINE.whole(matching) if matching is not None else None
            if level_line is not None:
                level = _value(level_line[0])
                continue
            row = _table_row(line, matching) if matching is not None else None
        except CardTextError as error:
            refused.append(f"{line} ({_reason(error)})")
            continue
        if row is not None and paragraphs:
            row_value, row_listed = row
            if not rows[-1] or listed[-1] == row_listed:
                rows[-1].append(row_value)
                listed[-1] = row_listed
                continue
        paragraphs.append((line, level))
        rows.append([])
        listed.append(False)
    found = zip(paragraphs, rows, listed, strict=True)
    abilities = [_Ability(text, level, tuple(under), kind) for (text, level), under, kind in found]
    return abilities, tuple(refused)


_ENDS = (". ", "! ", ") ", ".\t", "!\t", ")\t")


def _lines(prepared: str) -> list[str]:
    """The lines of a text, with a chart written on one line cut where each of its rows starts."""
    lines: list[str] = []
    for line in prepared.split("\n"):
        # A row after a sentence end: "... . 10—20 | ...".
        cuts = g.row_breaks(tokenize(line)) if "|" in line and any(end in line for end in _ENDS) else []
        previous = 0
        for cut in cuts:
            lines.append(line[previous:cut])
            previous = cut
        lines.append(line[previous:])
    return lines


def _table_row(line: str, matching: Sentence) -> tuple[Row, bool] | None:
    found = g.CHART_ROW.whole(matching) or g.LIST_ROW.whole(matching)
    if found is None:
        return None
    words: g.RowWords = found[0]
    low = g.number(words.low)
    high: int | None = low
    if words.high:
        high = g.number(words.high)
    if words.open:
        high = None
    listed = words.listed
    original_text = (
        line.split("|", 1)[1].strip() if not listed else re.split(r"\s\u2014\s", line, maxsplit=1)[-1].strip()
    )
    again: g.RowAgain | None = _value(g.find(g.ROW_AGAIN, tokenize(words.text)))
    if again is None:
        return Row(low, high, original_text), listed
    return Row(low, high, original_text, True, again.optional, again.times), listed


_QUOTE = re.compile(r'"([^"]+)"')


def _take_quotes(text: str) -> tuple[str, list[str]]:
    """Quoted abilities granted to something else are compiled on their own."""
    quotes = [q.strip() for q in _QUOTE.findall(text)]
    return _QUOTE.sub('"…"', text), quotes


def _drop_ability_word(text: str) -> str:
    if " \u2014 " in text and g.ABILITY_WORD.whole(tokenize(for_matching(text))) is not None:
        return text.split(" \u2014 ", 1)[1]
    return text


def _split_cost(text: str) -> tuple[str | None, str]:
    if ":" not in text:
        return None, text
    found = g.COST_SPLIT.whole(tokenize(text))
    if found is None:
        return None, text
    cost, body = found[0]
    if "." in cost or g.COST_HINT.whole(tokenize(for_matching(cost))) is None:
        return None, text
    return cost, body


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z~\[{\u2022\"\u2026]|\d)")


def _sentences(text: str) -> list[str]:
    return [part.strip() for part in _SENTENCE_END.split(text) if part.strip()]


# -- conditions, numbers, amounts -------------------------------------------------------------------


def parse_condition(words: str) -> Condition | None:
    """ "a 6", "4 or higher", "3 or less", "a 1 or 2", "a natural 20", "a die's highest natural result"
    (``grammar.CONDITION``); ``None`` when the words are not a condition.

    >>> parse_condition("a 4 or higher")
    InRange(low=4, high=None, natural=False)
    """
    whole = g.CONDITION.whole(tokenize(for_matching(words)))
    return _value(whole[0]) if whole is not None else None


def _value(value: Any) -> Any:
    """A production's value, or the refusal its numbers met (raised as :class:`CardTextError`)."""
    if isinstance(value, Refused):
        raise CardTextError(value.reason)
    return value


def _reason(error: Exception) -> str:
    return str(error).splitlines()[0][:200] if str(error) else type(error).__name__


def _each_player(roll: RollInstruction | None) -> bool:
    return roll is not None and roll.roller in (Roller.EACH_PLAYER, Roller.EACH_OPPONENT)


def _recognise(
    card: _Card,
    place: _Place,
    original: str,
    recognition: g.Recognition,
    scope: Scope = Scope.YOU,
    details: tuple[tuple[str, Any], ...] = (),
) -> _Step:
    """An ability about dice that ``resolve`` recognises but does not apply (a ``Passive`` effect)."""
    passive = Passive(
        what=recognition.what,
        note=recognition.passive_note,
        zone=card.zone,
        scope=scope,
        text=original,
        details=dict(details or recognition.details),
    )
    return _add_effect(card, place, passive)


def _not_read(words: str) -> str:
    return g.not_read(words.strip(" ,"))


# -- actions: what each sentence node means ------------------------------------------------------
# Each maps (the card so far, the sentence's node, the original sentence, its place) to a new card
# and place, and whether the sentence was understood; the grammar's node says what the sentence
# means, so no action reads words, and none changes a value it is given.

Action = Callable[[_Card, Any, str, _Place], _Step]


def _replacement(card: _Card, node: g.Replacement, original: str, place: _Place) -> _Step:
    how, who, sides = node.how, node.scope, node.sides
    if isinstance(how, g.ExtraDiceHow):
        ignore = IgnoreMode.CHOSEN if how.chosen else IgnoreMode.LOWEST
        extra = ExtraDice(
            extra=how.extra,
            ignore=ignore,
            chosen_by=how.chosen_by,
            sides=sides,
            optional=node.optional,
            zone=card.zone,
            scope=who,
            text=original,
        )
        return _add_effect(card, place, extra)
    if isinstance(how, g.MoreOfThemHow):
        # One die rolled as several, keeping the best: one extra die per die beyond the first, each
        # ignoring one more lowest (an older advantage wording).
        extra = ExtraDice(
            extra=how.n - 1,
            ignore=IgnoreMode.LOWEST,
            sides=sides,
            optional=node.optional,
            zone=card.zone,
            scope=who,
            text=original,
        )
        return _add_effect(card, place, extra)
    if isinstance(how, g.PairHow):
        return _add_effect(card, place, PairEachDie(sides=sides, zone=card.zone, scope=who, text=original))
    return _recognise(card, place, original, how.recognition, who, how.details(sides))


def _modifier(card: _Card, node: g.Modifier, original: str, place: _Place) -> _Step:
    """A static modifier, or an optional one in one sentence (it has a cost)."""
    modifier = ResultModifier(
        delta=node.delta,
        optional=node.cost is not None,
        either_direction=node.either,
        cost=node.cost,
        sides=node.sides,
        zone=card.zone,
        scope=node.scope,
        text=original,
    )
    return _add_effect(card, place, modifier)


def _after_roll(card: _Card, node: g.AfterRoll, original: str, place: _Place) -> _Step:
    return card, place.replace(pending_cost=(node.cost, node.scope, node.sides, original), effect=None), True


def _if_you_do(card: _Card, node: g.IfYouDo, original: str, place: _Place) -> _Step:
    assert place.pending_cost is not None
    cost, who, sides, first = place.pending_cost
    if place.effect is not None and isinstance(card.effects[place.effect], Trigger):
        effects = card.effects[: place.effect] + card.effects[place.effect + 1 :]
        card, place = card.replace(effects=effects), place.replace(effect=None)
    modifier = g.Modifier(node.delta, node.either, cost, who, sides)
    card, place, _ = _modifier(card, modifier, f"{first} {original}", place)
    return card, place.replace(pending_cost=None), True


def _once_each_turn(card: _Card, node: g.OnceEachTurn, original: str, place: _Place) -> _Step:
    if place.effect is not None:
        effect = card.effects[place.effect]
        card = card.with_effect(place.effect, replace(effect, once_each_turn=True, text=f"{effect.text} {original}"))
    return card, place, True


def _reroll(card: _Card, node: g.Reroll, original: str, place: _Place) -> _Step:
    permission = RerollPermission(
        condition=node.condition,
        sides=node.sides,
        cost=node.cost,
        many=node.many,
        once_each_turn=node.once,
        zone=card.zone,
        scope=node.scope,
        text=original,
    )
    return _add_effect(card, place, permission)


def _reroll_activated(card: _Card, node: g.ActivatedReroll, original: str, place: _Place) -> _Step:
    assert place.cost is not None
    cost = g.cost(place.cost)
    if node.coin:
        reflip = ReflipPermission(cost=cost, activated=True, zone=card.zone, scope=Scope.ANY, text=original)
        card, place, _ = _add_effect(card, place, reflip)
    if node.die:
        reroll = RerollPermission(
            cost=cost,
            activated=True,
            many=node.many,
            rerolled_by=Decider.CONTROLLER,
            zone=card.zone,
            scope=Scope.ANY,
            text=original,
        )
        card, place, _ = _add_effect(card, place, reroll)
    return card, place, True


def _coin_replacement(card: _Card, node: g.CoinReplacement, original: str, place: _Place) -> _Step:
    return _add_effect(card, place, PairEachCoin(extra=node.extra, zone=card.zone, scope=node.scope, text=original))


def _original_effect(original: str, effect_text: str) -> str:
    """The effect of a trigger in the card's own wording: what follows the trigger condition."""
    words = len(effect_text.split())
    tail = original.rstrip(".").split()
    if len(tail) >= words:
        candidate = " ".join(tail[-words:])
        if for_matching(candidate).rstrip(".") == effect_text:
            return candidate
    return effect_text


def _trigger(card: _Card, node: g.TriggerNode, original: str, place: _Place) -> _Step:
    what, scope = node.what, node.scope
    condition = what.condition
    if node.intervening is not None and condition is None:
        condition = _value(node.intervening)
    trigger = Trigger(
        event=what.event,
        doubles=what.doubles,
        condition=condition,
        sides=what.sides,
        planar=what.planar,
        nth_this_turn=what.nth,
        purpose=what.purpose,
        effect=_original_effect(original, node.effect),
        numeric_effect=node.numeric,
        zone=Zone.GRAVEYARD if node.graveyard else card.zone,
        scope=scope,
        text=original,
    )
    card, place, _ = _add_effect(card, place, trigger)
    if node.may_cost is not None and what.event is Event.DIE_ROLLED and condition is None:
        # "Whenever a player rolls a die, you may <cost>. If you do, increase or decrease the result"
        # is an optional modifier, settled by the next sentence (IF_YOU_DO).
        cost = g.cost(_original_effect(original, node.may_cost))
        place = place.replace(pending_cost=(cost, scope, what.sides, original))
    place = place.replace(trigger=True)
    # A roll inside the triggered ability's effect is a roll of this card too.
    if node.rolls is not None:
        card, place = _rolls_of_effect(card, node.rolls, original, place)
    return card, place, True


def _rolls_of_effect(card: _Card, rolls: g.Rolls, original: str, place: _Place) -> tuple[_Card, _Place]:
    card, place, reasons = _add_rolls(card, rolls, original, place)
    return _report(card, original, reasons), place


def _face_counts_as(card: _Card, node: g.FaceCounts, original: str, place: _Place) -> _Step:
    effect = FaceCountsAs(face=node.face, counts_as=node.counts_as, zone=card.zone, scope=Scope.ANY, text=original)
    return _add_effect(card, place, effect)


def _recognised(card: _Card, node: g.Recognised, original: str, place: _Place) -> _Step:
    recognition = node.recognition
    what = recognition.what
    known = next((i for i, e in enumerate(card.effects) if isinstance(e, Passive) and e.what == what), None)
    if known is None:
        card, place, _ = _recognise(card, place, original, recognition)
    else:  # the same ability again in another sentence: one effect, which keeps every sentence
        effect = card.effects[known]
        card = card.with_effect(known, replace(effect, text=f"{effect.text} {original}"))
    if recognition.no_roll and recognition.card_note not in card.notes:
        card = card.replace(notes=(*card.notes, recognition.card_note))
    if node.rolls is not None:
        card, place = _rolls_of_effect(card, node.rolls, original, place)
    return card, place, True


def _store(card: _Card, node: g.Store, original: str, place: _Place) -> _Step:
    """The results of the roll before are stored on the permanent (CR 706.8)."""
    roll = _current_roll(card, place)
    assert roll is not None
    return _update_roll(card, place, store=True, text=f"{roll.text} {original}"), place, True


def _repeat(card: _Card, node: g.Repeat, original: str, place: _Place) -> _Step:
    roll = _current_roll(card, place)
    assert roll is not None
    text = f"{roll.text} {original}"
    return _update_roll(card, place, repeat_when=node.condition, repeat_optional=node.optional, text=text), place, True


def _doubles(card: _Card, node: g.Doubles, original: str, place: _Place) -> _Step:
    return _add_outcome(card, place, Outcome(original, doubles=True, reads=Reads.DOUBLES))


def _exactly(card: _Card, node: g.Exactly, original: str, place: _Place) -> _Step:
    condition = InRange(node.value, node.value)
    return _add_outcome(card, place, Outcome(original, condition, reads=Reads.COUNT, times=node.times))


def _for_each(card: _Card, node: g.ForEachResult, original: str, place: _Place) -> _Step:
    """An outcome for each result (meeting its condition, if any)."""
    return _add_outcome(card, place, Outcome(original, node.condition, reads=Reads.EACH))


def _otherwise(card: _Card, node: g.Otherwise, original: str, place: _Place) -> _Step:
    if place.last_flip:
        return _update_flip(card, place, FlipOutcome(original, CoinReads.OTHERWISE))
    return _add_outcome(card, place, Outcome(original, reads=Reads.OTHERWISE))


def _remembered_total(card: _Card, node: g.RememberedTotal, original: str, place: _Place) -> _Step:
    """An outcome on a total rolled before this turn for the same ability (``turn.totals``)."""
    return _add_outcome(card, place, Outcome(original, reads=Reads.REMEMBERED))


def _note_total(card: _Card, node: g.NoteTotal, original: str, place: _Place) -> _Step:
    """The total is noted on the permanent when no other outcome held (the output's ``noted``)."""
    return _add_outcome(card, place, Outcome(original, reads=Reads.NOTE))


def _noted_total(card: _Card, node: g.NotedTotal, original: str, place: _Place) -> _Step:
    """An outcome on the total noted on the permanent."""
    return _add_outcome(card, place, Outcome(original, reads=Reads.NOTED))


# -- coins (CR 705) --------------------------------------------------------------------------------


def _flips(card: _Card, phrase: g.FlipPhrase, original: str, place: _Place) -> _Step:
    """A flip instruction: its coins, who flips, and its tails; text before or after it that
    speaks of dice or coins is reported."""
    head: g.FlipHead = _value(phrase.head)
    count = head.how_many
    until: Until | None = None
    times: Amount | None = None
    may_stop = False
    for known in phrase.tails:
        tail: g.FlipTail = _value(known)
        if tail.for_each is not None:
            count = tail.for_each
        if tail.times is not None:
            times = tail.times
        if tail.where is not None:
            count = g.where_x(count, tail.where) or count
            times = (g.where_x(times, tail.where) or times) if times is not None else None
        until = tail.until or until
        may_stop = may_stop or tail.may_stop
    flip = FlipInstruction(count, True, until, times, may_stop, head.flipper, text=original)
    card, place = _add_flip(card, place, flip)
    s = phrase.sentence
    reasons = [
        _not_read(s.between(*part))
        for part in (phrase.lead, phrase.after)
        if detector.speaks(s.between(*part), languages=False)
    ]
    return _report(card, original, reasons), place, True


def _coin_outcome(card: _Card, when: g.CoinWhen, original: str, place: _Place) -> _Step:
    """An outcome of the ability's flip: won or lost, heads or tails, once or for each flip."""
    outcome = FlipOutcome(original, when.reads, each=when.each, at_least=when.at_least, every=when.every)
    if when.again and place.flip is not None:
        # Flipping again by choice after a flip won (lost) is flipping until one is lost (won), with a
        # choice to stop; after either, it is a choice each time.
        until = card.flips[place.flip].until
        stops = Until.LOSE if when.reads is CoinReads.WON else Until.WIN
        chosen = until is not None and until is not stops
        card, place, _ = _update_flip(card, place, until=Until.CHOSEN if chosen else stops, may_stop=True)
    card, place, added = _update_flip(card, place, outcome, each_execution=when.again or when.single)
    if when.rolls is not None:  # an outcome whose effect rolls: the effect's own rolls
        card, place = _rolls_of_effect(card, when.rolls, original, place)
    return card, place, added


def _coin_repeat(card: _Card, node: g.CoinRepeat, original: str, place: _Place) -> _Step:
    """The flip is made again until the node says (both players' coins heads)."""
    assert place.flip is not None
    return _update_flip(card, place, until=node.until, text=f"{card.flips[place.flip].text} {original}")


def _coin_follow_up(card: _Card, node: g.CoinFollowUp, original: str, place: _Place) -> _Step:
    """A sentence after a flip that names its flips without flipping: kept as an outcome's text."""
    return _update_flip(card, place, FlipOutcome(original))


def _coin_trigger(card: _Card, node: g.CoinTriggerNode, original: str, place: _Place) -> _Step:
    effect = _original_effect(original, node.effect)
    trigger = CoinTrigger(
        won=node.won, batch=node.batch, effect=effect, zone=card.zone, scope=node.scope, text=original
    )
    return _add_effect(card, place, trigger)


def _first_flip(card: _Card, node: g.FirstFlip | g.FlipTrigger, original: str, place: _Place) -> _Step:
    """A recognised ability on flips (the first flip of a turn, a trigger on flipping)."""
    return _recognise(card, place, original, node.recognition, node.scope, node.details())


def _called(flip: FlipInstruction, wins: bool, name: str) -> FlipInstruction:
    """A flip is called (CR 705.1) unless its card reads only heads or tails (CR 705.2)."""
    reads = {outcome.reads for outcome in flip.outcomes}
    sides = bool(reads & {CoinReads.HEADS, CoinReads.TAILS})
    won_or_lost = wins or flip.until in (Until.LOSE, Until.WIN) or bool(reads & {CoinReads.WON, CoinReads.LOST})
    text = _named(flip.text, name)
    outcomes = tuple(replace(outcome, text=_named(outcome.text, name)) for outcome in flip.outcomes)
    return replace(flip, call=won_or_lost or not sides, text=text, outcomes=outcomes)


def _ties(card: _Card, node: g.Ties, original: str, place: _Place) -> _Step:
    roll = _current_roll(card, place)
    if roll is not None and roll.compare is not None:
        card = _update_roll(card, place, compare=replace(roll.compare, break_ties=True))
    return _add_outcome(card, place, Outcome(original, reads=Reads.TIES))


def _standing(card: _Card, node: g.Standing, original: str, place: _Place) -> _Step:
    """An outcome on the player with the lowest or highest result (or on whether one of them had it)."""
    roll = _current_roll(card, place)
    assert roll is not None
    if roll.compare is None:
        card = _update_roll(card, place, compare=Comparison(node.extreme))
    return _add_outcome(card, place, Outcome(original, reads=Reads.STANDING, who=node.who, extreme=node.extreme))


def _on_result(card: _Card, node: g.OnResult, original: str, place: _Place) -> _Step:
    """An outcome on the result, or on the total: named, or what was rolled with several dice counted."""
    roll = _current_roll(card, place)
    several = node.rolled and roll is not None and roll.counts_several
    reads = Reads.TOTAL if node.total or several else Reads.RESULT
    return _add_outcome(card, place, Outcome(original, node.condition, reads=reads))


def _effect_if(card: _Card, node: g.EffectIf, original: str, place: _Place) -> _Step:
    # Inside a triggered ability: part of its effect.
    return _extend_effect(card, place, original)


def _rolls(card: _Card, rolls: g.Rolls, original: str, place: _Place) -> _Step:
    card, place, reasons = _add_rolls(card, rolls, original, place)
    if g.mentions_dice(rolls.sentence, *rolls.lead):
        reasons = (*reasons, _not_read(rolls.text(rolls.lead)))
    return _report(card, original, reasons), place, True


def _report(card: _Card, original: str, reasons: Sequence[str]) -> _Card:
    """One ``unsupported`` entry for a sentence, with every part of it not understood (each once)."""
    return _report_part(card, original, "; ".join(dict.fromkeys(reasons))) if reasons else card


def _follow_up(card: _Card, node: g.FollowUp, original: str, place: _Place) -> _Step:
    """A sentence after a roll that uses its dice without rolling."""
    if place.roll is not None and node.uses_result:
        return _add_outcome(card, place, Outcome(original, reads=node.reads))
    if place.roll is None and (node.names_dice or (place.trigger and node.uses_result)):
        return _extend_effect(card, place, original)
    return card, place, node.names_dice


_ACTIONS: dict[type, Action] = {
    g.CoinReplacement: _coin_replacement,
    g.Replacement: _replacement,
    g.Modifier: _modifier,
    g.AfterRoll: _after_roll,
    g.IfYouDo: _if_you_do,
    g.OnceEachTurn: _once_each_turn,
    g.Reroll: _reroll,
    g.ActivatedReroll: _reroll_activated,
    g.TriggerNode: _trigger,
    g.FaceCounts: _face_counts_as,
    g.Recognised: _recognised,
    g.Store: _store,
    g.Repeat: _repeat,
    g.Doubles: _doubles,
    g.Exactly: _exactly,
    g.ForEachResult: _for_each,
    g.Ties: _ties,
    g.Standing: _standing,
    g.Otherwise: _otherwise,
    g.RememberedTotal: _remembered_total,
    g.NoteTotal: _note_total,
    g.NotedTotal: _noted_total,
    g.Rolls: _rolls,
    g.OnResult: _on_result,
    g.EffectIf: _effect_if,
    g.FollowUp: _follow_up,
    g.FlipPhrase: _flips,
    g.CoinWhen: _coin_outcome,
    g.CoinRepeat: _coin_repeat,
    g.CoinFollowUp: _coin_follow_up,
    g.CoinTriggerNode: _coin_trigger,
    g.FirstFlip: _first_flip,
    g.FlipTrigger: _first_flip,
}
"""What each kind of sentence node means (the node types of ``grammar.SENTENCES``' values)."""


# -- roll instructions inside a sentence ----------------------------------------------------------


def _add_rolls(card: _Card, rolls: g.Rolls, original: str, place: _Place) -> tuple[_Card, _Place, tuple[str, ...]]:
    """Every roll phrase of a sentence, in text order; then what follows each (an unsupported part,
    or an outcome that uses its result), the last roll's first. Returns the card and place with
    them, and why parts of the sentence were not understood (the rules refuse a roll's numbers, or
    words no production read)."""
    reasons: list[str] = []
    added: list[tuple[int, tuple[int, int]]] = []
    s = rolls.sentence
    where = rolls.where[1] if rolls.where is not None else None
    for index, phrase in enumerate(rolls.phrases):
        try:
            roll, where = _roll(phrase, original, where)
        except CardTextError as error:
            # The rules refuse this roll's numbers (a die of no size, a d0): the others still roll.
            reasons.append(_reason(error))
            continue
        card, place = _add_roll(card, place, roll)
        after = phrase.after
        if index == len(rolls.phrases) - 1 and where is not None:
            after = (after[0], len(s.words))  # the "where X is" clause no roll used is unread text
        added.append((len(card.rolls) - 1, after))
    for index, after in reversed(added):
        text = rolls.text(after)
        if g.mentions_dice(s, *after):
            reasons.append(_not_read(text))
        elif g.uses_result(s, *after):
            # A roll whose sentence goes on to use its result.
            current = card.rolls[index]
            outcome = Outcome(original, reads=g.reads_of(text))
            card = card.with_roll(index, replace(current, outcomes=(*current.outcomes, outcome)))
    return card, place, tuple(reasons)


def _roll(phrase: g.RollPhrase, original: str, where: str | None) -> tuple[RollInstruction, str | None]:
    """A roll instruction from a roll phrase (its head, and its tails folded in text order), and the
    "where X is" amount left for a later roll when this one does not use it."""
    head: g.RollHead = _value(phrase.head)
    read = g.Tail()
    for tail in phrase.tails:
        read = read.then(_value(tail))
    count, also = head.how_many, read.also
    if read.twice:
        count = Amount(count.constant * 2) if count.fixed else count
        also = tuple(DiceGroup(Amount(group.count.constant * 2), group.die) for group in also)
    if read.for_each is not None:
        count = Amount.named(read.for_each)
    if read.plus_each is not None:
        count = Amount.named(read.plus_each, constant=count.constant)
    if where is not None and (named := g.where_x(count, where)) is not None:
        count, where = named, None
    roll = RollInstruction(
        count=count,
        die=head.die,
        ignore_lowest=read.ignore_lowest,
        keep_highest=read.keep_highest,
        modifier=None if read.total else read.modifier,
        choose=read.choose,
        store=read.store,
        roller=head.roller,
        also=also,
        reroll_stored=head.reroll_stored,
        purpose=head.purpose,
        text=original,
    )
    return roll, where


def _named(text: str, name: str) -> str:
    """Texts are kept for people: the card's name where the grammar read ``~``."""
    return text.replace("~", name) if name else text


def _functioning(roll: RollInstruction) -> RollInstruction:
    """The roll with the zone its ability functions from (the grammar reads it from its text).

    >>> compile_text("When this creature dies, roll a d20.").rolls[0].functions_from
    <Zone.GRAVEYARD: 'graveyard'>
    """
    zone = g.functions_from(roll.text)
    return roll if zone is Zone.BATTLEFIELD else replace(roll, functions_from=zone)


def _functioning_flip(flip: FlipInstruction) -> FlipInstruction:
    """The flip with the zone its ability functions from (as :func:`_functioning`)."""
    zone = g.functions_from(flip.text)
    return flip if zone is Zone.BATTLEFIELD else replace(flip, functions_from=zone)


def _named_roll(roll: RollInstruction, name: str) -> RollInstruction:
    if not name or (
        "~" not in roll.text
        and not any("~" in outcome.text for outcome in roll.outcomes)
        and (roll.table is None or not any("~" in row.text for row in roll.table.rows))
    ):
        return roll  # nothing written ~: the roll as it is (a copy of it costs its checks again)
    # Only the parts that write ~ are copied (a copy of a value costs its checks again).
    table = roll.table
    if table is not None and any("~" in row.text for row in table.rows):
        rows = tuple(replace(row, text=_named(row.text, name)) if "~" in row.text else row for row in table.rows)
        table = replace(table, rows=rows)
    outcomes = tuple(
        replace(outcome, text=_named(outcome.text, name)) if "~" in outcome.text else outcome
        for outcome in roll.outcomes
    )
    return replace(roll, text=_named(roll.text, name), table=table, outcomes=outcomes)


def _named_effect(effect: Effect, name: str) -> Effect:
    cost = effect.cost if isinstance(effect, (ResultModifier, RerollPermission, ReflipPermission)) else None
    if not name or (
        "~" not in effect.text
        and "~" not in (effect.effect if isinstance(effect, (Trigger, CoinTrigger)) else "")
        and not (cost is not None and "~" in cost.text)
    ):
        return effect
    if isinstance(effect, Trigger):
        return replace(effect, text=_named(effect.text, name), effect=_named(effect.effect, name))
    if cost is not None:
        return replace(effect, text=_named(effect.text, name), cost=replace(cost, text=_named(cost.text, name)))  # type: ignore[call-arg]
    return replace(effect, text=_named(effect.text, name))


def _link_stored(rolls: list[RollInstruction]) -> list[RollInstruction]:
    """A reroll of stored results rolls the kind of die the card stores (CR 706.8b)."""
    stores = [roll for roll in rolls if roll.store]
    if not stores:
        return rolls
    return [replace(roll, die=stores[0].die) if roll.reroll_stored else roll for roll in rolls]
