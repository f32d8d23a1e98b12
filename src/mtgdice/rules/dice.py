"""Dice and the record of one physical die (CR 706.1, 706.2, 706.7).

A :class:`Die` is a kind of die: ``Die(20)`` is a d20, ``PLANAR_DIE`` is the planar die. A
:class:`DieRoll` is one physical die that was rolled: its identity (the order it was rolled in),
its face, the modifiers applied to it and its fate. ``result`` is derived, never stored.

This module leaves out how faces are drawn (``sources``) and how dice are chosen (``resolve``).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from mtgdice.rules.players import YOU, Seat
from mtgdice.rules.records import direct_init


class PlanarFace(enum.Enum):
    """The faces of the planar die (CR 901.3): one chaos, one planeswalk, four blank.

    >>> from mtgdice import PLANAR_DIE
    >>> [face.value for face in PLANAR_DIE.faces].count("blank")
    4
    """

    BLANK = "blank"
    CHAOS = "chaos"
    PLANESWALK = "planeswalk"


Face = int | PlanarFace


@dataclass(frozen=True, slots=True)
class Die:
    """A kind of die, named by its faces (ruling: "dice are identified by the number of faces").

    ``sides`` is ``None`` for the planar die.

    >>> Die(20).faces[-1], Die(20).name
    (20, 'd20')
    >>> PLANAR_DIE.name, len(PLANAR_DIE.faces)
    ('planar die', 6)
    """

    sides: int | None

    @property
    def planar(self) -> bool:
        return self.sides is None

    @property
    def name(self) -> str:
        return "planar die" if self.sides is None else f"d{self.sides}"

    @property
    def faces(self) -> Sequence[Face]:
        """Every face, each equally likely (CR 706.1a; the planar die: CR 901.3). A numbered die's
        faces are a ``range``: a d1000000000 costs no memory until something counts them."""
        if self.sides is None:
            return PLANAR_FACES
        return range(1, self.sides + 1)

    def has_face(self, face: Face) -> bool:
        if self.sides is None:
            return isinstance(face, PlanarFace)
        return isinstance(face, int) and not isinstance(face, bool) and 1 <= face <= self.sides


PLANAR_FACES: tuple[Face, ...] = (
    PlanarFace.CHAOS,
    PlanarFace.PLANESWALK,
    PlanarFace.BLANK,
    PlanarFace.BLANK,
    PlanarFace.BLANK,
    PlanarFace.BLANK,
)
PLANAR_DIE = Die(None)
"""The planar die (CR 901.3): six faces, one chaos, one planeswalk, four blank; it has no number.

>>> PLANAR_DIE.planar, PLANAR_DIE.sides, len(PLANAR_DIE.faces)
(True, None, 6)
"""


class Fate(enum.Enum):
    """What became of a physical die (CR 706.6, Unfinity reroll ruling).

    >>> from mtgdice import ScriptedSource, compile_text, resolve
    >>> card = compile_text("Roll two d6 and ignore the lower roll.")
    >>> outcome = resolve(card.rolls[0], source="Example", dice=ScriptedSource([6, 3]))
    >>> [die.fate for die in outcome.executions[0].dice]
    [<Fate.COUNTED: 'counted'>, <Fate.IGNORED: 'ignored'>]
    """

    COUNTED = "counted"
    IGNORED = "ignored"
    REROLLED = "rerolled"


@dataclass(frozen=True, slots=True)
class Modifier:
    """One change to a die's result (CR 706.2): ``delta`` and the card it came from."""

    delta: int
    source: str


@direct_init
@dataclass(frozen=True, slots=True)
class DieRoll:
    """One physical die that was rolled.

    ``index`` is its identity: the order in which it was physically rolled during the resolution.
    ``rerolls`` is the index of the die whose roll this one replaced, if any; ``roller`` is the
    seat of the player who rolled it (another seat when that player rerolled the roller's die,
    Pippa ruling, or when each player rolls).

    >>> roll = DieRoll(0, Die(20), 18, (Modifier(2, "Static Bonus"),))
    >>> roll.natural, roll.result
    (18, 20)
    """

    index: int
    die: Die
    face: Face
    modifiers: tuple[Modifier, ...] = ()
    fate: Fate = Fate.COUNTED
    rerolls: int | None = None
    roller: Seat = YOU

    @property
    def natural(self) -> int | None:
        """The face before modifiers (CR 706.2); ``None`` for the planar die (CR 706.7)."""
        return self.face if isinstance(self.face, int) else None

    @property
    def result(self) -> int | None:
        """The natural result plus every modifier (CR 706.2); ``None`` for the planar die."""
        face = self.face
        if not isinstance(face, int):
            return None
        if not self.modifiers:
            return face
        return face + sum(modifier.delta for modifier in self.modifiers)

    @property
    def counted(self) -> bool:
        return self.fate is Fate.COUNTED

    @property
    def planar_face(self) -> PlanarFace | None:
        return self.face if isinstance(self.face, PlanarFace) else None

    @property
    def label(self) -> str:
        """How a decision names this die: "12 (d20, natural 10)", "chaos (planar die)"."""
        if self.natural is None:
            face = self.planar_face
            return f"{face.value if face is not None else '?'} (planar die)"
        result = self.result
        if result != self.natural:
            return f"{result} ({self.die.name}, natural {self.natural})"
        return f"{result} ({self.die.name})"

    @property
    def value(self) -> float | None:
        """The result as a policy compares it (``None`` for the planar die)."""
        result = self.result
        if result is None:
            return None
        try:
            return float(result)
        except OverflowError:  # a result past what a float holds still compares by sign
            return float("inf") if result > 0 else float("-inf")

    @property
    def shown(self) -> int | PlanarFace:
        """What the die shows as a counted result: its result, or a planar face."""
        result = self.result
        if result is not None:
            return result
        face = self.planar_face
        assert face is not None
        return face
