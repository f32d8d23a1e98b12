"""The ``log``, ``replay`` and ``verify`` commands: a thin shell over :mod:`mtgdice.log`.

``mtgdice log list|show|export`` read the roll log (``--db``, else ``$MTGDICE_DB``, else
``$XDG_DATA_HOME/mtgdice/rolls.sqlite``); ``mtgdice replay`` resolves logged requests again with
their logged faces; ``mtgdice verify LOG.json`` checks an exported room log against its revealed
seeds. Errors are one line on stderr with exit status 2.

This module leaves out the logic (``mtgdice.log``, ``mtgdice.fair``) and writing rolls to the log.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from mtgdice.cards.catalog import optional_catalog
from mtgdice.errors import InputError, MtgDiceError
from mtgdice.log import LoggedRoll, RollLog, default_db_path, replay, verify_export

MAX_UNVERIFIABLE_SHOWN = 10

log_app = typer.Typer(
    help="The roll log: list, show and export logged rolls.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False)
err = Console(stderr=True)

DbOption = Annotated[
    Path | None,
    typer.Option("--db", help="Roll log file (default: $MTGDICE_DB, else $XDG_DATA_HOME/mtgdice/rolls.sqlite)."),
]
RoomOption = Annotated[str | None, typer.Option("--room", help="Only this room's rolls.")]


def _fail(message: str) -> NoReturn:
    err.print(f"mtgdice: error: {message}", markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(2)


def _open(db: Path | None) -> RollLog:
    path = db or default_db_path()
    if not path.exists():
        raise InputError("--db", f"no roll log at {str(path)!r}; give --db PATH or set MTGDICE_DB")
    return RollLog(path)


def _quiet_broken_pipe() -> NoReturn:
    """The reader of stdout went away (``| head``): stop without a traceback."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    raise typer.Exit(1)


def _label(roll: LoggedRoll) -> str:
    if roll.card:
        return roll.card
    text = roll.request.get("text")
    if isinstance(text, str) and text:
        return repr(text if len(text) <= 30 else text[:29] + "…")
    return ""


def _results(roll: LoggedRoll) -> str:
    return " | ".join(", ".join(str(result) for result in results) for results in roll.results)


@log_app.command("list")
def list_command(
    db: DbOption = None,
    room: RoomOption = None,
    limit: Annotated[int, typer.Option("--limit", min=1, help="How many of the latest rolls.")] = 50,
    as_json: Annotated[bool, typer.Option("--json", help="Print the rolls as a JSON list.")] = False,
) -> None:
    """The latest logged rolls, newest first."""
    try:
        with _open(db) as log:
            rolls = log.list(room, limit)
    except MtgDiceError as error:
        _fail(str(error))
    if as_json:
        print(json.dumps([roll.export_json() for roll in rolls], ensure_ascii=False))
        return
    table = Table("id", "time (UTC)", "room", "player", "card", "results", "row", "source")
    for roll in rolls:
        table.add_row(
            str(roll.id), roll.time[:19].replace("T", " "), roll.room or "", roll.player or "",
            _label(roll), _results(roll), "" if roll.row is None else str(roll.row), roll.source,
        )  # fmt: skip
    out.print(table)


@log_app.command("show")
def show_command(
    roll_id: Annotated[int, typer.Argument(metavar="ID", help="The roll's id (see `mtgdice log list`).")],
    db: DbOption = None,
) -> None:
    """One logged roll, in full, as JSON."""
    try:
        with _open(db) as log:
            roll = log.get(roll_id)
    except MtgDiceError as error:
        _fail(str(error))
    try:
        print(json.dumps(roll.export_json(), ensure_ascii=False, indent=2))
    except BrokenPipeError:
        _quiet_broken_pipe()


@log_app.command("export")
def export_command(
    db: DbOption = None,
    room: RoomOption = None,
    format: Annotated[str, typer.Option("--format", help="json (what `mtgdice verify` checks) or csv.")] = "json",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write here (default: stdout).")] = None,
) -> None:
    """Export the rolls of a room (default: every room) as JSON or CSV."""
    try:
        if format not in ("json", "csv"):
            raise InputError("--format", f"{format!r} is not a format; use json or csv")
        with _open(db) as log:
            handle = open(output, "w", encoding="utf-8", newline="") if output is not None else sys.stdout
            try:
                if format == "json":
                    json.dump(log.export_json(room), handle, ensure_ascii=False, indent=1)
                    handle.write("\n")
                else:
                    log.export_csv(room, handle)
            finally:
                if output is not None:
                    handle.close()
    except BrokenPipeError:
        _quiet_broken_pipe()
    except OSError as error:
        _fail(f"--output: cannot write {str(output)!r}: {error.strerror}")
    except MtgDiceError as error:
        _fail(str(error))


def replay_command(
    db: DbOption = None,
    room: RoomOption = None,
    cards: Annotated[
        str | None,
        typer.Option("--cards", help="Scryfall-format card file (default: $MTGDICE_CARDS, then the local index)."),
    ] = None,
) -> None:
    """Resolve every logged request again with its logged faces; report outcomes that differ.

    Exit status 0 when every roll gives the logged outcome, 1 otherwise.
    """
    try:
        catalog = optional_catalog(cards)
        with _open(db) as log:
            results = list(replay(log.rolls(room), catalog))
    except MtgDiceError as error:
        _fail(str(error))
    differing = [result for result in results if not result.same]
    for result in differing:
        out.print(result.line(), markup=False, soft_wrap=True)
    out.print(f"{len(results) - len(differing)} of {len(results)} rolls replay to the logged outcome")
    if differing:
        raise typer.Exit(1)


def verify_command(
    file: Annotated[
        Path,
        typer.Argument(metavar="LOG.json", help="An exported room log (`mtgdice log export`); - reads stdin."),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Check an exported room log against its revealed seeds, roll by roll.

    Exit status 0 when every roll is verified, 1 when any roll is bad (one line each, naming the roll
    and its first wrong face), 3 when none is bad but some cannot be checked yet (seed not revealed,
    or not a commit-reveal roll).
    """
    try:
        try:
            text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise InputError("LOG.json", f"cannot read {str(file)!r}: {error}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise InputError("LOG.json", f"not valid JSON: {error.msg} at line {error.lineno}") from None
        report = verify_export(data)
    except MtgDiceError as error:
        _fail(str(error))
    if as_json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        for check in report.bad:
            out.print(check.line(), markup=False, soft_wrap=True)
        waiting = report.unverifiable
        for check in waiting[:MAX_UNVERIFIABLE_SHOWN]:
            out.print(check.line(), markup=False, soft_wrap=True)
        if len(waiting) > MAX_UNVERIFIABLE_SHOWN:
            out.print(f"... and {len(waiting) - MAX_UNVERIFIABLE_SHOWN} more unverifiable rolls (--json lists all)")
        for warning in report.warnings:
            out.print(f"warning: {warning}", markup=False, soft_wrap=True)
        out.print(report.summary(), markup=False)
    if report.bad:
        raise typer.Exit(1)
    if not report.ok:
        raise typer.Exit(3)


def register(app: typer.Typer) -> None:
    """Add ``log``, ``replay`` and ``verify`` to the ``mtgdice`` command."""
    app.add_typer(log_app, name="log")
    app.command("replay")(replay_command)
    app.command("verify")(verify_command)
