"""Fast paths for one execution's distribution, chosen by footprints and evaluated through ``resolve``.

Every path counts *how many* face sequences lead to what ``resolve`` is then shown; which row,
which result, doubles, triggers and outcomes always come from running ``resolve`` itself on a
representative sequence. A path is taken only when the footprint of every effect on the board and
of the instruction is inside what the path relies on (:mod:`mtgdice.rules.footprint`); anything
else returns ``None`` and the caller enumerates every face sequence (``enumerate``). The plan of
the first physical roll — how many dice stand for each die of the instruction, how many of the
lowest are ignored — comes from the rules' own replacement window (:func:`mtgdice.rules.plan_of`).

Two stages. First, what each die of the instruction (a *slot*) comes to, as a law: each value it
can count as, how many ways, and a fragment of faces that gets there:

- a lone die: each face, equally likely (the planar die: 1/6 chaos, 1/6 planeswalk, 4/6 blank);
- a group (``GROUPS``: a die and its partners, the roller keeping one): ``resolve`` is run on one
  group alone for every way its dice can fall, and the die it keeps is read off the record (relies
  on the group's decision depending on that group only: a stateless policy, ``GROUPS_SAFE``);
- a die that rerolls settle (``DROPPABLE_REROLL`` permissions only, nothing ignored): ``resolve``
  is run on one die alone with just those permissions (the enumeration closes reroll loops
  exactly), and the permissions are then left off the board — the dice settle independently.

Second, the slots counted together, smallest path first:

- **totals** (``TOTALS_SAFE``: nothing reads one die, every die gets the same modifiers): the ways
  to reach each total and whether all dice are alike (CR 706.3a, 706.5) — by sliding sums for equal
  faces, by convolution otherwise, or in closed form for the highest of many equal dice
  (``IGNORES_LOWEST``: lowest by face); ``resolve`` runs once per table row a total reaches and
  confirms it, all-alike dice apart;
- **kept dice** (``MULTISET_SAFE``, the highest of many equal dice): each multiset of counted dice,
  with the number of sequences giving it in closed form;
- **multisets** (``MULTISET_SAFE``: only the multiset of faces matters): each multiset of slot
  values, weighted by its multinomial count; rerolls that are not droppable branch by enumeration
  from there, with nodes in the same state shared.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations_with_replacement, product

from mtgdice.odds.enumerate import Problem, Search, Summary, face_weights
from mtgdice.rules import (
    Amount,
    Board,
    Die,
    EffectBase,
    Face,
    Footprint,
    PairEachDie,
    Permanent,
    PolicyChooser,
    RollInstruction,
    RollPlan,
    plan_of,
)
from mtgdice.rules.footprint import (
    DROPPABLE_REROLL,
    GROUPS_SAFE,
    INDEPENDENT_SAFE,
    MULTISET_SAFE,
    TOTALS_SAFE,
)
from mtgdice.rules.transforms import Law as DieLaw

MAX_KEPT = 40_000
"""Largest number of multisets of counted dice the multiset paths enumerate."""


@dataclass(frozen=True, slots=True)
class Law:
    """What one slot can come to: ``(value, ways, fragment)`` with ``ways`` out of ``denominator``.

    ``value`` is the face the slot counts as; ``fragment`` is a run of faces that gets there.
    ``uniform`` marks a lone numbered die (faces 1..sides, one way each).
    """

    outcomes: tuple[tuple[Face, int, tuple[Face, ...]], ...]
    denominator: int
    uniform: bool = False


def fast_distribution(problem: Problem) -> tuple[dict[Summary, Fraction], str] | None:
    """One execution's distribution by the fastest path that applies, or ``None`` if none does."""
    instruction = problem.instruction
    if not isinstance(problem.chooser, PolicyChooser) or instruction.reroll_stored:
        return None
    footprint = problem.board.footprint() | instruction.footprint()
    if not footprint.within(MULTISET_SAFE | Footprint.GROUPS | Footprint.STORED):
        return None
    plan = plan_of(
        instruction, board=problem.board, chooser=problem.chooser, amounts=problem.amounts, turn=problem.turn
    )
    if plan.dice_count == 0 or plan.chosen:
        return None
    footprint &= ~Footprint.STORED  # storing results happens after the execution (CR 706.8a)
    die = plan.die
    if die.sides is not None:  # every path holds at least a value per face and die
        problem.meter.check_cells(len(plan.slots) * die.sides, f"{len(plan.slots)} {die.name}")
    reduced = problem
    if Footprint.REROLLS in footprint:
        settled = _settled(problem, plan, footprint)
        if settled is None:
            if Footprint.GROUPS in footprint or not footprint.within(MULTISET_SAFE):
                return None
            search = Search(problem, plan.dice_count, keyed=Footprint.ADDS_DICE not in footprint)
            laws = {1: _lone(die, problem)}
            if _multisets(laws, plan) > MAX_KEPT:
                return None
            return _by_multisets(search, laws, plan), "multisets"
        law, reduced = settled
        footprint = reduced.board.footprint() | instruction.footprint()
        laws = {1: law}
        method = "settled dice"
    elif Footprint.GROUPS in footprint:
        if not footprint.within(GROUPS_SAFE):
            return None
        grouped = _group_laws(problem, plan)
        if grouped is None:
            return None
        laws, method = grouped, "groups"
        footprint &= ~Footprint.GROUPS  # each group is now one die with a law of its own
    else:
        laws, method = {1: _lone(die, problem)}, ""
    search = Search(reduced, plan.dice_count)
    counted = len(plan.slots) - plan.lowest
    if die.sides is not None and footprint.within(TOTALS_SAFE) and counted >= 1:
        groups = _total_groups(laws, plan, problem)
        if groups is not None:
            found = _by_rows(search, groups)
            if found is not None:
                return found, method or "totals"
    if footprint.within(MULTISET_SAFE):
        only = laws.get(1)
        if only is not None and only.uniform and set(plan.slots) == {1} and plan.lowest and die.sides is not None:
            if math.comb(die.sides + counted - 1, counted) <= MAX_KEPT:
                return _by_kept(search, die.sides, plan.dice_count, counted), method or "kept dice"
        if _multisets(laws, plan) <= MAX_KEPT:
            return _by_multisets(search, laws, plan), method or "multisets"
    return None


# -- stage one: what each slot comes to ---------------------------------------------------------


def _lone(die: Die, problem: Problem) -> Law:
    if die.sides is not None:  # CR 706.1a: faces 1..sides, one way each
        problem.meter.check_cells(3 * die.sides, f"the faces of a {die.name}")
        return Law(tuple((face, 1, (face,)) for face in range(1, die.sides + 1)), die.sides, uniform=True)
    weights = face_weights(die, problem.meter)
    denominator = math.lcm(*(weight.denominator for _, weight in weights))
    return Law(
        tuple((face, int(weight * denominator), (face,)) for face, weight in weights),
        denominator,
        uniform=die.sides is not None,
    )


def _is_reroll(effect: EffectBase) -> bool:
    return Footprint.REROLLS in effect.footprint()


def _settled(problem: Problem, plan: RollPlan, footprint: Footprint) -> tuple[Law, Problem] | None:
    """The law of one die that droppable rerolls settle, and the problem without them (or None)."""
    die = plan.die
    if die.sides is None or plan.lowest or set(plan.slots) != {1}:
        return None
    rerolls = [holder.effect for holder in problem.board.holders() if _is_reroll(holder.effect)]
    if not all(effect.footprint().within(DROPPABLE_REROLL) for effect in rerolls):
        return None
    reduced = replace(problem, board=problem.board.keeping(lambda effect: not _is_reroll(effect)))
    if not (reduced.board.footprint() | problem.instruction.footprint()).within(INDEPENDENT_SAFE):
        return None
    alone = replace(problem, instruction=RollInstruction(Amount(1), die), board=problem.board.keeping(_is_reroll))
    ways: dict[int, Fraction] = {}
    for summary, p in Search(alone, 1, keyed=True).distribution().items():
        if not isinstance(summary.value, int):
            return None
        ways[summary.value] = ways.get(summary.value, Fraction(0)) + p
    denominator = math.lcm(*(p.denominator for p in ways.values()))
    outcomes = tuple((face, int(ways[face] * denominator), (face,)) for face in sorted(ways))
    return Law(outcomes, denominator), reduced


def _group_laws(problem: Problem, plan: RollPlan) -> dict[int, Law] | None:
    """For each group size of the plan, which die a group keeps, by ``resolve`` on one group alone."""
    die = plan.die
    faces = face_weights(die, problem.meter)
    laws: dict[int, Law] = {}
    for size in sorted(set(plan.slots)):
        if size == 1:
            laws[size] = _lone(die, problem)
            continue
        if size * math.log(len(faces)) > math.log(problem.meter.budget.runs):
            return None
        partners = Permanent("~", tuple(PairEachDie() for _ in range(size - 1)))
        alone = replace(
            problem, instruction=RollInstruction(Amount(1), die), board=Board.from_zones(battlefield=(partners,))
        )
        kept: dict[Face, tuple[Face, ...]] = {}
        weights: dict[Face, Fraction] = {}
        for combo in product(faces, repeat=size):
            fragment = tuple(face for face, _ in combo)
            weight = math.prod((p for _, p in combo), start=Fraction(1))
            counted = [roll for roll in alone.run(fragment).executions[0].dice if roll.counted]
            if len(counted) != 1:
                return None
            face = counted[0].face
            weights[face] = weights.get(face, Fraction(0)) + weight
            kept.setdefault(face, fragment)
        denominator = math.lcm(*(w.denominator for w in weights.values()))
        laws[size] = Law(
            tuple((face, int(weights[face] * denominator), kept[face]) for face in weights),
            denominator,
        )
    return laws


# -- stage two: the slots together ------------------------------------------------------------


def _classes(laws: dict[int, Law], plan: RollPlan) -> list[tuple[Law, list[int]]]:
    """The slots grouped by law: each law with the slot positions that follow it."""
    classes: dict[int, list[int]] = {}
    for position, size in enumerate(plan.slots):
        classes.setdefault(size, []).append(position)
    return [(laws[size], positions) for size, positions in classes.items()]


def _multisets(laws: dict[int, Law], plan: RollPlan) -> int:
    return math.prod(
        math.comb(len(law.outcomes) + len(positions) - 1, len(positions)) for law, positions in _classes(laws, plan)
    )


def _class_multisets(law: Law, slots: int) -> Iterator[tuple[tuple[tuple[Face, ...], ...], int]]:
    """Each multiset of ``slots`` outcomes of ``law``: their fragments and the ways to get them."""
    factorial = math.factorial(slots)
    for combo in combinations_with_replacement(range(len(law.outcomes)), slots):
        ways = factorial
        run = 0
        for position, index in enumerate(combo):
            run = run + 1 if position and combo[position - 1] == index else 1
            ways = ways // run * law.outcomes[index][1]
        yield tuple(law.outcomes[index][2] for index in combo), ways


def _weighted_multisets(laws: dict[int, Law], plan: RollPlan) -> Iterator[tuple[tuple[Face, ...], int, int]]:
    """Each multiset of slot values over every class: a representative sequence of faces, its
    ways and the denominator they are out of."""
    classes = _classes(laws, plan)
    denominator = math.prod(law.denominator ** len(positions) for law, positions in classes)
    for picks in product(*(list(_class_multisets(law, len(positions))) for law, positions in classes)):
        fragments: list[tuple[Face, ...]] = [()] * len(plan.slots)
        ways = 1
        for (_, positions), (chosen, count) in zip(classes, picks, strict=True):
            ways *= count
            for position, fragment in zip(positions, chosen, strict=True):
                fragments[position] = fragment
        yield tuple(face for fragment in fragments for face in fragment), ways, denominator


def _by_multisets(search: Search, laws: dict[int, Law], plan: RollPlan) -> dict[Summary, Fraction]:
    out: dict[Summary, Fraction] = {}
    for prefix, ways, denominator in _weighted_multisets(laws, plan):
        _add(out, search.distribution(prefix, Fraction(ways, denominator)))
    return out


def _add(out: dict[Summary, Fraction], more: dict[Summary, Fraction]) -> None:
    for summary, p in more.items():
        out[summary] = out.get(summary, Fraction(0)) + p


def _kept_multisets(sides: int, first: int, kept: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Each multiset of the ``kept`` highest of ``first`` equal dice and how many sequences give it
    (``IGNORES_LOWEST``: the ignored dice are the lowest by face), from the order statistic the rules
    define (:meth:`~mtgdice.rules.transforms.Law.top_multisets`).

    >>> sorted(_kept_multisets(2, 2, 1))
    [((1,), 1), ((2,), 3)]
    """
    return DieLaw.uniform(sides).top_multisets(first, kept)


def _by_kept(search: Search, sides: int, first: int, kept: int) -> dict[Summary, Fraction]:
    out: dict[Summary, Fraction] = {}
    denominator = sides**first
    for combo, ways in _kept_multisets(sides, first, kept):
        prefix = (combo[0],) * (first - kept) + combo
        _add(out, search.distribution(prefix, Fraction(ways, denominator)))
    return out


Groups = dict[tuple[int, int | None], tuple[int, tuple[Face, ...]]]
"""(natural total of the counted dice, the face if all of them show it) -> (ways, a sequence)."""


@dataclass(frozen=True, slots=True)
class TotalGroups:
    groups: Groups
    denominator: int


def _total_groups(laws: dict[int, Law], plan: RollPlan, problem: Problem) -> TotalGroups | None:
    die = plan.die
    assert die.sides is not None
    slots = len(plan.slots)
    counted = slots - plan.lowest
    only = laws.get(1)
    # Work and memory grow with the dice times the totals they can reach.
    problem.meter.check_cells(slots * slots * die.sides, f"counting the totals of {slots} {die.name}")
    if only is not None and only.uniform and set(plan.slots) == {1}:
        if plan.lowest == 0:
            return TotalGroups(_totals(die.sides, slots), die.sides**slots)
        if math.comb(die.sides + counted - 1, counted) <= MAX_KEPT:
            return TotalGroups(_kept_totals(die.sides, slots, counted), die.sides**slots)
        return None
    if plan.lowest == 0 and len(set(plan.slots)) == 1:
        law = laws[plan.slots[0]]
        return TotalGroups(_convolved(law, slots), law.denominator**slots)
    return None


def _total_counts(sides: int, first: int) -> list[int]:
    """How many sequences of ``first`` dice have each total (index = total), by sliding sums."""
    counts = [1]
    for _ in range(first):
        new = [0] * (len(counts) + sides)
        window = 0
        for total in range(1, len(new)):
            if total - 1 < len(counts):
                window += counts[total - 1]
            if total - 1 - sides >= 0 and total - 1 - sides < len(counts):
                window -= counts[total - 1 - sides]
            new[total] = window
        counts = new
    return counts


def _unlike(total: int, sides: int, first: int) -> tuple[int, ...] | None:
    """A sequence of ``first`` faces with this total that are not all alike, if there is one.

    The faces are filled greedily from the first (``sides, ..., sides, r, 1, ..., 1``): with two or
    more dice that is all alike only at the two extreme totals (all 1s, all ``sides``), the only
    totals no sequence of unlike faces reaches.

    >>> _unlike(6, 6, 2), _unlike(12, 6, 2), _unlike(7, 6, 3)
    ((5, 1), None, (5, 1, 1))
    """
    faces = [1] * first
    remaining = total - first
    for position in range(first):
        step = min(sides - 1, remaining)
        faces[position] += step
        remaining -= step
    if first >= 2 and len(set(faces)) == 1:
        return None
    return tuple(faces)


def _kept_totals(sides: int, first: int, kept: int) -> Groups:
    groups: Groups = {}
    for combo, ways in _kept_multisets(sides, first, kept):
        alike = combo[0] if kept >= 2 and combo[0] == combo[-1] else None
        key = (sum(combo), alike)
        known = groups.get(key)
        if known is None:
            groups[key] = (ways, (combo[0],) * (first - kept) + combo)
        else:
            groups[key] = (known[0] + ways, known[1])
    return groups


def _totals(sides: int, first: int) -> Groups:
    groups: Groups = {}
    for total, ways in enumerate(_total_counts(sides, first)):
        alike = total // first if total % first == 0 and 1 <= total // first <= sides and first >= 2 else None
        if ways - (alike is not None):
            prefix = _unlike(total, sides, first)
            assert prefix is not None
            groups[(total, None)] = (ways - (alike is not None), prefix)
        if alike is not None:
            groups[(total, alike)] = (1, (alike,) * first)
    return groups


def _convolved(law: Law, slots: int) -> Groups:
    """Totals of ``slots`` dice following ``law`` by convolution, each state keeping whether all its
    dice are alike so far and one sequence of fragments that reaches it."""
    start: tuple[int, int | None] = (0, None)
    states: dict[tuple[int, int | None], tuple[int, tuple[Face, ...]]] = {start: (1, ())}
    for step in range(slots):
        new: dict[tuple[int, int | None], tuple[int, tuple[Face, ...]]] = {}
        for (total, alike), (ways, sequence) in states.items():
            for value, count, fragment in law.outcomes:
                assert isinstance(value, int)
                key: tuple[int, int | None]
                if step == 0:
                    key = (value, value)
                else:
                    key = (total + value, alike if alike == value else None)
                known = new.get(key)
                new[key] = (ways * count, sequence + fragment) if known is None else (known[0] + ways * count, known[1])
        states = new
    if slots < 2:
        return {(total, None): found for (total, _), found in states.items()}
    return states


def _by_rows(search: Search, found: TotalGroups) -> dict[Summary, Fraction] | None:
    """Evaluate the groups with one run of ``resolve`` per table row, all alike or not (doubles).

    Used only when nothing reads one die's value (``TOTALS_SAFE``): then an execution's summary
    depends on the counted dice through their total (the table reads the total, CR 706.3a) and
    whether they are all alike (doubles, CR 706.5). ``resolve`` runs once per row that some total
    reaches, and confirms the row and the total; the other totals in that row take its summary
    with their own value. ``None`` when a run disagrees (the caller then enumerates).
    """
    table = search.problem.instruction.table
    counts: dict[Summary, int] = {}
    by_row: dict[tuple[int | None, bool], Summary] = {}
    shift: int | None = None
    for (total, alike), (ways, prefix) in found.groups.items():
        if shift is None:
            first = search.outcome(prefix)
            if not isinstance(first, Summary) or not isinstance(first.value, int):
                return None
            shift = first.value - total  # the modifiers of the counted dice (CR 706.2)
        value = total + shift
        row = table.row_for(value) if table is not None else None
        template = by_row.get((row, alike is not None))
        if template is None:
            summary = search.outcome(prefix)
            if not isinstance(summary, Summary) or summary.value != value or summary.row != row:
                return None
            by_row[(row, alike is not None)] = template = summary
        else:
            summary = template.with_value(value)
        counts[summary] = counts.get(summary, 0) + ways
    return {summary: Fraction(ways, found.denominator) for summary, ways in counts.items()}
