"""A deliberately naive reference for the exact odds of one roll instruction (CR 706).

Written from the Comprehensive Rules 706, DESIGN.md §3 and the JSON interface alone: it shares no
code with ``mtgdice.rules`` or ``mtgdice.odds`` and imports nothing from the package. Its input is
the ``compile --json`` data of the text layer — a roll object and the ``effects`` of the cards on the
board — and a policy name (docs/odds.md). It lists every face sequence of the first physical roll
as a plain tuple, follows every decision the policy takes, and adds up exact Fractions.

What it models (anything else raises :class:`NotCovered`, so a caller can count what it checked):

- the instruction: N dice of S sides or the planar die, the instruction's own "ignore the lowest",
  a printed ±N, "choose one result", a results table read once (by the result, or by the total
  when several dice count) or for each result, "roll again" rows (optional or not, "N more times")
  and "if you roll N, repeat this process";
- replacements: "roll that many dice plus one and ignore the lowest" (any number of them) or one
  "roll two of those dice and ignore one" per die — not both on one board;
- reroll permissions that can be used again on the new roll ("if you roll a 1, you may reroll
  that die"), the reroll being a new roll of that die to which the replacements apply again;
- static ±N and optional once-each-turn ±N (either direction) modifiers;
- triggers "whenever you roll a die [if N / a natural N / its highest natural result]", "your Nth
  die each turn" and "whenever you roll one or more dice [doubles]";
- outcome sentences of the first execution: on a result ("if the result is 3 or less": one counted
  die meeting it), on the total of the counted results ("if the total is 7", CR 706.2), doubles
  (CR 706.5) and "otherwise" / "any other total" (none of the ones before held). Other outcomes are
  left out of the comparison (their probability is ``None``), not refused.

Policies (docs/odds.md): ``decline`` takes no optional action and the first option; ``accept``
takes every optional action and the first option; ``maximize`` / ``minimize`` pick the largest /
smallest option and take an optional modifier only when it moves the result the wanted way; they
take no other optional action (a reroll, an optional roll again), as docs/odds.md defines them.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

PLANAR_FACES = ("chaos", "planeswalk", "blank", "blank", "blank", "blank")
"""CR 706.7 / 901.9: the planar die has six faces, one chaos, one planeswalk and four blank."""

ZONES = ("battlefield", "opponents", "graveyard", "command")
"""Zone order for effects of one kind (the JSON interface, "choices")."""

SEQUENCES = 60_000
"""Most face sequences of a first roll this reference lists; larger rolls are not covered."""

POLICIES = ("decline", "accept", "maximize", "minimize")

Face = int | str


class NotCovered(Exception):
    """The roll or the board uses something this reference does not model (the reason says what)."""


class Refused(Exception):
    """The rules never settle: a reroll certain forever, or roll again without end."""


# -- conditions: "6", "5+", "1 or 2", "1—9", "natural 20", "highest natural result", "chaos" ----------


@dataclass(frozen=True)
class Condition:
    """A test on one die: ``low``..``high`` on the result, or on the natural face (``natural``), or the
    die's highest face (``highest``), or a planar face name (``face``)."""

    low: int | None = None
    high: int | None = None
    natural: bool = False
    highest: bool = False
    face: str | None = None
    either: tuple[int, ...] = ()

    def holds(self, natural: Face, result: int | None, sides: int | None) -> bool:
        if self.face is not None:
            return natural == self.face
        if not isinstance(natural, int) or result is None:
            return False  # CR 706.7: the planar die has no number
        if self.highest:
            return natural == sides
        value = natural if self.natural else result
        if self.either:
            return value in self.either
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


def condition(text: str | None) -> Condition | None:
    if text is None:
        return None
    words = text.strip()
    if words in ("chaos", "planeswalk", "blank"):
        return Condition(face=words)
    if words == "highest natural result":
        return Condition(highest=True)
    if match := re.fullmatch(r"natural (\d+)", words):
        return Condition(int(match[1]), int(match[1]), natural=True)
    if match := re.fullmatch(r"(\d+)\+", words):
        return Condition(int(match[1]), None)
    if match := re.fullmatch(r"(\d+) or less", words):
        return Condition(None, int(match[1]))
    if re.fullmatch(r"\d+( or \d+)+", words):
        return Condition(either=tuple(int(number) for number in words.split(" or ")))
    if match := re.fullmatch(r"(\d+)\s*[—–-]\s*(\d+)", words):
        return Condition(int(match[1]), int(match[2]))
    if re.fullmatch(r"\d+", words):
        return Condition(int(words), int(words))
    raise NotCovered(f"condition {text!r}")


# -- the instruction ------------------------------------------------------------------------------


@dataclass(frozen=True)
class OutcomeRule:
    """An outcome sentence: what it reads ("result", "total", "doubles", "otherwise") and its test."""

    reads: str
    test: Condition | None


def _outcome_rule(data: Mapping[str, Any], choose: bool) -> OutcomeRule | None:
    reads = data.get("reads")
    if reads in ("otherwise", "note", "doubles"):
        return OutcomeRule("otherwise" if reads == "note" else str(reads), None)
    if reads not in ("result", "total") or data.get("times") is not None or data.get("when") is None:
        return None
    if reads == "result" and choose:
        return None  # "choose one result" then "if the result is": not modelled
    try:
        test = condition(data["when"])
    except NotCovered:
        return None
    if reads == "total" and (test is None or test.natural or test.highest or test.face is not None):
        return None
    return OutcomeRule(str(reads), test)


@dataclass(frozen=True)
class Roll:
    """One roll instruction, as ``compile --json`` gives it, with its amounts filled in."""

    count: int
    sides: int | None  # None: the planar die
    ignore_lowest: int
    modifier: int
    choose: bool
    table: tuple[tuple[int, int | None], ...] | None
    again_rows: tuple[tuple[bool, bool, int], ...]  # per row: roll again, optional, how many times
    each_result: bool
    repeat: Condition | None
    repeat_optional: bool
    outcomes: tuple[OutcomeRule | None, ...] = ()  # None: an outcome this reference leaves out

    def faces(self) -> tuple[Face, ...]:
        return PLANAR_FACES if self.sides is None else tuple(range(1, self.sides + 1))

    def row_of(self, value: Face | None) -> int | None:
        """CR 706.3a: the row whose range holds ``value`` (first in printed order), or None."""
        if self.table is None or not isinstance(value, int):
            return None
        for index, (low, high) in enumerate(self.table):
            if value >= low and (high is None or value <= high):
                return index
        return None


def _amount(value: Any, amounts: Mapping[str, int], field: str) -> int:
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip()
        sign = 1
        if text[:1] in "+-":
            sign = -1 if text[0] == "-" else 1
            text = text[1:].strip()
        if text.isdigit():
            return sign * int(text)
        if match := re.fullmatch(r"(\d+) \+ (.+)", text):
            return sign * (int(match[1]) + _amount(match[2], amounts, field))
        if text in amounts:
            return sign * amounts[text]
    raise NotCovered(f"{field} {value!r}")


def read_roll(data: Mapping[str, Any], amounts: Mapping[str, int]) -> Roll:
    """A :class:`Roll` from a ``compile --json`` roll object."""
    if data.get("roller", "you") != "you":
        raise NotCovered(f"roller {data['roller']!r}")
    for field in ("store", "reroll_stored"):
        if data.get(field):
            raise NotCovered(f"stored results ({field})")
    for field in ("compare", "keep_highest", "purpose"):
        if data.get(field) is not None:
            raise NotCovered(field)
    if data.get("also"):
        raise NotCovered("also")
    sides = None if data["sides"] == "planar" else _amount(data["sides"], amounts, "sides")
    count = _amount(data["count"], amounts, "count")
    modifier = 0 if data.get("modifier") is None else _amount(data["modifier"], amounts, "modifier")
    table = None if data.get("table") is None else tuple((low, high) for low, high in data["table"])
    rows = data.get("rows") or []
    again_rows = tuple((bool(row["roll_again"]), bool(row["optional"]), int(row["times"])) for row in rows)
    if table is not None and len(again_rows) != len(table):
        again_rows = tuple((False, False, 1) for _ in table)
    roll = Roll(
        count,
        sides,
        int(data.get("ignore_lowest") or 0),
        modifier,
        bool(data.get("choose")),
        table,
        again_rows,
        bool(data.get("table_each_result")),
        condition(data.get("repeat_when")),
        bool(data.get("repeat_optional")),
        tuple(_outcome_rule(outcome, bool(data.get("choose"))) for outcome in data.get("outcomes") or ()),
    )
    if data.get("roll_again") and roll.repeat is None and not any(again for again, _, _ in again_rows):
        raise NotCovered("roll again without a row or condition")
    if roll.each_result and any(again for again, _, _ in again_rows):
        raise NotCovered("roll again from a table read for each result")
    if sides is None and (table is not None or modifier or roll.choose or roll.ignore_lowest):
        raise NotCovered("the planar die with a table, a modifier, a choice or an ignore")
    if modifier and count != 1:
        raise NotCovered("a printed modifier on several dice")
    return roll


# -- the board ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Trigger:
    card: str
    each_die: bool  # "whenever you roll a die" (else: "whenever you roll one or more dice")
    condition: Condition | None
    nth: int | None
    doubles: bool
    sides: int | None


@dataclass(frozen=True)
class OptionalModifier:
    key: str  # what "once each turn" remembers
    delta: int
    either: bool
    sides: int | None


@dataclass(frozen=True)
class Board:
    extra: int = 0  # dice added by "that many dice plus one and ignore the lowest"
    pairs: int = 0  # "roll two of those dice and ignore one", per die
    static: tuple[tuple[int, int | None], ...] = ()  # (delta, sides) always applied
    optional: tuple[OptionalModifier, ...] = ()
    rerolls: tuple[tuple[Condition | None, int | None], ...] = ()  # (condition, sides) in zone order
    triggers: tuple[Trigger, ...] = ()

    def position_cap(self) -> int:
        return max((trigger.nth or 0 for trigger in self.triggers), default=0)


@dataclass(frozen=True)
class Item:
    """One card on the board: its zone, name, ``compile --json`` effects and level."""

    zone: str
    name: str
    effects: tuple[Mapping[str, Any], ...]
    level: int = 1


def read_board(items: Sequence[Item]) -> Board:
    """A :class:`Board` from the cards' compiled effects, in zone order."""
    extra = pairs = 0
    static: list[tuple[int, int | None]] = []
    optional: list[OptionalModifier] = []
    rerolls: list[tuple[Condition | None, int | None]] = []
    triggers: list[Trigger] = []
    ordered = sorted(enumerate(items), key=lambda pair: (ZONES.index(pair[1].zone), pair[0]))
    for position, item in ordered:
        for number, effect in enumerate(item.effects):
            if effect.get("zone", "battlefield") != item.zone or int(effect.get("level") or 1) > item.level:
                continue  # works from another zone, or a Class level not reached
            if item.zone == "opponents" or effect.get("scope") not in ("you", None):
                raise NotCovered(f"{item.name}: an effect of scope {effect.get('scope')!r} in {item.zone}")
            kind = effect["kind"]
            sides = effect.get("sides")
            if kind == "extra dice":
                if effect.get("ignore") != "lowest" or effect.get("optional") or sides is not None:
                    raise NotCovered(f"{item.name}: extra dice ignoring {effect.get('ignore')!r}")
                extra += int(effect["extra"])
            elif kind == "pair each die" and sides is None:
                pairs += 1
            elif kind == "modifier":
                once = bool(effect.get("once_each_turn"))
                if not effect.get("optional") and not effect.get("either_direction") and not once:
                    static.append((int(effect["delta"]), sides))
                elif effect.get("optional") and once:
                    key = f"{item.zone}:{position}:{number}"
                    optional.append(
                        OptionalModifier(key, int(effect["delta"]), bool(effect["either_direction"]), sides)
                    )
                else:
                    raise NotCovered(f"{item.name}: a modifier of this shape")
            elif kind == "reroll":
                plain = not effect.get("activated") and not effect.get("many") and not effect.get("once_each_turn")
                if not plain or not effect.get("again") or effect.get("rerolled_by") != "roller":
                    raise NotCovered(f"{item.name}: a limited or activated reroll")
                rerolls.append((condition(effect.get("condition")), sides))
            elif kind == "trigger":
                if effect.get("planar") or effect.get("once_each_turn") or effect.get("purpose") is not None:
                    raise NotCovered(f"{item.name}: a trigger of this shape")
                each_die = effect["event"] == "die rolled"
                if not each_die and (effect.get("condition") is not None or effect.get("nth_this_turn")):
                    raise NotCovered(f"{item.name}: a batch trigger with a condition")
                if each_die and effect.get("doubles"):
                    raise NotCovered(f"{item.name}: a per-die doubles trigger")
                triggers.append(
                    Trigger(
                        item.name,
                        each_die,
                        condition(effect.get("condition")),
                        effect.get("nth_this_turn"),
                        bool(effect.get("doubles")),
                        sides,
                    )
                )
            else:
                raise NotCovered(f"{item.name}: effect kind {kind!r}")
    names = [item.name for item in items if any(effect.get("once_each_turn") for effect in item.effects)]
    if len(names) != len(set(names)):
        # Each copy's "once each turn" is its own; mtgdice keys a use by card name (tests/test_reference.py
        # keeps the disagreement as a known failure), so copies are left out of the comparison.
        raise NotCovered("two copies of a once-each-turn card")
    if pairs > 1 or (pairs and extra):
        raise NotCovered("several per-die replacements, or per-die and extra-dice replacements together")
    return Board(extra, pairs, tuple(static), tuple(optional), tuple(rerolls), tuple(triggers))


# -- one execution ----------------------------------------------------------------------------------

State = tuple[frozenset[str], int]
"""What a later execution depends on: once-each-turn keys used, counted dice this turn (capped)."""


@dataclass(frozen=True)
class Outcome:
    """What one execution led to."""

    rows: tuple[int | None, ...]  # the row read (one entry), or one per counted result
    value: Face | None
    doubles: bool
    again: int  # how many more executions it asks for (0: none)
    triggers: tuple[tuple[str, int], ...]
    state: State
    held: tuple[int, ...] = ()  # the outcome sentences that hold (by index)


def _pick(values: Sequence[int], policy: str) -> int:
    """The index a policy picks among options whose values are ``values`` (first among equals)."""
    if policy == "maximize":
        return max(range(len(values)), key=lambda i: (values[i], -i))
    if policy == "minimize":
        return min(range(len(values)), key=lambda i: (values[i], i))
    return 0


def _fresh(roll: Roll, board: Board, policy: str) -> dict[Face, Fraction]:
    """The natural a new roll of one die ends on, the replacements applied to it again (DESIGN §3.5)."""
    dice = (1 + board.extra) * (2 if board.pairs else 1)
    faces = roll.faces()
    found: dict[Face, Fraction] = {}
    weight = Fraction(1, len(faces) ** dice)
    for sequence in itertools.product(faces, repeat=dice):
        kept = _kept(list(sequence), 1 + board.extra, board.extra, board, policy)
        found[kept[0]] = found.get(kept[0], 0) + weight
    return found


def _kept(sequence: list[Face], slots: int, ignore: int, board: Board, policy: str) -> list[Face]:
    """CR 706.6: the naturals that count, in roll order: first each pair's choice, then the lowest ignored."""
    if board.pairs:
        naturals: list[Face] = []
        for i in range(slots):
            pair = [sequence[2 * i], sequence[2 * i + 1]]
            ignored = _pick([int(face) for face in pair], _opposite(policy))
            naturals.append(pair[1 - ignored])
    else:
        naturals = list(sequence)
    if ignore:
        order = sorted(range(slots), key=lambda i: (naturals[i], i))  # a tie ignores the first rolled
        gone = set(order[:ignore])
        naturals = [face for i, face in enumerate(naturals) if i not in gone]
    return naturals


def _opposite(policy: str) -> str:
    """A pair's decision names the die to ignore: maximizing the kept die minimizes the ignored one."""
    return {"maximize": "minimize", "minimize": "maximize"}.get(policy, policy)


def _settle(natural: Face, roll: Roll, board: Board, policy: str) -> dict[Face, Fraction]:
    """The reroll window for one die (CR 706.2b): where its natural ends up, loops closed exactly.

    A rerolled roll never happened (Unfinity ruling): with permissions that apply again to the new
    roll, rerolling until the policy keeps the die leaves the fresh die's distribution conditioned
    on being kept."""
    if not _rerolled(natural, roll, board, policy):
        return {natural: Fraction(1)}
    fresh = _fresh(roll, board, policy)
    kept = {face: p for face, p in fresh.items() if not _rerolled(face, roll, board, policy)}
    total = sum(kept.values(), Fraction(0))
    if total == 0:
        raise Refused("every new roll is rerolled again")
    return {face: p / total for face, p in kept.items()}


def _rerolled(natural: Face, roll: Roll, board: Board, policy: str) -> bool:
    sides = roll.sides
    for test, only in board.rerolls:
        if only is not None and only != sides:
            continue
        result = natural if isinstance(natural, int) else None
        if test is not None and not test.holds(natural, result, sides):
            continue
        if policy == "accept":
            return True
    return False


def execution(roll: Roll, board: Board, policy: str, state: State) -> dict[Outcome, Fraction]:
    """Every outcome of one execution from ``state``, with its exact probability."""
    if roll.sides is None and (board.extra or board.pairs or board.rerolls):
        raise NotCovered("replacements or rerolls on the planar die")
    slots = roll.count + board.extra
    ignore = roll.ignore_lowest + board.extra
    physical = slots * (2 if board.pairs else 1)
    faces = roll.faces()
    if len(faces) ** physical > SEQUENCES:
        raise NotCovered(f"{len(faces)}^{physical} face sequences")
    weight = Fraction(1, len(faces) ** physical)
    found: dict[Outcome, Fraction] = {}
    for sequence in itertools.product(faces, repeat=physical):
        counted = _kept(list(sequence), slots, ignore, board, policy)
        settled = [_settle(natural, roll, board, policy) for natural in counted]
        for combination in itertools.product(*(list(d.items()) for d in settled)):
            p = weight
            for _, q in combination:
                p *= q
            outcome = _finish([face for face, _ in combination], roll, board, policy, state)
            found[outcome] = found.get(outcome, 0) + p
    return found


def _finish(naturals: list[Face], roll: Roll, board: Board, policy: str, state: State) -> Outcome:
    used, rolled = state
    used_now = set(used)
    # CR 706.2: result = natural + modifiers; the planar die has no number.
    results: list[int | None] = []
    for natural in naturals:
        if not isinstance(natural, int):
            results.append(None)
            continue
        result = natural + roll.modifier
        result += sum(delta for delta, only in board.static if only is None or only == roll.sides)
        for modifier in board.optional:
            if modifier.key in used_now or (modifier.sides is not None and modifier.sides != roll.sides):
                continue
            options = [result + modifier.delta] + ([result - modifier.delta] if modifier.either else [])
            if policy == "accept":
                take, new = True, options[0]  # increase is the first option
            elif policy in ("maximize", "minimize"):
                new = options[_pick(options, policy)]
                take = new > result if policy == "maximize" else new < result
            else:
                take, new = False, result
            if take:
                used_now.add(modifier.key)
                result = new
        results.append(result)
    shown: list[Face | None] = [r if r is not None else n for r, n in zip(results, naturals, strict=True)]
    # CR 706.3a: the table is read with the result, the chosen one, or the total of several.
    if roll.choose and len(results) > 1:
        value: Face | None = results[_pick([int(r or 0) for r in results], policy)]
    elif len(shown) == 1:
        value = shown[0]
    elif shown and all(r is not None for r in results):
        value = sum(int(r or 0) for r in results)
    else:
        value = None
    if roll.each_result:
        rows = tuple(roll.row_of(r) for r in shown)
    else:
        rows = (roll.row_of(value),)
    # CR 706.5: doubles — two or more counted dice all showing the same result.
    numbers = [r for r in results if r is not None]
    doubles = len(numbers) >= 2 and len(numbers) == len(results) and len(set(numbers)) == 1
    # CR 706.3c: roll again, from a row or "if you roll N, repeat this process".
    again = 0
    if roll.table is not None and not roll.each_result and rows[0] is not None:
        wants, optional, times = roll.again_rows[rows[0]]
        if wants and (not optional or policy == "accept"):
            again = times
    if roll.repeat is not None:
        if len(naturals) != 1:
            raise NotCovered("repeat this process after several dice")
        if roll.repeat.holds(naturals[0], results[0], roll.sides) and (not roll.repeat_optional or policy == "accept"):
            again = 1
    # Triggers read the counted dice only (ignored and rerolled-away dice never happened).
    counts: dict[str, int] = {}
    for trigger in board.triggers:
        hits = 0
        if trigger.each_die:
            for index, (natural, result) in enumerate(zip(naturals, results, strict=True)):
                if trigger.sides is not None and trigger.sides != roll.sides:
                    continue
                if trigger.nth is not None and rolled + index + 1 != trigger.nth:
                    continue
                if trigger.condition is None or trigger.condition.holds(natural, result, roll.sides):
                    hits += 1
        elif naturals and (not trigger.doubles or doubles):
            if trigger.sides is None or trigger.sides == roll.sides:
                hits = 1
        if hits:
            counts[trigger.card] = counts.get(trigger.card, 0) + hits
    cap = board.position_cap()
    next_state = (frozenset(used_now), min(rolled + len(naturals), cap))
    held = _held(roll, naturals, results, doubles)
    return Outcome(rows, value, doubles, again, tuple(sorted(counts.items())), next_state, held)


def _held(roll: Roll, naturals: list[Face], results: list[int | None], doubles: bool) -> tuple[int, ...]:
    """The outcome sentences that hold; an unmodelled one makes the "otherwise" after it unknown too
    (left out: never listed as held)."""
    held: list[int] = []
    since = False  # a conditional outcome held since the last "otherwise"
    known = True
    for index, rule in enumerate(roll.outcomes):
        if rule is None:
            known = False
            continue
        if rule.reads == "otherwise":
            if known and not since:
                held.append(index)
            since, known = False, True
            continue
        if rule.reads == "doubles":
            hit = doubles
        elif rule.reads == "total":
            # CR 706.2: the total of the counted dice's results (none for the planar die, CR 706.7).
            numbers = [r for r in results if r is not None]
            total = sum(numbers) if numbers and len(numbers) == len(results) else None
            hit = rule.test is not None and total is not None and rule.test.holds(total, total, roll.sides)
        else:
            hit = rule.test is not None and any(
                rule.test.holds(natural, result, roll.sides) for natural, result in zip(naturals, results, strict=True)
            )
        if hit:
            held.append(index)
            since = True
    return tuple(held)


# -- the whole resolution ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """The reference's odds: the same fields as ``mtgdice odds --json``, plus ``rows_any``."""

    rows: tuple[Fraction, ...]
    rows_any: tuple[Fraction, ...]  # per row: the chance that at least one counted result is in it
    no_row: Fraction | None
    results: dict[Face | None, Fraction]
    doubles: Fraction
    again: Fraction
    expected_executions: Fraction
    triggers: dict[str, Fraction]
    outcomes: tuple[Fraction | None, ...] = ()  # per outcome sentence, that it holds in the first execution


def reference_odds(roll: Roll, board: Board, policy: str) -> Answer:
    """Exact odds of ``roll`` on ``board`` under ``policy`` (see the module docstring)."""
    if policy not in POLICIES:
        raise ValueError(policy)
    memo: dict[State, tuple[Fraction, dict[str, Fraction]]] = {}
    first_state: State = (frozenset(), 0)
    executions: dict[State, dict[Outcome, Fraction]] = {}

    def at(state: State) -> dict[Outcome, Fraction]:
        if state not in executions:
            executions[state] = execution(roll, board, policy, state)
        return executions[state]

    def solve(state: State, seen: frozenset[State]) -> tuple[Fraction, dict[str, Fraction]]:
        # x(s) = 1 + sum p * times * x(s'), triggers alike; a loop back to s is solved for x(s).
        if state in memo:
            return memo[state]
        if state in seen:
            raise NotCovered("a roll-again cycle through several turn states")
        loop = Fraction(0)
        runs = Fraction(1)
        hits: dict[str, Fraction] = {}
        for outcome, p in at(state).items():
            for card, count in outcome.triggers:
                hits[card] = hits.get(card, 0) + p * count
            if not outcome.again:
                continue
            if outcome.state == state:
                loop += p * outcome.again
            elif outcome.again > 1:
                raise NotCovered("several more executions from a changed turn state")
            else:
                later_runs, later_hits = solve(outcome.state, seen | {state})
                runs += p * later_runs
                for card, expected in later_hits.items():
                    hits[card] = hits.get(card, 0) + p * expected
        if loop >= 1:
            raise Refused("roll again never stops on average")
        solved = (runs / (1 - loop), {card: value / (1 - loop) for card, value in hits.items() if value})
        memo[state] = solved
        return solved

    first = at(first_state)
    width = len(roll.table) if roll.table is not None else 0
    rows = [Fraction(0)] * width
    rows_any = [Fraction(0)] * width
    no_row = Fraction(0)
    results: dict[Face | None, Fraction] = {}
    doubles = again = Fraction(0)
    holds = [Fraction(0)] * len(roll.outcomes)
    for outcome, p in first.items():
        for index in outcome.held:
            holds[index] += p
        if roll.table is not None:
            for row in outcome.rows:
                if row is None:
                    no_row += p
                else:
                    rows[row] += p
            for row in set(outcome.rows) - {None}:
                assert row is not None
                rows_any[row] += p
        results[outcome.value] = results.get(outcome.value, 0) + p
        doubles += p if outcome.doubles else 0
        again += p if outcome.again else 0
    expected, triggers = solve(first_state, frozenset())
    return Answer(
        tuple(rows),
        tuple(rows_any),
        no_row if roll.table is not None else None,
        results,
        doubles,
        again,
        expected,
        triggers,
        tuple(p if modelled else None for p, modelled in zip(holds, _modelled(roll), strict=True)),
    )


def _modelled(roll: Roll) -> tuple[bool, ...]:
    """Per outcome sentence, whether this reference models it: not an outcome left out, nor an
    "otherwise" after one (since the previous "otherwise")."""
    found: list[bool] = []
    known = True
    for rule in roll.outcomes:
        found.append(rule is not None and (known or rule.reads != "otherwise"))
        known = (rule is not None and known) or (rule is not None and rule.reads == "otherwise")
    return tuple(found)
