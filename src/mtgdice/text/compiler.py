"""Oracle text → roll instructions and effects: the compiler of the dice language.

:func:`compile_text` reads a card's text paragraph by paragraph (one ability each), attaches
results-table rows to the roll above them (CR 706.3b: one ability), and reads each sentence with
the grammar (``grammar.py``): the one production that reads all of it (or the winner of a declared
pair) builds a typed sentence node, and the action for that node's type (``_ACTIONS``) folds it
into the card's rules objects. No action reads words: the English is the grammar's. A sentence
that mentions dice and that no production reads is reported in ``unsupported``, and so is one that
two productions read without a declared winner — never dropped, never called "not about dice".

The compiler knows no card: it reads the language. Self references become ``~`` first, reminder
text is removed, number words become digits. What it leaves out: the non-dice parts of an
ability (targets, tokens, damage) are kept as text for renderers, not compiled.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

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
from mtgdice.text.canonical import render
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
        return render(self)

    def to_json(self) -> dict[str, Any]:
        """The ``compile`` JSON object of json-interface.md."""
        from mtgdice.text.card_json import card_json  # here: compiling writes no JSON

        return card_json(self)


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
    compiler = _Compiler(name=name, zone=zone)
    compiler.run(prepared)
    return compiler.result()


# -- the compiler -------------------------------------------------------------------------------


@dataclass
class _Ability:
    """One paragraph of rules text and the table rows printed under it."""

    text: str
    level: int
    rows: list[Row] = field(default_factory=list)
    listed: bool = False


@dataclass
class _Compiler:
    name: str
    zone: Zone
    rolls: list[RollInstruction] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    flips: list[FlipInstruction] = field(default_factory=list)
    flip_positions: list[int] = field(default_factory=list)

    def result(self) -> CompiledCard:
        rolls = [_named_roll(roll, self.name) for roll in _link_stored(self.rolls)]
        effects = [_named_effect(effect, self.name) for effect in self.effects]
        unsupported = [_named(text, self.name) for text in self.unsupported]
        wins = any(isinstance(effect, CoinTrigger) for effect in self.effects)
        flips = tuple(_called(flip, wins, self.name) for flip in self.flips)
        return CompiledCard(
            self.name,
            tuple(rolls),
            tuple(effects),
            tuple(unsupported),
            tuple(self.notes),
            flips,
            tuple(self.flip_positions),
        )

    def run(self, prepared: str) -> None:
        for ability in _abilities(prepared, self.unsupported):
            self.ability(ability)

    # -- one ability --------------------------------------------------------------------------

    def ability(self, ability: _Ability, quoted: bool = False) -> None:
        body, quotes = _take_quotes(ability.text)
        for quote in quotes:
            if _mentions(quote):
                self.ability(_Ability(quote, ability.level), quoted=True)
        body = _drop_ability_word(body)
        cost, body = _split_cost(body)
        first_roll = len(self.rolls)
        first_effect = len(self.effects)
        state = _State(cost=cost)
        if cost is not None and _mentions(cost):
            # A roll in the cost ("{6}, Roll a d8: ..."): the effect uses its result.
            self.sentence(cost, ability, cost=None, state=_State(cost=None))
            if len(self.rolls) > first_roll:
                state.roll = len(self.rolls) - 1
        state.speaks = detector.speaks(body, languages=False)
        for sentence in _sentences(body):
            self.sentence(sentence, ability, cost=cost, state=state)
        new_rolls = self.rolls[first_roll:]
        if ability.rows:
            if not new_rolls:
                self.unsupported.append(g.table_without_roll(ability.rows))
            else:
                self._attach_table(first_roll + len(new_rolls) - 1, ability, body)
        if self.zone is Zone.COMMAND or ability.level != 1:
            for index in range(first_effect, len(self.effects)):
                effect = self.effects[index]
                zone = Zone.COMMAND if self.zone is Zone.COMMAND and effect.zone is Zone.BATTLEFIELD else effect.zone
                if zone is not effect.zone or ability.level != 1:
                    self.effects[index] = replace(effect, zone=zone, level=ability.level)

    def _attach_table(self, index: int, ability: _Ability, body: str) -> None:
        roll = self.rolls[index]
        try:
            table = ResultsTable(tuple(ability.rows), listed=ability.listed)
        except CardTextError as error:
            self.unsupported.append(f"{error}")
            return
        indicated = g.find(g.INDICATED, tokenize(for_matching(body))) is not None
        each = ability.listed and indicated and roll.count.constant != 1
        self.rolls[index] = replace(roll, table=table, table_each_result=each)

    # -- one sentence ---------------------------------------------------------------------------

    def sentence(self, original: str, ability: _Ability, cost: str | None, state: _State | None = None) -> None:
        state = state or _State(cost=cost)
        text = for_matching(original).rstrip(".").strip()
        if not text:
            return
        original = original.strip()
        s, reading = g.read(text, self.context(state))
        if isinstance(reading, list):
            names = [r.production for r in reading]
            self.unsupported.append(g.ambiguous(original, names))
            return
        if reading is not None:
            try:
                node = _value(reading.value)
                understood = _ACTIONS[type(node)](self, node, original, state)
            except (CardTextError, ValueError) as error:
                # The grammar read it but the rules refuse it (a die of 0 sides, a number past int's digits).
                self.unsupported.append(f"{original} ({_reason(error)})")
                return
            if understood:
                return
        if g.mentions_dice(s) or _marked(original, state):
            self.unsupported.append(original)

    def context(self, state: _State) -> g.Context:
        """What the grammar needs to know of the sentences before, in the same ability."""
        roll = self.current_roll(state)
        return g.Context(
            roll=roll is not None,
            each_player=_each_player(roll),
            trigger=state.trigger,
            effect=state.effect is not None,
            pending=state.pending_cost is not None,
            activated=state.cost is not None,
            flip=state.flip is not None,
        )

    # -- helpers used by the actions ------------------------------------------------------------

    def unsupported_part(self, original: str, reason: str) -> None:
        self.unsupported.append(f"{original.strip()} ({reason})")

    def add_roll(self, roll: RollInstruction, state: _State) -> None:
        self.rolls.append(roll)
        state.roll = len(self.rolls) - 1
        state.effect = None
        state.last_flip = False

    def add_flip(self, flip: FlipInstruction, state: _State) -> None:
        self.flip_positions.append(len(self.rolls) + len(self.flips))
        self.flips.append(flip)
        state.flip = len(self.flips) - 1
        state.effect = None
        state.last_flip = True

    def update_flip(
        self, state: _State, outcome: FlipOutcome | None = None, each_execution: bool = False, **changes: Any
    ) -> bool:
        """Add an outcome to the ability's flip (or change it); False when there is none. An outcome
        after a flip repeated by its own words reads every execution, unless ``each_execution``."""
        if state.flip is None:
            return False
        flip = self.flips[state.flip]
        if outcome is not None:
            over_all = flip.until is not None and outcome.reads is not CoinReads.NONE and not each_execution
            flip = replace(flip, outcomes=flip.outcomes + (replace(outcome, over_all=over_all),))
        self.flips[state.flip] = replace(flip, **changes)
        return True

    def add_effect(self, effect: Effect, state: _State) -> None:
        self.effects.append(effect)
        state.effect = len(self.effects) - 1

    def current_roll(self, state: _State) -> RollInstruction | None:
        return self.rolls[state.roll] if state.roll is not None else None

    def update_roll(self, state: _State, **changes: Any) -> None:
        assert state.roll is not None
        self.rolls[state.roll] = replace(self.rolls[state.roll], **changes)

    def extend_effect(self, state: _State, original: str) -> bool:
        """A later sentence of the same triggered ability: it joins the ability's text."""
        if state.effect is None:
            return False
        effect = self.effects[state.effect]
        self.effects[state.effect] = replace(effect, text=f"{effect.text} {original}")
        return True

    def add_outcome(self, state: _State, outcome: Outcome) -> bool:
        roll = self.current_roll(state)
        if roll is None:
            return False
        self.update_roll(state, outcomes=roll.outcomes + (outcome,))
        return True


@dataclass
class _State:
    """What earlier sentences of the same ability set up."""

    cost: str | None
    roll: int | None = None
    effect: int | None = None
    trigger: bool = False
    pending_cost: tuple[Cost, Scope, int | None, str] | None = None
    """The cost, whose rolls, of which die, and the sentence of an optional modifier's "you may <cost>"."""
    flip: int | None = None
    last_flip: bool = False
    """The latest instruction of the ability is a flip (an "otherwise" is its outcome)."""
    speaks: bool = False
    """The ability speaks of dice or coins (``detector``): a sentence naming a result is marked too."""


def _marked(original: str, state: _State) -> bool:
    """Whether the detector marks a sentence no production read (``detector.marked``'s rule)."""
    return detector.speaks(original, languages=False) or (state.speaks and detector.speaks_of_result(original))


# -- splitting text into abilities and sentences ----------------------------------------------


def _abilities(prepared: str, unsupported: list[str]) -> list[_Ability]:
    """The paragraphs of a text, each with the table rows under it; a row or level line whose
    numbers the rules refuse goes to ``unsupported`` with the reason."""
    abilities: list[_Ability] = []
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
            unsupported.append(f"{line} ({_reason(error)})")
            continue
        if row is not None and abilities:
            row_value, listed = row
            target = abilities[-1]
            if not target.rows or target.listed == listed:
                target.rows.append(row_value)
                target.listed = listed
                continue
        abilities.append(_Ability(line, level))
    return abilities


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
    c: _Compiler,
    state: _State,
    original: str,
    recognition: g.Recognition,
    scope: Scope = Scope.YOU,
    details: tuple[tuple[str, Any], ...] = (),
) -> None:
    """An ability about dice that ``resolve`` recognises but does not apply (a ``Passive`` effect)."""
    c.add_effect(
        Passive(
            what=recognition.what,
            note=recognition.passive_note,
            zone=c.zone,
            scope=scope,
            text=original,
            details=dict(details or recognition.details),
        ),
        state,
    )


def _not_read(words: str) -> str:
    return g.not_read(words.strip(" ,"))


# -- actions: what each sentence node means ------------------------------------------------------
# Each takes (compiler, the sentence's node, original sentence, state) and folds the node into the
# card; the grammar's node says what the sentence means, so no action reads words. Only the
# fallback may decline (False): then the sentence is not understood.

Action = Callable[[_Compiler, Any, str, _State], bool]


def _replacement(c: _Compiler, node: g.Replacement, original: str, state: _State) -> bool:
    how, who, sides = node.how, node.scope, node.sides
    if isinstance(how, g.ExtraDiceHow):
        c.add_effect(
            ExtraDice(
                extra=how.extra,
                ignore=IgnoreMode.CHOSEN if how.chosen else IgnoreMode.LOWEST,
                chosen_by=how.chosen_by,
                sides=sides,
                optional=node.optional,
                zone=c.zone,
                scope=who,
                text=original,
            ),
            state,
        )
    elif isinstance(how, g.MoreOfThemHow):
        # One die rolled as several, keeping the best: one extra die per die beyond the first, each
        # ignoring one more lowest (an older advantage wording).
        c.add_effect(
            ExtraDice(
                extra=how.n - 1,
                ignore=IgnoreMode.LOWEST,
                sides=sides,
                optional=node.optional,
                zone=c.zone,
                scope=who,
                text=original,
            ),
            state,
        )
    elif isinstance(how, g.PairHow):
        c.add_effect(PairEachDie(sides=sides, zone=c.zone, scope=who, text=original), state)
    else:
        _recognise(c, state, original, how.recognition, who, how.details(sides))
    return True


def _modifier(c: _Compiler, node: g.Modifier, original: str, state: _State) -> bool:
    """A static modifier, or an optional one in one sentence (it has a cost)."""
    c.add_effect(
        ResultModifier(
            delta=node.delta,
            optional=node.cost is not None,
            either_direction=node.either,
            cost=node.cost,
            sides=node.sides,
            zone=c.zone,
            scope=node.scope,
            text=original,
        ),
        state,
    )
    return True


def _after_roll(c: _Compiler, node: g.AfterRoll, original: str, state: _State) -> bool:
    state.pending_cost = (node.cost, node.scope, node.sides, original)
    state.effect = None
    return True


def _if_you_do(c: _Compiler, node: g.IfYouDo, original: str, state: _State) -> bool:
    assert state.pending_cost is not None
    cost, who, sides, first = state.pending_cost
    if state.effect is not None and isinstance(c.effects[state.effect], Trigger):
        c.effects.pop(state.effect)
        state.effect = None
    modifier = g.Modifier(node.delta, node.either, cost, who, sides)
    _modifier(c, modifier, f"{first} {original}", state)
    state.pending_cost = None
    return True


def _once_each_turn(c: _Compiler, node: g.OnceEachTurn, original: str, state: _State) -> bool:
    if state.effect is not None:
        effect = c.effects[state.effect]
        c.effects[state.effect] = replace(effect, once_each_turn=True, text=f"{effect.text} {original}")
    return True


def _reroll(c: _Compiler, node: g.Reroll, original: str, state: _State) -> bool:
    c.add_effect(
        RerollPermission(
            condition=node.condition,
            sides=node.sides,
            cost=node.cost,
            many=node.many,
            once_each_turn=node.once,
            zone=c.zone,
            scope=node.scope,
            text=original,
        ),
        state,
    )
    return True


def _reroll_activated(c: _Compiler, node: g.ActivatedReroll, original: str, state: _State) -> bool:
    assert state.cost is not None
    if node.coin:
        c.add_effect(
            ReflipPermission(cost=g.cost(state.cost), activated=True, zone=c.zone, scope=Scope.ANY, text=original),
            state,
        )
    if node.die:
        c.add_effect(
            RerollPermission(
                cost=g.cost(state.cost),
                activated=True,
                many=node.many,
                rerolled_by=Decider.CONTROLLER,
                zone=c.zone,
                scope=Scope.ANY,
                text=original,
            ),
            state,
        )
    return True


def _coin_replacement(c: _Compiler, node: g.CoinReplacement, original: str, state: _State) -> bool:
    c.add_effect(PairEachCoin(extra=node.extra, zone=c.zone, scope=node.scope, text=original), state)
    return True


def _original_effect(original: str, effect_text: str) -> str:
    """The effect of a trigger in the card's own wording: what follows the trigger condition."""
    words = len(effect_text.split())
    tail = original.rstrip(".").split()
    if len(tail) >= words:
        candidate = " ".join(tail[-words:])
        if for_matching(candidate).rstrip(".") == effect_text:
            return candidate
    return effect_text


def _trigger(c: _Compiler, node: g.TriggerNode, original: str, state: _State) -> bool:
    what, scope = node.what, node.scope
    condition = what.condition
    if node.intervening is not None and condition is None:
        condition = _value(node.intervening)
    c.add_effect(
        Trigger(
            event=what.event,
            doubles=what.doubles,
            condition=condition,
            sides=what.sides,
            planar=what.planar,
            nth_this_turn=what.nth,
            purpose=what.purpose,
            effect=_original_effect(original, node.effect),
            numeric_effect=node.numeric,
            zone=Zone.GRAVEYARD if node.graveyard else c.zone,
            scope=scope,
            text=original,
        ),
        state,
    )
    if node.may_cost is not None and what.event is Event.DIE_ROLLED and condition is None:
        # "Whenever a player rolls a die, you may <cost>. If you do, increase or decrease the result"
        # is an optional modifier, settled by the next sentence (IF_YOU_DO).
        cost = g.cost(_original_effect(original, node.may_cost))
        state.pending_cost = (cost, scope, what.sides, original)
    state.trigger = True
    # A roll inside the triggered ability's effect is a roll of this card too.
    if node.rolls is not None:
        _report(c, original, _add_rolls(c, node.rolls, original, state))
    return True


def _face_counts_as(c: _Compiler, node: g.FaceCounts, original: str, state: _State) -> bool:
    c.add_effect(
        FaceCountsAs(face=node.face, counts_as=node.counts_as, zone=c.zone, scope=Scope.ANY, text=original), state
    )
    return True


def _recognised(c: _Compiler, node: g.Recognised, original: str, state: _State) -> bool:
    recognition = node.recognition
    what = recognition.what
    known = next((i for i, e in enumerate(c.effects) if isinstance(e, Passive) and e.what == what), None)
    if known is None:
        _recognise(c, state, original, recognition)
    else:  # the same ability again in another sentence: one effect, which keeps every sentence
        c.effects[known] = replace(c.effects[known], text=f"{c.effects[known].text} {original}")
    if recognition.no_roll and recognition.card_note not in c.notes:
        c.notes.append(recognition.card_note)
    if node.rolls is not None:
        _report(c, original, _add_rolls(c, node.rolls, original, state))
    return True


def _store(c: _Compiler, node: g.Store, original: str, state: _State) -> bool:
    """The results of the roll before are stored on the permanent (CR 706.8)."""
    roll = c.current_roll(state)
    assert roll is not None
    c.update_roll(state, store=True, text=f"{roll.text} {original}")
    return True


def _repeat(c: _Compiler, node: g.Repeat, original: str, state: _State) -> bool:
    roll = c.current_roll(state)
    assert roll is not None
    c.update_roll(state, repeat_when=node.condition, repeat_optional=node.optional, text=f"{roll.text} {original}")
    return True


def _doubles(c: _Compiler, node: g.Doubles, original: str, state: _State) -> bool:
    return c.add_outcome(state, Outcome(original, doubles=True, reads=Reads.DOUBLES))


def _exactly(c: _Compiler, node: g.Exactly, original: str, state: _State) -> bool:
    condition = InRange(node.value, node.value)
    return c.add_outcome(state, Outcome(original, condition, reads=Reads.COUNT, times=node.times))


def _for_each(c: _Compiler, node: g.ForEachResult, original: str, state: _State) -> bool:
    """An outcome for each result (meeting its condition, if any)."""
    return c.add_outcome(state, Outcome(original, node.condition, reads=Reads.EACH))


def _otherwise(c: _Compiler, node: g.Otherwise, original: str, state: _State) -> bool:
    if state.last_flip:
        return c.update_flip(state, FlipOutcome(original, CoinReads.OTHERWISE))
    return c.add_outcome(state, Outcome(original, reads=Reads.OTHERWISE))


# -- coins (CR 705) --------------------------------------------------------------------------------


def _flips(c: _Compiler, phrase: g.FlipPhrase, original: str, state: _State) -> bool:
    """A flip instruction: its coins, who flips, and its tails; text before or after it that
    speaks of dice or coins is reported."""
    head: g.FlipHead = _value(phrase.head)
    count = head.count
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
    c.add_flip(FlipInstruction(count, True, until, times, may_stop, head.flipper, text=original), state)
    s = phrase.sentence
    reasons = [
        _not_read(s.between(*part))
        for part in (phrase.lead, phrase.after)
        if detector.speaks(s.between(*part), languages=False)
    ]
    _report(c, original, reasons)
    return True


def _coin_outcome(c: _Compiler, when: g.CoinWhen, original: str, state: _State) -> bool:
    """An outcome of the ability's flip: won or lost, heads or tails, once or for each flip."""
    outcome = FlipOutcome(original, when.reads, each=when.each, at_least=when.at_least, every=when.every)
    if when.again and state.flip is not None:
        # Flipping again by choice after a flip won (lost) is flipping until one is lost (won), with a
        # choice to stop; after either, it is a choice each time.
        until = c.flips[state.flip].until
        stops = Until.LOSE if when.reads is CoinReads.WON else Until.WIN
        chosen = until is not None and until is not stops
        c.update_flip(state, until=Until.CHOSEN if chosen else stops, may_stop=True)
    added = c.update_flip(state, outcome, each_execution=when.again or when.single)
    if when.rolls is not None:  # an outcome whose effect rolls: the effect's own rolls
        _report(c, original, _add_rolls(c, when.rolls, original, state))
    return added


def _coin_repeat(c: _Compiler, node: g.CoinRepeat, original: str, state: _State) -> bool:
    """The flip is made again until the node says (both players' coins heads)."""
    assert state.flip is not None
    return c.update_flip(state, until=node.until, text=f"{c.flips[state.flip].text} {original}")


def _coin_follow_up(c: _Compiler, node: g.CoinFollowUp, original: str, state: _State) -> bool:
    """A sentence after a flip that names its flips without flipping: kept as an outcome's text."""
    return c.update_flip(state, FlipOutcome(original))


def _coin_trigger(c: _Compiler, node: g.CoinTriggerNode, original: str, state: _State) -> bool:
    effect = _original_effect(original, node.effect)
    trigger = CoinTrigger(won=node.won, batch=node.batch, effect=effect, zone=c.zone, scope=node.scope, text=original)
    c.add_effect(trigger, state)
    return True


def _first_flip(c: _Compiler, node: g.FirstFlip, original: str, state: _State) -> bool:
    _recognise(c, state, original, node.recognition, node.scope, node.details())
    return True


def _called(flip: FlipInstruction, wins: bool, name: str) -> FlipInstruction:
    """A flip is called (CR 705.1) unless its card reads only heads or tails (CR 705.2)."""
    reads = {outcome.reads for outcome in flip.outcomes}
    sides = bool(reads & {CoinReads.HEADS, CoinReads.TAILS})
    won_or_lost = wins or flip.until in (Until.LOSE, Until.WIN) or bool(reads & {CoinReads.WON, CoinReads.LOST})
    text = _named(flip.text, name)
    outcomes = tuple(replace(outcome, text=_named(outcome.text, name)) for outcome in flip.outcomes)
    return replace(flip, call=won_or_lost or not sides, text=text, outcomes=outcomes)


def _ties(c: _Compiler, node: g.Ties, original: str, state: _State) -> bool:
    roll = c.current_roll(state)
    if roll is not None and roll.compare is not None:
        c.update_roll(state, compare=replace(roll.compare, break_ties=True))
    return c.add_outcome(state, Outcome(original, reads=Reads.TIES))


def _standing(c: _Compiler, node: g.Standing, original: str, state: _State) -> bool:
    """An outcome on the player with the lowest or highest result (or on whether one of them had it)."""
    roll = c.current_roll(state)
    assert roll is not None
    if roll.compare is None:
        c.update_roll(state, compare=Comparison(node.extreme))
    return c.add_outcome(state, Outcome(original, reads=Reads.STANDING, who=node.who, extreme=node.extreme))


def _on_result(c: _Compiler, node: g.OnResult, original: str, state: _State) -> bool:
    return c.add_outcome(state, Outcome(original, node.condition, reads=Reads.RESULT))


def _effect_if(c: _Compiler, node: g.EffectIf, original: str, state: _State) -> bool:
    # Inside a triggered ability: part of its effect.
    return c.extend_effect(state, original)


def _rolls(c: _Compiler, rolls: g.Rolls, original: str, state: _State) -> bool:
    reasons = _add_rolls(c, rolls, original, state)
    if g.mentions_dice(rolls.sentence, *rolls.lead):
        reasons.append(_not_read(rolls.text(rolls.lead)))
    _report(c, original, reasons)
    return True


def _report(c: _Compiler, original: str, reasons: list[str]) -> None:
    """One ``unsupported`` entry for a sentence, with every part of it not understood (each once)."""
    if reasons:
        c.unsupported_part(original, "; ".join(dict.fromkeys(reasons)))


def _follow_up(c: _Compiler, node: g.FollowUp, original: str, state: _State) -> bool:
    """A sentence after a roll that uses its dice without rolling."""
    if state.roll is not None and node.uses_result:
        return c.add_outcome(state, Outcome(original, reads=node.reads))
    if state.roll is None and (node.names_dice or (state.trigger and node.uses_result)):
        return c.extend_effect(state, original)
    return node.names_dice


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
}
"""What each kind of sentence node means (the node types of ``grammar.SENTENCES``' values)."""


# -- roll instructions inside a sentence ----------------------------------------------------------


def _add_rolls(c: _Compiler, rolls: g.Rolls, original: str, state: _State) -> list[str]:
    """Every roll phrase of a sentence, in text order; then what follows each (an unsupported part,
    or an outcome that uses its result), the last roll's first. Returns why parts of the sentence
    were not understood (the rules refuse a roll's numbers, or words no production read)."""
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
        c.add_roll(roll, state)
        after = phrase.after
        if index == len(rolls.phrases) - 1 and where is not None:
            after = (after[0], len(s.words))  # the "where X is" clause no roll used is unread text
        added.append((len(c.rolls) - 1, after))
    for index, after in reversed(added):
        text = rolls.text(after)
        if g.mentions_dice(s, *after):
            reasons.append(_not_read(text))
        elif g.uses_result(s, *after):
            # A roll whose sentence goes on to use its result.
            current = c.rolls[index]
            c.rolls[index] = replace(current, outcomes=current.outcomes + (Outcome(original, reads=g.reads_of(text)),))
    return reasons


def _roll(phrase: g.RollPhrase, original: str, where: str | None) -> tuple[RollInstruction, str | None]:
    """A roll instruction from a roll phrase (its head, and its tails folded in text order), and the
    "where X is" amount left for a later roll when this one does not use it."""
    head: g.RollHead = _value(phrase.head)
    read = g.Tail()
    for tail in phrase.tails:
        read = read.then(_value(tail))
    count, also = head.count, read.also
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


def _named_roll(roll: RollInstruction, name: str) -> RollInstruction:
    if not name or (
        "~" not in roll.text
        and not any("~" in outcome.text for outcome in roll.outcomes)
        and (roll.table is None or not any("~" in row.text for row in roll.table.rows))
    ):
        return roll  # nothing written ~: the roll as it is (a copy of it costs its checks again)
    table = roll.table
    if table is not None:
        table = replace(table, rows=tuple(replace(row, text=_named(row.text, name)) for row in table.rows))
    outcomes = tuple(replace(outcome, text=_named(outcome.text, name)) for outcome in roll.outcomes)
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
