"""Each fuzz target over its seed corpus once (``make fuzz`` runs the campaign): every
seed reads, or is refused with the error its reader or engine promises, and a finding
once fixed stays in the corpus as its regression test."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

import fuzz.readers
from lazyfun.compiled import c_extension_built, c_forcing_built, c_minlex_built, c_nine_built

CORPUS = Path(__file__).resolve().parent.parent / "fuzz" / "corpus"


def _seeds(targets: Mapping[str, object]) -> list[tuple[str, Path]]:
    """Each target with each of its seeds (every target has some)."""
    seeds = [(name, seed) for name in targets for seed in sorted((CORPUS / name).iterdir())]
    assert {name for name, _ in seeds} == set(targets)
    return seeds


@pytest.mark.parametrize(("target", "seed"), _seeds(fuzz.readers.TARGETS), ids=str)
def test_each_reader_reads_its_seeds_or_refuses_them_as_promised(target: str, seed: Path) -> None:
    fuzz.readers.TARGETS[target](seed.read_bytes())


@pytest.mark.skipif(
    not (c_extension_built() and c_forcing_built() and c_nine_built() and c_minlex_built()),
    reason="the C engines are not built here",
)
def test_each_engine_takes_its_seeds_or_refuses_them_as_promised() -> None:
    import fuzz.engines

    for target, seed in _seeds(fuzz.engines.TARGETS):
        fuzz.engines.TARGETS[target](seed.read_bytes())
