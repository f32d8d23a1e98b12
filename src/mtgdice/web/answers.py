"""The JSON API's answer to a roll, written once: the outcome's text as the log has it, then the
roll's log id, its fairness proof and its hash in the room's chain.

What it leaves out: the routes (``api``) and the rolls (``rooms``).
"""

from __future__ import annotations

import json

import msgspec
from fastapi.responses import Response

from mtgdice.io.jsonio import outcome_json
from mtgdice.web.rooms import Finished


def roll_answer(finished: Finished) -> Response:
    """``{...the outcome..., "id", "proof", "chain"}``: the outcome object's text as logged (it is not
    written again), the rest after it; a roll without its logged text (rebuilt) is written whole.

    >>> from types import SimpleNamespace
    >>> proof = SimpleNamespace(to_json=lambda: {"nonce": 3})
    >>> answer = roll_answer(SimpleNamespace(id=7, proof=proof, chain="ab", outcome='{"rolls":[]}'))
    >>> json.loads(answer.body), answer.media_type
    ({'rolls': [], 'id': 7, 'proof': {'nonce': 3}, 'chain': 'ab'}, 'application/json')
    """
    tail = {"id": finished.id, "proof": finished.proof.to_json(), "chain": finished.chain}
    text = finished.outcome
    if len(text) > 2 and text[0] == "{" and text[-1] == "}":
        body = text[:-1].encode() + b"," + msgspec.json.encode(tail)[1:]
    else:
        body = json.dumps(
            {**outcome_json(finished.roll.outcome), **tail}, ensure_ascii=False, separators=(",", ":")
        ).encode()
    return Response(body, media_type="application/json")
