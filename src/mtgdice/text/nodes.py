"""The grammar's node types: frozen named tuples declared like dataclasses.

A node type derives from :class:`Node`; its annotated class attributes are its fields, in order,
with their defaults, and the class is a named tuple of them (``collections.namedtuple``: made
quickly per reading, compared and hashed by value, immutable), with the methods its body
defines. ``typing.NamedTuple`` would do the same but costs four times as much at import (it turns
every field's annotation into a ``ForwardRef`` and checks it), and a stdlib dataclass more still
(six generated functions per class on Python 3.11): the grammar has some fifty node types.
What it leaves out: ``ClassVar`` fields, nodes deriving from nodes (refused).

>>> class Pair(Node):
...     left: int
...     right: int = 0
>>> Pair(1), Pair(1) == Pair(1, 0), Pair(1).replace(right=2)
(Pair(left=1, right=0), True, Pair(left=1, right=2))
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any, Self, dataclass_transform

__all__ = ["Node"]


@dataclass_transform(frozen_default=True)
class _NodeType(type):
    """Makes each class deriving from :class:`Node` a named tuple of its annotated fields."""

    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> _NodeType:
        if not bases:  # Node itself
            return super().__new__(mcls, name, bases, namespace)
        if bases != (Node,):
            raise TypeError(f"{name}: a node type derives from Node only")
        annotations: dict[str, str] = namespace.get("__annotations__", {})
        names = [field for field, kind in annotations.items() if not str(kind).startswith("ClassVar")]
        with_default = [field for field in names if field in namespace]
        if with_default != names[len(names) - len(with_default) :]:
            raise TypeError(f"{name}: a field without a default after one with a default")
        defaults = [namespace.pop(field) for field in with_default]
        fields = namedtuple(name, names, defaults=defaults, module=namespace.get("__module__"))  # type: ignore[misc]
        namespace["__slots__"] = ()
        return super().__new__(mcls, name, (fields, Node), namespace)


class Node(metaclass=_NodeType):
    """The base of the node types (see the module's docstring)."""

    __slots__ = ()

    def replace(self, **changes: Any) -> Self:
        """A copy with some fields changed (the named tuple's ``_replace``)."""
        made: Self = self._replace(**changes)  # type: ignore[attr-defined]
        return made
