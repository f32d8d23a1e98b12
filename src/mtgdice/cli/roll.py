"""``mtgdice roll``: plain dice, the planar die, a coin, or a card's roll instruction on a board.

Plain dice (``3d6+2``, ``4d6dl1``, ``adv``) are rolled by :mod:`mtgdice.rules.plain`: no Magic
effect applies to them and the output says so. The planar die and card rolls go through the
rules (:func:`mtgdice.rules.resolution`). Every roll is appended to the roll log unless ``--no-log``,
so ``mtgdice replay`` can re-resolve it. Decisions are asked at the terminal, numbered from 1,
after the dice they are about are shown.

This module imports only click and the plain-dice model at start-up; the compiler, the card
data and rich are loaded when a card, the planar die or a coin is rolled.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from mtgdice.cli.common import CONTEXT, DB_HELP, CardOptions, card_options, out

PLANAR_WORDS = ("planar", "planar die", "the planar die")
COIN_WORDS = ("coin", "flip")


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
@click.option("--seed", type=int, help="Reproducible dice from this seed (not for play).")
@click.option("--json", "as_json", is_flag=True, help="Print each outcome as JSON.")
@click.option("--ask/--no-ask", default=None, help="Ask each decision at the terminal (default: when stdin is one).")
@click.option("--log/--no-log", default=True, help="Append each roll to the roll log (default: yes).")
@click.option("--db", metavar="PATH", help=DB_HELP)
def roll_command(
    dice: tuple[str, ...],
    options: CardOptions,
    choices: str,
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
    from mtgdice.errors import InputError, MtgDiceError
    from mtgdice.rules.sources import SecureSource, SeededSource

    source = SeededSource(seed) if seed is not None else SecureSource()
    roll_log = None
    try:
        if log:
            from mtgdice.log.store import RollLog, default_db_path

            roll_log = RollLog(db or default_db_path())  # opened first: a bad log fails before any roll
        if options.card is not None:
            if dice:
                raise InputError("dice", f"roll either --card NAME or plain dice, not both ({' '.join(dice)!r})")
            _roll_card(options, choices, source, as_json, ask, roll_log)
            return
        specs = join_specs(dice)
        if not specs:
            raise InputError("dice", "no dice given; say what to roll: 3d6+2, d20, adv, planar, coin, or --card NAME")
        for spec in specs:
            word = spec.lower()
            if word in COIN_WORDS:
                _flip_coin(options, source, as_json, roll_log)
            elif word in PLANAR_WORDS:
                _roll_planar(options, source, as_json, roll_log)
            else:
                _roll_plain(spec, source, as_json, roll_log)
    except MtgDiceError as error:
        options.fail(error)
    finally:
        if roll_log is not None:
            roll_log.close()


def _roll_plain(spec: str, source: Any, as_json: bool, roll_log: Any) -> None:
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


def _roll_planar(options: CardOptions, source: Any, as_json: bool, roll_log: Any) -> None:
    """The planar die through the rules (CR 706.7), on the board the options give."""
    _roll_request(options, {"kind": "planar"}, source, as_json, roll_log, None, title="The planar die (CR 706.7)")


def _flip_coin(options: CardOptions, source: Any, as_json: bool, roll_log: Any) -> None:
    """A coin flip (CR 705) through the rules' coins: partner coins and reflips on the board apply,
    no die effect does."""
    _roll_request(options, {"kind": "coin"}, source, as_json, roll_log, None, title="Coin (CR 705)")


def _roll_card(options: CardOptions, choices: str, source: Any, as_json: bool, ask: bool | None, roll_log: Any) -> None:
    import json

    from mtgdice.cli.common import catalog
    from mtgdice.errors import InputError
    from mtgdice.io.jsonio import card_from

    try:
        answers = json.loads(choices)
    except json.JSONDecodeError as error:
        raise InputError("--choices", f"not valid JSON: {error.msg} (write a list such as [true, 1])") from None
    if not isinstance(answers, list):
        raise InputError("--choices", "expected a JSON list such as [true, 1]")
    request = options.request() | {"choices": answers}
    options.check_roll_number(card_from(request, "card", catalog(options.cards)))
    prompt = ask or (ask is None and not answers and sys.stdin.isatty() and not as_json)
    _roll_request(options, request, source, as_json, roll_log, PromptChooser() if prompt else None)


def _roll_request(
    options: CardOptions,
    data: dict[str, Any],
    source: Any,
    as_json: bool,
    roll_log: Any,
    chooser: Any,
    title: str = "",
) -> None:
    """Resolve a request object with ``source``, commit it to the log, then show it: a roll that
    was shown is a roll that was logged (a kill while printing loses nothing shown)."""
    from mtgdice.cli.common import catalog
    from mtgdice.game.request import prepare, resolve_prepared
    from mtgdice.io.jsonio import request_from_json
    from mtgdice.rules import ScriptedChooser

    zones = {zone: items for zone, items in options.request().items() if zone not in ("card", "roll", "amounts")}
    request = request_from_json(zones | data)
    prepared = prepare(request, catalog(options.cards) if request.needs_cards() else None)
    scripted = ScriptedChooser(request.choices)
    outcome = resolve_prepared(prepared, request, source, chooser or scripted)
    if roll_log is not None:
        roll_log.record(request, outcome, source)
    shown = prepared.instruction or prepared.flip
    text = shown.text if shown is not None else ""
    _show(outcome, prepared.instruction, as_json, title or f"{prepared.name}: {text}")
    if chooser is None and not as_json:
        _say_defaults(scripted.asked[len(request.choices) :])


def _say_defaults(unanswered: Any) -> None:
    """Name the decisions nobody was asked (no terminal, no ``--choices``) and what was taken."""
    from mtgdice.cli.common import console
    from mtgdice.rules.choices import default_answer

    err = console(stderr=True)
    for decision in unanswered:
        answer = default_answer(decision)
        if isinstance(answer, bool):
            taken = "yes" if answer else "no"
        elif isinstance(answer, int):
            taken = f"{answer + 1}: {decision.options[answer]}" if decision.options else str(answer + 1)
        else:
            taken = ", ".join(str(index + 1) for index in answer) or "none"
        err.print(
            f"Not asked (no terminal): {decision.prompt} -> {taken}. Answer with --choices or --ask.",
            markup=False,
        )


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


def _show(outcome: Any, instruction: Any, as_json: bool, title: str) -> None:
    from mtgdice.cli.common import console
    from mtgdice.io.jsonio import dumps, outcome_json
    from mtgdice.io.render import execution_summary, execution_table, flip_lines, resolution_lines
    from mtgdice.rules import FlipResolution

    if as_json:
        out(dumps(outcome_json(outcome)))
        return
    stdout = console()
    stdout.print(title, style="bold", markup=False)
    if isinstance(outcome, FlipResolution):
        for line in flip_lines(outcome):
            stdout.print(line, markup=False)
        return
    for number, execution in enumerate(outcome.executions):
        stdout.print(execution_table(execution, instruction, number))
        for line in execution_summary(execution, instruction):
            stdout.print(line, markup=False)
    for line in resolution_lines(outcome):
        stdout.print(line, markup=False)


__all__ = ["PromptChooser", "join_specs", "roll_command"]
