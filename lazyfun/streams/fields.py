"""What a verb's key reads: :func:`field` of a name or a path, and the names and paths a
getter reads, which the folds and the C flow engine read inline instead of calling it.

A key is a field's name or a function (:func:`key_of`); a name reads ``item[name]`` of
a dict or a mapping, else the attribute, and a path reads a step at a time.
"""

from __future__ import annotations

import operator
import weakref
from collections.abc import Callable
from typing import Any, TypeVar, overload

__all__ = ["Attribute", "attribute_name", "field", "field_name", "field_path", "key_of"]

T = TypeVar("T")
R = TypeVar("R")


@overload
def field(on: Callable[[T], R]) -> Callable[[T], R]: ...


@overload
def field(on: str | int, *path: str | int) -> Callable[[Any], Any]: ...


def field(on: str | int | Callable[[T], R], *path: str | int) -> Callable[[Any], Any]:
    """A key function: ``on`` itself, or for a name, the item's value of that name (a
    dict's key, else an attribute); given more steps, the value at that path, read a
    step at a time (a name as above, an int a place: ``value[place]``), such as a
    join's pair's ``field(1, "country")`` or a nested record's ``field("user", "id")``.
    A fold reads a name or a path inline, in C where the flow engine is built.

    >>> field("id")({"id": 7}), field(len)("abc")
    (7, 3)
    >>> field(1, "country")(({"amount": 2.5}, {"country": "pt"}))
    'pt'
    """
    if callable(on):
        if path:
            raise TypeError("a key function takes no path after it")
        return on
    steps = (on, *path)
    for step in steps:
        if not isinstance(step, str) and type(step) is not int:
            raise TypeError(f"a field's path is names and places (ints), got {type(step).__name__}")
    # each name as a plain str (a StrEnum's member, say): the engine reads a str of
    # another class (an Attribute) as an attribute only
    steps = tuple(str.__str__(step) if isinstance(step, str) else step for step in steps)
    if len(steps) > 1 or not isinstance(on, str):
        return _path(steps)
    name = str.__str__(on)

    def get(item: Any) -> Any:
        kind = type(item)
        if kind is dict or _has_items(kind):
            try:
                return item[name]
            except TypeError:  # not a mapping: a named tuple
                pass
        return getattr(item, name)  # a dataclass, a Struct: no error raised to get here

    get.__name__, get.__qualname__ = f"field_{name}", f"field({name!r})"  # as a plan shows it
    _FIELD_NAMES[get] = name
    return get


def key_of(on: str | Callable[[T], R]) -> Callable[[T], Any]:
    """A verb's key as its caller gave it, a field's name or a function (a path comes as
    :func:`field`'s function): :func:`field` of it; a TypeError for anything else."""
    if not isinstance(on, str) and not callable(on):
        raise TypeError(f"a key must be a field name or a function, got {type(on).__name__}")
    return field(on)


def _path(steps: tuple[str | int, ...]) -> Callable[[Any], Any]:
    """:func:`field`'s getter of the value at ``steps``."""

    def get(item: Any) -> Any:
        for step in steps:
            if isinstance(step, int):  # a place (field let no bool in)
                item = item[step]
                continue
            kind = type(item)
            if kind is dict or _has_items(kind):
                try:
                    item = item[step]
                    continue
                except TypeError:  # not a mapping: a pair, a named tuple
                    pass
            item = getattr(item, step)
        return item

    get.__name__ = "field_" + "_".join(map(str, steps))
    get.__qualname__ = f"field({', '.join(map(repr, steps))})"
    _FIELD_PATHS[get] = steps
    return get


def _has_items(kind: type) -> bool:
    """Whether objects of ``kind`` may have items (``obj[name]``), asked once a class."""
    has = _ITEMS.get(kind)
    if has is None:
        has = _ITEMS[kind] = hasattr(kind, "__getitem__")
    return has


_ITEMS: dict[type, bool] = {}
_FIELD_NAMES: weakref.WeakKeyDictionary[Callable[[Any], Any], str] = weakref.WeakKeyDictionary()
# the name each getter :func:`field` made reads (a generated loop reads it inline)
_FIELD_PATHS: weakref.WeakKeyDictionary[Callable[[Any], Any], tuple[str | int, ...]] = (
    weakref.WeakKeyDictionary()
)  # the path each getter of a path reads (the C fold reads it inline)


def field_name(get: Callable[[Any], Any]) -> str | None:
    """The name a :func:`field` getter reads (a loop reads it inline), or None for another
    function (one that cannot be weakly referred to, like ``operator.itemgetter``, or
    hashed, included)."""
    try:
        return _FIELD_NAMES.get(get)
    except TypeError:  # no weak reference to it, or no hash: not a getter field made
        return None


class Attribute(str):
    """A name the C flow engine reads as an attribute only, as ``operator.attrgetter``
    of it does (never ``item[name]``, which a :func:`field` tries first): from the
    item's slot, where it is one."""

    __slots__ = ()


def attribute_name(get: Callable[[Any], Any]) -> Attribute | None:
    """The one attribute ``get`` reads, where it is ``operator.attrgetter`` of one name
    (no dotted path), as an :class:`Attribute` for the C engine to read inline; None
    for another function.

    >>> attribute_name(operator.attrgetter("kind")), attribute_name(operator.attrgetter("a.b"))
    ('kind', None)
    """
    if type(get) is not operator.attrgetter:
        return None
    getter: Any = get  # its reduce: (attrgetter, its names)
    _, names = getter.__reduce__()
    if len(names) != 1 or "." in names[0]:
        return None
    return Attribute(names[0])


def field_path(get: Callable[[Any], Any]) -> tuple[str | int, ...] | None:
    """The path a :func:`field` getter of several steps (or of a place) reads, or None
    for another function (see :func:`field_name`)."""
    try:
        return _FIELD_PATHS.get(get)
    except TypeError:  # no weak reference to it, or no hash: not a getter field made
        return None
