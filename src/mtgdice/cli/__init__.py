"""The ``mtgdice`` command: a thin shell over the public API (no rules logic here).

Start-up is kept short by loading each subcommand's module only when that subcommand runs (click's
lazy-loading group): ``mtgdice roll d20`` imports click, the plain-dice model and the roll log,
never the card index, the compiler, HTTP, numpy or rich tables. This module holds the group and
:func:`main`, whose last-resort handler turns any error into one line on stderr:

- bad input: ``mtgdice: error: FIELD: problem``, exit status 2;
- a missing optional part: one line naming ``pip install 'mtgdice[web]'`` (or ``[plot]``), exit 2;
- anything unexpected: one line and "run with --debug for the traceback", exit status 1.

It leaves out the helpers the subcommands share (:mod:`mtgdice.cli.common`) and every command's
work (``cli.roll``, ``cli.resolve``, ``cli.odds``, ``cli.cards``, ``cli.log``, ``cli.web``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

import click

from mtgdice import __version__
from mtgdice.cli.common import COMMANDS, CONTEXT, LazyGroup, _asks_for_help, usage_line

EXTRAS = {
    "fastapi": "web",
    "starlette": "web",
    "uvicorn": "web",
    "jinja2": "web",
    "websockets": "web",
    "matplotlib": "plot",
}
"""Optional parts by top-level module: a missing one is one line naming the extra to install."""

_DEBUG = {"on": os.environ.get("MTGDICE_DEBUG", "") not in ("", "0")}


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings=CONTEXT)
@click.version_option(__version__, prog_name="mtgdice", message="%(prog)s %(version)s")
@click.option("--debug", is_flag=True, help="Show the full traceback when mtgdice fails unexpectedly.")
def cli(debug: bool) -> None:
    """Rules-exact dice for Magic: The Gathering (Comprehensive Rules 706).

    Plain dice (mtgdice roll 3d6+2), a card's roll on your board (mtgdice roll --card NAME --with
    "A; B"), exact odds, simulation, the JSON interface, the roll log and shared web rooms.
    """
    _DEBUG["on"] = _DEBUG["on"] or debug


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point: run the command; every failure is one line on stderr."""
    try:
        status = cli.main(args=list(argv) if argv is not None else None, prog_name="mtgdice", standalone_mode=False)
    except click.UsageError as error:
        if _asks_for_help(error) and error.ctx is not None:
            click.echo(error.ctx.get_help())
            status = 0
        else:
            click.echo(f"mtgdice: error: {usage_line(error)}", err=True)
            status = error.exit_code
    except click.ClickException as error:
        error.show()
        status = error.exit_code
    except click.Abort:
        click.echo("mtgdice: aborted", err=True)
        status = 1
    except KeyboardInterrupt:
        click.echo("mtgdice: interrupted", err=True)
        status = 130
    except BrokenPipeError:
        # The reader of stdout went away (``| head``): stop quietly, without a traceback at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        status = 1
    except Exception as error:  # noqa: BLE001 - the last resort: no traceback reaches a person
        status = last_resort(error)
    sys.exit(status if isinstance(status, int) else 0)


def last_resort(error: BaseException) -> int:
    """One line for an error nothing else caught; the traceback with ``--debug``. Returns the exit status."""
    from mtgdice.errors import MtgDiceError

    extra = missing_extra(error)
    if extra is not None:
        click.echo(f"mtgdice: error: {extra}", err=True)
        return 2
    if isinstance(error, MtgDiceError):
        click.echo(f"mtgdice: error: {error}", err=True)
        return 2
    if _DEBUG["on"]:
        import traceback

        traceback.print_exception(error)
    else:
        summary = str(error).splitlines()[0] if str(error) else ""
        click.echo(
            f"mtgdice: internal error: {type(error).__name__}{': ' + summary if summary else ''} "
            "(a bug; run with --debug for the traceback)",
            err=True,
        )
    return 1


def missing_extra(error: BaseException) -> str | None:
    """The line to print when ``error`` is an optional part that is not installed, else ``None``.

    >>> missing_extra(ModuleNotFoundError("No module named 'matplotlib'", name="matplotlib"))
    "this needs matplotlib, which is not installed: pip install 'mtgdice[plot]'"
    """
    if not isinstance(error, ImportError) or not error.name:
        return None
    top = error.name.partition(".")[0]
    extra = EXTRAS.get(top)
    if extra is None:
        return None
    return f"this needs {top}, which is not installed: pip install 'mtgdice[{extra}]'"
