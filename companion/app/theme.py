"""Light and dark Material 3 themes, the theme setting, and CJK fonts for the web client.

Flutter's web renderers cannot use the browser's system fonts: Hangul and Han glyphs
come from fonts we ship in assets/fonts (see build/fetch_web_fonts.py) and list as
fallbacks in every text style of the theme. Native phone builds use the OS fonts.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import flet as ft

from companion.app.settings import ThemeChoice
from companion.web.fonts import WEB_FONTS, fallbacks, first_screen_fonts

# A muted village green; Flutter derives the whole light and dark palettes from it.
SEED_COLOUR = "#4E7D3A"

THEME_MODES: dict[ThemeChoice, ft.ThemeMode] = {
    ThemeChoice.LIGHT: ft.ThemeMode.LIGHT,
    ThemeChoice.DARK: ft.ThemeMode.DARK,
    ThemeChoice.SYSTEM: ft.ThemeMode.SYSTEM,
}


# Material 3 type scale: size, line height, weight, letter spacing. Flet replaces a
# whole role when the theme sets it, so each role is spelled out in full (colour
# included, else dark mode gets black text); button labels are 16 px instead of 14.
_TYPE_SCALE: dict[str, tuple[float, float, ft.FontWeight, float]] = {
    "display_large": (57, 64, ft.FontWeight.W_400, -0.25),
    "display_medium": (45, 52, ft.FontWeight.W_400, 0),
    "display_small": (36, 44, ft.FontWeight.W_400, 0),
    "headline_large": (32, 40, ft.FontWeight.W_400, 0),
    "headline_medium": (28, 36, ft.FontWeight.W_400, 0),
    "headline_small": (24, 32, ft.FontWeight.W_400, 0),
    "title_large": (22, 28, ft.FontWeight.W_400, 0),
    "title_medium": (16, 24, ft.FontWeight.W_500, 0.15),
    "title_small": (14, 20, ft.FontWeight.W_500, 0.1),
    "label_large": (16, 22, ft.FontWeight.W_500, 0.1),
    "label_medium": (12, 16, ft.FontWeight.W_500, 0.5),
    "label_small": (11, 16, ft.FontWeight.W_500, 0.5),
    "body_large": (16, 24, ft.FontWeight.W_400, 0.5),
    "body_medium": (14, 20, ft.FontWeight.W_400, 0.25),
    "body_small": (12, 16, ft.FontWeight.W_400, 0.4),
}


def cjk_fallbacks(language: str) -> list[str]:
    """Korean UI prefers Korean glyph shapes for shared code points, others Chinese."""
    return fallbacks(language)


def _text_theme(fallbacks: list[str] | None) -> ft.TextTheme:
    # Roboto (bundled by flet-web) named explicitly: with only a fallback list, the web
    # engine draws Latin text with the first fallback font too.
    family = "Roboto" if fallbacks else None
    return ft.TextTheme(**{
        role: ft.TextStyle(size=size, height=line / size, weight=weight,
                           letter_spacing=spacing, color=ft.Colors.ON_SURFACE,
                           font_family=family, font_family_fallback=fallbacks)
        for role, (size, line, weight, spacing) in _TYPE_SCALE.items()})


def install_themes(page: ft.Page, language: str) -> None:
    # STANDARD density keeps Material's 48 px minimum touch targets on every platform
    # (desktop browsers otherwise get the compact density). Widgets must not set their
    # own TextStyle on buttons: that replaces these styles and drops the CJK fallbacks.
    fallbacks = None
    if page.web:
        # Only the language's own CJK font at start (issue 23: 1.5 MB an English Home
        # does not draw); fonts already registered stay (the client has them).
        wanted = {**(page.fonts or {}), **first_screen_fonts(language)}
        page.fonts = {family: path for family, path in WEB_FONTS.items() if family in wanted}
        fallbacks = cjk_fallbacks(language)
    text_theme = _text_theme(fallbacks)
    page.theme = ft.Theme(color_scheme_seed=SEED_COLOUR, text_theme=text_theme,
                          visual_density=ft.VisualDensity.STANDARD, **_still_buttons())
    page.dark_theme = ft.Theme(color_scheme_seed=SEED_COLOUR, text_theme=text_theme,
                               visual_density=ft.VisualDensity.STANDARD, **_still_buttons())



def _still_buttons() -> dict[str, Any]:
    """Button themes whose state changes are not animated (issue 23, CanvasKit taps): a
    button that becomes enabled or disabled (the table's undo and redo, Well and End
    turn on every tap) took its new colours over Material's 200 ms, and each of those
    frames redrew the whole screen (a new frame, ~13 ms on CanvasKit, right after the
    one showing the change). Now the new colours show in that frame. Only the animation
    duration is set: every colour, shape and size stays Material's own (a widget's style
    with no duration still uses this one)."""

    def still() -> ft.ButtonStyle:
        return ft.ButtonStyle(animation_duration=ft.Duration())

    return {"button_theme": ft.ButtonTheme(style=still()),
            "filled_button_theme": ft.FilledButtonTheme(style=still()),
            "outlined_button_theme": ft.OutlinedButtonTheme(style=still()),
            "text_button_theme": ft.TextButtonTheme(style=still()),
            "icon_button_theme": ft.IconButtonTheme(style=still())}


def load_all_web_fonts(page: ft.Page, families: Iterable[str] | None = None) -> bool:
    """Register the shipped CJK web fonts `families` (None: every one; the client fetches
    the ones it lacks): called for every one when the page leaves Home, and for those
    Home's Hangul or Han text needs, so Korean and Chinese names draw (and still draw once
    the server is gone). True when it changed `page.fonts` (the caller's next update
    sends it)."""
    wanted = set(WEB_FONTS if families is None else families)
    have = page.fonts or {}
    if not page.web or wanted <= have.keys():
        return False
    page.fonts = {family: path for family, path in WEB_FONTS.items()
                  if family in wanted or family in have}
    return True


def apply_theme(page: ft.Page, choice: ThemeChoice) -> None:
    page.theme_mode = THEME_MODES[choice]
