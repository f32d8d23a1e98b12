"""Fast paths for one execution's distribution, each evaluated through the same ``resolve``.

When nothing in a roll depends on the order of the faces (no per-die pair, no once-each-turn
reroll that takes the first die in roll order, no optional modifier offered die by die, no
"choose one result", no chosen ignore), the first physical roll of ``K`` identical dice only
matters as a multiset. The paths, by size:

- **settled dice** (every die counts; reroll permissions that meet the new roll too, so a die is
  rerolled until it shows a face nothing rerolls): ``resolve`` says which faces get rerolled and
  confirms one step of the chain; each die then settles uniformly on the other faces, and the
  settled dice are counted like the totals below;
- **multisets** (like icepool): every multiset of ``K`` faces, weighted by its multinomial count,
  evaluated by running ``resolve(..., limit=1)`` on one sorted sequence of it; draws past the
  first roll (rerolls) branch by brute force from there, with nodes in the same state shared;
- **kept dice** (keep highest ``k`` of many, no rerolls): the number of sequences whose counted
  dice are a given multiset ``T`` is counted in closed form; ``resolve`` runs on ``T`` plus the
  ignored dice shown as ``min(T)``;
- **totals** (no rerolls, nothing reads one die's value: no per-die condition, no repeat on a
  result): the counted dice matter only through their total and whether they are all alike, so
  the ways to reach each total are counted (from the kept multisets, or by polynomial powers when
  every die counts); ``resolve`` runs once per table row some total reaches (the row of a total
  is ``ResultsTable.row_for``, the object ``resolve`` reads, and ``resolve`` confirms it on the
  first total of each row), for all-alike dice (doubles, CR 706.5) and the others apart.

None of this is a second copy of the rules: the counting only says *how many* face sequences
share what ``resolve`` is shown; which row, which result, doubles and triggers always come from
``resolve`` itself. Paths apply only under conditions checked on the effect steps
(:class:`mtgdice.rules.Step`) present on the board.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations_with_replacement

from mtgdice.odds.enumerate import Problem, Search, Summary, _Branch, face_weights, first_roll
from mtgdice.rules import ExtraDice, Face, PairEachDie, RerollPermission, ResultModifier, Trigger


def order_free(problem: Problem) -> bool:
    """Whether only the multiset of the first roll's faces matters (see the module docstring)."""
    instruction = problem.instruction
    if instruction.choose or instruction.reroll_stored:
        return False
    for _, _, _, effect in problem.board.active():
        if isinstance(effect, PairEachDie):
            return False
        if isinstance(effect, ExtraDice) and effect.ignore != "lowest":
            return False
        if isinstance(effect, RerollPermission) and effect.once_each_turn and not effect.many:
            return False
        if isinstance(effect, ResultModifier) and effect.optional:
            return False
    return True


def _rerolls(problem: Problem) -> bool:
    return any(isinstance(effect, RerollPermission) for _, _, _, effect in problem.board.active())


def _reads_one_die(problem: Problem) -> bool:
    instruction = problem.instruction
    if instruction.repeat_when is not None or instruction.table_each_result:
        return True
    if any(outcome.condition is not None for outcome in instruction.outcomes):
        return True
    for _, _, _, effect in problem.board.active():
        if isinstance(effect, Trigger) and effect.condition is not None:
            return True  # per die, or a batch trigger when any die meets it
    return False


MAX_KEPT = 40_000
"""Largest number of multisets of counted dice the kept-dice paths enumerate."""


def fast_distribution(problem: Problem) -> tuple[dict[Summary, Fraction], str] | None:
    """One execution's distribution by the fastest path that applies, or ``None`` if none does."""
    if not order_free(problem):
        return None
    die = problem.instruction.die_for(dict(problem.amounts))
    # Past the first roll, a node is known by its state when every reroll is one new die.
    extra = any(isinstance(effect, ExtraDice) for _, _, _, effect in problem.board.active())
    search = Search(problem, 0, keyed=not extra)
    first, counted = first_roll(problem, search)
    search.first_roll = first
    if first == 0:
        return None
    weights = face_weights(die)
    if die.sides is not None and _rerolls(problem) and not extra and counted == first and _settling(problem):
        found = _by_settled_dice(search, die.sides, first, _reads_one_die(problem))
        if found is not None:
            return found, "settled dice"
    if die.sides is None or _rerolls(problem):
        return _by_multisets(search, weights, first), "multisets"
    sides = die.sides
    if counted == 0:
        return None
    kept_multisets = math.comb(sides + counted - 1, counted)
    if _reads_one_die(problem):
        if kept_multisets > MAX_KEPT:
            return None
        return _by_kept(search, sides, first, counted), "kept dice"
    if kept_multisets <= MAX_KEPT:
        groups = _kept_totals(sides, first, counted)
    elif counted == first:
        groups = _totals(sides, first)
    else:
        return None
    return _by_rows(search, groups, sides**first), "totals"


def _settling(problem: Problem) -> bool:
    """Every reroll permission may be used again on the new roll (none is once each turn, many,
    or "once" for its own reroll)."""
    return all(
        not effect.once_each_turn and not effect.many and effect.again
        for _, _, _, effect in problem.board.active()
        if isinstance(effect, RerollPermission)
    )


def _by_settled_dice(search: Search, sides: int, first: int, one_die: bool) -> dict[Summary, Fraction] | None:
    """Rerolls that may go on until a die shows a face nothing rerolls (CR 706.2b).

    Which faces get rerolled is found by running ``resolve`` on a first roll with that face and
    the other dice on a face nothing rerolls; one level of the reroll chain is checked the same
    way (a rerolled face leads to another draw; any other face ends the roll with the new die
    counted as it shows). A rerolled roll never happened (Unfinity ruling) and the permission
    meets the new roll like the first, so each die settles on a face nothing rerolls, every such
    face equally likely, independently of the other dice. The settled dice are then counted like
    a first roll of dice with only those faces, and ``resolve`` gives every summary.
    """
    problem = search.problem
    filler = next((face for face in range(sides, 0, -1) if isinstance(search.outcome((face,) * first), Summary)), None)
    if filler is None:
        return None
    rest = (filler,) * (first - 1)
    rerolled = [face for face in range(1, sides + 1) if not isinstance(search.outcome((face,) + rest), Summary)]
    if not rerolled:
        return None
    kept = [face for face in range(1, sides + 1) if face not in rerolled]
    for face in range(1, sides + 1):
        try:
            resolution = problem.run((rerolled[0],) + rest + (face,))
        except _Branch:
            if face in rerolled:
                continue
            return None
        counted = sorted(roll.face for roll in resolution.executions[0].counted if isinstance(roll.face, int))
        if face in rerolled or counted != sorted(rest + (face,)):
            return None
    width = len(kept)
    multisets = math.comb(width + first - 1, first)
    if one_die or kept[-1] - kept[0] + 1 != width:
        if multisets > MAX_KEPT:
            return None
        out: dict[Summary, Fraction] = {}
        groups: Groups = {}
        factorial = math.factorial(first)
        for combo in combinations_with_replacement(kept, first):
            ways = factorial
            for value in set(combo):
                ways //= math.factorial(combo.count(value))
            if one_die:
                _add(out, search.distribution(combo, Fraction(ways, width**first)))
                continue
            key = (sum(combo), combo[0] if first >= 2 and combo[0] == combo[-1] else None)
            known = groups.get(key)
            groups[key] = (ways, combo) if known is None else (known[0] + ways, known[1])
        return out if one_die else _by_rows(search, groups, width**first)
    # Kept faces in one run low..high: count as dice with faces 1..width, shifted.
    shifted = _kept_totals(width, first, first) if multisets <= MAX_KEPT else _totals(width, first)
    groups = {}
    for (total, alike), (ways, prefix) in shifted.items():
        key = (total + first * (kept[0] - 1), None if alike is None else alike + kept[0] - 1)
        groups[key] = (ways, tuple(face + kept[0] - 1 for face in prefix))
    return _by_rows(search, groups, width**first)


def _add(out: dict[Summary, Fraction], more: dict[Summary, Fraction]) -> None:
    for summary, p in more.items():
        out[summary] = out.get(summary, Fraction(0)) + p


def _by_multisets(search: Search, weights: tuple[tuple[Face, Fraction], ...], first: int) -> dict[Summary, Fraction]:
    out: dict[Summary, Fraction] = {}
    factorial = math.factorial(first)
    for combo in combinations_with_replacement(range(len(weights)), first):
        ways = factorial
        probability = Fraction(1)
        run = 0
        for position, index in enumerate(combo):
            run = run + 1 if position and combo[position - 1] == index else 1
            ways //= run
            probability *= weights[index][1]
        prefix = tuple(weights[index][0] for index in combo)
        _add(out, search.distribution(prefix, probability * ways))
    return out


def _kept_multisets(sides: int, first: int, kept: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Each multiset of the ``kept`` highest of ``first`` dice and how many sequences give it.

    With ``low`` the lowest kept value shown by ``at_low`` kept dice, the dice above it are
    placed among the ``first`` positions; the ``rest`` show at most ``low``, at least ``at_low``
    of them exactly ``low``.

    >>> sorted(_kept_multisets(2, 2, 1))
    [((1,), 1), ((2,), 3)]
    """
    factorial = [math.factorial(n) for n in range(first + 1)]
    tails: dict[tuple[int, int, int], int] = {}
    for combo in combinations_with_replacement(range(1, sides + 1), kept):
        low = combo[0]
        at_low = 1
        while at_low < kept and combo[at_low] == low:
            at_low += 1
        rest = first - kept + at_low
        ways = factorial[first] // factorial[rest]
        run = 1
        for position in range(at_low + 1, kept):
            if combo[position] == combo[position - 1]:
                run += 1
                ways //= run
            else:
                run = 1
        key = (low, rest, at_low)
        tail = tails.get(key)
        if tail is None:
            tail = sum(math.comb(rest, i) * (low - 1) ** (rest - i) for i in range(at_low, rest + 1))
            tails[key] = tail
        yield combo, ways * tail


def _by_kept(search: Search, sides: int, first: int, kept: int) -> dict[Summary, Fraction]:
    out: dict[Summary, Fraction] = {}
    denominator = sides**first
    for combo, ways in _kept_multisets(sides, first, kept):
        prefix = (combo[0],) * (first - kept) + combo
        _add(out, search.distribution(prefix, Fraction(ways, denominator)))
    return out


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
    """A sequence of ``first`` faces with this total that are not all alike, if there is one."""
    faces = [1] * first
    remaining = total - first
    for position in range(first):
        step = min(sides - 1, remaining)
        faces[position] += step
        remaining -= step
    if len(set(faces)) == 1:
        if faces[0] in (1, sides) or first < 2:
            return None
        faces[0] += 1
        faces[1] -= 1
    return tuple(faces)


Groups = dict[tuple[int, int | None], tuple[int, tuple[int, ...]]]
"""(natural total of the counted dice, the face if all of them show it) -> (ways, a sequence)."""


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


def _by_rows(search: Search, groups: Groups, denominator: int) -> dict[Summary, Fraction]:
    """Evaluate the groups with one run of ``resolve`` per table row, all alike or not (doubles).

    Used only when nothing reads one die's value: then an execution's summary depends on the
    counted dice through their total (the table reads the total, CR 706.3a) and whether they are
    all alike (doubles, CR 706.5). ``resolve`` runs once per row that some total reaches; the
    other totals in that row take its summary with their own value; all-alike dice (doubles) are a
    row of their own. The row of a total is found by the table's own ``row_for``; ``resolve``
    checks it on the first total of each row.
    """
    table = search.problem.instruction.table
    counts: dict[Summary, int] = {}
    by_row: dict[tuple[int | None, bool], Summary] = {}
    shift: int | None = None
    for (total, alike), (ways, prefix) in groups.items():
        if shift is None:
            summary = search.outcome(prefix)
            assert isinstance(summary, Summary) and isinstance(summary.value, int)
            shift = summary.value - total  # the modifiers of the counted dice (CR 706.2)
        value = total + shift
        row = table.row_for(value) if table is not None else None
        template = by_row.get((row, alike is not None))
        if template is None:
            summary = search.outcome(prefix)
            assert isinstance(summary, Summary) and summary.value == value and summary.row == row
            by_row[(row, alike is not None)] = template = summary
        else:
            summary = Summary(
                template.row,
                template.rows,
                value,
                template.doubles,
                template.again,
                template.used,
                template.triggers,
                template.outcomes,
            )
        counts[summary] = counts.get(summary, 0) + ways
    return {summary: Fraction(ways, denominator) for summary, ways in counts.items()}
