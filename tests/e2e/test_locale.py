"""First visit (nothing stored): the UI language follows the browser's locale.

A module of its own so it gets its own server and an empty data dir."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.app.kit.text_fit import keep_words

from .test_browser import LOAD_TIMEOUT_MS, open_app, shot

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(("locale", "heading"), [
    ("ko-KR", "게임 이어하기"), ("de-AT", "Partie fortsetzen"), ("zh-TW", "繼續遊戲"),
    ("fr-FR", "Continue a game"),
])
def test_first_visit_follows_browser_locale(browser: Any, app_url: str, screenshots: Path,
                                            locale: str, heading: str) -> None:
    page = open_app(browser, app_url, locale)
    # (Korean words are drawn with joiners between their syllables: kept whole on a line)
    page.get_by_text(keep_words(heading)).first.wait_for(timeout=LOAD_TIMEOUT_MS)
    if locale == "de-AT":
        shot(page, screenshots, "08-home-de-from-browser-locale.png")
    page.context.close()
