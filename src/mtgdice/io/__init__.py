"""The edges of a roll's record: every JSON reader and writer of mtgdice, and the renderers for people.

:mod:`mtgdice.io.jsonio` reads ``resolve`` requests into typed requests and writes outcomes
(spec/json-interface.md); :mod:`mtgdice.io.render` renders the same records as text and rich
tables for both shells (the CLI, the web app). This package imports nothing on its own, so
loading one edge loads no other; it leaves out the rules and the roll log's storage.
"""
