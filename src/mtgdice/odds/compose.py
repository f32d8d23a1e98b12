"""Exact odds of one execution by composition: laws folded over the CR 706 steps, not faces listed.

Each effect kind declares, beside its footprint, its transform (:mod:`mtgdice.rules.transforms`).
This module folds them in the order of a resolution (docs/design.md):

1. **Replacements** (CR 616): the plan of the first roll comes from the rules' own replacement
   window (:func:`mtgdice.rules.plan_of`): how many dice stand for each die of the instruction, how
   many of the lowest go.
2. **Groups** (``KEPT_OF_GROUP``): each die and its partners become the die the roller keeps — the
   highest or lowest of the group when the policy compares values, else the first offered (the
   die's own law). Which one the policy takes is asked of the policy itself, on two probes.
3. **Ignoring the lowest** (``ORDER_STATISTIC``, CR 706.6): the counted dice are the top order
   statistics of the kept dice: for one counted die the product of the distribution functions;
   for several equal laws a closed form per multiset; otherwise a fold over the dice keeping the
   top multisets.
4. **Rerolls** (``MIXTURE``, CR 706.2b): a counted die meeting the condition is replaced by a new
   roll, whose own law is folded the same way from the plan of one die (per-die replacements meet
   rerolls again); a permission that may reroll its own reroll settles as a geometric series.
5. What is left (``SHIFT``, ``MAP``, tables, doubles, ``INDICATORS``, roll again) depends on the
   counted dice only through their multiset (or their total and whether they are alike, when
   nothing reads one die): ``resolve`` runs **once per class**, on a representative roll, and the
   class's probability is the composed one. Roll again is then solved exactly by ``chain``.

The work is polynomial in the dice: per group size a law of ``sides`` numbers, then the classes of
counted dice. A board whose classes are still more than :data:`MAX_CLASSES` is refused naming the
limit and the simulation. The path is taken only when every effect on the board declares a
transform and the footprints are inside :data:`COMPOSABLE`, and only for rolls it improves on
(a group, a reroll, or one counted die); anything else returns ``None`` and the caller takes the
other paths (``fast``, then ``enumerate``, the test oracle).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Container, Iterator, Sequence
from fractions import Fraction
from functools import partial
from itertools import combinations_with_replacement

from mtgdice.odds.enumerate import Problem, Search, Summary, Weighted, weighted
from mtgdice.rules import (
    Amount,
    Ask,
    Decision,
    Die,
    Footprint,
    Holder,
    PolicyChooser,
    RollInstruction,
    RollPlan,
    Topic,
    plan_of,
)
from mtgdice.rules.effects.base import EffectBase
from mtgdice.rules.effects.replacement import PairEachDie
from mtgdice.rules.effects.reroll import RerollPermission
from mtgdice.rules.errors import RollLimitError
from mtgdice.rules.footprint import MULTISET_SAFE, TOTALS_SAFE
from mtgdice.rules.players import YOU
from mtgdice.rules.transforms import Keep, Law, Transform

COMPOSABLE = MULTISET_SAFE | Footprint.GROUPS
"""What the fold tolerates: the multiset-safe footprints, and groups (each group's choice is made
by a stateless policy from that group alone)."""

_TOTALS = TOTALS_SAFE | Footprint.GROUPS  # with every group folded into the die it keeps
_STORED = Footprint.STORED.value
_COMPOSABLE_STORED = COMPOSABLE.value | _STORED

MAX_CLASSES = 40_000
"""Most classes of counted dice (multisets, or totals) the fold may hold; past it the roll is
refused with a pointer to the simulation."""

METHOD = "composed"

Classes = list[tuple[tuple[int, ...], int]]
"""(counted natural values, ways) over one common denominator."""


class Totals:
    """The classes of counted dice by their natural total (CR 706.3a) and whether all of them are
    alike (CR 706.5): the ways to each total, all alike and not, as plain integers (no tuple per
    class: the fold of one execution makes few objects). ``example(total)`` gives counted values
    reaching a total not all alike, found only when ``resolve`` needs one; all alike, they are
    ``total // count`` each.
    """

    __slots__ = ("count", "unlike", "alike", "example")

    def __init__(self, count: int, example: Callable[[int], tuple[int, ...]]) -> None:
        self.count = count
        self.unlike: dict[int, int] = {}
        self.alike: dict[int, int] = {}
        self.example = example

    def values(self, total: int, alike: bool) -> tuple[int, ...]:
        """Counted values of the class: each ``total // count`` when alike, else ``example(total)``."""
        return (total // self.count,) * self.count if alike else self.example(total)


def composed_distribution(problem: Problem) -> tuple[dict[Summary, Fraction], str] | None:
    """One execution's distribution by composition, or ``None`` when the fold does not apply."""
    found = composed_weights(problem)
    if found is None:
        return None
    ways, denominator = found
    return {summary: Fraction(count, denominator) for summary, count in ways.items()}, METHOD


def composed_weights(problem: Problem) -> Weighted | None:
    """:func:`composed_distribution` as ways over one common denominator (no fraction is made)."""
    instruction = problem.instruction
    chooser = problem.chooser
    if not isinstance(chooser, PolicyChooser) or instruction.reroll_stored:
        return None
    board = problem.board
    # On the flags' integers: a composite flag made for the first time costs more than the fold.
    holders = list(board.holders())
    footprint = instruction.footprint().value
    for holder in holders:  # the board's footprint (Board.footprint), from the holders listed once
        footprint |= holder.effect.footprint().value
    if footprint & ~_COMPOSABLE_STORED:
        return None
    footprint &= ~_STORED  # CR 706.8a: results are stored after the execution, read by none of it
    transforms = [holder.effect.transform() for holder in holders]
    if any(transform is None for transform in transforms):
        return None  # default-deny: a kind that says nothing of its law is enumerated
    die = instruction.die_for(dict(problem.amounts))
    if die.sides is None:
        return None
    plan = plan_of(instruction, board=board, chooser=chooser, amounts=problem.amounts, turn=problem.turn)
    counted = len(plan.slots) - plan.lowest
    if plan.chosen or counted <= 0:
        return None
    rerolls = [holder for holder, t in zip(holders, transforms, strict=True) if t is Transform.MIXTURE]
    grouped = any(size > 1 for size in plan.slots)
    if not grouped and not rerolls and counted > 1:
        return None  # equal plain dice: the closed forms of ``fast`` are quicker
    cells = len(plan.slots) * die.sides
    if cells > problem.meter.budget.cells:  # the message is made only when it is needed
        problem.meter.check_cells(cells, f"{len(plan.slots)} {die.name}")
    pair = _pair(holders)
    keep = _keep(chooser) if pair is not None else Keep.FIRST  # without partners no die is chosen
    if grouped and pair is None:
        return None
    settle: _Settle | None = None
    reduced = problem
    if rerolls:
        if len(rerolls) > 1:
            return None
        folded, settle = _settler(problem, rerolls[0], die, keep, pair)
        if not folded:
            return None
        kept = board.keeping(lambda effect: effect.transform() is not Transform.MIXTURE)
        reduced = Problem(
            instruction,
            problem.source,
            kept,
            chooser,
            problem.amounts,
            problem.turn,
            problem.players,
            problem.meter,
            problem.position_cap,
        )
        # The reduced board's footprint, from the holders listed once (a dropped effect leaves a blank).
        footprint = instruction.footprint().value
        for holder, transform in zip(holders, transforms, strict=True):
            if transform is not Transform.MIXTURE:
                footprint |= holder.effect.footprint().value
        footprint &= ~_STORED
        if settle is not None and plan.lowest and counted > 1:
            return None  # rerolls of dependent order statistics: not folded here
    by_size = {size: _kept(die.sides, size, keep, pair) for size in set(plan.slots)}
    laws = [by_size[size] for size in plan.slots]
    totals = not footprint & ~_TOTALS.value  # each group is one kept die now
    search = Search(reduced, plan.dice_count)
    if counted == 1:
        law = _highest(laws)
        if settle is not None:
            law = settle(law)
        if totals:  # one counted die: its value is its total, never doubles
            single = Totals(1, _alone)
            single.unlike.update(_support(law))
            return _by_totals(search, single, law.denominator, plan)
        classes: Classes = [((value,), weight) for value, weight in _support(law)]
        denominator = law.denominator
    elif plan.lowest == 0:
        if settle is not None:
            settled = {size: settle(law) for size, law in by_size.items()}
            laws = [settled[size] for size in plan.slots]
        if totals and all(law == laws[0] for law in laws):
            groups, denominator = _convolved(laws[0], counted, plan, problem)
            return _by_totals(search, groups, denominator, plan)
        classes, denominator = _all_counted(laws, problem)
    else:
        if all(law == laws[0] for law in laws):
            classes, denominator = _top_equal(laws[0], len(laws), counted, problem)
        else:
            classes, denominator = _top_fold(laws, counted, problem)
    if totals:
        examples: dict[int, tuple[int, ...]] = {}
        by_total = Totals(counted, examples.__getitem__)
        for values, ways in classes:
            total = sum(values)
            found = by_total.alike if len(values) >= 2 and min(values) == max(values) else by_total.unlike
            if found is by_total.unlike:
                examples.setdefault(total, values)
            found[total] = found.get(total, 0) + ways
        return _by_totals(search, by_total, denominator, plan)
    out: dict[Summary, Fraction] = {}
    for values, ways in classes:
        for summary, p in search.distribution(_prefix(values, plan), Fraction(ways, denominator)).items():
            out[summary] = out.get(summary, Fraction(0)) + p
    return weighted(out)


# -- the policy, asked -----------------------------------------------------------------------------


def _keep(chooser: PolicyChooser) -> Keep:
    """Which die of a group the policy keeps, asked of the policy on two probes (a pick made by
    position keeps a die whose law is a lone die's)."""
    options = ("first", "second")
    up = chooser.decide(Decision(Ask.PICK_ONE, Topic.KEEP, YOU, "Keep which?", options, (1.0, 2.0)))
    down = chooser.decide(Decision(Ask.PICK_ONE, Topic.KEEP, YOU, "Keep which?", options, (2.0, 1.0)))
    if (up, down) == (1, 0):
        return Keep.HIGHEST
    if (up, down) == (0, 1):
        return Keep.LOWEST
    return Keep.FIRST


def _pair(holders: Sequence[Holder[EffectBase]]) -> PairEachDie | None:
    for holder in holders:
        if holder.effect.transform() is Transform.KEPT_OF_GROUP and isinstance(holder.effect, PairEachDie):
            return holder.effect
    return None


def _kept(sides: int, size: int, keep: Keep, pair: PairEachDie | None) -> Law:
    law = Law.uniform(sides)
    if size == 1 or pair is None:
        return law
    return pair.kept(law, size, keep)


# -- rerolls -----------------------------------------------------------------------------------------


class _Settle:
    """A counted die's law mapped through one reroll permission (a mixture)."""

    def __init__(self, permission: RerollPermission, new: Law, die: Die) -> None:
        self.permission = permission
        self.new = new
        self.die = die

    def __call__(self, law: Law) -> Law:
        settled = self.permission.settle(law, self.new, self.die)
        if settled is None:
            raise RollLimitError(
                "odds: every new roll meets the reroll condition again, so the rerolls never stop; "
                "decline the reroll (policy decline)"
            )
        return settled


def _settler(
    problem: Problem, holder: Holder[EffectBase], die: Die, keep: Keep, pair: PairEachDie | None
) -> tuple[bool, _Settle | None]:
    """Whether the permission folds, and its reroll map (``None`` when the policy never uses it)."""
    permission = holder.effect
    if not isinstance(permission, RerollPermission) or not holder.sees(YOU):
        return False, None
    chooser = problem.chooser
    assert isinstance(chooser, PolicyChooser)
    # RerollPermission asks a yes/no without values: what the policy answers, it answers every time.
    if not chooser.decide(Decision(Ask.YES_NO, Topic.REROLL, YOU, "Reroll?", ("no", "yes"))):
        return True, None
    # CR 706.2b, docs/design.md §5: a reroll is a new roll of that die; the replacements meet it again.
    single = RollInstruction(Amount(1), die)
    one = plan_of(single, board=problem.board, chooser=chooser, amounts=problem.amounts, turn=problem.turn)
    if one.chosen or len(one.slots) - one.lowest != 1 or die.sides is None:
        return False, None
    new = _highest([_kept(die.sides, size, keep, pair) for size in one.slots])
    return True, _Settle(permission, new, die)


# -- the counted dice ------------------------------------------------------------------------------


def _highest(laws: Sequence[Law]) -> Law:
    """The highest of independent dice: P(max <= v) is the product of their distribution functions."""
    if len(laws) == 1:
        return laws[0]
    if all(law == laws[0] for law in laws):
        return laws[0].highest_of(len(laws))
    low = min(law.low for law in laws)
    high = max(law.high for law in laws)
    denominator = math.prod(law.denominator for law in laws)
    cumulative = [0] * len(laws)
    previous = 0
    weights = []
    for value in range(low, high + 1):
        product = 1
        for position, law in enumerate(laws):
            index = value - law.low
            if 0 <= index < len(law.weights):
                cumulative[position] += law.weights[index]
            product *= cumulative[position]
        weights.append(product - previous)
        previous = product
    return Law(low, tuple(weights), denominator)


def _support(law: Law) -> list[tuple[int, int]]:
    return [(value, weight) for value, weight in zip(law.values(), law.weights, strict=True) if weight]


def _check(count: int, problem: Problem, what: str) -> None:
    if count > MAX_CLASSES:
        raise RollLimitError(
            f"odds: {what} has {count} classes of counted dice, more than the limit of {MAX_CLASSES} the exact "
            "odds compose; use mtgdice simulate for this roll"
        )
    problem.meter.check_cells(count, what)


def _alone(total: int) -> tuple[int, ...]:
    """The one counted value that has this total."""
    return (total,)


def _convolved(law: Law, count: int, plan: RollPlan, problem: Problem) -> tuple[Totals, int]:
    """Totals of ``count`` dice of ``law`` and whether all are alike: the ways to each total by
    convolution, the alike ones apart (``w(v) ** count`` at ``count * v``); a roll standing for a
    class that is not alike is found only when ``resolve`` needs one (:func:`_unlike`)."""
    support = _support(law)
    cells = count * (law.high - law.low + 1) * count
    if cells > min(MAX_CLASSES, problem.meter.budget.cells):  # the message is made only when it is needed
        _check(cells, problem, f"the totals of {count} {plan.die.name}")
    totals = Totals(count, partial(_unlike, count=count, reach=[], support=support))
    weight_of = dict(support)
    summed = law.sum_of(count)  # the ways to each total (Law.sum_of: one integer power)
    for total, ways in zip(summed.values(), summed.weights, strict=True):
        if not ways:
            continue
        alike = total // count if count >= 2 and total % count == 0 and total // count in weight_of else None
        if alike is not None:
            same = weight_of[alike] ** count
            totals.alike[total] = same
            ways -= same
        if ways:
            totals.unlike[total] = ways
    return totals, law.denominator**count


def _unlike(total: int, count: int, reach: list[Container[int]], support: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """``count`` values of the support summing to ``total``, not all alike (one exists: the class
    has ways). The first value differs from the mean; the rest follow any reachable path.
    ``reach[k]``, the totals ``k`` dice can show, is filled on the first call."""
    if not reach:
        values = [value for value, _ in support]
        if values == list(range(values[0], values[-1] + 1)):  # no gaps: every total between the extremes
            reach.extend(range(k * values[0], k * values[-1] + 1) for k in range(count))
        else:
            level = {0}
            reach.append(level)
            for _ in range(count - 1):
                level = {reached + value for reached in level for value in values}
                reach.append(level)
    chosen: list[int] = []
    remaining = total
    for left in range(count, 0, -1):
        for value, _ in support:
            if remaining - value in reach[left - 1] and (left < count or count < 2 or value * count != total):
                chosen.append(value)
                remaining -= value
                break
    return tuple(chosen)


def _by_totals(search: Search, totals: Totals, denominator: int, plan: RollPlan) -> Weighted | None:
    """Summaries per class of totals, with one run of ``resolve`` per table row reached, alike or not.

    Used only when nothing reads one die (``TOTALS_SAFE``): an execution then depends on the counted
    dice through their total (CR 706.3a) and whether they are alike (CR 706.5). The first run finds
    the modifiers the counted dice get (CR 706.2, ``SHIFT``); a row's run confirms its row and value,
    and the other totals of that row take its summary with their own value. ``None`` when a run
    disagrees (the caller then takes the other paths).
    """
    table = search.problem.instruction.table
    by_row: dict[tuple[int | None, bool], Summary] = {}
    shift = 0
    ran = False
    kinds = ((False, totals.unlike), (True, totals.alike))
    # The runs go from the highest class down: there the ignored dice show less than the counted
    # ones, so no run asks for a tie to be broken. Any class of a row stands for the row alike.
    for alike, ways_of in kinds:
        for total in sorted(ways_of, reverse=True):
            prefix = None
            if not ran:
                prefix = _prefix(totals.values(total, alike), plan)
                first = search.outcome(prefix)
                if not isinstance(first, Summary) or not isinstance(first.value, int):
                    return None
                shift = first.value - total  # the modifiers of the counted dice (CR 706.2)
                ran = True
            value = total + shift
            key = (table.row_for(value) if table is not None else None, alike)
            if key not in by_row:
                summary = search.outcome(prefix or _prefix(totals.values(total, alike), plan))
                if not isinstance(summary, Summary) or summary.value != value or summary.row != key[0]:
                    return None
                by_row[key] = summary
    counts: dict[Summary, int] = {}
    for total, ways in totals.unlike.items():  # one value each: no two of them share a summary
        value = total + shift
        template = by_row[(table.row_for(value) if table is not None else None, False)]
        counts[template if template.value == value else template.with_value(value)] = ways
    for total, ways in totals.alike.items():
        value = total + shift
        template = by_row[(table.row_for(value) if table is not None else None, True)]
        summary = template if template.value == value else template.with_value(value)
        counts[summary] = counts.get(summary, 0) + ways
    return counts, denominator


def _multisets(support: Sequence[tuple[int, int]], count: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Each multiset of ``count`` independent dice of one law and its weight (multinomial)."""
    factorial = math.factorial(count)
    for combo in combinations_with_replacement(range(len(support)), count):
        ways = factorial
        weight = 1
        run = 0
        for position, index in enumerate(combo):
            run = run + 1 if position and combo[position - 1] == index else 1
            ways //= run
            weight *= support[index][1]
        yield tuple(support[index][0] for index in combo), ways * weight


def _all_counted(laws: Sequence[Law], problem: Problem) -> tuple[Classes, int]:
    """Every die counts: the multiset of their values."""
    denominator = math.prod(law.denominator for law in laws)
    if all(law == laws[0] for law in laws):
        support = _support(laws[0])
        _check(math.comb(len(support) + len(laws) - 1, len(laws)), problem, f"{len(laws)} dice")
        return list(_multisets(support, len(laws))), denominator
    return _top_fold(laws, len(laws), problem)


def _top_equal(law: Law, dice: int, kept: int, problem: Problem) -> tuple[Classes, int]:
    """The ``kept`` highest of ``dice`` independent dice of one law, per multiset, in closed form
    (:meth:`Law.top_multisets`)."""
    support = _support(law)
    _check(math.comb(len(support) + kept - 1, kept), problem, f"the {kept} highest of {dice} dice")
    out: Classes = list(law.top_multisets(dice, kept))
    return out, law.denominator**dice


def _top_fold(laws: Sequence[Law], kept: int, problem: Problem) -> tuple[Classes, int]:
    """The ``kept`` highest of independent dice of different laws: a fold over the dice keeping the
    top multiset so far."""
    states: dict[tuple[int, ...], int] = {(): 1}
    for law in laws:
        support = _support(law)
        new: dict[tuple[int, ...], int] = {}
        for top, ways in states.items():
            for value, weight in support:
                key = tuple(sorted(top + (value,)))[-kept:]
                new[key] = new.get(key, 0) + ways * weight
        _check(len(new), problem, f"the {kept} highest of {len(laws)} dice")
        states = new
    return list(states.items()), math.prod(law.denominator for law in laws)


def _prefix(values: Sequence[int], plan: RollPlan) -> tuple[int, ...]:
    """A first roll whose counted dice show ``values``: the ignored slots show the lowest face,
    every die of a counted slot shows that slot's value (so any kept choice keeps it)."""
    faces: list[int] = []
    ignored = plan.lowest
    order = sorted(values)
    for position, size in enumerate(plan.slots):
        value = 1 if position < ignored else order[position - ignored]
        faces.extend((value,) * size)
    return tuple(faces)
