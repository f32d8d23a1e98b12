"""A compiled card in canonical English: the text that compiles back to the same structure.

:func:`render` writes each roll instruction and each effect of a :class:`~mtgdice.text.compiler.CompiledCard`
in one fixed Oracle-style wording of the dice language; :func:`structure` is what must survive the
round trip (everything but the card's own wording of its abilities). The analogue of a chess
position's FEN: ``structure(compile_text(render(card), ...)) == structure(card)``.

What the structure keeps as words is written as it is: a row's text, a trigger's effect, the
cost of an optional effect, an ability the rules recognise without applying (``Passive``). An
outcome keeps no effect of its own (its words are the card's), so it is written with a neutral
effect ("apply it").

>>> from mtgdice.text.compiler import compile_text
>>> card = compile_text("Roll three d12 and ignore the lower roll. If the result is 9 or higher, draw a card.")
>>> render(card)
'Roll three d12 and ignore the lowest roll. If the result is 9 or higher, apply it.'
>>> structure(compile_text(render(card))) == structure(card)
True
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass, replace
from typing import TYPE_CHECKING, Any

from mtgdice.rules import (
    Amount,
    AnyOf,
    Condition,
    Decider,
    Effect,
    Event,
    ExtraDice,
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
    Roller,
    RollInstruction,
    Row,
    Scope,
    Trigger,
)
from mtgdice.rules.coins import CoinReads, FlipInstruction, FlipOutcome, Flipper, Until
from mtgdice.rules.effects.coin import CoinTrigger

if TYPE_CHECKING:
    from mtgdice.text.compiler import CompiledCard

_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_FACES = {PlanarFace.BLANK: "blank", PlanarFace.CHAOS: "{CHAOS}", PlanarFace.PLANESWALK: "{PLANESWALKER}"}
_ROLLERS = {
    Roller.YOU: "Roll",
    Roller.THAT_PLAYER: "They roll",
    Roller.TARGET_PLAYER: "Target player rolls",
    Roller.TARGET_OPPONENT: "Target opponent rolls",
    Roller.EACH_PLAYER: "Each player rolls",
    Roller.EACH_OPPONENT: "Each opponent rolls",
}
_WHO = {
    Scope.YOU: ("you", "roll"),
    Scope.OPPONENT: ("an opponent", "rolls"),
    Scope.ANY: ("a player", "rolls"),
    Scope.TARGET: ("target player", "rolls"),
}
_NEUTRAL = "apply it"


def number(n: int) -> str:
    """A count in Oracle style: words up to ten, digits beyond.

    >>> number(2), number(12)
    ('two', '12')
    """
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def _dice(count: int, sides: int | None) -> str:
    return f"a d{sides}" if count == 1 else f"{number(count)} d{sides}"


def condition_words(condition: Condition) -> str:
    """A condition on a result, as "if you roll ..." reads it.

    >>> condition_words(InRange(4, None)), condition_words(AnyOf((InRange(1, 1), InRange(2, 2))))
    ('a 4 or higher', 'a 1 or 2')
    """
    if isinstance(condition, NaturalMax):
        return "a die's highest natural result"
    if isinstance(condition, FaceIs):
        return "a blank" if condition.face is PlanarFace.BLANK else _FACES[condition.face]
    if isinstance(condition, AnyOf):
        values = [_value(part) for part in condition.conditions]
        natural = "natural " if any(getattr(part, "natural", False) for part in condition.conditions) else ""
        if len(values) == 2:
            return f"a {natural}{values[0]} or {values[1]}"
        return f"a {natural}" + ", ".join(values[:-1]) + f", or {values[-1]}"
    if isinstance(condition, InRange):
        natural = "natural " if condition.natural else ""
        if condition.high is None and condition.low is not None:
            return f"a {natural}{condition.low} or higher"
        if condition.low is None and condition.high is not None:
            return f"a {natural}{condition.high} or lower"
        if condition.low == condition.high and condition.low is not None:
            return f"a {natural}{condition.low}"
    raise ValueError(f"condition: {condition!r} has no wording in the dice language")


def _value(condition: Condition) -> str:
    if isinstance(condition, InRange) and condition.low is not None and condition.low == condition.high:
        return str(condition.low)
    raise ValueError(f"condition: {condition!r} is not one value")


def _amount_phrase(amount: Amount) -> str:
    assert amount.name is not None
    return f"the number of {amount.name}"


def _count(roll: RollInstruction) -> tuple[str, str]:
    """The count and die of a roll, and the tail a variable count needs ("where X is ...")."""
    count, sides = roll.count, roll.die.sides
    if count.fixed:
        return _dice(count.constant, sides), ""
    if count.name == "that many":
        return f"that many d{sides}", ""
    if count.name == "X" and not count.aliases:
        return f"X d{sides}", ""
    if "X" in count.aliases:
        return f"X d{sides}", f", where X is {_amount_phrase(count)}"
    if count.constant:
        return f"{_dice(count.constant, sides)} plus an additional d{sides} for each {count.name}", ""
    return f"a number of d{sides} equal to {_amount_phrase(count)}", ""


def render_roll(roll: RollInstruction, name: str = "") -> str:
    """One roll instruction and the sentences that follow it (outcomes, repeat), canonical."""
    verb = _ROLLERS[roll.roller]
    if roll.die.planar:
        head = f"{verb} the planar die"
    elif roll.purpose == "visit attractions":
        head = f"{verb} to visit your Attractions"
    elif roll.reroll_stored:
        head = "Reroll any number of its stored results"
    else:
        dice, where = _count(roll)
        head = f"{verb} {dice}"
        for group in roll.also:
            head += f" and {_dice(group.count.constant, group.die.sides)}"
        if roll.keep_highest is not None:
            head += f" and ignore all but the highest {number(roll.keep_highest)} rolls"
        elif roll.ignore_lowest:
            head += (
                " and ignore the lowest roll"
                if roll.ignore_lowest == 1
                else (f" and ignore the lowest {number(roll.ignore_lowest)} rolls")
            )
        if roll.choose:
            head += " and choose one result"
        if roll.modifier is not None:
            head += _modifier_tail(roll.modifier)
        if roll.store:
            head += " and store those results on ~"
        if roll.table_each_result:
            head += ", then apply the indicated effects"
        head += where
    sentences = [head + "."]
    if roll.repeat_when is not None:
        may = "you may " if roll.repeat_optional else ""
        sentences.append(f"If you roll {condition_words(roll.repeat_when)}, {may}repeat this process.")
    sentences += [render_outcome(outcome) for outcome in roll.outcomes]
    lines = [" ".join(sentences)]
    if roll.table is not None:
        lines += [render_row(row, roll.table.listed) for row in roll.table.rows]
    return _named("\n".join(lines), name)


def _modifier_tail(modifier: Amount) -> str:
    if modifier.fixed:
        verb = "add" if modifier.constant >= 0 else "subtract"
        return f" and {verb} {abs(modifier.constant)}"
    verb = "add" if modifier.sign > 0 else "subtract"
    return f" and {verb} {_amount_phrase(modifier)}"


def render_row(row: Row, listed: bool) -> str:
    """A results-table row: "1—9 | text" (a chart), or "• 2 — text" (a list)."""
    if row.high is None:
        label = f"{row.low}+"
    elif row.high == row.low:
        label = str(row.low)
    else:
        label = f"{row.low}\u2014{row.high}"
    return f"\u2022 {label} \u2014 {row.text}" if listed else f"{label} | {row.text}"


def render_outcome(outcome: Outcome) -> str:
    """An outcome of a roll, with the neutral effect."""
    reads = outcome.reads
    if outcome.doubles:
        return f"If you rolled doubles, {_NEUTRAL}."
    if reads is Reads.OTHERWISE:
        return f"Otherwise, {_NEUTRAL}."
    if reads is Reads.TIES:
        return "Reroll to break ties."
    if reads is Reads.STANDING:
        assert outcome.extreme is not None
        if outcome.who is None:
            return f"The player with the {outcome.extreme.value} result applies it."
        who = "You" if outcome.who is Scope.YOU else "An opponent"
        return f"If {who.lower()} had the {outcome.extreme.value} result, {_NEUTRAL}."
    if reads is Reads.COUNT:
        assert outcome.condition is not None and outcome.times is not None
        return f"If you rolled {_value(outcome.condition)} exactly {number(outcome.times)} times, {_NEUTRAL}."
    if reads is Reads.EACH:
        if outcome.condition is not None:
            return f"For each result of {_value(outcome.condition)}, {_NEUTRAL}."
        return f"For each die, {_NEUTRAL}."
    if outcome.condition is not None:
        return f"If the result is {condition_words(outcome.condition)[2:]}, {_NEUTRAL}."
    noun = {Reads.TOTAL: "the total", Reads.DIFFERENCE: "the difference", Reads.OTHER: "the other result"}
    return f"Apply {noun.get(reads, 'the result')}."


_FLIPPERS = {
    Flipper.YOU: "Flip",
    Flipper.THAT_PLAYER: "Target player flips",
    Flipper.EACH_PLAYER: "Each player flips",
    Flipper.YOU_AND_OPPONENT: "You and target opponent each flip",
}


def render_flip(flip: FlipInstruction, name: str = "") -> str:
    """A flip instruction (CR 705) and its outcomes, canonical."""
    count = flip.count
    coins = "a coin" if count.fixed and count.constant == 1 else f"{number(count.constant)} coins"
    where = ""
    if not count.fixed:
        coins = "X coins"
        if count.name == "that many":
            coins = "that many coins"
        elif count.name != "X":
            coins = f"a coin for each {count.name}"
    head = f"{_FLIPPERS[flip.flipper]} {coins}"
    stop = " or choose to stop flipping" if flip.may_stop and flip.until in (Until.LOSE, Until.WIN) else ""
    if flip.times is not None:
        times = flip.times.name or "X" if not flip.times.fixed else number(flip.times.constant)
        head += f" {times} times"
        if flip.until in (Until.LOSE, Until.WIN):
            head += f" or until you {flip.until.value} a flip{stop}, whichever comes first"
    elif flip.until in (Until.LOSE, Until.WIN):
        head += f" until you {flip.until.value} a flip{stop}"
    sentences = [head + where + "."]
    sentences += [_flip_outcome(outcome, flip.until) for outcome in flip.outcomes]
    if flip.until is Until.ALL_HEADS:
        sentences.append("Repeat this process until all coins come up heads.")
    return _named(" ".join(sentences), name)


def _flip_outcome(outcome: FlipOutcome, until: Until | None) -> str:
    reads = outcome.reads
    if reads is CoinReads.OTHERWISE:
        return f"Otherwise, {_NEUTRAL}."
    if reads is CoinReads.NONE:
        return outcome.text
    again = ", and you decide whether to flip again" if until is Until.CHOSEN else ""
    if reads in (CoinReads.WON, CoinReads.LOST):
        verb = "win" if reads is CoinReads.WON else "lose"
        if outcome.each:
            return f"For each flip you {verb}, {_NEUTRAL}."
        if outcome.every:
            return f"If you {verb} all the flips, {_NEUTRAL}{again}."
        if outcome.at_least > 1:
            return f"If you {verb} {number(outcome.at_least)} or more flips, {_NEUTRAL}{again}."
        if outcome.over_all:
            return f"If you {verb} a flip, {_NEUTRAL}{again}."
        return f"If you {verb} the flip, {_NEUTRAL}{again}."
    side = reads.value
    if outcome.each:
        return f"Apply it for each coin that comes up {side}."
    if outcome.every:
        return f"If all the coins come up {side}, {_NEUTRAL}."
    return f"If the coin comes up {side}, {_NEUTRAL}."


def _coin_trigger_sentence(effect: CoinTrigger, who: str, verb: str) -> str:
    win = ("win" if effect.won else "lose") if verb == "roll" else ("wins" if effect.won else "loses")
    flips = "one or more coin flips" if effect.batch else "a coin flip"
    return f"Whenever {who} {win} {flips}, {effect.effect}."


def _who(scope: Scope) -> tuple[str, str]:
    return _WHO[scope]


def _sized(sides: int | None, one: bool) -> str:
    if sides is None:
        return "a die" if one else "one or more dice"
    return f"a d{sides}" if one else f"one or more d{sides}s"


def render_effect(effect: Effect, name: str = "") -> str:
    """One effect on other rolls, canonical (``Passive`` abilities keep their own sentence)."""
    text = _effect_sentence(effect)
    if effect.once_each_turn and isinstance(effect, (RerollPermission, ReflipPermission)) and effect.activated:
        text += " Activate only once each turn."
    elif effect.once_each_turn and not (isinstance(effect, RerollPermission) and effect.cost is not None):
        text += " Use this ability only once each turn."
    return _named(text, name)


def _effect_sentence(effect: Effect) -> str:
    who, verb = _who(effect.scope)
    they = "you" if effect.scope is Scope.YOU else "they"
    if isinstance(effect, ExtraDice):
        may = "may " if effect.optional else ""
        lead = f"If {who} would roll {_sized(effect.sides, one=False)}, {they} {may}instead roll that many dice plus "
        if effect.ignore is IgnoreMode.LOWEST:
            lowest = "the lowest roll" if effect.extra == 1 else f"the {effect.extra} lowest rolls"
            return lead + f"{number(effect.extra)} and ignore {lowest}."
        if effect.chosen_by is Decider.OPPONENT:
            return lead + f"{number(effect.extra)} and an opponent chooses {number(effect.extra)} of them to ignore."
        if effect.chosen_by is Decider.CONTROLLER:
            return lead + f"{number(effect.extra)} and you choose {number(effect.extra)} of them to ignore."
        return lead + f"{number(effect.extra)} and ignore {number(effect.extra)} of them."
    if isinstance(effect, PairEachDie):
        dice = _sized(effect.sides, one=True)
        return f"If {who} would roll {dice}, instead {they} roll two of that die and ignore one of the rolls."
    if isinstance(effect, ResultModifier):
        return _modifier_sentence(effect, who, verb)
    if isinstance(effect, RerollPermission):
        return _reroll_sentence(effect)
    if isinstance(effect, FaceCountsAs):
        return f"Every {_FACES[effect.face]} face of the planar die counts as a {_FACES[effect.counts_as]} face."
    if isinstance(effect, Trigger):
        return _trigger_sentence(effect, who, verb)
    if isinstance(effect, PairEachCoin):
        coins = number(effect.extra + 1)
        return (
            f"If {who} would flip a coin, instead {they} flip {coins} coins and ignore {number(effect.extra)} of them."
        )
    if isinstance(effect, ReflipPermission):
        assert effect.cost is not None
        return f"{effect.cost.text}: Reflip any coin."
    if isinstance(effect, CoinTrigger):
        return _coin_trigger_sentence(effect, who, verb)
    if isinstance(effect, Passive):
        return effect.text
    raise ValueError(f"effect: {type(effect).__name__} has no wording in the dice language")


def _modifier_sentence(effect: ResultModifier, who: str, verb: str) -> str:
    size = f"d{effect.sides}" if effect.sides is not None else "die"
    amount = abs(effect.delta)
    direction = "increase or decrease" if effect.either_direction else ("increase" if effect.delta > 0 else "decrease")
    if not effect.optional:
        rolled = {Scope.YOU: "you roll", Scope.OPPONENT: "an opponent rolls", Scope.ANY: "a player rolls"}[effect.scope]
        return f"{direction.capitalize()} the result of each {size} {rolled} by {amount}."
    assert effect.cost is not None
    return f"After {who} {verb} a {size}, you may {effect.cost.text}. If you do, {direction} the result by {amount}."


def _reroll_sentence(effect: RerollPermission) -> str:
    once = "Once each turn, you" if effect.once_each_turn else "You"
    if effect.activated:
        assert effect.cost is not None
        what = "any number of dice" if effect.many else "any die"
        return f"{effect.cost.text}: Reroll {what}."
    if effect.cost is not None:
        if effect.many:
            what = "any number of dice you rolled"
        elif effect.scope is Scope.ANY:
            what = "any die"
        else:
            what = "a die you rolled"
        return f"{once} may {effect.cost.text} to reroll {what}."
    assert effect.condition is not None
    on = f" on a d{effect.sides}" if effect.sides is not None else ""
    return f"If you roll {condition_words(effect.condition)}{on}, you may reroll that die."


def _trigger_sentence(effect: Trigger, who: str, verb: str) -> str:
    size = f" on a d{effect.sides}" if effect.sides is not None and effect.condition is not None else ""
    if effect.doubles:
        what = "doubles"
    elif effect.nth_this_turn is not None:
        nth = effect.nth_this_turn
        what = f"your {_ORDINALS[nth - 1] if nth <= len(_ORDINALS) else f'{nth}th'} die each turn"
        if effect.condition is not None and not effect.effect.lower().startswith("if "):
            raise ValueError("trigger: an Nth-die trigger keeps its condition in an intervening 'if'")
    elif effect.event is Event.DICE_ROLLED:
        what = _sized(effect.sides, one=False)
    elif effect.condition is not None:
        what = condition_words(effect.condition)
    elif effect.planar:
        what = "the planar die"
    elif effect.purpose == "visit attractions":
        what = "to visit your Attractions"
    else:
        what = _sized(effect.sides, one=True)
    if effect.purpose == "visit attractions" and what != "to visit your Attractions":
        what += " while rolling to visit your Attractions"
    return f"Whenever {who} {verb} {what}{size}, {effect.effect}."


def _named(text: str, name: str) -> str:
    return text.replace("~", name) if name else text


def render(card: CompiledCard) -> str:
    """The whole card in canonical English: rolls, then effects by Class level.

    A roll that an effect's own words contain (a trigger whose effect rolls, an ability recognised
    without being applied) is written by that effect, not again.
    """
    paragraphs: list[str] = []
    verbatim = [effect for effect in card.effects if isinstance(effect, (Trigger, Passive))]
    for roll in card.instructions:
        if isinstance(roll, FlipInstruction):
            paragraphs.append(render_flip(roll, card.name))
            continue
        if any(roll.text and roll.text.startswith(effect.text) for effect in verbatim if effect.text):
            outcomes = " ".join(render_outcome(outcome) for outcome in roll.outcomes)
            if outcomes:
                paragraphs.append(outcomes)
            continue
        paragraphs.append(render_roll(roll, card.name))
    level = 1
    for effect in sorted(card.effects, key=lambda effect: effect.level):
        if effect.level != level:
            level = effect.level
            paragraphs.append(f"{{1}}: Level {level}")
        paragraphs.append(render_effect(effect, card.name))
    return "\n".join(paragraphs)


def structure(card: CompiledCard) -> tuple[Any, ...]:
    """What a round trip keeps: the card with its own wordings of abilities, instructions and
    outcomes left out (row texts, trigger effects, costs and recognised abilities stay)."""
    rolls = tuple(
        replace(roll, text="", outcomes=tuple(replace(outcome, text="") for outcome in roll.outcomes))
        for roll in card.rolls
    )
    effects = tuple(_without_text(effect) for effect in card.effects)
    details = tuple(effect.details for effect in card.effects if isinstance(effect, Passive))
    flips = tuple(
        replace(
            flip,
            text="",
            outcomes=tuple(
                replace(outcome, text="" if outcome.reads is not CoinReads.NONE else outcome.text)
                for outcome in flip.outcomes
            ),
        )
        for flip in card.flips
    )
    return rolls, effects, details, flips


def _without_text(effect: Effect) -> Any:
    if isinstance(effect, Passive):
        return effect
    if isinstance(effect, CoinTrigger):
        return replace(effect, text="")
    assert is_dataclass(effect)
    return replace(effect, text="") if any(field.name == "text" for field in fields(effect)) else effect
