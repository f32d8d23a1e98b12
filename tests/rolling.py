"""Rolling a request object and logging it, the way the shells do, for tests of the roll log."""

from __future__ import annotations

from typing import Any

from mtgdice.game.request import resolve_request
from mtgdice.io.jsonio import request_from_json
from mtgdice.rules import DiceSource, ScriptedChooser


def record(
    log: Any, request: dict[str, Any], cards: Any, source: DiceSource, hashes: bool = False, **where: Any
) -> int:
    """Resolve ``request`` (a JSON request object) with ``source`` and log it (with ``hashes``, its
    cards by name and text hash, as rooms log them); the roll's id."""
    typed = request_from_json(request, cards)
    outcome = resolve_request(typed, cards, source, ScriptedChooser(typed.choices))
    return int(log.record(typed, outcome, source, cards=cards if hashes else None, **where))
