"""What the ``mtgdice`` subcommands share: the command table, one-line errors in command-line
terms, the lazy-loading group, console and card-data helpers, reading requests and the board options.

Every command module (``cli.roll``, ``cli.resolve``, ``cli.odds``, ``cli.cards``, ``cli.log``,
``cli.web``) imports its helpers from here, never from the package ``mtgdice.cli``, which holds only
the top-level group and :func:`main`. It leaves out every command's work.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

import click

if TYPE_CHECKING:
    from mtgdice.io.outcome import JSON, JSONObject

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

COMMANDS = {
    "roll": "mtgdice.cli.roll:roll_command",
    "compile": "mtgdice.cli.resolve:compile_command",
    "resolve": "mtgdice.cli.resolve:resolve_command",
    "odds": "mtgdice.cli.odds:odds_command",
    "simulate": "mtgdice.cli.odds:simulate_command",
    "fairness": "mtgdice.cli.odds:fairness_command",
    "cards": "mtgdice.cli.cards:cards_group",
    "log": "mtgdice.cli.log:log_group",
    "replay": "mtgdice.cli.log:replay_command",
    "verify": "mtgdice.cli.log:verify_command",
    "serve": "mtgdice.cli.web:serve_command",
    "db": "mtgdice.cli.web:db_group",
    "schema": "mtgdice.cli.schema:schema_command",
}
"""Each subcommand and where it lives, ``module:attribute``; a module is imported when its command runs."""

CARDS_HELP = (
    "Scryfall-format card file (default: $MTGDICE_CARDS, then the card index of `mtgdice cards`, "
    "then the card data inside the package; `mtgdice cards info` shows which)."
)
DB_HELP = "The roll log (default: $MTGDICE_DB, else $XDG_DATA_HOME/mtgdice/rolls.sqlite, ~/.local/share by default)."
BOARD_HELP = (
    "separated by ';' (commas belong to names), repeatable; NAME@2 sets a level, NAME+2 two +1/+1 counters, "
    "NAME[charge=3] other counters, NAME!tapped taps it, NAME[stored=4/6] stored results."
)


class Failure(click.ClickException):
    """A one-line error for people: ``mtgdice: error: MESSAGE`` on stderr, exit status 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"mtgdice: error: {self.message}", err=True)


def _asks_for_help(error: click.UsageError) -> bool:
    """A group named without a subcommand: click (8.2+) raises this to show the help."""
    return type(error).__name__ == "NoArgsIsHelpError"


def usage_line(error: click.UsageError) -> str:
    """A command-line mistake in one line, with where to find help."""
    if error.ctx is not None:
        where = error.ctx.command_path
    else:  # click names no command for an option's missing value: the subcommand typed, if any
        words = [word for word in sys.argv[1:2] if word in COMMANDS]
        where = " ".join(["mtgdice", *words])
    return f"{error.format_message()} (see {where} -h)"


def fail(message: str) -> NoReturn:
    """Stop the command with a one-line error (exit status 2)."""
    raise Failure(message)


class LazyGroup(click.Group):
    """A group whose subcommands are imported when they are used (``lazy`` maps name → ``module:attr``)."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as error:
            if _asks_for_help(error):
                raise
            raise Failure(usage_line(error)) from None

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy:
            import importlib

            module, _, attribute = self.lazy[cmd_name].partition(":")
            command = getattr(importlib.import_module(module), attribute)
            if not isinstance(command, click.Command):  # pragma: no cover - a wrong table entry
                raise TypeError(f"{self.lazy[cmd_name]} is not a click command")
            return command
        return super().get_command(ctx, cmd_name)


# -- shared by the subcommands --------------------------------------------------------------------


def out(text: str = "", *, err: bool = False) -> None:
    """Print plain text (no markup) to stdout, or stderr."""
    click.echo(text, err=err)


def console(stderr: bool = False, wide: int = 120) -> Any:
    """A rich console (imported here, when a command prints a table).

    Writing to a pipe or a file, there is no terminal width to fit: tables get ``wide`` columns
    rather than rich's 80, so card text and ids are not squeezed.
    """
    from rich.console import Console

    printer = Console(stderr=stderr, highlight=False)
    if not printer.is_terminal:
        printer.width = max(printer.width, wide)
    return printer


def catalog(cards: str | None, required: bool = True) -> Any:
    """The card data: ``--cards``, else ``$MTGDICE_CARDS``, else the index (``None`` when optional and absent)."""
    from mtgdice.cards.catalog import default_catalog, optional_catalog

    return default_catalog(cards) if required else optional_catalog(cards)


def read_request(file: str | None, command: str, other: str = "") -> JSONObject:
    """A JSON request from ``file`` (``-`` or nothing: standard input), bounded in size; ``other``
    names the command's other way in, for the error when there is no request at all."""
    from mtgdice.errors import InputError
    from mtgdice.io.jsonio import MAX_REQUEST_BYTES, parse_request

    if file is not None and file != "-":
        try:
            with open(file, "rb") as handle:
                raw = handle.read(MAX_REQUEST_BYTES + 1)
        except OSError as error:
            raise InputError("file", f"cannot read {file!r}: {error.strerror}") from None
    else:
        if file is None and sys.stdin.isatty():
            raise InputError("input", f"no request: give a JSON request FILE or pipe one in{other} (see {command} -h)")
        raw = sys.stdin.buffer.read(MAX_REQUEST_BYTES + 1)
    if not raw.strip():
        where = f"{file!r} is empty" if file not in (None, "-") else "nothing on standard input"
        raise InputError("input", f"no request: {where}; give a JSON request{other} (see {command} -h)")
    return parse_request(raw)


def needs_cards(request: Mapping[str, JSON]) -> bool:
    """Whether a request names any card (then card data is required)."""

    def by_name(item: JSON) -> bool:
        return isinstance(item, str) or (isinstance(item, dict) and "text" not in item)

    if "text" not in request:
        return True
    for zone in ("battlefield", "opponents", "graveyard", "command"):
        items = request.get(zone) or []
        if isinstance(items, list) and any(by_name(item) for item in items):
            return True
    return False


def amounts(pairs: Iterable[str]) -> dict[str, int]:
    """``--amount X=3`` options as the request's ``amounts``.

    >>> amounts(["X=3", "cards in hand = 2"])
    {'X': 3, 'cards in hand': 2}
    """
    from mtgdice.errors import InputError

    values: dict[str, int] = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        if not name.strip() or not re.fullmatch(r"-?\d{1,9}", value.strip()):
            raise InputError("--amount", f"{pair!r} is not NAME=NUMBER (e.g. X=3)")
        values[name.strip()] = int(value)
    return values


ZONE_FLAGS = {"battlefield": "--with", "opponents": "--opponents", "graveyard": "--graveyard", "command": "--command"}
"""The board option that fills each zone of a request."""

_SUFFIX = re.compile(r"(?:@(?P<level>\d{1,3})|\+(?P<plus>\d{1,4})|!(?P<tapped>tapped)|\[(?P<items>[^\[\]]*)\])\s*$")

_BAD_SUFFIX = re.compile(r"(?:@\S*|\+\S*|![A-Za-z]+|\[[^\]]*|\])\s*$")
"""What is left at the end of an entry that looks like a state but is not one ("@x", "!untapped",
an unclosed "["); a name ending in "!" alone is a name."""


def board_entries(options: Iterable[str]) -> list[str]:
    """Repeated board options, each split on ``;`` (never on commas: they belong to card names).

    >>> board_entries(["Nadia, Keeper of Dice; Lucky Sprite", " Some Class@2 "])
    ['Nadia, Keeper of Dice', 'Lucky Sprite', 'Some Class@2']
    """
    return [entry.strip() for option in options for entry in option.split(";") if entry.strip()]


@dataclass(frozen=True, slots=True)
class BoardEntry:
    """One board option entry as typed: a card's name and the state written after it."""

    name: str
    level: int = 1
    counters: tuple[tuple[str, int], ...] | None = None
    tapped: bool = False
    stored: tuple[int, ...] | None = None

    def json(self) -> JSON:
        """The entry as a request's zone item: the name alone, or an object with its state."""
        from mtgdice.io.jsonio import zone_item_json
        from mtgdice.rules import Permanent

        entered = Permanent(self.name, level=self.level, counters=self.counters, tapped=self.tapped, stored=self.stored)
        return zone_item_json(entered)


def board_item(entry: str, flag: str = "--with") -> BoardEntry:
    """One board entry as typed: a card name with its level, counters, tapped, stored.

    >>> board_item("Lucky Sprite")
    BoardEntry(name='Lucky Sprite', level=1, counters=None, tapped=False, stored=None)
    >>> board_item("Some Class@2").json(), board_item("Counting Squirrel+2!tapped").json()
    ({'card': 'Some Class', 'level': 2}, {'card': 'Counting Squirrel', 'counters': {'+1/+1': 2}, 'tapped': True})
    >>> board_item("Charged Box[charge=30, tapped]").json(), board_item("Dice Box[stored=4/6]").json()
    ({'card': 'Charged Box', 'counters': {'charge': 30}, 'tapped': True}, {'card': 'Dice Box', 'stored': [4, 6]})
    >>> board_item("Some Class@x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    mtgdice.rules.errors.InputError: --with 'Some Class@x': '@x' is not a state: write NAME@LEVEL, ...
    """
    from mtgdice.errors import InputError

    name = entry.strip()
    level = 1
    tapped = False
    stored: tuple[int, ...] | None = None
    counters: dict[str, int] = {}
    while (match := _SUFFIX.search(name)) is not None and match.start() > 0:
        name = name[: match.start()].rstrip()
        if match.group("level") is not None:
            level = int(match.group("level"))
        elif match.group("plus") is not None:
            counters["+1/+1"] = counters.get("+1/+1", 0) + int(match.group("plus"))
        elif match.group("tapped") is not None:
            tapped = True
        else:
            for part in (p.strip() for p in match.group("items").split(",")):
                key, equals, value = (s.strip() for s in part.partition("="))
                if not part:
                    continue
                if key.lower() == "tapped" and not equals:
                    tapped = True
                elif key.lower() == "level" and value.isdigit():
                    level = int(value)
                elif key.lower() == "stored" and re.fullmatch(r"\d{1,6}(/\d{1,6})*", value):
                    stored = tuple(int(v) for v in value.split("/"))
                elif key and equals and value.isdigit() and len(value) <= 6:
                    counters[key] = counters.get(key, 0) + int(value)
                else:
                    raise InputError(
                        f"{flag} {entry!r}",
                        f"{part!r} is not level=N, KIND=N (counters), stored=N/N or tapped",
                    )
    if (bad := _BAD_SUFFIX.search(name)) is not None and bad.start() > 0:
        raise InputError(
            f"{flag} {entry!r}",
            f"{bad.group().strip()!r} is not a state: write NAME@LEVEL, NAME+N (+1/+1 counters), NAME!tapped "
            "or NAME[KIND=N, stored=N/N, tapped]",
        )
    typed = tuple(reversed(counters.items())) if counters else None  # read right to left: back in typed order
    return BoardEntry(name, level, typed, tapped, stored)


def board_request(zones: dict[str, Sequence[str]]) -> JSONObject:
    """The zone lists of a request from the board options (``{"battlefield": [--with values], ...}``)."""
    return {
        zone: [board_item(entry, ZONE_FLAGS[zone]).json() for entry in board_entries(options)]
        for zone, options in zones.items()
    }


_INDEXED = re.compile(r"^(?P<zone>battlefield|opponents|graveyard|command)\[(?P<index>\d+)\](?P<rest>.*)$")


def in_cli_terms(error: Exception, entries: dict[str, list[str]] | None = None) -> str:
    """An error about a request built from flags, said in the flags' terms.

    ``amounts.X`` becomes ``--amount X=...``, ``battlefield[0]`` the first ``--with`` entry (``entries``
    holds each zone's entries as typed), ``choices[1]`` the second ``--choices`` answer; a hint to
    give JSON ``"text"`` says where that is possible.

    >>> from mtgdice.errors import InputError
    >>> from mtgdice.rules.errors import MissingAmountError
    >>> in_cli_terms(MissingAmountError("X"))
    '--amount X=...: this roll needs its value; give --amount X=N'
    >>> in_cli_terms(InputError("battlefield[1].level", "expected 1 or more, got 0"), {"battlefield": ["A", "B@0"]})
    "--with 'B@0': level: expected 1 or more, got 0"
    """
    from mtgdice.errors import InputError
    from mtgdice.rules.errors import MissingAmountError

    if not isinstance(error, InputError):
        return str(error)
    if isinstance(error, MissingAmountError):
        return f"--amount {error.amount}=...: {error.problem}; give --amount {error.amount}=N"
    field, problem = error.field, error.problem
    flag = field
    if field.startswith("amounts."):
        name = field.removeprefix("amounts.")
        flag = f"--amount {name}=..."
        problem = problem.replace("add it to amounts", f"give --amount {name}=N")
    elif field in ("card", "roll", "choices", "amounts"):
        flag = {"amounts": "--amount"}.get(field, f"--{field}")
    elif field.startswith("choices["):
        flag = f"--choices{field.removeprefix('choices')}"
    elif (indexed := _INDEXED.match(field)) is not None:
        zone, index, rest = indexed.group("zone"), int(indexed.group("index")), indexed.group("rest")
        typed = (entries or {}).get(zone) or []
        flag = f"{ZONE_FLAGS[zone]} {typed[index]!r}" if index < len(typed) else f"{ZONE_FLAGS[zone]} entry {index + 1}"
        if rest.startswith("."):
            problem = f"{rest[1:]}: {problem}"
    problem = problem.replace(
        'with "text" instead', 'by its Oracle text ("text") in a JSON request to `mtgdice resolve`'
    )
    return f"{flag}: {problem}" if flag else problem


def card_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """The options that put a card's roll on a board (``--card``, ``--roll``, the board zones,
    ``--amount``, ``--cards``), handed to the command as one :class:`CardOptions` named ``options``."""

    @functools.wraps(function)
    def command(
        *args: Any,
        card: str | None,
        roll_number: int,
        with_: Sequence[str],
        opponents: Sequence[str],
        graveyard: Sequence[str],
        command_zone: Sequence[str],
        amount: Sequence[str],
        cards: str | None,
        **kwargs: Any,
    ) -> Any:
        zones = {"battlefield": with_, "opponents": opponents, "graveyard": graveyard, "command": command_zone}
        return function(*args, options=CardOptions(card, roll_number, amount, zones, cards), **kwargs)

    decorated: Callable[..., Any] = command
    for decorator in reversed(
        [
            click.option("--card", metavar="NAME", help="The card whose roll instruction to use."),
            click.option(
                "--roll",
                "roll_number",
                type=click.IntRange(min=1),
                default=1,
                show_default=True,
                help="Which roll instruction of the card (1 = the first; `mtgdice compile` numbers them).",
            ),
            click.option("--with", "with_", metavar="NAMES", multiple=True, help="Your permanents, " + BOARD_HELP),
            click.option("--opponents", metavar="NAMES", multiple=True, help="Opponents' permanents, same syntax."),
            click.option("--graveyard", metavar="NAMES", multiple=True, help="Cards in your graveyard, same syntax."),
            click.option(
                "--command", "command_zone", metavar="NAMES", multiple=True, help="Face-up plane or phenomenon."
            ),
            click.option("--amount", metavar="NAME=N", multiple=True, help="A variable amount, e.g. X=3 (repeatable)."),
            click.option("--cards", metavar="PATH", help=CARDS_HELP),
        ]
    ):
        decorated = decorator(decorated)
    return decorated


class CardOptions:
    """The card options of one command line, as typed (for errors) and as a resolve-style request.

    ``--roll`` is 1-based; the request's ``roll`` is 0-based (the JSON contract).

    >>> options = CardOptions("Some Ogre", 1, ["X=2"], {"battlefield": ["Nadia, Keeper of Dice; Lucky Sprite"]})
    >>> options.request()["battlefield"], options.entries["battlefield"][1]
    (['Nadia, Keeper of Dice', 'Lucky Sprite'], 'Lucky Sprite')
    """

    def __init__(
        self,
        card: str | None,
        roll_number: int,
        amount: Iterable[str],
        zones: dict[str, Sequence[str]],
        cards: str | None = None,
    ) -> None:
        self.card = card
        self.roll_number = roll_number
        self.amount = list(amount)
        self.entries = {zone: board_entries(options) for zone, options in zones.items()}
        self.cards = cards

    def request(self) -> JSONObject:
        """The options as a request object (``odds`` and ``simulate`` read one)."""
        board: JSONObject = {
            zone: [board_item(entry, ZONE_FLAGS[zone]).json() for entry in entries]
            for zone, entries in self.entries.items()
        }
        given: JSONObject = {"card": self.card or "", "roll": self.roll_number - 1}
        return given | {"amounts": dict(amounts(self.amount))} | board

    def fail(self, error: Exception) -> NoReturn:
        """Stop with ``error`` in the terms of these options."""
        fail(in_cli_terms(error, self.entries))

    def check_roll_number(self, compiled: Any) -> None:
        """``--roll N`` must name one of the card's roll instructions (numbered from 1)."""
        from mtgdice.errors import InputError

        count = len(compiled.instructions)
        if count and self.roll_number > count:
            which = "leave --roll out (or give --roll 1)" if count == 1 else f"give --roll 1 to {count}"
            plural = "s" if count > 1 else ""
            raise InputError("--roll", f"{compiled.name} has {count} roll instruction{plural}; {which}")
