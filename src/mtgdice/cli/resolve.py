"""``mtgdice compile`` and ``mtgdice resolve``: the JSON interface of spec/json-interface.md.

``compile`` shows what the compiler understands of a card (a table, or ``--json``); ``resolve``
reads a request (a file or standard input) and prints the outcome as JSON. Errors are one line on
stderr, exit status 2. This module leaves out the compiler and the rules.
"""

from __future__ import annotations

import click

from mtgdice.cli.common import CARDS_HELP, CONTEXT, catalog, console, fail, needs_cards, out, read_request


@click.command("resolve", context_settings=CONTEXT)
@click.argument("file", required=False, metavar="[FILE]")
@click.option("--cards", metavar="PATH", help=CARDS_HELP)
@click.option("--random", "fresh", is_flag=True, help="Roll fresh fair dice instead of the request's 'dice'.")
def resolve_command(file: str | None, cards: str | None, fresh: bool) -> None:
    """Resolve one roll instruction from a JSON request (FILE, or standard input); print the outcome as JSON."""
    from mtgdice.errors import MtgDiceError
    from mtgdice.io.jsonio import dumps, resolve_table_json
    from mtgdice.rules import SecureSource

    try:
        request = read_request(file, "mtgdice resolve")
        outcome = resolve_table_json(
            request, catalog(cards, required=needs_cards(request)), SecureSource() if fresh else None
        )
    except MtgDiceError as error:
        fail(str(error))
    out(dumps(outcome))


@click.command("compile", context_settings=CONTEXT)
@click.option("--card", metavar="NAME", help="Card name, looked up in the card data.")
@click.option("--text", metavar="TEXT", help="Oracle text (or printed text in another language).")
@click.option("--name", default="", help="The card's name, when compiling --text.")
@click.option("--cards", metavar="PATH", help=CARDS_HELP)
@click.option(
    "--lang",
    metavar="CODE",
    help="With --card: compile its printed text in this language (de, ja, ...) from a card index built "
    "from Scryfall's all_cards file.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the compile JSON object.")
def compile_command(
    card: str | None, text: str | None, name: str, cards: str | None, lang: str | None, as_json: bool
) -> None:
    """Show what the compiler understands of a card's dice abilities: rolls (numbered as --roll counts
    them), table rows, outcome sentences and effects."""
    from mtgdice.errors import InputError, MtgDiceError
    from mtgdice.io.jsonio import card_from, dumps
    from mtgdice.io.request_model import Request

    try:
        if (card is None) == (text is None):
            raise InputError("--card", "give exactly one of --card NAME or --text TEXT")
        if lang is not None and lang != "en":
            if card is None:
                raise InputError("--lang", "goes with --card NAME (with --text, the language is detected)")
            text, name = _printed_text(card, lang, cards), card
        compiled = card_from(Request(card=card, text=text, name=name), "card", catalog(cards) if text is None else None)
    except MtgDiceError as error:
        fail(str(error).replace("card: ", "--card: ", 1) if str(error).startswith("card: ") else str(error))
    if as_json:
        from mtgdice.io.compiled import card_model

        out(dumps(card_model(compiled)))
        return
    from mtgdice.io.render import compiled_table

    stdout = console()
    if not (compiled.instructions or compiled.effects or compiled.unsupported):
        stdout.print(f"{compiled.name or 'This text'}: no dice instructions or dice effects.", markup=False)
    else:
        stdout.print(compiled_table(compiled))
    for note in compiled.notes:
        stdout.print(note, style="dim", markup=False)


def _printed_text(card: str, lang: str, cards: str | None) -> str:
    from mtgdice.cards.index import printed_texts
    from mtgdice.errors import InputError

    index = cards if cards is not None and cards.endswith((".sqlite", ".db")) else None
    printed = printed_texts(card, lang, index)
    if not printed:
        raise InputError(
            "--lang", f"no {lang} printing of {card!r} in the card index (import Scryfall's all_cards file)"
        )
    return printed[0][1]
