"""Value records without ``@dataclass``: what the start path builds at import.

``@dataclass`` compiles each class's ``__init__``, ``__eq__``, ``__repr__`` (and a frozen
one's ``__setattr__``, ``__hash__``) when its module is imported, about a millisecond a class:
the seventy records a one-file run imported were a third of its time.  A record here names
its fields in ``__slots__`` (in order, the same as its annotations; or in ``_fields``, when it
keeps a ``__dict__`` for a ``cached_property``) and writes its own
``__init__`` (taking every field, by position or name, as the dataclass did); this module
gives it the rest, as ``@dataclass`` would:

* :class:`Record`: equality with a record of the same class over its fields (``_compare``:
  the fields compared, when not all), ``repr`` (``_shown``: the fields shown, when not all);
  unhashable, as a mutable dataclass with ``eq``;
* :class:`Frozen`: a record whose fields cannot be set again
  (:class:`dataclasses.FrozenInstanceError`), hashable over the compared fields, pickled and
  copied through its ``__init__`` (an ``__init__`` sets fields with ``_set(self, name, value)``);
* :func:`replace` and :func:`field_names`, for ``dataclasses.replace`` and ``dataclasses.fields``.
"""

from __future__ import annotations

from operator import attrgetter

__all__ = ["Frozen", "Record", "field_names", "replace", "setters"]

_set = object.__setattr__  # how a frozen record's ``__init__`` sets its fields


def setters(cls: type, *names: str) -> tuple:
    """The setters of the fields ``names`` of the frozen record ``cls``: ``set_x(self, value)``
    is ``_set(self, "x", value)`` without the look-up of ``x`` on each call, for the records
    made by the thousand (a walk's candidates, the readers' spans and tokens): a span is
    made in 0.47 us instead of 0.71."""
    return tuple(cls.__dict__[name].__set__ for name in names)


class Record:
    """A record: fields in ``__slots__``, equality and ``repr`` over them."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _compare: tuple[str, ...] | None = None  # the fields equality (and a frozen record's hash) read; None: all
    _shown: tuple[str, ...] | None = None  # the fields ``repr`` shows; None: all

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("__slots__")
        if own is not None and "_fields" not in cls.__dict__:  # a record that keeps a ``__dict__`` (for a
            cls._fields = (*cls._fields, *own)  # ``cached_property``) names its ``_fields`` instead
        compared = cls._fields if cls._compare is None else cls._compare
        if len(compared) == 1:  # a tuple of one, as the dataclass compared and hashed
            one = attrgetter(compared[0])
            cls._key = lambda self: (one(self),)
        else:
            cls._key = attrgetter(*compared) if compared else (lambda self: ())

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key(self) == other._key(other)

    def __repr__(self) -> str:
        shown = self._fields if self._shown is None else self._shown
        return f"{self.__class__.__qualname__}({', '.join(f'{f}={getattr(self, f)!r}' for f in shown)})"


class Frozen(Record):
    """A record whose fields are set once, by its ``__init__``."""

    __slots__ = ()

    def __setattr__(self, name, value):
        raise _frozen(f"cannot assign to field {name!r}")

    def __delattr__(self, name):
        raise _frozen(f"cannot delete field {name!r}")

    def __hash__(self) -> int:
        return hash(self._key(self))

    def __reduce__(self):
        return self.__class__, tuple(getattr(self, f) for f in self._fields)


def _frozen(message: str) -> Exception:
    from dataclasses import FrozenInstanceError  # the error a frozen dataclass raised (an AttributeError)

    return FrozenInstanceError(message)


def replace(obj: Record, /, **changes):
    """A copy of ``obj`` with ``changes`` (``dataclasses.replace`` for records)."""
    for name in obj._fields:
        if name not in changes:
            changes[name] = getattr(obj, name)
    return obj.__class__(**changes)


def field_names(obj) -> tuple[str, ...]:
    """The field names of a record (or record class), in order."""
    return obj._fields
