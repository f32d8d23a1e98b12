"""Planar faces that count as other faces ("each blank roll of the planar die is a chaos roll")."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from mtgdice.rules.dice import DieRoll, PlanarFace
from mtgdice.rules.effects.base import Detail, EffectBase, Step
from mtgdice.rules.footprint import Footprint


class FaceEffect(EffectBase):
    """An effect that changes what a die shows for everything that reads it."""

    __slots__ = ()

    def seen(self, die: DieRoll) -> DieRoll | None:
        """The die as it counts under this effect, or ``None`` when the effect leaves it alone."""
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class FaceCountsAs(FaceEffect):
    """A planar ``face`` counts as ``counts_as``.

    >>> from mtgdice.rules.dice import PLANAR_DIE
    >>> FaceCountsAs().seen(DieRoll(0, PLANAR_DIE, PlanarFace.BLANK)).face
    <PlanarFace.CHAOS: 'chaos'>
    """

    step: ClassVar[Step] = Step.FACE
    kind: ClassVar[str] = "face counts as"

    face: PlanarFace = PlanarFace.BLANK
    counts_as: PlanarFace = PlanarFace.CHAOS

    def footprint(self) -> Footprint:
        return Footprint.FACES

    def seen(self, die: DieRoll) -> DieRoll | None:
        return replace(die, face=self.counts_as) if die.planar_face is self.face else None

    def _details(self) -> tuple[tuple[str, Detail], ...]:
        return (
            ("face", self.face.value),
            ("counts_as", self.counts_as.value),
        )
