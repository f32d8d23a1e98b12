"""``mtgdice odds`` and ``mtgdice fairness``: thin shells over :mod:`mtgdice.odds` and
:mod:`mtgdice.fairness` (no rules logic here).

``odds`` reads a request like ``resolve`` (docs/odds.md: the json-interface.md fields without
``dice``, plus ``policy``) from a file or stdin, or takes ``--card`` and board options; it prints
a rich table of the rows with exact fractions and percents, ``--json`` for programs, and a chart
with ``--plot FILE.png|svg`` (matplotlib, imported only then). Errors are one line on stderr,
exit status 2. This module leaves out the maths.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer

from mtgdice.errors import InputError, MtgDiceError

POLICIES = ("decline", "accept", "maximize", "minimize")


def odds_request(request: dict[str, Any], cards: Any) -> tuple[str, Any, Any]:
    """Compute the odds of a request: ``(card name, instruction, Odds)``.

    >>> name, _, result = odds_request({"text": "Roll a d4.", "name": "Test"}, None)
    >>> result.to_json()["results"]["4"]
    '1/4'
    """
    from mtgdice.jsonio import amounts_from, board_from, instruction_from
    from mtgdice.odds import odds
    from mtgdice.rules import TurnState

    for field in ("dice", "planar"):
        if request.get(field):
            raise InputError(field, "odds enumerate every face; leave out dice and planar")
    if request.get("choices"):
        raise InputError("choices", "odds answer every decision by a policy; give policy instead of choices")
    policy = request.get("policy", "decline")
    if policy not in POLICIES:
        raise InputError("policy", f"{policy!r} is not a policy; use one of {', '.join(POLICIES)}")
    compiled, instruction = instruction_from(request, cards)
    board = board_from(request, cards)
    used = request.get("used", []) or []
    if not isinstance(used, list):
        raise InputError("used", "expected a list of keys")
    result = odds(
        instruction,
        source=compiled.name or "~",
        board=board,
        policy=policy,
        amounts=amounts_from(request),
        turn=TurnState(frozenset(str(key) for key in used)),
    )
    return compiled.name or "~", instruction, result


def card_request(card: str, roll: int, amount: list[str] | None, with_: str, graveyard: str) -> dict[str, Any]:
    """A resolve-style request from the command line's card options."""
    from mtgdice import cli

    return {
        "card": card,
        "roll": roll,
        "amounts": cli._amounts(amount or []),
        "battlefield": cli._board_names(with_),
        "graveyard": cli._board_names(graveyard),
    }


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.2f}%"


def odds_table(name: str, instruction: Any, result: Any) -> Any:
    """A rich table of the rows (or of the results when the instruction has no table)."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=Text(f"{name}: {instruction.text}".strip()), title_justify="left")
    table.add_column("row" if instruction.table is not None else "result")
    table.add_column("probability", justify="right")
    table.add_column("percent", justify="right")
    if instruction.table is not None:
        for row, p in zip(instruction.table.rows, result.rows, strict=True):
            label = f"{row.label}  {row.text}" if row.text else row.label
            table.add_row(Text(label), str(p), _percent(p))  # Text: card text is not rich markup
        if result.no_row:
            table.add_row("no row", str(result.no_row), _percent(result.no_row))
    else:
        for value, p in result.results:
            table.add_row("none" if value is None else str(value), str(p), _percent(p))
    return table


def plot(result: Any, instruction: Any, path: Path) -> None:
    """Write a bar chart of the results (and rows) to ``path`` (.png or .svg)."""
    if path.suffix.lower() not in (".png", ".svg"):
        raise InputError("--plot", f"{str(path)!r}: write a .png or .svg file")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = ["none" if value is None else str(value) for value, _ in result.results]
    heights = [float(p) for _, p in result.results]
    figure, axis = plt.subplots(figsize=(max(6.0, 0.35 * len(labels)), 3.5))
    axis.bar(labels, heights, color="#4a6fa5")
    axis.set_xlabel("result" if len(labels) else "")
    axis.set_ylabel("probability")
    axis.set_title(instruction.text or "odds")
    figure.tight_layout()
    try:
        figure.savefig(path)
    except OSError as error:
        raise InputError("--plot", f"cannot write {str(path)!r}: {error.strerror}") from None
    finally:
        plt.close(figure)


def register(app: typer.Typer) -> None:
    """Add the ``odds`` and ``fairness`` commands to the ``mtgdice`` app."""

    @app.command("odds")
    def odds_command(
        file: Annotated[Path | None, typer.Argument(help="JSON request (default: standard input).")] = None,
        card: Annotated[str | None, typer.Option("--card", help="The card whose roll to study.")] = None,
        with_: Annotated[str, typer.Option("--with", help="Your permanents, separated by ';'.")] = "",
        graveyard: Annotated[str, typer.Option("--graveyard", help="Cards in your graveyard, separated by ';'.")] = "",
        roll: Annotated[int, typer.Option("--roll", help="Which roll instruction of the card (0 = first).")] = 0,
        policy: Annotated[str | None, typer.Option("--policy", help="decline, accept, maximize or minimize.")] = None,
        amount: Annotated[list[str] | None, typer.Option("--amount", help="A variable amount, NAME=VALUE.")] = None,
        cards: Annotated[str | None, typer.Option("--cards", help="Scryfall-format card file.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the odds JSON object (docs/odds.md).")] = False,
        plot_file: Annotated[Path | None, typer.Option("--plot", help="Write a chart to FILE.png or FILE.svg.")] = None,
    ) -> None:
        """Exact odds of a card's roll: each row, each result, expected executions and triggers."""
        from mtgdice import cli
        from mtgdice.jsonio import dumps

        try:
            if card is not None:
                request: dict[str, Any] = card_request(card, roll, amount, with_, graveyard)
            else:
                request = cli._read_request(file)
            if policy is not None:
                request["policy"] = policy
            catalog = cli._catalog(cards, required=cli._needs_cards(request))
            name, instruction, result = odds_request(request, catalog)
            if plot_file is not None:
                plot(result, instruction, plot_file)
        except MtgDiceError as error:
            cli.fail(str(error))
        if as_json:
            print(dumps(result.to_json()))
            return
        cli.out.print(odds_table(name, instruction, result))
        cli.out.print(
            f"expected executions: {result.expected_executions} ({float(result.expected_executions):.4f})",
            highlight=False,
        )
        for trigger_card, expected in result.triggers:
            cli.out.print(f"expected triggers of {trigger_card}: {expected} ({float(expected):.4f})", highlight=False)
        if result.doubles:
            cli.out.print(f"doubles: {result.doubles} ({_percent(result.doubles)})", highlight=False)

    @app.command("simulate")
    def simulate_command(
        card: Annotated[str, typer.Option("--card", help="The card whose roll to simulate.")],
        with_: Annotated[str, typer.Option("--with", help="Your permanents, separated by ';'.")] = "",
        graveyard: Annotated[str, typer.Option("--graveyard", help="Cards in your graveyard, separated by ';'.")] = "",
        roll: Annotated[int, typer.Option("--roll", help="Which roll instruction of the card (0 = first).")] = 0,
        policy: Annotated[str, typer.Option("--policy", help="decline, accept, maximize or minimize.")] = "decline",
        amount: Annotated[list[str] | None, typer.Option("--amount", help="A variable amount, NAME=VALUE.")] = None,
        rolls: Annotated[int, typer.Option("--rolls", help="How many first executions to simulate.")] = 1_000_000,
        seed: Annotated[int, typer.Option("--seed", help="Seed of the PCG64 generator.")] = 0,
        cards: Annotated[str | None, typer.Option("--cards", help="Scryfall-format card file.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the counts as JSON.")] = False,
    ) -> None:
        """Simulate many rolls of a card's instruction (numpy, seeded) and count rows, results and triggers."""
        from mtgdice import cli
        from mtgdice.jsonio import amounts_from, board_from, dumps, instruction_from
        from mtgdice.sim import simulate

        try:
            if not 1 <= rolls <= 100_000_000:
                raise InputError("--rolls", f"{rolls} is not between 1 and 100000000")
            if policy not in POLICIES:
                raise InputError("--policy", f"{policy!r} is not a policy; use one of {', '.join(POLICIES)}")
            request = card_request(card, roll, amount, with_, graveyard)
            catalog = cli._catalog(cards)
            compiled, instruction = instruction_from(request, catalog)
            result = simulate(
                instruction,
                rolls=rolls,
                seed=seed,
                source=compiled.name,
                board=board_from(request, catalog),
                policy=policy,
                amounts=amounts_from(request),
                progress=not as_json,
            )
        except MtgDiceError as error:
            cli.fail(str(error))
        data = {
            "rolls": result.rolls,
            "method": result.method,
            "rows": list(result.rows),
            "no_row": result.no_row,
            "results": {str(key): count for key, count in sorted(result.results.items(), key=lambda kv: str(kv[0]))},
            "doubles": result.doubles,
            "again": result.again,
            "triggers": result.triggers,
        }
        if as_json:
            print(dumps(data))
            return
        cli.out.print(
            f"{compiled.name}: {result.rolls} simulated rolls ({result.method}, seed {seed})", highlight=False
        )
        table = instruction.table
        for index, count in enumerate(result.rows):
            label = table.rows[index].label if table is not None else str(index)
            cli.out.print(f"  {label}: {count} ({count / result.rolls:.4%})", highlight=False)
        if table is not None:
            cli.out.print(f"  no row: {result.no_row} ({result.no_row / result.rolls:.4%})", highlight=False)
        for name, count in result.triggers.items():
            cli.out.print(f"  triggers of {name}: {count} ({count / result.rolls:.4f} per roll)", highlight=False)

    @app.command("fairness")
    def fairness_command(
        rolls: Annotated[int, typer.Option("--rolls", help="Rolls per die.")] = 60_000,
        dice: Annotated[
            str, typer.Option("--dice", help="Dice to test, e.g. d4,d6,d20,planar.")
        ] = "d4,d6,d8,d10,d12,d20,planar",
        source: Annotated[str, typer.Option("--source", help="secure or seeded.")] = "secure",
        seed: Annotated[int | None, typer.Option("--seed", help="Seed for --source seeded.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    ) -> None:
        """Roll a dice source many times and test each die size with a chi-square test."""
        from mtgdice import cli
        from mtgdice.fairness import check_fairness, fairness_table, parse_dice
        from mtgdice.jsonio import dumps

        try:
            report = check_fairness(parse_dice(dice), rolls, source, seed)
        except MtgDiceError as error:
            cli.fail(str(error))
        if as_json:
            print(dumps(report.to_json()))
            return
        cli.out.print(fairness_table(report))
