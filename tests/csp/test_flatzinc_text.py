"""FlatZinc's text into tokens: each token back with its kind and line, whatever spaces,
newlines and comments lie between (a character no token starts with is an error at its
line: ``tests/csp/test_flatzinc.py``'s mistakes)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from lazyfun.csp.flatzinc.text import Parser

NAMES = st.from_regex(r"\A_{0,2}[A-Za-z][A-Za-z0-9_]{0,6}\Z")
INTS = st.from_regex(r"\A-?(?:[0-9]{1,5}|0x[0-9a-fA-F]{1,4}|0o[0-7]{1,4})\Z")
FLOATS = st.from_regex(
    r"\A-?[0-9]{1,3}(?:\.[0-9]{1,3}(?:[eE][-+]?[0-9]{1,2})?|[eE][-+]?[0-9]{1,2})\Z"
)
STRINGS = st.from_regex(r'\A"[a-z .:%]{0,6}"\Z')
PUNCTS = st.sampled_from(["..", "::", ":", ";", ",", "[", "]", "(", ")", "{", "}", "="])
TOKENS = st.one_of(
    st.tuples(st.just("ident"), NAMES),
    st.tuples(st.just("int"), INTS),
    st.tuples(st.just("float"), FLOATS),
    st.tuples(st.just("string"), STRINGS),
    st.tuples(st.just("punct"), PUNCTS),
)
# What may separate two tokens: spaces, newlines, comments (each ending its line).
GAPS = st.lists(
    st.sampled_from([" ", "\t", "\r", "\n", "% a comment: 1..3 [x]\n", "%\n"]), min_size=1
)


@given(st.lists(st.tuples(TOKENS, GAPS), max_size=30), GAPS)
def test_tokens_come_back_with_their_kinds_and_lines(
    laid: list[tuple[tuple[str, str], list[str]]], lead: list[str]
) -> None:
    text = "".join(lead)
    line = 1 + text.count("\n")
    kinds, texts, lines = [], [], []
    for (kind, token), gap in laid:
        kinds.append(kind)
        texts.append(token)
        lines.append(line)
        text += token + "".join(gap)
        line += "".join(gap).count("\n")
    parser = Parser(text)
    assert parser.kinds == [*kinds, "end"]
    assert parser.texts == [*texts, ""]
    assert parser.lines == [*lines, line]
