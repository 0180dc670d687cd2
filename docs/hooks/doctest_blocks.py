"""A mkdocs hook: show docstring examples (``>>>`` blocks) as Python console code.

Docstrings in lazyfun carry their examples as plain doctest blocks, which
Markdown would read as text (a result such as ``[(1, 4), (2, 3)]`` even looks
like a link).  This preprocessor fences each unfenced block, from its first
``>>>`` line to the next blank line, as ``pycon`` code.
"""

from __future__ import annotations

from typing import Any

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor


class DoctestBlocks(Preprocessor):
    """Wrap each doctest block that is not already in a fence."""

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        fenced = in_block = False
        for line in lines:
            stripped = line.strip()
            if not in_block and stripped.startswith("```"):
                fenced = not fenced
            if not fenced and not in_block and stripped.startswith(">>>"):
                in_block = True
                out += ["", "```pycon"]
            elif in_block and not stripped:
                in_block = False
                out.append("```")
            out.append(line)
        if in_block:
            out.append("```")
        return out


class DoctestBlocksExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        md.preprocessors.register(DoctestBlocks(md), "doctest_blocks", 27)


def on_config(config: Any) -> Any:
    config["markdown_extensions"].append(DoctestBlocksExtension())
    return config
