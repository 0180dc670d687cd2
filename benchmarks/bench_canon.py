"""Minlex canonical forms: puzzles per second on one core, against the exhaustive specification."""

from __future__ import annotations

from benchmarks.common import data_file, lines, report, time_each, verdict
from benchmarks.peers import minlex_exhaustive
from lazyfun.sudoku import parse
from lazyfun.sudoku.canon import minlex

# The C++ reference (kaityo256/minlex) on this machine, quoted by the issue for scale.
REFERENCE = {"17-clue": 1100, "hard": 3800, "full": 54}


def _ours(line: str) -> str:
    return str(minlex(parse(line)))


def main() -> list[str]:
    verdicts: list[str] = []
    sets = [
        ("17-clue", "tdoku_puzzles2_17_clue.txt", None, 300),
        ("hard", "tdoku_puzzles5_forum_hardest_1905_11plus.txt", 2000, 1000),
        ("full", "solutions/tdoku_puzzles5_forum_hardest_1905_11plus.solutions.txt", 200, 50),
    ]
    for label, name, limit, target in sets:
        path = data_file(name)
        if path is None:
            continue
        grids = lines(path, limit)
        forms: set[str] = set()

        def keep(line: str, seen: set[str] = forms) -> None:
            seen.add(_ours(line))

        ours = time_each("lazyfun minlex", grids, keep)
        memory = time_each("lazyfun minlex (traced)", grids[:200], _ours, memory=True)
        spec: list[str] = []

        def exhaustive(line: str, out: list[str] = spec) -> None:
            out.append(minlex_exhaustive(line))

        peer = time_each("exhaustive (spec), 1 grid", grids[:1], exhaustive)
        assert spec == [_ours(grids[0])], "minlex disagrees with the specification"
        report(f"minlex on {name}: {len(grids)} grids", [ours, memory, peer])
        print(f"  C++ reference (quoted, not run here): {REFERENCE[label]}/s")
        verdicts.append(
            verdict(
                f"minlex at least {target}/s on {label} ({len(grids)} grids)",
                ours.rate >= target,
                f"{ours.rate:.0f}/s, {ours.rate / peer.rate:.0f}x the exhaustive spec, "
                f"{ours.rate / REFERENCE[label]:.2f}x the quoted C++ rate",
            )
        )
        if label == "17-clue":
            verdicts.append(
                verdict(
                    "the 17-clue puzzles have distinct forms",
                    len(forms) == len(grids),
                    f"{len(forms)} forms for {len(grids)} puzzles",
                )
            )
    return verdicts
