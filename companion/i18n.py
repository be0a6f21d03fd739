"""App-string translation from Babel `.po` catalogues under `locales/` (shipped inside the
package as `companion.locales`, see `companion.bundled`).

A message about a number of things may have plural variants, `<key>#one` beside `<key>`
(the CLDR category names, through Babel): `Translator.tn` picks one.

Catalogues are read at run time with `babel.messages.pofile.read_po` (no compile step) and
cached per language. Keys are stable msgids such as ``"home.title"``; the English catalogue
holds the English text. A missing key never raises: it falls back to English, then to the
key itself, so a half-translated build still runs. `tests/app/test_catalogues.py` is what
fails when a key or placeholder is missing.
"""

from __future__ import annotations

import logging
import os
import string
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.core import negotiate_locale, parse_locale
from babel.messages.pofile import read_po

from companion.bundled import bundled_dir

logger = logging.getLogger(__name__)

DEFAULT_LANGUAGE = "en"
SUPPORTED_LANGUAGES: tuple[str, ...] = ("en", "zh_Hant", "ko", "de")

# Shown in each language's own script so a user can always find their language.
LANGUAGE_NAMES: Mapping[str, str] = {
    "en": "English",
    "zh_Hant": "繁體中文",
    "ko": "한국어",
    "de": "Deutsch",
}

# Babel locale identifiers for dates and numbers (zh_Hant alone has no territory).
BABEL_LOCALES: Mapping[str, str] = {
    "en": "en",
    "zh_Hant": "zh_Hant_TW",
    "ko": "ko_KR",
    "de": "de_DE",
}

_LOCALES_ENV = "VILLAGE_COMPANION_LOCALES_DIR"


def locales_dir() -> Path:
    """The directory holding `<lang>/LC_MESSAGES/messages.po`: the installed package's
    `companion.locales` (the repository's top-level `locales/`), or the env override."""
    override = os.getenv(_LOCALES_ENV)
    if override:
        return Path(override)
    return bundled_dir("locales")


def catalogue_path(lang: str) -> Path:
    return locales_dir() / lang / "LC_MESSAGES" / "messages.po"


def catalogue_files(lang: str) -> list[Path]:
    """messages.po first, then every other .po beside it (one file per area of the app:
    messages.po for the shell, notes.po for engine notes and game terms, village.po …)."""
    folder = locales_dir() / lang / "LC_MESSAGES"
    others = sorted(p for p in folder.glob("*.po") if p.name != "messages.po")
    main = catalogue_path(lang)
    return ([main] if main.is_file() else []) + others


def available_languages() -> list[str]:
    """Supported languages whose catalogue file exists, in display order."""
    return [lang for lang in SUPPORTED_LANGUAGES if catalogue_path(lang).is_file()]


@lru_cache(maxsize=len(SUPPORTED_LANGUAGES) + 1)
def load_catalogue(lang: str) -> dict[str, str]:
    """msgid -> msgstr for one language; untranslated and fuzzy entries are left out.

    A missing or unreadable file gives an empty catalogue (logged), never an exception:
    the UI must keep working on the fallback language.
    """
    messages: dict[str, str] = {}
    for path in catalogue_files(lang):
        try:
            with path.open("rb") as fh:
                catalog = read_po(fh, locale=None)
        except OSError as exc:
            logger.warning("translation catalogue %s unreadable: %s", path, exc)
            continue
        except Exception as exc:  # a malformed .po must not take the UI down
            logger.error("translation catalogue %s is invalid: %s", path, exc)
            continue
        for message in catalog:
            if not message.id or message.fuzzy or not isinstance(message.id, str):
                continue
            if isinstance(message.string, str) and message.string:
                messages[message.id] = message.string
    return messages


def placeholders(text: str) -> set[str]:
    """The `{name}` placeholders used in a message (for catalogue consistency checks)."""
    names: set[str] = set()
    for _literal, field, _spec, _conv in string.Formatter().parse(text):
        if field is not None:
            names.add(field)
    return names


@lru_cache(maxsize=len(SUPPORTED_LANGUAGES))
def _plural_rule(babel_locale: str) -> Any:
    return Locale.parse(babel_locale).plural_form


class _KeepUnknown(dict[str, Any]):
    """format_map helper: an unknown placeholder stays visible instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


# Regions that write Chinese in the traditional script when a tag names no script.
_HANT_REGIONS = frozenset({"TW", "HK", "MO"})


def _catalogue_tag(tag: str) -> str | None:
    """A browser or OS locale ("zh-TW", "zh_Hant_TW", "de_AT.UTF-8@euro") as a Babel
    identifier our catalogues can be matched against ("zh_Hant", "de_AT"); Chinese always
    carries its script (a bare "zh" or a TW/HK/MO region is Hant). None when unreadable."""
    try:
        parts = parse_locale(tag.strip().replace("-", "_"))
    except ValueError:
        return None
    language, territory, script = parts[0], parts[1], parts[2]
    if language == "zh":
        if script is None:
            script = "Hant" if territory in (None, *_HANT_REGIONS) else "Hans"
        return f"zh_{script}"
    return language if territory is None else f"{language}_{territory}"


def negotiate_language(preferred: Iterable[str | None]) -> str:
    """The first of `preferred` (browser or device locales, most wanted first) that we
    have a catalogue for, by Babel's `negotiate_locale`; a region falls back to its
    language (de-CH -> de), Traditional Chinese is the Hant script or TW/HK/MO
    (zh-TW, zh-Hant -> zh_Hant) while Simplified Chinese is not offered; else English.
    The one language negotiator of the app: the device's locales, Accept-Language."""
    tags = [t for t in (_catalogue_tag(p) for p in preferred if p) if t is not None]
    found = negotiate_locale(tags, SUPPORTED_LANGUAGES, aliases={})  # no "de" -> "de_DE"
    if found is None:
        return DEFAULT_LANGUAGE
    return next(lang for lang in SUPPORTED_LANGUAGES if lang.lower() == found.lower())


def best_language(locale_string: str | None) -> str:
    """One locale's language ("ko-KR" -> ko): `negotiate_language` of that one."""
    return negotiate_language([locale_string])


class Translator:
    """Looks up app strings for one language: `Translator("ko").t("home.title")`."""

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lang = lang if lang in SUPPORTED_LANGUAGES else DEFAULT_LANGUAGE

    @property
    def babel_locale(self) -> str:
        return BABEL_LOCALES[self.lang]

    def has(self, msgid: str) -> bool:
        return msgid in load_catalogue(self.lang)

    def t(self, msgid: str, **kwargs: Any) -> str:
        text = load_catalogue(self.lang).get(msgid)
        if text is None and self.lang != DEFAULT_LANGUAGE:
            text = load_catalogue(DEFAULT_LANGUAGE).get(msgid)
        if text is None:
            logger.warning("missing translation key %r (%s)", msgid, self.lang)
            text = msgid
        if not kwargs:
            return text
        try:
            return text.format_map(_KeepUnknown(kwargs))
        except (ValueError, IndexError, AttributeError):
            # A broken translation ("{name" or "{0}") shows raw rather than crashing.
            return text

    def plural_category(self, count: int) -> str:
        """CLDR plural category of `count` in this language ("one", "other" …), from
        Babel's locale data rather than a hand-written rule per language."""
        return str(_plural_rule(self.babel_locale)(count))

    def plural_categories(self) -> frozenset[str]:
        """The categories besides "other" this language tells apart ({"one"} in English)."""
        return frozenset(_plural_rule(self.babel_locale).tags)

    def tn(self, msgid: str, count: int, /, **kwargs: Any) -> str:
        """`t` for a message about `count` things: uses the variant `<msgid>#<category>`
        ("…#one" in English and German) when this language's catalogue has it, else the
        general text. Korean and Chinese have no plural categories and need no variant."""
        variant = f"{msgid}#{self.plural_category(count)}"
        return self.t(variant if self.has(variant) else msgid, **kwargs)

    __call__ = t
