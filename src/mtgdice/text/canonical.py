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
    Effect,
    Outcome,
    Passive,
    Roller,
    RollInstruction,
    Row,
    Trigger,
)
from mtgdice.rules.coin_instruction import CoinReads, FlipInstruction, Flipper, Until
from mtgdice.rules.effects.coin import CoinTrigger
from mtgdice.text.grammar import canonical, flip_outcome_words, number_words, outcome_words

if TYPE_CHECKING:
    from mtgdice.text.compiler import CompiledCard

_ROLLERS = {
    Roller.YOU: "Roll",
    Roller.THAT_PLAYER: "They roll",
    Roller.TARGET_PLAYER: "Target player rolls",
    Roller.TARGET_OPPONENT: "Target opponent rolls",
    Roller.EACH_PLAYER: "Each player rolls",
    Roller.EACH_OPPONENT: "Each opponent rolls",
}


def _dice(count: int, sides: int | None) -> str:
    return f"a d{sides}" if count == 1 else f"{number_words(count)} d{sides}"


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
            head += f" and ignore all but the highest {number_words(roll.keep_highest)} rolls"
        elif roll.ignore_lowest:
            head += (
                " and ignore the lowest roll"
                if roll.ignore_lowest == 1
                else (f" and ignore the lowest {number_words(roll.ignore_lowest)} rolls")
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
        sentences.append(f"If you roll {canonical(roll.repeat_when)}, {may}repeat this process.")
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
    """An outcome of a roll, with the neutral effect (its wording is registered beside its production)."""
    return outcome_words(outcome)


_FLIPPERS = {
    Flipper.YOU: "Flip",
    Flipper.THAT_PLAYER: "Target player flips",
    Flipper.EACH_PLAYER: "Each player flips",
    Flipper.EACH_OPPONENT: "Each opponent flips",
    Flipper.YOU_AND_OPPONENT: "You and target opponent each flip",
}


def render_flip(flip: FlipInstruction, name: str = "") -> str:
    """A flip instruction (CR 705) and its outcomes, canonical."""
    count = flip.count
    coins = "a coin" if count.fixed and count.constant == 1 else f"{number_words(count.constant)} coins"
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
        times = flip.times.name or "X" if not flip.times.fixed else number_words(flip.times.constant)
        head += f" {times} times"
        if flip.until in (Until.LOSE, Until.WIN):
            head += f" or until you {flip.until.value} a flip{stop}, whichever comes first"
    elif flip.until in (Until.LOSE, Until.WIN):
        head += f" until you {flip.until.value} a flip{stop}"
    sentences = [head + where + "."]
    sentences += [flip_outcome_words(outcome, flip.until) for outcome in flip.outcomes]
    if flip.until is Until.ALL_HEADS:
        sentences.append("Repeat this process until all coins come up heads.")
    return _named(" ".join(sentences), name)


def render_effect(effect: Effect, name: str = "") -> str:
    """One effect on other rolls, canonical: the wording registered beside the production that
    reads it (``grammar.wording``); ``Passive`` abilities keep their own sentence."""
    return _named(canonical(effect), name)


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
