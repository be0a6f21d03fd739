"""The Material icon subset the app ships draws every icon as Flutter's full font does, in
real Chromium (issue 23; see companion/web/icon_font.py): Home, the new-game wizard, a
Village table and a dialog are drawn pixel for pixel alike when the page gets the subset
and when the same request is answered with Flet's full MaterialIcons-Regular.otf. The
page asks for the subset and never for the full font. And the icons are really in those
pictures: with no icon font at all, Home is drawn differently."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.store.tinydb_store import TinyDBStore
from companion.village.service import VillageService
from companion.village.setup import PlayerSetup, VillageSetup
from companion.web.icon_font import FULL_FONT_NAME, ICON_FONT_ASSET, flet_web_dir

from .conftest import PHONE, seed_store, served_app
from .test_browser import LOAD_TIMEOUT_MS, SEMANTICS_CLOCK_JS, STEP_TIMEOUT_MS, drawn

pytestmark = pytest.mark.e2e

SUBSET_URL = "**/assets/" + ICON_FONT_ASSET


@pytest.fixture(scope="module")
def served(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[
        tuple[str, str]]:
    """The app on a store with a broken file (Home's problems banner, whose Export opens a
    dialog) and a two-player Village table; its URL and the table's session id."""
    data_dir = tmp_path_factory.mktemp("icon-font")
    seed_store(data_dir)
    session_id, _ = VillageService(TinyDBStore(data_dir)).create(VillageSetup(
        players=[PlayerSetup(name="Ann", colour="red"), PlayerSetup(name="Bo", colour="blue")],
        start_player=0, seed=7))
    with served_app(data_dir) as base:
        yield base, session_id


def ident(page: Any, identifier: str) -> Any:
    return page.locator(f'[flt-semantics-identifier="{identifier}"]')


def screens(browser: Any, base: str, session_id: str, font: bytes | None) -> tuple[
        dict[str, bytes], list[str]]:
    """Screenshots of Home, the export dialog, the wizard's first step and the table, with
    the icon subset's request answered by the server (`font` None), by `font`, or (b"")
    by a 404; and every URL the page asked for."""
    context = browser.new_context(viewport=PHONE, locale="en-US", device_scale_factor=1)
    context.add_init_script(SEMANTICS_CLOCK_JS)
    requested: list[str] = []
    context.on("request", lambda request: requested.append(request.url))
    if font is not None:
        context.route(SUBSET_URL, lambda route: route.fulfill(
            status=200 if font else 404, body=font, content_type="font/otf"))
    page = context.new_page()

    def load(url: str) -> None:
        page.goto(url)
        placeholder = page.locator("flt-semantics-placeholder")
        placeholder.wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
        placeholder.evaluate("e => e.click()")

    load(base + "/")
    shots: dict[str, bytes] = {}

    def shot(name: str) -> None:
        page.mouse.move(180, 28)  # over the app bar title: no hover, no tooltip
        drawn(page)
        page.wait_for_timeout(300)
        shots[name] = page.screenshot()

    ident(page, "new-village").wait_for(timeout=LOAD_TIMEOUT_MS)
    shot("home")
    if font == b"":
        context.close()
        return shots, requested
    page.get_by_role("button", name="Export").first.click()
    page.get_by_role("button", name="Download").wait_for(timeout=STEP_TIMEOUT_MS)
    shot("dialog")
    # Closed before the next page: a reload in the same tab reconnects to the same
    # session, whose dialog would still be open over the wizard (a run drew it there).
    page.get_by_role("button", name="Close").click()
    page.get_by_role("button", name="Download").wait_for(state="detached",
                                                         timeout=STEP_TIMEOUT_MS)
    load(base + "/new/village")
    page.get_by_text("Step 1 of").first.wait_for(timeout=LOAD_TIMEOUT_MS)
    shot("wizard")
    load(f"{base}/play/village/{session_id}")
    ident(page, "table-turn").wait_for(timeout=LOAD_TIMEOUT_MS)
    shot("table")
    context.close()
    return shots, requested


# Decode two PNGs in the browser and compare their pixels (no imaging library needed).
SAME_PIXELS_JS = """async ([a, b]) => {
  const pixels = async (b64) => {
    const blob = await (await fetch('data:image/png;base64,' + b64)).blob();
    const bitmap = await createImageBitmap(blob);
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    context.drawImage(bitmap, 0, 0);
    return context.getImageData(0, 0, bitmap.width, bitmap.height).data;
  };
  const [x, y] = [await pixels(a), await pixels(b)];
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}"""


def same_pixels(browser: Any, a: bytes, b: bytes) -> bool:
    context = browser.new_context()
    try:
        page = context.new_page()
        return bool(page.evaluate(SAME_PIXELS_JS, [base64.b64encode(a).decode(),
                                                    base64.b64encode(b).decode()]))
    finally:
        context.close()


def test_the_icon_subset_draws_every_screen_as_the_full_font_does(
        browser: Any, served: tuple[str, str], screenshots: Path) -> None:
    base, session_id = served
    full = (flet_web_dir() / "assets" / "fonts" / FULL_FONT_NAME).read_bytes()
    subset, requested = screens(browser, base, session_id, None)
    assert any(url.endswith("/assets/" + ICON_FONT_ASSET) for url in requested)
    assert not [url for url in requested if FULL_FONT_NAME in url]
    for name, picture in subset.items():
        (screenshots / f"icon-subset-{name}.png").write_bytes(picture)
    reference, _ = screens(browser, base, session_id, full)
    for name, picture in reference.items():
        (screenshots / f"icon-full-{name}.png").write_bytes(picture)
    assert list(subset) == ["home", "dialog", "wizard", "table"]
    # Pixels, not file bytes: the same picture can be encoded into different PNG bytes.
    assert [name for name in subset
            if not same_pixels(browser, subset[name], reference[name])] == []
    # the pictures hold icons: without an icon font Home is drawn differently
    no_icons, _ = screens(browser, base, session_id, b"")
    (screenshots / "icon-subset-home-no-font.png").write_bytes(no_icons["home"])
    assert not same_pixels(browser, no_icons["home"], subset["home"])
