"""A faster ``__init__`` for the frozen, slotted dataclasses built on every decision.

A frozen dataclass's generated ``__init__`` stores each field through
``object.__setattr__(self, name, value)``, a generic call per field. Events, legal actions and
actions are created tens of times per hand, and those calls were a visible share of the
engine's time. ``fast_init`` replaces the generated ``__init__`` with one that stores each
field through its slot descriptor directly, or, for a class of many fields, gives the new
object for the duration of the call a writable twin class with the very same slots (no
``__setattr__`` of its own), so that each field is a plain slot store, and then gives it its
class back. The first class change goes through ``object.__setattr__`` (the frozen class's own
``__setattr__`` refuses it); the second is a plain assignment, since the twin has no
``__setattr__`` of its own, which skips the slot wrapper's call (about 800 instructions). The two
class changes cost about as much as two and a half descriptor stores (measured in
instructions), so they pay from ``SWAP_FIELDS`` fields on. Same signature (positional or
keyword, same defaults), same resulting object; the class stays a frozen dataclass
(``fields``, ``asdict``, equality, hashing, ``replace`` and the refusal to assign are
unchanged). An instance of a subclass (whose layout may differ) is filled through the slot
descriptors.
"""

from __future__ import annotations

from dataclasses import MISSING, fields, is_dataclass
from typing import Any, TypeVar

T = TypeVar("T")

SWAP_FIELDS = 4


def fast_init(cls: type[T]) -> type[T]:
    """Class decorator, applied on top of ``@dataclass(frozen=True, slots=True)``."""
    if not is_dataclass(cls) or not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__}: fast_init needs a frozen dataclass")
    if hasattr(cls, "__post_init__") or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: fast_init needs slots and no __post_init__")
    namespace: dict[str, Any] = {"_cls": cls, "_set": object.__setattr__}
    params: list[str] = []
    plain: list[str] = []
    generic: list[str] = []
    for f in fields(cls):
        if not f.init or f.default_factory is not MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: fast_init takes plain fields only")
        namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        plain.append(f"        self.{f.name} = {f.name}")
        generic.append(f"        _set_{f.name}(self, {f.name})")
    if len(plain) >= SWAP_FIELDS:
        slots = cls.__slots__  # type: ignore[attr-defined]
        namespace["_writable"] = type(f"_Writable{cls.__name__}", (), {"__slots__": slots})
        lines = [
            "    if type(self) is _cls:",
            "        _set(self, '__class__', _writable)",
            *plain,
            "        self.__class__ = _cls",
            "    else:",
            *generic,
        ]
    else:
        lines = [line[4:] for line in generic] or ["    pass"]
    source = "\n".join([f"def __init__(self, {', '.join(params)}):", *lines])
    exec(source, namespace)  # the same technique dataclasses uses to build __init__
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    init.__annotations__ = {**cls.__init__.__annotations__}
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
