"""One logged roll as a value, the faces an outcome object shows, the log's hash chain and card references.

**The hash chain.** Each commit-reveal roll of a room is logged with ``chain``, the SHA-256 of
its recorded fields and the previous roll's ``chain`` (:func:`roll_hash`; the room's first roll
follows :data:`~mtgdice.fair.GENESIS`). Editing, removing or reordering a roll changes every
hash after it, and each commitment a room publishes after a reveal covers the hash its rolls
reached (:mod:`mtgdice.fair`), so a commitment a player copied pins every roll before it.

**Cards by reference.** A logged request names a card from the card data by its name and
``oracle_hash``, the hash of what the compiler reads of it (:func:`card_hash`); only a card given
by its own text carries the text. ``mtgdice verify --cards`` checks the hashes against its card
data before it resolves the roll again.

This module leaves out storage (``store``), checking (``verify``) and re-resolving (``replay``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mtgdice.fair import DrawJSON

CHAINED_FIELDS = (
    "room", "time", "player", "by", "source", "commitment", "client_seeds", "nonce", "faces", "request", "outcome",
)  # fmt: skip
"""The fields of an exported roll its hash covers, with the previous roll's hash (``prev``)."""
CARD_HASH = "oracle_hash"
"""The key of a card reference's text hash in a logged request."""
CARD_HASH_LENGTH = 32
ZONE_KEYS = ("battlefield", "opponents", "graveyard", "command")


def canonical(value: Any) -> bytes:
    """The bytes a hash of a JSON value is taken over: keys sorted, no spaces, ASCII (other characters
    as JSON escapes), as Python's ``json.dumps(value, sort_keys=True, separators=(",", ":"))`` writes it.

    >>> canonical({"b": [1, "x"], "a": None})
    b'{"a":null,"b":[1,"x"]}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def roll_hash(prev: str, roll: Mapping[str, Any]) -> str:
    """The hash of one logged roll (an exported roll object) following the roll whose hash is ``prev``.

    >>> from mtgdice.fair import GENESIS
    >>> first = roll_hash(GENESIS, {"nonce": 0, "faces": [[20, 7]]})
    >>> first != roll_hash(GENESIS, {"nonce": 0, "faces": [[20, 8]]}), roll_hash(first, {}) != roll_hash(GENESIS, {})
    (True, True)
    """
    body = {key: roll.get(key) for key in CHAINED_FIELDS}
    body["prev"] = prev
    return hashlib.sha256(canonical(body)).hexdigest()


def card_hash(record: Any) -> str:
    """The hash of what the compiler reads of a card record: its name, layout, type line and Oracle text.

    >>> from types import SimpleNamespace
    >>> card = SimpleNamespace(name="Ogre", layout="normal", type_line="Creature", oracle_text="Roll a d20.")
    >>> other = SimpleNamespace(**{**vars(card), "oracle_text": "Roll a d6."})
    >>> len(card_hash(card)), card_hash(card) == card_hash(other)
    (32, False)
    """
    read = [
        record.name,
        getattr(record, "layout", "normal") or "normal",
        getattr(record, "type_line", "") or "",
        getattr(record, "oracle_text", "") or "",
    ]
    return hashlib.sha256(canonical(read)).hexdigest()[:CARD_HASH_LENGTH]


def card_refs(request: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any] | str]]:
    """Every card a logged request names from the card data, as ``(where, reference)``: the
    request's own card and each zone item given by name (a bare name, or an object with ``card``).

    >>> [where for where, _ in card_refs({"card": "Ogre", "battlefield": ["Imp", {"text": "Roll a d6."}]})]
    ['card', 'battlefield[0]']
    """
    found: list[tuple[str, Mapping[str, Any] | str]] = []
    if isinstance(request.get("card"), str) and "text" not in request:
        found.append(("card", request))
    for zone, items in _zone_lists(request):
        for position, item in enumerate(items):
            if isinstance(item, str) or (isinstance(item, Mapping) and "text" not in item and "card" in item):
                found.append((f"{zone}[{position}]", item))
    return found


def _zone_lists(request: Mapping[str, Any]) -> list[tuple[str, list[Any]]]:
    """Every list of zone items of a request, by its path: the earlier zones, each seat's zones
    (``seats[1].graveyard``) and the waiting replacements (``pending``)."""
    found = [(zone, request[zone]) for zone in ZONE_KEYS if isinstance(request.get(zone), list)]
    seats = request.get("seats")
    for seat, zones in enumerate(seats if isinstance(seats, list) else []):
        if isinstance(zones, Mapping):
            found += [(f"seats[{seat}].{z}", v) for z, v in zones.items() if isinstance(v, list)]
    if isinstance(request.get("pending"), list):
        found.append(("pending", request["pending"]))
    return found


def _map_zones(request: Mapping[str, Any], item: Any) -> dict[str, Any]:
    """``request`` with ``item`` applied to every zone item (the earlier zones, seats, pending)."""
    result = dict(request)
    for zone in ZONE_KEYS:
        if isinstance(result.get(zone), list):
            result[zone] = [item(value) for value in result[zone]]
    if isinstance(result.get("seats"), list):
        result["seats"] = [
            {z: [item(v) for v in values] if isinstance(values, list) else values for z, values in zones.items()}
            if isinstance(zones, Mapping)
            else zones
            for zones in result["seats"]
        ]
    if isinstance(result.get("pending"), list):
        result["pending"] = [item(value) for value in result["pending"]]
    return result


def with_card_hashes(request: Mapping[str, Any], hashes: Mapping[str, str]) -> dict[str, Any]:
    """A logged request whose cards named from the card data carry their text hash (``hashes`` by name).

    >>> with_card_hashes({"card": "Ogre", "battlefield": ["Imp"]}, {"Ogre": "a1", "Imp": "b2"})
    {'card': 'Ogre', 'battlefield': [{'card': 'Imp', 'oracle_hash': 'b2'}], 'oracle_hash': 'a1'}
    """

    def item(value: Any) -> Any:
        if isinstance(value, str) and value in hashes:
            return {"card": value, CARD_HASH: hashes[value]}
        if isinstance(value, Mapping) and "text" not in value and value.get("card") in hashes:
            return {**value, CARD_HASH: hashes[value["card"]]}
        return value

    result = _map_zones(request, item)
    if isinstance(result.get("card"), str) and "text" not in result and result["card"] in hashes:
        result[CARD_HASH] = hashes[result["card"]]
    return result


def without_card_hashes(request: Mapping[str, Any]) -> dict[str, Any]:
    """A logged request as the JSON reader takes it (the text hashes left out).

    >>> without_card_hashes({"card": "Ogre", "oracle_hash": "a1", "graveyard": [{"card": "Imp", "oracle_hash": "b2"}]})
    {'card': 'Ogre', 'graveyard': [{'card': 'Imp'}]}
    """

    def item(value: Any) -> Any:
        return {k: v for k, v in value.items() if k != CARD_HASH} if isinstance(value, Mapping) else value

    return _map_zones({key: value for key, value in request.items() if key != CARD_HASH}, item)


@dataclass(frozen=True, slots=True)
class LoggedRoll:
    """One row of the roll log: the request, its outcome and where the faces came from.

    ``faces`` lists every face drawn, in order, as JSON pairs (``[20, 7]``, ``["planar", "chaos"]``).
    ``commitment``, ``client_seeds`` and ``nonce`` are set for commit-reveal rolls only. ``card``
    and ``row`` (the first execution's matched row) are copies of the request and outcome, for
    listing; ``turn`` is the game's turn when a table rolled it (not exported). ``by`` is the
    player whose request spent the nonce (``"api"``: the room's token), ``chain`` the roll's hash.

    >>> roll = LoggedRoll(1, None, "2026-01-01T00:00:00+00:00", None, {"text": "Roll a d6."},
    ...                   {"rolls": [{"dice": [], "results": [4], "row": None}]}, "secure", [[6, 4]])
    >>> roll.results
    [[4]]
    """

    id: int
    room: str | None
    time: str
    player: str | None
    request: dict[str, Any]
    outcome: dict[str, Any]
    source: str
    faces: list[DrawJSON]
    commitment: str | None = None
    client_seeds: tuple[str, ...] = ()
    nonce: int | None = None
    card: str | None = None
    row: int | None = None
    turn: int | None = None
    by: str | None = None
    chain: str | None = None

    @property
    def results(self) -> list[list[Any]]:
        """The counted results of each execution, as the outcome lists them."""
        return [list(execution.get("results", [])) for execution in _executions(self.outcome)]

    def export_json(self) -> dict[str, Any]:
        """The roll as it appears in an exported room log (what ``mtgdice verify`` reads)."""
        return {
            "id": self.id,
            "nonce": self.nonce,
            "client_seeds": list(self.client_seeds),
            "commitment": self.commitment,
            "source": self.source,
            "room": self.room,
            "time": self.time,
            "player": self.player,
            "by": self.by,
            "request": self.request,
            "outcome": self.outcome,
            "faces": self.faces,
            "chain": self.chain,
        }


def _executions(outcome: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    rolls = outcome.get("rolls", [])
    return [execution for execution in rolls if isinstance(execution, Mapping)] if isinstance(rolls, list) else []


def _coin_index(coin: Mapping[str, Any]) -> int:
    index = coin.get("index")
    return index if isinstance(index, int) else 0


def outcome_faces(outcome: Mapping[str, Any]) -> list[list[Any]]:
    """The faces an outcome object shows, die by die in the order drawn (json-interface.md), as
    the log records draws: a numbered die ``[sides, natural]``, the planar die ``["planar", face]``;
    a coin of a flip (CR 705, drawn as a d2) ``[2, 1]`` for heads and ``[2, 2]`` for tails, in coin
    order; a plain roll's dice term by term (a Fudge die, drawn as a d3, ``[3, value + 2]``).

    >>> outcome_faces({"rolls": [{"dice": [{"sides": 20, "natural": 7},
    ...                                    {"sides": "planar", "natural": None, "face": "chaos"}]}]})
    [[20, 7], ['planar', 'chaos']]
    >>> outcome_faces({"flip": {"coins": [{"side": "tails", "index": 1}, {"side": "heads", "index": 0}]}})
    [[2, 1], [2, 2]]
    >>> outcome_faces({"kind": "plain", "terms": [{"rolls": [{"sides": 6, "face": 4}, {"sides": "F", "face": -1}]}]})
    [[6, 4], [3, 1]]
    """
    flip = outcome.get("flip")
    if isinstance(flip, Mapping):
        coins = [coin for coin in flip.get("coins", []) if isinstance(coin, Mapping)]
        ordered = sorted(coins, key=_coin_index)
        return [[2, {"heads": 1, "tails": 2}.get(str(coin.get("side")), "?")] for coin in ordered]
    terms = outcome.get("terms")
    if isinstance(terms, list):
        plain: list[list[Any]] = []
        for term in terms:
            rolls = term.get("rolls", []) if isinstance(term, Mapping) else []
            for die in rolls if isinstance(rolls, list) else []:
                if not isinstance(die, Mapping):
                    plain.append(["?", "?"])
                elif die.get("sides") == "F":
                    value = die.get("face")
                    plain.append([3, value + 2 if isinstance(value, int) else "?"])
                else:
                    plain.append([die.get("sides"), die.get("face")])
        return plain
    faces: list[list[Any]] = []
    for execution in _executions(outcome):
        dice = execution.get("dice", [])
        for die in dice if isinstance(dice, list) else []:
            if not isinstance(die, Mapping):
                faces.append(["?", "?"])  # shown as a mismatch by verify
            elif die.get("sides") == "planar":
                faces.append(["planar", die.get("face")])
            else:
                faces.append([die.get("sides"), die.get("natural")])
    return faces


def first_row(outcome: Mapping[str, Any]) -> int | None:
    """The matched row of the first execution, if any."""
    executions = _executions(outcome)
    row = executions[0].get("row") if executions else None
    return row if isinstance(row, int) and not isinstance(row, bool) else None


def card_label(request: Mapping[str, Any]) -> str | None:
    """The name of the request's card (``card``, else ``name``), for listing."""
    for key in ("card", "name"):
        value = request.get(key)
        if isinstance(value, str) and value:
            return value
    return None
