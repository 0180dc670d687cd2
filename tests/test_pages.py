"""The explanation page and the booklet, in a real browser: headless Chromium, driven by
selenium with Debian's chromium-driver (``make test`` installs both when it can)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from lazyfun.pages import booklet, explanation_page, printed
from lazyfun.sudoku import parse, rate
from lazyfun.sudoku.steps.deduction import walkthrough

PUZZLE = "006200080008970000004810500000060002070000030600050000002047100003028400050001200"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
PACKAGES = "Debian's chromium and chromium-driver (make test installs them as root)"


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    webdriver = pytest.importorskip("selenium.webdriver")
    if CHROMIUM is None or DRIVER is None:
        pytest.skip(f"no headless browser here: install {PACKAGES}")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,900"):
        options.add_argument(argument)
    service = webdriver.ChromeService(executable_path=DRIVER)
    driver = webdriver.Chrome(options=options, service=service)
    yield driver
    driver.quit()


# What the reader sees, read in one round trip: the step number, the highlighted cells and
# the digits of the one step section on screen (asking the driver element by element takes
# a round trip for each of some hundred elements, after every key press).
_SHOWN = """
const visible = [...document.querySelectorAll("section.step")].filter(s => s.checkVisibility());
const cell = e => Number(e.getAttribute("data-cell") ?? -1);
const digit = d => [cell(d), d.textContent];
return [
    document.getElementById("number").innerText,
    visible.length,
    visible.flatMap(s => [...s.querySelectorAll("rect.rests")].map(cell)),
    visible.flatMap(s => [...s.querySelectorAll("text.given, text.placed")].map(digit)),
];
"""


def _shown(driver: object) -> tuple[str, set[int], dict[int, str]]:
    """The displayed step number, the highlighted cells and the digits of the visible grid."""
    from selenium.webdriver.remote.webdriver import WebDriver

    assert isinstance(driver, WebDriver)
    number, sections, rests, digits = driver.execute_script(_SHOWN)
    assert sections == 1, f"{sections} step sections on screen"
    return number, set(rests), {c: d for c, d in digits}


def test_the_page_steps_through_the_puzzle_with_the_arrow_keys(
    browser: object, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.remote.webdriver import WebDriver

    assert isinstance(browser, WebDriver)
    grid = parse(PUZZLE)
    positions = list(walkthrough(grid))
    page = tmp_path / "steps.html"
    page.write_text(explanation_page(grid), encoding="utf-8")
    browser.get(page.as_uri())
    number, rests, digits = _shown(browser)
    assert number == "1"
    assert rests == set(positions[0].step.cells)
    rating = rate(grid)
    assert f"Rating {rating.score:.1f}" in browser.find_element(By.ID, "rating").text
    body = browser.find_element(By.TAG_NAME, "body")
    for k in (1, 5, 12):
        while int(_shown(browser)[0]) - 1 < k:
            body.send_keys(Keys.ARROW_RIGHT)
        number, rests, digits = _shown(browser)
        state = positions[k].grid
        assert number == str(k + 1)
        assert rests == set(positions[k].step.cells)
        assert digits == {c: str(v) for c, v in enumerate(state.cells) if v}
    body.send_keys(Keys.ARROW_LEFT)
    assert _shown(browser)[0] == "12"
    browser.find_element(By.ID, "next").click()
    assert _shown(browser)[0] == "13"
    assert browser.save_screenshot(str(tmp_path / "steps.png"))
    assert (tmp_path / "steps.png").stat().st_size > 10_000


def test_the_booklet_prints_to_the_pages_it_should(tmp_path: Path) -> None:
    if CHROMIUM is None:
        pytest.skip(f"no headless browser here: install {PACKAGES}")
    pdfinfo = shutil.which("pdfinfo")
    if pdfinfo is None:
        pytest.skip("no pdfinfo here: install Debian's poppler-utils (make test does as root)")
    from lazyfun.sudoku import generate

    puzzles = [printed(p) for p in islice(generate(seed=3), 6)]
    page = tmp_path / "book.html"
    page.write_text(booklet(puzzles, per_page=4, paper="a4"), encoding="utf-8")
    pdf = tmp_path / "book.pdf"
    subprocess.run(
        [
            CHROMIUM,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-pdf-header-footer",
            f"--print-to-pdf={pdf}",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    info = subprocess.run([pdfinfo, str(pdf)], check=True, capture_output=True, text=True).stdout
    pages = int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))
    assert pages == 4  # 6 puzzles on 2 sheets, then their solutions on 2


def test_the_page_is_one_file_that_escapes_its_title() -> None:
    page = explanation_page(parse(PUZZLE), title="<b>mine</b> & yours")
    assert "&lt;b&gt;mine&lt;/b&gt; &amp; yours" in page
    assert "<b>mine" not in page
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "src=" not in page


def test_a_page_for_a_puzzle_with_several_solutions_says_it_is_not_rated() -> None:
    assert "Not rated: the puzzle has more than one solution" in explanation_page(parse("0" * 16))


def test_booklet_sheets_and_refusals() -> None:
    puzzles = [printed(parse(PUZZLE))] * 5
    page = booklet(puzzles, per_page=2, paper="letter")
    assert page.count('class="sheet"') == 6  # 3 sheets of puzzles, 3 of solutions
    assert "size:8.5in 11in" in page
    for svg in page.split("<svg")[1:]:
        ET.fromstring("<svg" + svg.split("</svg>")[0] + "</svg>")
    with pytest.raises(ValueError, match="per_page must be"):
        booklet(puzzles, per_page=3)
    with pytest.raises(ValueError, match="at least one puzzle"):
        booklet([])


# Each picture on the study page as the reader sees it: its width and height on screen
# (pictures inside pictures, such as a chart's glyphs, left out).
_PICTURES = """
return [...document.querySelectorAll("section svg")]
    .filter(s => !s.parentElement.closest("svg"))
    .map(s => { const r = s.getBoundingClientRect(); return [r.width, r.height]; });
"""


@pytest.mark.untraced
def test_the_study_page_shows_its_tables_charts_tree_and_pipelines_offline(
    browser: object, tmp_path: Path
) -> None:
    """``lazyfun study report``'s page: every chart and the tree drawn at a readable size,
    a row for each measurement, the pipeline explained both ways, nothing fetched."""
    pytest.importorskip("matplotlib")
    from selenium.webdriver.remote.webdriver import WebDriver

    from lazyfun.study.report import report_page

    assert isinstance(browser, WebDriver)
    page = tmp_path / "study.html"
    html = report_page(
        queens_sizes=range(4, 7), blanks=range(1, 3), runs=1, tree_n=5, learning=["queens 6"]
    )
    page.write_text(html, encoding="utf-8")
    browser.get(page.as_uri())
    pictures = browser.execute_script(_PICTURES)
    assert len(pictures) == 3  # two charts and the tree
    assert all(width > 400 and height > 150 for width, height in pictures), pictures
    assert browser.execute_script("return document.querySelectorAll('tbody tr').length") == (
        3 * 3 + 2 * 3 + 3  # queens, Sudoku, the learning model: off, restarts, clauses
    )
    explained = browser.execute_script(
        "return [...document.querySelectorAll('.side pre')].map(p => p.innerText)"
    )
    assert len(explained) == 2 and ".sort()" in explained[1] and ".sort()" not in explained[0]
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0


def test_the_docs_home_page_opens_with_its_pipeline_on_the_first_screen(
    browser: object, tmp_path: Path
) -> None:
    """docs/index.md as Markdown renders it (with the site's hook filling in the compiled
    list): the first thing in the window's height is the example pipeline, whole."""
    import importlib.util

    import markdown
    from selenium.webdriver.remote.webdriver import WebDriver

    assert isinstance(browser, WebDriver)
    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("hook", root / "docs/hooks/compiled_list.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    text = hook.fill((root / "docs" / "index.md").read_text(encoding="utf-8"))
    body = markdown.markdown(text, extensions=["fenced_code", "tables"])
    page = tmp_path / "index.html"
    page.write_text(f'<!doctype html><meta charset="utf-8"><body>{body}</body>', "utf-8")
    browser.get(page.as_uri())
    top, bottom, shown, height = browser.execute_script(
        "const p = document.querySelector('pre'); const r = p.getBoundingClientRect();"
        "return [r.top, r.bottom, p.innerText, window.innerHeight];"
    )
    assert 0 <= top < bottom <= height, (top, bottom, height)
    assert "stream(orders)" in shown and "[5, 6, 12]" in shown
