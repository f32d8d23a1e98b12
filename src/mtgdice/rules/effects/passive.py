"""Abilities about dice that change nothing while a roll resolves (kept so the compiler can say it
understood them, and renderers can show them)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from mtgdice.rules.effects.base import Detail, EffectBase, Step
from mtgdice.rules.footprint import Footprint

if TYPE_CHECKING:
    from mtgdice.rules.transforms import Transform


@dataclass(frozen=True, slots=True, kw_only=True)
class Passive(EffectBase):
    """``what`` says which ability (``"protection from die rolls"``, ``"rolled this turn"``, ...);
    ``note`` says why it does not act in ``resolve``."""

    step: ClassVar[Step] = Step.NONE
    kind: ClassVar[str] = "passive"

    what: str = ""
    note: str = ""
    details: Mapping[str, Detail] = field(default_factory=dict, hash=False, compare=False)

    def footprint(self) -> Footprint:
        return Footprint.NONE

    def transform(self) -> Transform:
        from mtgdice.rules.transforms import Transform  # here: reading card text never asks (odds do)

        return Transform.IDENTITY  # it changes no roll

    def _details(self) -> tuple[tuple[str, Detail], ...]:
        return (("what", self.what), ("note", self.note), *self.details.items())
