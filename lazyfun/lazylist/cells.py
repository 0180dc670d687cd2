"""The LazyList's cells: how one is forced, shared and shown, and how each lazy
transformation (``mapped``, ``filtered``, ``taken``, ...) computes a cell.

Each transformation returns a :class:`LazyList` whose cell is computed by a small
``step`` closure: it forces as many cells of its source as it needs and gives ``None``
(the end), a ``(head, tail)`` pair whose tail is the same transformation of the rest,
or another list whose cell this one is.  Nothing is computed when the function is
called.  ``LazyList``'s methods (``map``, ``filter``, ``take``, ...) check their
arguments and call these.  The package's page (:mod:`lazyfun.lazylist`) tells the
rules; installed from source, this module is compiled with mypyc (see
:mod:`lazyfun.compiled`); the code here is what runs either way.

>>> evens = filtered(lambda n: n % 2 == 0, LazyList.of(range(10)))
>>> evens.forced(), list(evens), evens.forced()
(0, [0, 2, 4, 6, 8], 5)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from html import escape
from typing import Any, Final, Generic, Never, TypeVar, overload

from lazyfun.lazylist.blackholes import (
    BLACKHOLE,
    CLAIM_IS_ATOMIC,
    LOCK,
    MAX_NESTING,
    Failed,
    LazyListLoop,
    Nesting,
    nesting,
    release,
    wait_for,
)

__all__ = ["MAX_NESTING", "LazyList", "LazyListLoop"]

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)  # a cell never changes once computed: read-only
U = TypeVar("U")
V = TypeVar("V")

SHOWN = 20  # how many forced elements ``repr`` prints before it abbreviates


_NO_HEAD: Final[Any] = None


def _claim(cell: LazyList[Any], me: Nesting) -> Callable[[], Evaluated[Any]] | None:
    """Mark ``cell`` as being computed by this thread and give its code, or None if it
    is computed.  A cell another thread is computing is waited for; one this thread
    is computing already, directly or through threads waiting on each other, is a loop.

    Compiled, reading and marking the cell is one stretch of C that calls no Python
    code, so no other thread can run in between while the GIL is held: no lock is
    needed.  From source (or without a GIL) the lock makes the stretch atomic.
    """
    code = cell._code
    if CLAIM_IS_ATOMIC and code is not BLACKHOLE:
        if code is not None:
            cell._code = BLACKHOLE
            cell._owner = me
        return code
    LOCK.acquire()
    try:
        code = cell._code
        while code is BLACKHOLE:
            wait_for(cell, me)
            code = cell._code
        if code is not None:
            cell._code = BLACKHOLE
            cell._owner = me
        return code
    finally:
        LOCK.release()


class LazyList(Generic[T_co]):
    """A call-by-need list: cells computed at most once, on first demand, and shared.

    Build one with :meth:`of`, :meth:`empty`, :meth:`cons` or :meth:`fix`;
    transform it with the lazy methods (each returns a new ``LazyList`` and
    computes nothing yet); read it with ``head``, ``tail``, ``xs[i]``,
    ``bool(xs)`` or iteration, which force just the cells they need.
    """

    # An unevaluated cell has ``_code``, a thunk giving its Evaluated.  Once
    # computed, ``_code`` is None and ``_tail`` is None for the empty list,
    # else the rest of the list (``_head`` is the first element).
    _code: Callable[[], Evaluated[T_co]] | None
    _head: T_co
    _tail: LazyList[T_co] | None
    _owner: Nesting | None  # the thread computing the cell, while its code is BLACKHOLE

    def __init__(
        self,
        code: Callable[[], Evaluated[T_co]] | None,
        head: T_co = _NO_HEAD,
        tail: LazyList[T_co] | None = None,
    ) -> None:
        self._code = code
        self._head = head
        self._tail = tail
        self._owner = None

    # --- constructors -------------------------------------------------------

    @staticmethod
    def of(items: Iterable[T]) -> LazyList[T]:
        """The items as a LazyList; ``items`` is read one item per cell forced.

        >>> xs = LazyList.of(iter([1, 2, 3]))
        >>> xs.head, xs
        (1, LazyList([1, ...]))
        """
        return of_iterator(iter(items))

    @staticmethod
    def empty() -> LazyList[Never]:
        """The empty list, ``[]``: a ``LazyList[Never]``, which is a list of every type,
        since a LazyList is covariant (a ``LazyList[bool]`` is a ``LazyList[int]``).

        >>> bool(LazyList.empty()), list(LazyList.empty())
        (False, [])
        """
        return LazyList(None)

    @staticmethod
    def cons(head: T, tail: Callable[[], LazyList[T]] | LazyList[T]) -> LazyList[T]:
        """``head : tail``, where ``tail`` is a thunk (a zero-argument callable) or a list.

        The thunk runs once, when the tail is first needed.

        >>> ones = LazyList.fix(lambda ones: LazyList.cons(1, lambda: ones))
        >>> list(ones.take(3))
        [1, 1, 1]
        """
        if isinstance(tail, LazyList):
            return LazyList(None, head, tail)
        if not callable(tail):
            raise TypeError(
                f"LazyList.cons needs a LazyList or a thunk returning one as its tail, "
                f"got {type(tail).__name__}"
            )
        thunk: Callable[[], object] = tail
        return LazyList(None, head, LazyList(lambda: _checked(thunk())))

    @staticmethod
    def fix(f: Callable[[LazyList[T]], LazyList[T]]) -> LazyList[T]:
        """The list ``xs`` with ``xs == f(xs)``: a list defined in terms of itself.

        ``f`` is called once, when the list is first forced; it may use its
        argument lazily (inside thunks and lazy methods), and each cell is
        then computed once however many times the definition reads it.

        >>> powers = LazyList.fix(lambda p: LazyList.cons(1, lambda: p.map(lambda n: 2 * n)))
        >>> powers[10]
        1024
        """
        xs: LazyList[T] = LazyList(BLACKHOLE)
        make: Callable[[LazyList[T]], object] = f  # checked by hand, for a clear error
        xs._code = lambda: _checked(make(xs))
        return xs

    # --- forcing ------------------------------------------------------------

    def _force(self) -> None:
        """Compute this cell if it has not been computed (once; loops, never recursion).

        Threads share cells: one computes a cell while the others wait for it.
        """
        if self._code is None:
            return
        depth = nesting()
        code = _claim(self, depth)
        if code is None:
            return
        if depth.nested >= MAX_NESTING:
            self._code = code
            release()
            raise RecursionError(
                f"forcing this LazyList cell needs more than {MAX_NESTING:,} unevaluated "
                "cells inside one another (a map of a map of ..., or appends nested that "
                "deep); force the inner lists first, or build the list in fewer layers"
            )
        depth.nested += 1
        try:
            step = code.fill(self) if isinstance(code, Reader) else code()
        except BaseException:
            self._code = code
            release()
            raise
        finally:
            depth.nested -= 1
        if step is self:  # a Reader filled it in place
            pass
        elif step is None:
            self._tail = None
        elif isinstance(step, tuple):
            self._head, self._tail = step
        elif isinstance(step, Failed):
            self._code = step
            release()
            step()
        else:
            try:
                self._become(step, code, depth)
            finally:
                release()
            return
        self._code = None
        release()

    def _become(
        self, other: LazyList[T_co], code: Callable[[], Evaluated[T_co]], me: Nesting
    ) -> None:
        """Make this cell the cell of ``other``, computing the cells between if need be."""
        # the cells that all become the cell at the end of the chain
        cells: list[tuple[LazyList[Any], Callable[[], Evaluated[Any]]]] = [(self, code)]
        node = other
        try:
            while True:
                pending = _claim(node, me)
                if pending is None:
                    break
                cells.append((node, pending))
                step = pending()
                if isinstance(step, LazyList):
                    node = step
                    continue
                cells.pop()
                if step is None:
                    node._tail = None
                elif isinstance(step, Failed):
                    node._code = step
                    step()
                else:
                    node._head, node._tail = step
                node._code = None
                break
        except BaseException:
            for cell, original in cells:
                cell._code = original
            raise
        for cell, _ in cells:
            cell._head, cell._tail, cell._code = node._head, node._tail, None

    # --- reading -------------------------------------------------------------

    def __bool__(self) -> bool:
        """Whether the list has a first cell (forces that one cell only)."""
        self._force()
        return self._tail is not None

    @property
    def head(self) -> T_co:
        """The first element (forces the first cell).

        >>> LazyList.of("abc").head
        'a'
        """
        self._force()
        if self._tail is None:
            raise IndexError("head of an empty LazyList")
        return self._head

    @property
    def tail(self) -> LazyList[T_co]:
        """Everything after the first element (forces the first cell only).

        >>> LazyList.of("abc").tail.head
        'b'
        """
        self._force()
        tail = self._tail
        if tail is None:
            raise IndexError("tail of an empty LazyList")
        return tail

    def __iter__(self) -> Iterator[T_co]:
        """The elements, forcing cells as the iterator reaches them.

        The iterator keeps only the cell it is at, not the ones it has passed.
        """
        return _walk(self)

    @overload
    def __getitem__(self, index: int) -> T_co: ...

    @overload
    def __getitem__(self, index: slice) -> LazyList[T_co]: ...

    def __getitem__(self, index: int | slice) -> T_co | LazyList[T_co]:
        """``xs[i]`` forces the first i+1 cells; ``xs[i:j:k]`` is a lazy LazyList.

        >>> xs = LazyList.of(range(10))
        >>> xs[3], list(xs[2:8:2])
        (3, [2, 4, 6])
        >>> xs[10]
        Traceback (most recent call last):
        ...
        IndexError: LazyList index 10 out of range: the list has 10 elements
        """
        if isinstance(index, slice):
            return self._slice(index)
        if index < 0:
            raise IndexError(
                f"LazyList index {index}: negative indices would force the whole list, "
                "which may be infinite; index from the front"
            )
        node = self
        for position in range(index):
            node._force()
            tail = node._tail
            if tail is None:
                raise IndexError(
                    f"LazyList index {index} out of range: the list has {position} elements"
                )
            node = tail
        node._force()
        if node._tail is None:
            raise IndexError(f"LazyList index {index} out of range: the list has {index} elements")
        return node._head

    def _slice(self, index: slice) -> LazyList[T_co]:
        start, stop, step = index.start, index.stop, index.step
        for name, value in (("start", start), ("stop", stop), ("step", step)):
            if value is not None and value < 0:
                raise ValueError(
                    f"LazyList slice {name} {value}: negative bounds would force the whole "
                    "list, which may be infinite"
                )
        if step == 0:
            raise ValueError("LazyList slice step cannot be zero")
        xs = self.drop(start or 0)
        if stop is not None:
            xs = taken(stop - (start or 0), xs)  # xs[5:2] is empty, as for a list
        return xs if step is None or step == 1 else every(step, xs)

    def forced(self) -> int:
        """How many cells of this list have been computed so far (forces nothing).

        >>> xs = LazyList.of(range(5))
        >>> xs.forced(), xs[2], xs.forced()
        (0, 2, 3)
        """
        count = 0
        node = self
        while node._code is None:
            tail = node._tail
            if tail is None:
                break
            count += 1
            node = tail
        return count

    def __repr__(self) -> str:
        shown: list[str] = []
        node: LazyList[T_co] | None = self
        while node is not None and node._code is None and len(shown) < SHOWN:
            tail = node._tail
            if tail is None:
                return f"LazyList([{', '.join(shown)}])"
            shown.append(repr(node._head))
            node = tail
        if node is not None and node._code is None and node._tail is not None:
            more = LazyList.forced(node)
            shown.append(f"<{more} more forced>")
        return f"LazyList([{', '.join([*shown, '...'])}])"

    def _repr_html_(self) -> str:
        """For Jupyter: the forced cells, then the rest marked as not yet computed.

        >>> xs = LazyList.of(range(5))
        >>> _ = xs[1]
        >>> xs._repr_html_()
        '<code>LazyList</code> [<b>0</b>, <b>1</b>, <i>not computed yet</i>]'
        """
        shown: list[str] = []
        node = self
        while node._code is None and len(shown) < SHOWN:
            tail = node._tail
            if tail is None:
                return f"<code>LazyList</code> [{', '.join(shown)}]"
            shown.append(f"<b>{escape(repr(node._head))}</b>")
            node = tail
        if node._code is None and node._tail is not None:
            shown.append(f"<i>{LazyList.forced(node)} more computed</i>")
        shown.append("<i>not computed yet</i>")
        return f"<code>LazyList</code> [{', '.join(shown)}]"

    # --- lazy transformations -------------------------------------------------

    def map(self, f: Callable[[T_co], U]) -> LazyList[U]:
        """``map f xs``; ``f`` runs once per cell, when the cell is forced.

        >>> list(LazyList.of([1, 2, 3]).map(str))
        ['1', '2', '3']
        """
        return mapped(f, self)

    def filter(self, keep: Callable[[T_co], object]) -> LazyList[T_co]:
        """``filter keep xs``: forcing a cell reads as far as the next element kept.

        >>> list(LazyList.of(range(10)).filter(lambda n: n % 3 == 0))
        [0, 3, 6, 9]
        """
        return filtered(keep, self)

    def flatmap(self, f: Callable[[T_co], Iterable[U]]) -> LazyList[U]:
        """``concatMap f xs``: the items of ``f(x)`` for each ``x``, read as needed.

        >>> list(LazyList.of([1, 2, 3]).flatmap(range))
        [0, 0, 1, 0, 1, 2]
        """
        return flatmapped(f, self, None)

    def zip_with(self, f: Callable[[T_co, U], V], other: LazyList[U]) -> LazyList[V]:
        """``zipWith f xs ys``: ``f`` applied pairwise, as long as the shorter list.

        >>> list(LazyList.of([1, 2, 3]).zip_with(lambda a, b: a * b, LazyList.of([4, 5])))
        [4, 10]
        """
        return zipped_with(f, self, other)

    def take(self, n: int) -> LazyList[T_co]:
        """The first ``n`` elements (all of them if there are fewer).

        >>> list(LazyList.of(range(100)).take(3))
        [0, 1, 2]
        """
        if n < 0:
            raise ValueError(f"LazyList.take's n must be at least 0, got {n}")
        return taken(n, self)

    def drop(self, n: int) -> LazyList[T_co]:
        """Everything after the first ``n`` elements.

        >>> list(LazyList.of(range(5)).drop(3))
        [3, 4]
        """
        if n < 0:
            raise ValueError(f"LazyList.drop's n must be at least 0, got {n}")
        return self if n == 0 else dropped(n, self)

    def takewhile(self, keep: Callable[[T_co], object]) -> LazyList[T_co]:
        """The longest prefix whose elements all satisfy ``keep``.

        >>> list(LazyList.of([1, 4, 9, 16, 1]).takewhile(lambda n: n < 10))
        [1, 4, 9]
        """
        return taken_while(keep, self)

    def dropwhile(self, drop: Callable[[T_co], object]) -> LazyList[T_co]:
        """What is left after the longest prefix satisfying ``drop``.

        >>> list(LazyList.of([1, 4, 9, 16, 1]).dropwhile(lambda n: n < 10))
        [16, 1]
        """
        return dropped_while(drop, self)

    def __add__(self, other: Iterable[U]) -> LazyList[T_co | U]:
        """``xs ++ ys``, lazily: ``other`` is not touched until ``xs`` runs out.

        >>> list(LazyList.of([1, 2]) + LazyList.of([3]))
        [1, 2, 3]
        """
        rest = other if isinstance(other, LazyList) else LazyList.of(other)
        return appended(self, rest)


# Computing a cell gives None for the end of the list, a (head, tail) pair for
# a cons cell, or another list whose cell this one is (an indirection).
Evaluated = tuple[T, LazyList[T]] | LazyList[T] | Failed | None


def _checked(xs: object) -> LazyList[Any]:
    """A user's thunk must give a LazyList; anything else is a clear TypeError."""
    if not isinstance(xs, LazyList):
        raise TypeError(f"a LazyList thunk must return a LazyList, got {type(xs).__name__}")
    return xs


def _walk(node: LazyList[T]) -> Iterator[T]:
    """Iterate from ``node``, keeping only the current cell."""
    while True:
        if node._code is not None:
            node._force()
        tail = node._tail
        if tail is None:
            return
        yield node._head
        node = tail


# The transformations, one cell at a time


class Reader(Generic[T]):
    """The code of each cell of :func:`of_iterator`'s list: forcing fills the cell
    straight from the iterator (no pair made: walking such a list is the hot path)."""

    def __init__(self, items: Iterator[T]) -> None:
        self.items = items

    def fill(self, cell: LazyList[T]) -> LazyList[T] | Failed:
        """Read the next item into ``cell`` (at the end, make it the empty list) and give
        it back; an error is given back as a Failed, to be the cell's code."""
        try:
            for x in self.items:
                cell._head, cell._tail = x, LazyList(self)
                return cell
        except Exception as error:
            return Failed(error)
        cell._tail = None
        return cell

    def __call__(self) -> Evaluated[T]:
        cell: LazyList[T] = LazyList(None)
        filled = self.fill(cell)
        if isinstance(filled, Failed):
            return filled
        return None if cell._tail is None else (cell._head, cell._tail)


def of_iterator(items: Iterator[T]) -> LazyList[T]:
    """The items as cells, one item read per cell forced; an error is kept in its cell."""
    return LazyList(Reader(items))


def mapped(f: Callable[[T], U], src: LazyList[T]) -> LazyList[U]:
    """``map f (x:xs) = f x : map f xs``."""

    def step() -> Evaluated[U]:
        src._force()
        tail = src._tail
        if tail is None:
            return None
        return f(src._head), mapped(f, tail)

    return LazyList(step)


def filtered(keep: Callable[[T], object], src: LazyList[T]) -> LazyList[T]:
    """``filter p (x:xs) = if p x then x : filter p xs else filter p xs``, as a loop."""

    def step() -> Evaluated[T]:
        node = src
        while True:
            node._force()
            tail = node._tail
            if tail is None:
                return None
            x = node._head
            if keep(x):
                return x, filtered(keep, tail)
            node = tail

    return LazyList(step)


def flatmapped(
    f: Callable[[T], Iterable[U]], src: LazyList[T], inner: Iterator[U] | None
) -> LazyList[U]:
    """``concatMap f (x:xs) = f x ++ concatMap f xs``, reading ``f x`` as needed
    (``inner`` is what is left of the current one)."""

    def step() -> Evaluated[U]:
        items, node = inner, src
        while True:
            if items is not None:
                for y in items:
                    return y, flatmapped(f, node, items)
            node._force()
            tail = node._tail
            if tail is None:
                return None
            items, node = iter(f(node._head)), tail

    return LazyList(step)


def zipped_with(f: Callable[[T, U], V], xs: LazyList[T], ys: LazyList[U]) -> LazyList[V]:
    """``zipWith f (x:xs) (y:ys) = f x y : zipWith f xs ys``; empty when either is."""

    def step() -> Evaluated[V]:
        xs._force()
        x_tail = xs._tail
        if x_tail is None:
            return None
        ys._force()
        y_tail = ys._tail
        if y_tail is None:
            return None
        return f(xs._head, ys._head), zipped_with(f, x_tail, y_tail)

    return LazyList(step)


def taken(n: int, src: LazyList[T]) -> LazyList[T]:
    """``take n (x:xs) = x : take (n-1) xs``; ``take 0 _ = []``."""

    if n <= 0:
        return LazyList(None)

    def step() -> Evaluated[T]:
        src._force()
        tail = src._tail
        if tail is None:
            return None
        return src._head, taken(n - 1, tail)

    return LazyList(step)


def taken_while(keep: Callable[[T], object], src: LazyList[T]) -> LazyList[T]:
    """``takeWhile p (x:xs) = if p x then x : takeWhile p xs else []``."""

    def step() -> Evaluated[T]:
        src._force()
        tail = src._tail
        if tail is None or not keep(src._head):
            return None
        return src._head, taken_while(keep, tail)

    return LazyList(step)


def every(k: int, src: LazyList[T]) -> LazyList[T]:
    """Every ``k``-th element, starting with the first."""

    def step() -> Evaluated[T]:
        src._force()
        if src._tail is None:
            return None
        return src._head, every(k, dropped(k, src))

    return LazyList(step)


def appended(xs: LazyList[T], ys: LazyList[T]) -> LazyList[T]:
    """``(x:xs) ++ ys = x : (xs ++ ys)``; ``[] ++ ys = ys`` (the cell becomes ys's)."""

    def step() -> Evaluated[T]:
        xs._force()
        tail = xs._tail
        if tail is None:
            return ys
        return xs._head, appended(tail, ys)

    return LazyList(step)


def dropped(n: int, src: LazyList[T]) -> LazyList[T]:
    """Everything after the first ``n`` elements: the cell after them, reached when forced."""

    def step() -> Evaluated[T]:
        node = src
        for _ in range(n):
            node._force()
            tail = node._tail
            if tail is None:
                return None
            node = tail
        return node

    return LazyList(step)


def dropped_while(drop: Callable[[T], object], src: LazyList[T]) -> LazyList[T]:
    """The list from the first element that ``drop`` rejects."""

    def step() -> Evaluated[T]:
        node = src
        while True:
            node._force()
            tail = node._tail
            if tail is None or not drop(node._head):
                return node
            node = tail

    return LazyList(step)
