"""Variant puzzles in files and links: the ``sudoku-puzzle`` JSON format and f-puzzles.

``sudoku-puzzle`` (format_version 1) is the open exchange format that
pencilmark publishes with a JSON Schema.  Every rule is stated, nothing is
implied: a classic grid says ``{"type": "box_grid", "origin": "r1c1",
"box": [3, 3]}``, a jigsaw says ``grid`` and gives its ``box`` regions.
Cells are named ``r1c1``; ``givens`` lists the values in reading order, 0 for
a blank; ``meta`` is free-form and is kept.

:func:`read_variant` takes one puzzle in any form lazyfun reads a variant in:
``sudoku-puzzle`` JSON, an f-puzzles or SudokuPad link (through the reader
classic links use), or a classic puzzle.  A rule lazyfun does not support is
refused with its name, never dropped; a malformed file is refused with the
rule and the field at fault.  :func:`to_json` / :func:`dumps` and
:func:`write_link` write a variant back; reading what was written gives the
same variant (the round-trip laws in the tests).

>>> from lazyfun.sudoku.variants import Cage, Variant
>>> from lazyfun.sudoku import parse
>>> killer = Variant(parse("." * 16), (Cage(cells=(0, 1), total=3),))
>>> text = dumps(to_json(killer))
>>> text[:60]
'{"format":"sudoku-puzzle","format_version":1,"board":{"rows"'
>>> read_variant(text) == killer
True
>>> read_variant('{"format": "sudoku-puzzle", "format_version": 1, "board": {"rows": 4, "cols": 4},'
...              ' "digits": 4, "givens": [0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0],'
...              ' "rules": [{"type": "box_grid", "origin": "r1c1", "box": [2, 2]},'
...              ' {"type": "sandwich", "sum": 5, "side": "left", "cells": ["r1c1"]}]}')
Traceback (most recent call last):
...
lazyfun.sudoku.grid.PuzzleError: rule 1 (sandwich): lazyfun does not support this rule
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from lazyfun.sudoku import formats
from lazyfun.sudoku.geometry import BOX_OF_SIDE, cell_name
from lazyfun.sudoku.grid import Grid, MarkedGrid, PuzzleError, grid_of, is_link
from lazyfun.sudoku.variants import (
    ANTI_KING,
    ANTI_KNIGHT,
    DIAGONALS,
    NON_CONSECUTIVE,
    WINDOWS,
    Arrow,
    Cage,
    Dot,
    Extra,
    Less,
    Regions,
    Rule,
    Thermo,
    Variant,
    is_solution,
)

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "SCHEMA",
    "dumps",
    "from_json",
    "read_puzzle",
    "read_variant",
    "to_json",
    "write_link",
]

FORMAT = "sudoku-puzzle"
FORMAT_VERSION = 1
SCHEMA = "https://silly-puppyy.github.io/pencilmark/schema/sudoku-puzzle-1.json"

_TOP = {"format", "format_version", "$schema", "meta", "board", "digits", "givens", "solution"}
_TOP_REFUSED = {
    "candidates": "given pencil marks in a variant",
    "decorations": "decorations",
    "style": "styles",
    "ext": "vendor extensions",
}
_COMMON = {"type", "id", "label", "style"}
_NEIGHBOURS = {"antiknight": ANTI_KNIGHT, "antiking": ANTI_KING, "nonconsecutive": NON_CONSECUTIVE}
_CELL = re.compile(r"[rR]([1-9]\d*)[cC]([1-9]\d*)")


# --- reading ---------------------------------------------------------------------------


def read_variant(text: str) -> Variant:
    """One variant: ``sudoku-puzzle`` JSON, an f-puzzles/SudokuPad link, or a classic
    puzzle in any of :mod:`~lazyfun.sudoku.formats` (a variant with no rules)."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            doc = json.loads(stripped)
        except json.JSONDecodeError as error:
            raise PuzzleError(
                f"not JSON: {error.msg}", line=error.lineno, column=error.colno
            ) from None
        return from_json(doc)
    if is_link(stripped):
        return _from_fpuzzles(formats.link_data(stripped))
    puzzle = formats.read(text)
    if isinstance(puzzle, MarkedGrid):
        raise PuzzleError("pencil marks in a variant are not read: give its placed cells only")
    return Variant(puzzle)


def read_puzzle(text: str) -> Grid | MarkedGrid | Variant:
    """Whatever one puzzle text is: a classic puzzle as :func:`~lazyfun.sudoku.formats.read`
    reads it, or a :class:`~lazyfun.sudoku.variants.Variant` when it is a
    ``sudoku-puzzle`` document or a link with rules (a document of the classic
    grid alone comes back as its grid).  What the commands that take either read.

    >>> read_puzzle("1..." "..1." ".1.." "...1").box
    2
    """
    stripped = text.strip()
    if stripped.startswith("{"):
        variant = read_variant(stripped)
        return variant if variant.rules else variant.grid
    if is_link(stripped):
        data = formats.link_data(stripped)
        if formats.fpuzzles_rules(data) or formats.fpuzzles_regions(data) is not None:
            return _from_fpuzzles(data)
    return formats.read(text)


def _refuse(where: str, message: str) -> PuzzleError:
    return PuzzleError(f"{where}: {message}")


class _Board:
    """Cell names on one board, read strictly."""

    def __init__(self, n: int) -> None:
        self.n = n

    def cell(self, name: object, where: str, what: str) -> int:
        match = _CELL.fullmatch(name) if isinstance(name, str) else None
        if not match:
            raise _refuse(where, f"field {what}: {name!r} is not a cell name such as r1c1")
        r, c = int(match.group(1)), int(match.group(2))
        if r > self.n or c > self.n:
            raise _refuse(where, f"field {what}: {name} is outside the {self.n}x{self.n} board")
        return (r - 1) * self.n + c - 1

    def cells(self, names: object, where: str, what: str = "cells") -> tuple[int, ...]:
        if not isinstance(names, list) or not names:
            raise _refuse(where, f'field {what}: a list of cell names, such as ["r1c1"]')
        return tuple(self.cell(name, where, what) for name in names)


def from_json(doc: object) -> Variant:
    """A variant from a ``sudoku-puzzle`` document (a parsed JSON object), read strictly."""
    document = _top(doc)
    n = document["digits"]
    givens = document["givens"]
    if not isinstance(givens, list) or len(givens) != n * n:
        raise PuzzleError(f"sudoku-puzzle: field givens: a list of {n * n} values")
    for k, v in enumerate(givens):
        if v is None:
            raise PuzzleError(
                f"sudoku-puzzle: field givens: {cell_name(k, n)} is not a cell (null)"
            )
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= n:
            raise PuzzleError(
                f"sudoku-puzzle: field givens: {cell_name(k, n)} holds {v!r}, not 0..{n}"
            )
    meta = document.get("meta", {})
    if not isinstance(meta, dict):
        raise PuzzleError("sudoku-puzzle: field meta: an object")
    if not isinstance(document["rules"], list):
        raise PuzzleError("sudoku-puzzle: field rules: a list of rules")
    box = BOX_OF_SIDE[n]
    rules = _rules(document["rules"], _Board(n), box)
    variant = Variant(Grid(tuple(givens), box), rules, meta)
    _check_solution(document.get("solution"), variant)
    return variant


def _top(doc: object) -> dict[str, Any]:
    """The document, once its format, version, keys and board are right."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise PuzzleError(f'not a sudoku-puzzle: "format" must be "{FORMAT}"')
    version = doc.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise PuzzleError("sudoku-puzzle: field format_version: an integer from 1")
    if version > FORMAT_VERSION:
        raise PuzzleError(
            f"sudoku-puzzle: format_version {version} is newer than lazyfun reads (1)"
        )
    for key in doc:
        if key in _TOP_REFUSED:
            raise PuzzleError(f"sudoku-puzzle: field {key}: {_TOP_REFUSED[key]} are not supported")
        if key not in _TOP | {"rules"}:
            raise PuzzleError(f"sudoku-puzzle: unknown key {key!r}")
    for key in ("board", "digits", "givens", "rules"):
        if key not in doc:
            raise PuzzleError(f"sudoku-puzzle: field {key} is missing")
    n = doc["digits"]
    if doc["board"] != {"rows": n, "cols": n} or n not in BOX_OF_SIDE:
        raise PuzzleError(
            "sudoku-puzzle: field board: lazyfun reads square boards of 4, 9, 16 or 25 "
            f"digits, rows = cols = digits (here {doc['board']!r}, digits {n!r})"
        )
    return doc


def _rules(stated: list[Any], board: _Board, box: int) -> tuple[Rule, ...]:
    """The variant's rules from a document's rule list (the grid rule among them)."""
    n = board.n
    boxes: list[tuple[int, ...]] = []
    extras: list[Extra] = []
    rules: list[Rule] = []
    grids: list[str] = []
    for i, rule in enumerate(stated):
        kind, where = _kind(rule, i)
        if kind in ("grid", "box_grid"):
            if grids:
                raise _refuse(where, "a second grid: lazyfun reads one grid")
            _grid_rule(rule, box, where)
            grids.append(kind)
        elif kind == "box":
            boxes.append(board.cells(rule.get("cells"), where))
        elif kind == "region":
            cells = board.cells(rule.get("cells"), where)
            extras.append(Extra(cells=cells, kind=str(rule.get("kind"))))
        else:
            rules.extend(_READERS[kind](rule, board, where))
    if not grids:
        raise PuzzleError('sudoku-puzzle: no "grid" or "box_grid" rule: the grid must be stated')
    if grids == ["box_grid"] and boxes:
        raise PuzzleError(
            'sudoku-puzzle: "box" regions beside a box_grid: give a "grid" for a jigsaw'
        )
    if grids == ["grid"]:
        rules.insert(0, _jigsaw(boxes, n))
    return (*_named(extras, box), *rules)


def _kind(rule: object, i: int) -> tuple[str, str]:
    """A rule's type, and how an error names it (``rule 3 (cage)``); its keys checked."""
    kind = rule.get("type") if isinstance(rule, dict) else None
    if not isinstance(rule, dict) or not isinstance(kind, str):
        raise PuzzleError(f"rule {i}: an object with a type")
    where = f"rule {i} ({kind})"
    keys = _KEYS.get(kind)
    if keys is None:
        raise PuzzleError(f"{where}: lazyfun does not support this rule")
    for key in rule:
        if key not in keys | _COMMON:
            raise _refuse(where, f"unknown key {key!r}")
    return kind, where


def _grid_rule(rule: dict[str, Any], box: int, where: str) -> None:
    if rule.get("origin") != "r1c1":
        raise _refuse(where, "field origin: lazyfun reads one grid, at r1c1")
    if rule["type"] == "box_grid" and rule.get("box") != [box, box]:
        raise _refuse(where, f"field box: lazyfun's boxes are square: [{box}, {box}]")


def _jigsaw(boxes: list[tuple[int, ...]], n: int) -> Regions:
    """The region map a ``grid`` rule's ``box`` regions make."""
    regions = [-1] * (n * n)
    for k, cells in enumerate(boxes):
        for cell in cells:
            if regions[cell] >= 0:
                raise PuzzleError(f"box regions: {cell_name(cell, n)} is in two of them")
            regions[cell] = k
    if len(boxes) != n or -1 in regions:
        raise PuzzleError(f"box regions: a grid needs {n} of them, covering every cell")
    return Regions(regions=tuple(regions))


def _named(extras: list[Extra], box: int) -> list[Rule]:
    """Extra regions, with the X's two diagonals and windoku's windows by their names."""
    have = {e.cells for e in extras}
    named: list[Rule] = []
    for rule in (DIAGONALS, WINDOWS):
        units = set(rule.units(box))
        if units <= have:
            named.append(rule)
            have -= units
    return named + [e for e in extras if e.cells in have]


def _cage(rule: dict[str, Any], board: _Board, where: str) -> list[Rule]:
    total = rule.get("sum")
    if total is not None and (not isinstance(total, int) or isinstance(total, bool)):
        raise _refuse(where, "field sum: an integer")
    cage = Cage(cells=board.cells(rule.get("cells"), where), total=total)
    return [_checked(cage, board, where)]


def _line(rule: dict[str, Any], board: _Board, where: str) -> list[Rule]:
    if rule.get("kind") != "thermo":
        raise _refuse(where, f"field kind: the {rule.get('kind')} line is not supported")
    return [_checked(Thermo(cells=board.cells(rule.get("cells"), where)), board, where)]


def _arrow(rule: dict[str, Any], board: _Board, where: str) -> list[Rule]:
    bulb = board.cells(rule.get("bulb"), where, "bulb")
    if len(bulb) != 1:
        raise _refuse(
            where, "field bulb: arrows with a bulb of more than one cell are not supported"
        )
    shafts = rule.get("lines")
    if not isinstance(shafts, list) or not shafts:
        raise _refuse(where, "field lines: a list of shafts")
    return [
        _checked(Arrow(circle=bulb[0], shaft=board.cells(shaft, where, "lines")), board, where)
        for shaft in shafts
    ]


def _edge(rule: dict[str, Any], board: _Board, where: str) -> list[Rule]:
    cells = board.cells(rule.get("cells"), where)
    kind = rule.get("kind")
    if kind == "kropki":
        return [_checked(Dot(cells=cells, color=str(rule.get("color"))), board, where)]
    if kind == "less":
        return [_checked(Less(cells=cells), board, where)]
    raise _refuse(where, f"field kind: the {kind} edge is not supported")


def _neighbours(rule: dict[str, Any], board: _Board, where: str) -> list[Rule]:
    kind = rule.get("kind")
    if kind not in _NEIGHBOURS:
        raise _refuse(where, f"field kind: {kind!r} is not supported")
    return [_NEIGHBOURS[kind]]


def _checked(rule: Rule, board: _Board, where: str) -> Rule:
    """The rule, if it fits the board; else its refusal, naming where it is in the file."""
    try:
        rule.check(BOX_OF_SIDE[board.n])
    except PuzzleError as error:
        raise _refuse(where, error.message) from None
    return rule


_KEYS = {
    "grid": {"origin"},
    "box_grid": {"origin", "box"},
    "box": {"cells"},
    "region": {"kind", "cells"},
    "cage": {"cells", "sum"},
    "line": {"kind", "cells"},
    "arrow": {"bulb", "lines"},
    "edge": {"kind", "cells", "color"},
    "neighbours": {"kind"},
}
"""The rule types lazyfun reads, with the keys each may have."""

_Reader = Callable[[dict[str, Any], _Board, str], list[Rule]]
_READERS: dict[str, _Reader] = {
    "cage": _cage,
    "line": _line,
    "arrow": _arrow,
    "edge": _edge,
    "neighbours": _neighbours,
}


def _check_solution(solution: object, variant: Variant) -> None:
    """A document's ``solution``, if it has one, must solve the variant."""
    if solution is None:
        return
    n = variant.grid.size
    if (
        not isinstance(solution, list)
        or len(solution) != n * n
        or not all(isinstance(v, int) and 1 <= v <= n for v in solution)
        or not is_solution(variant, Grid(tuple(solution), variant.grid.box))
    ):
        raise PuzzleError("sudoku-puzzle: field solution: not a solution of the puzzle")


# --- writing ---------------------------------------------------------------------------


def to_json(variant: Variant, solution: Grid | None = None) -> dict[str, Any]:
    """The variant as a ``sudoku-puzzle`` document, every rule stated (its meta kept)."""
    grid = variant.grid
    n, box = grid.size, grid.box

    def names(cells: tuple[int, ...]) -> list[str]:
        return [cell_name(c, n) for c in cells]

    rules: list[dict[str, Any]] = []
    jigsaw = [r for r in variant.rules if isinstance(r, Regions)]
    if jigsaw:
        rules.append({"type": "grid", "origin": "r1c1"})
        rules.extend({"type": "box", "cells": names(u)} for u in jigsaw[0].units(box))
    else:
        rules.append({"type": "box_grid", "origin": "r1c1", "box": [box, box]})
    for rule in variant.rules:
        rules.extend(_rule_json(rule, box, names))
    doc: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "board": {"rows": n, "cols": n},
        "digits": n,
        "givens": list(grid.cells),
        "rules": rules,
    }
    if solution is not None:
        doc["solution"] = list(solution.cells)
    if variant.meta:
        doc["meta"] = dict(variant.meta)
    return doc


def _rule_json(
    rule: Rule, box: int, names: Callable[[tuple[int, ...]], list[str]]
) -> list[dict[str, Any]]:
    """A rule's entries in a document's rule list."""
    if rule in (DIAGONALS, WINDOWS):
        kind = "diagonal" if rule == DIAGONALS else "window"
        return [{"type": "region", "kind": kind, "cells": names(u)} for u in rule.units(box)]
    if isinstance(rule, Extra):
        return [{"type": "region", "kind": rule.kind, "cells": names(rule.cells)}]
    if isinstance(rule, Cage):
        cage: dict[str, Any] = {"type": "cage", "cells": names(rule.cells)}
        return [cage if rule.total is None else {**cage, "sum": rule.total}]
    if isinstance(rule, Thermo):
        return [{"type": "line", "kind": "thermo", "cells": names(rule.cells)}]
    if isinstance(rule, Arrow):
        return [{"type": "arrow", "bulb": names((rule.circle,)), "lines": [names(rule.shaft)]}]
    if isinstance(rule, Dot):
        return [{"type": "edge", "kind": "kropki", "color": rule.color, "cells": names(rule.cells)}]
    if isinstance(rule, Less):
        return [{"type": "edge", "kind": "less", "cells": names(rule.cells)}]
    if isinstance(rule, Regions):
        return []
    return [{"type": "neighbours", "kind": rule.name.replace("-", "")}]


def dumps(doc: Mapping[str, Any]) -> str:
    """A document as one line of JSON (how ``generate --variant`` writes them)."""
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


# --- f-puzzles links ---------------------------------------------------------------------

_FP_HANDLED = {"diagonal+", "diagonal-", "antiknight", "antiking", "nonconsecutive"}
_FP_LISTS = {"killercage", "thermometer", "arrow", "difference", "ratio", "extraregion"}


def _from_fpuzzles(data: dict[str, Any]) -> Variant:
    """A variant from an f-puzzles puzzle's JSON: its grid (through the classic reader),
    regions and rules; any rule lazyfun does not support is refused by name."""
    others = formats.fpuzzles_rules(data, _FP_HANDLED | _FP_LISTS)
    if others:
        raise PuzzleError(f"a puzzle with {', '.join(others)}: lazyfun does not support it")
    puzzle = formats.fpuzzles_grid(data)
    if isinstance(puzzle, MarkedGrid):
        raise PuzzleError("pencil marks in a variant link are not read: clear them and share again")
    board = _Board(puzzle.size)
    rules: list[Rule] = []
    regions = formats.fpuzzles_regions(data)
    if regions is not None:
        rules.append(_checked(Regions(regions=regions), board, "the link's regions"))
    diagonals = (bool(data.get("diagonal-")), bool(data.get("diagonal+")))
    if all(diagonals):
        rules.append(DIAGONALS)
    elif any(diagonals):
        main = DIAGONALS.units(puzzle.box)[diagonals.index(True)]
        rules.append(Extra(cells=main, kind="diagonal"))
    rules.extend(
        _NEIGHBOURS[k] for k in ("antiknight", "antiking", "nonconsecutive") if data.get(k)
    )
    extras = [Extra(cells=_fp_cells(e, board, "extraregion")) for e in _items(data, "extraregion")]
    rules.extend(_named(extras, puzzle.box))
    rules.extend(_fp_shapes(data, board))
    return Variant(grid_of(puzzle), tuple(rules), _fp_meta(data))


def _fp_shapes(data: dict[str, Any], board: _Board) -> list[Rule]:
    """An f-puzzles puzzle's cages, thermometers, arrows and dots."""
    rules: list[Rule] = []
    for item in _items(data, "killercage"):
        value = str(item.get("value", "")).strip()
        cage = Cage(
            cells=_fp_cells(item, board, "killercage"),
            total=int(value) if value.isdigit() else None,
        )
        rules.append(_checked(cage, board, "killercage"))
    for item in _items(data, "thermometer"):
        rules.extend(
            _checked(Thermo(cells=line), board, "thermometer")
            for line in _fp_lines(item, board, "thermometer")
        )
    for item in _items(data, "arrow"):
        circle = _fp_cells(item, board, "arrow")
        if len(circle) != 1:
            raise PuzzleError("arrow: arrows with a bulb of more than one cell are not supported")
        for line in _fp_lines(item, board, "arrow"):
            shaft = tuple(c for c in line if c != circle[0])
            rules.append(_checked(Arrow(circle=circle[0], shaft=shaft), board, "arrow"))
    for key, color, default in (("difference", "white", 1), ("ratio", "black", 2)):
        for item in _items(data, key):
            if str(item.get("value") or default) != str(default):
                raise PuzzleError(f"{key}: a dot with value {item.get('value')} is not supported")
            dot = Dot(cells=_fp_cells(item, board, key), color=color)
            rules.append(_checked(dot, board, key))
    return rules


def _items(data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    items = data.get(key) or []
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise PuzzleError(f"{key}: a list of objects")
    return items


def _fp_cells(item: dict[str, Any], board: _Board, key: str) -> tuple[int, ...]:
    return board.cells(item.get("cells"), key)


def _fp_lines(item: dict[str, Any], board: _Board, key: str) -> list[tuple[int, ...]]:
    lines = item.get("lines")
    if not isinstance(lines, list) or not lines:
        raise PuzzleError(f"{key}: field lines: a list of lines")
    return [board.cells(line, key, "lines") for line in lines]


def _fp_meta(data: dict[str, Any]) -> dict[str, object]:
    return {k: data[k] for k in ("title", "author", "ruleset") if data.get(k)}


def write_link(variant: Variant) -> str:
    """An f-puzzles link to the variant (opens in the browser, or in SudokuPad).

    Refused for a rule f-puzzles cannot draw (greater-than signs) and past 16x16.
    """
    from lzstring import LZString

    grid = variant.grid
    n = grid.size
    if grid.box > 4:
        raise PuzzleError("f-puzzles draws grids up to 16x16: no link for a 25x25 grid")

    def names(cells: tuple[int, ...]) -> list[str]:
        return [cell_name(c, n).upper() for c in cells]

    regions = next((r.regions for r in variant.rules if isinstance(r, Regions)), None)
    rows = []
    for r in range(n):
        row: list[dict[str, Any]] = []
        for c in range(n):
            square: dict[str, Any] = {}
            if grid.cells[r * n + c]:
                square = {"value": grid.cells[r * n + c], "given": True}
            if regions is not None:
                square["region"] = regions[r * n + c]
            row.append(square)
        rows.append(row)
    data: dict[str, Any] = {"size": n, "grid": rows, **variant.meta}
    for rule in variant.rules:
        _rule_fpuzzles(rule, data, grid.box, names)
    payload: str = LZString.compressToBase64(json.dumps(data, separators=(",", ":")))
    return formats.FPUZZLES + payload


def _rule_fpuzzles(
    rule: Rule, data: dict[str, Any], box: int, names: Callable[[tuple[int, ...]], list[str]]
) -> None:
    """Add a rule to an f-puzzles puzzle's JSON."""

    def add(key: str, item: dict[str, Any]) -> None:
        data.setdefault(key, []).append(item)

    if rule == DIAGONALS:
        data["diagonal+"] = data["diagonal-"] = True
    elif rule in (ANTI_KNIGHT, ANTI_KING, NON_CONSECUTIVE):
        data[rule.name.replace("-", "")] = True
    elif rule == WINDOWS:
        for unit in rule.units(box):
            add("extraregion", {"cells": names(unit)})
    elif isinstance(rule, Extra):
        add("extraregion", {"cells": names(rule.cells)})
    elif isinstance(rule, Cage):
        add(
            "killercage",
            {
                "cells": names(rule.cells),
                **({} if rule.total is None else {"value": str(rule.total)}),
            },
        )
    elif isinstance(rule, Thermo):
        add("thermometer", {"lines": [names(rule.cells)]})
    elif isinstance(rule, Arrow):
        add("arrow", {"cells": names((rule.circle,)), "lines": [names((rule.circle, *rule.shaft))]})
    elif isinstance(rule, Dot):
        add("difference" if rule.color == "white" else "ratio", {"cells": names(rule.cells)})
    elif isinstance(rule, Less):
        raise PuzzleError("f-puzzles has no greater-than signs: no link for this variant")
