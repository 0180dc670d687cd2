"""The search tree picture: built nodes are the probe's, inside the eager tree."""

from __future__ import annotations

from xml.etree import ElementTree as ET

import pytest

from lazyfun.eager import Work, queens_flatmap
from lazyfun.study.sudoku import blanked
from lazyfun.study.tree import _leaves, queens_tree, sudoku_tree, tree_svg
from lazyfun.sudoku.bird import choices, count_candidates


@pytest.mark.parametrize(("n", "k"), [(4, 1), (6, 2), (8, 1), (8, 92)])
def test_queens_tree_is_the_eager_tree_with_the_probes_built_nodes(n: int, k: int) -> None:
    tree = queens_tree(n, k)
    work = Work()
    queens_flatmap(n, n, work)
    assert len(tree.depth) - 1 == tree.eager_nodes == work.candidates
    assert tree.built == tree.probe_count
    assert tree.kind.count("solution") == tree.found == k
    assert tree.kind.count("rejected") + tree.kind.count("never built") + tree.built == (
        tree.eager_nodes
    )


def test_asking_for_more_than_there_are_builds_every_safe_node() -> None:
    assert queens_tree(6, 4).kind.count("never built") > 0  # stops at the 4th and last
    tree = queens_tree(6, 5)  # 6 queens has 4 placements: the search runs to the end
    assert tree.found == 4
    assert tree.kind.count("never built") == 0


def test_sudoku_tree_counts_candidates_like_expand() -> None:
    grid = blanked(3)
    tree = sudoku_tree(grid, 1)
    assert tree.kind.count("solution") == tree.found == 1
    leaves = sum(1 for d in tree.depth if d == max(tree.depth))
    assert leaves == count_candidates(choices(grid.rows))
    reached_leaves = [k for d, k in zip(tree.depth, tree.kind, strict=True) if d == max(tree.depth)]
    assert sum(1 for k in reached_leaves if k != "never built") == tree.probe_count


def test_too_big_a_tree_is_refused_at_once() -> None:
    with pytest.raises(ValueError, match="nodes; drawing stops at"):
        queens_tree(11)
    with pytest.raises(ValueError, match="blank cells has"):
        sudoku_tree(blanked(6))


def test_leaves_of_a_preorder_tree() -> None:
    #   0
    #  1   4
    # 2 3
    assert _leaves((0, 1, 2, 2, 1)) == [3, 2, 1, 1, 1]


def test_the_picture_states_the_counts_and_stays_small() -> None:
    tree = queens_tree(8, 1)
    svg = tree_svg(tree)
    root = ET.fromstring(svg)
    assert f"built {tree.built:,} of the {tree.eager_nodes:,} nodes" in svg
    shapes = sum(1 for _ in root.iter("{http://www.w3.org/2000/svg}rect"))
    assert shapes < 8000 < tree.eager_nodes
