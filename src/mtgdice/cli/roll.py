"""``mtgdice roll``: plain dice, the planar die, a coin, or a card's roll instruction on a board.

Plain dice (``3d6+2``, ``4d6dl1``, ``adv``) are rolled by :mod:`mtgdice.rules.plain`: no Magic
effect applies to them and the output says so. The planar die, a coin and card rolls take one
way (docs/architecture.md): the flags become a request the game prepares once
(:func:`prepared_request`), the game resolves it through the rules, the log records it, ``io``
writes the turn and renders the outcome, and this module prints. Every roll is appended to the
roll log unless ``--no-log``, so ``mtgdice replay`` can re-resolve it. Decisions are asked at the
terminal, numbered from 1, after the dice they are about are shown.

This module imports only click and the plain-dice model at start-up; the compiler, the card
data and rich are loaded when a card, the planar die or a coin is rolled.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from mtgdice.cli.common import CONTEXT, DB_HELP, CardOptions, card_options, out

if TYPE_CHECKING:
    from mtgdice.game.request import CardSource, Prepared, RollRequest
    from mtgdice.log.store import RollLog
    from mtgdice.rules import Chooser, DiceSource, TurnState

PLANAR_WORDS = ("planar", "planar die", "the planar die")
COIN_WORDS = ("coin", "flip")
POLICIES = ("best", "decline", "accept", "maximize", "minimize")
SEAT_ZONES = ("battlefield", "graveyard", "command")
PENDING = -1
"""The seat a namer is given for a waiting replacement (it is in no seat's zone)."""


class TableFlags:
    """The flags of ``roll`` that set the rest of the table: other seats' zones, seat count,
    controller, roller, the turn's memory (in and out), waiting replacements, the policy for
    decisions nobody answers."""

    def __init__(
        self,
        seat: tuple[str, ...] = (),
        players: int | None = None,
        controller: int = 0,
        roller: int | None = None,
        turn: str | None = None,
        turn_out: str | None = None,
        pending: tuple[str, ...] = (),
        policy: str = "best",
    ) -> None:
        self.seat, self.players, self.controller, self.roller = seat, players, controller, roller
        self.turn, self.turn_out, self.pending, self.policy = turn, turn_out, pending, policy


def seat_flag(value: str) -> tuple[int, str, str]:
    """``--seat N:ZONE=NAMES`` as (seat, zone, names).

    >>> seat_flag("1:graveyard=Some Card; Other Card")
    (1, 'graveyard', 'Some Card; Other Card')
    >>> seat_flag("2=Some Card")
    (2, 'battlefield', 'Some Card')
    """
    from mtgdice.errors import InputError

    head, equals, names = value.partition("=")
    number, _, zone = (part.strip() for part in head.partition(":"))
    zone = zone.lower() or "battlefield"
    if not equals or not number.isdigit() or zone not in SEAT_ZONES:
        raise InputError(
            f"--seat {value!r}",
            "write N:ZONE=NAMES, ZONE battlefield, graveyard or command (e.g. 1:graveyard=NAME)",
        )
    return int(number), zone, names


def pending_flag(value: str) -> tuple[int, int | None, str]:
    """``--pending C>T:NAME`` (a replacement of seat C's card NAME, targeting seat T) or ``C:NAME``.

    >>> pending_flag("0>1:Some Card"), pending_flag("1:Other Card")
    ((0, 1, 'Some Card'), (1, None, 'Other Card'))
    """
    from mtgdice.errors import InputError

    seats, colon, name = value.partition(":")
    controller, arrow, target = (part.strip() for part in seats.partition(">"))
    if not colon or not name.strip() or not controller.isdigit() or (arrow and not target.isdigit()):
        raise InputError(f"--pending {value!r}", "write CONTROLLER>TARGET:NAME or CONTROLLER:NAME (e.g. 0>1:NAME)")
    return int(controller), int(target) if arrow else None, name.strip()


def prepared_request(options: CardOptions, table: TableFlags, kind: str, answers: tuple[object, ...] = ()) -> Prepared:
    """The typed request of a command line, built from its flags (no JSON in between) and prepared
    once: each card enters the table here (looked up in the card data and compiled, once), the
    instruction is picked and the policy for decisions nobody answers is set; an error names the
    flag entry that gave it."""
    from mtgdice.cli.common import board_entries, catalog
    from mtgdice.errors import InputError
    from mtgdice.game.request import no_seat, prepare
    from mtgdice.rules.board import MAX_SEATS

    placed: list[tuple[int, str, str, str]] = []  # (seat, zone, flag, entry) in the order given
    for zone, flag in (("battlefield", "--with"), ("graveyard", "--graveyard"), ("command", "--command")):
        placed += [(0, zone, flag, entry) for entry in options.entries.get(zone, [])]
    placed += [(1, "battlefield", "--opponents", entry) for entry in options.entries.get("opponents", [])]
    for value in table.seat:
        seat, zone, given = seat_flag(value)
        if seat >= MAX_SEATS:
            raise InputError(
                f"--seat {value!r}", f"seat {seat} does not exist; a table has at most {MAX_SEATS} players"
            )
        placed += [(seat, zone, f"--seat {seat}:{zone}", entry) for entry in board_entries([given])]
    highest = max((seat for seat, _, _, _ in placed), default=0)
    players = table.players if table.players is not None else max(2, highest + 1)
    if highest >= players:
        raise InputError("--players", f"{players} player(s), but a card is given for seat {highest}")
    pending = [(value, *pending_flag(value)) for value in table.pending]
    checks: list[tuple[str, int | None]] = [
        ("--controller", table.controller),
        ("--roller", table.roller),
        *((f"--pending {value!r}", controller) for value, controller, _, _ in pending),
        *((f"--pending {value!r}", target) for value, _, target, _ in pending),
    ]
    for flag, given_seat in checks:
        if given_seat is not None and not 0 <= given_seat < players:
            raise InputError(flag, no_seat(given_seat, players))
    named = bool(placed or pending or (kind == "card" and options.card is not None))
    cards = catalog(options.cards) if named else None
    try:
        request = _entered(options, table, kind, answers, players, placed, pending, cards)
        return prepare(request, policy=table.policy)
    except InputError as error:  # a card's problem, said for the command line
        field, problem = (
            error.field,
            error.problem.replace(
                'with "text" instead', 'by its Oracle text ("text") in a JSON request to `mtgdice resolve`'
            ),
        )
        if field.startswith("--") and field.endswith(".level"):  # the entry's state: --with 'NAME@0'
            field, problem = field.removesuffix(".level"), f"level: {problem}"
        elif field in ("card", "roll", "roller"):  # what the request picks: its flag
            field = f"--{field}"
        raise InputError(field, problem) from None


def _entered(
    options: CardOptions,
    table: TableFlags,
    kind: str,
    answers: tuple[object, ...],
    players: int,
    placed: list[tuple[int, str, str, str]],
    pending: list[tuple[str, int, int | None, str]],
    cards: CardSource | None,
) -> RollRequest:
    """The request with every card of the command line entered (errors name each flag entry)."""
    from mtgdice.cli.common import amounts, board_item
    from mtgdice.game.request import RollKind, RollRequest, enter_card, enter_source, enter_waiting
    from mtgdice.rules import Board, Permanent, Seat
    from mtgdice.rules.board import PlayerZones

    zones: dict[tuple[int, str], list[Permanent]] = {}
    for seat, zone, flag, entry in placed:
        where = f"{flag} {entry!r}"
        typed = board_item(entry, flag)
        zones.setdefault((seat, zone), []).append(
            enter_card(
                typed.name,
                cards,
                where,
                level=typed.level,
                counters=typed.counters,
                tapped=typed.tapped,
                stored=typed.stored,
            )
        )
    waiting = tuple(
        enter_waiting(
            name, cards, f"--pending {value!r}", Seat(controller), Seat(target) if target is not None else None
        )
        for value, controller, target, name in pending
    )
    seats = tuple(PlayerZones(*(tuple(zones.get((seat, zone), ())) for zone in SEAT_ZONES)) for seat in range(players))
    source = None
    if kind == "card" and options.card is not None:
        source = enter_source(options.card, cards, "--card")
        options.check_roll_number(source.compiled)
    return RollRequest(
        kind=RollKind(kind),
        card=source,
        roll=options.roll_number - 1,
        board=Board(seats, waiting),
        seated=True,
        controller=Seat(table.controller),
        roller=Seat(table.roller) if table.roller is not None else None,
        amounts=tuple(amounts(options.amount).items()),
        choices=answers,
        turn=read_turn(table.turn, players),
    )


def read_turn(path: str | None, players: int) -> TurnState:
    """``--turn FILE``: what the turn remembers, the ``turn`` object an earlier roll wrote."""
    from mtgdice.errors import InputError
    from mtgdice.rules import TurnState

    if path is None:
        return TurnState()
    from mtgdice.io.jsonio import parse_request, turn_from_json

    try:
        with open(path, "rb") as file:
            data = parse_request(file.read(), f"--turn {path}")
    except OSError as error:
        raise InputError(f"--turn {path}", error.strerror or "cannot be read") from None
    try:
        return turn_from_json(data, players)
    except InputError as error:
        raise InputError(f"--turn {path}", f"{error.field}: {error.problem}") from None


def join_specs(words: tuple[str, ...]) -> list[str]:
    """Command-line words as rolls: ``2d6 + 1`` typed unquoted is one roll, ``d20 planar`` two.

    >>> join_specs(("2d6", "+", "1", "d20", "planar", "d8", "-1"))
    ['2d6 + 1', 'd20', 'planar', 'd8 -1']
    """
    specs: list[str] = []
    for word in (w.strip() for w in words):
        if not word:
            continue
        if specs and (word[0] in "+-" or specs[-1][-1] in "+-"):
            specs[-1] += " " + word
        else:
            specs.append(word)
    return specs


@click.command("roll", context_settings=CONTEXT)
@click.argument("dice", nargs=-1, metavar="[DICE]...")
@card_options
@click.option(
    "--choices", default="[]", metavar="JSON", help="Answers to the card's decisions, as `resolve`'s JSON list."
)
@click.option(
    "--seat",
    metavar="N:ZONE=NAMES",
    multiple=True,
    help="Cards in seat N's battlefield, graveyard or command zone (seat 0 is you, 1, 2, ... the others in turn "
    "order), e.g. 1:graveyard=NAME; NAMES as --with. Repeatable.",
)
@click.option(
    "--players", type=click.IntRange(1, 8), help="Players at the table (default: 2, or the highest seat given)."
)
@click.option(
    "--controller",
    type=click.IntRange(min=0),
    default=0,
    metavar="SEAT",
    help="The seat controlling the card (default 0).",
)
@click.option(
    "--roller",
    type=click.IntRange(min=0),
    metavar="SEAT",
    help="The seat that rolls, for a text like 'that player rolls'.",
)
@click.option("--turn", "turn_file", metavar="FILE", help="What this turn remembers: the turn an earlier roll wrote.")
@click.option("--turn-out", metavar="FILE", help="Write the turn after this roll, to pass as --turn to the next roll.")
@click.option(
    "--pending",
    metavar="C>T:NAME",
    multiple=True,
    help="A replacement seat C activated earlier that waits (NAME's), targeting seat T (e.g. 0>1:NAME).",
)
@click.option(
    "--policy",
    type=click.Choice(POLICIES),
    default="best",
    show_default=True,
    help="How decisions nobody answers are taken (no terminal, no --choices): best = the roller's best result for "
    "the roller's own choices, optional actions declined; or as odds --policy.",
)
@click.option("--seed", type=int, help="Reproducible dice from this seed (not for play).")
@click.option("--json", "as_json", is_flag=True, help="Print each outcome as JSON.")
@click.option("--ask/--no-ask", default=None, help="Ask each decision at the terminal (default: when stdin is one).")
@click.option("--log/--no-log", default=True, help="Append each roll to the roll log (default: yes).")
@click.option("--db", metavar="PATH", help=DB_HELP)
def roll_command(
    dice: tuple[str, ...],
    options: CardOptions,
    choices: str,
    seat: tuple[str, ...],
    players: int | None,
    controller: int,
    roller: int | None,
    turn_file: str | None,
    turn_out: str | None,
    pending: tuple[str, ...],
    policy: str,
    seed: int | None,
    as_json: bool,
    ask: bool | None,
    log: bool,
    db: str | None,
) -> None:
    """Roll fair dice: plain DICE (3d6+2, 4d6dl1, 2d20kh1, d%, 4dF, adv, dis), planar, coin, or
    --card NAME on your board. Every roll goes to the roll log.

    Plain dice are not a card roll: no Magic effect applies to them. A board entry may set a
    permanent's state: "NAME@2" (a Class at level 2), "NAME+2" (two +1/+1 counters),
    "NAME[charge=30]" (other counters), "NAME!tapped", "NAME[stored=4/6]" (stored results).
    """
    from mtgdice.cli.common import fail
    from mtgdice.errors import InputError, MtgDiceError
    from mtgdice.rules.sources import SecureSource, SeededSource

    source = SeededSource(seed) if seed is not None else SecureSource()
    table = TableFlags(seat, players, controller, roller, turn_file, turn_out, pending, policy)
    roll_log = None
    try:
        if options.card is not None:
            if dice:
                raise InputError("dice", f"roll either --card NAME or plain dice, not both ({' '.join(dice)!r})")
            answers = _answers(choices)
            prepared = prepared_request(options, table, "card", answers)  # bad input fails before the log opens
            roll_log = _open_log(log, db)
            prompt = ask or (ask is None and not answers and sys.stdin.isatty() and not as_json)
            _roll_request(table, prepared, source, as_json, roll_log, PromptChooser() if prompt else None)
            return
        roll_log = _open_log(log, db)
        specs = join_specs(dice)
        if not specs:
            raise InputError("dice", "no dice given; say what to roll: 3d6+2, d20, adv, planar, coin, or --card NAME")
        for spec in specs:
            word = spec.lower()
            if word in COIN_WORDS:
                _flip_coin(options, table, source, as_json, roll_log)
            elif word in PLANAR_WORDS:
                _roll_planar(options, table, source, as_json, roll_log)
            else:
                _roll_plain(spec, source, as_json, roll_log)
    except MtgDiceError as error:
        fail(str(error))
    finally:
        if roll_log is not None:
            roll_log.close()


def _open_log(log: bool, db: str | None) -> RollLog | None:
    if not log:
        return None
    from mtgdice.log.store import RollLog, default_db_path

    return RollLog(db or default_db_path())


def _answers(choices: str) -> tuple[object, ...]:
    import json

    from mtgdice.errors import InputError

    try:
        answers = json.loads(choices)
    except json.JSONDecodeError as error:
        raise InputError("--choices", f"not valid JSON: {error.msg} (write a list such as [true, 1])") from None
    if not isinstance(answers, list):
        raise InputError("--choices", "expected a JSON list such as [true, 1]")
    return tuple(answers)


def _roll_plain(spec: str, source: DiceSource, as_json: bool, roll_log: RollLog | None) -> None:
    """Plain dice notation: no card, no Magic effect (the board options do not apply). Kept light:
    no compiler, no card data; the record's request is the notation itself."""
    from mtgdice.io.render import plain_lines
    from mtgdice.rules.plain import roll_plain
    from mtgdice.text.notation import parse_plain

    result = roll_plain(parse_plain(spec), source)
    if roll_log is not None:  # committed before it is shown
        roll_log.record(result.roll, result, source)
    if as_json:
        from mtgdice.io.outcome import dumps, plain_json

        out(dumps(plain_json(result)))
    else:
        for text, style in plain_lines(result):
            click.secho(text, bold=style == "bold")


def _roll_planar(
    options: CardOptions, table: TableFlags, source: DiceSource, as_json: bool, roll_log: RollLog | None
) -> None:
    """The planar die through the rules (CR 706.7), at the table the options give."""
    prepared = prepared_request(options, table, "planar")
    _roll_request(table, prepared, source, as_json, roll_log, None, "The planar die (CR 706.7)")


def _flip_coin(
    options: CardOptions, table: TableFlags, source: DiceSource, as_json: bool, roll_log: RollLog | None
) -> None:
    """A coin flip (CR 705) through the rules' coins: partner coins and reflips on the board apply,
    no die effect does."""
    prepared = prepared_request(options, table, "coin")
    _roll_request(table, prepared, source, as_json, roll_log, None, "Coin (CR 705)")


def _roll_request(
    table: TableFlags,
    prepared: Prepared,
    source: DiceSource,
    as_json: bool,
    roll_log: RollLog | None,
    chooser: Chooser | None,
    title: str = "",
) -> None:
    """Resolve a prepared request with ``source``, commit it to the log, write the turn it leaves
    (``--turn-out``), then show it: a roll that was shown is a roll that was logged (a kill while
    printing loses nothing shown). One way through: the game resolves through the rules, ``io``
    writes and renders, and this shell only prints."""
    from mtgdice.errors import InputError
    from mtgdice.game.request import resolve_prepared
    from mtgdice.io.jsonio import dumps, outcome_json, save_json, table_json
    from mtgdice.io.render import policy_note, roll_view
    from mtgdice.rules.errors import MissingAmountError

    try:
        outcome = resolve_prepared(prepared, source, chooser, choices_field="--choices")
    except MissingAmountError as error:
        raise InputError(f"--amount {error.amount}=...", f"{error.problem}; give --amount {error.amount}=N") from None
    if roll_log is not None:
        roll_log.record(prepared.request, outcome, source)
    kept = table_json(prepared.request, outcome)
    if table.turn_out is not None:
        save_json(table.turn_out, kept["turn"], f"--turn-out {table.turn_out}")
    shown = dumps(outcome_json(outcome) | kept) if as_json else roll_view(outcome, prepared, title)
    note = policy_note(prepared.policy, outcome.decisions[len(prepared.request.choices) :] if chooser is None else ())
    _print(shown, note)


def _print(shown: str | list[Any], note: str | None) -> None:
    """Print what was rendered (JSON text, or the lines and tables of a roll) on stdout, and the
    policy's note, if any, on stderr."""
    from mtgdice.cli.common import console

    if isinstance(shown, str):
        out(shown)
    else:
        stdout = console()
        for part in shown:
            stdout.print(part, markup=False)
    if note is not None:
        console(stderr=True).print(note, markup=False, soft_wrap=True)


class PromptChooser:
    """Asks each decision at the terminal (the roller answers), options numbered from 1.

    The dice of the execution as they stand are shown first (``Decision.dice``), so a player
    decides having seen them. Answers go back 0-based, as the rules
    and JSON ``choices`` count.
    """

    def decide(self, decision: Any) -> Any:
        from rich.prompt import Confirm, IntPrompt, Prompt

        from mtgdice.cli.common import console
        from mtgdice.errors import MtgDiceError
        from mtgdice.io.render import dice_line
        from mtgdice.rules import Ask
        from mtgdice.rules.choices import check_answer

        err = console(stderr=True)
        if decision.dice:
            err.print(f"Dice: {dice_line(decision.dice)}", markup=False)
        if decision.ask is Ask.YES_NO:
            return Confirm.ask(decision.prompt, console=err, default=False)
        for number, option in enumerate(decision.options, start=1):
            err.print(f"  {number}: {option}", markup=False)
        if decision.ask is Ask.PICK_ONE:
            while True:
                picked = IntPrompt.ask(decision.prompt, console=err, default=1)
                if 1 <= picked <= len(decision.options):
                    return picked - 1
                err.print(f"Give a number from 1 to {len(decision.options)}.", markup=False)
        while True:
            raw = Prompt.ask(
                f"{decision.prompt} (numbers separated by commas, empty for none)", console=err, default=""
            )
            parts = [part.strip() for part in raw.split(",") if part.strip()]
            if all(part.isdigit() for part in parts):
                try:
                    return check_answer(decision, [int(part) - 1 for part in parts])
                except MtgDiceError:
                    pass
            err.print(f"Give numbers from 1 to {len(decision.options)}, each once, separated by commas.", markup=False)


__all__ = ["PromptChooser", "TableFlags", "join_specs", "pending_flag", "prepared_request", "roll_command", "seat_flag"]
