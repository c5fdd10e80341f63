"""A faster ``__init__`` for the frozen, slotted dataclasses built on every decision.

A frozen dataclass's generated ``__init__`` stores each field through
``object.__setattr__(self, name, value)``, a generic attribute lookup per field. Events, legal
actions and actions are created tens of times per hand, and that lookup was a visible share of
the engine's time. ``fast_init`` replaces the generated ``__init__`` with one that stores each
field through its slot descriptor directly: same signature (positional or keyword, same
defaults), same resulting object; the class stays a frozen dataclass (``fields``, ``asdict``,
equality, hashing, ``replace`` and the refusal to assign are unchanged).
"""

from __future__ import annotations

from dataclasses import MISSING, fields, is_dataclass
from typing import Any, TypeVar

T = TypeVar("T")


def fast_init(cls: type[T]) -> type[T]:
    """Class decorator, applied on top of ``@dataclass(frozen=True, slots=True)``."""
    if not is_dataclass(cls) or not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__}: fast_init needs a frozen dataclass")
    if hasattr(cls, "__post_init__") or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: fast_init needs slots and no __post_init__")
    namespace: dict[str, Any] = {}
    params: list[str] = []
    body: list[str] = []
    for f in fields(cls):
        if not f.init or f.default_factory is not MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: fast_init takes plain fields only")
        namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {f.name})")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body or ["    pass"])
    exec(source, namespace)  # the same technique dataclasses uses to build __init__
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    init.__annotations__ = {**cls.__init__.__annotations__}
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
