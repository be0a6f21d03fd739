"""Korean words are never split across lines (issue 13): Flutter breaks Hangul between any
two syllables, so every Korean text the app shows carries a word joiner between the
syllables of each word; text leaving the app (shared, copied, window title) has none."""

from __future__ import annotations

import flet as ft

from companion.app.device import DeviceServices
from companion.app.kit.text_fit import WORD_JOINER, keep_words, plain
from companion.i18n import Translator
from companion.store.memory import MemoryStore

from .harness import AppHarness, FakeClient


def test_only_the_inside_of_hangul_words_is_joined() -> None:
    text = "마지막 플레이: 11/26 (또는 우물 사용) Ann 이"
    kept = keep_words(text)
    assert kept == ("마\u2060지\u2060막 플\u2060레\u2060이: 11/26 (또\u2060는 우\u2060물 "
                    "사\u2060용) Ann 이")
    assert plain(kept) == text
    assert keep_words("Last played: 11/26") == "Last played: 11/26"
    assert keep_words(kept) == kept  # once is enough: nothing new to join


def test_korean_screens_keep_words_whole_and_others_are_untouched() -> None:
    ko = Translator("ko")
    with AppHarness(MemoryStore(), client=FakeClient(locales=("ko-KR",))) as app:
        drawn = [c.value for c, _ in app.walk(app.page.views[-1])
                 if isinstance(c, ft.Text) and isinstance(c.value, str)]
        title = ko.t("home.resume.heading")
        assert keep_words(title) in drawn and title not in drawn
        assert app.page.title == ko.t("app.title")  # a window title: plain
    with AppHarness(MemoryStore()) as app:  # English: nothing added anywhere
        assert not any(WORD_JOINER in str(c.value) for c, _ in app.walk(app.page.views[-1])
                       if isinstance(c, ft.Text))


def test_shared_text_leaves_without_joiners() -> None:
    holder: dict[str, DeviceServices] = {}
    actions: list[ft.ClientAction] = []

    def main(page: ft.Page) -> None:
        holder["d"] = DeviceServices(page, on_copied=lambda: None)
        actions.append(holder["d"].share_action(keep_words("승자: 앤 55점"),
                                                subject=keep_words("빌리지")))
        page.add(ft.Button("share", on_click=lambda: holder["d"].share_text(
            keep_words("승자: 앤 55점"))))

    with AppHarness(main=main) as app:
        copy = actions[-1]
        assert isinstance(copy, ft.CopyToClipboard) and copy.data == "승자: 앤 55점"
        app.click("share")
        assert app.client.clipboard == "승자: 앤 55점"
