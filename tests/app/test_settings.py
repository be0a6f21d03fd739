"""Settings: language and theme apply at once, every setting persists."""

from __future__ import annotations

from typing import cast

import flet as ft

from companion.app.settings import CubeDisplay, KarlaPolicy, ThemeChoice, load_settings

from .conftest import ProblemStore, seed
from .harness import AppHarness, FakeClient


def test_language_change_rerenders_and_persists(store: ProblemStore) -> None:
    seed(store, unfinished=1, finished=1)
    with AppHarness(store) as app:
        app.click("Settings")  # the AppBar gear (found by its tooltip)
        assert "Language" in app.visible_texts()
        app.select_radio("한국어")
        assert "언어" in app.visible_texts()  # Settings itself re-rendered at once
        assert [v.route for v in app.page.views] == ["/", "/settings"]
        app.back()
        texts = app.visible_texts()
        assert "게임 이어하기" in texts and "끝난 게임" in texts and "새 게임 시작" in texts
        assert any(t.startswith("승자: Ann") or "승자: Ann" in t for t in texts)
        assert app.page.title == "빌리지 도우미"
    assert store.get_setting("app.language") == "ko"

    # A new client (another phone at the table) starts in the stored language even
    # though its own locale is English.
    with AppHarness(store, client=FakeClient(locales=("en-US",))) as again:
        assert "게임 이어하기" in again.visible_texts()


def test_theme_switch_applies_and_persists(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        assert app.page.theme_mode == ft.ThemeMode.SYSTEM
        app.click("Settings")
        app.select_radio("Dark")
        assert app.page.theme_mode == ft.ThemeMode.DARK
        app.select_radio("Light")
        assert app.page.theme_mode == ft.ThemeMode.LIGHT
        app.select_radio("Dark")
    assert store.get_setting("app.theme") == "dark"
    with AppHarness(store) as again:
        assert again.page.theme_mode == ft.ThemeMode.DARK


def test_game_settings_persist(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        app.click("Settings")
        app.select_radio("Let the app decide")
        app.toggle_switch("d4 variant: roll a four-sided die for the colour of Karla's cube")
        app.select_radio("Colour only")
        assert cast(ft.Switch, app.find(control_type=ft.Switch)).value is True
    settings = load_settings(store)
    assert settings.karla_policy == KarlaPolicy.AUTO
    assert settings.d4_variant is True
    assert settings.cube_display == CubeDisplay.COLOUR_ONLY
    assert settings.theme == ThemeChoice.SYSTEM


def test_failed_save_is_reported_and_choice_kept(store: ProblemStore) -> None:
    store.fail_set_setting = OSError("read-only disk")
    with AppHarness(store) as app:
        app.click("Settings")
        app.select_radio("Deutsch")
        assert "Sprache" in app.visible_texts()  # applied for this session anyway
        assert ("Die Einstellung konnte nicht gespeichert werden: read-only disk"
                in app.visible_texts())  # the snack bar
    assert store.get_setting("app.language") is None


def test_settings_view_has_language_names_in_their_own_script(store: ProblemStore) -> None:
    with AppHarness(store, client=FakeClient(locales=("de-DE",))) as app:
        app.click("Einstellungen")
        texts = app.visible_texts()
        for name in ("English", "繁體中文", "한국어", "Deutsch"):
            assert name in texts
        language_group = cast(ft.RadioGroup, app.find_all(control_type=ft.RadioGroup)[0][0])
        assert language_group.value == "de"
