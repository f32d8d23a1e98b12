"""Fair dice: the commit-reveal source of shared rooms and the fairness self-test (CR 706.1b).

:mod:`mtgdice.fair.commit` is the verifiable remote dice source (commitments, reveals, the face
stream anyone can recompute); :mod:`mtgdice.fair.selftest` rolls a source many times and tests it
against the uniform distribution. This package imports nothing on its own, so a room's log loads
no statistics; it leaves out the roll log and the rooms that use the source.
"""
