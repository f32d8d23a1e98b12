"""``mtgdice odds``, ``mtgdice simulate`` and ``mtgdice fairness``: thin shells over
:mod:`mtgdice.odds`, :mod:`mtgdice.sim` and :mod:`mtgdice.fair.selftest` (no rules logic here).

``odds`` reads a request like ``resolve`` (docs/odds.md: the json-interface.md fields without
``dice``, plus ``policy``) from a file or stdin, or takes ``--card`` and board options; it prints
a table of the rows with exact fractions and percents, ``--json`` for programs, and a chart
with ``--plot FILE.png|svg`` (matplotlib, the ``plot`` extra, imported only then). ``simulate``
prints the same kinds of numbers, counted. Long runs show a progress bar when the output is a
terminal. Errors are one line on stderr, exit status 2. This module leaves out the maths.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from mtgdice.cli.common import (
    CONTEXT,
    CardOptions,
    card_options,
    catalog,
    console,
    fail,
    needs_cards,
    out,
    read_request,
)

if TYPE_CHECKING:
    from rich.table import Table
    from rich.text import Text

    from mtgdice.game.request import CardSource
    from mtgdice.io.odds import CoinOdds, DiceOdds
    from mtgdice.io.outcome import JSON, JSONObject
    from mtgdice.odds import Odds
    from mtgdice.odds.coins import CoinOdds as CoinAnswer
    from mtgdice.odds.enumerate import ResultKey
    from mtgdice.rules import DiceSource, Die, RollInstruction, Row
    from mtgdice.rules.coins import FlipInstruction
    from mtgdice.rules.dice import Face
    from mtgdice.sim import Simulation

Counted = TypeVar("Counted", Fraction, int)
"""What a table of results shows of each: a probability or a count."""
Decorated = TypeVar("Decorated", bound=Callable[..., None])

POLICIES = ("decline", "accept", "maximize", "minimize")
POLICY_HELP = "How optional decisions are answered: decline, accept, maximize or minimize."
PROGRESS_FROM = 1_000_000
"""Simulations of this many rolls or more show a progress bar on a terminal."""


def odds_request(
    request: JSONObject, cards: CardSource | None
) -> tuple[str, RollInstruction | FlipInstruction, Odds | CoinAnswer, bool]:
    """Compute the odds of a request object: ``(card name, instruction, Odds, board has choices)``.
    The request is read like ``resolve``'s (an unknown field is refused with the nearest name),
    plus ``policy``.

    >>> name, _, result, choices = odds_request({"text": "Roll a d4.", "name": "Test"}, None)
    >>> result.to_json()["results"]["4"], choices
    ('1/4', False)
    """
    from mtgdice.errors import InputError
    from mtgdice.game.request import prepare
    from mtgdice.io.jsonio import request_from_json
    from mtgdice.odds import odds
    from mtgdice.odds.reading import CHOICES, has_choices

    for field in ("dice", "planar", "coins", "random"):
        if request.get(field):
            raise InputError(field, "odds enumerate every face; leave out dice, planar, coins and random")
    if request.get("choices"):
        raise InputError("choices", "odds answer every decision by a policy; give policy instead of choices")
    policy = request.get("policy", "decline")
    if not isinstance(policy, str) or policy not in POLICIES:
        raise InputError("policy", f"{policy!r} is not a policy; use one of {', '.join(POLICIES)}")
    typed = request_from_json(request, cards, allow=("policy",))
    prepared = prepare(typed, cards)
    if prepared.instruction is None and prepared.flip is not None:  # a coin flip (CR 705)
        from mtgdice.odds.coins import coin_odds

        flipped = coin_odds(
            prepared.flip,
            board=prepared.board,
            policy=policy,
            amounts=prepared.amounts,
            players=typed.players,
            name=prepared.name,
        )
        return prepared.name, prepared.flip, flipped, bool(prepared.board.footprint() & CHOICES)
    if prepared.instruction is None:
        raise InputError("kind", "odds are for dice rolled by the rules: a card, dice or the planar die")
    result = odds(
        prepared.instruction,
        source=prepared.name,
        board=prepared.board,
        policy=policy,
        amounts=prepared.amounts,
        turn=typed.turn,
    )
    return prepared.name, prepared.instruction, result, has_choices(prepared.instruction, prepared.board)


POLICY_WORDS = {
    "decline": "every optional action declined, the first option taken",
    "accept": "every optional action taken, the first option taken",
    "maximize": "the option with the largest result taken; an optional modifier used when it raises the result",
    "minimize": "the option with the smallest result taken; an optional modifier used when it lowers the result",
}
"""What each policy does, in the words the human output uses (docs/odds.md)."""


def each_result(instruction: RollInstruction) -> bool:
    """Whether the instruction's table is read for each counted result (CR 706.3a), not once."""
    return instruction.table is not None and bool(instruction.table_each_result)


def odds_json(
    result: Odds | CoinAnswer, instruction: RollInstruction | FlipInstruction, policy: str
) -> DiceOdds | CoinOdds:
    """The ``odds --json`` object: the :class:`~mtgdice.odds.Odds` fields, the policy, and for a
    table read for each result the chance of at least one die in each row and the expected count.

    >>> from mtgdice.odds import odds
    >>> from mtgdice.rules import Amount, Die, ResultsTable, RollInstruction, Row
    >>> two = RollInstruction(Amount(2), Die(6), table=ResultsTable((Row(2, 2), Row(3, 6))), table_each_result=True)
    >>> data = odds_json(odds(two), two, "decline")
    >>> data.table_read, data.rows_at_least_one, data.rows_expected
    ('each result', ['11/36', '8/9'], ['1/3', '4/3'])
    """
    from msgspec.structs import replace

    from mtgdice.io.odds import DiceOdds, odds_model
    from mtgdice.odds import Odds
    from mtgdice.odds.reading import each_result_rows
    from mtgdice.rules import RollInstruction

    data = odds_model(result.to_json(), policy)
    # No table, or a coin flip (its outcomes are rows of their own): nothing more to say.
    if not isinstance(data, DiceOdds) or not isinstance(result, Odds) or not isinstance(instruction, RollInstruction):
        return data
    if instruction.table is None:
        return data
    if not each_result(instruction):
        return replace(data, table_read="once")
    reading = each_result_rows(result.first, len(instruction.table.rows))
    return replace(
        data,
        table_read="each result",
        rows_at_least_one=[str(p) for p in reading.at_least_one],
        rows_expected=[str(p) for p in reading.expected],
        no_row_at_least_one=str(reading.no_row_at_least_one),
        no_row_expected=str(reading.no_row_expected),
    )


def result_order(value: ResultKey) -> tuple[bool, bool, int, str]:
    """Results in numeric order, then named faces, then no result.

    >>> sorted([10, 2, "chaos", None, 1], key=result_order)
    [1, 2, 10, 'chaos', None]
    """
    return value is None, isinstance(value, str), value if isinstance(value, int) else 0, str(value)


def board_label(request: Mapping[str, JSON]) -> str:
    """The board of a request in a few words, for titles: "with Lucky Sprite, graveyard: Old Spell".

    >>> board_label({"battlefield": ["Lucky Sprite", {"card": "Some Class", "level": 2}], "graveyard": ["Old Spell"]})
    'with Lucky Sprite; Some Class (level 2), graveyard: Old Spell'
    """
    parts = []
    for zone, word in (("battlefield", "with"), ("opponents", "opponents:"), ("graveyard", "graveyard:")):
        names = [_item_label(item) for item in _items(request, zone)]
        if names:
            parts.append(f"{word} {'; '.join(names)}")
    command = [_item_label(item) for item in _items(request, "command")]
    if command:
        parts.append(f"plane: {'; '.join(command)}")
    return ", ".join(parts)


def _items(request: Mapping[str, JSON], zone: str) -> Sequence[JSON]:
    items = request.get(zone)
    return items if isinstance(items, Sequence) and not isinstance(items, str) else ()


def _item_label(item: JSON) -> str:
    if not isinstance(item, Mapping):
        return str(item)
    name = str(item.get("card") or item.get("name") or "card text")
    extras = [f"level {item['level']}"] if "level" in item else []
    counters = item.get("counters")
    extras += [f"{n} {kind}" for kind, n in counters.items()] if isinstance(counters, Mapping) else []
    extras += ["tapped"] if item.get("tapped") else []
    return f"{name} ({', '.join(extras)})" if extras else name


def _percent(p: Fraction | float) -> str:
    return f"{float(p) * 100:.2f}%"


def _table(title: str, instruction: RollInstruction, columns: tuple[str, ...]) -> Table:
    """A rich table whose first column is the table's row (or the result, without a table)."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=Text(title), title_justify="left")
    table.add_column("row" if instruction.table is not None else "result")
    for column in columns:
        table.add_column(column, justify="right")
    return table


SHOWN_RESULTS = 200
"""Results a table for people lists (a d40001 has 40 001); ``--json`` lists every one."""


def _add_results(
    table: Table, results: Sequence[tuple[ResultKey, Counted]], cells: Callable[[Counted], tuple[str, str]]
) -> None:
    """One row per result, the first :data:`SHOWN_RESULTS`, then one row for the rest together."""
    for value, amount in results[:SHOWN_RESULTS]:
        table.add_row("none" if value is None else str(value), *cells(amount))
    rest = results[SHOWN_RESULTS:]
    if rest:
        together = sum((amount for _, amount in rest[1:]), start=rest[0][1])
        table.add_row(f"{len(rest):,} more results (--json lists them)", *cells(together))


def _row_label(row: Row) -> Text:
    from rich.text import Text

    return Text(f"{row.label}  {row.text}" if row.text else row.label)  # Text: card text is not rich markup


def odds_table(name: str, instruction: RollInstruction, result: Odds, board: str = "") -> Table:
    """A rich table of the rows (or of the results when the instruction has no table). A table read
    for each result shows per row the chance that at least one die lands in it and the expected
    number of dice that do, each column named so."""
    title = f"{name}: {instruction.text}".strip() + (f" ({board})" if board else "")
    if each_result(instruction):
        from mtgdice.odds.reading import each_result_rows

        assert instruction.table is not None  # each_result: read for each result, so there is one
        reading = each_result_rows(result.first, len(instruction.table.rows))
        table = _table(
            title + " — table read for each result", instruction, ("at least one die", "percent", "expected dice")
        )
        for row, p, expected in zip(instruction.table.rows, reading.at_least_one, reading.expected, strict=True):
            table.add_row(_row_label(row), str(p), _percent(p), _count(expected))
        if reading.no_row_expected:
            p = reading.no_row_at_least_one
            table.add_row("no row", str(p), _percent(p), _count(reading.no_row_expected))
        return table
    table = _table(title, instruction, ("probability", "percent"))
    if instruction.table is not None:
        for row, p in zip(instruction.table.rows, result.rows, strict=True):
            table.add_row(_row_label(row), str(p), _percent(p))
        if result.no_row:
            table.add_row("no row", str(result.no_row), _percent(result.no_row))
    else:
        _add_results(table, list(result.results), lambda p: (str(p), _percent(p)))
    return table


def _count(expected: Fraction) -> str:
    return f"{expected} ({float(expected):.4f})"


def policy_lines(policy: str, choices: bool) -> list[str]:
    """The policy the odds used, and when the board has choices, how to ask for another.

    >>> policy_lines("decline", True)[1]
    'the board has choices: for another answer, add --policy accept|maximize|minimize'
    """
    lines = [f"policy: {policy} ({POLICY_WORDS[policy]})"]
    if choices:
        others = "|".join(name for name in POLICIES if name != policy)
        lines.append(f"the board has choices: for another answer, add --policy {others}")
    return lines


@dataclass(frozen=True, slots=True)
class Panel:
    """One panel of the chart: its x-axis label, bar labels, and named series of bar heights."""

    xlabel: str
    labels: tuple[str, ...]
    series: tuple[tuple[str, tuple[float, ...]], ...]


def chart_panels(result: Odds, instruction: RollInstruction) -> tuple[Panel, ...]:
    """What the chart draws, as the card reads its roll: for a table read for each result, per row
    the chance of at least one die and the expected number of dice (no totals: the card never adds
    its dice); otherwise the results (totals only where several dice count together) and, with a
    table, the chance of each row.

    >>> from mtgdice.odds import odds
    >>> from mtgdice.rules import Amount, Die, RollInstruction
    >>> two = RollInstruction(Amount(2), Die(4))
    >>> [panel.xlabel for panel in chart_panels(odds(two), two)]
    ['total of the counted dice']
    """
    table = instruction.table
    if table is not None and each_result(instruction):
        from mtgdice.odds.reading import each_result_rows

        reading = each_result_rows(result.first, len(table.rows))
        labels = tuple(row.label for row in table.rows)
        at_least_one = tuple(float(p) for p in reading.at_least_one)
        expected = tuple(float(p) for p in reading.expected)
        if reading.no_row_expected:
            labels += ("no row",)
            at_least_one += (float(reading.no_row_at_least_one),)
            expected += (float(reading.no_row_expected),)
        series = (("at least one die", at_least_one), ("expected dice", expected))
        return (Panel("row, read for each die's result", labels, series),)
    count = instruction.count
    adds = not instruction.choose and (count.name is not None or count.constant > 1)  # X dice may be several
    panels = [
        Panel(
            "total of the counted dice" if adds else "result",
            tuple("none" if value is None else str(value) for value, _ in result.results),
            (("probability", tuple(float(p) for _, p in result.results)),),
        )
    ]
    if table is not None:
        labels = tuple(row.label for row in table.rows) + (("no row",) if result.no_row else ())
        heights = tuple(float(p) for p in result.rows) + ((float(result.no_row),) if result.no_row else ())
        panels.append(Panel("row", labels, (("probability", heights),)))
    return tuple(panels)


def plot(result: Odds, instruction: RollInstruction, path: Path, title: str) -> None:
    """Write a chart of the results, and of the table's rows when there is one, to ``path`` (.png or .svg)."""
    from mtgdice.errors import InputError

    if path.suffix.lower() not in (".png", ".svg"):
        raise InputError("--plot", f"{str(path)!r}: write a .png or .svg file")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = chart_panels(result, instruction)
    widest = max(len(panel.labels) for panel in panels)
    figure, axes = plt.subplots(1, len(panels), figsize=(max(6.0, 0.35 * widest) + 3.5 * (len(panels) - 1), 3.8))
    colours = ("#4a6fa5", "#a56f4a")
    for axis, panel in zip(axes if len(panels) > 1 else [axes], panels, strict=True):
        width = 0.8 / len(panel.series)
        for number, (name, heights) in enumerate(panel.series):
            offset = (number - (len(panel.series) - 1) / 2) * width
            positions = [i + offset for i in range(len(panel.labels))]
            axis.bar(positions, heights, width=width, color=colours[number % 2], label=name)
            if len(panel.labels) <= 12:
                for position, height in zip(positions, heights, strict=True):
                    text = _percent(height) if name != "expected dice" else f"{height:.2f}"
                    axis.annotate(text, (position, height), ha="center", va="bottom", fontsize=7)
        axis.set_xticks(range(len(panel.labels)), panel.labels)
        axis.set_xlabel(panel.xlabel)
        axis.set_ylabel(" / ".join(name for name, _ in panel.series))
        if len(panel.series) > 1:
            axis.legend(fontsize=8)
    figure.suptitle(title if len(title) <= 110 else title[:109] + "…", fontsize=10)
    figure.tight_layout()
    try:
        figure.savefig(path)
    except OSError as error:
        raise InputError("--plot", f"cannot write {str(path)!r}: {error.strerror}") from None
    finally:
        plt.close(figure)


def _policy_option(default: str | None) -> Callable[[Decorated], Decorated]:
    return click.option("--policy", type=click.Choice(POLICIES), default=default, help=POLICY_HELP)


@click.command("odds", context_settings=CONTEXT)
@click.argument("file", required=False, metavar="[FILE]")
@card_options
@_policy_option(None)
@click.option("--json", "as_json", is_flag=True, help="Print the odds JSON object (docs/odds.md).")
@click.option(
    "--plot", "plot_file", metavar="FILE", help="Also write a chart to FILE.png or FILE.svg (the plot extra)."
)
def odds_command(
    file: str | None,
    options: CardOptions,
    policy: str | None,
    as_json: bool,
    plot_file: str | None,
) -> None:
    """Exact odds of a card's roll (--card NAME with a board, or a JSON request in FILE or on stdin):
    each row, each result, expected executions and triggers."""
    from mtgdice.errors import InputError, MtgDiceError
    from mtgdice.io.jsonio import card_from, dumps
    from mtgdice.odds import Odds
    from mtgdice.rules import RollInstruction

    card = options.card
    try:
        request = options.request() if card is not None else read_request(file, "mtgdice odds", ", or --card NAME")
        if policy is not None:
            request["policy"] = policy
        card_data = catalog(options.cards, required=needs_cards(request))
        if card is not None:
            options.check_roll_number(card_from(request, "card", card_data))
        name, instruction, result, choices = odds_request(request, card_data)
        board = board_label(request)
        dice = isinstance(instruction, RollInstruction) and isinstance(result, Odds)
        if plot_file is not None and not dice:
            raise InputError("--plot", "charts are drawn for dice; a coin flip's odds are printed")
        if plot_file is not None and isinstance(instruction, RollInstruction) and isinstance(result, Odds):
            plot(result, instruction, Path(plot_file), f"{name}: {instruction.text}" + (f" ({board})" if board else ""))
    except MtgDiceError as error:
        if card is not None:
            options.fail(error)
        fail(str(error))
    used_policy = str(request.get("policy", "decline"))
    if as_json:
        out(dumps(odds_json(result, instruction, used_policy)))
        return
    if isinstance(instruction, RollInstruction) and isinstance(result, Odds):
        _print_dice_odds(name, instruction, result, board, policy_lines(used_policy, choices), plot_file)
    else:
        assert not isinstance(instruction, RollInstruction) and not isinstance(result, Odds)  # a coin flip
        lines = coin_odds_lines(name, instruction, result, board) + policy_lines(used_policy, choices)
        if choices:  # odds/coins.py: of a group of coins, the one kept wins the flip unless minimising
            lines.append("of coins flipped together, the one kept is the one that wins the flip (lost: minimize)")
        for line in lines:
            out(line)


def _print_dice_odds(
    name: str, instruction: RollInstruction, result: Odds, board: str, lines: list[str], plot_file: str | None
) -> None:
    """The odds of a roll of dice for people: the table, then the policy ``lines`` and the rest."""
    console().print(odds_table(name, instruction, result, board))
    lines.append(f"expected executions: {result.expected_executions} ({float(result.expected_executions):.4f})")
    if result.again:
        lines.append(f"roll again after the first execution: {result.again} ({_percent(result.again)})")
    for trigger_card, expected in result.triggers:
        lines.append(f"expected triggers of {trigger_card}: {expected} ({float(expected):.4f})")
    if result.doubles:
        lines.append(f"doubles: {result.doubles} ({_percent(result.doubles)})")
    if plot_file is not None:
        lines.append(f"chart written to {plot_file}")
    for line in lines:
        out(line)


@click.command("simulate", context_settings=CONTEXT)
@click.argument("file", required=False, metavar="[FILE]")
@card_options
@_policy_option(None)
@click.option("--rolls", type=int, default=1_000_000, show_default=True, help="How many first executions to simulate.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the PCG64 generator.")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
def simulate_command(
    file: str | None,
    options: CardOptions,
    policy: str | None,
    rolls: int,
    seed: int,
    as_json: bool,
) -> None:
    """Simulate many rolls of a card's instruction (numpy, seeded; --card NAME with a board, or a
    JSON request in FILE or on stdin, as `odds` reads it): rows, results, roll again, triggers."""
    from mtgdice.errors import InputError, MtgDiceError
    from mtgdice.game.request import prepare
    from mtgdice.io.jsonio import card_from, dumps, request_from_json

    card = options.card
    try:
        if not 1 <= rolls <= 100_000_000:
            raise InputError("--rolls", f"{rolls} is not between 1 and 100000000")
        request = options.request() if card is not None else read_request(file, "mtgdice simulate", ", or --card NAME")
        policy = policy or str(request.get("policy", "decline"))
        if policy not in POLICIES:
            raise InputError("policy", f"{policy!r} is not a policy; use one of {', '.join(POLICIES)}")
        card_data = catalog(options.cards, required=needs_cards(request))
        if card is not None:
            options.check_roll_number(card_from(request, "card", card_data))
        typed = request_from_json(request, card_data, allow=("policy",))
        prepared = prepare(typed, card_data)
        instruction = prepared.instruction
        if instruction is None and prepared.flip is not None:  # a coin flip (CR 705)
            from mtgdice.sim.coins import simulate_flips

            flips = simulate_flips(
                prepared.flip,
                rolls=rolls,
                seed=seed,
                board=prepared.board,
                policy=policy,
                amounts=prepared.amounts,
                players=typed.players,
                name=prepared.name,
            )
            if as_json:
                out(dumps(flips.to_json()))
                return
            for label, total, squared in (
                ("flips won", flips.won, flips.won_squared),
                ("executions", flips.executions, flips.executions_squared),
            ):
                mean, error = flips.mean_and_error(total, squared)
                out(f"{label}: {total:,} ({mean:.4f} per resolution, \u00b1 {error:.4f})")
            out(f"flips lost: {flips.lost:,} ({flips.lost / flips.rolls:.4f} per resolution)")
            for trigger_card, count in flips.triggers.items():
                out(f"triggers of {trigger_card}: {count:,} ({count / flips.rolls:.4f} per resolution)")
            return
        if instruction is None:
            raise InputError("kind", "simulation is for dice rolled by the rules: a card, dice or the planar die")
        from mtgdice.sim import simulate

        result = simulate(
            instruction,
            rolls=rolls,
            seed=seed,
            source=prepared.name,
            board=prepared.board,
            policy=policy,
            amounts=prepared.amounts,
            turn=typed.turn,
            progress=not as_json and rolls >= PROGRESS_FROM and _terminal(),
        )
    except MtgDiceError as error:
        if card is not None:
            options.fail(error)
        fail(str(error))
    results = sorted(result.results.items(), key=lambda item: result_order(item[0]))
    if as_json:
        from mtgdice.io.odds import SimulationCounts

        counts = SimulationCounts(
            rolls=result.rolls,
            method=result.method,
            rows=list(result.rows),
            no_row=result.no_row,
            results={"none" if key is None else str(key): count for key, count in results},
            doubles=result.doubles,
            again=result.again,
            executions=result.executions,
            expected_executions=result.expected_executions,
            triggers=dict(result.triggers),
        )
        out(dumps(counts))
        return
    board = board_label(request)
    title = f"{prepared.name}: {result.rolls:,} simulated rolls ({result.method}, seed {seed})"
    console().print(simulation_table(title + (f", {board}" if board else ""), instruction, result, results))
    spread = result.standard_error(result.executions, result.executions_squared)
    out(f"executions: {result.executions:,} ({result.expected_executions:.4f} per resolution, ± {spread:.4f})")
    out(f"roll again after the first execution: {result.again:,} ({_share(result.again, result.rolls)})")
    if result.doubles:
        out(f"doubles: {result.doubles:,} ({_share(result.doubles, result.rolls)})")
    for name, count in result.triggers.items():
        out(f"triggers of {name}: {count:,} ({count / result.rolls:.4f} per resolution)")


def coin_odds_lines(name: str, flip: FlipInstruction, result: CoinAnswer, board: str = "") -> list[str]:
    """A flip's exact odds for people: each outcome, then flips won and lost, executions, triggers."""
    lines = [f"{name}: {flip.text}" + (f" ({board})" if board else "")]
    for outcome, p in zip(flip.outcomes, result.outcomes, strict=True):
        how = "expected times" if outcome.each else "probability"
        lines.append(f"  {outcome.text}  {how}: {p} ({float(p):.4f})")
    lines.append(f"expected flips won: {result.expected_won} ({float(result.expected_won):.4f})")
    lines.append(f"expected flips lost: {result.expected_lost} ({float(result.expected_lost):.4f})")
    lines.append(f"expected executions: {result.expected_executions} ({float(result.expected_executions):.4f})")
    lines += [f"expected triggers of {card}: {p} ({float(p):.4f})" for card, p in result.triggers]
    return lines


def _share(count: int, total: int) -> str:
    return f"{count / total:.2%}"


def simulation_table(
    title: str, instruction: RollInstruction, result: Simulation, results: Iterable[tuple[ResultKey, int]]
) -> Table:
    """A rich table of the counted rows (when there is a table) and of the counted results."""
    table = _table(title, instruction, ("count", "share"))
    if instruction.table is not None:
        for row, count in zip(instruction.table.rows, result.rows, strict=True):
            table.add_row(_row_label(row), f"{count:,}", _share(count, result.rolls))
        if result.no_row:
            table.add_row("no row", f"{result.no_row:,}", _share(result.no_row, result.rolls))
        table.add_section()
    labelled = [("no result" if value is None else f"result {value}", count) for value, count in results]
    _add_results(table, labelled, lambda count: (f"{count:,}", _share(count, result.rolls)))
    return table


def _terminal() -> bool:
    return sys.stdout.isatty() and sys.stderr.isatty()


class CountingSource:
    """A dice source that reports every ``step`` faces to ``advance`` (for a progress bar)."""

    def __init__(self, source: DiceSource, advance: Callable[[int], None], step: int = 10_000) -> None:
        self.source = source
        self.name = source.name
        self._advance = advance
        self._step = step
        self._count = 0

    def roll(self, die: Die) -> Face:
        self._count += 1
        if self._count == self._step:
            self._advance(self._count)
            self._count = 0
        return self.source.roll(die)


@click.command("fairness", context_settings=CONTEXT)
@click.option("--rolls", type=click.IntRange(min=10), default=60_000, show_default=True, help="Rolls per die.")
@click.option(
    "--dice", default="d4,d6,d8,d10,d12,d20,planar", show_default=True, help="Dice to test, separated by commas."
)
@click.option(
    "--source",
    type=click.Choice(("secure", "seeded", "room")),
    default="secure",
    show_default=True,
    help="room: the web rooms' commit-reveal dice, one nonce per roll.",
)
@click.option(
    "--seed", type=click.IntRange(min=0), help="Seed for --source seeded (or the room's secret, as a number)."
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def fairness_command(rolls: int, dice: str, source: str, seed: int | None, as_json: bool) -> None:
    """Roll a dice source many times and test each die size with a chi-square test."""
    from mtgdice.errors import MtgDiceError
    from mtgdice.fair.selftest import FairnessReport, die_fairness, fairness_table, parse_dice, source_named
    from mtgdice.io.jsonio import dumps
    from mtgdice.rules.budget import Meter

    try:
        tested = parse_dice(dice)
        dice_source = source_named(source, seed)
        meter = Meter()
        for die in tested:  # refused before anything is rolled
            meter.check_cells(len(die.faces), f"counting the faces of a {die.name}")
        if rolls * len(tested) > meter.budget.rolls:
            meter.spend_rolls(rolls * len(tested))
        if as_json or not _terminal():
            results = tuple(die_fairness(dice_source, die, rolls, meter) for die in tested)
        else:
            from rich.progress import Progress

            with Progress(console=console(stderr=True), transient=True) as bar:
                task = bar.add_task("rolling", total=rolls * len(tested))
                counted = CountingSource(dice_source, lambda done: bar.advance(task, done))
                results = tuple(die_fairness(counted, die, rolls, meter) for die in tested)
        report = FairnessReport(source, results)
    except MtgDiceError as error:
        fail(str(error))
    for result in results:
        warning = result.too_few()
        if warning:
            out(f"mtgdice: warning: {warning}", err=True)
    if as_json:
        out(dumps(report.to_json()))
        return
    console().print(fairness_table(report))
