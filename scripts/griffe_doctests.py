"""A griffe extension for the API reference: docstrings keep their doctests and Sphinx-style roles
(the suite runs them with ``--doctest-modules``); for the site, each run of ``>>>`` lines with its
expected output becomes a fenced ``pycon`` block, and ``:class:`~a.b.C``` becomes ```C```.

Loaded by mkdocstrings (``extensions:`` in ``mkdocs.yml``); nothing in the package imports it.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|func|mod|meth|attr|data|exc|obj):`(~?)([^`]+)`")


def _role(match: re.Match[str]) -> str:
    target = match.group(2)
    return f"`{target.rsplit('.', 1)[-1] if match.group(1) else target}`"


def fence_doctests(text: str) -> str:
    """Wrap each doctest run (``>>>`` lines, ``...`` lines and the output up to a blank line)."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        stripped = line.lstrip()
        if not inside and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            out += ["", f"{indent}```pycon"]
            inside = True
        elif inside and not stripped:
            out += [f"{indent}```", ""]
            inside = False
            continue
        out.append(line if inside else _ROLE.sub(_role, line))
    if inside:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    """Fence the doctests of every docstring griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
