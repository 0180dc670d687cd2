"""A sort's spilled frames: how :class:`~lazyfun.streams.sorting.Sorter` writes a frame
of a run (a list of items) to its file and reads it back (:class:`Frames`).

A frame is a header (its tag and size) and its bytes: msgspec's msgpack where the frame
is of a msgspec Struct of plain fields, each value of its field's type itself
(:class:`Plain`), else pickle's (:func:`pickled`), each item coming back as pickle would
make it.

>>> frames = Frames()
>>> import io
>>> file = io.BytesIO()
>>> frames.write(file, [3, "three"])
>>> frames.read_from(io.BytesIO(file.getvalue())).__next__()
[3, 'three']
"""

from __future__ import annotations

import copyreg
import io
import operator
import os
import pickle
import struct
import types
import typing
from collections.abc import Callable, Generator
from itertools import repeat, starmap
from typing import IO, Any

from lazyfun.compiled import PURE_ENV

try:  # the C flow engine's check of a frame's fields, beside holds', and its own codec
    from lazyfun.streams.sync import _flow  # which import-linter cannot read
except ImportError:  # built without a C compiler
    HOLDS = PACK = UNPACK = None
else:
    HOLDS = None if os.environ.get(PURE_ENV) else _flow.holds
    PACK = None if os.environ.get(PURE_ENV) else _flow.pack
    UNPACK = None if os.environ.get(PURE_ENV) else _flow.unpack
PACKED = 0xC1  # the first byte of a frame the C engine packed (msgpack never writes it)

__all__ = ["Frames", "Plain", "calls", "holds", "pickled", "unpickled"]


class Frames:
    """How one sort's frames are written and read back: each class met gets a tag, the
    place of its :class:`Plain` in ``plain`` from 1, or 0 (pickled) for a class that
    has none.  The classes are the process's own, so the files are for this process."""

    def __init__(self) -> None:
        self.plain: list[Plain] = []  # how frames of plain records are written, by tag
        self.tags: dict[type, int] = {}  # each class's tag (0: pickled), once met

    def encoded(self, part: list[Any]) -> tuple[int, bytes]:
        """A frame's bytes, and the tag that says how to read them back: msgspec's by the
        :class:`Plain` of the frame's class where that writes it exactly, else pickle's."""
        kind = type(part[0])
        tag = self.tags.get(kind)
        if tag is None:
            plain = Plain.of(kind) if len(self.plain) < TAGS else None
            tag = self.tags[kind] = 0 if plain is None else len(self.plain) + 1
            if plain is not None:
                self.plain.append(plain)
        if tag:
            written = self.plain[tag - 1].encode(part)
            if written is not None:
                return tag, written
        return 0, pickled(part)

    def write(self, file: IO[bytes], part: list[Any]) -> None:
        """Write the frame ``part`` (not empty) to ``file``: its header, then its bytes."""
        tag, payload = self.encoded(part)
        file.write(HEADER.pack(tag, len(payload)))
        file.write(payload)

    def read(self, path: str) -> Generator[list[Any], None, None]:
        """The frames of the run written to ``path``, in order."""
        file: IO[bytes]
        with open(path, "rb") as file:
            yield from self.read_from(file)

    def read_from(self, file: IO[bytes]) -> Generator[list[Any], None, None]:
        """The frames written to ``file``, from where it stands, in order."""
        while header := file.read(HEADER.size):
            tag, size = HEADER.unpack(header)
            payload = file.read(size)
            yield self.plain[tag - 1].decode(payload) if tag else unpickled(payload)


# The types pickle writes itself, asking nothing of them: a frame of them is pickled as it is
AS_IS = frozenset({dict, list, tuple, str, bytes, bytearray, int, float, complex, bool, set})
REDUCE = operator.methodcaller("__reduce_ex__", pickle.HIGHEST_PROTOCOL)


def pickled(part: list[Any]) -> bytes:
    """pickle's bytes of a frame of a run, written without its memo (fast mode: half the
    time both ways; an object met twice in a frame comes back as two equal ones, as it
    does across frames), and with it where the frame holds a cycle, which that refuses.
    A frame of objects pickle rebuilds by one call (a msgspec Struct's class, given its
    fields) is written as that call once and each item's arguments (:func:`calls`)."""
    frame: Any = calls(part) or part
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, pickle.HIGHEST_PROTOCOL)
    pickler.fast = True
    try:
        pickler.dump(frame)
    except ValueError:  # a cycle: pickle's memo keeps it one, the items written whole
        return pickle.dumps(part, pickle.HIGHEST_PROTOCOL)
    return buffer.getvalue()


def calls(part: list[Any]) -> tuple[Callable[..., Any], list[tuple[Any, ...]]] | None:
    """``(call, arguments)`` where every item of ``part`` is of one class that pickle
    would write as ``call(*its arguments)`` (its ``__reduce_ex__`` a pair, the call the
    same for all), so that pickle writes the call once a frame, not once an item (a
    frame of 1,024 msgspec Structs, whose class pickle names at each: five times
    faster); :func:`unpickled` makes the items again by the same calls, as pickle
    would.  None for any other frame."""
    kind = type(part[0])
    if (
        kind in AS_IS
        or kind in copyreg.dispatch_table
        or issubclass(kind, type)
        or not all(map(operator.is_, map(type, part), repeat(kind)))
    ):
        return None
    # what pickle asks of each, or where that is object's, what object's asks in turn
    reduce: Callable[[Any], Any] = REDUCE
    own: Any = kind
    if own.__reduce_ex__ is object.__reduce_ex__ and own.__reduce__ is not object.__reduce__:
        reduce = own.__reduce__
    try:
        reduced = list(map(reduce, part))
    except Exception:  # pickle itself will say what it cannot write
        return None
    if not all(map(operator.is_, map(type, reduced), repeat(tuple))) or any(
        map(operator.ne, map(len, reduced), repeat(2))
    ):
        return None
    call = reduced[0][0]
    if not callable(call) or not all(map(operator.is_, map(FIRST, reduced), repeat(call))):
        return None
    return call, list(map(SECOND, reduced))


FIRST, SECOND = operator.itemgetter(0), operator.itemgetter(1)


def unpickled(payload: bytes) -> list[Any]:
    """A frame's items from its bytes (see :func:`pickled`)."""
    frame = pickle.loads(payload)
    if isinstance(frame, tuple):
        call, arguments = frame
        return list(starmap(call, arguments))
    items: list[Any] = frame
    return items


HEADER = struct.Struct("<BQ")  # a spilled frame's tag (0: pickle's, else a Plain's) and size
TAGS = 255  # the most classes a sort spills by msgspec: a tag each
PLAIN = frozenset({str, int, float, bool, bytes, type(None)})  # values msgpack writes exactly
UNIONS = (typing.Union, types.UnionType)


class Plain:
    """How a run's frames of one msgspec Struct class are spilled: by msgspec's msgpack
    (a fourth of pickle's time to write, with no call an item; half to read), where every
    field is annotated with types of :data:`PLAIN` (or a union of them).  A frame is
    written so only where each of its items is of the class itself and each field holds
    a value of its annotation's types themselves (:func:`holds`; a bool where an int
    is due, an int where a float is, an ``IntEnum`` would come back changed), and msgpack
    can write it (an int past 64 bits cannot): else :meth:`encode` gives None and the
    frame is pickled.  Read back by msgspec into the class, the same values in the same
    fields, ``__post_init__`` run as pickle's call of the class runs it.

    The C flow engine, where it is built, writes such a frame in a form of its own as it
    checks it (``pack``: each field a tag and its value, no field names; a third of the
    time of the check and msgspec's map of each item's names and values), and reads it
    back by calling the class with the fields by name (``unpack``); msgspec's msgpack is
    the readable form, and a frame's first byte tells which wrote it."""

    __slots__ = ("allowed", "decoder", "encoder", "failed", "kind", "names")

    def __init__(
        self, kind: type, names: tuple[str, ...], allowed: tuple[tuple[type, ...], ...]
    ) -> None:
        import msgspec

        self.kind, self.names, self.allowed = kind, names, allowed
        self.encoder = msgspec.msgpack.Encoder()
        self.failed = (OverflowError, msgspec.EncodeError)
        self.decoder: msgspec.msgpack.Decoder[list[Any]] = msgspec.msgpack.Decoder(list[kind])  # type: ignore[valid-type]

    @classmethod
    def of(cls, kind: type) -> Plain | None:
        """The codec of ``kind``'s frames, where it is a msgspec Struct of plain fields
        whose encoding omits none (``omit_defaults`` would give a default back for an
        equal value of another type); None for any other class."""
        if not hasattr(kind, "__struct_fields__"):
            return None  # no msgspec Struct (and msgspec not loaded for it)
        import msgspec

        if not (isinstance(kind, type) and issubclass(kind, msgspec.Struct)):
            return None
        struct: Any = kind  # a Struct class, whose config the stubs do not name
        if struct.__struct_config__.omit_defaults:
            return None
        names, allowed = [], []
        for field in msgspec.structs.fields(kind):
            annotated = field.type
            kinds = (
                typing.get_args(annotated)
                if typing.get_origin(annotated) in UNIONS
                else (annotated,)
            )
            if not kinds or not all(k in PLAIN for k in kinds):
                return None
            names.append(field.name)
            allowed.append(tuple(kinds))
        return cls(kind, tuple(names), tuple(allowed))

    def encode(self, part: list[Any]) -> bytes | None:
        """The bytes of ``part`` (the C engine's, else msgpack's); None where it would not
        come back the same."""
        if PACK is not None:
            packed: bytes | None = PACK(part, self.kind, self.names, self.allowed)
            return packed
        held = holds if HOLDS is None else HOLDS
        if not held(part, self.kind, self.names, self.allowed):
            return None
        try:
            written: bytes = self.encoder.encode(part)
        except self.failed:  # an int past 64 bits
            return None
        return written

    def decode(self, payload: bytes) -> list[Any]:
        """The items of a frame :meth:`encode` wrote."""
        if UNPACK is not None and payload[:1] == bytes([PACKED]):
            unpacked: list[Any] = UNPACK(payload, self.kind, self.names)
            return unpacked
        items: list[Any] = self.decoder.decode(payload)
        return items


def holds(
    items: list[Any], kind: type, names: tuple[str, ...], allowed: tuple[tuple[type, ...], ...]
) -> bool:
    """Whether every item is a ``kind`` itself whose field ``names[f]`` holds a value whose
    type is one of ``allowed[f]`` itself (the C engine's ``holds``, plainly).

    >>> import msgspec
    >>> class Point(msgspec.Struct):
    ...     x: int
    >>> ints = ((int,),)
    >>> holds([Point(1)], Point, ("x",), ints), holds([Point(True)], Point, ("x",), ints)
    (True, False)
    """
    if not all(type(item) is kind for item in items):
        return False
    for name, kinds in zip(names, allowed, strict=True):
        try:
            found = set(map(type, map(operator.attrgetter(name), items)))
        except AttributeError:  # a field unset
            return False
        if not found <= set(kinds):
            return False
    return True
