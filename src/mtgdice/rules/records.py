"""A faster constructor for the records a roll makes many of (dice, executions, resolutions).

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__``, which
looks the field up by name every time; for the records made on every roll that is a fifth of a
resolution. :func:`direct_init` gives such a class — frozen, slotted, no default factories — an
``__init__`` with the same signature and defaults that fills its slots through their descriptors.
The class stays a frozen dataclass: equality, hashing, ``repr`` and ``replace`` are unchanged, and
assigning to a field afterwards still raises.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TypeVar, cast

T = TypeVar("T")
Setter = Callable[[object, object], None]
"""A slot's descriptor ``__set__``: fills one field of an instance."""
Factory = Callable[..., Callable[..., None]]
"""The generated function that closes over the setters and defaults and returns ``__init__``."""


def direct_init(cls: type[T]) -> type[T]:
    """Install the direct ``__init__`` on a frozen, slotted dataclass ``cls``.

    >>> @direct_init
    ... @dataclasses.dataclass(frozen=True, slots=True)
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> Point(1), Point(1, 2) == Point(x=1, y=2)
    (Point(x=1, y=0), True)
    """
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    names = [field.name for field in fields]
    setters: list[Setter] = []
    defaults: list[object] = []
    parameters = []
    for field in fields:
        if field.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{field.name}: direct_init takes no default factories")
        setters.append(cls.__dict__[field.name].__set__)
        if field.default is dataclasses.MISSING:
            parameters.append(field.name)
        else:
            parameters.append(f"{field.name}=_default{len(defaults)}")
            defaults.append(field.default)
    # The setters and defaults reach the generated __init__ as a closure of the factory (fast cell reads).
    outer = ", ".join([f"_set{i}" for i in range(len(setters))] + [f"_default{i}" for i in range(len(defaults))])
    body = "".join(f"        _set{position}(self, {name})\n" for position, name in enumerate(names))
    source = (
        f"def make({outer}):\n"
        f"    def __init__(self, {', '.join(parameters)}):\n{body or '        pass'}\n"
        "    return __init__\n"
    )
    namespace: dict[str, Factory] = {}
    exec(source, {}, namespace)  # noqa: S102 - only "make" lands in namespace (the builtins go to the fresh globals)
    init = namespace["make"](*setters, *defaults)
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    setattr(cls, "__init__", init)  # noqa: B010 - replacing a method, which mypy forbids written plainly
    return cls


def builder(cls: type[T]) -> Callable[..., T]:
    """A positional constructor of a frozen, slotted dataclass ``cls``, for the hot path of a roll.

    The instance is made as a plain slotted *twin* of ``cls`` (the same slots, so the same memory
    layout), filled by ordinary attribute stores, then given ``cls`` as its class — which CPython
    allows between classes of one layout. What comes out is an ordinary ``cls``: equal to one made
    by ``cls(...)``, hashed alike, and assigning to a field afterwards raises as before. It skips
    the per-field descriptor calls of :func:`direct_init`, a third of the cost of a record.

    >>> @dataclasses.dataclass(frozen=True, slots=True)
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> make = builder(Point)
    >>> make(1, 2) == Point(1, 2), type(make(1)) is Point
    (True, True)
    >>> make(1).x = 3
    Traceback (most recent call last):
      ...
    dataclasses.FrozenInstanceError: cannot assign to field 'x'
    """
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    slots = getattr(cls, "__slots__", ())
    if tuple(field.name for field in fields) != tuple(slots):
        raise TypeError(f"{cls.__name__}: builder takes a slotted dataclass whose slots are its fields")
    twin = type(f"_{cls.__name__}Twin", (), {"__slots__": tuple(slots)})
    namespace: dict[str, object] = {"_twin": twin, "_new": object.__new__, "_cls": cls}
    parameters = []
    for position, field in enumerate(fields):
        if field.default is dataclasses.MISSING:
            parameters.append(field.name)
        else:
            namespace[f"_default{position}"] = field.default
            parameters.append(f"{field.name}=_default{position}")
    body = "".join(f"    self.{field.name} = {field.name}\n" for field in fields)
    head = f"def make({', '.join(parameters)}):\n    self = _new(_twin)\n"
    exec(f"{head}{body}    self.__class__ = _cls\n    return self\n", namespace)  # noqa: S102
    make = cast(Callable[..., T], namespace["make"])
    make.__qualname__ = f"builder({cls.__qualname__})"
    return make
