"""Settings: language, theme, the options the game screens read, and the way to "How
this app reads the rules"."""

from __future__ import annotations

from functools import partial
from typing import Any

import flet as ft

from companion.app.kit import BODY_TEXT_SIZE, TOUCH_TARGET, back_button, big_button, heading
from companion.app.routing import Screen
from companion.app.settings import (
    KEY_CUBE_DISPLAY,
    KEY_D4_VARIANT,
    KEY_KARLA_POLICY,
    KEY_LANGUAGE,
    KEY_THEME,
    CubeDisplay,
    KarlaPolicy,
    ThemeChoice,
)
from companion.app.village.table.paths import RULES_ROUTE
from companion.i18n import LANGUAGE_NAMES, available_languages

THEME_LABELS = {
    ThemeChoice.LIGHT: "settings.theme.light",
    ThemeChoice.DARK: "settings.theme.dark",
    ThemeChoice.SYSTEM: "settings.theme.system",
}
KARLA_LABELS = {KarlaPolicy.ASK: "settings.karla.ask", KarlaPolicy.AUTO: "settings.karla.auto"}
CUBE_LABELS = {
    CubeDisplay.COLOUR_LETTER: "settings.cubes.colour_letter",
    CubeDisplay.COLOUR_ONLY: "settings.cubes.colour_only",
}


def choice_group(identifier: str, value: str, options: list[tuple[str, str]],
                 on_change: Any) -> ft.Control:
    """A radio list: every option is its own ≥48 px row, easy to hit and to read."""
    return ft.Semantics(
        identifier=identifier,
        content=ft.RadioGroup(
            value=value,
            on_change=on_change,
            content=ft.Column(
                # No label_style here: it would replace the theme style and with it
                # the CJK font fallbacks (see theme.py).
                [ft.Radio(value=v, label=label, height=TOUCH_TARGET) for v, label in options],
                spacing=0,
            ),
        ),
    )


class SettingsScreen(Screen):
    def build(self) -> ft.View:
        t, settings = self.ctx.t, self.ctx.settings
        languages = [(lang, LANGUAGE_NAMES[lang]) for lang in available_languages()]
        return ft.View(
            route="/settings",
            appbar=ft.AppBar(
                leading=back_button(t("common.back"), self.ctx.back),
                title=ft.Text(t("settings.title")),
            ),
            scroll=ft.ScrollMode.AUTO,
            padding=ft.Padding.symmetric(horizontal=16, vertical=12),
            spacing=8,
            controls=[
                heading(t("settings.language")),
                choice_group("settings-language", self.ctx.language, languages,
                             partial(self._changed, KEY_LANGUAGE)),
                ft.Divider(),
                heading(t("settings.theme")),
                choice_group("settings-theme", settings.theme.value,
                             [(c.value, t(key)) for c, key in THEME_LABELS.items()],
                             partial(self._changed, KEY_THEME)),
                ft.Divider(),
                heading(t("settings.game_heading")),
                ft.Text(t("settings.karla"), size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_500),
                choice_group("settings-karla", settings.karla_policy.value,
                             [(c.value, t(key)) for c, key in KARLA_LABELS.items()],
                             partial(self._changed, KEY_KARLA_POLICY)),
                # Text and switch side by side so the long label wraps on a phone;
                # the switch carries the same text as its accessible label.
                ft.Semantics(
                    identifier="settings-d4",
                    content=ft.Row(
                        [ft.Text(t("settings.d4"), size=BODY_TEXT_SIZE, expand=True),
                         ft.Semantics(label=t("settings.d4"), content=ft.Switch(
                             value=settings.d4_variant, on_change=self._d4_changed,
                             height=TOUCH_TARGET))],
                        vertical_alignment=ft.CrossAxisAlignment.CENTER,
                    ),
                ),
                ft.Text(t("settings.cubes"), size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_500),
                choice_group("settings-cubes", settings.cube_display.value,
                             [(c.value, t(key)) for c, key in CUBE_LABELS.items()],
                             partial(self._changed, KEY_CUBE_DISPLAY)),
                ft.Divider(),
                # Where the rulebooks are silent or unclear: what the app chose.
                big_button(t("readings.title"), ft.Icons.RULE,
                           lambda: self.ctx.go(RULES_ROUTE), identifier="settings-rules",
                           filled=False),
            ],
        )

    def _changed(self, key: str, e: ft.Event[ft.RadioGroup]) -> None:
        if e.control.value:
            self.ctx.device.haptic("selection")
            self.ctx.change_setting(key, e.control.value)

    def _d4_changed(self, e: ft.Event[ft.Switch]) -> None:
        self.ctx.device.haptic("selection")
        self.ctx.change_setting(KEY_D4_VARIANT, bool(e.control.value))
