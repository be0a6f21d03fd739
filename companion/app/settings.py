"""User settings the shell owns and the game screens read, persisted via store settings.

Values are stored as plain strings/bools under stable keys so any store (TinyDB, memory)
keeps them without schema work. Unknown or corrupt stored values fall back to defaults.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum, StrEnum
from typing import Any, Protocol


class ThemeChoice(StrEnum):
    LIGHT = "light"
    DARK = "dark"
    SYSTEM = "system"


class KarlaPolicy(StrEnum):
    """How the solo opponent's open choices are made: asked at the table or automatic."""

    ASK = "ask"
    AUTO = "auto"


class CubeDisplay(StrEnum):
    """Cubes as colour plus a letter (colour-blind friendly) or colour alone."""

    COLOUR_LETTER = "colour_letter"
    COLOUR_ONLY = "colour_only"


# Store keys: namespaced so game engines' own settings cannot collide with them.
KEY_LANGUAGE = "app.language"
KEY_THEME = "app.theme"
KEY_KARLA_POLICY = "game.karla_policy"
KEY_D4_VARIANT = "game.d4_variant"
KEY_CUBE_DISPLAY = "game.cube_display"


class SettingsStore(Protocol):
    def get_setting(self, key: str, default: object = None) -> Any: ...

    def set_setting(self, key: str, value: object) -> None: ...


@dataclass(frozen=True)
class AppSettings:
    language: str | None = None  # None: not chosen yet, follow the device locale
    theme: ThemeChoice = ThemeChoice.SYSTEM
    karla_policy: KarlaPolicy = KarlaPolicy.ASK
    d4_variant: bool = False
    cube_display: CubeDisplay = CubeDisplay.COLOUR_LETTER

    def with_value(self, key: str, value: object) -> AppSettings:
        """A copy with one setting changed, given its store key and stored value."""
        return replace(self, **{_FIELD_BY_KEY[key]: _parse(key, value)})


_FIELD_BY_KEY = {
    KEY_LANGUAGE: "language",
    KEY_THEME: "theme",
    KEY_KARLA_POLICY: "karla_policy",
    KEY_D4_VARIANT: "d4_variant",
    KEY_CUBE_DISPLAY: "cube_display",
}


def _parse(key: str, raw: object) -> Any:
    default = getattr(AppSettings(), _FIELD_BY_KEY[key])
    if key == KEY_LANGUAGE:
        from companion.i18n import SUPPORTED_LANGUAGES

        return raw if isinstance(raw, str) and raw in SUPPORTED_LANGUAGES else None
    if key == KEY_D4_VARIANT:
        return raw if isinstance(raw, bool) else default
    enum_type = type(default)
    try:
        return enum_type(raw)
    except ValueError:
        return default


def stored_value(value: object) -> Any:
    """What goes into the store: enums as their string value."""
    return value.value if isinstance(value, Enum) else value


def load_settings(store: SettingsStore) -> AppSettings:
    """Read every app setting (blocking: call it off the event loop)."""
    settings = AppSettings()
    for key in _FIELD_BY_KEY:
        raw = store.get_setting(key, None)
        if raw is not None:
            settings = settings.with_value(key, raw)
    return settings
