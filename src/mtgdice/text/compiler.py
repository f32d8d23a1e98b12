"""Oracle text → roll instructions and effects: the compiler of the dice language.

:func:`compile_text` reads a card's text paragraph by paragraph (one ability each), attaches
results-table rows to the roll above them (CR 706.3b: one ability), and reads each sentence
through the phrases of ``grammar.py``. A sentence that mentions dice and that no phrase
understands is reported in ``unsupported`` — never dropped, never called "not about dice".

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
    PLANAR_DIE,
    Amount,
    AnyOf,
    Comparison,
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
    Passive,
    PlanarFace,
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
from mtgdice.rules.errors import CardTextError
from mtgdice.text import grammar as g
from mtgdice.text.amounts import amount_name
from mtgdice.text.canonical import render
from mtgdice.text.normalize import for_matching, replace_self, standard_punctuation, strip_reminder

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

    def describe(self) -> str:
        """The card in canonical English, which compiles back to the same structure (``canonical.py``)."""
        return render(self)

    def to_json(self) -> dict[str, Any]:
        """The ``compile`` JSON object of json-interface.md."""
        return {
            "name": self.name,
            "rolls": [roll_json(roll) for roll in self.rolls],
            "effects": [effect.describe() for effect in self.effects],
            "unsupported": list(self.unsupported),
            "notes": list(self.notes),
        }


def roll_json(roll: RollInstruction) -> dict[str, Any]:
    """One roll instruction as json-interface.md describes it, plus our own fields."""
    sides: int | str | None
    if roll.sides_amount is not None:
        sides = roll.sides_amount.describe()
    else:
        sides = "planar" if roll.die.planar else roll.die.sides
    ignore: int | str = roll.ignore_lowest
    if roll.keep_highest is not None:
        if roll.count.fixed:
            ignore = max(roll.count.constant - roll.keep_highest, 0)
        else:
            ignore = f"{roll.count.describe()} - {roll.keep_highest}"
    table = roll.table
    return {
        "count": roll.count.describe(),
        "sides": sides,
        "ignore_lowest": ignore,
        "modifier": roll.modifier.describe_signed() if roll.modifier is not None else None,
        "amounts": list(roll.amounts),
        "choose": roll.choose,
        "table": [[row.low, row.high] for row in table.rows] if table is not None else None,
        "roll_again": roll.roll_again,
        "keep_highest": roll.keep_highest,
        "table_each_result": roll.table_each_result,
        "rows": [
            {
                "results": row.label,
                "text": row.text,
                "roll_again": row.roll_again,
                "optional": row.roll_again_optional,
                "times": row.roll_again_times,
            }
            for row in table.rows
        ]
        if table is not None
        else None,
        "repeat_when": roll.repeat_when.describe() if roll.repeat_when is not None else None,
        "repeat_optional": roll.repeat_optional,
        "store": roll.store,
        "reroll_stored": roll.reroll_stored,
        "roller": roll.roller.value,
        "also": [{"count": group.count.describe(), "sides": group.die.sides} for group in roll.also],
        "compare": {"extreme": roll.compare.extreme.value, "break_ties": roll.compare.break_ties}
        if roll.compare is not None
        else None,
        "purpose": roll.purpose or None,
        "outcomes": [outcome_json(outcome) for outcome in roll.outcomes],
        "text": roll.text,
    }


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    data: dict[str, Any] = {
        "when": "doubles" if outcome.doubles else (outcome.condition.describe() if outcome.condition else None),
        "reads": outcome.reads.value,
        "times": outcome.times,
        "text": outcome.text,
    }
    if outcome.extreme is not None:
        data["extreme"] = outcome.extreme.value
    if outcome.who is not None:
        data["who"] = outcome.who.value
    return data


def mentions_dice(text: str) -> bool:
    """Whether any rules text (reminder text aside) mentions dice, rolling or the planar die.

    >>> mentions_dice("Whenever you roll one or more dice, draw a card."), mentions_dice("Flying")
    (True, False)
    """
    return bool(g.DICE_WORD.search(for_matching(strip_reminder(text))))


def compile_text(text: str, *, name: str = "", layout: str = "normal", type_line: str = "") -> CompiledCard:
    """Compile a card's Oracle text.

    ``name`` lets the text name itself; ``layout`` ``"planar"`` puts its abilities in the command
    zone (planes and phenomena, CR 901).

    >>> card = compile_text("If you would roll one or more dice, instead roll that many dice plus one "
    ...                     "and ignore the lowest roll.")
    >>> card.effects[0].kind, card.effects[0].extra, card.unsupported
    ('extra dice', 1, ())
    """
    if len(text) > MAX_TEXT:
        raise CardTextError(f"text: {len(text)} characters is more than the {MAX_TEXT} a card can have")
    zone = Zone.COMMAND if layout == "planar" or "plane" in type_line.lower().split() else Zone.BATTLEFIELD
    prepared = replace_self(standard_punctuation(strip_reminder(text)), name)
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

    def result(self) -> CompiledCard:
        rolls = [_named_roll(roll, self.name) for roll in _link_stored(self.rolls)]
        effects = [_named_effect(effect, self.name) for effect in self.effects]
        unsupported = [_named(text, self.name) for text in self.unsupported]
        return CompiledCard(self.name, tuple(rolls), tuple(effects), tuple(unsupported), tuple(self.notes))

    def run(self, prepared: str) -> None:
        for ability in _abilities(prepared, self.unsupported):
            self.ability(ability)

    # -- one ability --------------------------------------------------------------------------

    def ability(self, ability: _Ability, quoted: bool = False) -> None:
        body, quotes = _take_quotes(ability.text)
        for quote in quotes:
            if g.DICE_WORD.search(for_matching(quote)):
                self.ability(_Ability(quote, ability.level), quoted=True)
        body = _drop_ability_word(body)
        cost, body = _split_cost(body)
        first_roll = len(self.rolls)
        first_effect = len(self.effects)
        state = _State(cost=cost)
        if cost is not None and g.DICE_WORD.search(for_matching(cost)):
            # A roll in the cost ("{6}, Roll a d8: ..."): the effect uses its result.
            self.sentence(cost, ability, cost=None, state=_State(cost=None))
            if len(self.rolls) > first_roll:
                state.roll = len(self.rolls) - 1
        for sentence in _sentences(body):
            self.sentence(sentence, ability, cost=cost, state=state)
        new_rolls = self.rolls[first_roll:]
        if ability.rows:
            if not new_rolls:
                self.unsupported.append(
                    "results table without a roll: " + " / ".join(f"{row.label} | {row.text}" for row in ability.rows)
                )
            else:
                self._attach_table(first_roll + len(new_rolls) - 1, ability, body)
        if self.zone is Zone.COMMAND or ability.level != 1:
            for index in range(first_effect, len(self.effects)):
                effect = self.effects[index]
                changes: dict[str, Any] = {}
                if self.zone is Zone.COMMAND and effect.zone is Zone.BATTLEFIELD:
                    changes["zone"] = Zone.COMMAND
                if ability.level != 1:
                    changes["level"] = ability.level
                self.effects[index] = replace(effect, **changes)

    def _attach_table(self, index: int, ability: _Ability, body: str) -> None:
        roll = self.rolls[index]
        try:
            table = ResultsTable(tuple(ability.rows), listed=ability.listed)
        except CardTextError as error:
            self.unsupported.append(f"{error}")
            return
        each = ability.listed and bool(g.INDICATED.search(for_matching(body))) and roll.count.constant != 1
        self.rolls[index] = replace(roll, table=table, table_each_result=each)

    # -- one sentence ---------------------------------------------------------------------------

    def sentence(self, original: str, ability: _Ability, cost: str | None, state: _State | None = None) -> None:
        state = state or _State(cost=cost)
        text = for_matching(original).rstrip(".").strip()
        if not text:
            return
        for rule in _SENTENCE_RULES:
            try:
                understood = rule(self, text, original.strip(), state)
            except (CardTextError, ValueError) as error:
                # The grammar read it but the rules refuse it (a die of 0 sides, a number past int's digits).
                self.unsupported.append(f"{original.strip()} ({_reason(error)})")
                return
            if understood:
                return
        if g.DICE_WORD.search(text):
            self.unsupported.append(original.strip())

    # -- helpers used by the rules --------------------------------------------------------------

    def unsupported_part(self, original: str, reason: str) -> None:
        self.unsupported.append(f"{original.strip()} ({reason})")

    def add_roll(self, roll: RollInstruction, state: _State) -> None:
        self.rolls.append(roll)
        state.roll = len(self.rolls) - 1
        state.effect = None

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
    pending_cost: tuple[str, Scope, int | None, str] | None = None  # (cost, who, sides, sentence) of "you may <cost>"


# -- splitting text into abilities and sentences ----------------------------------------------


def _abilities(prepared: str, unsupported: list[str]) -> list[_Ability]:
    """The paragraphs of a text, each with the table rows under it; a row or level line whose
    numbers the rules refuse goes to ``unsupported`` with the reason."""
    abilities: list[_Ability] = []
    level = 1
    for raw in g.ROW_BREAK.sub("\n", prepared).split("\n"):
        line = raw.strip()
        if not line:
            continue
        matching = for_matching(line)
        try:
            level_line = g.LEVEL_LINE.match(matching)
            if level_line:
                level = _number(level_line.group("level"))
                continue
            row = _table_row(line)
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


def _table_row(line: str) -> tuple[Row, bool] | None:
    matching = for_matching(line)
    chart = g.TABLE_ROW.match(matching)
    listed = False
    match = chart
    if chart is None:
        match = g.LIST_ROW.match(matching)
        listed = True
    if match is None:
        return None
    low = _number(match.group("low"))
    high: int | None = low
    if match.group("high"):
        high = _number(match.group("high"))
    elif match.groupdict().get("alt"):
        high = _number(match.group("alt"))
    if match.group("open"):
        high = None
    original_text = (
        line.split("|", 1)[1].strip() if chart is not None else re.split(r"\s\u2014\s", line, maxsplit=1)[-1].strip()
    )
    text = match.group("text")
    again = g.ROW_AGAIN.search(text)
    times = again.group("times") if again else None
    optional = bool(again and again.group("may"))
    return Row(low, high, original_text, bool(again), optional, _number(times) if times else 1), listed


_QUOTE = re.compile(r'"([^"]+)"')


def _take_quotes(text: str) -> tuple[str, list[str]]:
    """Quoted abilities granted to something else are compiled on their own."""
    quotes = [q.strip() for q in _QUOTE.findall(text)]
    return _QUOTE.sub('"…"', text), quotes


def _drop_ability_word(text: str) -> str:
    match = g.ABILITY_WORD.match(for_matching(text))
    if match and not re.search(r"[.:]", match.group("word")):
        return text.split(" \u2014 ", 1)[1] if " \u2014 " in text else text
    return text


def _split_cost(text: str) -> tuple[str | None, str]:
    match = g.COST_SPLIT.match(text)
    if match is None:
        return None, text
    cost = match.group("cost")
    if not g.COST_HINT.search(for_matching(cost)) or "." in cost:
        return None, text
    return cost.strip(), match.group("body").strip()


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z~\[{\u2022\"\u2026]|\d)")


def _sentences(text: str) -> list[str]:
    return [part.strip() for part in _SENTENCE_END.split(text) if part.strip()]


# -- conditions and amounts -----------------------------------------------------------------------


def parse_condition(words: str, natural: bool = False) -> Condition | None:
    """ "a 6", "4 or higher", "3 or less", "a 1 or 2", "a natural 20", "a die's highest natural result".

    >>> parse_condition("a 4 or higher")
    InRange(low=4, high=None, natural=False)
    """
    words = words.strip()
    if g.HIGHEST_NATURAL.fullmatch(words):
        return NaturalMax()
    if words in ("{chaos}", "chaos"):
        return FaceIs(PlanarFace.CHAOS)
    if words in ("{planeswalker}", "{pw}", "planeswalk", "the planeswalker symbol", "the planeswalk symbol"):
        return FaceIs(PlanarFace.PLANESWALK)
    if words in ("a blank", "blank", "a blank face"):
        return FaceIs(PlanarFace.BLANK)
    if words.startswith(("a natural ", "natural ")):
        natural = True
    match = g.CONDITION_WORDS.match(words)
    if match is None:
        parts = [part for part in re.split(r",? or |, ", words) if part]
        if len(parts) > 1:
            conditions = [parse_condition(part, natural) for part in parts]
            if all(condition is not None for condition in conditions):
                return AnyOf(tuple(c for c in conditions if c is not None))
        return None
    low = _number(match.group("low"))
    if match.group("up"):
        return InRange(low, None, natural)
    if match.group("down"):
        return InRange(None, low, natural)
    alternatives = [_number(v) for v in re.findall(r"\d+", match.group("alts") or "")]
    if alternatives:
        values = [low, *alternatives]
        return AnyOf(tuple(InRange(v, v, natural) for v in values))
    return InRange(low, low, natural)


def _reason(error: Exception) -> str:
    return str(error).splitlines()[0][:200] if str(error) else type(error).__name__


def _die(words: str) -> Die:
    """The die a phrase names; :class:`CardTextError` when it names no size or an impossible one."""
    words = words.strip()
    if "planar" in words:
        return PLANAR_DIE
    match = re.match(r"d(\d+)|(\d+)-sided", words)
    if match is None:
        raise CardTextError(f"die: {words!r} names no number of sides")
    sides = _number(match.group(1) or match.group(2))
    if sides < 1:
        raise CardTextError(f"die: a die with {sides} sides cannot be rolled")
    return Die(sides)


MAX_DIGITS = 18
"""Longest number read from card text, as the JSON reader allows; a longer one is refused."""


def _number(digits: str) -> int:
    if len(digits) > MAX_DIGITS:
        raise CardTextError(f"number: {digits[:12]}... has more than {MAX_DIGITS} digits")
    return int(digits)


def _sides_filter(words: str | None) -> int | None:
    if not words:
        return None
    match = re.search(r"d(\d+)|(\d+)-sided", words)
    return _number(match.group(1) or match.group(2)) if match else None


def _count(words: str) -> Amount:
    if words in ("a", "an"):
        return Amount(1)
    if words.isdigit():
        return Amount(_number(words))
    if words == "x":
        return Amount.named("X")
    return Amount.named(words)


def _cost(words: str) -> Cost:
    counter = g.COST_COUNTER.search(words.lower())
    tap = bool(g.COST_TAP.search(words.lower()))
    return Cost(words.strip(), counter.group("kind") if counter else None, tap)


# -- sentence rules -------------------------------------------------------------------------------
# Each takes (compiler, matching text, original sentence, state) and returns True when it has
# understood the whole sentence. They are tried in order; the first that understands wins.


def _rule_replacement(c: _Compiler, text: str, original: str, state: _State) -> bool:
    match = g.REPLACEMENT.search(text)
    if match is None:
        return False
    who = _scope(match.group("who"))
    what = match.group("what")
    sides = _sides_filter(what)
    how = match.group("how")
    optional = bool(match.group("may"))
    extra = g.HOW_EXTRA_LOWEST.match(how)
    if extra:
        count = 1 if extra.group("extra") in ("a", "an") else _number(extra.group("extra"))
        c.add_effect(
            ExtraDice(
                extra=count,
                ignore=IgnoreMode.LOWEST,
                sides=sides,
                optional=optional,
                zone=c.zone,
                scope=who,
                text=original,
            ),
            state,
        )
        return True
    chosen = g.HOW_EXTRA_CHOSEN.match(how)
    if chosen:
        count = 1 if chosen.group("extra") in ("a", "an") else _number(chosen.group("extra"))
        chooser = Decider.OPPONENT if chosen.group("chooser") else Decider.ROLLER
        c.add_effect(
            ExtraDice(
                extra=count,
                ignore=IgnoreMode.CHOSEN,
                chosen_by=chooser,
                sides=sides,
                optional=optional,
                zone=c.zone,
                scope=who,
                text=original,
            ),
            state,
        )
        return True
    more = g.HOW_MORE_OF_THEM.match(how)
    if more and g.ONE_DIE.fullmatch(what) and _number(more.group("n")) >= 2:
        # "If you would roll a d20, instead roll two d20s and ignore the lower roll": one extra
        # die per die beyond the first, each ignoring one more lowest (an older advantage wording).
        extra_dice = _number(more.group("n")) - 1
        c.add_effect(
            ExtraDice(
                extra=extra_dice,
                ignore=IgnoreMode.LOWEST,
                sides=sides,
                optional=optional,
                zone=c.zone,
                scope=who,
                text=original,
            ),
            state,
        )
        return True
    pair = g.HOW_PAIR.match(how)
    if pair and _number(pair.group("n")) == 2 and _number(pair.group("ignore")) == 1:
        c.add_effect(PairEachDie(sides=sides, zone=c.zone, scope=who, text=original), state)
        return True
    total = g.HOW_TOTAL.match(how)
    if total:
        note = "a one-time replacement (the next roll this turn): each die becomes several whose total is its result"
        _recognise(c, state, original, "use the total", note, who, {"dice": _number(total.group("n")), "sides": sides})
        return True
    then = g.HOW_THEN.match(how)
    if then:
        note = "the dice are rolled as they are; what the replacement does after the roll is kept as text"
        _recognise(c, state, original, "roll, then", note, who, {"sides": sides, "then": then.group("then")})
        return True
    return False


def _recognise(
    c: _Compiler,
    state: _State,
    original: str,
    what: str,
    note: str,
    scope: Scope = Scope.YOU,
    details: dict[str, Any] | None = None,
) -> None:
    """An ability about dice that ``resolve`` recognises but does not apply (a ``Passive`` effect)."""
    c.add_effect(
        Passive(
            what=what,
            note=f"{note}; recognised, not applied by resolve",
            zone=c.zone,
            scope=scope,
            text=original,
            details=details or {},
        ),
        state,
    )


def _rule_static_modifier(c: _Compiler, text: str, original: str, state: _State) -> bool:
    match = g.STATIC_MODIFIER.match(text)
    if match is None:
        return False
    delta = _number(match.group("n")) * (1 if match.group("verb") == "increase" else -1)
    scope = _scope(match.group("who") or "a player")  # "each die rolled": anyone's
    c.add_effect(
        ResultModifier(delta=delta, sides=_sides_filter(match.group("die")), zone=c.zone, scope=scope, text=original),
        state,
    )
    return True


def _rule_after_roll(c: _Compiler, text: str, original: str, state: _State) -> bool:
    match = g.AFTER_ROLL.match(text)
    if match is None:
        return False
    state.pending_cost = (match.group("cost"), _scope(match.group("who")), _sides_filter(match.group("die")), original)
    state.effect = None
    return True


def _rule_costed_modifier(c: _Compiler, text: str, original: str, state: _State) -> bool:
    """ "You may <cost> to increase or decrease the result of a die <who> rolled by N" (one sentence)."""
    match = g.COSTED_MODIFIER.match(text)
    if match is None:
        return False
    _add_optional_modifier(
        c,
        state,
        match.group("verb"),
        _number(match.group("n")),
        match.group("cost"),
        _scope(match.group("who")),
        _sides_filter(match.group("die")),
        original,
    )
    return True


def _add_optional_modifier(
    c: _Compiler, state: _State, verb: str, n: int, cost: str, who: Scope, sides: int | None, text: str
) -> None:
    c.add_effect(
        ResultModifier(
            delta=n * (-1 if verb == "decrease" else 1),
            optional=True,
            either_direction=" or " in verb,
            cost=_cost(cost),
            sides=sides,
            zone=c.zone,
            scope=who,
            text=text,
        ),
        state,
    )


def _rule_if_you_do(c: _Compiler, text: str, original: str, state: _State) -> bool:
    match = g.IF_YOU_DO.match(text)
    if match is None or state.pending_cost is None:
        return False
    cost_words, who, sides, first = state.pending_cost
    if state.effect is not None and isinstance(c.effects[state.effect], Trigger):
        c.effects.pop(state.effect)
        state.effect = None
    _add_optional_modifier(
        c, state, match.group("verb"), _number(match.group("n")), cost_words, who, sides, f"{first} {original}"
    )
    state.pending_cost = None
    return True


def _rule_once_each_turn(c: _Compiler, text: str, original: str, state: _State) -> bool:
    if not g.ONCE_EACH_TURN.match(text):
        return False
    if state.effect is not None:
        effect = c.effects[state.effect]
        c.effects[state.effect] = replace(effect, once_each_turn=True, text=f"{effect.text} {original}")
    return True


def _rule_reroll_if(c: _Compiler, text: str, original: str, state: _State) -> bool:
    match = g.REROLL_IF.match(text)
    if match is None:
        return False
    condition = parse_condition(match.group("cond"))
    if condition is None:
        return False
    c.add_effect(
        RerollPermission(condition=condition, sides=_sides_filter(match.group("die")), zone=c.zone, text=original),
        state,
    )
    return True


def _rule_reroll_by_cost(c: _Compiler, text: str, original: str, state: _State) -> bool:
    match = g.REROLL_BY_COST.match(text)
    if match is None:
        return False
    what = match.group("what")
    many = what.startswith(("1 or more", "any number"))
    scope = Scope.ANY if match.group("who") or what in ("any die",) else Scope.YOU
    c.add_effect(
        RerollPermission(
            cost=_cost(match.group("cost")),
            many=many,
            once_each_turn=bool(match.group("once")),
            zone=c.zone,
            scope=scope,
            text=original,
        ),
        state,
    )
    return True


def _rule_reroll_activated(c: _Compiler, text: str, original: str, state: _State) -> bool:
    match = g.REROLL_ACTIVATED.match(text)
    if match is None or state.cost is None or not (match.group("coin") or match.group("what")):
        return False
    if match.group("coin"):
        c.add_effect(
            ReflipPermission(cost=_cost(state.cost), activated=True, zone=c.zone, scope=Scope.ANY, text=original),
            state,
        )
    what = match.group("what")
    if what:
        c.add_effect(
            RerollPermission(
                cost=_cost(state.cost),
                activated=True,
                many=what.startswith("any number"),
                rerolled_by=Decider.CONTROLLER,
                zone=c.zone,
                scope=Scope.ANY,
                text=original,
            ),
            state,
        )
    return True


def _rule_coin_replacement(c: _Compiler, text: str, original: str, state: _State) -> bool:
    match = g.COIN_REPLACEMENT.match(text)
    if (
        match is None
        or _number(match.group("ignore")) != _number(match.group("n")) - 1
        or _number(match.group("n")) < 2
    ):
        return False
    extra = _number(match.group("n")) - 1
    c.add_effect(PairEachCoin(extra=extra, zone=c.zone, scope=_scope(match.group("who")), text=original), state)
    return True


def _trigger_what(what: str) -> tuple[Event, Condition | None, int | None, bool, int | None, str] | None:
    """The "what" of "whenever you roll <what>": event, condition, sides, planar, Nth die, purpose."""
    visiting = g.WHILE_VISITING.search(what)
    if visiting:
        parsed = _trigger_what(what[: visiting.start()])
        if parsed is None:
            return None
        return (*parsed[:5], "visit attractions")
    nth = g.NTH_DIE.fullmatch(what)
    if nth:
        order = nth.group("n") or str(g.ORDINALS.index(nth.group("word")) + 1)
        return Event.DIE_ROLLED, None, None, False, _number(order), ""
    if g.VISIT_WHAT.fullmatch(what):
        return Event.DIE_ROLLED, None, None, False, None, "visit attractions"
    sides = None
    suffix = g.WHAT_SUFFIX.search(what)
    if suffix:
        die_words = suffix.group("die")
        sides = _sides_filter(die_words)
        what = what[: suffix.start()].strip()
    if what in ("doubles", "a double"):
        return Event.DICE_ROLLED, None, None, False, None, "doubles"
    if g.WHAT_BATCH.match(what):
        batch_sides = _sides_filter(what)
        return Event.DICE_ROLLED, None, batch_sides or sides, False, None, ""
    if g.ONE_DIE.fullmatch(what):
        return Event.DIE_ROLLED, None, _sides_filter(what) or sides, False, None, ""
    if g.PLANAR_WHAT.fullmatch(what):
        return Event.DIE_ROLLED, None, None, True, None, ""
    condition = parse_condition(what)
    if condition is None:
        return None
    planar = isinstance(condition, FaceIs)
    return Event.DIE_ROLLED, condition, sides, planar, None, ""


def _scope(who: str) -> Scope:
    """Whose rolls an effect sees: its controller's, an opponent's, or any player's."""
    if who == "you":
        return Scope.YOU
    if who in ("an opponent", "each opponent", "another player"):
        return Scope.OPPONENT
    return Scope.ANY


def _original_effect(original: str, effect_text: str) -> str:
    """The effect of a trigger in the card's own wording: what follows the trigger condition."""
    words = len(effect_text.split())
    tail = original.rstrip(".").split()
    if len(tail) >= words:
        candidate = " ".join(tail[-words:])
        if for_matching(candidate).rstrip(".") == effect_text:
            return candidate
    return effect_text


def _trigger_zone(c: _Compiler, effect_text: str) -> Zone:
    if g.FROM_GRAVEYARD.search(effect_text):
        return Zone.GRAVEYARD
    return c.zone


def _rule_trigger(c: _Compiler, text: str, original: str, state: _State) -> bool:
    match = g.TRIGGER.match(text)
    if match is not None:
        parsed = _trigger_what(match.group("what"))
        if parsed is None:
            return False
        event, condition, sides, planar, nth, purpose = parsed
        effect_text = match.group("effect")
        scope = _scope(match.group("who"))
    else:
        passive = g.TRIGGER_PASSIVE_VOICE.match(text)
        chaos = g.CHAOS_ENSUES.match(text)
        if passive is not None:
            value = _number(passive.group("value"))
            event, condition, sides, planar = (
                Event.DIE_ROLLED,
                InRange(value, value),
                _sides_filter(passive.group("die")),
                False,
            )
            effect_text, scope, nth, purpose = passive.group("effect"), Scope.ANY, None, ""
        elif chaos is not None:
            event, condition, sides, planar = Event.DIE_ROLLED, FaceIs(PlanarFace.CHAOS), None, True
            effect_text, scope, nth, purpose = chaos.group("effect"), Scope.YOU, None, ""
        else:
            return False
    intervening = g.INTERVENING_IF.match(effect_text)
    if intervening and condition is None:
        inner = parse_condition(intervening.group("cond"))
        if inner is not None:
            condition = inner
    effect_text = _original_effect(original, effect_text)
    numeric = bool(g.NUMERIC_EFFECT.search(effect_text.lower()))
    doubles = purpose == "doubles"
    if doubles:
        purpose = ""
    c.add_effect(
        Trigger(
            event=event,
            doubles=doubles,
            condition=condition,
            sides=sides,
            planar=planar,
            nth_this_turn=nth,
            purpose=purpose,
            effect=effect_text,
            numeric_effect=numeric,
            zone=_trigger_zone(c, for_matching(effect_text)),
            scope=scope,
            text=original,
        ),
        state,
    )
    may = g.YOU_MAY.match(effect_text)
    if may and event is Event.DIE_ROLLED and condition is None:
        # "Whenever a player rolls a die, you may <cost>. If you do, increase or decrease the result"
        # is an optional modifier, settled by the next sentence (_rule_if_you_do).
        state.pending_cost = (may.group("cost"), scope, sides, original)
    state.trigger = True
    # A roll inside the triggered ability's effect is a roll of this card too.
    _find_rolls(c, effect_text, original, state)
    return True


def _rule_face_counts_as(c: _Compiler, text: str, original: str, state: _State) -> bool:
    match = g.FACE_COUNTS_AS.search(text)
    if match is None:
        return False

    def face(words: str) -> PlanarFace:
        words = words.strip("{}")
        return {"blank": PlanarFace.BLANK, "chaos": PlanarFace.CHAOS}.get(words, PlanarFace.PLANESWALK)

    c.add_effect(
        FaceCountsAs(
            face=face(match.group("face")),
            counts_as=face(match.group("as")),
            zone=c.zone,
            scope=Scope.ANY,
            text=original,
        ),
        state,
    )
    return True


def _rule_passive(c: _Compiler, text: str, original: str, state: _State) -> bool:
    for pattern, what, note in (
        (g.PROTECTION, "protection from die rolls", "a targeting rule; no roll changes"),
        (g.ROLLED_THIS_TURN, "rolled this turn", "a condition on the turn's history, checked by a game"),
        (g.STACK_DICE, "stack dice", "a dexterity ability: the dice are stacked, never rolled"),
        (g.USE_STORED, "use stored result", "replaces a result with a stored one"),
        (g.UNTIL_ROLL, "until a roll", "a duration that a later roll ends; tracked by a game"),
    ):
        if pattern.search(text):
            if not any(isinstance(e, Passive) and e.what == what for e in c.effects):
                _recognise(c, state, original, what, note)
            if what == "stack dice" and f"no roll: {note}" not in c.notes:
                c.notes.append(f"no roll: {note}")
            _find_rolls(c, text, original, state)
            return True
    return False


def _rule_store(c: _Compiler, text: str, original: str, state: _State) -> bool:
    """ "Install the result on ~." after a roll: the roll stores its results (CR 706.8)."""
    roll = c.current_roll(state)
    if roll is None or not g.STORE_SENTENCE.match(text):
        return False
    c.update_roll(state, store=True, text=f"{roll.text} {original}")
    return True


def _rule_repeat(c: _Compiler, text: str, original: str, state: _State) -> bool:
    match = g.REPEAT.match(text)
    if match is None or state.roll is None:
        return False
    condition = parse_condition(match.group("cond"))
    if condition is None:
        return False
    roll = c.current_roll(state)
    assert roll is not None
    c.update_roll(
        state, repeat_when=condition, repeat_optional=bool(match.group("may")), text=f"{roll.text} {original}"
    )
    return True


def _rule_doubles(c: _Compiler, text: str, original: str, state: _State) -> bool:
    match = g.DOUBLES.match(text)
    if match is None:
        return False
    return c.add_outcome(state, Outcome(original, doubles=True, reads=Reads.DOUBLES))


def _rule_exactly(c: _Compiler, text: str, original: str, state: _State) -> bool:
    match = g.EXACTLY.match(text)
    if match is None:
        return False
    value = _number(match.group("value"))
    times = _number(match.group("times"))
    return c.add_outcome(state, Outcome(original, InRange(value, value), reads=Reads.COUNT, times=times))


def _rule_for_each(c: _Compiler, text: str, original: str, state: _State) -> bool:
    match = g.FOR_EACH.match(text)
    if match is None:
        return False
    condition: Condition | None = None
    if match.group("value"):
        value = _number(match.group("value"))
        condition = InRange(value, value)
    return c.add_outcome(state, Outcome(original, condition, reads=Reads.EACH))


def _rule_otherwise(c: _Compiler, text: str, original: str, state: _State) -> bool:
    if not g.OTHERWISE.match(text):
        return False
    return c.add_outcome(state, Outcome(original, reads=Reads.OTHERWISE))


def _rule_ties(c: _Compiler, text: str, original: str, state: _State) -> bool:
    if not g.REROLL_TIES.match(text):
        return False
    roll = c.current_roll(state)
    if roll is not None and roll.compare is not None:
        c.update_roll(state, compare=replace(roll.compare, break_ties=True))
    return c.add_outcome(state, Outcome(original, reads=Reads.TIES))


def _each_player(roll: RollInstruction | None) -> bool:
    return roll is not None and roll.roller in (Roller.EACH_PLAYER, Roller.EACH_OPPONENT)


def _rule_who_had(c: _Compiler, text: str, original: str, state: _State) -> bool:
    """ "If one or more opponents had the highest result, ...": an outcome on who had it."""
    match = g.WHO_HAD.match(text)
    roll = c.current_roll(state)
    if match is None or not _each_player(roll):
        return False
    assert roll is not None
    extreme = Extreme(match.group("extreme"))
    who = Scope.YOU if match.group("who") == "you" else Scope.OPPONENT
    if roll.compare is None:
        c.update_roll(state, compare=Comparison(extreme))
    return c.add_outcome(state, Outcome(original, reads=Reads.STANDING, who=who, extreme=extreme))


def _rule_standing(c: _Compiler, text: str, original: str, state: _State) -> bool:
    """A sentence that uses the player with the lowest or highest result."""
    match = g.STANDING.search(text)
    roll = c.current_roll(state)
    if match is None or not _each_player(roll):
        return False
    assert roll is not None
    extreme = Extreme(match.group("extreme"))
    if roll.compare is None:
        c.update_roll(state, compare=Comparison(extreme))
    return c.add_outcome(state, Outcome(original, reads=Reads.STANDING, extreme=extreme))


def _rule_conditional(c: _Compiler, text: str, original: str, state: _State) -> bool:
    match = g.CONDITIONAL.match(text)
    if match is None:
        return False
    if state.roll is None:
        # Inside a triggered ability ("if the roll was 4 or higher, ..."): part of its effect.
        return state.trigger and c.extend_effect(state, original)
    condition = parse_condition(match.group("cond"))
    if condition is None and not g.SYMBOLIC_CONDITION.match(match.group("cond")):
        return False
    return c.add_outcome(state, Outcome(original, condition, reads=Reads.RESULT))


def _rule_roll(c: _Compiler, text: str, original: str, state: _State) -> bool:
    if _find_rolls(c, text, original, state):
        rest = _strip_rolls(text)
        if g.DICE_WORD.search(rest):
            for sentence_rule in (_rule_conditional, _rule_doubles, _rule_for_each):
                if sentence_rule(c, rest.lstrip(" ,"), original, state):
                    break
        return True
    return False


def _rule_follow_up(c: _Compiler, text: str, original: str, state: _State) -> bool:
    """A sentence after a roll that uses its dice without rolling ("it becomes a Die token")."""
    if state.roll is None and not state.trigger:
        return False
    if g.ROLL_WORD.search(text):
        return False
    if state.roll is not None and g.USES_RESULT.search(text):
        return c.add_outcome(state, Outcome(original, reads=_reads(text)))
    if state.roll is None and g.DICE_WORD.search(text):
        return c.extend_effect(state, original)
    return bool(g.DICE_WORD.search(text))


def _reads(text: str) -> Reads:
    for word, reads in (
        ("difference", Reads.DIFFERENCE),
        ("total", Reads.TOTAL),
        ("other result", Reads.OTHER),
        ("first result", Reads.EACH),
        ("each result", Reads.EACH),
    ):
        if word in text:
            return reads
    return Reads.RESULT


_SENTENCE_RULES = (
    _rule_coin_replacement,
    _rule_replacement,
    _rule_static_modifier,
    _rule_costed_modifier,
    _rule_after_roll,
    _rule_if_you_do,
    _rule_once_each_turn,
    _rule_reroll_if,
    _rule_reroll_by_cost,
    _rule_reroll_activated,
    _rule_trigger,
    _rule_face_counts_as,
    _rule_passive,
    _rule_store,
    _rule_repeat,
    _rule_doubles,
    _rule_exactly,
    _rule_for_each,
    _rule_ties,
    _rule_who_had,
    _rule_standing,
    _rule_otherwise,
    _rule_roll,
    _rule_conditional,
    _rule_follow_up,
)
"""The sentence rules, tried in order; the first that reads a sentence wins."""

PRECEDENCE = (
    ("_rule_repeat", "_rule_conditional", "'if you roll N, repeat this process' repeats the roll (CR 706.3c)"),
    (
        "_rule_replacement",
        "_rule_roll",
        "'instead roll that many dice plus one' says how a roll is made, it rolls none",
    ),
    ("_rule_trigger", "_rule_roll", "'whenever you roll the planar die, ...' names the trigger's event, not a roll"),
)
"""Every pair of sentence rules that read the same sentence, the winner first, and why. A test runs
every rule on every sentence of the known cards, the synthetic families and generated Oracle texts,
and fails on an overlap not listed here. ``_rule_follow_up`` (a sentence that uses the dice) is the
fallback of all the others and overlaps any of them by design."""


# -- roll instructions inside a sentence ----------------------------------------------------------


def _find_rolls(c: _Compiler, text: str, original: str, state: _State) -> bool:
    """Find every roll instruction in ``text`` and add it; True when at least one was found."""
    found = False
    stored = g.REROLL_STORED.search(text)
    if stored:
        c.add_roll(
            RollInstruction(Amount.named("chosen stored results"), Die(6), reroll_stored=True, text=original), state
        )
        found = True
    for _planar in g.PLANAR_ROLL.finditer(text):
        c.add_roll(RollInstruction(Amount(1), PLANAR_DIE, text=original), state)
        found = True
    for _visit in g.VISIT_ROLL.finditer(text):
        # Unfinity: rolling to visit your Attractions is rolling a d6.
        c.add_roll(RollInstruction(Amount(1), Die(6), purpose="visit attractions", text=original), state)
        found = True
    # (phrase, its count when the phrase names it in words, whether a trigger condition may hold it)
    matches: list[tuple[re.Match[str], Amount | None, bool]] = [
        *((m, Amount.named(amount_name(m.group("what"))), True) for m in g.NUMBER_OF_DICE.finditer(text)),
        *((match, None, True) for match in g.ROLL.finditer(text)),
        *((match, None, False) for match in g.IMPLICIT_ROLL.finditer(text)),
    ]
    for match, count, in_condition in matches:
        if "planar" in match.group("die"):
            continue
        if in_condition and _inside_trigger_condition(text, match.start()):
            continue
        if _roll_phrase(c, match, text, original, state, count):
            found = True
    return found


def _roll_phrase(
    c: _Compiler, match: re.Match[str], text: str, original: str, state: _State, count: Amount | None
) -> bool:
    """One roll phrase: the roll, then the rest of its sentence (a roll after it, an outcome, or a
    part not read, which goes to ``unsupported``)."""
    roll, rest = _roll_from_match(match, text, original, count)
    c.add_roll(roll, state)
    index = state.roll
    # "..., then roll a d6": a roll in the rest is a roll of its own (ROLL's tail runs to the end).
    later = [
        *((m, Amount.named(amount_name(m.group("what")))) for m in g.NUMBER_OF_DICE.finditer(rest)),
        *((m, None) for m in g.ROLL.finditer(rest) if "planar" not in m.group("die")),
    ]
    for nested, named in later:
        _roll_phrase(c, nested, rest, original, state, named)
    unread = _strip_rolls(rest)
    if g.DICE_WORD.search(unread):
        c.unsupported_part(original, f"not read: {unread.strip(' ,')}")
    elif g.USES_RESULT.search(unread) and index is not None:
        # "Roll a d4 and create ... equal to the result": the rest of the sentence uses it.
        current = c.rolls[index]
        c.rolls[index] = replace(current, outcomes=current.outcomes + (Outcome(original, reads=_reads(unread)),))
    return True


def _inside_trigger_condition(text: str, position: int) -> bool:
    head = text[:position]
    return bool(g.CONDITION_HEAD.match(head))


@dataclass
class _Tail:
    """What a roll's tails said (``grammar.ROLL_TAILS``)."""

    also: list[DiceGroup] = field(default_factory=list)
    twice: bool = False
    for_each: str | None = None
    plus_each: str | None = None
    ignore_lowest: int = 0
    keep_highest: int | None = None
    choose: bool = False
    total: bool = False
    modifier: Amount | None = None
    store: bool = False


def _read_tail(tail: str) -> tuple[_Tail, str]:
    """The roll's tails, in sequence from the start of ``tail``; the rest of the sentence after them."""
    read = _Tail()
    position = 0
    while (next_tail := _next_tail(tail, position)) is not None:
        reader, found = next_tail
        reader(read, found)
        position = found.end()
    return read, tail[position:]


def _next_tail(tail: str, position: int) -> tuple[Callable[[_Tail, re.Match[str]], None], re.Match[str]] | None:
    for name, reader in zip(g.ROLL_TAILS, _TAIL_READERS, strict=True):
        found: re.Match[str] | None = getattr(g, name).match(tail, position)
        if found is not None and found.end() > position:
            return reader, found
    return None


def _tail_also(read: _Tail, found: re.Match[str]) -> None:
    read.also.append(DiceGroup(_count(found.group("count")), _die(found.group("die"))))


def _tail_twice(read: _Tail, found: re.Match[str]) -> None:
    read.twice = True


def _tail_for_each(read: _Tail, found: re.Match[str]) -> None:
    read.for_each = found.group("what")


def _tail_plus_each(read: _Tail, found: re.Match[str]) -> None:
    read.plus_each = found.group("what")


def _tail_ignore(read: _Tail, found: re.Match[str]) -> None:
    if found.group(0).startswith(" and ignore all but"):
        _tail_keep(read, found)
    else:
        read.ignore_lowest = _number((found.group("n") or found.group("n2") or "1").strip())


def _tail_keep(read: _Tail, found: re.Match[str]) -> None:
    read.keep_highest = _number((found.group("keep") or found.group("keep2") or "1").strip())


def _tail_choose(read: _Tail, found: re.Match[str]) -> None:
    read.choose = True


def _tail_total(read: _Tail, found: re.Match[str]) -> None:
    read.total = True


def _tail_add(read: _Tail, found: re.Match[str]) -> None:
    sign = 1 if found.group("verb") == "add" else -1
    what = found.group("what").strip()
    read.modifier = Amount(sign * _number(what)) if what.isdigit() else Amount.named(amount_name(what), sign=sign)


def _tail_store(read: _Tail, found: re.Match[str]) -> None:
    read.store = True


_TAIL_READERS = (
    _tail_also,
    _tail_twice,
    _tail_for_each,
    _tail_plus_each,
    _tail_ignore,
    _tail_keep,
    _tail_choose,
    _tail_total,
    _tail_add,
    _tail_store,
)
"""What each of ``grammar.ROLL_TAILS`` sets, in the same order."""


def _roll_from_match(
    match: re.Match[str], text: str, original: str, count: Amount | None = None
) -> tuple[RollInstruction, str]:
    """A roll instruction from a phrase's count (or ``count``), die and tails, and the rest of its sentence."""
    die = _die(match.group("die"))
    count = count or _count(match.group("count"))
    read, rest = _read_tail(match.group("tail"))
    also = read.also
    subject = (match.groupdict().get("subject") or "").strip()
    roller = Roller.THAT_PLAYER if subject == "they" else Roller.YOU
    if subject in ("each player", "each opponent", "that player", "target player", "target opponent"):
        roller = Roller(subject)
    if read.twice:
        count = Amount(count.constant * 2) if count.fixed else count
        also = [DiceGroup(Amount(group.count.constant * 2), group.die) for group in also]
    if read.for_each is not None:
        count = Amount.named(amount_name("each " + read.for_each))
    if read.plus_each is not None:
        count = Amount.named(amount_name(read.plus_each), constant=count.constant)
    where = g.TAIL_WHERE_X.search(rest)
    if where and count.name == "X":
        count = Amount.named(amount_name(where.group("what")), aliases=("X",))
        rest = rest[: where.start()]
    roll = RollInstruction(
        count=count,
        die=die,
        ignore_lowest=read.ignore_lowest,
        keep_highest=read.keep_highest,
        modifier=None if read.total else read.modifier,
        choose=read.choose,
        store=read.store,
        roller=roller,
        also=tuple(also),
        text=original,
    )
    return roll, rest


def _strip_rolls(text: str) -> str:
    text = g.REROLL_STORED.sub(" ", text)
    text = g.PLANAR_ROLL.sub(" ", text)
    text = g.VISIT_ROLL.sub(" ", text)
    text = g.NUMBER_OF_DICE.sub(" ", text)
    text = g.ROLL.sub(" ", text)
    return g.IMPLICIT_ROLL.sub(" ", text)


def _named(text: str, name: str) -> str:
    """Texts are kept for people: the card's name where the grammar read ``~``."""
    return text.replace("~", name) if name else text


def _named_roll(roll: RollInstruction, name: str) -> RollInstruction:
    table = roll.table
    if table is not None:
        table = replace(table, rows=tuple(replace(row, text=_named(row.text, name)) for row in table.rows))
    outcomes = tuple(replace(outcome, text=_named(outcome.text, name)) for outcome in roll.outcomes)
    return replace(roll, text=_named(roll.text, name), table=table, outcomes=outcomes)


def _named_effect(effect: Effect, name: str) -> Effect:
    if isinstance(effect, Trigger):
        return replace(effect, text=_named(effect.text, name), effect=_named(effect.effect, name))
    cost = getattr(effect, "cost", None)
    if isinstance(cost, Cost):
        return replace(effect, text=_named(effect.text, name), cost=replace(cost, text=_named(cost.text, name)))  # type: ignore[call-arg]
    return replace(effect, text=_named(effect.text, name))


def _link_stored(rolls: list[RollInstruction]) -> list[RollInstruction]:
    """A reroll of stored results rolls the kind of die the card stores (CR 706.8b)."""
    stores = [roll for roll in rolls if roll.store]
    if not stores:
        return rolls
    return [replace(roll, die=stores[0].die) if roll.reroll_stored else roll for roll in rolls]
