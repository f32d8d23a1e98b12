"""Where faces come from: the injected ``DiceSource`` (CR 706.1b: a fair digital substitute).

Three sources: :class:`SecureSource` (the operating system's randomness, for play),
:class:`SeededSource` (reproducible simulation and replay) and :class:`ScriptedSource` (physical
dice read off the table, tests). Every bounded draw is by rejection (``random.SystemRandom`` and
``random.Random`` ``randrange``), never a raw modulo. The planar die is exactly 1/6 chaos,
1/6 planeswalk and 4/6 blank.

Verifiable sources (HMAC commit-reveal) live with the web rooms; they satisfy the same protocol.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from mtgdice.rules.dice import PLANAR_FACES, Die, Face, PlanarFace
from mtgdice.rules.errors import DiceExhaustedError, InputError


@runtime_checkable
class DiceSource(Protocol):
    """Anything that can show the face of one die.

    ``name`` is recorded with every roll so a log says where its faces came from. A loaded die for
    a test, say:

    >>> from mtgdice import Die, PLANAR_DIE, PlanarFace
    >>> class AlwaysHigh:
    ...     name = "always high"
    ...     def roll(self, die):
    ...         return PlanarFace.CHAOS if die == PLANAR_DIE else die.sides
    >>> isinstance(AlwaysHigh(), DiceSource), AlwaysHigh().roll(Die(20)), AlwaysHigh().roll(PLANAR_DIE)
    (True, 20, <PlanarFace.CHAOS: 'chaos'>)
    """

    name: str

    def roll(self, die: Die) -> Face:
        """Roll one ``die`` and return the face it shows."""
        ...


def _face_from_index(die: Die, index: int) -> Face:
    if die.sides is None:
        return PLANAR_FACES[index]
    return index + 1


class SecureSource:
    """Fair dice from the operating system's randomness (``random.SystemRandom``, ``os.urandom``
    underneath: what ``secrets.randbelow`` uses, without importing ``secrets`` and its HMAC for a roll).

    >>> SecureSource().roll(Die(6)) in range(1, 7)
    True
    """

    name = "secure"
    _system = random.SystemRandom()

    def roll(self, die: Die) -> Face:
        return _face_from_index(die, self._system.randrange(len(die.faces) if die.sides is None else die.sides))


class SeededSource:
    """Reproducible fair dice from a seeded Mersenne Twister (``randrange`` rejects, no modulo).

    >>> a, b = SeededSource(7), SeededSource(7)
    >>> [a.roll(Die(20)) for _ in range(3)] == [b.roll(Die(20)) for _ in range(3)]
    True
    """

    name = "seeded"

    def __init__(self, seed: int | str | bytes | None = None) -> None:
        self.seed = seed
        self._random = random.Random(seed)
        self._getrandbits = self._random.getrandbits

    def roll(self, die: Die) -> Face:
        sides = die.sides
        count = len(PLANAR_FACES) if sides is None else sides
        # Rejection on k random bits, as random.randrange does (same faces), without its checks.
        bits = count.bit_length()
        index = self._getrandbits(bits)
        while index >= count:
            index = self._getrandbits(bits)
        return index + 1 if sides is not None else PLANAR_FACES[index]  # _face_from_index, inline: hot


class ScriptedSource:
    """Faces given in advance, consumed in the order dice are physically rolled.

    Numbered faces and planar faces are two queues. A face that the die does not have is an
    error, and so is running out: nothing random is ever filled in.

    >>> source = ScriptedSource([20, 7])
    >>> source.roll(Die(20)), source.roll(Die(20))
    (20, 7)
    >>> source.roll(Die(20))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    mtgdice.rules.errors.DiceExhaustedError: dice: all 2 faces given were used and another d20 is rolled; ...
    """

    name = "scripted"

    def __init__(self, numbers: Iterable[int] = (), planar: Iterable[PlanarFace | str] = ()) -> None:
        self._numbers = list(numbers)
        self._planar = [face if isinstance(face, PlanarFace) else PlanarFace(face) for face in planar]
        self._next_number = 0
        self._next_planar = 0

    @property
    def used(self) -> tuple[int, int]:
        """How many numbered and planar faces have been consumed."""
        return self._next_number, self._next_planar

    def roll(self, die: Die) -> Face:
        if die.sides is None:
            if self._next_planar >= len(self._planar):
                raise DiceExhaustedError(
                    f"planar: all {len(self._planar)} planar faces given were used and another planar die "
                    "is rolled; add more values to planar"
                )
            face: Face = self._planar[self._next_planar]
            self._next_planar += 1
            return face
        if self._next_number >= len(self._numbers):
            raise DiceExhaustedError(
                f"dice: all {len(self._numbers)} faces given were used and another {die.name} is rolled; "
                "add more values to dice"
            )
        position = self._next_number
        face = self._numbers[position]
        if not die.has_face(face):
            raise InputError(
                f"dice[{position}]", f"{face!r} is not a face of a {die.name} (faces are 1 to {die.sides})"
            )
        self._next_number += 1
        return face
