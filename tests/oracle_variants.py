"""A generator of card texts in current Oracle style, each with the structure it must compile to.

Each template is a real wording family of dice cards, written as a hypothesis strategy that varies
what real cards vary: numbers and die sizes, counts in words and in digits, table layouts (a chart
or a list, em dash, en dash or hyphen, rows on their own lines or on one line), the card's name
(full, a legendary short name, or "this creature"), and whose dice (you, a player, an opponent).
The expected structure is written from the parameters, never from the compiler's output: a partial
``compile`` JSON object (rolls and effects in order, only the fields listed).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

Variant = tuple[str, str, dict[str, Any]]
"""(card text, card name, expected partial compile JSON)."""

NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
SIZES = st.sampled_from([4, 6, 8, 10, 12, 20])
SIDES = SIZES
DASHES = st.sampled_from(["\u2014", "\u2013", "-"])
CARDS = st.sampled_from(
    [
        ("Gearwright Owl", "Gearwright Owl"),
        ("Ayla, Keeper of Dice", "Ayla"),
        ("Ayla, Keeper of Dice", "Ayla, Keeper of Dice"),
        ("Brass Diviner", "this creature"),
        ("Lucky Anvil", "this artifact"),
    ]
)
EFFECTS = st.sampled_from(
    ["draw a card", "you gain 3 life", "create a Treasure token", "scry 2", "each opponent loses 1 life"]
)
WHO = st.sampled_from([("you", "roll", "you"), ("a player", "rolls", "any"), ("an opponent", "rolls", "opponent")])


def _count(n: int, words: bool) -> str:
    if n == 1:
        return "a"
    return NUMBER_WORDS[n - 1] if words and n <= len(NUMBER_WORDS) else str(n)


def _die(sides: int, plural: bool, words: bool) -> str:
    if words:
        word = {4: "four", 6: "six", 8: "eight", 10: "ten", 12: "twelve", 20: "twenty"}[sides]
        return f"{word}-sided {'dice' if plural else 'die'}"
    return f"d{sides}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


@st.composite
def table_roll(draw: st.DrawFn) -> Variant:
    name, self_ref = draw(CARDS)
    sides = draw(SIDES)
    count = draw(st.integers(1, 3))
    words = draw(st.booleans())
    head = draw(st.sampled_from(["", "When {self} enters, ", "{T}: ", "Whenever {self} attacks, "]))
    ignore = count > 1 and draw(st.booleans())
    cuts = sorted(draw(st.sets(st.integers(2, sides), min_size=1, max_size=min(3, sides - 1))))
    lows = [1, *cuts]
    ranges = [(low, lows[i + 1] - 1 if i + 1 < len(lows) else sides) for i, low in enumerate(lows)]
    listed = draw(st.booleans())
    dash = draw(DASHES)
    one_line = not listed and draw(st.booleans())
    texts = draw(st.lists(EFFECTS, min_size=len(ranges), max_size=len(ranges)))
    again = draw(st.integers(-1, len(ranges) - 1))
    rows = []
    for index, ((low, high), text) in enumerate(zip(ranges, texts, strict=True)):
        label = str(low) if low == high else f"{low}{dash}{high}"
        body = _capital(text) + "." + (" Roll again." if index == again else "")
        rows.append(f"\u2022 {label} \u2014 {body}" if listed else f"{label} | {body}")
    roll = f"roll {_count(count, words)} {_die(sides, count > 1, words)}"
    if ignore:
        roll += " and ignore the lowest roll"
    sentence = (head.replace("{self}", self_ref) + roll + ".") if head else _capital(roll) + "."
    text = _capital(sentence) + ("\n" + (" ".join(rows) if one_line else "\n".join(rows)))
    expected = {
        "rolls": [
            {
                "count": count,
                "sides": sides,
                "ignore_lowest": 1 if ignore else 0,
                "table": [[low, high] for low, high in ranges],
                "roll_again": again >= 0,
            }
        ]
    }
    return text, name, expected


@st.composite
def extra_dice(draw: st.DrawFn) -> Variant:
    name, _ = draw(CARDS)
    who, _, scope = draw(WHO)
    extra = draw(st.integers(1, 3))
    sides = draw(st.one_of(st.none(), SIDES))
    dice = "one or more dice" if sides is None else f"one or more {_die(sides, True, draw(st.booleans()))}"
    if sides is not None and dice.endswith(f"d{sides}"):
        dice += "s"
    they = {"you": "", "a player": "they ", "an opponent": "they "}[who]
    lowest = "the lowest roll" if extra == 1 else f"the {NUMBER_WORDS[extra - 1]} lowest rolls"
    text = (
        f"If {who} would roll {dice}, instead {they}roll that many dice plus {NUMBER_WORDS[extra - 1]} "
        f"and ignore {lowest}."
    )
    expected = {"rolls": [], "effects": [{"kind": "extra dice", "extra": extra, "sides": sides, "scope": scope}]}
    return text, name, expected


@st.composite
def static_modifier(draw: st.DrawFn) -> Variant:
    name, _ = draw(CARDS)
    who, verb, scope = draw(WHO)
    n = draw(st.integers(1, 3))
    up = draw(st.booleans())
    sides = draw(st.one_of(st.none(), SIZES))
    die = "die" if sides is None else f"d{sides}"
    text = f"{'Increase' if up else 'Decrease'} the result of each {die} {who} {verb} by {_count(n, False) if n > 1 else '1'}."
    expected = {"effects": [{"kind": "modifier", "delta": n if up else -n, "sides": sides, "scope": scope}]}
    return text, name, expected


@st.composite
def optional_modifier(draw: st.DrawFn) -> Variant:
    name, self_ref = draw(CARDS)
    who, verb, scope = draw(WHO)
    cost = draw(st.sampled_from(["pay {1}", "pay 1 life", "remove a +1/+1 counter from {self}", "tap {self}"]))
    cost = cost.replace("{self}", self_ref)
    n = draw(st.integers(1, 2))
    once = draw(st.booleans())
    text = f"After {who} {verb} a die, you may {cost}. If you do, increase or decrease the result by {n}." + (
        " Do this only once each turn." if once else ""
    )
    effect: dict[str, Any] = {
        "kind": "modifier",
        "delta": n,
        "optional": True,
        "either_direction": True,
        "scope": scope,
    }
    if once:
        effect["once_each_turn"] = True
    return text, name, {"effects": [effect]}


@st.composite
def trigger(draw: st.DrawFn) -> Variant:
    name, self_ref = draw(CARDS)
    who, verb, scope = draw(WHO)
    effect = draw(EFFECTS)
    shape = draw(st.sampled_from(["value", "higher", "batch", "doubles", "die", "natural"]))
    value = draw(st.integers(1, 20))
    what, expected_effect = {
        "value": (f"a {value}", {"event": "die rolled", "condition": str(value)}),
        "higher": (f"a {value} or higher", {"event": "die rolled", "condition": f"{value}+"}),
        "batch": ("one or more dice", {"event": "dice rolled", "condition": None}),
        "doubles": ("doubles", {"event": "dice rolled", "doubles": True}),
        "die": ("a die", {"event": "die rolled", "condition": None}),
        "natural": (f"a natural {value}", {"event": "die rolled", "condition": f"natural {value}"}),
    }[shape]
    text = f"Whenever {who} {verb} {what}, {effect.replace('{self}', self_ref)}."
    return text, name, {"rolls": [], "effects": [{"kind": "trigger", "scope": scope, **expected_effect}]}


@st.composite
def nth_die(draw: st.DrawFn) -> Variant:
    name, _ = draw(CARDS)
    nth = draw(st.integers(1, 6))
    ordinal = ("first", "second", "third", "fourth", "fifth", "sixth")[nth - 1]
    value = draw(st.one_of(st.none(), st.integers(1, 6)))
    condition = f"if its result is {value}, " if value is not None else ""
    text = f"Whenever you roll your {ordinal} die each turn, {condition}{draw(EFFECTS)}."
    effect = {"kind": "trigger", "nth_this_turn": nth, "condition": str(value) if value is not None else None}
    return text, name, {"effects": [effect]}


@st.composite
def reroll_if(draw: st.DrawFn) -> Variant:
    name, _ = draw(CARDS)
    sides = draw(SIZES)
    value = draw(st.integers(1, sides))
    text = f"If you roll a {value} on a {_die(sides, False, draw(st.booleans()))}, you may reroll that die."
    return text, name, {"effects": [{"kind": "reroll", "condition": str(value), "sides": sides}]}


@st.composite
def x_dice(draw: st.DrawFn) -> Variant:
    name, _ = draw(CARDS)
    sides = draw(SIZES)
    noun = draw(st.sampled_from(["artifacts you control", "cards in your hand", "opponents you have"]))
    head = draw(st.sampled_from(["", "{2}, {T}: "]))
    text = f"{head}Roll X {_die(sides, True, draw(st.booleans()))}, where X is the number of {noun}."
    amount = noun.replace("your ", "")
    return text, name, {"rolls": [{"count": amount, "sides": sides, "amounts": [amount]}]}


@st.composite
def choose_one(draw: st.DrawFn) -> Variant:
    name, _ = draw(CARDS)
    sides = draw(SIZES)
    count = draw(st.integers(2, 3))
    text = (
        f"Roll {_count(count, draw(st.booleans()))} {_die(sides, True, draw(st.booleans()))} and choose one result. "
        "Draw cards equal to that result. Then you gain X life, where X is the other result."
    )
    expected = {"rolls": [{"count": count, "sides": sides, "choose": True}]}
    return text, name, expected


@st.composite
def add_amount(draw: st.DrawFn) -> Variant:
    name, _ = draw(CARDS)
    sides = draw(SIZES)
    fixed = draw(st.booleans())
    n = draw(st.integers(1, 5))
    what = str(n) if fixed else "the number of cards in your hand"
    verb = draw(st.sampled_from(["add", "subtract"]))
    text = f"Roll a {_die(sides, False, draw(st.booleans()))} and {verb} {what}."
    sign = 1 if verb == "add" else -1
    modifier: int | str = sign * n if fixed else ("+" if sign > 0 else "-") + "cards in hand"
    return text, name, {"rolls": [{"count": 1, "sides": sides, "modifier": modifier}]}


@st.composite
def repeat(draw: st.DrawFn) -> Variant:
    name, _ = draw(CARDS)
    sides = draw(SIZES)
    value = draw(st.integers(1, sides))
    higher = draw(st.booleans())
    may = draw(st.booleans())
    cond = f"a {value} or higher" if higher else f"a {value}"
    text = f"Roll a {_die(sides, False, False)}. If you roll {cond}, {'you may ' if may else ''}repeat this process."
    when = f"{value}+" if higher else str(value)
    return text, name, {"rolls": [{"sides": sides, "repeat_when": when, "repeat_optional": may, "roll_again": True}]}


@st.composite
def each_player(draw: st.DrawFn) -> Variant:
    name, _ = draw(CARDS)
    sides = draw(SIZES)
    extreme = draw(st.sampled_from(["highest", "lowest"]))
    who = draw(st.sampled_from([("Each player", "each player"), ("Each opponent", "each opponent")]))
    text = f"{who[0]} rolls a {_die(sides, False, draw(st.booleans()))}. The player with the {extreme} result {draw(EFFECTS).replace('you ', 'they ')}."
    return (
        text,
        name,
        {"rolls": [{"sides": sides, "roller": who[1], "compare": {"extreme": extreme, "break_ties": False}}]},
    )


@st.composite
def store(draw: st.DrawFn) -> Variant:
    name, self_ref = draw(CARDS)
    count = draw(st.integers(1, 5))
    words = draw(st.booleans())
    text = f"When {self_ref} enters, roll {_count(count, words)} {_die(6, count > 1, words)} and store those results on it."
    return _capital(text), name, {"rolls": [{"count": count, "sides": 6, "store": True}]}


@st.composite
def mixed_dice(draw: st.DrawFn) -> Variant:
    name, _ = draw(CARDS)
    first, second = draw(SIZES), draw(SIZES)
    n = draw(st.integers(1, 3))
    text = f"Roll a d{first} and {_count(n, draw(st.booleans()))} d{second}."
    return text, name, {"rolls": [{"count": 1, "sides": first, "also": [{"count": n, "sides": second}]}]}


@st.composite
def coin(draw: st.DrawFn) -> Variant:
    name, _ = draw(CARDS)
    who, _, scope = draw(WHO)
    n = draw(st.integers(2, 4))
    text = f"If {who} would flip a coin, instead flip {NUMBER_WORDS[n - 1]} coins and ignore {NUMBER_WORDS[n - 2]} of them."
    return text, name, {"effects": [{"kind": "pair each coin", "extra": n - 1, "scope": scope}]}


@st.composite
def planar_trigger(draw: st.DrawFn) -> Variant:
    face = draw(st.sampled_from([("{CHAOS}", "chaos"), ("{PLANESWALKER}", "planeswalk")]))
    text = f"Whenever you roll {face[0]}, {draw(EFFECTS)}."
    return (
        text,
        "Sunlit Plane",
        {"layout": "planar", "effects": [{"kind": "trigger", "planar": True, "zone": "command"}]},
    )


TEMPLATES = (
    table_roll,
    extra_dice,
    static_modifier,
    optional_modifier,
    trigger,
    nth_die,
    reroll_if,
    x_dice,
    choose_one,
    add_amount,
    repeat,
    each_player,
    store,
    mixed_dice,
    coin,
    planar_trigger,
)
variants = st.one_of(*(template() for template in TEMPLATES))
