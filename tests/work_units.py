"""Work measured in work units, not seconds: the Python and built-in calls a piece of code makes.

:func:`calls` counts every function call (Python and C) made while ``fn`` runs, through
``sys.setprofile``: the same count on an idle machine and a busy one, so a test can bound the work
an input costs (per character, or how it grows with the input) without asserting seconds.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


def calls(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[int, Any]:
    """``(calls made, what fn returned or the exception it raised)`` for ``fn(*args, **kwargs)``."""
    count = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        result: Any = fn(*args, **kwargs)
    except Exception as error:  # the caller checks which error it was
        result = error
    finally:
        sys.setprofile(previous)
    return count, result
