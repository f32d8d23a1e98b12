"""The web app of ``mtgdice serve``: shared dice rooms (pages and a websocket) and a JSON API.

:func:`create_app` builds the ASGI app. Pages are server-rendered (Jinja2, autoescaped) and use
the vendored htmx in ``static/``; every roll goes through :mod:`mtgdice.game` and the room's
commit-reveal dice (:mod:`mtgdice.fair.commit`) and is committed to the roll log (:mod:`mtgdice.log`)
before anyone sees it. This package holds no rules.
"""

from mtgdice.web.app import create_app

__all__ = ["create_app"]
