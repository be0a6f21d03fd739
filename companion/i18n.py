"""App-string translation from Babel `.po` catalogues under `locales/` (shipped inside the
package as `companion.locales`, see `companion.bundled`).

A message about a number of things is a gettext plural entry (`msgid` / `msgid_plural` /
`msgstr[0..n]`, both ids the key) read with `Translator.tn(key, count)`: the catalogue's
`Plural-Forms` header says how many forms the language has and which one a count takes
(English and German: one and other; Korean and Chinese: one form for every count).

Catalogues are read at run time with `babel.messages.pofile.read_po` (no compile step) and
cached per language. Keys are stable msgids such as ``"home.title"``; the English catalogue
holds the English text. A missing key never raises: it falls back to English, then to the
key itself, so a half-translated build still runs. `tests/app/test_catalogues.py` is what
fails when a key or placeholder is missing.
"""

from __future__ import annotations

import gettext
import logging
import os
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.core import UnknownLocaleError, negotiate_locale, parse_locale
from babel.messages.plurals import get_plural
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


@dataclass
class Catalogue:
    """One language's messages: `texts` (msgid -> msgstr) and `plurals` (msgid -> the
    msgstr[0..n] forms of a plural entry), with the `Plural-Forms` rule of its files."""

    texts: dict[str, str] = dataclass_field(default_factory=dict)
    plurals: dict[str, tuple[str, ...]] = dataclass_field(default_factory=dict)
    plural_forms: str = ""

    def plural_index(self, count: int) -> int:
        """Which msgstr[i] a count takes, by the catalogue's `Plural-Forms` expression
        (compiled by the standard library's gettext, as GNUTranslations.ngettext does)."""
        return _plural_function(self.plural_forms)(count)


@lru_cache(maxsize=8)
def _plural_function(plural_forms: str) -> Callable[[int], int]:
    expression = next((part.split("=", 1)[1].strip() for part in plural_forms.split(";")
                       if part.strip().startswith("plural=")), "")
    try:
        return gettext.c2py(expression or "(n != 1)")
    except ValueError:
        logger.error("catalogue Plural-Forms %r is invalid", plural_forms)
        return gettext.c2py("(n != 1)")


@lru_cache(maxsize=len(SUPPORTED_LANGUAGES) + 1)
def load_messages(lang: str) -> Catalogue:
    """Every translated message of one language; untranslated and fuzzy entries (and a
    plural entry with an empty form) are left out. The plural rule is the `Plural-Forms`
    header of its files (the first file that has one), else Babel's rule for the language.

    A missing or unreadable file gives an empty catalogue (logged), never an exception:
    the UI must keep working on the fallback language.
    """
    out = Catalogue()
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
        if not out.plural_forms and any(name.lower() == "plural-forms"
                                        for name, _ in catalog.mime_headers):
            out.plural_forms = catalog.plural_forms
        for message in catalog:
            if not message.id or message.fuzzy:
                continue
            if message.pluralizable:
                strings = message.string if isinstance(message.string, (list, tuple)) else ()
                forms = tuple(str(form or "") for form in strings)
                if forms and all(forms):
                    out.plurals[str(message.id[0])] = forms
            elif isinstance(message.string, str) and message.string:
                out.texts[str(message.id)] = message.string
    if not out.plural_forms:
        try:
            out.plural_forms = get_plural(BABEL_LOCALES.get(lang, lang)).plural_forms
        except (ValueError, UnknownLocaleError):  # not a locale Babel knows
            out.plural_forms = "nplurals=2; plural=(n != 1);"
    return out


def load_catalogue(lang: str) -> dict[str, str]:
    """msgid -> msgstr for one language's ordinary (not plural) messages."""
    return load_messages(lang).texts


def load_plurals(lang: str) -> dict[str, tuple[str, ...]]:
    """msgid -> msgstr[0..n] for one language's plural messages."""
    return load_messages(lang).plurals


def placeholders(text: str) -> set[str]:
    """The `{name}` placeholders used in a message (for catalogue consistency checks)."""
    names: set[str] = set()
    for _literal, field, _spec, _conv in string.Formatter().parse(text):
        if field is not None:
            names.add(field)
    return names


class _KeepUnknown(dict[str, Any]):
    """format_map helper: an unknown placeholder stays visible instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _format(text: str, kwargs: Mapping[str, Any]) -> str:
    if not kwargs:
        return text
    try:
        return text.format_map(_KeepUnknown(kwargs))
    except (ValueError, IndexError, AttributeError):
        # A broken translation ("{name" or "{0}") shows raw rather than crashing.
        return text


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
        messages = load_messages(self.lang)
        return msgid in messages.texts or msgid in messages.plurals

    def t(self, msgid: str, **kwargs: object) -> str:
        text = load_catalogue(self.lang).get(msgid)
        if text is None and self.lang != DEFAULT_LANGUAGE:
            text = load_catalogue(DEFAULT_LANGUAGE).get(msgid)
        if text is None:
            plural = self._plural(msgid, None)
            if plural is not None:
                logger.warning("plural message %r read without a count (%s)", msgid,
                               self.lang)
                return _format(plural, kwargs)
            logger.warning("missing translation key %r (%s)", msgid, self.lang)
            text = msgid
        return _format(text, kwargs)

    def tn(self, msgid: str, count: int, /, **kwargs: object) -> str:
        """`t` for a message about `count` things: gettext's ngettext on the plural entry
        `msgid` (the form the language's `Plural-Forms` rule picks for `count`), falling
        back to English like `t`. A key with no plural entry reads the same for every count
        (its ordinary text)."""
        text = self._plural(msgid, count)
        if text is None:
            return self.t(msgid, **kwargs)
        return _format(text, kwargs)

    def _plural(self, msgid: str, count: int | None) -> str | None:
        """The form of plural entry `msgid` for `count` (None: the last, most general
        form), in this language or else in English; None when neither has the entry."""
        for lang in dict.fromkeys((self.lang, DEFAULT_LANGUAGE)):
            messages = load_messages(lang)
            forms = messages.plurals.get(msgid)
            if forms is not None:
                index = len(forms) - 1 if count is None else messages.plural_index(count)
                return forms[min(max(index, 0), len(forms) - 1)]
        return None

    __call__ = t
