"""Every JSON reader and writer of mtgdice: requests in, outcomes and the log's rows out.

:mod:`mtgdice.io.outcome` writes a resolution, a coin flip or a plain roll as the outcome object
of json-interface.md; :mod:`mtgdice.io.record` is the roll log's codec (a typed roll record to the
log's row and back, the exported log, the hash chain's canonical JSON); :mod:`mtgdice.io.jsonio`
reads ``resolve`` requests into typed requests; :mod:`mtgdice.io.render` renders the same records as
text and rich tables for both shells. Modules load on use: a plain roll needs neither the request
reader nor the compiler.
"""
