"""What the web app's pages are made of: templates, forms, and the small readings a page needs.

:class:`Pages` renders the Jinja2 templates (autoescaped; plain dice are shown with the command
line's own lines, :func:`mtgdice.io.render.plain_lines`). The form helpers read URL-encoded forms and
the JSON API's bodies; :func:`spec_from` turns a roll form into a :class:`~mtgdice.game.RollSpec`.
:func:`class_levels` and :func:`counter_kind` read what a card's board controls offer.

What this module leaves out: routes (``api``, ``pages``, ``sockets``) and the rooms (``rooms``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import jinja2
from fastapi import Request
from markupsafe import Markup

from mtgdice.errors import InputError
from mtgdice.game import RollSpec
from mtgdice.io.jsonio import parse_request
from mtgdice.io.outcome import JSONObject
from mtgdice.io.render import plain_lines
from mtgdice.web.rooms import Forbidden, RoomState

HERE = Path(__file__).parent
COOKIE = "mtgdice_player"


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["plain_lines"] = plain_lines  # plain dice read on a page as the command line prints them
    env.globals["grouped"] = grouped
    return env


def grouped(options: Sequence[str]) -> list[tuple[str, int, int]]:
    """Identical options shown once: ``(label, index of the first, how many)``, in order.

    >>> grouped(["9 (d20)", "9 (d20)", "3 (d20)"])
    [('9 (d20)', 0, 2), ('3 (d20)', 2, 1)]
    """
    seen: dict[str, list[int]] = {}
    for index, option in enumerate(options):
        seen.setdefault(option, [index, 0])[1] += 1
    return [(label, first, count) for label, (first, count) in seen.items()]


MAX_COUNTERS = 999
"""Counters of one kind on one card a page may set."""
MAX_COUNTER_KINDS = 12
"""Kinds of counters on one card."""
_COUNTER = re.compile(r"^[+-]?\d{1,2}/[+-]?\d{1,2}$|^[a-z][a-z -]{0,29}$")
_LEVEL_LINE = re.compile(r"^\s*(?:\{[^}]*\}\s*)+:\s*level\s+(\d{1,2})\s*$", re.IGNORECASE | re.MULTILINE)


def counter_kind(text: str) -> str:
    """A counter's kind as a card names it: ``+1/+1``, ``-1/-1``, ``charge``, ``lore`` (lower case).

    >>> counter_kind(" Lore "), counter_kind("+1/+1")
    ('lore', '+1/+1')
    """
    kind = " ".join(text.split()).lower()
    if not _COUNTER.match(kind):
        raise InputError("counter", f"{text[:40]!r} is not a counter kind; write one such as +1/+1, charge or lore")
    return kind


def class_levels(text: str, type_line: str = "") -> int | None:
    r"""The highest level of a Class (CR 716: its level abilities are written "COST: Level N"), or
    None when the card is no Class.

    >>> class_levels("Static.\n{1}{R}: Level 2\nMore.\n{2}{R}: Level 3"), class_levels("Roll a d6.")
    (3, None)
    """
    levels = [int(found) for found in _LEVEL_LINE.findall(text)]
    if levels:
        return max(levels)
    return 1 if "Class" in type_line.split() else None


class Pages:
    """Template rendering for one app."""

    def __init__(self) -> None:
        self.env = _environment()

    def render(self, name: str, **context: Any) -> Markup:
        """Render a template; the result is markup (already escaped) for other templates."""
        return Markup(self.env.get_template(name).render(**context))


async def form(request: Request) -> dict[str, list[str]]:
    raw = await request.body()
    try:
        return parse_qs(raw.decode("utf-8"), keep_blank_values=True, max_num_fields=200)
    except (UnicodeDecodeError, ValueError):
        raise InputError("form", "expected a URL-encoded form in UTF-8") from None


def first(values: dict[str, list[str]], key: str, default: str = "") -> str:
    found = values.get(key)
    return found[0].strip() if found else default


def integer(values: dict[str, list[str]], key: str, default: int | None = None) -> int:
    text = first(values, key)
    if not text and default is not None:
        return default
    try:
        return int(text)
    except ValueError:
        raise InputError(key, f"expected a whole number, got {text[:20]!r}") from None


def page_player(request: Request, state: RoomState) -> str:
    player_id = state.player_for(request.cookies.get(COOKIE))
    if player_id is None:
        raise Forbidden("player", "join this room first (your player cookie is missing or not for this room)")
    return player_id


async def json_body(request: Request) -> JSONObject:
    raw = await request.body()
    if not raw.strip():
        return {}
    return parse_request(raw, "body")


def one_line(error: Exception) -> str:
    """An error's first line, at most 500 characters (what an error response says)."""
    text = re.split(r"[\r\n]", str(error).strip())[0]  # not splitlines: a form feed in a name is no new line
    return text[:500] if text else type(error).__name__


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def spec_from(values: dict[str, list[str]]) -> RollSpec:
    kind = first(values, "kind")
    if kind == "card":
        amounts = {
            key.removeprefix("amount:")[:80]: integer(values, key)
            for key in values
            if key.startswith("amount:") and first(values, key)
        }
        return RollSpec("card", card_id=integer(values, "card_id"), roll=integer(values, "roll", 0), amounts=amounts)
    if kind == "dice":
        return RollSpec.plain(first(values, "dice"))
    if kind == "planar":
        cause = first(values, "cause", "action")
        if cause not in ("action", "effect"):
            raise InputError("cause", "expected action or effect")
        return RollSpec("planar", cause=cause)  # type: ignore[arg-type]
    if kind == "coin":
        return RollSpec("coin")
    raise InputError("kind", "expected card, dice, planar or coin")
