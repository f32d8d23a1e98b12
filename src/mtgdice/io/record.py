"""The roll log's codec: a typed :class:`~mtgdice.game.record.RollRecord` to the log's row and back.

:func:`encode` writes a record as a :class:`LogRow` — the request and the outcome as JSON text
(json-interface.md's objects; cards named from the card data carry their text hash), the faces as
JSON pairs (``[20, 7]``, ``["planar", "chaos"]``), the provenance as columns, and in a room its hash
in the room's chain. :func:`decode` reads a row back as a :class:`~mtgdice.game.record.LoggedRoll`;
:func:`request_of` and :func:`shown` read its request and what its outcome showed;
:func:`export_roll` writes it as a roll of the exported log, and :func:`from_export` reads one back
(what ``verify`` checks). Rows written by earlier versions read the same way: the format has only
gained columns (``seed``, schema 4).

**The hash chain.** Each commit-reveal roll of a room is logged with ``chain``, the SHA-256 of
its exported fields and the previous roll's ``chain`` (:func:`roll_hash`; the room's first roll
follows :data:`~mtgdice.fair.GENESIS`). Editing, removing or reordering a roll changes every
hash after it, and each commitment a room publishes after a reveal covers the hash its rolls
reached (:mod:`mtgdice.fair.commit`), so a commitment a player copied pins every roll before it.

**Cards by reference.** A logged request names a card from the card data by its name and
``oracle_hash``, the hash of what the compiler reads of it (:func:`card_hash`); only a card given
by its own text carries the text.

This module leaves out storage (``mtgdice.log.store``) and reading request objects
(``mtgdice.io.jsonio``, loaded only when a logged request is read as a typed request).
"""

from __future__ import annotations

import csv
import functools
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Protocol, TypeGuard

from mtgdice.errors import InputError
from mtgdice.fair.commit import Draw, join_client_seeds
from mtgdice.game.record import LoggedCommitment, LoggedRoll, Proof, Provenance, RollRecord, Shown, SourceKind
from mtgdice.io.outcome import JSON, JSONObject, outcome_text
from mtgdice.rules.dice import PlanarFace
from mtgdice.rules.plain import PlainResult, PlainRoll

if TYPE_CHECKING:
    from msgspec import Raw

    from mtgdice.fair.verdict import VerifyReport
    from mtgdice.game.request import CardSource, RollRequest
    from mtgdice.io.log_model import ExportedCommitment, ExportedRoll
    from mtgdice.rules.coins import FlipResolution
    from mtgdice.rules.resolution import Resolution

__all__ = [
    "CARD_HASH",
    "CHAINED_FIELDS",
    "COLUMNS",
    "LogRow",
    "canonical",
    "card_hash",
    "card_refs",
    "commitment_json",
    "commitment_model",
    "commitments_from_export",
    "decode",
    "differences",
    "encode",
    "export_csv",
    "export_model",
    "export_roll",
    "export_text",
    "faces_json",
    "faces_from_json",
    "from_export",
    "report_json",
    "request_of",
    "roll_hash",
    "shown",
    "with_card_hashes",
    "without_card_hashes",
]

CHAINED_FIELDS = (
    "room", "time", "player", "by", "source", "commitment", "client_seeds", "nonce", "faces", "request", "outcome",
)  # fmt: skip
"""The fields of an exported roll its hash covers, with the previous roll's hash (``prev``)."""
CARD_HASH = "oracle_hash"
"""The key of a card reference's text hash in a logged request."""
CARD_HASH_LENGTH = 32
ZONE_KEYS = ("battlefield", "opponents", "graveyard", "command")
COLUMNS = (
    "room", "time", "player", "source", "card", "row", "commitment", "client_seeds", "nonce", "faces", "request",
    "outcome", "turn", "spent_by", "chain", "seed",
)  # fmt: skip
"""The columns of a roll's row, in the order of :meth:`LogRow.values` (after ``id``, when read)."""
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_PLANAR_VALUES = frozenset(face.value for face in PlanarFace)
MAX_DIFFERENCES = 5
IGNORED_KEYS = frozenset({"source"})


# -- hashes -----------------------------------------------------------------------------------------


def canonical(value: object) -> bytes:
    """The bytes a hash of a JSON value is taken over: keys sorted, no spaces, ASCII (other characters
    as JSON escapes), as Python's ``json.dumps(value, sort_keys=True, separators=(",", ":"))`` writes it.

    >>> canonical({"b": [1, "x"], "a": None})
    b'{"a":null,"b":[1,"x"]}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def roll_hash(prev: str, roll: Mapping[str, object]) -> str:
    """The hash of one logged roll (an exported roll object) following the roll whose hash is ``prev``.

    >>> from mtgdice.fair.commit import GENESIS
    >>> first = roll_hash(GENESIS, {"nonce": 0, "faces": [[20, 7]]})
    >>> first != roll_hash(GENESIS, {"nonce": 0, "faces": [[20, 8]]}), roll_hash(first, {}) != roll_hash(GENESIS, {})
    (True, True)
    """
    body = {key: roll.get(key) for key in CHAINED_FIELDS}
    body["prev"] = prev
    return hashlib.sha256(canonical(body)).hexdigest()


class _Real:
    """A number with a fraction or an exponent, as :func:`_read_back` reads it: no fast encoder writes
    it as :func:`canonical` does (``1e+16``), so a value holding one is hashed the standard way."""

    __slots__ = ()


_FastJSON = tuple[Callable[[str], object], Callable[[object], bytes], Callable[[object], bytes]]
_fast: list[_FastJSON | None] = [None]


def use_fast_json() -> None:
    """Write and hash log rows with msgspec from now on (a server logs many rolls; a command that
    logs one does not import it). The rows and hashes are the same values either way."""
    _fast[0] = _fast_codec()


def _fast_json() -> _FastJSON | None:
    return _fast[0]


@functools.cache
def _fast_codec() -> _FastJSON:
    """msgspec's JSON decoder (reading numbers with a fraction as :class:`_Real`), its encoder with
    sorted keys and its encoder."""
    import msgspec

    decoder = msgspec.json.Decoder(float_hook=lambda _: _Real())
    return decoder.decode, msgspec.json.Encoder(order="sorted").encode, msgspec.json.Encoder().encode


def _chain_hash(prev: str, head: Mapping[str, object], texts: Mapping[str, str]) -> str:
    """:func:`roll_hash` of a roll as it reads back from the log: ``head`` its plain fields (text,
    whole numbers, None, lists of text), ``texts`` the JSON texts of the others. The canonical bytes
    come from msgspec when they are the ones :func:`canonical` writes (keys sorted, ASCII only, no
    character that ``json`` escapes and msgspec does not, no number with a fraction), else from ``json``.

    >>> use_fast_json()
    >>> head = {"nonce": 1, "player": "Zoë", "client_seeds": ["a"]}
    >>> texts = {"faces": "[[20,7]]", "outcome": '{"b":1,"a":[null,true,"\\u007f"]}'}
    >>> slow = {**head, **{key: json.loads(text) for key, text in texts.items()}}
    >>> _chain_hash("0" * 64, head, texts) == roll_hash("0" * 64, slow)
    True
    >>> _chain_hash("0" * 64, {}, {"outcome": '{"p":0.5}'}) == roll_hash("0" * 64, {"outcome": {"p": 0.5}})
    True
    """
    fast = _fast_json()
    if fast is not None:
        decode, encode, _ = fast
        body = {key: head.get(key) for key in CHAINED_FIELDS}
        body.update((key, decode(text)) for key, text in texts.items())
        body["prev"] = prev
        try:
            written = encode(body)
        except (TypeError, ValueError, UnicodeError):  # a _Real, or text msgspec does not write
            written = b""
        if written and written.isascii() and b"\x7f" not in written:
            return hashlib.sha256(written).hexdigest()
    return roll_hash(prev, {**head, **{key: json.loads(text) for key, text in texts.items()}})


def card_hash(record: object) -> str:
    """The hash of what the compiler reads of a card record: its name, layout, type line and Oracle text.

    >>> from types import SimpleNamespace
    >>> card = SimpleNamespace(name="Ogre", layout="normal", type_line="Creature", oracle_text="Roll a d20.")
    >>> other = SimpleNamespace(**{**vars(card), "oracle_text": "Roll a d6."})
    >>> len(card_hash(card)), card_hash(card) == card_hash(other)
    (32, False)
    """
    return _hash_of(
        str(getattr(record, "name", "")),
        getattr(record, "layout", "normal") or "normal",
        getattr(record, "type_line", "") or "",
        getattr(record, "oracle_text", "") or "",
    )


@functools.lru_cache(maxsize=8192)
def _hash_of(name: str, layout: str, type_line: str, oracle_text: str) -> str:
    return hashlib.sha256(canonical([name, layout, type_line, oracle_text])).hexdigest()[:CARD_HASH_LENGTH]


class CardLookup(Protocol):
    """Anything that finds a card by name (``mtgdice.cards.CardCatalog``)."""

    def lookup(self, name: str) -> object: ...


def card_refs(request: Mapping[str, JSON]) -> list[tuple[str, Mapping[str, JSON] | str]]:
    """Every card a logged request names from the card data, as ``(where, reference)``: the
    request's own card and each zone item given by name (a bare name, or an object with ``card``).

    >>> [where for where, _ in card_refs({"card": "Ogre", "battlefield": ["Imp", {"text": "Roll a d6."}]})]
    ['card', 'battlefield[0]']
    """
    found: list[tuple[str, Mapping[str, JSON] | str]] = []
    if isinstance(request.get("card"), str) and "text" not in request:
        found.append(("card", request))
    for zone, items in _zone_lists(request):
        for position, item in enumerate(items):
            if isinstance(item, str) or (isinstance(item, Mapping) and "text" not in item and "card" in item):
                found.append((f"{zone}[{position}]", item))
    return found


def _zone_lists(request: Mapping[str, JSON]) -> list[tuple[str, list[JSON]]]:
    """Every list of zone items of a request, by its path: the earlier zones, each seat's zones
    (``seats[1].graveyard``) and the waiting replacements (``pending``)."""
    found: list[tuple[str, list[JSON]]] = []
    for zone in ZONE_KEYS:
        items = request.get(zone)
        if isinstance(items, list):
            found.append((zone, items))
    seats = request.get("seats")
    for seat, zones in enumerate(seats if isinstance(seats, list) else []):
        if isinstance(zones, Mapping):
            found += [(f"seats[{seat}].{z}", v) for z, v in zones.items() if isinstance(v, list)]
    pending = request.get("pending")
    if isinstance(pending, list):
        found.append(("pending", pending))
    return found


def _map_zones(request: Mapping[str, JSON], item: Callable[[JSON], JSON]) -> JSONObject:
    """``request`` with ``item`` applied to every zone item (the earlier zones, seats, pending)."""
    result = dict(request)
    for zone in ZONE_KEYS:
        items = result.get(zone)
        if isinstance(items, list):
            result[zone] = [item(value) for value in items]
    seats = result.get("seats")
    if isinstance(seats, list):
        result["seats"] = [
            {z: [item(v) for v in values] if isinstance(values, list) else values for z, values in zones.items()}
            if isinstance(zones, dict)
            else zones
            for zones in seats
        ]
    pending = result.get("pending")
    if isinstance(pending, list):
        result["pending"] = [item(value) for value in pending]
    return result


def card_hashes(request: Mapping[str, JSON], cards: CardLookup | None) -> dict[str, str]:
    """The text hash of each card a logged request names from ``cards`` (a name that does not look up is left out)."""
    hashes: dict[str, str] = {}
    if cards is None:
        return hashes
    for _, ref in card_refs(request):
        name = ref if isinstance(ref, str) else ref.get("card")
        if not isinstance(name, str) or name in hashes:
            continue
        try:
            record = cards.lookup(name)
        except LookupError:
            continue
        hashes[name] = card_hash(record)
    return hashes


def with_card_hashes(request: Mapping[str, JSON], hashes: Mapping[str, str]) -> JSONObject:
    """A logged request whose cards named from the card data carry their text hash (``hashes`` by name).

    >>> with_card_hashes({"card": "Ogre", "battlefield": ["Imp"]}, {"Ogre": "a1", "Imp": "b2"})
    {'card': 'Ogre', 'battlefield': [{'card': 'Imp', 'oracle_hash': 'b2'}], 'oracle_hash': 'a1'}
    """

    def item(value: JSON) -> JSON:
        if isinstance(value, str) and value in hashes:
            return {"card": value, CARD_HASH: hashes[value]}
        if isinstance(value, dict) and "text" not in value:
            name = value.get("card")
            if isinstance(name, str) and name in hashes:
                return {**value, CARD_HASH: hashes[name]}
        return value

    result = _map_zones(request, item)
    name = result.get("card")
    if isinstance(name, str) and "text" not in result and name in hashes:
        result[CARD_HASH] = hashes[name]
    return result


def without_card_hashes(request: Mapping[str, JSON]) -> JSONObject:
    """A logged request as the JSON reader takes it (the text hashes left out).

    >>> without_card_hashes({"card": "Ogre", "oracle_hash": "a1", "graveyard": [{"card": "Imp", "oracle_hash": "b2"}]})
    {'card': 'Ogre', 'graveyard': [{'card': 'Imp'}]}
    """

    def item(value: JSON) -> JSON:
        return {k: v for k, v in value.items() if k != CARD_HASH} if isinstance(value, dict) else value

    return _map_zones({key: value for key, value in request.items() if key != CARD_HASH}, item)


# -- faces ------------------------------------------------------------------------------------------


def faces_json(faces: Sequence[Draw]) -> list[JSON]:
    """Faces as the log writes them.

    >>> faces_json([(20, 7), ("planar", PlanarFace.CHAOS)])
    [[20, 7], ['planar', 'chaos']]
    """
    return [[sides, face.value if isinstance(face, PlanarFace) else face] for sides, face in faces]


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def faces_from_json(value: object, field: str = "faces") -> tuple[Draw, ...]:
    """Faces read strictly: a list of ``[sides, face]`` with ``1 <= face <= sides`` (whole numbers,
    not ``7.0`` nor ``true``) or ``["planar", face]``; anything else is an error naming the pair.

    >>> faces_from_json([[6, 4], ["planar", "blank"]])
    ((6, 4), ('planar', <PlanarFace.BLANK: 'blank'>))
    >>> faces_from_json([[6, 7]])
    Traceback (most recent call last):
      ...
    mtgdice.rules.errors.InputError: faces[0]: expected [sides, face] such as [20, 7] or ["planar", "chaos"], got [6, 7]
    """
    if not isinstance(value, list):
        raise InputError(field, "expected a list of [sides, face] pairs")
    faces: list[Draw] = []
    for position, pair in enumerate(value):
        if isinstance(pair, (list, tuple)) and len(pair) == 2:
            sides, face = pair
            if sides == "planar" and (isinstance(face, PlanarFace) or face in _PLANAR_VALUES):
                faces.append(("planar", face if isinstance(face, PlanarFace) else PlanarFace(face)))
                continue
            if _whole(sides) and _whole(face) and 1 <= face <= sides:
                faces.append((sides, face))
                continue
        raise InputError(
            f"{field}[{position}]", f'expected [sides, face] such as [20, 7] or ["planar", "chaos"], got {pair!r}'
        )
    return tuple(faces)


# -- a record to a row ------------------------------------------------------------------------------


def _compact(value: JSON) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


MAX_LOGGED_REQUESTS = 512
_logged: dict[tuple[object, object], tuple[JSONObject, str]] = {}
_logged_objects: dict[int, tuple[object, object, tuple[JSONObject, str]]] = {}
"""The same, by the request object's identity (a server's request memo gives the same object for
the same request; hashing a request walks all of it)."""


def _logged_request(request: RollRequest | PlainRoll, cards: CardLookup | None) -> tuple[JSONObject, str]:
    """A request as the log writes it (its cards' text hashes from ``cards``) and its text: worked
    out once per request and card data (a server logs the same requests again and again; the card
    data does not change while it runs). Not to be changed: the value is shared.

    >>> from mtgdice.game.request import RollKind, RollRequest
    >>> request = RollRequest(RollKind.DICE, notation="2d10")
    >>> _logged_request(request, None), _logged_request(request, None)[0] is _logged_request(request, None)[0]
    (({'kind': 'dice', 'notation': '2d10'}, '{"kind":"dice","notation":"2d10"}'), True)
    """
    same = _logged_objects.get(id(request))
    if same is not None and same[0] is request and same[1] is cards:
        return same[2]
    key = (request, cards)
    try:
        known = _logged.get(key)
    except TypeError:  # a request holding something unhashable (its choices): worked out each time
        key, known = None, None  # type: ignore[assignment]
    if known is None:
        logged = request_json(request)
        value = with_card_hashes(logged, card_hashes(logged, cards))
        known = (value, _written(value))
        if key is None:
            return known
        if len(_logged) >= MAX_LOGGED_REQUESTS:
            _logged.clear()
        _logged[key] = known
    if len(_logged_objects) >= MAX_LOGGED_REQUESTS:
        _logged_objects.clear()
    _logged_objects[id(request)] = (request, cards, known)  # the entry holds the request: its id is not reused
    return known


def _written(value: JSON) -> str:
    """A value's compact JSON text for a log row, by msgspec (the same text as :func:`_compact` but
    for numbers with an exponent, written without ``+``, and DEL, unescaped: the same value either
    way); by ``json`` when msgspec does not write it.

    >>> use_fast_json()
    >>> _written({"b": [1, "Zoë", None, True]}) == _compact({"b": [1, "Zoë", None, True]})
    True
    """
    fast = _fast_json()
    if fast is not None:
        try:
            return fast[2](value).decode()
        except (TypeError, ValueError, UnicodeError):
            pass
    return _compact(value)


def request_json(request: RollRequest | PlainRoll) -> JSONObject:
    """A record's request as the log writes it (a plain roll as ``{"kind": "plain", "notation": ...}``)."""
    if isinstance(request, PlainRoll):
        return {"kind": "plain", "notation": request.notation}
    from mtgdice.io.jsonio import request_json as written  # a request of cards was read or built with the compiler

    data: JSONObject = written(request)
    return data


@dataclass(frozen=True, slots=True)
class LogRow:
    """A roll as the log stores it: the columns :data:`COLUMNS` names, in that order."""

    room: str | None
    time: str
    player: str | None
    source: str
    card: str | None
    row: int | None
    commitment: str | None
    client_seeds: str
    nonce: int | None
    faces: str
    request: str
    outcome: str
    turn: int | None
    by: str | None
    chain: str | None
    seed: str | None

    def values(self) -> tuple[str | int | None, ...]:
        """The row's values for an ``INSERT`` of :data:`COLUMNS`."""
        return (
            self.room, self.time, self.player, self.source, self.card, self.row, self.commitment, self.client_seeds,
            self.nonce, self.faces, self.request, self.outcome, self.turn, self.by, self.chain, self.seed,
        )  # fmt: skip


def _card_label(request: Mapping[str, JSON]) -> str | None:
    for key in ("card", "name"):
        value = request.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def _first_row(outcome: Resolution | FlipResolution | PlainResult | None) -> int | None:
    """The row the first execution of a roll of dice matched (a copy for listing), else None."""
    if outcome is None or isinstance(outcome, PlainResult):
        return None  # a plain roll loads no Magic rules
    from mtgdice.rules.resolution import Resolution

    return outcome.executions[0].row if isinstance(outcome, Resolution) and outcome.executions else None


def _checked(provenance: Provenance) -> None:
    proof = provenance.proof
    if proof is not None:
        if not _HEX64.match(proof.commitment):
            raise InputError("commitment", f"expected 64 hex digits (SHA-256), got {proof.commitment[:80]!r}")
        if not _whole(proof.nonce) or proof.nonce < 0:
            raise InputError("nonce", f"expected a whole number 0 or more, got {proof.nonce!r}")
        join_client_seeds(sorted(proof.client_seeds))
    turn = provenance.turn
    if turn is not None and (not _whole(turn) or turn < 1):
        raise InputError("turn", f"expected a whole number 1 or more, got {turn!r}")


def encode(record: RollRecord, *, cards: CardLookup | None = None, prev: str | None = None) -> LogRow:
    """A record's row: its request (with the text hashes of the cards it names from ``cards``) and
    outcome as JSON text, every field checked; with ``prev`` (the hash of the room's roll before
    it) the row carries its own hash, :func:`roll_hash` of it as it is exported.

    >>> from mtgdice.rules.plain import DiceGroup, roll_plain
    >>> from mtgdice.rules.sources import ScriptedSource
    >>> source, plain = ScriptedSource([5]), PlainRoll((DiceGroup(1, 20),))
    >>> row = encode(RollRecord.of(plain, roll_plain(plain, source), source, time="2026-01-01T00:00:00+00:00"))
    >>> row.request, row.faces, row.source
    ('{"kind":"plain","notation":"d20"}', '[[20,5]]', 'scripted')
    """
    provenance = record.provenance
    _checked(provenance)
    faces = faces_json(faces_from_json(list(record.faces)))  # checked: each face is one its die has
    request, request_text = _logged_request(record.request, cards)
    refused: JSONObject = {"refused": record.refused or "refused"}
    written = outcome_text(record.outcome) if record.outcome is not None else _written(refused)
    proof = provenance.proof
    seeds = sorted(proof.client_seeds) if proof is not None else []
    commitment = proof.commitment if proof is not None else None
    nonce = proof.nonce if proof is not None else None
    texts = {"faces": _written(faces), "request": request_text, "outcome": written}
    chain = None
    if prev is not None:  # hashed as it reads back from the log
        head: JSONObject = {
            "room": provenance.room, "time": provenance.time, "player": provenance.player, "by": provenance.by,
            "source": provenance.source.value, "commitment": commitment, "client_seeds": list(seeds), "nonce": nonce,
        }  # fmt: skip
        chain = _chain_hash(prev, head, texts)
    return LogRow(
        room=provenance.room,
        time=provenance.time,
        player=provenance.player,
        source=provenance.source.value,
        card=_card_label(request),
        row=_first_row(record.outcome),
        commitment=commitment,
        client_seeds=_written(list(seeds)),
        nonce=nonce,
        faces=texts["faces"],
        request=texts["request"],
        outcome=texts["outcome"],
        turn=provenance.turn,
        by=provenance.by,
        chain=chain,
        seed=str(provenance.seed) if provenance.seed is not None else None,
    )


# -- a row back -------------------------------------------------------------------------------------


def decode(row: Sequence[object]) -> LoggedRoll:
    """A roll read back from its row: ``id`` followed by the columns :data:`COLUMNS` names."""
    (roll_id, room, time, player, source, card, matched, commitment, seeds, nonce, faces, request, outcome, turn,
     by, chain, seed) = row  # fmt: skip
    proof = None
    if commitment is not None and nonce is not None:
        client_seeds = json.loads(str(seeds))
        proof = Proof(str(commitment), tuple(str(s) for s in client_seeds), int(str(nonce)))
    provenance = Provenance(
        SourceKind.named(str(source)),
        str(time),
        int(str(seed)) if seed is not None else None,
        proof,
        _text(room),
        _text(player),
        _text(by),
        int(str(turn)) if turn is not None else None,
    )
    return LoggedRoll(
        id=int(str(roll_id)),
        provenance=provenance,
        faces=faces_from_json(json.loads(str(faces)), f"roll {roll_id}: faces"),
        request=str(request),
        outcome=str(outcome),
        card=_text(card),
        row=int(str(matched)) if matched is not None else None,
        chain=_text(chain),
    )


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _object(text: str, field: str) -> JSONObject:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise InputError(field, f"expected a JSON object, got {text[:40]!r}")
    return value


def export_model(roll: LoggedRoll) -> ExportedRoll:
    """The roll as it appears in an exported log (what ``mtgdice verify`` reads): its request and
    outcome as the log stored their text (a row of an earlier version exported as it was written)."""
    from mtgdice.io.log_model import ExportedRoll

    return ExportedRoll(
        id=roll.id,
        nonce=roll.nonce,
        client_seeds=list(roll.client_seeds),
        commitment=roll.commitment,
        source=roll.source,
        room=roll.room,
        time=roll.time,
        player=roll.player,
        by=roll.by,
        request=_raw_object(roll.request, "request"),
        outcome=_raw_object(roll.outcome, "outcome"),
        faces=[[sides, face.value if isinstance(face, PlanarFace) else face] for sides, face in roll.faces],
        chain=roll.chain,
    )


def _raw_object(text: str, field: str) -> Raw:
    """Logged JSON text kept as it is, once msgspec has checked that it is one whole JSON object."""
    import msgspec

    try:
        raw = msgspec.json.decode(text, type=msgspec.Raw)
    except msgspec.DecodeError:
        raw = None
    if raw is None or not text.lstrip().startswith("{"):
        raise InputError(field, f"expected a JSON object, got {text[:40]!r}")
    return raw


def export_roll(roll: LoggedRoll) -> JSONObject:
    """:func:`export_model` as plain values (what ``json.loads`` of it gives)."""
    import msgspec

    data: JSONObject = msgspec.json.decode(msgspec.json.encode(export_model(roll)))
    return data


def export_text(head: JSONObject, rolls: Iterable[LoggedRoll], batch: int = 100) -> Iterator[str]:
    """An exported log (:class:`~mtgdice.io.log_model.ExportedLog`) as JSON text: ``head`` with
    ``rolls`` after it, in pieces of up to ``batch`` rolls (a large log is never held whole: a web
    server streams it). Each roll is its model, encoded by msgspec."""
    import msgspec

    encoder = msgspec.json.Encoder()
    opening = encoder.encode(head).decode()
    yield opening[:-1] + (',"rolls":[' if head else '"rolls":[')
    pieces: list[bytes] = []
    first = True
    for roll in rolls:
        pieces.append(encoder.encode(export_model(roll)))
        if len(pieces) >= batch:
            yield ("" if first else ",") + b",".join(pieces).decode()
            pieces, first = [], False
    if pieces:
        yield ("" if first else ",") + b",".join(pieces).decode()
    yield "]}"


CSV_COLUMNS = (
    "id", "time", "room", "player", "source", "card", "row", "results", "nonce", "commitment", "client_seeds", "faces",
    "request", "outcome",
)  # fmt: skip
"""The columns of a CSV export: request, outcome, faces, seeds and results as JSON text."""


def export_csv(rolls: Iterable[LoggedRoll], file: IO[str]) -> int:
    """Write rolls as CSV (:data:`CSV_COLUMNS`), in the order given; return how many rows."""
    writer = csv.writer(file)
    writer.writerow(CSV_COLUMNS)
    count = 0
    for roll in rolls:
        results: list[JSON] = [list(execution) for execution in shown(roll).results]
        writer.writerow(
            [
                roll.id,
                roll.time,
                roll.room or "",
                roll.player or "",
                roll.source,
                roll.card or "",
                "" if roll.row is None else roll.row,
                _compact(results),
                "" if roll.nonce is None else roll.nonce,
                roll.commitment or "",
                _compact(list(roll.client_seeds)),
                _compact(faces_json(roll.faces)),
                roll.request,
                roll.outcome,
            ]
        )
        count += 1
    return count


def from_export(roll: Mapping[str, JSON], field: str = "roll") -> LoggedRoll:
    """A roll of an exported log read back (its request and outcome must be objects, its faces
    pairs; a roll without ``source`` is a commit-reveal roll, as the first exports wrote)."""
    request, outcome = roll.get("request"), roll.get("outcome")
    if not isinstance(request, dict) or not isinstance(outcome, dict):
        raise InputError(field, "its request and outcome must be JSON objects")
    source = roll.get("source", "commit-reveal")
    nonce, commitment, seeds = roll.get("nonce"), roll.get("commitment"), roll.get("client_seeds", [])
    if not isinstance(seeds, list) or not all(isinstance(seed, str) for seed in seeds):
        raise InputError(f"{field}.client_seeds", "expected a list of strings")
    proof = Proof(str(commitment or ""), tuple(seeds), nonce) if _whole(nonce) else None
    roll_id = roll.get("id", 0)
    time = roll.get("time", "")
    return LoggedRoll(
        id=roll_id if _whole(roll_id) else 0,
        provenance=Provenance(
            SourceKind.named(str(source), f"{field}.source"),
            str(time),
            None,
            proof,
            _string(roll.get("room")),
            _string(roll.get("player")),
            _string(roll.get("by")),
        ),
        faces=faces_from_json(roll.get("faces"), f"{field}.faces"),
        request=_compact(request),
        outcome=_compact(outcome),
        chain=_string(roll.get("chain")),
    )


def _string(value: JSON) -> str | None:
    return value if isinstance(value, str) else None


def commitment_model(entry: LoggedCommitment) -> ExportedCommitment:
    """A commitment as the exported log writes it."""
    from mtgdice.io.log_model import ExportedCommitment

    return ExportedCommitment(
        commitment=entry.commitment,
        seed_hash=entry.seed_hash,
        covers=entry.covers,
        from_nonce=entry.from_nonce,
        seed=entry.seed.hex() if entry.seed is not None else None,
        to_nonce=entry.to_nonce,
        count=entry.count,
        chain=entry.chain,
        room=entry.room,
    )


def commitment_json(entry: LoggedCommitment) -> JSONObject:
    """:func:`commitment_model` as plain values."""
    import msgspec

    data: JSONObject = msgspec.to_builtins(commitment_model(entry))
    return data


def _hex64(value: JSON, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not _HEX64.match(value.lower()):
        raise InputError(where, f"expected 64 hex digits or null, got {str(value)[:80]!r}")
    return value.lower()


def commitments_from_export(data: Mapping[str, JSON]) -> list[LoggedCommitment]:
    """The commitments of an exported log, every field checked (a commitment listed twice for one
    room is an error); a commitment without ``room`` is the log's ``room``'s."""
    items = data.get("commitments")
    if not isinstance(items, list):
        raise InputError("commitments", "expected a list of {commitment, seed, from_nonce, to_nonce}")
    result: list[LoggedCommitment] = []
    for i, item in enumerate(items):
        where = f"commitments[{i}]"
        if not isinstance(item, Mapping):
            raise InputError(where, "expected an object {commitment, seed, from_nonce, to_nonce}")
        committed = item.get("commitment")
        if not isinstance(committed, str) or not _HEX64.match(committed.lower()):
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
        count, chain = item.get("count"), item.get("chain")
        if not (count is None or _whole(count)):
            raise InputError(f"{where}.count", f"expected a whole number or null, got {str(count)[:40]!r}")
        if not (chain is None or isinstance(chain, str)):
            raise InputError(f"{where}.chain", f"expected a hash or null, got {str(chain)[:80]!r}")
        room = item.get("room", data.get("room"))
        room = room if isinstance(room, str) else None
        if any(entry.commitment == committed.lower() and entry.room == room for entry in result):
            raise InputError(f"{where}.commitment", f"{committed} is listed twice; a commitment opens one seed")
        digest = _hex64(item.get("seed_hash"), f"{where}.seed_hash")
        covers = _hex64(item.get("covers"), f"{where}.covers")
        result.append(LoggedCommitment(room, committed.lower(), start, seed, end, digest, covers, count, chain))
    return result


def request_of(roll: LoggedRoll, cards: CardSource | None = None) -> RollRequest:
    """A logged roll's request, typed (the text hashes left out), its cards entering the table from
    ``cards``; reading it loads the request reader. A request the reader refuses (or that names a
    card with no card data) is an :class:`~mtgdice.errors.InputError`."""
    from mtgdice.io.jsonio import request_from_json

    return request_from_json(without_card_hashes(_object(roll.request, "request")), cards)


def logged_request(roll: LoggedRoll) -> JSONObject:
    """A logged roll's request object as written (card references with their text hashes)."""
    return _object(roll.request, "request")


def logged_outcome(roll: LoggedRoll) -> JSONObject:
    """A logged roll's outcome object as written."""
    return _object(roll.outcome, "outcome")


def _results(execution: JSON) -> tuple[int | str | None, ...]:
    results = execution.get("results", []) if isinstance(execution, dict) else []
    return tuple(r for r in results if r is None or isinstance(r, (int, str))) if isinstance(results, list) else ()


def shown(roll: LoggedRoll) -> Shown:
    """What a logged roll's outcome showed, read from its JSON (never resolved again).

    >>> from mtgdice.game.record import Provenance, SourceKind
    >>> roll = LoggedRoll(1, Provenance(SourceKind.SECURE, ""), ((6, 4),), "{}", '{"rolls": [{"results": [4]}]}')
    >>> shown(roll).results
    ((4,),)
    """
    outcome = logged_outcome(roll)
    refused = outcome.get("refused")
    if refused is not None:
        return Shown(refused=str(refused))
    decisions = outcome.get("decisions")
    answers = tuple(
        tuple(d["answer"]) if isinstance(d.get("answer"), list) else d.get("answer")
        for d in (decisions if isinstance(decisions, list) else [])
        if isinstance(d, dict)
    )
    flip = outcome.get("flip")
    if isinstance(flip, dict) and isinstance(flip.get("results"), list):
        sides = flip["results"]
        return Shown(coins=tuple(str(side) for side in sides) if isinstance(sides, list) else (), answers=answers)
    if outcome.get("coin") in ("heads", "tails"):  # logs written before coins had rules of their own
        return Shown(coins=(str(outcome["coin"]),))
    if outcome.get("kind") == "plain":
        total = outcome.get("total")
        return Shown(total=total if _whole(total) else None)
    rolls = outcome.get("rolls")
    results = tuple(_results(execution) for execution in rolls) if isinstance(rolls, list) else ()
    return Shown(results=results, answers=answers)


# -- comparing outcomes -----------------------------------------------------------------------------


def differences(logged: JSON, replayed: JSON, path: str = "", limit: int = MAX_DIFFERENCES) -> list[str]:
    """Where two JSON values differ, as ``path: logged X, now Y`` (at most ``limit``; the outcome's
    ``source``, the name of what was rolled, is not compared).

    >>> differences({"rolls": [{"row": 1}]}, {"rolls": [{"row": 2}]})
    ['rolls[0].row: logged 1, now 2']
    """
    found: list[str] = []

    def walk(left: JSON, right: JSON, where: str) -> None:
        if len(found) >= limit:
            return
        if isinstance(left, dict) and isinstance(right, dict):
            for key in sorted(set(left) | set(right), key=str):
                if not where and key in IGNORED_KEYS:
                    continue
                step = f"{where}.{key}" if where else str(key)
                if key not in left:
                    found.append(f"{step}: not logged, now {_short(right[key])}")
                elif key not in right:
                    found.append(f"{step}: logged {_short(left[key])}, now missing")
                else:
                    walk(left[key], right[key], step)
        elif isinstance(left, list) and isinstance(right, list):
            for position, (a, b) in enumerate(zip(left, right, strict=False)):
                walk(a, b, f"{where}[{position}]")
            if len(left) != len(right):
                found.append(f"{where}: logged {len(left)} items, now {len(right)}")
        elif left != right or type(left) is not type(right):
            found.append(f"{where or 'outcome'}: logged {_short(left)}, now {_short(right)}")

    walk(logged, replayed, path)
    return found[:limit]


def _short(value: JSON) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def report_json(report: VerifyReport) -> JSONObject:
    """A verify report as ``mtgdice verify --json`` prints it: every roll's verdict, the log's errors."""
    return {
        "room": report.room,
        "ok": report.ok,
        "pinned": report.pinned,
        "rolls": [
            {"id": check.id, "nonce": check.nonce, "status": check.status.value, "reason": check.reason}
            for check in report.checks
        ],
        "errors": list(report.errors),
        "unproven": list(report.unproven),
        "warnings": list(report.warnings),
    }
