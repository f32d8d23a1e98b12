"""Check an exported room log: revealed seeds, every face, and the outcomes that show them.

For each commit-reveal roll: (a) its commitment's revealed seed hashes to the commitment, (b) every
face in ``faces`` is the one the seed, the client seeds and the nonce give
(:func:`mtgdice.fair.derive_faces`), and (c) the dice of ``outcome`` show exactly those faces, in
order. A roll whose seed is not revealed yet is *unverifiable until reveal*, never valid; a roll
from another source is unverifiable. A nonce logged twice under one seed is bad; nonces of a seed
with no roll in the log are reported as gaps (rolls left out of the log).

This module leaves out reading files and printing (the CLI) and the rules: it does not re-resolve
requests (that is ``replay``).
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mtgdice.errors import InputError, MtgDiceError
from mtgdice.fair import DrawJSON, derive_faces, draw_json, seed_matches
from mtgdice.log.records import outcome_faces
from mtgdice.rules.dice import Die

_HEX64 = re.compile(r"^[0-9a-fA-F]{64}$")
MAX_GAPS_SHOWN = 10


class Status(enum.Enum):
    VERIFIED = "verified"
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
    """Every roll's verdict, in log order, and warnings about the log as a whole."""

    room: Any
    checks: tuple[RollCheck, ...]
    warnings: tuple[str, ...] = ()

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
    def ok(self) -> bool:
        """True when every roll is verified (none bad, none waiting for a reveal)."""
        return len(self.verified) == len(self.checks)

    def summary(self) -> str:
        return (
            f"{len(self.verified)} verified, {len(self.bad)} bad, "
            f"{len(self.unverifiable)} unverifiable, of {len(self.checks)} rolls"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "room": self.room,
            "ok": self.ok,
            "rolls": [
                {"id": check.id, "nonce": check.nonce, "status": check.status.value, "reason": check.reason}
                for check in self.checks
            ],
            "warnings": list(self.warnings),
        }


@dataclass(frozen=True, slots=True)
class _Commitment:
    commitment: str
    seed: bytes | None
    from_nonce: int
    to_nonce: int | None
    seed_ok: bool

    def covers(self, nonce: int) -> bool:
        return self.from_nonce <= nonce and (self.to_nonce is None or nonce < self.to_nonce)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _commitments(data: Mapping[str, Any]) -> list[_Commitment]:
    items = data.get("commitments")
    if not isinstance(items, list):
        raise InputError("commitments", "expected a list of {commitment, seed, from_nonce, to_nonce}")
    result: list[_Commitment] = []
    for i, item in enumerate(items):
        field = f"commitments[{i}]"
        if not isinstance(item, Mapping):
            raise InputError(field, "expected an object {commitment, seed, from_nonce, to_nonce}")
        committed = item.get("commitment")
        if not isinstance(committed, str) or not _HEX64.match(committed):
            raise InputError(f"{field}.commitment", f"expected 64 hex digits, got {str(committed)[:80]!r}")
        seed_hex = item.get("seed")
        seed: bytes | None = None
        if seed_hex is not None:
            try:
                seed = bytes.fromhex(seed_hex) if isinstance(seed_hex, str) else None
            except ValueError:
                seed = None
            if seed is None:
                raise InputError(f"{field}.seed", f"expected hex digits or null, got {str(seed_hex)[:80]!r}")
        start, end = item.get("from_nonce", 0), item.get("to_nonce")
        if not _whole(start) or not (end is None or _whole(end)):
            raise InputError(field, "from_nonce is a whole number and to_nonce a whole number or null")
        if any(entry.commitment == committed.lower() for entry in result):
            raise InputError(f"{field}.commitment", f"{committed} is listed twice; a commitment opens one seed")
        matches = seed is not None and seed_matches(seed, committed)
        result.append(_Commitment(committed.lower(), seed, start, end, matches))
    return result


def _first_difference(logged: list[Any], expected: list[Any]) -> int | None:
    """The first position where two face lists differ (by JSON text, so ``true`` is not ``1``)."""
    for position, (left, right) in enumerate(zip(logged, expected, strict=False)):
        if json.dumps(left) != json.dumps(right):
            return position
    return None if len(logged) == len(expected) else min(len(logged), len(expected))


def _show(draw: Any) -> str:
    if isinstance(draw, list) and len(draw) == 2:
        sides, face = draw
        return f"a {face} on a planar die" if sides == "planar" else f"{face} on a d{sides}"
    return repr(draw)


def _dice(faces: Any) -> list[Die]:
    if not isinstance(faces, list):
        raise InputError("faces", "expected a list of [sides, face] pairs")
    dice = []
    for position, pair in enumerate(faces):
        if not isinstance(pair, list) or len(pair) != 2:
            raise InputError(f"faces[{position}]", f"expected [sides, face], got {str(pair)[:60]}")
        sides = pair[0]
        if sides == "planar":
            dice.append(Die(None))
        elif _whole(sides) and sides >= 1:
            dice.append(Die(sides))
        else:
            raise InputError(f"faces[{position}]", f'sides must be a whole number or "planar", got {str(sides)[:40]}')
    return dice


def _check_roll(roll: Mapping[str, Any], commitments: list[_Commitment], seen: dict[tuple[str, int], Any]) -> RollCheck:
    roll_id, nonce = roll.get("id"), roll.get("nonce")

    def verdict(status: Status, reason: str = "") -> RollCheck:
        return RollCheck(roll_id, nonce, status, reason)

    source = roll.get("source", "commit-reveal")
    if nonce is None or source != "commit-reveal":
        return verdict(Status.UNVERIFIABLE, f"(rolled with the {source!s} source, not commit-reveal)")
    if not _whole(nonce) or nonce < 0:
        return verdict(Status.BAD, f"nonce {nonce!r} is not a whole number 0 or more")
    named = roll.get("commitment")
    if isinstance(named, str):
        owners = [c for c in commitments if c.commitment == named.lower()]
        if not owners:
            return verdict(Status.BAD, f"its commitment {named} is not among the log's commitments")
        if not owners[0].covers(nonce):
            return verdict(Status.BAD, f"nonce {nonce} is outside the nonces of commitment {named}")
    else:
        owners = [c for c in commitments if c.covers(nonce)]
        if len(owners) != 1:
            return verdict(Status.BAD, f"{len(owners)} commitments cover nonce {nonce}; exactly one should")
    owner = owners[0]
    key = (owner.commitment, nonce)
    if key in seen:
        return verdict(Status.BAD, f"nonce {nonce} was already used by roll {seen[key]} (a roll taken twice)")
    seen[key] = roll_id
    if owner.seed is None:
        return verdict(Status.UNVERIFIABLE, f"until reveal (commitment {owner.commitment[:16]}...)")
    if not owner.seed_ok:
        return verdict(Status.BAD, f"the revealed seed does not hash to commitment {owner.commitment[:16]}...")
    client_seeds = roll.get("client_seeds", [])
    faces = roll.get("faces")
    try:
        if not isinstance(client_seeds, list):
            raise InputError("client_seeds", "expected a list of strings")
        dice = _dice(faces)
        drawn = derive_faces(owner.seed, client_seeds, nonce, dice)
        derived: list[DrawJSON] = [
            draw_json(("planar" if die.sides is None else die.sides, face))
            for die, face in zip(dice, drawn, strict=True)
        ]
    except MtgDiceError as error:
        return verdict(Status.BAD, str(error))
    assert isinstance(faces, list)
    position = _first_difference(faces, derived)
    if position is not None:
        return verdict(
            Status.BAD,
            f"face {position + 1} is {_show(faces[position])} in the log; "
            f"the revealed seed gives {_show(derived[position])}",
        )
    outcome = roll.get("outcome")
    shown = outcome_faces(outcome) if isinstance(outcome, Mapping) else []
    position = _first_difference(shown, faces)
    if position is not None:
        if position >= len(shown):
            reason = f"the outcome shows {len(shown)} dice but {len(faces)} faces were drawn"
        elif position >= len(faces):
            reason = f"the outcome shows {len(shown)} dice but only {len(faces)} faces were drawn"
        else:
            reason = (
                f"outcome die {position + 1} shows {_show(shown[position])}; "
                f"the face drawn was {_show(faces[position])}"
            )
        return verdict(Status.BAD, reason)
    return verdict(Status.VERIFIED)


def _gaps(commitments: list[_Commitment], seen: dict[tuple[str, int], Any]) -> list[str]:
    warnings = []
    for committed in commitments:
        used = sorted(nonce for owner, nonce in seen if owner == committed.commitment)
        end = committed.to_nonce if committed.to_nonce is not None else (used[-1] + 1 if used else committed.from_nonce)
        missing = sorted(set(range(committed.from_nonce, end)) - set(used))
        if missing:
            shown = ", ".join(str(nonce) for nonce in missing[:MAX_GAPS_SHOWN])
            more = f" and {len(missing) - MAX_GAPS_SHOWN} more" if len(missing) > MAX_GAPS_SHOWN else ""
            warnings.append(
                f"commitment {committed.commitment[:16]}...: no roll in the log for nonce {shown}{more} "
                "(rolls left out of the log?)"
            )
    return warnings


def verify_export(data: Mapping[str, Any]) -> VerifyReport:
    """Check an exported room log (``RollLog.export_json``); malformed structure is an InputError.

    >>> from mtgdice.fair import Room
    >>> from mtgdice.jsonio import resolve_json
    >>> room = Room.open("table")
    >>> source, room = room.next_source()
    >>> outcome = resolve_json({"text": "Roll a d20."}, None, source)
    >>> roll = {"id": 1, "nonce": 0, "client_seeds": [], "request": {}, "outcome": outcome,
    ...         "faces": source.draws_json()}
    >>> log = {"room": "table", "commitments": [{"commitment": source.commitment, "seed": None,
    ...        "from_nonce": 0, "to_nonce": None}], "rolls": [roll]}
    >>> verify_export(log).checks[0].line()  # doctest: +ELLIPSIS
    'roll 1 (nonce 0): unverifiable until reveal (commitment ...)'
    >>> reveal, room = room.rotate()
    >>> log["commitments"][0].update(seed=reveal.seed.hex(), to_nonce=reveal.end_nonce)
    >>> verify_export(log).ok
    True
    """
    if not isinstance(data, Mapping):
        raise InputError("log", "expected a JSON object with commitments and rolls (mtgdice log export)")
    commitments = _commitments(data)
    rolls = data.get("rolls")
    if not isinstance(rolls, list):
        raise InputError("rolls", "expected a list of rolls")
    seen: dict[tuple[str, int], Any] = {}
    checks = []
    for i, roll in enumerate(rolls):
        if not isinstance(roll, Mapping):
            raise InputError(f"rolls[{i}]", "expected an object {id, nonce, client_seeds, request, outcome, faces}")
        checks.append(_check_roll(roll, commitments, seen))
    return VerifyReport(data.get("room"), tuple(checks), tuple(_gaps(commitments, seen)))
