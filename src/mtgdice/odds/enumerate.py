"""Brute force over faces: ``resolve(..., limit=1)`` run on every face sequence, with its weight.

This is the oracle the rest of :mod:`mtgdice.odds` is checked against, and the general path the
odds engine falls back to. A :class:`_PrefixSource` hands ``resolve`` a prefix of faces and stops
it (by raising :class:`_Branch`) at the first draw past the prefix; the search then re-runs the
resolution once per face of that die, depth first. The weight of a leaf is the product of
``1/len(die.faces)`` over its draws (the planar die's faces tuple has four blanks, CR 901.3).

Rerolls can go on without bound ("if you roll a 3, you may reroll that die" may meet another 3).
A rerolled roll "essentially never happened" (Unfinity ruling), so a reroll that leads to another
reroll of the same die leaves the resolution where it was: the search checks that up to
:data:`LOOP_DEPTH` draws down (every next face leads to the same summary, or to another draw of
the same die, on both sides, with at least one summary) and closes the loop exactly,
``value = sum(kept faces) / (1 - p(loop faces))``. Anything deeper
than :data:`MAX_DEPTH` draws past the first roll is refused with ``RollLimitError``.

This module leaves out which faces to try first (``fast``) and whole resolutions (``chain``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from mtgdice.rules import (
    Board,
    Chooser,
    Die,
    Face,
    Fate,
    Footprint,
    PolicyChooser,
    Resolution,
    RollInstruction,
    TurnState,
    resolve,
)
from mtgdice.rules.budget import CLI_BUDGET, Meter
from mtgdice.rules.errors import RollLimitError
from mtgdice.rules.records import builder, direct_init

MAX_DEPTH = 48
"""Most draws past the first physical roll that the search follows in one execution."""

LOOP_DEPTH = 6
"""At most how many draws deep two prefixes are compared before a reroll loop is closed (the
search compares as deep as the first roll has dice, at least two: that many rerolls may wait)."""

MAX_RUNS = CLI_BUDGET.runs
"""Most runs of ``resolve`` one distribution may take by default (the budget's ``runs``)."""

ResultKey = int | str | None

Weighted = tuple[dict["Summary", int], int]
"""A distribution as ways over one common denominator: exact, and cheaper to add than fractions."""


@direct_init
@dataclass(frozen=True, slots=True)
class Summary:
    """What one execution led to, as the odds engine counts it.

    ``value`` is the counted result (the chosen one when the instruction chooses), the total when
    several dice count, a planar face's name, or ``None`` (no die counted, or a planar die among
    several); ``triggers`` counts triggerings per card, sorted by card; ``again_times`` is how
    many more executions it asks for when ``again``.

    >>> Summary(row=1, rows=None, value=12, doubles=False, again=False).value
    12
    """

    row: int | None
    rows: tuple[int | None, ...] | None
    value: ResultKey
    doubles: bool
    again: bool
    used: frozenset[str] = frozenset()
    triggers: tuple[tuple[str, int], ...] = ()
    outcomes: tuple[int, ...] = ()
    again_times: int = 1
    dice_rolled: int = 0

    def __hash__(self) -> int:
        # Equal summaries have equal values, rows and flags: hashing those is enough, and the odds
        # hash a summary for every class of counted dice.
        return hash((self.value, self.row, self.doubles, self.again))

    @property
    def state(self) -> TurnState:
        """The turn state the next execution starts from (what the roll-again chain is over)."""
        return TurnState(self.used, self.dice_rolled)

    def with_value(self, value: ResultKey) -> Summary:
        """The same execution with another counted ``value`` (positional: on the odds' hot loops
        ``dataclasses.replace`` is several times slower).

        >>> Summary(row=1, rows=None, value=12, doubles=False, again=False).with_value(13).value
        13
        """
        return _SUMMARY(
            self.row,
            self.rows,
            value,
            self.doubles,
            self.again,
            self.used,
            self.triggers,
            self.outcomes,
            self.again_times,
            self.dice_rolled,
        )


_SUMMARY = builder(Summary)


def weighted(distribution: Mapping[Summary, Fraction]) -> Weighted:
    """``distribution`` as ways over the least common denominator of its probabilities.

    >>> one = Summary(None, None, 1, False, False)
    >>> two = Summary(None, None, 2, False, False)
    >>> weighted({one: Fraction(1, 4), two: Fraction(3, 4)})[1]
    4
    """
    denominator = math.lcm(*(p.denominator for p in distribution.values())) if distribution else 1
    return {summary: p.numerator * (denominator // p.denominator) for summary, p in distribution.items()}, denominator


def summarize(resolution: Resolution, position_cap: int = 0) -> Summary:
    """The :class:`Summary` of the one execution of ``resolution`` (run with ``limit=1``).

    ``dice_rolled`` is kept up to ``position_cap`` (the highest "Nth die this turn" any trigger
    asks for): past it, every count of dice rolled this turn behaves the same."""
    execution = resolution.executions[0] if resolution.executions else None
    triggers: tuple[tuple[str, int], ...] = ()
    if resolution.triggers:
        # A plain dict, not a Counter: a Counter's first use in a process pays an ABC check.
        counts: dict[str, int] = {}
        for hit in resolution.triggers:
            counts[hit.card] = counts.get(hit.card, 0) + 1
        triggers = tuple(sorted(counts.items()))
    if execution is None:
        return Summary(
            None, None, None, False, False, resolution.used, triggers, (), 1, min(resolution.dice_rolled, position_cap)
        )
    return Summary(
        execution.row,
        execution.rows,
        execution.tabulated,
        execution.doubles,
        execution.again,
        resolution.used,
        triggers,
        execution.outcomes,
        execution.again_times if execution.again else 1,
        min(resolution.dice_rolled, position_cap),
    )


class _Branch(Exception):
    """Raised by the prefix source at the first draw past its prefix."""

    def __init__(self, die: Die) -> None:
        super().__init__(die.name)
        self.die = die


class _PrefixSource:
    """Faces from a prefix, then a :class:`_Branch` naming the die drawn next."""

    name = "odds"

    def __init__(self, prefix: Sequence[Face]) -> None:
        self._prefix = prefix
        self._position = 0

    def roll(self, die: Die) -> Face:
        if self._position < len(self._prefix):
            face = self._prefix[self._position]
            self._position += 1
            return face
        raise _Branch(die)


_FACE_WEIGHTS: dict[Die, tuple[tuple[Face, Fraction], ...]] = {}
_METER = Meter()


def face_weights(die: Die, meter: Meter | None = None) -> tuple[tuple[Face, Fraction], ...]:
    """Each distinct face of ``die`` with its probability (the planar die's blank: 4/6).

    >>> [str(weight) for _, weight in face_weights(Die(None))]
    ['1/6', '1/6', '2/3']
    """
    known = _FACE_WEIGHTS.get(die)
    if known is None:
        (meter or _METER).check_cells(4 * len(die.faces), f"the faces of a {die.name}")  # four values a face
        counts = Counter(die.faces)
        total = len(die.faces)
        known = tuple((face, Fraction(n, total)) for face, n in counts.items())
        _FACE_WEIGHTS[die] = known
    return known


@dataclass(frozen=True, slots=True)
class Problem:
    """One execution to study: the instruction, its board, decisions, amounts and turn state."""

    instruction: RollInstruction
    source: str
    board: Board
    chooser: Chooser
    amounts: Mapping[str, int]
    turn: TurnState
    players: int = 2
    meter: Meter = field(default_factory=Meter, compare=False)
    position_cap: int = 0

    def run(self, prefix: Sequence[Face]) -> Resolution:
        """``resolve(..., limit=1)`` with ``prefix`` as the faces; raises ``_Branch`` past it."""
        return resolve(
            self.instruction,
            source=self.source,
            dice=_PrefixSource(prefix),
            board=self.board,
            chooser=self.chooser,
            amounts=self.amounts,
            turn=self.turn,
            limit=1,
            players=self.players,
            meter=self.meter,
        )


Outcome = Summary | Die
"""A run's end: a summary (a leaf) or the die it wants drawn next (a branch)."""


class Search:
    """Depth-first search of one execution's outcomes from a given prefix of faces.

    ``first_roll`` is how many draws the first physical roll takes; only draws past it (rerolls)
    can loop. With ``keyed`` (set by the fast paths when the order of faces cannot matter and a
    reroll is one die), a node past the first roll is known by its *state*: the faces of its
    draws that still count or are ignored (a rerolled roll never happened) and how many draws it
    still waits for. ``resolve`` itself reports both: the node is completed with a face that
    nothing rerolls, and the record says which of the node's dice count and how many more were
    drawn. Nodes in the same state share one distribution; a draw that leads back to the same
    state is a loop.
    """

    def __init__(self, problem: Problem, first_roll: int = 0, keyed: bool = False) -> None:
        self.problem = problem
        self.first_roll = first_roll
        self.keyed = keyed
        self.runs = 0
        self._cache: dict[tuple[Face, ...], Outcome] = {}
        self._memo: dict[Hashable, dict[Summary, Fraction]] = {}
        self._filler: Face | None = None
        self._probes: dict[tuple[Face, ...], tuple[Outcome, Hashable | None]] = {}

    def outcome(self, prefix: tuple[Face, ...]) -> Outcome:
        known = self._cache.get(prefix)
        if known is not None:
            return known
        self._count_run()
        try:
            result: Outcome = summarize(self.problem.run(prefix), self.problem.position_cap)
        except _Branch as branch:
            result = branch.die
        if len(self._cache) < 200_000:
            self._cache[prefix] = result
        return result

    def _count_run(self) -> None:
        self.runs += 1
        self.problem.meter.spend_runs()

    def distribution(self, prefix: tuple[Face, ...] = (), weight: Fraction = Fraction(1)) -> dict[Summary, Fraction]:
        """Every summary reachable from ``prefix``, with its probability times ``weight``."""
        return {summary: p * weight for summary, p in self._node(prefix).items()}

    def _node(self, prefix: tuple[Face, ...]) -> dict[Summary, Fraction]:
        """The distribution of summaries given that the first draws were ``prefix``."""
        past_first = len(prefix) >= self.first_roll
        keyed = self.keyed and past_first
        outcome, key = self._probe(prefix) if keyed else (self.outcome(prefix), None)
        if isinstance(outcome, Summary):
            return {outcome: Fraction(1)}
        die = outcome
        if len(prefix) - self.first_roll > MAX_DEPTH:
            raise RollLimitError(
                f"odds: more than {MAX_DEPTH} draws past the first roll in one execution; "
                "the rerolls do not settle, so the odds are not solved exactly; estimate it with 'mtgdice simulate'"
            )
        if key is not None and key in self._memo:
            return self._memo[key]
        weights = face_weights(die, self.problem.meter)
        out: dict[Summary, Fraction] = {}
        loops = Fraction(0)
        for face, p in weights:
            child = prefix + (face,)
            if past_first:
                if key is not None:
                    child_outcome, child_key = self._probe(child)
                    if not isinstance(child_outcome, Summary) and child_key == key:
                        loops += p
                        continue
                elif self._loops(prefix, child, die, weights):
                    loops += p
                    continue
            for summary, q in self._node(child).items():
                out[summary] = out.get(summary, Fraction(0)) + p * q
        if loops:
            # A reroll that only leads back to the same state: a geometric series, summed exactly.
            scale = 1 / (1 - loops)
            out = {summary: q * scale for summary, q in out.items()}
        if key is not None:
            self._memo[key] = out
        return out

    def _probe(self, prefix: tuple[Face, ...]) -> tuple[Outcome, Hashable | None]:
        """The outcome of a node past the first roll and its state, from one filled run."""
        known = self._probes.get(prefix)
        if known is not None:
            return known
        for filler in self._fillers():
            source = _FillingSource(prefix, filler)
            self._count_run()
            try:
                resolution = resolve(
                    self.problem.instruction,
                    source=self.problem.source,
                    dice=source,
                    board=self.problem.board,
                    chooser=self.problem.chooser,
                    amounts=self.problem.amounts,
                    turn=self.problem.turn,
                    limit=1,
                    players=self.problem.players,
                    meter=self.problem.meter,
                )
            except _Endless:
                self._filler = None
                continue
            self._filler = filler
            if source.next_die is None:
                found: tuple[Outcome, Hashable | None] = (summarize(resolution, self.problem.position_cap), None)
            else:
                execution = resolution.executions[0]
                if any(roll.index >= len(prefix) and not roll.counted for roll in execution.dice):
                    # A filled die was not kept as it is: the state is not this simple.
                    self.keyed = False
                    return self.outcome(prefix), None
                kept = sorted(
                    (repr(roll.face), roll.fate.value)
                    for roll in execution.dice
                    if roll.index < len(prefix) and roll.fate is not Fate.REROLLED
                )
                found = (source.next_die, (tuple(kept), source.filled, resolution.used))
            if len(self._probes) < 200_000:
                self._probes[prefix] = found
            return found
        self.keyed = False
        return self.outcome(prefix), None

    def _fillers(self) -> list[Face]:
        if self._filler is not None:
            return [self._filler]
        die = self.problem.instruction.die_for(dict(self.problem.amounts))
        return [face for face, _ in reversed(face_weights(die))]

    def _loops(
        self, prefix: tuple[Face, ...], child: tuple[Face, ...], die: Die, weights: Sequence[tuple[Face, Fraction]]
    ) -> bool:
        if self.outcome(child) != die:
            return False
        depth = min(LOOP_DEPTH, max(2, self.first_roll))
        same, leaves = self._same(child, prefix, weights, depth)
        return same and leaves > 0

    def _same(
        self, here: tuple[Face, ...], there: tuple[Face, ...], weights: Sequence[tuple[Face, Fraction]], depth: int
    ) -> tuple[bool, int]:
        """Whether the next ``depth`` draws lead to the same outcomes from both prefixes."""
        leaves = 0
        for face, _ in weights:
            a, b = self.outcome(here + (face,)), self.outcome(there + (face,))
            if a != b:
                return False, 0
            if isinstance(a, Summary):
                leaves += 1
            elif depth > 1:
                same, more = self._same(here + (face,), there + (face,), face_weights(a), depth - 1)
                if not same:
                    return False, 0
                leaves += more
        return True, leaves


class _Endless(Exception):
    """The filler face kept being rerolled."""


class _FillingSource:
    """Faces from a prefix, then one filler face for every further draw (counted in ``filled``)."""

    name = "odds"
    limit = 4 * MAX_DEPTH

    def __init__(self, prefix: Sequence[Face], filler: Face) -> None:
        self._prefix = prefix
        self._filler = filler
        self._position = 0
        self.filled = 0
        self.next_die: Die | None = None

    def roll(self, die: Die) -> Face:
        if self._position < len(self._prefix):
            face = self._prefix[self._position]
            self._position += 1
            return face
        self.filled += 1
        if self.next_die is None:
            self.next_die = die
        if self.filled > self.limit:
            raise _Endless(die.name)
        return self._filler


def brute_force(problem: Problem, first_roll: int | None = None) -> dict[Summary, Fraction]:
    """The exact distribution of one execution, by running ``resolve`` over every face sequence.

    >>> from mtgdice.rules import Amount, PolicyChooser
    >>> d6 = RollInstruction(Amount(1), Die(6))
    >>> dist = brute_force(Problem(d6, "~", Board(), PolicyChooser(), {}, TurnState()))
    >>> sorted((s.value, str(p)) for s, p in dist.items())[:2]
    [(1, '1/6'), (2, '1/6')]
    """
    if first_roll is None:
        first_roll = count_first_roll(problem)
    faces = len(problem.instruction.die_for(dict(problem.amounts)).faces)
    runs = problem.meter.budget.runs
    if first_roll * math.log(max(faces, 1)) > math.log(runs):
        raise RollLimitError(
            f"odds: {faces}^{first_roll} face sequences for the first roll alone are more than the {runs} "
            "this roll's decisions let the odds engine enumerate; estimate it with 'mtgdice simulate' instead"
        )
    return Search(problem, first_roll).distribution()


def count_first_roll(problem: Problem) -> int:
    """How many dice the first physical roll of one execution draws, found by running the rules."""
    return first_roll(problem)[0]


def first_roll(problem: Problem) -> tuple[int, int]:
    """How many dice the first physical roll draws and how many of them count, by running the rules.

    Runs ``resolve`` once with every optional reroll declined, so the count includes the dice that
    replacements add ("roll that many dice plus one") and no reroll. The dice show the faces in
    turn (1, 2, 3, ...): equal faces would tie every comparison of players' results, and a tie
    that the instruction rerolls until it is broken would then never end.

    >>> from mtgdice.rules import Amount, PolicyChooser
    >>> two = RollInstruction(Amount(3), Die(20), keep_highest=1)
    >>> first_roll(Problem(two, "~", Board(), PolicyChooser(), {}, TurnState()))
    (3, 1)
    """
    rerolls = Footprint.REROLLS in problem.board.footprint()
    counting = _CountingSource()
    resolution = resolve(
        problem.instruction,
        source=problem.source,
        dice=counting,
        board=problem.board,
        chooser=PolicyChooser("decline") if rerolls else problem.chooser,
        amounts=problem.amounts,
        turn=problem.turn,
        limit=1,
        players=problem.players,
        meter=problem.meter,
    )
    counted = len(resolution.executions[0].counted) if resolution.executions else 0
    return counting.draws, counted


class _CountingSource:
    """Each die's faces in turn, counting the draws."""

    name = "odds"

    def __init__(self) -> None:
        self.draws = 0

    def roll(self, die: Die) -> Face:
        face = die.faces[self.draws % len(die.faces)]
        self.draws += 1
        return face
