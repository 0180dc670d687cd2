"""SVG documents as strings: the little that every picture needs, escaped in one place.

The programs draw their own objects (``lazyfun.sudoku.svg``,
``lazyfun.queens.svg``) and the study draws the search tree; all of them
write elements through :class:`Svg`, which escapes every text and attribute
value (a title read from a file cannot break the document) and joins the
parts once.  Attribute names are written in Python style (``font_size``,
``class_``) and come out in SVG's (``font-size``, ``class``); numbers get at
most two decimals.  Plain strings rather than ``xml.etree``: serialising an
element tree cost more than drawing the grid (a 9x9 grid with its digits
took 1.2 ms to serialise alone); the tests parse every picture back as XML.

>>> svg = Svg(40, 20, title="a <b>")
>>> svg.add("rect", x=0, y=0, width=40, height=20.5, class_="box")
>>> print(svg.close())  # doctest: +NORMALIZE_WHITESPACE
<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20" role="img"
font-family="Helvetica, Arial, sans-serif"><title>a &lt;b&gt;</title><rect x="0" y="0"
width="40" height="20.5" class="box"/></svg>
"""

from __future__ import annotations

__all__ = ["Fragment", "Svg", "attributes"]

# xml.sax.saxutils's escape and quoteattr, written out: importing it loads urllib.request,
# http.client and ssl, more than a command's start-up takes otherwise.
_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_ATTRIBUTE = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}
)


def escape(text: str) -> str:
    """``text`` with ``&``, ``<`` and ``>`` escaped (as ``xml.sax.saxutils.escape``).

    >>> escape("a < b & c")
    'a &lt; b &amp; c'
    """
    return text.translate(_TEXT)


def quoteattr(value: str) -> str:
    """``value`` escaped and quoted as an attribute value, in single quotes if it holds
    double quotes and no single quote (as ``xml.sax.saxutils.quoteattr``).

    >>> both = "it's " + '"x"'
    >>> print(quoteattr("1 < 2"), quoteattr('say "a"'), quoteattr(both))
    "1 &lt; 2" 'say "a"' "it's &quot;x&quot;"
    """
    value = value.translate(_ATTRIBUTE)
    if '"' not in value:
        return f'"{value}"'
    if "'" not in value:
        return f"'{value}'"
    return '"' + value.replace('"', "&quot;") + '"'


def _value(value: str | float) -> str:
    if isinstance(value, str):
        return quoteattr(value)
    if isinstance(value, int):
        return f'"{value}"'
    return '"' + f"{value:.2f}".rstrip("0").rstrip(".") + '"'


def attributes(**values: str | float) -> str:
    """``name="value"`` pairs, escaped, with Python-style names turned into SVG's.

    >>> attributes(font_size=12, class_='a "b"')
    'font-size="12" class=\\'a "b"\\''
    """
    return " ".join(
        f"{name.rstrip('_').replace('_', '-')}={_value(v)}" for name, v in values.items()
    )


class Fragment:
    """Elements written in drawing order, to be placed in a document (or cached and
    placed in many: a grid's lines are the same for every grid of its size)."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, tag: str, text: str | None = None, **values: str | float) -> None:
        """One element; ``text`` (escaped) goes inside it."""
        opening = f"{tag} {attributes(**values)}" if values else tag
        if text is None:
            self.parts.append(f"<{opening}/>")
        else:
            self.parts.append(f"<{opening}>{escape(text)}</{tag}>")

    def place(self, fragment: Fragment) -> None:
        """Every element of ``fragment``, here."""
        self.parts.extend(fragment.parts)


class Svg(Fragment):
    """An SVG document being written: ``add`` elements in drawing order, then ``close``."""

    def __init__(
        self,
        width: float,
        height: float,
        *,
        title: str | None = None,
        left: float = 0,
        top: float = 0,
    ) -> None:
        super().__init__()
        box = " ".join(_value(v).strip('"') for v in (left, top, width, height))
        head = attributes(
            xmlns="http://www.w3.org/2000/svg",
            width=width,
            height=height,
            viewBox=box,
            role="img",
            font_family="Helvetica, Arial, sans-serif",
        )
        self.parts.append(f"<svg {head}>")
        if title:
            self.parts.append(f"<title>{escape(title)}</title>")

    def close(self) -> str:
        """The finished document."""
        self.parts.append("</svg>")
        return "".join(self.parts)
