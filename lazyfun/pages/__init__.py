"""Pages, a front end: a puzzle's explanation and printable booklets, each one
self-contained HTML file (:mod:`lazyfun.pages.html`)."""

from lazyfun.pages.html import Printed, booklet, explanation_page, printed

__all__ = ["Printed", "booklet", "explanation_page", "printed"]
