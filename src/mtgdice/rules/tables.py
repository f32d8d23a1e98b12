"""Results tables (CR 706.3, 706.3a): rows ``N``, ``N1–N2`` and ``N+``, as a chart or as a list.

A row is matched by the result (after modifiers, CR 706.2); a result in no row does nothing.
Rows may say "roll again" (CR 706.3c), optionally ("you may roll again"). Tables are checked when
built: rows in order and disjoint.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mtgdice.rules.errors import CardTextError

if TYPE_CHECKING:
    from mtgdice.rules.arrays import Ints


@dataclass(frozen=True, slots=True)
class Row:
    """One striation or list item: results ``low`` to ``high`` (``None``: open, "N+").

    A row may roll again (CR 706.3c), optionally, or "repeat this process N more times".

    >>> Row(10, 19).matches(12), Row(15, None).matches(40), Row(20, 20).matches(19)
    (True, True, False)
    """

    low: int
    high: int | None
    text: str = ""
    roll_again: bool = False
    roll_again_optional: bool = False
    roll_again_times: int = 1

    def matches(self, result: int | None) -> bool:
        if result is None:
            return False
        return self.low <= result and (self.high is None or result <= self.high)

    @property
    def label(self) -> str:
        if self.high is None:
            return f"{self.low}+"
        if self.high == self.low:
            return str(self.low)
        return f"{self.low}\u2014{self.high}"


@dataclass(frozen=True, slots=True)
class ResultsTable:
    """The rows in printed order.

    >>> table = ResultsTable((Row(1, 9), Row(10, 19), Row(20, 20)))
    >>> table.row_for(10), table.row_for(22), table.row_for(0)
    (1, None, None)
    """

    rows: tuple[Row, ...]
    listed: bool = False

    def __post_init__(self) -> None:
        check_rows(self.rows)

    def row_for(self, result: int | None) -> int | None:
        """The 0-based index of the row matching ``result``, or ``None`` (CR 706.3a)."""
        if result is None:
            return None
        for index, row in enumerate(self.rows):
            if row.low <= result and (row.high is None or result <= row.high):  # Row.matches, inline: hot
                return index
        return None

    def rows_array(self, values: Ints) -> Ints:
        """:meth:`row_for` over a numpy array of results: the row index per lane, -1 for none."""
        import numpy as np

        found = np.full(values.shape, -1, dtype=np.int64)
        for index, row in enumerate(self.rows):
            inside = values >= row.low if row.high is None else (values >= row.low) & (values <= row.high)
            found[inside] = index
        return found

    @property
    def roll_again(self) -> bool:
        return any(row.roll_again for row in self.rows)

    def unreachable(self, results: Iterable[int]) -> tuple[int, ...]:
        """The rows that none of ``results`` reaches (for compile-time reports)."""
        reached = {self.row_for(result) for result in results}
        return tuple(i for i in range(len(self.rows)) if i not in reached)

    def uncovered(self, results: Iterable[int]) -> tuple[int, ...]:
        """The ``results`` that match no row."""
        return tuple(result for result in results if self.row_for(result) is None)


def check_rows(rows: tuple[Row, ...]) -> None:
    """Rows must be non-empty ranges, in increasing order, disjoint; only the last may be open."""
    previous_high: int | None = None
    for position, row in enumerate(rows):
        if row.high is not None and row.high < row.low:
            raise CardTextError(f"results table row {row.label!r}: its range is empty")
        if row.high is None and position != len(rows) - 1:
            raise CardTextError(f"results table row {row.label!r}: only the last row can be open")
        if previous_high is not None and row.low <= previous_high:
            raise CardTextError(f"results table row {row.label!r}: overlaps or comes before the row above it")
        previous_high = row.high if row.high is not None else row.low
