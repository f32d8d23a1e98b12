"""The grammar's node types: frozen, slotted dataclasses that share their methods.

``@node`` makes a class a dataclass exactly as ``@dataclass(frozen=True, slots=True)`` would for
its readers (``dataclasses.fields``, ``replace``, ``is_dataclass``, the same constructor, equality,
hash and repr; assigning a field raises ``FrozenInstanceError``), but without generating six
functions per class: on Python 3.11 the standard decorator compiles each generated function's
source at import, which for the grammar's node types cost more than the rest of the grammar
together. Here the methods are written once, on :class:`Node`, and read a per-class table of
field names and defaults. What it leaves out: ``field(init=False)``, ``InitVar``, ``kw_only``,
inheritance between nodes (no node needs them; :func:`node` refuses them).

>>> @node
... class Pair(Node):
...     left: int
...     right: int = 0
>>> Pair(1), Pair(1) == Pair(1, 0), replace(Pair(1), right=2)
(Pair(left=1, right=0), True, Pair(left=1, right=2))
"""

from __future__ import annotations

import dataclasses
from dataclasses import MISSING, FrozenInstanceError, replace
from typing import Any, ClassVar, TypeVar, cast, dataclass_transform

__all__ = ["Node", "node", "replace"]

_T = TypeVar("_T", bound=type)
_set = object.__setattr__


class Node:
    """The methods every node type shares (see :func:`node`)."""

    __slots__ = ()
    _names: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}
    _factories: ClassVar[dict[str, Any]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        names = self._names
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__}() takes {len(names)} arguments, {len(args)} given")
        for name, value in zip(names, args, strict=False):
            _set(self, name, value)
        for name in names[len(args) :]:
            if name in kwargs:
                _set(self, name, kwargs.pop(name))
            elif name in self._defaults:
                _set(self, name, self._defaults[name])
            elif name in self._factories:
                _set(self, name, self._factories[name]())
            else:
                raise TypeError(f"{type(self).__name__}() missing argument {name!r}")
        if kwargs:
            raise TypeError(f"{type(self).__name__}() got an unexpected argument {next(iter(kwargs))!r}")

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._names)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Node)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((self.__class__, *self._values()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._names)
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self) -> tuple[Any, ...]:
        return self._values()

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(self._names, state, strict=True):
            _set(self, name, value)


@dataclass_transform(frozen_default=True)
def node(cls: _T) -> _T:
    """Make ``cls`` (a direct subclass of :class:`Node`) a frozen, slotted dataclass."""
    if cls.__bases__ != (Node,):
        raise TypeError(f"{cls.__name__}: a node derives from Node only")
    made: type = dataclasses.dataclass(init=False, repr=False, eq=False, slots=True)(cls)
    names: list[str] = []
    defaults: dict[str, Any] = {}
    factories: dict[str, Any] = {}
    for field in dataclasses.fields(made):
        if not field.init or field.kw_only is True:
            raise TypeError(f"{cls.__name__}.{field.name}: a node's fields are plain init fields")
        names.append(field.name)
        if field.default is not MISSING:
            defaults[field.name] = field.default
        elif field.default_factory is not MISSING:
            factories[field.name] = field.default_factory
    type.__setattr__(made, "_names", tuple(names))
    type.__setattr__(made, "_defaults", defaults)
    type.__setattr__(made, "_factories", factories)
    return cast(_T, made)
