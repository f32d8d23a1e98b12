"""Compare mtgdice's exact odds with the naive reference (tests/reference/naive.py).

The reference reads only the text layer's ``compile --json`` data of the roll and of the board's
cards; this module feeds it that data, asks the public :func:`mtgdice.odds.odds` for the same roll,
and lists the fields in which the two differ. Used by the differential suite and by the tests that
break one effect kind at a time.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from reference.naive import Answer, Item, NotCovered, Refused, read_board, read_roll, reference_odds

ZONES = ("battlefield", "opponents", "graveyard", "command")


class Unanswered(Exception):
    """mtgdice refused (a bounded search, docs/odds.md) a roll the reference answers: not compared."""


def _compiled(data: Mapping[str, Any], catalog: Any) -> dict[str, Any]:
    from mtgdice.io.jsonio import compile_json

    return compile_json(data, catalog)


def reference_answer(
    catalog: Any, card: str, roll: int, zones: Mapping[str, Any], amounts: Mapping[str, int], policy: str
) -> Answer:
    """The reference's odds of ``card``'s roll number ``roll`` on the board ``zones`` (request form)."""
    compiled = _compiled({"card": card}, catalog)
    instruction = read_roll(compiled["rolls"][roll], amounts)
    items = []
    for zone in ZONES:
        for entry in zones.get(zone) or []:
            if isinstance(entry, str):
                data: dict[str, Any] = {"card": entry}
                name, level = entry, 1
            else:
                if entry.get("stored") or entry.get("counters") or entry.get("tapped"):
                    raise NotCovered(f"{entry}: stored results, counters or a tapped card")
                data = {key: entry[key] for key in ("card", "text", "name") if key in entry}
                name, level = str(entry.get("name") or entry.get("card")), int(entry.get("level", 1))
            items.append(Item(zone, name, tuple(_compiled(data, catalog)["effects"]), level))
    return reference_odds(instruction, read_board(items), policy)


def mtgdice_odds(catalog: Any, request: Mapping[str, Any], policy: str) -> Any:
    """mtgdice's answer through the public API (whatever path it takes), or the error it raised."""
    from mtgdice.game.request import prepare
    from mtgdice.io.jsonio import request_from_json
    from mtgdice.odds import odds

    prepared = prepare(request_from_json(dict(request), catalog), catalog)
    return odds(
        prepared.instruction, source=prepared.name, board=prepared.board, policy=policy, amounts=prepared.amounts
    )


def differences(exact: Any, answer: Answer) -> list[str]:
    """Each field in which mtgdice's :class:`~mtgdice.odds.Odds` and the reference's answer differ."""
    found = []

    def nonzero(pairs: Any) -> dict[Any, Fraction]:
        return {key: value for key, value in dict(pairs).items() if value}

    checks: list[tuple[str, Any, Any]] = [
        ("rows", tuple(exact.rows), answer.rows),
        ("no_row", exact.no_row, answer.no_row),
        ("results", nonzero(exact.results), nonzero(answer.results)),
        ("doubles", exact.doubles, answer.doubles),
        ("again", exact.again, answer.again),
        ("expected_executions", exact.expected_executions, answer.expected_executions),
        ("triggers", nonzero(exact.triggers), nonzero(answer.triggers)),
    ]
    modelled = [index for index, p in enumerate(answer.outcomes) if p is not None]
    if modelled:
        checks.append(
            ("outcomes", {i: outcome_odds(exact, i) for i in modelled}, {i: answer.outcomes[i] for i in modelled})
        )
    rows_any = getattr(exact, "rows_any", None)
    if rows_any is not None:
        checks.append(("rows_any", tuple(rows_any), answer.rows_any))
    for name, mine, theirs in checks:
        if mine != theirs:
            found.append(f"{name}: mtgdice {_show(mine)} != reference {_show(theirs)}")
    return found


def outcome_odds(exact: Any, index: int) -> Fraction:
    """The probability that outcome sentence ``index`` holds in the first execution (from ``Odds.first``)."""
    return sum((p for summary, p in exact.first if index in summary.outcomes), Fraction(0))


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {item}" for key, item in sorted(value.items(), key=str)) + "}"
    if isinstance(value, tuple):
        return "(" + ", ".join(str(item) for item in value) + ")"
    return str(value)


def compare(
    catalog: Any, card: str, roll: int, zones: Mapping[str, Any], amounts: Mapping[str, int], policy: str
) -> list[str]:
    """The differences between mtgdice and the reference for one roll on one board. Raises
    :class:`NotCovered` when the reference does not model it and :class:`Unanswered` when only
    mtgdice refuses; both refusing (a roll that never settles) is agreement."""
    from mtgdice.rules.errors import RollLimitError

    try:
        answer: Answer | None = reference_answer(catalog, card, roll, zones, amounts, policy)
    except Refused:
        answer = None
    request = {"card": card, "roll": roll, "amounts": dict(amounts), **zones}
    try:
        exact = mtgdice_odds(catalog, request, policy)
    except RollLimitError as error:
        if answer is None:
            return []
        raise Unanswered(str(error)) from None
    if answer is None:
        return ["the reference finds that the roll never settles; mtgdice answers"]
    return differences(exact, answer)


__all__ = ["NotCovered", "Unanswered", "compare", "differences", "mtgdice_odds", "outcome_odds", "reference_answer"]
