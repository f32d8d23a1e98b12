"""Names for the numpy arrays the vectorised steps pass around (for type checkers only: importing
this module does not import numpy)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Ints: TypeAlias = npt.NDArray[np.int64]
    """Whole numbers per die and lane (faces, results) or per lane (totals, counts)."""
    Small: TypeAlias = npt.NDArray[np.integer]
    """Faces as drawn (the smallest integer type that holds them)."""
    Mask: TypeAlias = npt.NDArray[np.bool_]
    """True or false per die and lane, or per lane."""
