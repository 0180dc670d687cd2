"""Reading a command's values from the command line quickly: typer checks each value
with a pydantic model built for its type, and importing pydantic and building those
models is most of the time a short command takes to start.

The values the commands take are mostly plain: nothing (an option left out), a switch,
a word of a fixed set (``--format line``), a whole number, a string, a list of them.
:func:`quicken` gives such a parameter a reader of its own, which reads those as
typer would and hands anything else (a path, a value it would refuse, a type it
does not know) to typer's own reader, built then: the same value, the same error
message, and pydantic loaded only when a value needs it.
"""

from __future__ import annotations

import re
from typing import Any, Literal, get_args, get_origin

__all__ = ["quicken"]

_SLOW = object()
_WHOLE = re.compile(r"[+-]?[0-9]{1,18}")  # what int() and pydantic read alike


def quicken(param: Any) -> None:
    """Let ``param`` (a typer option or argument) read its plain values itself."""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None and getattr(param, "_runtime_param", False) is None:
        param._runtime_param = _Quick(descriptor.annotation, descriptor.parameter_info)


class _Quick:
    """A parameter's reader: the plain values here, the rest by typer's reader."""

    def __init__(self, annotation: Any, info: Any) -> None:
        self.annotation, self.info = annotation, info

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        multiple = param.multiple or param.nargs == -1
        read = _read(self.annotation, self.info, value, multiple)
        if read is not _SLOW:
            return read
        param._runtime_param = None  # typer's own reader, from now on
        return param.get_runtime_param().coerce(value, param=param, ctx=ctx)


def _read(annotation: Any, info: Any, value: Any, multiple: bool) -> Any:
    """``value`` read as ``annotation``, or ``_SLOW`` when typer should read it."""
    if info.parser is not None:
        return _SLOW  # a parser of the command's own
    if value is None:
        return () if multiple else None
    if multiple:
        if get_origin(annotation) is not list or not isinstance(value, (list, tuple)):
            return _SLOW
        (item,) = get_args(annotation)
        read = [_one(item, info, v) for v in value]
        return _SLOW if any(r is _SLOW for r in read) else read
    return _one(annotation, info, value)


def _one(annotation: Any, info: Any, value: Any) -> Any:
    """One value read as ``annotation`` (a str, an int, a Literal of strings), or ``_SLOW``."""
    if annotation is str and isinstance(value, str):
        return value
    if annotation is bool and isinstance(value, bool):
        return value
    if annotation is int and info.min is None and info.max is None and not info.clamp:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and _WHOLE.fullmatch(value):
            return int(value)
    if get_origin(annotation) is Literal and info.case_sensitive:
        choices = get_args(annotation)
        if isinstance(value, str) and value in choices and all(type(c) is str for c in choices):
            return value
    return _SLOW
