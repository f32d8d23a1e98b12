"""Renderers for people: a resolution and a compiled card as rich tables or plain text.

Renderers read records and print nothing themselves; the CLI prints what they return. The same
records are rendered as JSON by ``jsonio`` and as HTML by the web app.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from mtgdice.rules import DieRoll, Execution, Fate, Resolution, RollInstruction
from mtgdice.text import CompiledCard


def die_text(roll: DieRoll) -> Text:
    """One die: "20", "12 (natural 10, +2 from a static effect)", struck through when ignored."""
    if roll.die.planar:
        face = roll.planar_face.value if roll.planar_face else "?"
        label = f"{face}"
    else:
        label = str(roll.natural)
        if roll.counted and roll.modifiers:
            changes = ", ".join(f"{m.delta:+d} {m.source}" for m in roll.modifiers)
            label = f"{roll.result} (natural {roll.natural}, {changes})"
    if roll.fate is Fate.IGNORED:
        return Text(f"{label} ignored", style="strike dim")
    if roll.fate is Fate.REROLLED:
        return Text(f"{label} rerolled", style="strike dim")
    return Text(label, style="bold")


def execution_table(execution: Execution, instruction: RollInstruction, number: int) -> Table:
    """A table of the dice of one execution, with the matched row underneath."""
    table = Table(title=f"Roll {number + 1}" if number else None, show_edge=False, pad_edge=False)
    table.add_column("#", justify="right", style="dim")
    table.add_column("die")
    table.add_column("result")
    for roll in execution.dice:
        table.add_row(str(roll.index + 1), roll.die.name, die_text(roll))
    return table


def execution_summary(execution: Execution, instruction: RollInstruction) -> list[str]:
    lines: list[str] = []
    results = [r if isinstance(r, int) else r.value for r in execution.results]
    if results:
        lines.append("Results: " + ", ".join(str(r) for r in results))
    if execution.chosen is not None and len(results) > 1:
        lines.append(f"Chosen result: {results[execution.chosen]}")
    if execution.doubles:
        lines.append("Doubles (CR 706.5)")
    table = instruction.table
    if table is not None and execution.row is not None:
        row = table.rows[execution.row]
        lines.append(f"Row {row.label} | {row.text}")
    elif table is not None and execution.rows is not None:
        for result, row_index in zip(results, execution.rows, strict=False):
            text = (
                f"{table.rows[row_index].label} \u2014 {table.rows[row_index].text}"
                if row_index is not None
                else "no row"
            )
            lines.append(f"  {result}: {text}")
    elif table is not None:
        lines.append("No row of the table matches (CR 706.3a).")
    for index in execution.outcomes:
        lines.append(f"Then: {instruction.outcomes[index].text}")
    if execution.again:
        lines.append("Roll again (CR 706.3c).")
    return lines


def resolution_lines(resolution: Resolution) -> list[str]:
    lines: list[str] = []
    if resolution.triggers:
        lines.append("Triggered: " + ", ".join(hit.card for hit in resolution.triggers))
    for name, values in resolution.stored.items():
        lines.append(f"Stored on {name}: " + ", ".join(str(v) for v in values))
    lines.append(f"Dice source: {resolution.source}")
    return lines


def compiled_table(card: CompiledCard) -> Table:
    """What the compiler understood, one line per roll and effect."""
    table = Table(title=Text(card.name) if card.name else None, show_lines=False)
    table.add_column("#", justify="right", style="dim")
    table.add_column("ability")
    table.add_column("understood as")
    # Card text goes in as Text: "[+2]" on a card is not rich markup.
    for index, roll in enumerate(card.rolls):
        table.add_row(f"roll {index}", Text(roll.text), Text(describe_roll(roll)))
    for effect in card.effects:
        details = effect.describe()
        table.add_row(
            effect.kind,
            Text(effect.text),
            Text(
                ", ".join(
                    f"{k}={v}" for k, v in details.items() if k not in ("kind", "text") and v not in (None, False)
                )
            ),
        )
    for sentence in card.unsupported:
        table.add_row("?", Text(sentence, style="red"), Text("not understood", style="red"))
    return table


def describe_roll(roll: RollInstruction) -> str:
    """ "2 d20, ignore the lowest 1, table 1—14 / 15—20"."""
    count = roll.count.describe()
    parts = [f"{count} {roll.die.name}"]
    if roll.ignore_lowest:
        parts.append(f"ignore the lowest {roll.ignore_lowest}")
    if roll.keep_highest is not None:
        parts.append(f"keep the highest {roll.keep_highest}")
    if roll.modifier is not None:
        parts.append(f"modifier {roll.modifier.describe_signed()}")
    if roll.choose:
        parts.append("choose one result")
    if roll.store:
        parts.append("store the results")
    if roll.reroll_stored:
        parts.append("reroll stored results")
    if roll.table is not None:
        parts.append("table " + " / ".join(row.label for row in roll.table.rows))
    if roll.roll_again:
        parts.append("roll again")
    return ", ".join(parts)
