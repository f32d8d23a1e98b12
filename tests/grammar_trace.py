"""Which grammar rules (the named patterns of ``mtgdice.text.grammar``) a compilation uses.

:func:`tracing` swaps each pattern of the grammar module for a proxy that records the rules that
matched, for as long as the ``with`` block runs; the compiler reads ``g.NAME`` at call time, so it
sees the proxies. Used by the one-card-rule test and the variant generator's coverage report.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from mtgdice.text import grammar

RULES: dict[str, re.Pattern[str]] = {
    name: value for name, value in vars(grammar).items() if isinstance(value, re.Pattern) and not name.startswith("_")
}


class _Traced:
    def __init__(self, name: str, pattern: re.Pattern[str], fired: set[str]) -> None:
        self._name, self._pattern, self._fired = name, pattern, fired

    def _note(self, result: Any) -> Any:
        if result:
            self._fired.add(self._name)
        return result

    def match(self, *args: Any) -> Any:
        return self._note(self._pattern.match(*args))

    def search(self, *args: Any) -> Any:
        return self._note(self._pattern.search(*args))

    def fullmatch(self, *args: Any) -> Any:
        return self._note(self._pattern.fullmatch(*args))

    def finditer(self, *args: Any) -> Iterator[re.Match[str]]:
        return iter(self._note(list(self._pattern.finditer(*args))) or [])

    def findall(self, *args: Any) -> Any:
        return self._note(self._pattern.findall(*args)) or []

    def sub(self, repl: Any, string: str, count: int = 0) -> str:
        new, n = self._pattern.subn(repl, string, count)
        self._note(n)
        return new

    def split(self, *args: Any) -> Any:
        parts = self._pattern.split(*args)
        self._note(len(parts) > 1)
        return parts

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._pattern, attribute)


@contextmanager
def tracing() -> Iterator[set[str]]:
    """``with tracing() as fired: compile_text(...)``: ``fired`` holds the names of the rules that matched."""
    fired: set[str] = set()
    try:
        for name, pattern in RULES.items():
            setattr(grammar, name, _Traced(name, pattern, fired))
        yield fired
    finally:
        for name, pattern in RULES.items():
            setattr(grammar, name, pattern)
