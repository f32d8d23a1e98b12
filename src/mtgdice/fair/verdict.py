"""What ``mtgdice verify`` concludes: a verdict per roll and a report on the whole log.

The values only; reading a log and reaching them is :mod:`mtgdice.log.verify`, writing them as
JSON is :mod:`mtgdice.io.record`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

__all__ = ["RollCheck", "Status", "VerifyReport"]


class Status(enum.Enum):
    VERIFIED = "verified"
    REPLAYED = "replayed"
    UNVERIFIABLE = "unverifiable"
    BAD = "bad"


@dataclass(frozen=True, slots=True)
class RollCheck:
    """The verdict on one roll: ``reason`` says what is wrong or missing (empty when verified)."""

    id: Any
    nonce: Any
    status: Status
    reason: str = ""

    def line(self) -> str:
        """One line for people: ``roll 7 (nonce 3): bad: face 2 ...``."""
        nonce = f" (nonce {self.nonce})" if self.nonce is not None else ""
        separator = " " if self.status is Status.UNVERIFIABLE else ": "
        reason = f"{separator}{self.reason}" if self.reason else ""
        return f"roll {self.id}{nonce}: {self.status.value}{reason}"


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """Every roll's verdict, in log order, and findings about the log as a whole.

    ``errors`` are what is wrong with the log (a roll missing, a broken chain, a commitment that
    does not bind what it should): each makes the log bad. ``unproven`` is what keeps it from
    being proved without being wrong (no hash chain); ``warnings`` say what it proves less of.
    """

    room: Any
    checks: tuple[RollCheck, ...]
    warnings: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()
    unproven: tuple[str, ...] = ()
    pinned: str | None = None

    def _with(self, status: Status) -> tuple[RollCheck, ...]:
        return tuple(check for check in self.checks if check.status is status)

    @property
    def bad(self) -> tuple[RollCheck, ...]:
        return self._with(Status.BAD)

    @property
    def unverifiable(self) -> tuple[RollCheck, ...]:
        return self._with(Status.UNVERIFIABLE)

    @property
    def verified(self) -> tuple[RollCheck, ...]:
        return self._with(Status.VERIFIED)

    @property
    def replayed(self) -> tuple[RollCheck, ...]:
        """Rolls without a commitment (another source) whose outcome follows from their faces."""
        return self._with(Status.REPLAYED)

    @property
    def failed(self) -> bool:
        """True when anything is wrong: a bad roll or an error of the log."""
        return bool(self.bad or self.errors)

    @property
    def ok(self) -> bool:
        """True when every commit-reveal roll is verified, every other roll replayed, and the log is proved."""
        checked = len(self.verified) + len(self.replayed)
        return checked == len(self.checks) and not self.errors and not self.unproven

    def summary(self) -> str:
        problems = f", {len(self.errors)} errors in the log" if self.errors else ""
        replayed = f"{len(self.replayed)} replayed, " if self.replayed else ""
        return (
            f"{len(self.verified)} verified, {replayed}{len(self.bad)} bad, "
            f"{len(self.unverifiable)} unverifiable, of {len(self.checks)} rolls{problems}"
        )
