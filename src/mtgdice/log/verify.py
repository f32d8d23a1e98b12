"""Check an exported room log: what was committed, every face, every outcome, and that nothing is missing.

For each commit-reveal roll: (a) its commitment's revealed seed is the one committed to, (b) every
face in ``faces`` is the one the seed, the client seeds and the nonce give
(:func:`mtgdice.fair.derive_faces`) — for a roll on a player's stream (source
``commit-reveal/player``) the one the seed, the roller (``by``), the roller's roll number and their
own client seed give (:func:`mtgdice.fair.derive_player_faces`), the roll number being how many
rolls of the same ``by`` the room logged at lower nonces — (c) the dice of ``outcome`` show exactly those faces, in
order, (d) the request resolved again with those faces and the recorded answers gives the
recorded outcome, every field of it (results, rows, ignored dice, modifiers, triggers, stored
results, decisions: :func:`mtgdice.log.replay.replay_roll`; cards named from the card data need
it, and their text hashes must match it), and (e) its ``chain`` is the hash of its fields after
the roll before it (:func:`mtgdice.log.records.roll_hash`).

For the log as a whole, per room: the commitments follow each other (each starts at the nonce the
one before it was revealed up to, the first at 0); each commitment is the hash of its seed's hash,
its first nonce and the chain it ``covers``, which is the hash of the last roll logged before its
first; a revealed one's ``count`` and ``chain`` are those of its rolls; every nonce from 0 to the
last revealed one is logged exactly once, and rolls under an open seed follow on without a gap.
So removing, reordering or editing any roll, or removing the last one and lowering ``to_nonce``,
is found — unless the log was rewritten after the fact by whoever holds the seeds (the server),
who can recompute every hash: only a commitment a player copied rules that out. ``pinned``
(``mtgdice verify --commitment HEX``) must be in the log and bind a chain; it proves the rolls
logged before it was published, so a roll is proved by a commitment published after its seed was
revealed. Every commitment must bind its seed hash and the chain it covers; one that binds neither
is an error, except the seed-hash-only commitments a log migrated from before the chain keeps,
which come first and must hash to their seeds.

A roll whose seed is not revealed yet, that names cards without card data, or that the server
logged as refused is *unverifiable*, never valid; so is a log without a hash chain (written before
``mtgdice-room-log/2``), as a whole.

This module leaves out reading files and printing (the CLI).
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mtgdice.errors import InputError, MtgDiceError
from mtgdice.fair import (
    GENESIS,
    STREAM_SOURCE,
    DrawJSON,
    commitment,
    derive_faces,
    derive_player_faces,
    draw_json,
    seed_matches,
)
from mtgdice.log.records import CARD_HASH, LoggedRoll, card_hash, card_refs, outcome_faces, roll_hash
from mtgdice.rules.dice import Die

if TYPE_CHECKING:
    from mtgdice.request import CardSource

_HEX64 = re.compile(r"^[0-9a-fA-F]{64}$")
MAX_GAPS_SHOWN = 10
CHAINED_FORMAT = "mtgdice-room-log/2"


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
    def failed(self) -> bool:
        """True when anything is wrong: a bad roll or an error of the log."""
        return bool(self.bad or self.errors)

    @property
    def ok(self) -> bool:
        """True when every roll is verified and the log as a whole is proved."""
        return len(self.verified) == len(self.checks) and not self.errors and not self.unproven

    def summary(self) -> str:
        problems = f", {len(self.errors)} errors in the log" if self.errors else ""
        return (
            f"{len(self.verified)} verified, {len(self.bad)} bad, "
            f"{len(self.unverifiable)} unverifiable, of {len(self.checks)} rolls{problems}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "room": self.room,
            "ok": self.ok,
            "pinned": self.pinned,
            "rolls": [
                {"id": check.id, "nonce": check.nonce, "status": check.status.value, "reason": check.reason}
                for check in self.checks
            ],
            "errors": list(self.errors),
            "unproven": list(self.unproven),
            "warnings": list(self.warnings),
        }


@dataclass(frozen=True, slots=True)
class _Commitment:
    room: Any
    commitment: str
    seed: bytes | None
    from_nonce: int
    to_nonce: int | None
    seed_ok: bool
    digest: str | None = None
    covers: str | None = None
    count: Any = None
    chain: Any = None

    def covers_nonce(self, nonce: int) -> bool:
        return self.from_nonce <= nonce and (self.to_nonce is None or nonce < self.to_nonce)

    @property
    def short(self) -> str:
        return f"commitment {self.commitment[:16]}..."


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _hex64(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not _HEX64.match(value):
        raise InputError(where, f"expected 64 hex digits or null, got {str(value)[:80]!r}")
    return value.lower()


def _commitments(data: Mapping[str, Any]) -> list[_Commitment]:
    items = data.get("commitments")
    if not isinstance(items, list):
        raise InputError("commitments", "expected a list of {commitment, seed, from_nonce, to_nonce}")
    result: list[_Commitment] = []
    for i, item in enumerate(items):
        where = f"commitments[{i}]"
        if not isinstance(item, Mapping):
            raise InputError(where, "expected an object {commitment, seed, from_nonce, to_nonce}")
        committed = item.get("commitment")
        if not isinstance(committed, str) or not _HEX64.match(committed):
            raise InputError(f"{where}.commitment", f"expected 64 hex digits, got {str(committed)[:80]!r}")
        seed_hex = item.get("seed")
        seed: bytes | None = None
        if seed_hex is not None:
            try:
                seed = bytes.fromhex(seed_hex) if isinstance(seed_hex, str) else None
            except ValueError:
                seed = None
            if seed is None:
                raise InputError(f"{where}.seed", f"expected hex digits or null, got {str(seed_hex)[:80]!r}")
        start, end = item.get("from_nonce", 0), item.get("to_nonce")
        if not _whole(start) or not (end is None or _whole(end)):
            raise InputError(where, "from_nonce is a whole number and to_nonce a whole number or null")
        room = item.get("room", data.get("room"))
        if any(entry.commitment == committed.lower() and entry.room == room for entry in result):
            raise InputError(f"{where}.commitment", f"{committed} is listed twice; a commitment opens one seed")
        digest = _hex64(item.get("seed_hash"), f"{where}.seed_hash")
        covers = _hex64(item.get("covers"), f"{where}.covers")
        matches = seed is not None and seed_matches(seed, digest if digest is not None else committed)
        result.append(
            _Commitment(
                room, committed.lower(), seed, start, end, matches, digest, covers, item.get("count"), item.get("chain")
            )
        )
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


def _owner(roll: Mapping[str, Any], nonce: int, commitments: Sequence[_Commitment]) -> _Commitment | str:
    """The commitment a roll is under, or why there is none."""
    named = roll.get("commitment")
    if isinstance(named, str):
        owners = [c for c in commitments if c.commitment == named.lower()]
        if not owners:
            return f"its commitment {named} is not among the log's commitments"
        if not owners[0].covers_nonce(nonce):
            return f"nonce {nonce} is outside the nonces of commitment {named}"
        return owners[0]
    owners = [c for c in commitments if c.covers_nonce(nonce)]
    if len(owners) != 1:
        return f"{len(owners)} commitments cover nonce {nonce}; exactly one should"
    return owners[0]


def _check_faces(roll: Mapping[str, Any], owner: _Commitment, index: int | None = None) -> str | None:
    """Why the roll's faces or the dice its outcome shows are not what the revealed seed gives (None: they are)."""
    if not owner.seed_ok:
        return f"the revealed seed does not hash to {owner.short}"
    assert owner.seed is not None
    client_seeds = roll.get("client_seeds", [])
    faces = roll.get("faces")
    try:
        if not isinstance(client_seeds, list):
            raise InputError("client_seeds", "expected a list of strings")
        dice = _dice(faces)
        if index is None:
            drawn = derive_faces(owner.seed, client_seeds, roll["nonce"], dice)
        else:
            if len(client_seeds) > 1 or not all(isinstance(seed, str) for seed in client_seeds):
                raise InputError("client_seeds", "a roll on a player's stream has at most its roller's own seed")
            own = client_seeds[0] if client_seeds else ""
            drawn = derive_player_faces(owner.seed, str(roll.get("by")), index, own, dice)
        derived: list[DrawJSON] = [
            draw_json(("planar" if die.sides is None else die.sides, face))
            for die, face in zip(dice, drawn, strict=True)
        ]
    except MtgDiceError as error:
        return str(error)
    assert isinstance(faces, list)
    position = _first_difference(faces, derived)
    if position is not None:
        return (
            f"face {position + 1} is {_show(faces[position])} in the log; "
            f"the revealed seed gives {_show(derived[position])}"
        )
    outcome = roll.get("outcome")
    if isinstance(outcome, Mapping) and "refused" in outcome:
        return None  # a refused roll shows no dice; its faces are what it drew before it stopped
    shown = outcome_faces(outcome) if isinstance(outcome, Mapping) else []
    position = _first_difference(shown, faces)
    if position is None:
        return None
    if position >= len(shown):
        return f"the outcome shows {len(shown)} dice but {len(faces)} faces were drawn"
    if position >= len(faces):
        return f"the outcome shows {len(shown)} dice but only {len(faces)} faces were drawn"
    return f"outcome die {position + 1} shows {_show(shown[position])}; the face drawn was {_show(faces[position])}"


def _resolve_again(roll: Mapping[str, Any], cards: CardSource | None) -> tuple[Status, str] | None:
    """The request resolved again with the roll's faces: None when it gives the recorded outcome."""
    from mtgdice.log.replay import replay_roll

    outcome = roll.get("outcome")
    request = roll.get("request")
    if not isinstance(request, Mapping) or not isinstance(outcome, Mapping):
        return Status.BAD, "its request and outcome must be JSON objects"
    if "refused" in outcome:
        return Status.UNVERIFIABLE, f"(the server logged it as refused: {str(outcome['refused'])[:200]})"
    refs = card_refs(request)
    if refs and cards is None:
        return Status.UNVERIFIABLE, "(it names cards: give the card data, --cards PATH, to resolve it again)"
    for where, ref in refs:
        name = ref if isinstance(ref, str) else ref.get("card")
        try:
            record = cards.lookup(str(name)) if cards is not None else None
        except LookupError:
            return Status.UNVERIFIABLE, f"({where}: {str(name)[:60]!r} is not in the card data given)"
        logged = ref.get(CARD_HASH) if isinstance(ref, Mapping) else None
        if logged is not None and record is not None and logged != card_hash(record):
            return Status.UNVERIFIABLE, (
                f"({where}: the card data's text of {str(name)[:60]!r} is not the one the room used; "
                "give the card data the server had)"
            )
    faces = roll.get("faces")
    logged_roll = LoggedRoll(
        id=roll.get("id", 0),
        room=roll.get("room"),
        time=str(roll.get("time", "")),
        player=roll.get("player"),
        request=dict(request),
        outcome=dict(outcome),
        source=str(roll.get("source", "commit-reveal")),
        faces=faces if isinstance(faces, list) else [],
    )
    result = replay_roll(logged_roll, cards)
    if result.error is not None:
        return Status.BAD, f"resolving its request again with its faces fails: {result.error}"
    if result.differences:
        return Status.BAD, "resolved again with its faces, the outcome differs: " + "; ".join(result.differences)
    return None


def _check_roll(
    roll: Mapping[str, Any],
    commitments: Sequence[_Commitment],
    seen: dict[tuple[str, int], Any],
    cards: Any,
    index: int | None = None,
) -> tuple[RollCheck, _Commitment | None]:
    roll_id, nonce = roll.get("id"), roll.get("nonce")

    def verdict(status: Status, reason: str = "", owner: _Commitment | None = None) -> tuple[RollCheck, Any]:
        return RollCheck(roll_id, nonce, status, reason), owner

    source = roll.get("source", "commit-reveal")
    if nonce is None or source not in ("commit-reveal", STREAM_SOURCE):
        return verdict(Status.UNVERIFIABLE, f"(rolled with the {source!s} source, not commit-reveal)")
    if not _whole(nonce) or nonce < 0:
        return verdict(Status.BAD, f"nonce {nonce!r} is not a whole number 0 or more")
    owner = _owner(roll, nonce, commitments)
    if isinstance(owner, str):
        return verdict(Status.BAD, owner)
    key = (owner.commitment, nonce)
    if key in seen:
        return verdict(Status.BAD, f"nonce {nonce} was already used by roll {seen[key]} (a roll taken twice)", owner)
    seen[key] = roll_id
    if owner.seed is None:
        return verdict(Status.UNVERIFIABLE, f"until reveal ({owner.short})", owner)
    if source == STREAM_SOURCE and index is None:
        reason = f"a roll on a player's stream needs its roller in 'by', got {roll.get('by')!r}"
        return verdict(Status.BAD, reason, owner)
    wrong = _check_faces(roll, owner, index)
    if wrong is not None:
        return verdict(Status.BAD, wrong, owner)
    found = _resolve_again(roll, cards)
    if found is not None:
        return verdict(*found, owner)
    return verdict(Status.VERIFIED, "", owner)


def _stream_indices(rolls: Sequence[Mapping[str, Any]], room: Any) -> dict[int, int]:
    """Each stream roll's roll number in its roller's stream: how many rolls of the same room and
    ``by`` have lower nonces (by position in ``rolls``; rolls without a stream or a whole nonce are left out)."""
    streams: dict[tuple[Any, str], list[tuple[int, int]]] = {}
    for position, roll in enumerate(rolls):
        nonce, by = roll.get("nonce"), roll.get("by")
        if roll.get("source") == STREAM_SOURCE and isinstance(by, str) and isinstance(nonce, int) and _whole(nonce):
            streams.setdefault((roll.get("room", room), by), []).append((int(nonce), position))
    indices: dict[int, int] = {}
    for members in streams.values():
        for index, (_, position) in enumerate(sorted(members)):
            indices[position] = index
    return indices


@dataclass(slots=True)
class _Room:
    """What the log as a whole says of one room, gathered roll by roll."""

    room: Any
    commitments: list[_Commitment]
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    unchained: int = 0

    def check_chain(self, rolls: Sequence[Mapping[str, Any]], owners: Sequence[_Commitment | None]) -> list[str]:
        """Each roll's hash follows the one before it; each commitment covers the chain before its
        first roll; commitments' rolls come in their order. The reason per roll that breaks it."""
        broken: list[str] = [""] * len(rolls)
        head = GENESIS
        order = {id(c): position for position, c in enumerate(self.commitments)}
        opened = -1
        covered: dict[int, str] = {}
        for position, (roll, owner) in enumerate(zip(rolls, owners, strict=True)):
            if owner is not None:
                index = order[id(owner)]
                if index < opened:
                    self.errors.append(f"roll {roll.get('id')} of {owner.short} comes after a later seed's rolls")
                while opened < index:
                    opened += 1
                    covered[opened] = head
            recorded = roll.get("chain")
            if recorded is None:
                self.unchained += 1
                continue
            if recorded != roll_hash(head, roll):
                broken[position] = (
                    "its hash is not the hash of its fields after the roll before it "
                    "(a roll edited, removed or moved here)"
                )
            head = str(recorded)
        while opened < len(self.commitments) - 1:
            opened += 1
            covered[opened] = head
        for position, committed in enumerate(self.commitments):
            if committed.covers is not None and committed.covers != covered[position]:
                self.errors.append(
                    f"{committed.short} covers the chain at {committed.covers[:16]}..., but the rolls before it "
                    f"end at {covered[position][:16]}... (rolls before it were removed, added or changed)"
                )
            if committed.seed is not None and committed.chain is not None:
                after = covered[position + 1] if position + 1 < len(self.commitments) else head
                if committed.chain != after:
                    self.errors.append(
                        f"{committed.short} was revealed with the chain at {str(committed.chain)[:16]}..., "
                        f"but its rolls end at {after[:16]}..."
                    )
        return broken

    def check_commitments(self) -> None:
        """Each commitment binds what it says, starts where the one before ended, and the first starts at 0.

        A commitment that is the seed's hash alone (made before the log had a chain, kept by the
        migration) may only come before every commitment that binds the chain (rooms never went
        back), and has neither ``seed_hash`` nor ``covers``; once revealed, its seed must hash to it."""
        expected_start = 0
        bound_seen = False
        for position, committed in enumerate(self.commitments):
            if committed.digest is not None and committed.covers is not None:
                bound_seen = True
                bound = commitment(committed.digest, committed.from_nonce, committed.covers)
                if bound != committed.commitment:
                    self.errors.append(
                        f"{committed.short} is not the hash of its seed hash, first nonce and chain "
                        "(its nonces or the chain it covers were changed)"
                    )
            elif bound_seen or committed.digest is not None or committed.covers is not None:
                self.errors.append(
                    f"{committed.short} binds neither its seed hash nor the chain before it "
                    "(its seed_hash or covers was removed: after a chained commitment every one binds both)"
                )
            else:
                self.warnings.append(
                    f"{committed.short} was made before the log had a hash chain: it pins its seed, "
                    "not the rolls before it"
                )
            if committed.seed is not None and not committed.seed_ok:
                self.errors.append(f"the seed revealed for {committed.short} is not the one committed to")
            if committed.from_nonce != expected_start:
                self.errors.append(
                    f"{committed.short} starts at nonce {committed.from_nonce}, not {expected_start} "
                    "(where the seed before it ended)"
                )
            if committed.to_nonce is None:
                if position + 1 < len(self.commitments):
                    self.errors.append(f"{committed.short} is followed by another seed but was never revealed")
                continue
            count = committed.to_nonce - committed.from_nonce
            if count < 0:
                self.errors.append(
                    f"{committed.short} was revealed up to nonce {committed.to_nonce}, before its first, "
                    f"{committed.from_nonce}"
                )
            if committed.count is not None and (not _whole(committed.count) or committed.count != count):
                self.errors.append(
                    f"{committed.short} was revealed with {committed.count} rolls, but its nonces "
                    f"{committed.from_nonce} to {committed.to_nonce} are {count}"
                )
            expected_start = committed.to_nonce

    def check_nonces(self, seen: Mapping[tuple[str, int], Any]) -> None:
        """Every nonce of every seed is logged: all of a revealed one's, and an open one's without a gap."""
        for committed in self.commitments:
            used = sorted({nonce for owner, nonce in seen if owner == committed.commitment})
            end = committed.to_nonce if committed.to_nonce is not None else (used[-1] + 1 if used else 0)
            inside = [nonce for nonce in used if committed.from_nonce <= nonce < end]
            missing_count = max(0, end - committed.from_nonce) - len(inside)
            if missing_count > 0:
                # The first gaps, found by walking the used nonces: the range itself may be huge.
                shown_gaps: list[int] = []
                expected = committed.from_nonce
                for nonce in [*inside, end]:
                    while expected < nonce and len(shown_gaps) < MAX_GAPS_SHOWN:
                        shown_gaps.append(expected)
                        expected += 1
                    if len(shown_gaps) >= MAX_GAPS_SHOWN:
                        break
                    expected = nonce + 1
                shown = ", ".join(str(nonce) for nonce in shown_gaps)
                more = f" and {missing_count - len(shown_gaps)} more" if missing_count > len(shown_gaps) else ""
                self.errors.append(f"{committed.short}: no roll in the log for nonce {shown}{more} (rolls removed?)")


def verify_export(
    data: Mapping[str, Any], *, cards: CardSource | None = None, pinned: str | None = None
) -> VerifyReport:
    """Check an exported room log (``SqlLog.export_json``); malformed structure is an InputError.

    ``cards`` resolve requests that name cards again; ``pinned`` is a commitment a player saw,
    which must be in the log.

    >>> from mtgdice.fair import Room
    >>> from mtgdice.jsonio import resolve_json
    >>> from mtgdice.log.records import roll_hash
    >>> room = Room.open("table")
    >>> source, room = room.next_source()
    >>> outcome = resolve_json({"text": "Roll a d20."}, None, source)
    >>> roll = {"id": 1, "nonce": 0, "client_seeds": [], "request": {"text": "Roll a d20."}, "outcome": outcome,
    ...         "faces": source.draws_json(), "commitment": source.commitment, "source": "commit-reveal"}
    >>> roll["chain"] = roll_hash(GENESIS, roll)
    >>> opened = {"commitment": room.commitment, "seed_hash": room.seed_hash, "covers": GENESIS, "from_nonce": 0}
    >>> log = {"room": "table", "format": CHAINED_FORMAT, "commitments": [opened], "rolls": [roll]}
    >>> verify_export(log).checks[0].line()  # doctest: +ELLIPSIS
    'roll 1 (nonce 0): unverifiable until reveal (commitment ...)'
    >>> reveal, room = room.logged(roll["chain"]).rotate()
    >>> opened.update(seed=reveal.seed.hex(), to_nonce=reveal.end_nonce, count=1, chain=reveal.chain)
    >>> log["commitments"].append({"commitment": room.commitment, "seed_hash": room.seed_hash,
    ...                            "covers": room.covers, "from_nonce": 1})
    >>> verify_export(log, pinned=room.commitment).ok
    True
    """
    if not isinstance(data, Mapping):
        raise InputError("log", "expected a JSON object with commitments and rolls (mtgdice log export)")
    commitments = _commitments(data)
    rolls = data.get("rolls")
    if not isinstance(rolls, list):
        raise InputError("rolls", "expected a list of rolls")
    pinned = _hex64(pinned, "--commitment") if pinned is not None else None
    seen: dict[tuple[str, int], Any] = {}
    checks: list[RollCheck] = []
    owners: list[_Commitment | None] = []
    for i, roll in enumerate(rolls):
        if not isinstance(roll, Mapping):
            raise InputError(f"rolls[{i}]", "expected an object {id, nonce, client_seeds, request, outcome, faces}")
    indices = _stream_indices(rolls, data.get("room"))
    for i, roll in enumerate(rolls):
        room_commitments = [c for c in commitments if c.room == roll.get("room", data.get("room"))]
        check, owner = _check_roll(roll, room_commitments, seen, cards, indices.get(i))
        checks.append(check)
        owners.append(owner)
    rooms: dict[Any, _Room] = {}
    for committed in commitments:
        rooms.setdefault(committed.room, _Room(committed.room, [])).commitments.append(committed)
    for roll in rolls:
        rooms.setdefault(roll.get("room", data.get("room")), _Room(roll.get("room"), []))
    errors: list[str] = []
    warnings: list[str] = []
    unproven: list[str] = []
    for key, room in rooms.items():
        room.commitments.sort(key=lambda c: c.from_nonce)
        positions = [i for i, roll in enumerate(rolls) if roll.get("room", data.get("room")) == key]
        broken = room.check_chain([rolls[i] for i in positions], [owners[i] for i in positions])
        for position, reason in zip(positions, broken, strict=True):
            if reason and checks[position].status is not Status.BAD:
                checks[position] = RollCheck(checks[position].id, checks[position].nonce, Status.BAD, reason)
        room.check_commitments()
        room.check_nonces(seen)
        if room.unchained:
            where = f"room {key!r}: " if len(rooms) > 1 else ""
            note = f"{where}{room.unchained} rolls have no hash chain (a log written before {CHAINED_FORMAT})"
            (errors if data.get("format") == CHAINED_FORMAT else unproven).append(
                note + ": removed or reordered rolls cannot be found"
            )
        errors += room.errors
        warnings += room.warnings
    if pinned is not None and not any(c.commitment == pinned for c in commitments):
        errors.append(f"the pinned commitment {pinned[:16]}... is not in this log: it is not the log you were shown")
    elif pinned is not None and not any(c.commitment == pinned and c.covers is not None for c in commitments):
        errors.append(f"the pinned commitment {pinned[:16]}... binds no chain: it cannot pin the rolls before it")
    return VerifyReport(data.get("room"), tuple(checks), tuple(warnings), tuple(errors), tuple(unproven), pinned)
