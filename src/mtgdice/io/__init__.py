"""The edge where JSON is read and written: every JSON reader and writer of mtgdice lives here.

:mod:`mtgdice.io.jsonio` reads ``resolve`` requests into typed requests and writes outcomes
(spec/json-interface.md). This package imports nothing on its own, so loading one reader loads
no other; it leaves out the rules, the roll log's storage and rendering for people.
"""
