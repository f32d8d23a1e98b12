"""The ``mtgdice`` command: a thin shell over the public API (no rules logic here).

``roll`` is for people (rich output, a fair secure source), ``compile`` and ``resolve`` speak the
JSON interface of spec/json-interface.md. Every error is one line on stderr and exit status 2.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from mtgdice.errors import InputError, MtgDiceError
from mtgdice.jsonio import (
    MAX_REQUEST_BYTES,
    board_from,
    card_from,
    dumps,
    instruction_from,
    parse_request,
    resolve_json,
)
from mtgdice.render import compiled_table, execution_summary, execution_table, resolution_lines
from mtgdice.rules import (
    Ask,
    Chooser,
    Decision,
    RollInstruction,
    ScriptedChooser,
    SecureSource,
    SeededSource,
    resolve,
)
from mtgdice.rules.choices import Answer, check_answer
from mtgdice.text import compile_text
from mtgdice.text.notation import dice_text

app = typer.Typer(
    name="mtgdice",
    help="Rules-exact dice for Magic: The Gathering (Comprehensive Rules 706).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True)

CardsOption = Annotated[
    str | None,
    typer.Option("--cards", help="Scryfall-format card file (default: $MTGDICE_CARDS, then the local index)."),
]


def fail(message: str) -> NoReturn:
    err.print(f"mtgdice: error: {message}", markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(2)


def _catalog(cards: str | None, required: bool = True) -> Any:
    from mtgdice.cards.catalog import default_catalog, optional_catalog

    return default_catalog(cards) if required else optional_catalog(cards)


def _read_request(file: Path | None) -> dict[str, Any]:
    if file is not None and str(file) != "-":
        try:
            with open(file, "rb") as handle:
                raw = handle.read(MAX_REQUEST_BYTES + 1)
        except OSError as error:
            raise InputError("file", f"cannot read {str(file)!r}: {error.strerror}") from None
    else:
        raw = sys.stdin.buffer.read(MAX_REQUEST_BYTES + 1)
    return parse_request(raw)


@app.command("resolve")
def resolve_command(
    file: Annotated[Path | None, typer.Argument(help="JSON request (default: standard input).")] = None,
    cards: CardsOption = None,
    random: Annotated[bool, typer.Option("--random", help="Roll fresh fair dice instead of 'dice'.")] = False,
) -> None:
    """Resolve one roll instruction from a JSON request; print the outcome as JSON."""
    try:
        request = _read_request(file)
        catalog = _catalog(cards, required=_needs_cards(request))
        outcome = resolve_json(request, catalog, SecureSource() if random else None)
    except MtgDiceError as error:
        fail(str(error))
    print(dumps(outcome))


def _needs_cards(request: dict[str, Any]) -> bool:
    def by_name(item: Any) -> bool:
        return isinstance(item, str) or (isinstance(item, dict) and "text" not in item)

    if "text" not in request:
        return True
    for zone in ("battlefield", "opponents", "graveyard", "command"):
        items = request.get(zone) or []
        if isinstance(items, list) and any(by_name(item) for item in items):
            return True
    return False


@app.command("compile")
def compile_command(
    card: Annotated[str | None, typer.Option("--card", help="Card name, looked up in the card data.")] = None,
    text: Annotated[
        str | None, typer.Option("--text", help="Oracle text (or printed text in another language).")
    ] = None,
    name: Annotated[str, typer.Option("--name", help="The card's name, when compiling --text.")] = "",
    cards: CardsOption = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help="With --card: compile its printed text in this language (de, ja, ...) "
            "from a card index built from Scryfall's all_cards file.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the compile JSON object.")] = False,
) -> None:
    """Show what the compiler understands of a card's dice abilities."""
    try:
        if (card is None) == (text is None):
            raise InputError("card", "give exactly one of --card NAME or --text TEXT")
        if lang is not None and lang != "en":
            if card is None:
                raise InputError("--lang", "goes with --card NAME (with --text, the language is detected)")
            text, name = _printed_text(card, lang, cards), card
        request: dict[str, Any] = {"card": card} if text is None else {"text": text, "name": name}
        compiled = card_from(request, "card", _catalog(cards) if text is None else None)
    except MtgDiceError as error:
        fail(str(error))
    if as_json:
        print(dumps(compiled.to_json()))
        return
    out.print(compiled_table(compiled))
    for note in compiled.notes:
        out.print(f"[dim]{note}[/dim]")


def _printed_text(card: str, lang: str, cards: str | None) -> str:
    from mtgdice.cards.index import printed_texts

    index = cards if cards is not None and cards.endswith((".sqlite", ".db")) else None
    printed = printed_texts(card, lang, index)
    if not printed:
        raise InputError(
            "--lang", f"no {lang} printing of {card!r} in the card index (import Scryfall's all_cards file)"
        )
    return printed[0][1]


def plain_instruction(spec: str) -> RollInstruction:
    """``2d10``, ``d20``, ``d20+1``, ``planar`` as a roll instruction, through the compiler.

    >>> plain_instruction("2d10").count.value({}), plain_instruction("d20-1").modifier.value({})
    (2, -1)
    """
    return compile_text(dice_text(spec)).rolls[0]


def _board_names(names: str) -> list[Any]:
    return [name.strip() for name in re.split(r"[;,](?![^()]*\))", names) if name.strip()] if names else []


@app.command("roll")
def roll_command(
    dice: Annotated[list[str] | None, typer.Argument(help="Plain dice: 2d10, d20, d20+1, planar, coin.")] = None,
    card: Annotated[str | None, typer.Option("--card", help="Roll this card's instruction.")] = None,
    with_: Annotated[
        str, typer.Option("--with", help="Your permanents, separated by ';' (e.g. 'Guide; Class Card').")
    ] = "",
    opponents: Annotated[str, typer.Option("--opponents", help="Opponents' permanents, separated by ';'.")] = "",
    graveyard: Annotated[str, typer.Option("--graveyard", help="Cards in your graveyard, separated by ';'.")] = "",
    command_zone: Annotated[str, typer.Option("--command", help="Face-up plane or phenomenon.")] = "",
    roll: Annotated[int, typer.Option("--roll", help="Which roll instruction of the card (0 = first).")] = 0,
    amount: Annotated[
        list[str] | None, typer.Option("--amount", help="A variable amount, NAME=VALUE (e.g. X=3).")
    ] = None,
    choices: Annotated[str, typer.Option("--choices", help="Answers to decisions, as a JSON list.")] = "[]",
    seed: Annotated[int | None, typer.Option("--seed", help="Reproducible dice from this seed (not for play).")] = None,
    cards: CardsOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
    ask: Annotated[
        bool | None, typer.Option("--ask/--no-ask", help="Ask each decision at the terminal (default: when it is one).")
    ] = None,
    log: Annotated[bool, typer.Option("--log/--no-log", help="Append each roll to the roll log.")] = True,
    db: Annotated[
        Path | None, typer.Option("--db", help="The roll log (default: $MTGDICE_DB, then ~/.local/share/mtgdice).")
    ] = None,
) -> None:
    """Roll fair dice: plain dice, or a card's instruction on your board. Every roll is logged."""
    source = SeededSource(seed) if seed is not None else SecureSource()
    roll_log = None
    try:
        if log:
            from mtgdice.log import RollLog, default_db_path

            roll_log = RollLog(db or default_db_path())  # opened first: a bad log fails before any roll
        amounts = _amounts(amount or [])
        answers = json.loads(choices)
        if not isinstance(answers, list):
            raise InputError("--choices", "expected a JSON list such as [true, 1]")
        if card is not None:
            request = {
                "card": card,
                "roll": roll,
                "amounts": amounts,
                "choices": answers,
                "battlefield": _board_names(with_),
                "opponents": _board_names(opponents),
                "graveyard": _board_names(graveyard),
                "command": _board_names(command_zone),
            }
            catalog = _catalog(cards)
            compiled, instruction = instruction_from(request, catalog)
            board = board_from(request, catalog)
            chooser: Chooser = ScriptedChooser(answers)
            if ask or (ask is None and not answers and sys.stdin.isatty() and not as_json):
                chooser = PromptChooser()
            resolution = resolve(
                instruction, source=compiled.name, dice=source, board=board, chooser=chooser, amounts=amounts
            )
            _show(resolution, instruction, as_json, title=f"{compiled.name}: {instruction.text}")
            _log(roll_log, request, resolution)
            return
        if not dice:
            raise InputError("dice", "say what to roll: 2d10, d20, planar, coin, or --card NAME")
        for spec in dice:
            coin = spec.strip().lower() in ("coin", "flip")
            text = COIN_TEXT if coin else dice_text(spec)
            instruction = compile_text(text).rolls[0]
            resolution = resolve(instruction, source=spec, dice=source, amounts=amounts)
            if coin:
                # CR 705: a coin flip, drawn as a two-sided face (1 is heads); no die effect applies.
                face = "heads" if resolution.executions[0].results == (1,) else "tails"
                if as_json:
                    print(dumps({"coin": face}))
                else:
                    out.print(f"Coin: [bold]{face}[/bold] (CR 705)")
            else:
                _show(resolution, instruction, as_json, title=spec)
            _log(roll_log, {"text": text, "name": spec.strip().lower()}, resolution)
    except json.JSONDecodeError as error:
        fail(f"--choices: not valid JSON: {error.msg}")
    except MtgDiceError as error:
        fail(str(error))
    finally:
        if roll_log is not None:
            roll_log.close()


COIN_TEXT = "Roll a d2."
"""A coin flip (CR 705), drawn as a two-sided face and logged like a roll, so it can be replayed."""


def _log(roll_log: Any, request: dict[str, Any], resolution: Any) -> None:
    from mtgdice.jsonio import resolution_json

    if roll_log is not None:
        roll_log.append(request=request, outcome=resolution_json(resolution), source=resolution.source)


class PromptChooser:
    """Asks each decision at the terminal (the roller answers); used when stdin is a terminal."""

    def decide(self, decision: Decision) -> Answer:
        from rich.prompt import Confirm, IntPrompt, Prompt

        if decision.ask is Ask.YES_NO:
            return Confirm.ask(decision.prompt, console=err, default=False)
        for index, option in enumerate(decision.options):
            err.print(f"  {index}: {option}", markup=False, highlight=False)
        if decision.ask is Ask.PICK_ONE:
            while True:
                picked = IntPrompt.ask(decision.prompt, console=err, default=0)
                if 0 <= picked < len(decision.options):
                    return picked
        while True:
            raw = Prompt.ask(
                f"{decision.prompt} (indices separated by commas, empty for none)", console=err, default=""
            )
            try:
                return check_answer(decision, [int(part) for part in raw.split(",") if part.strip()])
            except (ValueError, MtgDiceError) as error:
                err.print(str(error), markup=False)


def _amounts(pairs: list[str]) -> dict[str, int]:
    amounts: dict[str, int] = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        if not name.strip() or not re.fullmatch(r"-?\d+", value.strip()):
            raise InputError("--amount", f"{pair!r} is not NAME=NUMBER (e.g. X=3)")
        amounts[name.strip()] = int(value)
    return amounts


def _show(resolution: Any, instruction: RollInstruction, as_json: bool, title: str) -> None:
    from mtgdice.jsonio import resolution_json

    if as_json:
        print(dumps(resolution_json(resolution)))
        return
    out.print(Text(title, style="bold"), highlight=False)
    for number, execution in enumerate(resolution.executions):
        out.print(execution_table(execution, instruction, number))
        for line in execution_summary(execution, instruction):
            out.print(line, highlight=False, markup=False)
    for line in resolution_lines(resolution):
        out.print(line, highlight=False, markup=False)


def _mount_subcommands() -> None:
    """Commands that live in their own modules: cards, odds/fairness, log/replay/verify, serve."""
    import importlib

    try:
        from mtgdice.cli_cards import cards_app

        app.add_typer(cards_app, name="cards", help="Card data: import, download and search Scryfall files.")
    except ImportError:  # pragma: no cover - the module ships with the package
        pass
    for module in ("mtgdice.cli_odds", "mtgdice.cli_log", "mtgdice.cli_web"):
        try:
            importlib.import_module(module).register(app)
        except ModuleNotFoundError as error:
            if error.name != module:
                raise


_mount_subcommands()


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
