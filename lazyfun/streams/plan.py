"""A stream's plan, and the chain a runner builds from it at the first read.

A :class:`Node` is one step as the façade declared it: the runner's building function
by name (``"map"``), its checked arguments, the node it reads (its ``parent``), the
stream's mode, the :class:`~lazyfun.streams.explain.Stage` ``explain`` shows for it,
and what the plan holds so far (its sources, which a sink must not write over).  Nodes
are immutable: a step makes a new one over its parent, and nothing runs.

At the first read (``for``, ``async for``, a terminal, a sink), :func:`build` walks
the plan from the source down and hands each node to the runner of its mode, which
makes the next :class:`Chain`: the iterator so far, what it holds (threads, pools,
a bar: closed with it), and what a killed job's resume needs to know.  The runners
register here (:func:`register`), so neither the façade nor the plan imports one::

    stream(range(9)).map(str).take(2)        the façade: three nodes, nothing read
    Node("source") <- Node("map") <- Node("take")
    build(take) = take(map(source(range(9)), str), 2)     the runner's functions

The equation: reading a stream is reading ``build`` of its plan, and
``build(Node(step, args, parent)) = runner.step(build(parent), *args)``.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterable, Callable, Iterable
from dataclasses import dataclass, field, replace
from types import TracebackType
from typing import Any, Protocol

from lazyfun.streams.explain import Stage, counted, held
from lazyfun.streams.shared.parts import StreamConsumedError

__all__ = [
    "Chain",
    "Closable",
    "Node",
    "Planned",
    "Runner",
    "Shared",
    "async_only",
    "build",
    "register",
    "runner",
]


class Closable(Protocol):
    """What a step that holds threads, processes, tasks or a progress bar offers."""

    def close(self) -> None: ...


class Runner(Protocol):
    """What the plan asks of a mode's runner (:mod:`lazyfun.streams.run`): its words
    for a stream, and a building function for each step by its name."""

    noun: str
    is_async: bool
    reread: str

    def __getattr__(self, name: str) -> Any: ...


_RUNNERS: dict[str, Callable[[], Runner]] = {}


def register(mode: str, load: Callable[[], Runner]) -> None:
    """Make ``load()`` the runner of ``mode`` (``"sync"``, ``"async"``)."""
    _RUNNERS[mode] = load


def runner(mode: str) -> Runner:
    """The runner of ``mode``, loaded at its first use."""
    try:
        load = _RUNNERS[mode]
    except KeyError:
        raise LookupError(f"no runner for {mode} streams: import lazyfun.streams") from None
    return load()


class Shared:
    """The chain of a node that several streams read (``tee``'s), built once, by the
    first of them to be read."""

    __slots__ = ("chain", "lock")

    def __init__(self) -> None:
        self.chain: Any = None
        self.lock = threading.Lock()


@dataclass(frozen=True, slots=True, eq=False)
class Node:
    """One declared step: ``step(parent, *args)`` in the runner of ``mode``; a source
    (``parent is None``) reads ``args[0]``.  ``holds`` is what the plan holds up to
    here (the sources given, closed with the stream); ``shared`` marks a node read by
    several streams."""

    step: str
    args: tuple[Any, ...]
    parent: Node | None
    stage: Stage
    mode: str = "sync"
    holds: tuple[Closable, ...] = ()
    shared: Shared | None = field(default=None)

    def restaged(self, stage: Stage) -> Node:
        """This node showing ``stage`` (an analysed one) instead."""
        return replace(self, stage=stage)

    def nodes(self) -> list[Node]:
        """The nodes from the source (or the nearest shared node) to this one."""
        path: list[Node] = []
        node: Node | None = self
        while node is not None:
            path.append(node)
            if node.shared is not None:
                break
            node = node.parent
        return path[::-1]


class Planned:
    """What a stream is to a runner that reads it as another step's input (a zip's,
    a merge's, a join's other side): its mode, its items once, and what it holds."""

    __slots__ = ()

    @property
    def _is_async(self) -> bool:
        raise NotImplementedError

    def _take_items(self) -> Any:
        raise NotImplementedError

    @property
    def _holds(self) -> tuple[Closable, ...]:
        raise NotImplementedError


def async_only(items: object) -> bool:
    """Whether ``items`` can only be read with ``async for``: an async stream, or an
    async iterable that is not also a plain one."""
    if isinstance(items, Planned):
        return items._is_async
    return isinstance(items, AsyncIterable) and not isinstance(items, Iterable)


class Chain:
    """A built step: its items (taken once), what it holds, and for a killed job's
    resume the first step it cannot resume through (``blocker``) and the first that
    may drop items (``dropped``).  A runner's building function reads the chain of the
    node's parent and makes the node's chain; ``making`` is the stage of the node being
    built (its counts: the items out, the calls of its function)."""

    __slots__ = (
        *("_blocker", "_dropped", "_holds", "_items", "_making", "_run", "_stage"),
        *("closed", "taken"),
    )

    def __init__(
        self,
        items: Any,
        holds: tuple[Closable, ...],
        blocker: str | None,
        dropped: str | None,
        stage: Stage,
        run: Runner,
    ) -> None:
        self._items, self._holds, self._stage, self._run = items, holds, stage, run
        self._blocker, self._dropped = blocker, dropped
        self._making = stage
        self.taken = self.closed = False

    def _take_items(self) -> Any:
        """The items, counted where the stage is analysed; once."""
        if self.taken:
            noun = self._run.noun
            raise StreamConsumedError(
                f"this {noun} was already read: a {noun} is one-shot. {self._run.reread}"
            )
        self.taken = True
        return self._run.metered(self._items, self._stage)

    def _counted(self, f: Callable[..., Any], via: object = None) -> Callable[..., Any]:
        """``f`` with its calls counted into the stage being made, when it is analysed
        and the calls run here (in this process: not ``via`` a pool or cluster)."""
        meter = self._making.meter
        if meter is None or via is not None:
            return f
        return counted(f, meter)

    def _made(self, holding: tuple[object, ...]) -> Stage:
        """The stage being made, told what its step holds (for ``explain``)."""
        return held(self._making, holding)

    def close(self) -> None:
        """Close what the chain holds, from the consumer's end back to the source."""
        self.closed = True
        holds, self._holds = self._holds, ()
        for hold in reversed(holds):
            hold.close()

    def __enter__(self) -> Chain:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def build(node: Node) -> Chain:
    """The chain of ``node``'s plan: its source read, then each step built by the
    runner of its mode, from the source down (a shared node's chain built once)."""
    path = node.nodes()
    first, rest = path[0], path[1:]
    if first.shared is None:
        chain = _made(first)
    else:  # several streams read it: the first to be read builds it, each its own step
        with first.shared.lock:
            if first.shared.chain is None:
                first.shared.chain = _made(first)
            chain = _step(first.shared.chain, rest[0]) if rest else first.shared.chain
        rest = rest[1:]
    for each in rest:
        chain = _step(chain, each)
    return chain


def _step(chain: Chain, node: Node) -> Chain:
    """``node``'s chain, built over its parent's ``chain`` by the runner of its mode."""
    chain._making = node.stage
    made: Chain = getattr(runner(node.mode), node.step)(chain, *node.args)
    return made


def _made(node: Node) -> Chain:
    """The chain of a source, or of a shared node over its own plan."""
    if node.parent is None:
        run = runner(node.mode)
        return Chain(run.source(node.args[0]), node.holds, None, None, node.stage, run)
    return _step(build(node.parent), node)
