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
the roll before it (:func:`mtgdice.game.record.roll_hash`).

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

A roll of another source (the CLI's: secure, seeded, scripted) has no commitment, so nothing proves
its faces fair; it is *replayed*: its request resolved again with its faces must give its outcome,
every face used. A log of such rolls alone (``mtgdice log export`` of the CLI's log) is all right
when every roll replays.

This module leaves out reading files and printing (the CLI).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mtgdice.errors import InputError, MtgDiceError
from mtgdice.fair.commit import (
    GENESIS,
    STREAM_SOURCE,
    Draw,
    commitment,
    derive_faces,
    derive_player_faces,
    seed_matches,
)
from mtgdice.fair.verdict import RollCheck, Status, VerifyReport
from mtgdice.io import record as codec
from mtgdice.io.record import CARD_HASH, card_hash, card_refs, roll_hash
from mtgdice.rules.dice import Die, PlanarFace

if TYPE_CHECKING:
    from mtgdice.game.request import CardSource

_HEX64 = re.compile(r"^[0-9a-fA-F]{64}$")
MAX_GAPS_SHOWN = 10
CHAINED_FORMAT = "mtgdice-room-log/2"


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
    count: int | None = None
    chain: str | None = None

    def covers_nonce(self, nonce: int) -> bool:
        return self.from_nonce <= nonce and (self.to_nonce is None or nonce < self.to_nonce)

    @property
    def short(self) -> str:
        return f"commitment {self.commitment[:16]}..."


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _commitments(data: Mapping[str, Any]) -> list[_Commitment]:
    """The log's commitments, read by the codec, each with whether its revealed seed is the one committed to."""
    return [
        _Commitment(
            entry.room,
            entry.commitment,
            entry.seed,
            entry.from_nonce,
            entry.to_nonce,
            entry.seed is not None
            and seed_matches(entry.seed, entry.seed_hash if entry.seed_hash is not None else entry.commitment),
            entry.seed_hash,
            entry.covers,
            entry.count,
            entry.chain,
        )
        for entry in codec.commitments_from_export(data)
    ]


def _show(draw: Draw) -> str:
    sides, face = draw
    if isinstance(face, PlanarFace):
        return f"a {face.value} on a planar die"
    return f"{face} on a d{sides}"


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
    """Why the roll's faces are not what the revealed seed gives (None: they are). ``index`` is the
    roll's number on its roller's own stream (None: the room's nonce derives its faces). The faces are
    read strictly (``7.0`` or ``true`` is no face); the dice its outcome shows are checked by resolving
    it again with them."""
    if not owner.seed_ok:
        return f"the revealed seed does not hash to {owner.short}"
    assert owner.seed is not None
    try:
        logged = codec.from_export(roll)
        dice = [Die(None) if sides == "planar" else Die(sides) for sides, _ in logged.faces]
        if index is None:
            drawn = derive_faces(owner.seed, logged.client_seeds, int(roll["nonce"]), dice)
        else:
            if len(logged.client_seeds) > 1:
                raise InputError("client_seeds", "a roll on a player's stream has at most its roller's own seed")
            own = logged.client_seeds[0] if logged.client_seeds else ""
            drawn = derive_player_faces(owner.seed, str(roll.get("by")), index, own, dice)
    except MtgDiceError as error:
        return str(error)
    for position, ((sides, face), derived) in enumerate(zip(logged.faces, drawn, strict=True)):
        if face != derived:
            return (
                f"face {position + 1} is {_show((sides, face))} in the log; "
                f"the revealed seed gives {_show((sides, derived))}"
            )
    return None


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
    try:
        logged_roll = codec.from_export(roll)
    except InputError as error:
        return Status.BAD, str(error)
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
        found = _resolve_again(roll, cards)
        if found is not None:
            return verdict(*found)
        reason = f"(rolled with the {source!s} source, no commitment: its faces give its outcome)"
        return verdict(Status.REPLAYED, reason)
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
                if owner is not None or roll.get("nonce") is not None:  # a roll of another source has no chain
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

    >>> from mtgdice.fair.commit import Room
    >>> from mtgdice.io.jsonio import resolve_json
    >>> from mtgdice.io.record import roll_hash
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
    if pinned is not None and not _HEX64.match(pinned):
        raise InputError("--commitment", f"expected 64 hex digits, got {pinned[:80]!r}")
    pinned = pinned.lower() if pinned is not None else None
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
