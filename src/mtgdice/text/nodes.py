"""The grammar's node types: frozen tuples with named fields, declared like dataclasses.

A node type derives from :class:`Node`; its annotated class attributes are its fields, in order,
with their defaults, and the class is a tuple of them (made quickly per reading, compared and
hashed by value, immutable, like ``collections.namedtuple``), with the methods its body defines.
The grammar has some fifty node types, so making a type must be cheap at import:
``collections.namedtuple`` compiles a constructor from source for every type (and
``typing.NamedTuple`` or a dataclass cost more still); here the constructors of one number of
fields share one compiled body, renamed per type.
What it leaves out: ``ClassVar`` fields, nodes deriving from nodes (refused).

>>> class Pair(Node):
...     left: int
...     right: int = 0
>>> Pair(1), Pair(1) == Pair(1, 0), Pair(1).replace(right=2), Pair(right=3, left=2)
(Pair(left=1, right=0), True, Pair(left=1, right=2), Pair(left=2, right=3))
"""

from __future__ import annotations

import collections
from collections.abc import Callable
from functools import cache
from operator import itemgetter
from types import FunctionType
from typing import Any, ClassVar, Self, cast, dataclass_transform

__all__ = ["Node"]


def _field_property(index: int, doc: str) -> object:
    return property(itemgetter(index), doc=doc)


# CPython's named tuples read a field through this C descriptor (faster than a property); the
# property is the same reading where it is missing.
_getter: Callable[[int, str], object] = getattr(collections, "_tuplegetter", _field_property)


@cache
def _body(arity: int) -> FunctionType:
    """The compiled constructor of a node type of ``arity`` fields, with placeholder names."""
    names = [f"a{index}" for index in range(arity)]
    values = "".join(f"{name}, " for name in names)
    source = f"lambda _cls, {values}: _tuple_new(_cls, ({values}))"
    made: FunctionType = eval(source, {"_tuple_new": tuple.__new__, "__builtins__": {}})  # noqa: S307 - our own text
    return made


def _constructor(name: str, fields: tuple[str, ...], defaults: tuple[object, ...]) -> FunctionType:
    """``__new__`` of a node type: the shared body of its arity, its parameters named as its fields."""
    body = _body(len(fields))
    code = body.__code__.replace(co_varnames=("_cls", *fields), co_name="__new__", co_qualname=f"{name}.__new__")
    made = FunctionType(code, body.__globals__, "__new__", defaults or None)
    made.__qualname__ = f"{name}.__new__"
    return made


@dataclass_transform(frozen_default=True)
class _NodeType(type):
    """Makes each class deriving from :class:`Node` a tuple of its annotated fields."""

    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, object]) -> _NodeType:
        if not bases:  # Node itself: the tuple all node types derive from
            return super().__new__(mcls, name, (tuple,), namespace)
        if bases != (Node,):
            raise TypeError(f"{name}: a node type derives from Node only")
        annotations = namespace.get("__annotations__", {})
        assert isinstance(annotations, dict)
        fields = tuple(field for field, kind in annotations.items() if not str(kind).startswith("ClassVar"))
        with_default = [field for field in fields if field in namespace]
        if with_default != list(fields[len(fields) - len(with_default) :]):
            raise TypeError(f"{name}: a field without a default after one with a default")
        defaults = tuple(namespace.pop(field) for field in with_default)
        namespace.update(
            __slots__=(),
            __new__=_constructor(name, fields, defaults),
            __match_args__=fields,
            _fields=fields,
            _field_defaults=dict(zip(with_default, defaults, strict=True)),
            _repr_format="(" + ", ".join(f"{field}=%r" for field in fields) + ")",
        )
        for index, field in enumerate(fields):
            namespace[field] = _getter(index, f"Field {index} of {name}")
        return super().__new__(mcls, name, bases, namespace)


class Node(metaclass=_NodeType):
    """The base of the node types (see the module's docstring)."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]]
    _repr_format: ClassVar[str]

    def replace(self, **changes: Any) -> Self:
        """A copy with some fields changed."""
        # The fields are read and the tuple made in C (the fold copies a node per sentence).
        made: Self = _new_tuple(type(self), map(changes.pop, self._fields, _values(self)))
        if changes:
            raise ValueError(f"{type(self).__name__}.replace: no field {', '.join(changes)}")
        return made

    def __repr__(self) -> str:
        return type(self).__name__ + self._repr_format % _values(self)

    def __getnewargs__(self) -> tuple[object, ...]:
        """The fields, for ``copy`` and ``pickle`` (the constructor takes them, not one tuple)."""
        return tuple(_values(self))


_new_tuple: Any = tuple.__new__
"""``tuple.__new__``: a node type's tuple made from its fields in one call (typed loosely: the type
checker sees a node type's fields, not its tuple)."""


def _values(node: Node) -> tuple[object, ...]:
    """A node's fields in order (every node is a tuple at run time; the type checker sees the fields)."""
    return cast("tuple[object, ...]", node)
