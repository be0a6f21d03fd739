"""Korean (and Chinese) pages in real Chromium (issue 23): Flutter's web engine asks for
Noto fallback fonts under /assets/fonts/<family>/…; the server answers with the fonts we ship
(companion/web/font_fallback.py), each asked for once, and the engine stops asking: no
font asked for again once the page has settled, where it used to fetch 40-130
(404) every two seconds and lay all text out again each time. Korean text still draws
as Hangul, Chinese as Han (many different glyph shapes, not a row of identical boxes)."""

from __future__ import annotations

import base64
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app.kit.text_fit import keep_words

from .conftest import served_app
from .test_browser import LOAD_TIMEOUT_MS, STEP_TIMEOUT_MS, drawn, open_app
from .test_history_browser import seed_history

pytestmark = pytest.mark.e2e

WATCH_MS = 2000

# Every font file the page fetched since it opened: [url, HTTP status].
FONT_ENTRIES_JS = """() => performance.getEntriesByType('resource')
  .filter(e => e.name.includes('/fonts/')).map(e => [e.name, e.responseStatus])"""

# How many different ink columns a PNG has (dark on light or light on dark): a word of
# Hangul or Han has dozens, a row of "missing glyph" boxes a handful (every box alike).
INK_COLUMNS_JS = """async (b64) => {
  const blob = await (await fetch('data:image/png;base64,' + b64)).blob();
  const img = await createImageBitmap(blob);
  const c = new OffscreenCanvas(img.width, img.height), g = c.getContext('2d');
  g.drawImage(img, 0, 0);
  const d = g.getImageData(0, 0, img.width, img.height).data;
  const lum = i => 0.3 * d[i] + 0.59 * d[i + 1] + 0.11 * d[i + 2];
  const bg = lum(0), cols = new Set();
  for (let x = 0; x < img.width; x++) {
    let s = '';
    for (let y = 0; y < img.height; y++)
      s += Math.abs(lum((y * img.width + x) * 4) - bg) > 80 ? '1' : '0';
    if (s.includes('1')) cols.add(s);
  }
  return cols.size;
}"""


@pytest.fixture(scope="module")
def base_url(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data_dir = tmp_path_factory.mktemp("e2e-font-fallback")
    seed_history(data_dir)
    with served_app(data_dir) as base:  # a free loopback port of its own
        yield base


def _font_requests_once_settled(page: Any) -> list[str]:
    drawn(page)
    page.wait_for_timeout(500)
    fonts: list[str] = []
    page.on("request", lambda r: fonts.append(r.url) if "/fonts/" in r.url else None)
    page.wait_for_timeout(WATCH_MS)
    return fonts


def _assert_fallback_fonts_settled(page: Any) -> None:
    late = _font_requests_once_settled(page)
    entries = page.evaluate(FONT_ENTRIES_JS)
    # Nothing asked for again once the page has settled (it was 40-130 every 2 s; the
    # tail of the first batch and its redirect may still land on a slow machine) ...
    assert len(late) <= 4 and len(set(late)) == len(late), late
    # ... and since the page opened, each fallback slice asked for once and answered.
    fallback = [url for url, _ in entries if "/assets/fonts/" in url and url.count("/") > 5]
    repeated = {u: n for u, n in Counter(fallback).items() if n > 1}
    assert not repeated, repeated
    assert not [e for e in entries if e[1] >= 400], entries


def _ink_columns(page: Any, box: dict[str, float]) -> int:
    png: bytes = page.screenshot(clip=box)
    columns: int = page.evaluate(INK_COLUMNS_JS, base64.b64encode(png).decode())
    return columns


def _assert_cjk_drawn(page: Any, locator: Any, words: str) -> None:
    box = locator.bounding_box()
    assert box is not None, words
    columns = _ink_columns(page, box)
    assert columns >= 5 * len(words.replace(" ", "")), (words, columns)


@pytest.mark.parametrize(("locale", "heading"), [("ko-KR", "게임 이어하기"),
                                               ("zh-TW", "繼續遊戲")])
def test_home_stops_asking_for_fonts(browser: Any, base_url: str, locale: str,
                                     heading: str) -> None:
    page = open_app(browser, base_url + "/", locale)
    page.get_by_text(keep_words(heading)).first.wait_for(timeout=LOAD_TIMEOUT_MS)
    _assert_fallback_fonts_settled(page)
    _assert_cjk_drawn(page, page.get_by_text(keep_words(heading)).first, heading)
    page.context.close()


def test_korean_statistics_table_stops_asking_for_fonts(browser: Any, base_url: str) -> None:
    page = open_app(browser, base_url + "/history/stats", "ko-KR")
    page.locator('[flt-semantics-identifier="stats-mode-table"]').locator(
        "flt-semantics, [role=button]").first.click(timeout=LOAD_TIMEOUT_MS)
    page.locator('[flt-semantics-identifier="table-players-numbers"]').wait_for(
        timeout=STEP_TIMEOUT_MS)
    _assert_fallback_fonts_settled(page)
    # The table's heading row (Korean words only, as far as the phone's width shows it).
    numbers = page.locator('[flt-semantics-identifier="table-players-numbers"]').bounding_box()
    assert numbers is not None
    headings = _ink_columns(page, {**numbers, "height": 40.0})
    assert headings >= 40, headings
    page.context.close()
