"""Renderers for people: a resolution, a plain roll and a compiled card as rich tables or plain text.

Renderers read records and print nothing themselves; the CLI prints what they return. The same
records are rendered as JSON by ``jsonio`` and as HTML by the web app. Numbers people read count
from 1 (dice, rows, roll instructions). rich is imported by the functions that build tables, so a
plain roll prints without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from mtgdice.rules.dice import DieRoll, Fate
from mtgdice.rules.plain import GroupResult, PlainDie, PlainResult

if TYPE_CHECKING:
    from rich.table import Table
    from rich.text import Text

    from mtgdice.game.request import Prepared
    from mtgdice.rules import Chooser, Decision, Execution, FlipResolution, Outcome, Resolution, RollInstruction
    from mtgdice.rules.choices import Answer
    from mtgdice.rules.coins import FlipInstruction
    from mtgdice.text import CompiledCard


def die_label(roll: DieRoll) -> str:
    """One die's face: "20", "12 (natural 10, +2 Static Bonus)", "chaos"; with "ignored" or "rerolled".

    >>> from mtgdice.rules import Die, Modifier
    >>> die_label(DieRoll(0, Die(20), 10, (Modifier(2, "Static Bonus"),)))
    '12 (natural 10, +2 Static Bonus)'
    >>> die_label(DieRoll(1, Die(6), 3, fate=Fate.IGNORED))
    '3 ignored'
    """
    if roll.die.planar:
        label = roll.planar_face.value if roll.planar_face else "?"
    else:
        label = str(roll.natural)
        if roll.counted and roll.modifiers:
            changes = ", ".join(f"{m.delta:+d} {m.source}" for m in roll.modifiers)
            label = f"{roll.result} (natural {roll.natural}, {changes})"
    if roll.fate is Fate.IGNORED:
        return f"{label} ignored"
    if roll.fate is Fate.REROLLED:
        return f"{label} rerolled"
    return label


def dice_line(dice: tuple[DieRoll, ...]) -> str:
    """The dice of an execution so far, numbered from 1: "#1 d20: 15, #2 d20: 7 ignored".

    >>> from mtgdice.rules import Die
    >>> dice_line((DieRoll(0, Die(20), 15), DieRoll(1, Die(20), 7)))
    '#1 d20: 15, #2 d20: 7'
    """
    return ", ".join(f"#{roll.index + 1} {roll.die.name}: {die_label(roll)}" for roll in dice)


def die_text(roll: DieRoll) -> Text:
    """One die as rich text: bold when it counts, struck through when ignored or rerolled."""
    from rich.text import Text

    label = die_label(roll)
    return Text(label, style="bold" if roll.counted else "strike dim")


def plain_lines(result: PlainResult) -> list[tuple[str, str | None]]:
    """A plain roll as lines of ``(text, style)``: the total first (each total of a repeated
    roll), then each term's dice: dropped, rerolled-away and exploded dice are named.

    >>> from mtgdice.rules import ScriptedSource
    >>> from mtgdice.rules.plain import roll_plain
    >>> from mtgdice.text.notation import parse_plain
    >>> for text, _ in plain_lines(roll_plain(parse_plain("4d6dl1+2"), ScriptedSource([3, 1, 6, 4]))):
    ...     print(text)
    4d6dl1+2 = 15  (plain dice: no card, no Magic effect)
      4d6dl1: 3, 1 dropped, 6, 4 = 13
      +2
    >>> for text, _ in plain_lines(roll_plain(parse_plain("2x d6r1!"), ScriptedSource([1, 6, 2, 4]))):
    ...     print(text)
    2xd6r1! = 8, 4  (plain dice: no card, no Magic effect)
      #1 d6r1!: 1 rerolled, 6, 2 exploded = 8
      #2 d6r1!: 4 = 4
    """
    totals = ", ".join(str(total) for total in result.totals)
    lines: list[tuple[str, str | None]] = [
        (f"{result.roll.notation} = {totals}  (plain dice: no card, no Magic effect)", "bold")
    ]
    repeated = len(result.sets) > 1
    for number, terms in enumerate(result.sets):
        single = len(terms) == 1 and isinstance(terms[0], GroupResult) and len(terms[0].dice) == 1
        if single and not repeated:
            return lines
        prefix = f"#{number + 1} " if repeated else ""
        for position, term in enumerate(terms):
            lead = "  " + (prefix if position == 0 else " " * len(prefix))
            if isinstance(term, GroupResult):
                sign = "-" if term.group.sign < 0 else ("+" if position else "")
                faces = ", ".join(plain_die_label(die, term.group.fudge) for die in term.dice)
                lines.append((f"{lead}{sign}{term.group.notation}: {faces} = {term.value}", None))
            else:
                lines.append((f"{lead}{'-' if term.sign < 0 else '+'}{term.value}", None))
    return lines


def plain_die_label(die: PlainDie, fudge: bool = False) -> str:
    """One die of a plain roll: its value ("+1" for a Fudge die), then "rerolled", "dropped" or
    "exploded" (drawn because the die before it exploded).

    >>> plain_die_label(PlainDie(0, 3, 3, kept=False)), plain_die_label(PlainDie(1, 3, 1), fudge=True)
    ('3 dropped', '+1')
    """
    text = f"{die.value:+d}" if fudge and die.value else str(die.value)
    if die.rerolled:
        return text + " rerolled"
    if die.exploded:
        text += " exploded"
    return text if die.kept else text + " dropped"


def execution_table(execution: Execution, instruction: RollInstruction, number: int) -> Table:
    """A table of the dice of one execution (numbered from 1), with the matched row underneath."""
    from rich.table import Table

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


def flip_lines(flip: FlipResolution) -> list[str]:
    """A flip for people: each execution's coins (ignored and reflipped ones marked, with the call
    and whether it won), the counted sides, flips won and lost, the triggers."""
    lines = []
    several = len(flip.executions) > 1
    for number, execution in enumerate(flip.executions):
        if several:
            lines.append(f"Flip {number + 1}:")
        for coin in execution.coins:
            fate = "" if coin.counted else f" ({'ignored' if coin.fate.value == 'ignored' else 'reflipped'})"
            called = "" if coin.call is None else f", called {coin.call.value}: {'won' if coin.won else 'lost'}"
            lines.append(f"  coin {coin.index + 1}: {coin.side.value}{called}{fate}")
    results = ", ".join(side.value for side in flip.results)
    lines.append(f"Coin: {results}")
    if flip.won is not None:
        lines.append(f"Flips won: {flip.flips_won}, lost: {flip.flips_lost} (CR 705.1)")
    if flip.triggers:
        lines.append("Triggered: " + ", ".join(hit.card for hit in flip.triggers))
    lines.append(f"Dice source: {flip.source}")
    return lines


def roll_view(
    outcome: Resolution | FlipResolution | PlainResult, prepared: Prepared, title: str = ""
) -> list[Table | Text | str]:
    """What ``mtgdice roll`` shows of a resolved request, in order: the title in bold (``title``, else
    the source's name and its instruction), then each execution's table and summary, then what the
    resolution did (or the coin flip's lines, or the plain roll's)."""
    from rich.text import Text

    from mtgdice.rules import FlipResolution

    if isinstance(outcome, PlainResult):
        return [Text(text, style="bold" if style == "bold" else "") for text, style in plain_lines(outcome)]
    shown = prepared.instruction or prepared.flip
    heading = title or f"{prepared.name}: {shown.text if shown is not None else ''}"
    view: list[Table | Text | str] = [Text(heading, style="bold")]
    if isinstance(outcome, FlipResolution):
        return view + list(flip_lines(outcome))
    instruction = prepared.instruction
    assert instruction is not None
    for number, execution in enumerate(outcome.executions):
        view.append(execution_table(execution, instruction, number))
        view += execution_summary(execution, instruction)
    return view + list(resolution_lines(outcome))


def policy_note(policy: Chooser | None, taken: Sequence[tuple[Decision, Answer]]) -> str | None:
    """One line saying which policy took the decisions nobody was asked, and what it took (``None``
    when it took none).

    >>> from mtgdice.rules import Ask, Decision, Seat, Topic
    >>> from mtgdice.rules.choices import RollerBest
    >>> again = Decision(Ask.YES_NO, Topic.ROLL_AGAIN, Seat(0), "Roll again?")
    >>> policy_note(RollerBest((Seat(0),)), [(again, False)]).split(": ")[2]
    'Roll again? -> no. Answer with --choices or --ask; --policy changes the policy.'
    """
    if not taken or policy is None:
        return None
    described = getattr(policy, "describe", None) or f"every decision as odds --policy {_policy_name(policy)}"
    name = getattr(policy, "name", None) or _policy_name(policy)
    answers = "; ".join(f"{decision.prompt} -> {_taken(decision, answer)}" for decision, answer in taken)
    return (
        f"Not asked (no terminal): {len(taken)} decision(s) taken by policy '{name}' ({described}): {answers}. "
        "Answer with --choices or --ask; --policy changes the policy."
    )


def _policy_name(policy: Chooser) -> str:
    named = getattr(policy, "policy", None)
    return str(getattr(named, "value", named))


def _taken(decision: Decision, answer: Answer) -> str:
    if isinstance(answer, bool):
        return "yes" if answer else "no"
    if isinstance(answer, int):
        return f"{answer + 1}: {decision.options[answer]}" if decision.options else str(answer + 1)
    return ", ".join(str(index + 1) for index in answer) or "none"


def compiled_table(card: CompiledCard) -> Table:
    """What the compiler understood, one line per roll and effect."""
    from rich.table import Table
    from rich.text import Text

    from mtgdice.rules.coins import FlipInstruction

    table = Table(title=Text(card.name) if card.name else None, show_lines=False)
    table.add_column("#", justify="right", style="dim")
    table.add_column("ability")
    table.add_column("understood as")
    # Card text goes in as Text: "[+2]" on a card is not rich markup.
    for index, roll in enumerate(card.instructions):
        if isinstance(roll, FlipInstruction):  # a coin flip (CR 705)
            table.add_row(f"roll {index + 1}", Text(roll.text), Text(describe_flip(roll)))
            for flip_outcome in roll.outcomes:
                reads = flip_outcome.reads.value
                table.add_row("", Text(f"  {flip_outcome.text}", style="dim"), Text(f"outcome: reads {reads}"))
            continue
        table.add_row(f"roll {index + 1}", Text(roll.text), Text(describe_roll(roll)))
        for row in roll.table.rows if roll.table is not None else ():
            again = ", roll again" if row.roll_again else ""
            table.add_row("", Text(f"  {row.label} | {row.text}", style="dim"), Text(f"row {row.label}{again}"))
        for outcome in roll.outcomes:
            table.add_row("", Text(f"  {outcome.text}", style="dim"), Text(f"outcome: {describe_outcome(outcome)}"))
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


def describe_flip(flip: FlipInstruction) -> str:
    """A flip instruction in a few words: "flip 3 coins, called, until you lose a flip"."""
    count = flip.count.describe()
    parts = [f"flip {count} coin{'' if count == 1 else 's'}", "called" if flip.call else "not called"]
    if flip.flipper.value != "you":
        parts.append(f"by {flip.flipper.value}")
    if flip.until is not None:
        parts.append(f"until {flip.until.value}")
    if flip.times is not None:
        parts.append(f"at most {flip.times.describe()} times")
    return ", ".join(parts)


def describe_outcome(outcome: Outcome) -> str:
    """What an outcome sentence reads and when it holds: "when the result is 3 or 4", "on doubles"."""
    reads = outcome.reads.value
    if outcome.doubles:
        return "when the dice show doubles"
    if outcome.condition is None:
        return f"reads the {reads}"
    times = f" exactly {outcome.times} times" if outcome.times is not None else ""
    return f"when the {reads} is {outcome.condition.describe()}{times}"


def describe_roll(roll: RollInstruction) -> str:
    """ "2 d20, ignore the lowest 1, table 1—14 / 15—20"."""
    dice = [f"{roll.count.describe()} {roll.die.name}"]
    dice += [f"{group.count.describe()} {group.die.name}" for group in roll.also]
    parts = [" and ".join(dice)]
    if roll.roller.value != "you":
        parts.append(f"rolled by {roll.roller.value}")
    if roll.compare is not None:
        ties = ", reroll to break ties" if roll.compare.break_ties else ""
        parts.append(f"the player with the {roll.compare.extreme.value} result{ties}")
    if roll.purpose:
        parts.append(f"for {roll.purpose}")
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
    if roll.table_each_result:
        parts.append("each result reads the table")
    if roll.table is not None and roll.table.roll_again:
        parts.append("roll again")
    if roll.repeat_when is not None:
        parts.append(f"{'may repeat' if roll.repeat_optional else 'repeat'} on {roll.repeat_when.describe()}")
    return ", ".join(parts)
