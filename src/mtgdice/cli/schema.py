"""``mtgdice schema NAME``: print a published JSON Schema (the file shipped in the package).

The schemas are generated from the typed models of the JSON edge (:mod:`mtgdice.io.schemas`); this
shell only prints one. An unknown name is a one-line error, exit status 2.
"""

from __future__ import annotations

import click

from mtgdice.cli.common import CONTEXT, fail


@click.command("schema", context_settings=CONTEXT)
@click.argument("name", metavar="NAME")
def schema_command(name: str) -> None:
    """Print the published JSON Schema NAME (Draft 2020-12) as shipped in the package: outcome,
    compile, log (an unknown NAME lists them)."""
    from mtgdice.errors import MtgDiceError
    from mtgdice.io.schemas import shipped

    try:
        text = shipped(name)
    except MtgDiceError as error:
        fail(str(error))
    click.echo(text, nl=False)
