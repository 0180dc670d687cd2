"""A mkdocs hook: the compiled modules and the C engines, listed from ``lazyfun.compiled``.

The home page names what installing compiles.  Typed by hand, such a list fell behind
the build (it once said two modules, when nineteen were and six engines in C); here it
is written when the site is built, from the tuples ``setup.py`` builds from:

- the marker line ``<!-- lazyfun.compiled: ... -->`` becomes the list, each module
  with what its docstring says first, read from its source (nothing is imported but
  ``lazyfun.compiled``, which imports nothing);
- ``compiled: N of N modules, C engines: M of M`` (the line ``lazyfun --version``
  prints after a full build) gets the counts.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from lazyfun.compiled import COMPILED, ENGINES

ROOT = Path(__file__).resolve().parent.parent.parent
MARKER = re.compile(r"^<!-- lazyfun\.compiled:.*-->$", re.MULTILINE)
COUNTS = "compiled: N of N modules, C engines: M of M"


def summary(name: str) -> str:
    """The first sentence of the docstring of the module ``name``, read from its source;
    empty when it has no ``.py`` (a C engine).

    >>> summary("lazyfun.search")
    'The one search skeleton every program in lazyfun instantiates.'
    """
    source = ROOT / (name.replace(".", "/") + ".py")
    if not source.exists():
        return ""
    doc = ast.get_docstring(ast.parse(source.read_text(encoding="utf-8"))) or ""
    paragraph = re.sub(r":\w+:`", "`", " ".join(doc.split("\n\n")[0].split()))
    return re.split(r"\.\s+(?=[A-Z])", paragraph)[0].rstrip(".") + "." if paragraph else ""


def listing() -> str:
    """The Markdown list: the modules compiled with mypyc, each with its summary, then
    the engines in C."""

    def item(name: str) -> str:
        line = summary(name).replace("``", "`")
        return f"- `{name}`" + (f": {line}" if line else "")

    return "\n".join(
        [
            f"{len(COMPILED)} modules compiled with mypyc (`lazyfun.compiled.COMPILED`):",
            "",
            *map(item, COMPILED),
            "",
            f"{len(ENGINES)} engines in C (`lazyfun.compiled.ENGINES`; where each runs is",
            "said in `lazyfun.compiled`):",
            "",
            *map(item, ENGINES),
        ]
    )


def fill(markdown: str) -> str:
    """``markdown`` with the marker replaced by the list and the counts filled in."""
    counts = (
        f"compiled: {len(COMPILED)} of {len(COMPILED)} modules, "
        f"C engines: {len(ENGINES)} of {len(ENGINES)}"
    )
    return MARKER.sub(lambda _: listing(), markdown).replace(COUNTS, counts)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    return fill(markdown)
