"""The docs' home page: it opens with a pipeline, then the three uses, and its list of
compiled modules and engines is written from ``lazyfun.compiled`` when the site is built."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

from lazyfun.compiled import COMPILED, ENGINES

ROOT = Path(__file__).resolve().parent.parent
HOME = ROOT / "docs" / "index.md"


def _hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "compiled_list", ROOT / "docs" / "hooks" / "compiled_list.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_home_page_opens_with_a_pipeline_then_the_three_uses() -> None:
    text = HOME.read_text(encoding="utf-8")
    first_code = text.index("```python")
    assert first_code < text.index("\n## ")  # code before any section
    example = text[first_code : text.index("```\n", first_code + 9)]
    assert "stream(" in example and 8 <= example.count(">>>") + example.count("...") <= 14
    uses = text[text.index("## What it is for") : text.index("## The programs")]
    for page in ("pipelines.md", "evaluation.md", "sudoku.md", "queens.md"):
        assert f"]({page})" in uses
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    entries = re.findall(r"^  - ([^:]+):", nav[nav.index("nav:") :], re.MULTILINE)
    assert entries[:2] == ["Home", "Pipelines"]


def test_the_compiled_list_is_written_from_lazyfun_compiled_at_build() -> None:
    text = HOME.read_text(encoding="utf-8")
    assert not re.search(r"\b(two|\d+) modules\b", text)  # no count typed by hand
    built = _hook().fill(text)
    for name in (*COMPILED, *ENGINES):
        assert f"- `{name}`" in built
    assert f"{len(COMPILED)} modules compiled with mypyc" in built
    assert f"compiled: {len(COMPILED)} of {len(COMPILED)} modules" in built
    assert "<!-- lazyfun.compiled" not in built
    assert "compiled_list.py" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
