"""Which web fonts a page registers (issue 23): an English or German Home registers no CJK
font (1.5 MB it does not draw); a Korean or Chinese page its own at once; leaving Home, or
Korean or Chinese text on Home, registers every one (so names draw, also offline later)."""

from __future__ import annotations

import pytest

from companion.web.fonts import (
    HANGUL,
    HANT,
    WEB_FONTS,
    contains_cjk,
    first_screen_fonts,
    fonts_for_text,
)

from .conftest import ProblemStore, seed
from .harness import AppHarness, FakeClient


def test_contains_cjk_finds_hangul_han_and_cjk_punctuation_only() -> None:
    assert contains_cjk("김민준") and contains_cjk("村莊") and contains_cjk("Ann、Bo")
    assert contains_cjk("𠀋")  # a supplementary-plane ideograph
    assert not contains_cjk("Ann, Bö, Ærø — “Village” 12 €")


def test_first_screen_fonts_are_the_languages_own() -> None:
    assert first_screen_fonts("en") == {} and first_screen_fonts("de") == {}
    assert list(first_screen_fonts("ko")) == [HANGUL]
    assert HANT in first_screen_fonts("zh_Hant") and HANGUL not in first_screen_fonts(
        "zh_Hant")
    assert all(WEB_FONTS[f] == p for f, p in first_screen_fonts("zh_Hant").items())


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_an_english_or_german_home_registers_no_cjk_font_until_it_is_left(
        store: ProblemStore, locale: str) -> None:
    seed(store, unfinished=2, finished=2)
    with AppHarness(store, client=FakeClient(locales=(locale,))) as app:
        assert not app.page.fonts  # Home: Roboto and the icons only
        app.set_route("/settings")  # the language names, and any later screen
        assert app.page.fonts == WEB_FONTS
        app.set_route("/")
        assert app.page.fonts == WEB_FONTS  # once registered, kept


def test_fonts_for_text_picks_the_script_it_needs() -> None:
    assert fonts_for_text("김민준") == [HANGUL]
    assert HANT in fonts_for_text("村莊") and HANGUL not in fonts_for_text("村莊")
    assert list(WEB_FONTS) == sorted(fonts_for_text("김 村"), key=list(WEB_FONTS).index)
    assert fonts_for_text("Ann · Bö") == []


def test_korean_text_on_an_english_home_registers_the_korean_font(
        store: ProblemStore) -> None:
    store.create("kim", "village", "김민준의 게임", {})
    with AppHarness(store) as app:
        assert app.page.fonts == {HANGUL: WEB_FONTS[HANGUL]}
        app.set_route("/settings")
        assert app.page.fonts == WEB_FONTS


def test_chinese_text_on_an_english_home_registers_the_chinese_fonts(
        store: ProblemStore) -> None:
    store.create("lin", "village", "林家的村莊", {})
    with AppHarness(store) as app:
        assert app.page.fonts == first_screen_fonts("zh_Hant")


@pytest.mark.parametrize(("locale", "family"), [("ko-KR", HANGUL), ("zh-TW", HANT)])
def test_a_korean_or_chinese_home_registers_its_own_font_at_once(
        store: ProblemStore, locale: str, family: str) -> None:
    with AppHarness(store, client=FakeClient(locales=(locale,))) as app:
        assert family in (app.page.fonts or {})
        assert app.page.fonts == first_screen_fonts("ko" if locale == "ko-KR" else "zh_Hant")
