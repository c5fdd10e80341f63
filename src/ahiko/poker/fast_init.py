"""A faster ``__init__`` for the frozen, slotted dataclasses built on every decision, and a
faster constructor still for the engine's own hot paths.

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

``fast_constructor(cls)`` gives a plain function with the same signature that returns the same
object as ``cls(...)`` for less: it creates the object as the writable twin, stores each field
and gives it its class once. Calling a class runs ``type.__call__``, which then calls the
Python ``__init__`` from C (a new interpreter entry); a Python function called from Python
code costs much less, and one class change less is needed. For an eleven-field
``LegalActions`` that is about 3,200 instructions instead of 5,500. The engine builds its
events, legal actions and results through these constructors; anyone may still call the class.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields, is_dataclass
from typing import Any, ParamSpec, TypeVar, cast

T = TypeVar("T")
P = ParamSpec("P")

SWAP_FIELDS = 4

# class -> its fast constructor, filled by ``fast_init``
_CONSTRUCTORS: dict[object, Callable[..., Any]] = {}


def fast_init(cls: type[T]) -> type[T]:
    """Class decorator, applied on top of ``@dataclass(frozen=True, slots=True)``."""
    if not is_dataclass(cls) or not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__}: fast_init needs a frozen dataclass")
    if hasattr(cls, "__post_init__") or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: fast_init needs slots and no __post_init__")
    slots = cls.__slots__  # type: ignore[attr-defined]
    writable = type(f"_Writable{cls.__name__}", (), {"__slots__": slots})
    namespace: dict[str, Any] = {"_cls": cls, "_set": object.__setattr__, "_writable": writable}
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
    constructor = [
        "    self = _writable()",
        *[line[4:] for line in plain],
        "    self.__class__ = _cls",
        "    return self",
    ]
    signature = ", ".join(params)
    source = "\n".join(
        [f"def __init__(self, {signature}):", *lines, f"def _new({signature}):", *constructor]
    )
    exec(source, namespace)  # the same technique dataclasses uses to build __init__
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    init.__annotations__ = {**cls.__init__.__annotations__}
    cls.__init__ = init  # type: ignore[method-assign]
    new = namespace["_new"]
    new.__name__ = new.__qualname__ = f"new_{cls.__name__}"
    new.__doc__ = f"The same object as ``{cls.__name__}(...)``, built faster (fast_init)."
    _CONSTRUCTORS[cls] = new
    return cls


def fast_constructor(cls: Callable[P, T]) -> Callable[P, T]:
    """The fast constructor of a ``fast_init`` class: same arguments, same object."""
    try:
        return cast(Callable[P, T], _CONSTRUCTORS[cls])
    except KeyError:
        raise TypeError(f"{cls!r} is not a fast_init class") from None
