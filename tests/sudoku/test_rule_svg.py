"""A variant's rules in its pictures: every cage, thermometer, arrow, dot, sign and region."""

from __future__ import annotations

from collections import Counter
from xml.etree import ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.sudoku import parse
from lazyfun.sudoku.steps.deduction import walkthrough
from lazyfun.sudoku.svg import grid_svg, position_svg
from lazyfun.sudoku.variants import (
    ANTI_KNIGHT,
    DIAGONALS,
    NON_CONSECUTIVE,
    WINDOWS,
    Arrow,
    Cage,
    Dot,
    GreaterThan,
    Regions,
    Thermo,
    Variant,
)
from lazyfun.sudoku.variants.exchange import read_variant
from tests.budget import examples
from tests.datafiles import DATA

NS = "{http://www.w3.org/2000/svg}"
EMPTY9 = parse("." * 81)


def _classed(svg: str, tag: str, *classes: str) -> list[ET.Element]:
    root = ET.fromstring(svg)  # well-formed, or this raises
    return [e for e in root.iter(NS + tag) if set(classes) <= set(e.get("class", "").split())]


def _first(kind: str) -> Variant:
    line = (DATA / "variants" / f"{kind}.jsonl").read_text().splitlines()[0]
    return read_variant(line)


def test_each_killer_cage_has_its_sum_and_a_closed_outline() -> None:
    variant = _first("killer")
    svg = grid_svg(variant)
    cages = [r for r in variant.rules if isinstance(r, Cage)]
    sums = _classed(svg, "text", "rule", "cage", "sum")
    assert sorted(int(e.text or "") for e in sums) == sorted(c.total or 0 for c in cages)
    assert len(_classed(svg, "line", "rule", "cage")) >= 4 * len(cages)


@st.composite
def _shapes(draw: st.DrawFn) -> tuple[int, ...]:
    """A connected group of cells of a 9x9 board, grown one side at a time."""
    cells = [draw(st.integers(0, 80))]
    for _ in range(draw(st.integers(0, 8))):
        near = [
            c + d
            for c in cells
            for d in (1, -1, 9, -9)
            if 0 <= c + d < 81 and (abs(d) == 9 or (c + d) // 9 == c // 9) and c + d not in cells
        ]
        cells.append(draw(st.sampled_from(near)))
    return tuple(cells)


@settings(max_examples=examples(150), deadline=None)
@given(_shapes())
def test_a_cage_outline_is_closed_whatever_its_shape(cells: tuple[int, ...]) -> None:
    """Every corner of the dashed outline ends two of its segments: no gap, no overhang."""
    svg = grid_svg(Variant(EMPTY9, (Cage(cells=cells, total=None),)))
    ends: Counter[tuple[str, str]] = Counter()
    for line in _classed(svg, "line", "rule", "cage"):
        ends[line.get("x1", ""), line.get("y1", "")] += 1
        ends[line.get("x2", ""), line.get("y2", "")] += 1
    assert ends and all(k % 2 == 0 for k in ends.values())


def test_thermometers_arrows_dots_and_signs_are_drawn_where_they_are() -> None:
    rules = (
        Thermo(cells=(0, 1, 2)),
        Arrow(circle=40, shaft=(41, 42)),
        Dot(cells=(60, 61), color="white"),
        Dot(cells=(62, 71), color="black"),
        GreaterThan(cells=(78, 77)),
        GreaterThan(cells=(54, 63)),
    )
    svg = grid_svg(Variant(EMPTY9, rules))
    (bulb,) = _classed(svg, "circle", "rule", "thermo")
    assert (bulb.get("cx"), bulb.get("cy")) == ("20", "20")
    (circle,) = _classed(svg, "circle", "rule", "arrow")
    assert (circle.get("cx"), circle.get("cy")) == ("180", "180")
    assert len(_classed(svg, "polyline", "rule", "arrow")) == 2  # the shaft and its head
    (white,) = _classed(svg, "circle", "dot", "white")
    (black,) = _classed(svg, "circle", "dot", "black")
    assert (white.get("cx"), white.get("cy")) == ("280", "260")  # between r7c7 and r7c8
    assert (black.get("cx"), black.get("cy")) == ("340", "280")  # between r7c9 and r8c9
    assert [e.text for e in _classed(svg, "text", "sign")] == [">", "\u2227"]


def test_regions_windows_and_diagonals_are_drawn_and_jigsaw_lines_follow_the_regions() -> None:
    windoku = grid_svg(Variant(EMPTY9, (WINDOWS,)))
    assert len(_classed(windoku, "rect", "rule", "windoku")) == 36
    assert len(_classed(grid_svg(Variant(EMPTY9, (DIAGONALS,))), "line", "rule", "x")) == 2
    jigsaw = _first("jigsaw")
    (regions,) = [r for r in jigsaw.rules if isinstance(r, Regions)]
    svg = grid_svg(jigsaw)
    thick = [e for e in ET.fromstring(svg).iter(NS + "line") if e.get("stroke-width") == "2.5"]
    of = regions.regions
    borders = sum(
        (c % 9 < 8 and of[c] != of[c + 1]) + (c < 72 and of[c] != of[c + 9]) for c in range(81)
    )
    assert len(thick) == borders


def test_rules_of_the_whole_grid_are_named_under_it() -> None:
    svg = grid_svg(Variant(EMPTY9, (ANTI_KNIGHT, NON_CONSECUTIVE, DIAGONALS)))
    texts = [e.text for e in ET.fromstring(svg).iter(NS + "text")]
    assert "anti-knight, non-consecutive" in texts
    assert ET.fromstring(svg).get("height") == str(9 * 40 + 2 + 28)


def test_a_step_of_a_variant_shades_the_rule_it_rests_on() -> None:
    variant = _first("killer")
    position = next(p for p in walkthrough(variant) if p.step.technique == "cage combination")
    svg = position_svg(position)
    rests = {int(e.get("data-cell", "-1")) for e in _classed(svg, "rect", "cell", "rests")}
    assert rests == set(position.step.cells)
    assert "cage combination: a variant's rule, read alone" in svg
    assert _classed(svg, "text", "rule", "cage", "sum")


def test_a_step_over_a_jigsaw_region_shades_that_region() -> None:
    variant = _first("jigsaw")
    position = next(
        p for p in walkthrough(variant) if any(u.startswith("region") for u in p.step.units)
    )
    svg = position_svg(position)
    shaded = {int(e.get("data-cell", "-1")) for e in _classed(svg, "rect", "cell")}
    unit = variant.units[variant.unit_names.index(position.step.units[0])]
    assert set(unit) <= shaded
