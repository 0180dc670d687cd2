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
lazyfun.sudoku.board.grid.PuzzleError: rule 1 (sandwich): lazyfun does not support this rule
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from lazyfun.sudoku.board import formats, links
from lazyfun.sudoku.board.formats import is_link, without_bom
from lazyfun.sudoku.board.geometry import BOX_OF_SIDE, cell_name
from lazyfun.sudoku.board.grid import Grid, MarkedGrid, PuzzleError, grid_of
from lazyfun.sudoku.variants.rule import FORMATS, Board, Rule, checked
from lazyfun.sudoku.variants.units import Extra, Regions, named_regions
from lazyfun.sudoku.variants.variant import Variant, is_solution

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
_GRID_KEYS = {"grid": {"origin"}, "box_grid": {"origin", "box"}, "box": {"cells"}}


# --- reading ---------------------------------------------------------------------------


def read_variant(text: str) -> Variant:
    """One variant: ``sudoku-puzzle`` JSON, an f-puzzles/SudokuPad link, or a classic
    puzzle in any of :mod:`~lazyfun.sudoku.board.formats` (a variant with no rules).
    A byte-order mark before it is skipped."""
    stripped = without_bom(text).strip()
    if stripped.startswith("{"):
        try:
            doc = json.loads(stripped)
        except json.JSONDecodeError as error:
            raise PuzzleError(
                f"not JSON: {error.msg}", line=error.lineno, column=error.colno
            ) from None
        except RecursionError:
            raise PuzzleError("not JSON that reads: nested too deeply") from None
        return from_json(doc)
    if is_link(stripped):
        return _from_fpuzzles(links.link_data(stripped))
    puzzle = formats.read(text)
    if isinstance(puzzle, MarkedGrid):
        raise PuzzleError("pencil marks in a variant are not read: give its placed cells only")
    return Variant(puzzle)


def read_puzzle(text: str) -> Grid | MarkedGrid | Variant:
    """Whatever one puzzle text is: a classic puzzle as :func:`~lazyfun.sudoku.board.formats.read`
    reads it, or a :class:`~lazyfun.sudoku.variants.Variant` when it is a
    ``sudoku-puzzle`` document or a link with rules (a document of the classic
    grid alone comes back as its grid).  What the commands that take either read.

    >>> read_puzzle("1..." "..1." ".1.." "...1").box
    2
    """
    stripped = without_bom(text).strip()
    if stripped.startswith("{"):
        variant = read_variant(stripped)
        return variant if variant.rules else variant.grid
    if is_link(stripped):
        data = links.link_data(stripped)  # decoded once, whichever it is
        if links.fpuzzles_rules(data) or links.fpuzzles_regions(data) is not None:
            return _from_fpuzzles(data)
        return links.fpuzzles_grid(data)
    return formats.read(text)


def _refuse(where: str, message: str) -> PuzzleError:
    return PuzzleError(f"{where}: {message}")


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
    rules = _rules(document["rules"], Board(n), box)
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


def _rules(stated: list[Any], board: Board, box: int) -> tuple[Rule, ...]:
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
        else:
            for read in FORMATS[kind].read_json(rule, board, where):
                if isinstance(read, Extra):
                    extras.append(read)
                else:
                    rules.append(read)
    if not grids:
        raise PuzzleError('sudoku-puzzle: no "grid" or "box_grid" rule: the grid must be stated')
    if grids == ["box_grid"] and boxes:
        raise PuzzleError(
            'sudoku-puzzle: "box" regions beside a box_grid: give a "grid" for a jigsaw'
        )
    if grids == ["grid"]:
        rules.insert(0, Regions.of_boxes(boxes, n))
    return (*named_regions(extras, box), *rules)


def _kind(rule: object, i: int) -> tuple[str, str]:
    """A rule's type, and how an error names it (``rule 3 (cage)``); its keys checked."""
    kind = rule.get("type") if isinstance(rule, dict) else None
    if not isinstance(rule, dict) or not isinstance(kind, str):
        raise PuzzleError(f"rule {i}: an object with a type")
    where = f"rule {i} ({kind})"
    keys = _GRID_KEYS.get(kind) or (FORMATS[kind].keys if kind in FORMATS else None)
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
        rules.extend(rule.to_json(box, names))
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


def dumps(doc: Mapping[str, Any]) -> str:
    """A document as one line of JSON (how ``generate --variant`` writes them)."""
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


# --- f-puzzles links ---------------------------------------------------------------------


def _from_fpuzzles(data: dict[str, Any]) -> Variant:
    """A variant from an f-puzzles puzzle's JSON: its grid (through the classic reader),
    regions and rules; any rule lazyfun does not support is refused by name."""
    known = {key for f in FORMATS.values() for key in f.fpuzzles_keys}
    others = links.fpuzzles_rules(data, known)
    if others:
        raise PuzzleError(f"a puzzle with {', '.join(others)}: lazyfun does not support it")
    puzzle = links.fpuzzles_grid(data)
    if isinstance(puzzle, MarkedGrid):
        raise PuzzleError("pencil marks in a variant link are not read: clear them and share again")
    board = Board(puzzle.size)
    rules: list[Rule] = []
    regions = links.fpuzzles_regions(data)
    if regions is not None:
        rules.append(checked(Regions(regions=regions), board, "the link's regions"))
    for form in FORMATS.values():
        if form.read_fpuzzles is not None:
            rules.extend(form.read_fpuzzles(data, board))
    return Variant(grid_of(puzzle), tuple(rules), _fp_meta(data))


def _fp_meta(data: dict[str, Any]) -> dict[str, object]:
    return {k: data[k] for k in ("title", "author", "ruleset") if data.get(k)}


def write_link(variant: Variant) -> str:
    """An f-puzzles link to the variant (opens in the browser, or in SudokuPad).

    Refused for a rule f-puzzles cannot draw (greater-than signs) and past 16x16.
    """
    grid = variant.grid
    n = grid.size
    if grid.box > 4:
        raise PuzzleError("f-puzzles draws grids up to 16x16: no link for a 25x25 grid")

    def names(cells: tuple[int, ...]) -> list[str]:
        return [cell_name(c, n).upper() for c in cells]

    rows = [
        [{"value": v, "given": True} if v else {} for v in grid.cells[r * n : (r + 1) * n]]
        for r in range(n)
    ]
    data: dict[str, Any] = {"size": n, "grid": rows, **variant.meta}
    for rule in variant.rules:
        rule.to_fpuzzles(data, grid.box, names)
    return links.fpuzzles_link(data)
