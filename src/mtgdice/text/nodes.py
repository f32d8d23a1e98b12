"""The grammar's node types: frozen values with slots that share their methods.

A node type is declared like a frozen dataclass, by deriving from :class:`Node`: its annotated
class attributes are its fields, in order, with their defaults. Nodes compare, hash and print by
their fields, assigning a field raises ``FrozenInstanceError``, and :func:`replace` makes a changed
copy. They are not built with ``@dataclass``: on Python 3.11 that decorator compiles six generated
functions per class at import, which for the grammar's node types cost more than the rest of the
grammar together; here the methods are written once and read a per-class table of field names.
What it leaves out: ``dataclasses.field``, ``InitVar``, keyword-only fields, nodes deriving from
nodes (no node needs them; a class that uses them is refused).

>>> class Pair(Node):
...     left: int
...     right: int = 0
>>> Pair(1), Pair(1) == Pair(1, 0), replace(Pair(1), right=2)
(Pair(left=1, right=0), True, Pair(left=1, right=2))
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import FrozenInstanceError
from itertools import repeat
from typing import Any, ClassVar, TypeVar, dataclass_transform

__all__ = ["Node", "replace"]

_N = TypeVar("_N", bound="Node")
_set = object.__setattr__
_consume: Callable[[Iterable[object]], None] = deque[object](maxlen=0).extend


@dataclass_transform(frozen_default=True)
class _NodeType(type):
    """Reads a node type's fields from its annotations and gives it slots for them."""

    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> _NodeType:
        if not bases:
            return super().__new__(mcls, name, bases, namespace)
        if bases != (Node,):
            raise TypeError(f"{name}: a node type derives from Node only")
        annotations: dict[str, Any] = namespace.get("__annotations__", {})
        names = tuple(field for field, kind in annotations.items() if not str(kind).startswith("ClassVar"))
        defaults = {field: namespace.pop(field) for field in names if field in namespace}
        for field in names[names.index(next(iter(defaults))) if defaults else len(names) :]:
            if field not in defaults:
                raise TypeError(f"{name}.{field}: a field without a default after one with a default")
        if any(type(value).__name__ == "Field" for value in defaults.values()):
            raise TypeError(f"{name}: a node's fields take plain defaults")
        namespace.update(
            __slots__=names, __match_args__=names, _names=names, _name_set=frozenset(names), _defaults=defaults
        )
        return super().__new__(mcls, name, bases, namespace)


class Node(metaclass=_NodeType):
    """The methods every node type shares (see the module's docstring)."""

    __slots__ = ()
    _names: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}
    _name_set: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        names = self._names
        if args:
            if len(args) > len(names) or not kwargs.keys().isdisjoint(names[: len(args)]):
                raise TypeError(f"{type(self).__name__}() takes {len(names)} fields: {', '.join(names)}")
            kwargs.update(zip(names, args, strict=False))
        values = {**self._defaults, **kwargs}
        if values.keys() != self._name_set:
            missing = [name for name in names if name not in values]
            unexpected = [name for name in values if name not in names]
            raise TypeError(f"{type(self).__name__}(): missing {missing}, unexpected {unexpected}")
        # The fields are set by C loops (no bytecode per field): nodes are made for every reading.
        _consume(map(_set, repeat(self), names, map(values.__getitem__, names)))

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


def replace(value: _N, **changes: Any) -> _N:
    """A copy of a node with some fields changed (``dataclasses.replace`` for nodes)."""
    return type(value)(
        **{name: changes.pop(name) if name in changes else getattr(value, name) for name in value._names}, **changes
    )
