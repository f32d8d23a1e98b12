"""Requests a server has read already, remembered: the JSON API's bots send the same request again
and again (the same card, the same board), and reading one into a typed request, and that into the
rule objects it stands for, is pure work on its JSON value and the card data alone (which do not
change while a server runs), the same every time.

:class:`RequestMemo` keys each request object by its JSON text (written by msgspec, in the order
its keys came) and keeps up to :data:`MAX_REQUESTS` typed requests, the oldest dropped first, each
with its rule objects once prepared. A request that does not read or prepare is never kept: its
error is raised again each time it is sent.

What it leaves out: what a request means (``mtgdice.io.jsonio``) and the rolls (``rooms``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping

import msgspec

from mtgdice.game.request import CardSource, Prepared, RollRequest, prepare
from mtgdice.io.jsonio import request_from_json

MAX_REQUESTS = 512
"""Typed requests one process keeps."""


class RequestMemo:
    """``request_from_json`` of a request object with the server's card data ``cards`` (the
    request's cards enter its table as it is read), remembered by its JSON text.

    >>> memo = RequestMemo()
    >>> first = memo({"kind": "dice", "notation": "2d6"})
    >>> first is memo({"kind": "dice", "notation": "2d6"}), first.notation, len(memo.known)
    (True, '2d6', 1)
    >>> memo({"kind": "dice", "notation": "3d6"}) is first
    False
    """

    def __init__(self, cards: CardSource | None = None, size: int = MAX_REQUESTS) -> None:
        self.cards = cards
        self.size = size
        self.known: OrderedDict[bytes, RollRequest] = OrderedDict()
        self._encode = msgspec.json.Encoder().encode
        self._prepared: dict[int, tuple[RollRequest, Prepared]] = {}

    def __call__(self, data: Mapping[str, object]) -> RollRequest:
        try:
            key = self._encode(data)
        except (TypeError, ValueError, UnicodeError):  # not a JSON value msgspec writes: read it each time
            return request_from_json(data, self.cards)
        known = self.known.get(key)
        if known is not None:
            self.known.move_to_end(key)
            return known
        request = request_from_json(data, self.cards)  # an error here is raised, and nothing is kept
        self.known[key] = request
        if len(self.known) > self.size:
            self.known.popitem(last=False)
        return request

    def prepared(self, request: RollRequest, cards: CardSource | None) -> Prepared:
        """``prepare(request, cards)``, remembered for a request this memo gave (by identity: the
        same object for the same JSON); worker threads may ask at once (each works it out at worst).

        >>> memo = RequestMemo()
        >>> request = memo({"kind": "dice", "notation": "2d6"})
        >>> memo.prepared(request, None) is memo.prepared(request, None), memo.prepared(request, None).name
        (True, '2d6')
        """
        known = self._prepared.get(id(request))
        if known is not None and known[0] is request:
            return known[1]
        made = prepare(request, cards)  # an error here is raised, and nothing is kept
        if len(self._prepared) >= 2 * self.size:
            self._prepared.clear()
        self._prepared[id(request)] = (request, made)
        return made
