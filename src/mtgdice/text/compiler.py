"""Oracle text → roll instructions and effects: the compiler of the dice language.

:func:`compile_text` reads a card's text paragraph by paragraph (one ability each), attaches
results-table rows to the roll above them (CR 706.3b: one ability), and reads each sentence with
the grammar (``grammar.py``): the one production that reads all of it (or the winner of a declared
pair) says what it is, and an action here builds the rules' objects from its parts. A sentence
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
    PLANAR_DIE,
    Amount,
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
from mtgdice.rules.coins import CoinReads, FlipInstruction, FlipOutcome, Until
from mtgdice.rules.effects.coin import CoinTrigger
from mtgdice.rules.errors import CardTextError
from mtgdice.text import detector
from mtgdice.text import grammar as g
from mtgdice.text.amounts import amount_name
from mtgdice.text.canonical import render
from mtgdice.text.normalize import (
    for_matching,
    promote_defining_reminders,
    replace_self,
    standard_punctuation,
    strip_reminder,
)
from mtgdice.text.parsing import Fields, Refused, Sentence, tokenize

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
        return {
            "name": self.name,
            "rolls": [
                roll_json(roll) if isinstance(roll, RollInstruction) else flip_instruction_json(roll)
                for roll in self.instructions
            ],
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


def flip_instruction_json(flip: FlipInstruction) -> dict[str, Any]:
    """A flip instruction as json-interface.md's "Coins on cards" lists it, with the dice fields
    a flip does not use at their empty values."""
    return {
        "count": flip.count.describe(),
        "sides": "coin",
        "call": flip.call,
        "until": flip.until.value if flip.until is not None else None,
        "times": flip.times.describe() if flip.times is not None else None,
        "may_stop": flip.may_stop,
        "flipper": flip.flipper.value,
        "ignore_lowest": 0,
        "modifier": None,
        "amounts": list(flip.amounts),
        "choose": False,
        "table": None,
        "roll_again": flip.until is not None,
        "outcomes": [outcome.describe() for outcome in flip.outcomes],
        "text": flip.text,
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
    return g.mentions_dice(tokenize(for_matching(strip_reminder(text))))


def _mentions(text: str) -> bool:
    return g.mentions_dice(tokenize(for_matching(text))) or detector.speaks(text, languages=False)


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
            names = " and as ".join(r.production for r in reading)
            self.unsupported.append(f"{original} (ambiguous: read as {names})")
            return
        if reading is not None:
            try:
                understood = _ACTIONS[reading.production](self, _value(reading.value), original, state)
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
            changes["outcomes"] = flip.outcomes + (replace(outcome, over_all=over_all),)
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
    pending_cost: tuple[str, Scope, int | None, str] | None = None  # (cost, who, sides, sentence) of "you may <cost>"
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
        matching = tokenize(form) if "level" in form or form.lstrip("\u2022 \t")[:1].isdecimal() else None
        try:
            level_line = g.LEVEL_LINE.whole(matching) if matching is not None else None
            if level_line is not None:
                level = g.number(level_line[0]["level"])
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
    again = g.find(g.ROW_AGAIN, tokenize(words.text))
    times = again["times"] if again is not None and "times" in again else None
    optional = bool(again is not None and "may" in again)
    return Row(low, high, original_text, again is not None, optional, g.number(times) if times else 1), listed


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
    cost, body = found[0]["cost"], found[0]["body"]
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


def _die(words: str) -> Die:
    """The die a phrase names; :class:`CardTextError` when it names no size or an impossible one."""
    words = words.strip()
    if "planar" in words.split():
        return PLANAR_DIE
    digits = g.die_sides(words)
    if digits is None:
        raise CardTextError(f"die: {words!r} names no number of sides")
    sides = g.number(digits)
    if sides < 1:
        raise CardTextError(f"die: a die with {sides} sides cannot be rolled")
    return Die(sides)


def _sides_filter(words: str | None) -> int | None:
    digits = g.die_sides(words) if words else None
    return g.number(digits) if digits is not None else None


def _count(words: str) -> Amount:
    if words in ("a", "an"):
        return Amount(1)
    if words.isdigit():
        return Amount(g.number(words))
    if words == "x":
        return Amount.named("X")
    return Amount.named(words)


def _cost(words: str) -> Cost:
    lowered = tokenize(words.lower())
    counter = g.find(g.COST_COUNTER, lowered)
    tap = g.find(g.COST_TAP, lowered) is not None
    return Cost(words.strip(), counter["kind"] if counter is not None else None, tap)


def _chooser(who: object) -> Decider:
    """Who picks an extra die to ignore: "you" (the effect's controller), another player, or the roller."""
    if who is None:
        return Decider.ROLLER
    return Decider.CONTROLLER if str(who).lower() == "you" else Decider.OPPONENT


def _scope(who: str) -> Scope:
    """Whose rolls an effect sees: its controller's, an opponent's, the player it targets, or any player's."""
    if who == "target player":
        return Scope.TARGET
    if who == "you":
        return Scope.YOU
    if who in ("an opponent", "each opponent", "another player", "your opponents"):
        return Scope.OPPONENT
    return Scope.ANY


def _each_player(roll: RollInstruction | None) -> bool:
    return roll is not None and roll.roller in (Roller.EACH_PLAYER, Roller.EACH_OPPONENT)


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


# -- actions: what each sentence production means -------------------------------------------------
# Each takes (compiler, the reading's value, original sentence, state) and builds the rules' objects.
# Only the fallback may decline (False): then the sentence is not understood.

Action = Callable[[_Compiler, Any, str, _State], bool]


def _replacement(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    who = _scope(f["who"])
    sides = _sides_filter(f["what"])
    optional = "may" in f
    how: g.How = _value(f["how"])
    h = how.fields
    if how.kind in ("extra lowest", "extra chosen"):
        extra = 1 if h["extra"] in ("a", "an") else g.number(h["extra"])
        chosen = how.kind == "extra chosen"
        c.add_effect(
            ExtraDice(
                extra=extra,
                ignore=IgnoreMode.CHOSEN if chosen else IgnoreMode.LOWEST,
                chosen_by=_chooser(h.get("chooser")) if chosen else Decider.ROLLER,
                sides=sides,
                optional=optional,
                zone=c.zone,
                scope=who,
                text=original,
            ),
            state,
        )
    elif how.kind == "more of them":
        # "If you would roll a d20, instead roll two d20s and ignore the lower roll": one extra
        # die per die beyond the first, each ignoring one more lowest (an older advantage wording).
        c.add_effect(
            ExtraDice(
                extra=g.number(h["n"]) - 1,
                ignore=IgnoreMode.LOWEST,
                sides=sides,
                optional=optional,
                zone=c.zone,
                scope=who,
                text=original,
            ),
            state,
        )
    elif how.kind == "pair":
        c.add_effect(PairEachDie(sides=sides, zone=c.zone, scope=who, text=original), state)
    elif how.kind == "total":
        note = "a one-time replacement (the next roll this turn): each die becomes several whose total is its result"
        _recognise(c, state, original, "use the total", note, who, {"dice": g.number(h["n"]), "sides": sides})
    else:
        note = "the dice are rolled as they are; what the replacement does after the roll is kept as text"
        _recognise(c, state, original, "roll, then", note, who, {"sides": sides, "then": h["then"]})
    return True


def _static_modifier(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    delta = g.number(f["n"]) * (1 if f["verb"] == "increase" else -1)
    scope = _scope(f.get("who") or "a player")  # "each die rolled": anyone's
    c.add_effect(
        ResultModifier(delta=delta, sides=_sides_filter(f["die"]), zone=c.zone, scope=scope, text=original), state
    )
    return True


def _after_roll(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    state.pending_cost = (f["cost"], _scope(f["who"]), _sides_filter(f["die"]), original)
    state.effect = None
    return True


def _costed_modifier(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    """ "You may <cost> to increase or decrease the result of a die <who> rolled by N" (one sentence)."""
    n = g.number(f["n"])
    _add_optional_modifier(c, state, f["verb"], n, f["cost"], _scope(f["who"]), _sides_filter(f["die"]), original)
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


def _if_you_do(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    assert state.pending_cost is not None
    cost_words, who, sides, first = state.pending_cost
    if state.effect is not None and isinstance(c.effects[state.effect], Trigger):
        c.effects.pop(state.effect)
        state.effect = None
    _add_optional_modifier(c, state, f["verb"], g.number(f["n"]), cost_words, who, sides, f"{first} {original}")
    state.pending_cost = None
    return True


def _once_each_turn(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    if state.effect is not None:
        effect = c.effects[state.effect]
        c.effects[state.effect] = replace(effect, once_each_turn=True, text=f"{effect.text} {original}")
    return True


def _reroll_if(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    condition = _value(f["cond"])
    c.add_effect(
        RerollPermission(condition=condition, sides=_sides_filter(f.get("die")), zone=c.zone, text=original), state
    )
    return True


def _reroll_by_cost(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    what = f["what"]
    many = what.startswith(("1 or more", "any number"))
    scope = Scope.ANY if "who" in f or what in ("any die",) else Scope.YOU
    c.add_effect(
        RerollPermission(
            cost=_cost(f["cost"]),
            many=many,
            once_each_turn="once" in f,
            zone=c.zone,
            scope=scope,
            text=original,
        ),
        state,
    )
    return True


def _reroll_activated(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    assert state.cost is not None
    if "coin" in f:
        c.add_effect(
            ReflipPermission(cost=_cost(state.cost), activated=True, zone=c.zone, scope=Scope.ANY, text=original),
            state,
        )
    what = f.get("what")
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


def _coin_replacement(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    extra = g.number(f["n"]) - 1
    c.add_effect(PairEachCoin(extra=extra, zone=c.zone, scope=_scope(f["who"]), text=original), state)
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


def _trigger(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    if "passive" in f:
        passive: Fields = f["passive"]
        value = g.number(passive["value"])
        what = g.What(
            Event.DIE_ROLLED, InRange(value, value), g.die_sides(passive["die"]) if "die" in passive else None
        )
        scope = Scope.ANY
    elif "chaos" in f:
        what = g.What(Event.DIE_ROLLED, FaceIs(PlanarFace.CHAOS), planar=True)
        scope = Scope.YOU
    else:
        what = _value(f["what"])
        scope = _scope(f["who"])
    condition = what.condition
    intervening = f.get("intervening")
    if intervening is not None and condition is None:
        condition = _value(intervening)
    effect_text = _original_effect(original, f["effect"])
    numeric = "numeric" in f
    zone = Zone.GRAVEYARD if "graveyard" in f else c.zone
    c.add_effect(
        Trigger(
            event=what.event,
            doubles=what.purpose == "doubles",
            condition=condition,
            sides=g.number(what.sides) if what.sides is not None else None,
            planar=what.planar,
            nth_this_turn=g.number(what.nth) if what.nth is not None else None,
            purpose="" if what.purpose == "doubles" else what.purpose,
            effect=effect_text,
            numeric_effect=numeric,
            zone=zone,
            scope=scope,
            text=original,
        ),
        state,
    )
    if "may_cost" in f and what.event is Event.DIE_ROLLED and condition is None:
        # "Whenever a player rolls a die, you may <cost>. If you do, increase or decrease the result"
        # is an optional modifier, settled by the next sentence (IF_YOU_DO).
        cost = _original_effect(original, f["may_cost"])
        state.pending_cost = (cost, scope, g.number(what.sides) if what.sides is not None else None, original)
    state.trigger = True
    # A roll inside the triggered ability's effect is a roll of this card too.
    if "rolls" in f:
        _report(c, original, _add_rolls(c, f["rolls"], original, state))
    return True


def _face_counts_as(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    def face(words: str) -> PlanarFace:
        words = words.strip("{}")
        return {"blank": PlanarFace.BLANK, "chaos": PlanarFace.CHAOS}.get(words, PlanarFace.PLANESWALK)

    c.add_effect(
        FaceCountsAs(face=face(f["face"]), counts_as=face(f["as"]), zone=c.zone, scope=Scope.ANY, text=original),
        state,
    )
    return True


_RECOGNISED = {
    g.PROTECTION.name: ("protection from die rolls", "a targeting rule; no roll changes"),
    g.ROLLED_THIS_TURN.name: ("rolled this turn", "a condition on the turn's history, checked by a game"),
    g.STACK_DICE.name: ("stack dice", "a dexterity ability: the dice are stacked, never rolled"),
    g.USE_STORED.name: ("use stored result", "replaces a result with a stored one"),
    g.UNTIL_ROLL.name: ("until a roll", "a duration that a later roll ends; tracked by a game"),
}


def _recognised(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    name = next(name for name in _RECOGNISED if name in f)
    what, note = _RECOGNISED[name]
    known = next((i for i, e in enumerate(c.effects) if isinstance(e, Passive) and e.what == what), None)
    if known is None:
        _recognise(c, state, original, what, note)
    else:  # the same ability again in another sentence: one effect, which keeps every sentence
        c.effects[known] = replace(c.effects[known], text=f"{c.effects[known].text} {original}")
    if what == "stack dice" and f"no roll: {note}" not in c.notes:
        c.notes.append(f"no roll: {note}")
    if "rolls" in f:
        _report(c, original, _add_rolls(c, f["rolls"], original, state))
    return True


def _store(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    """ "Install the result on ~." after a roll: the roll stores its results (CR 706.8)."""
    roll = c.current_roll(state)
    assert roll is not None
    c.update_roll(state, store=True, text=f"{roll.text} {original}")
    return True


def _repeat(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    condition = _value(f["cond"])
    roll = c.current_roll(state)
    assert roll is not None
    c.update_roll(state, repeat_when=condition, repeat_optional="may" in f, text=f"{roll.text} {original}")
    return True


def _doubles(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    return c.add_outcome(state, Outcome(original, doubles=True, reads=Reads.DOUBLES))


def _exactly(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    value = g.number(f["value"])
    times = g.number(f["times"])
    return c.add_outcome(state, Outcome(original, InRange(value, value), reads=Reads.COUNT, times=times))


def _for_each(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    condition: Condition | None = None
    if "value" in f:
        value = g.number(f["value"])
        condition = InRange(value, value)
    return c.add_outcome(state, Outcome(original, condition, reads=Reads.EACH))


def _each_who_rolled(c: _Compiler, condition: Condition, original: str, state: _State) -> bool:
    """ "Each opponent who rolled a 1 loses 2 life": an outcome for each result meeting it."""
    return c.add_outcome(state, Outcome(original, condition, reads=Reads.EACH))


def _otherwise(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    if state.last_flip:
        return c.update_flip(state, FlipOutcome(original, CoinReads.OTHERWISE))
    return c.add_outcome(state, Outcome(original, reads=Reads.OTHERWISE))


# -- coins (CR 705) --------------------------------------------------------------------------------


def _flips(c: _Compiler, phrase: g.FlipPhrase, original: str, state: _State) -> bool:
    """A flip instruction: its coins, who flips, and its tails; text before or after it that
    speaks of dice or coins is reported."""
    count = _count(phrase.head.count)
    until: Until | None = None
    times: Amount | None = None
    may_stop = False
    for tail in phrase.tails:
        if tail.for_each is not None:
            count = Amount.named(amount_name("each " + tail.for_each))
        if tail.times is not None:
            times = _count(tail.times)
        if tail.where is not None:
            named = Amount.named(amount_name(tail.where), aliases=("X",))
            count = named if count.name == "X" else count
            times = named if times is not None and times.name == "X" else times
        until = tail.until or until
        may_stop = may_stop or tail.may_stop
    if count.fixed and count.constant < 0:
        raise CardTextError(f"count: {count.constant} coins cannot be flipped")
    c.add_flip(
        FlipInstruction(count, True, until, times, may_stop, phrase.head.flipper, text=original),
        state,
    )
    s = phrase.sentence
    reasons = [
        f"not read: {s.between(*part).strip(' ,')}"
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
    if when.rolls is not None:  # "if you win the flip, roll a d4": the effect's own rolls
        _report(c, original, _add_rolls(c, when.rolls, original, state))
    return added


def _coin_repeat(c: _Compiler, until: Until, original: str, state: _State) -> bool:
    """ "Repeat this process until both players' coins come up heads": flipped again until then."""
    assert state.flip is not None
    return c.update_flip(state, until=until, text=f"{c.flips[state.flip].text} {original}")


def _coin_follow_up(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    """A sentence after a flip that names its flips without flipping: kept as an outcome's text."""
    return c.update_flip(state, FlipOutcome(original))


def _coin_trigger(c: _Compiler, words: g.CoinTriggerWords, original: str, state: _State) -> bool:
    effect = _original_effect(original, words.effect)
    trigger = CoinTrigger(
        won=words.won, batch=words.batch, effect=effect, zone=c.zone, scope=_scope(words.who), text=original
    )
    c.add_effect(trigger, state)
    return True


def _first_flip(c: _Compiler, words: g.CoinTriggerWords, original: str, state: _State) -> bool:
    note = "an effect on the first flip of a turn; the rest of its effect is kept as text"
    _recognise(c, state, original, "first flip each turn", note, _scope(words.who), {"effect": words.effect})
    return True


def _called(flip: FlipInstruction, wins: bool, name: str) -> FlipInstruction:
    """A flip is called (CR 705.1) unless its card reads only heads or tails (CR 705.2)."""
    reads = {outcome.reads for outcome in flip.outcomes}
    sides = bool(reads & {CoinReads.HEADS, CoinReads.TAILS})
    won_or_lost = wins or flip.until in (Until.LOSE, Until.WIN) or bool(reads & {CoinReads.WON, CoinReads.LOST})
    text = _named(flip.text, name)
    outcomes = tuple(replace(outcome, text=_named(outcome.text, name)) for outcome in flip.outcomes)
    return replace(flip, call=won_or_lost or not sides, text=text, outcomes=outcomes)


def _ties(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    roll = c.current_roll(state)
    if roll is not None and roll.compare is not None:
        c.update_roll(state, compare=replace(roll.compare, break_ties=True))
    return c.add_outcome(state, Outcome(original, reads=Reads.TIES))


def _who_had(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    """ "If one or more opponents had the highest result, ...": an outcome on who had it."""
    roll = c.current_roll(state)
    assert roll is not None
    extreme = Extreme(f["extreme"])
    who = Scope.YOU if f["who"] == "you" else Scope.OPPONENT
    if roll.compare is None:
        c.update_roll(state, compare=Comparison(extreme))
    return c.add_outcome(state, Outcome(original, reads=Reads.STANDING, who=who, extreme=extreme))


def _standing(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    """A sentence that uses the player with the lowest or highest result."""
    roll = c.current_roll(state)
    assert roll is not None
    extreme = Extreme(f["extreme"])
    if roll.compare is None:
        c.update_roll(state, compare=Comparison(extreme))
    return c.add_outcome(state, Outcome(original, reads=Reads.STANDING, extreme=extreme))


def _conditional(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    condition = _value(f["cond"])
    return c.add_outcome(state, Outcome(original, condition, reads=Reads.RESULT))


def _effect_if(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    # Inside a triggered ability ("if the roll was 4 or higher, ..."): part of its effect.
    return c.extend_effect(state, original)


def _rolls(c: _Compiler, rolls: g.Rolls, original: str, state: _State) -> bool:
    reasons = _add_rolls(c, rolls, original, state)
    if g.mentions_dice(rolls.sentence, *rolls.lead):
        reasons.append(f"not read: {rolls.text(rolls.lead).strip(' ,')}")
    _report(c, original, reasons)
    return True


def _report(c: _Compiler, original: str, reasons: list[str]) -> None:
    """One ``unsupported`` entry for a sentence, with every part of it not understood (each once)."""
    if reasons:
        c.unsupported_part(original, "; ".join(dict.fromkeys(reasons)))


def _follow_up(c: _Compiler, f: Fields, original: str, state: _State) -> bool:
    """A sentence after a roll that uses its dice without rolling ("it becomes a Die token")."""
    s = f.sentence
    if state.roll is not None and g.uses_result(s):
        return c.add_outcome(state, Outcome(original, reads=_reads(s.text)))
    if state.roll is None and (g.mentions_dice(s) or (state.trigger and g.uses_result(s))):
        return c.extend_effect(state, original)
    return g.mentions_dice(s)


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


_ACTIONS: dict[str, Action] = {
    g.COIN_REPLACEMENT.name: _coin_replacement,
    g.REPLACEMENT.name: _replacement,
    g.STATIC_MODIFIER.name: _static_modifier,
    g.COSTED_MODIFIER.name: _costed_modifier,
    g.AFTER_ROLL.name: _after_roll,
    g.IF_YOU_DO.name: _if_you_do,
    g.ONCE_EACH_TURN.name: _once_each_turn,
    g.REROLL_IF.name: _reroll_if,
    g.REROLL_BY_COST.name: _reroll_by_cost,
    g.REROLL_ACTIVATED.name: _reroll_activated,
    g.TRIGGER.name: _trigger,
    g.FACE_COUNTS_AS.name: _face_counts_as,
    g.RECOGNISED.name: _recognised,
    g.STORE_SENTENCE.name: _store,
    g.REPEAT.name: _repeat,
    g.DOUBLES.name: _doubles,
    g.EXACTLY.name: _exactly,
    g.FOR_EACH.name: _for_each,
    g.REROLL_TIES.name: _ties,
    g.WHO_HAD.name: _who_had,
    g.STANDING.name: _standing,
    g.OTHERWISE.name: _otherwise,
    g.ROLLS.name: _rolls,
    g.CONDITIONAL.name: _conditional,
    g.EFFECT_IF.name: _effect_if,
    g.FOLLOW_UP.name: _follow_up,
    g.EACH_WHO_ROLLED.name: _each_who_rolled,
    g.FLIPS.name: _flips,
    g.COIN_IF.name: _coin_outcome,
    g.COIN_SIDE_IF.name: _coin_outcome,
    g.COIN_EACH.name: _coin_outcome,
    g.COIN_REPEAT.name: _coin_repeat,
    g.COIN_FOLLOW_UP.name: _coin_follow_up,
    g.COIN_TRIGGER.name: _coin_trigger,
    g.FIRST_FLIP.name: _first_flip,
}
"""What each production of ``grammar.SENTENCES`` means."""


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
            reasons.append(f"not read: {text.strip(' ,')}")
        elif g.uses_result(s, *after):
            # "Roll a d4 and create ... equal to the result": the rest of the sentence uses it.
            current = c.rolls[index]
            c.rolls[index] = replace(current, outcomes=current.outcomes + (Outcome(original, reads=_reads(text)),))
    return reasons


@dataclass
class _Tail:
    """What a roll's tails said (``grammar.TAILS``)."""

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


def _tail_also(read: _Tail, f: Fields) -> None:
    read.also.append(DiceGroup(_count(f["count"]), _die(f["die"])))


def _tail_twice(read: _Tail, f: Fields) -> None:
    read.twice = True


def _tail_for_each(read: _Tail, f: Fields) -> None:
    read.for_each = f["what"]


def _tail_plus_each(read: _Tail, f: Fields) -> None:
    read.plus_each = f["what"]


def _tail_ignore(read: _Tail, f: Fields) -> None:
    if "all_but" in f:  # "ignore all but the highest N": keep N
        _tail_keep(read, f)
    else:
        read.ignore_lowest = g.number(f.get("n") or "1")


def _tail_keep(read: _Tail, f: Fields) -> None:
    read.keep_highest = g.number(f.get("keep") or "1")


def _tail_choose(read: _Tail, f: Fields) -> None:
    read.choose = True


def _tail_total(read: _Tail, f: Fields) -> None:
    read.total = True


def _tail_add(read: _Tail, f: Fields) -> None:
    sign = 1 if f["verb"] == "add" else -1
    what = f["what"].strip()
    read.modifier = Amount(sign * g.number(what)) if what.isdigit() else Amount.named(amount_name(what), sign=sign)


def _tail_store(read: _Tail, f: Fields) -> None:
    read.store = True


_TAIL_READERS: dict[str, Callable[[_Tail, Fields], None]] = {
    g.TAIL_ALSO.name: _tail_also,
    g.TAIL_TWICE.name: _tail_twice,
    g.TAIL_FOR_EACH.name: _tail_for_each,
    g.TAIL_PLUS_EACH.name: _tail_plus_each,
    g.TAIL_IGNORE.name: _tail_ignore,
    g.TAIL_KEEP.name: _tail_keep,
    g.TAIL_CHOOSE.name: _tail_choose,
    g.TAIL_TOTAL.name: _tail_total,
    g.TAIL_ADD.name: _tail_add,
    g.TAIL_STORE.name: _tail_store,
}
"""What each of ``grammar.TAILS`` sets."""


def _roll(phrase: g.RollPhrase, original: str, where: str | None) -> tuple[RollInstruction, str | None]:
    """A roll instruction from a roll phrase (its head and tails), and the "where X is" amount left
    for a later roll when this one does not use it."""
    f = phrase.fields
    if phrase.head in (g.REROLL_STORED.name, g.CHOOSE_STORED.name):
        return RollInstruction(Amount.named("chosen stored results"), Die(6), reroll_stored=True, text=original), where
    if phrase.head == g.PLANAR_ROLL.name:
        return RollInstruction(Amount(1), PLANAR_DIE, text=original), where
    if phrase.head == g.VISIT_ROLL.name:
        # Unfinity: rolling to visit your Attractions is rolling a d6.
        return RollInstruction(Amount(1), Die(6), purpose="visit attractions", text=original), where
    die = _die(f["die"])
    count = Amount.named(amount_name(f["what"])) if phrase.head == g.NUMBER_OF_DICE.name else _count(f["count"])
    read = _Tail()
    for name, tail in phrase.tails:
        _TAIL_READERS[name](read, tail)
    also = read.also
    subject = f.get("subject") or ""
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
    if where is not None and count.name == "X":
        count = Amount.named(amount_name(where), aliases=("X",))
        where = None
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
    cost = getattr(effect, "cost", None)
    if not name or (
        "~" not in effect.text
        and "~" not in getattr(effect, "effect", "")
        and not (isinstance(cost, Cost) and "~" in cost.text)
    ):
        return effect
    if isinstance(effect, Trigger):
        return replace(effect, text=_named(effect.text, name), effect=_named(effect.effect, name))
    if isinstance(cost, Cost):
        return replace(effect, text=_named(effect.text, name), cost=replace(cost, text=_named(cost.text, name)))  # type: ignore[call-arg]
    return replace(effect, text=_named(effect.text, name))


def _link_stored(rolls: list[RollInstruction]) -> list[RollInstruction]:
    """A reroll of stored results rolls the kind of die the card stores (CR 706.8b)."""
    stores = [roll for roll in rolls if roll.store]
    if not stores:
        return rolls
    return [replace(roll, die=stores[0].die) if roll.reroll_stored else roll for roll in rolls]
