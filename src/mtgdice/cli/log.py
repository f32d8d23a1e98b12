"""The ``log``, ``replay`` and ``verify`` commands: a thin shell over :mod:`mtgdice.log`.

``mtgdice log list|show|export`` read the roll log (``--db``, else ``$MTGDICE_DB``, else
``$XDG_DATA_HOME/mtgdice/rolls.sqlite``, ``~/.local/share`` by default); ``mtgdice replay``
resolves logged requests again with their logged faces; ``mtgdice verify LOG.json`` checks an
exported room log against its revealed seeds. Errors are one line on stderr with exit status 2.

``log list`` shows each roll as a person reads it: a plain roll's notation and total, a coin's
heads or tails, the matched row by its printed label (``10—19``), whole room ids.

This module leaves out the logic (``mtgdice.log``, ``mtgdice.fair.commit``) and writing rolls to the log.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from mtgdice.cli.common import CARDS_HELP, CONTEXT, DB_HELP, LazyGroup, console, fail, out

if TYPE_CHECKING:
    from mtgdice.game.request import CardSource, RollRequest, SourceCard
    from mtgdice.log import LoggedRoll, RollLog
    from mtgdice.rules import ResultsTable

MAX_UNVERIFIABLE_SHOWN = 10

db_option = click.option("--db", metavar="PATH", help=DB_HELP)
room_option = click.option("--room", metavar="ID", help="Only this room's rolls.")


@click.group("log", cls=LazyGroup, context_settings=CONTEXT)
def log_group() -> None:
    """The roll log: list, show and export logged rolls."""


def _open(db: str | None) -> RollLog:
    from mtgdice.errors import InputError
    from mtgdice.log.store import RollLog, default_db_path

    path = Path(db) if db is not None else default_db_path()
    if not path.exists():
        raise InputError("--db", f"no roll log at {str(path)!r}; give --db PATH or set MTGDICE_DB")
    return RollLog(path)


def _request(roll: LoggedRoll, cards: CardSource | None = None) -> RollRequest | None:
    """The logged request, typed, its cards looked up in ``cards`` (None when this version cannot
    read it, or it names a card and there is no card data)."""
    from mtgdice.errors import MtgDiceError
    from mtgdice.io.record import request_of

    try:
        return request_of(roll, cards)
    except (MtgDiceError, ValueError):
        return None


def roll_label(roll: LoggedRoll) -> str:
    """What was rolled: the card, a plain roll's notation, "coin", or the start of the text rolled."""
    from mtgdice.game.request import RollKind
    from mtgdice.text.notation import PLANAR_TEXT

    request = _request(roll)
    if request is None:
        return str(roll.card or "?")
    if request.notation:
        return request.notation
    if coin_face(roll) is not None or request.kind is RollKind.COIN:
        return "coin"
    if request.kind is RollKind.PLANAR:
        return "planar die" + (" (special action)" if request.action else "")
    card = request.card
    if card is None:
        return str(roll.card or "")
    if card.text is None:
        return card.name
    if card.text == PLANAR_TEXT:
        return "planar die"
    if card.text:
        shown = card.text if len(card.text) <= 30 else card.text[:29] + "…"
        return f"{card.name}: {shown!r}" if card.name else repr(shown)
    return str(roll.card or "")


def coin_face(roll: LoggedRoll) -> str | None:
    """ "heads", "tails" (or several) when the logged roll is a coin flip (CR 705)."""
    from mtgdice.io.record import shown

    coins = shown(roll).coins
    if coins is None:
        return None
    return ", ".join(coins) or "no coin"


def results_text(roll: LoggedRoll) -> str:
    """The results a person reads: a plain total, heads/tails, or each execution's counted results."""
    from mtgdice.io.record import shown

    seen = shown(roll)
    if seen.refused is not None:
        return "refused"
    if seen.total is not None:
        return f"total {seen.total}"
    if seen.coins is not None:
        return ", ".join(seen.coins) or "no coin"
    return " | ".join(", ".join(str(result) for result in results) for results in seen.results)


class RowLabels:
    """The printed label of a logged roll's matched row (``10—19``), from the card's compiled table.

    Cards given by text compile on the spot; cards given by name are looked up in the card data
    when there is any. Without it, the row is shown by its number, counted from 1.
    """

    def __init__(self, cards: str | None) -> None:
        self._cards = cards
        self._catalog: CardSource | None = None
        self._loaded = False
        self._tables: dict[tuple[str, str | None, int], ResultsTable | None] = {}

    def label(self, roll: LoggedRoll) -> str:
        if roll.row is None:
            return ""
        request = _request(roll, self._catalog_now())
        table = None
        if request is not None and request.card is not None:
            key = (request.card.name, request.card.text, request.roll)
            if key not in self._tables:
                self._tables[key] = self._table(request.card, request.roll)
            table = self._tables[key]
        if table is not None and 0 <= roll.row < len(table.rows):
            return str(table.rows[roll.row].label)
        return f"row {roll.row + 1}"

    def _catalog_now(self) -> CardSource | None:
        """The card data, loaded the first time a label needs it (``None``: there is none)."""
        if not self._loaded:
            from mtgdice.cards.catalog import optional_catalog

            self._catalog, self._loaded = optional_catalog(self._cards), True
        return self._catalog

    def _table(self, card: SourceCard, roll_index: int) -> ResultsTable | None:
        rolls = card.compiled.rolls  # compiled when the logged request was read
        return rolls[roll_index].table if roll_index < len(rolls) else None


@log_group.command("list", context_settings=CONTEXT)
@db_option
@room_option
@click.option(
    "--limit", type=click.IntRange(min=1), default=50, show_default=True, help="How many of the latest rolls."
)
@click.option("--cards", metavar="PATH", help=CARDS_HELP + " Used to show rows by their label.")
@click.option("--json", "as_json", is_flag=True, help="Print the rolls as a JSON list.")
def list_command(db: str | None, room: str | None, limit: int, cards: str | None, as_json: bool) -> None:
    """The latest logged rolls, newest first (`mtgdice log show ID` shows one in full)."""
    import json

    from mtgdice.errors import MtgDiceError

    try:
        with _open(db) as log:
            rolls = log.list(room, limit)
        labels = RowLabels(cards)
        rows = [
            (
                str(roll.id),
                roll.time[:19].replace("T", " "),
                roll.room or "",
                roll.player or "",
                roll_label(roll),
                results_text(roll),
                labels.label(roll),
                roll.source,
            )
            for roll in rolls
        ]
    except MtgDiceError as error:
        fail(str(error))
    if as_json:
        from mtgdice.io.record import export_roll

        out(json.dumps([export_roll(roll) for roll in rolls], ensure_ascii=False))
        return
    from rich.table import Table
    from rich.text import Text

    table = Table()
    for position, header in enumerate(("id", "time (UTC)", "room", "player", "rolled", "results", "row", "source")):
        # Ids, times and room ids are never cut: `log show ID` and `--room ID` take them whole.
        whole = position in (0, 1, 2, 7)
        width = max([len(header), *(len(row[position]) for row in rows)]) if whole else None
        table.add_column(header, no_wrap=whole, min_width=width, justify="right" if position == 0 else "left")
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    console(wide=160).print(table)


@log_group.command("show", context_settings=CONTEXT)
@click.argument("roll_id", metavar="ID", type=int)
@db_option
def show_command(roll_id: int, db: str | None) -> None:
    """One logged roll, in full, as JSON (ID as `mtgdice log list` shows it)."""
    import json

    from mtgdice.errors import MtgDiceError

    try:
        with _open(db) as log:
            roll = log.get(roll_id)
    except MtgDiceError as error:
        fail(str(error))
    from mtgdice.io.record import export_roll

    out(json.dumps(export_roll(roll), ensure_ascii=False, indent=2))


@log_group.command("export", context_settings=CONTEXT)
@db_option
@room_option
@click.option("--format", "format_", default="json", show_default=True, help="json or csv.")
@click.option("--output", "-o", metavar="FILE", help="Write here (default: stdout).")
def export_command(db: str | None, room: str | None, format_: str, output: str | None) -> None:
    """Export the rolls of a room (default: every room) as JSON (what `mtgdice verify` checks) or CSV."""
    import json

    from mtgdice.errors import InputError, MtgDiceError

    try:
        if format_ not in ("json", "csv"):
            raise InputError("--format", f"{format_!r} is not a format; use json or csv")
        with _open(db) as log:
            handle = open(output, "w", encoding="utf-8", newline="") if output is not None else sys.stdout
            try:
                if format_ == "json":
                    json.dump(log.export_json(room), handle, ensure_ascii=False, indent=1)
                    handle.write("\n")
                else:
                    log.export_csv(room, handle)
            finally:
                if output is not None:
                    handle.close()
    except BrokenPipeError:
        raise
    except OSError as error:
        fail(f"--output: cannot write {output!r}: {error.strerror}")
    except MtgDiceError as error:
        fail(str(error))


@click.command("replay", context_settings=CONTEXT)
@db_option
@room_option
@click.option("--cards", metavar="PATH", help=CARDS_HELP)
def replay_command(db: str | None, room: str | None, cards: str | None) -> None:
    """Resolve every logged roll again with its logged faces; report outcomes that differ.

    Exit status 0 when every roll gives the logged outcome, 1 when one differs or fails, 3 when
    none differs but some could not be checked (they name cards and no card data was given).
    """
    from mtgdice.cards.catalog import optional_catalog
    from mtgdice.errors import MtgDiceError
    from mtgdice.log import replay

    try:
        catalog = optional_catalog(cards)
        with _open(db) as log:
            results = list(replay(log.rolls(room), catalog))
    except MtgDiceError as error:
        fail(str(error))
    unchecked = [result for result in results if result.unchecked]
    differing = [result for result in results if not result.same and not result.unchecked]
    for result in differing:
        out(result.line())
    out(f"{len(results) - len(differing) - len(unchecked)} of {len(results)} rolls replay to the logged outcome")
    if unchecked:
        out(
            f"{len(unchecked)} rolls not checked: they name cards and there is no card data "
            "(pass --cards PATH, set MTGDICE_CARDS, or run `mtgdice cards import`)"
        )
    if differing:
        raise click.exceptions.Exit(1)
    if unchecked:
        raise click.exceptions.Exit(3)


@click.command("verify", context_settings=CONTEXT)
@click.argument("file", metavar="LOG.json")
@click.option("--cards", metavar="PATH", help=CARDS_HELP + " Rolls that name cards are resolved again with it.")
@click.option(
    "--commitment",
    "pinned",
    metavar="HEX",
    help="A commitment you saw on the room's page (or in an API answer): the log must hold it, and it pins "
    "every roll before it.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def verify_command(file: str, cards: str | None, pinned: str | None, as_json: bool) -> None:
    """Check an exported room log (`mtgdice log export`, `GET /api/rooms/ID/log`; - reads stdin).

    Every roll: its faces against the revealed seed, its outcome resolved again from its request and
    faces (rolls naming cards need the card data), its place in the log's hash chain. The log: every
    nonce from 0 logged once, each commitment binding the rolls before it.

    Exit status 0 when every roll is verified and the log proved; 1 when anything is wrong (a bad
    roll: one line each, naming the roll and what is wrong; an error of the log: a roll missing, the
    chain broken, the pinned commitment not in the log); 3 when nothing is wrong but something cannot
    be checked (a seed not revealed yet, no card data for a roll, a roll of another source, a log
    without a hash chain); 2 when the file cannot be read.
    """
    import json

    from mtgdice.cards.catalog import optional_catalog
    from mtgdice.errors import InputError, MtgDiceError
    from mtgdice.log import verify_export

    try:
        try:
            text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise InputError("LOG.json", f"cannot read {file!r}: {error}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise InputError("LOG.json", f"not valid JSON: {error.msg} at line {error.lineno}") from None
        report = verify_export(data, cards=optional_catalog(cards), pinned=pinned)
    except MtgDiceError as error:
        fail(str(error))
    if as_json:
        from mtgdice.io.record import report_json

        out(json.dumps(report_json(report), ensure_ascii=False))
    else:
        for check in report.bad:
            out(check.line())
        waiting = report.unverifiable
        for check in waiting[:MAX_UNVERIFIABLE_SHOWN]:
            out(check.line())
        if len(waiting) > MAX_UNVERIFIABLE_SHOWN:
            out(f"... and {len(waiting) - MAX_UNVERIFIABLE_SHOWN} more unverifiable rolls (--json lists all)")
        for problem in report.errors:
            out(f"error: {problem}")
        for unproven in report.unproven:
            out(f"not proved: {unproven}")
        for warning in report.warnings:
            out(f"warning: {warning}")
        if report.replayed:
            out(
                f"note: {len(report.replayed)} rolls have no commitment (the CLI's or another source's): nothing "
                "proves their faces fair; each was resolved again from its faces and gives its logged outcome"
            )
        if report.pinned is not None and not report.failed:
            out(f"pinned: commitment {report.pinned} is in the log; it proves the rolls logged before it was published")
        elif report.pinned is None and any(check.nonce is not None for check in report.checks):
            out("note: no commitment pinned; --commitment HEX (the one the room's page showed you) pins the log")
        out(report.summary())
    if report.failed:
        raise click.exceptions.Exit(1)
    if not report.ok:
        raise click.exceptions.Exit(3)
