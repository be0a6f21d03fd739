"""App-string translation from Babel `.po` catalogues under `locales/` (shipped inside the
package as `companion.locales`, see `companion.bundled`).

A message about a number of things is a gettext plural entry (`msgid` / `msgid_plural` /
`msgstr[0..n]`, both ids the key) read with `Translator.tn(key, count)`: the catalogue's
`Plural-Forms` header says how many forms the language has and which one a count takes
(English and German: one and other; Korean and Chinese: one form for every count).

The .po files are what is shipped and edited. At run time each is compiled by Babel to a
.mo once per content (cached in the user's cache folder by a hash of its bytes) and read
by the standard library's gettext, about six times faster than parsing each .po
again at every start (`po_file_messages`); messages are kept per language. Keys are
stable msgids such as ``"home.title"``; the English catalogue holds the English text.
A missing key never raises: it falls back to English, then to the key itself, so a
half-translated build still runs. `tests/app/test_catalogues.py` is what
fails when a key or placeholder is missing.
"""

from __future__ import annotations

import contextlib
import gettext
import logging
import os
import string
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.core import UnknownLocaleError, negotiate_locale, parse_locale

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


@dataclass
class _FileMessages:
    """One .po file's translated messages (fuzzy, untranslated and incomplete plural
    entries left out) and its Plural-Forms header ("" when it has none)."""

    texts: dict[str, str]
    plurals: dict[str, tuple[str, ...]]
    plural_forms: str


_CACHE_ENV = "VILLAGE_COMPANION_CACHE_DIR"
# Part of every cached file's name: a change in what is cached (not in the .po, which
# the hash covers) must not read an older cache.
_CACHE_FORMAT = "mo1"


def _cache_dir() -> Path:
    """Where compiled catalogues are kept: $VILLAGE_COMPANION_CACHE_DIR, else the
    platform's per-user cache folder."""
    configured = os.environ.get(_CACHE_ENV)
    if configured:
        return Path(configured).expanduser() / "catalogues"
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("village-companion", appauthor=False)) / "catalogues"


def compile_po(data: bytes) -> bytes:
    """A .po file compiled to .mo by Babel (fuzzy entries left out, as msgfmt does, and
    plural entries with an empty form)."""
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    catalog = read_po(io.BytesIO(data), locale=None)
    try:
        gettext.c2py(catalog.plural_expr)
    except ValueError:  # gettext would refuse the whole file: keep its messages
        logger.error("catalogue Plural-Forms %r is invalid", catalog.plural_forms)
        catalog.mime_headers = [("Plural-Forms", "nplurals=2; plural=(n != 1);")]
    for message in list(catalog):
        # write_mo would fill an empty plural form with the msgid; left out instead, the
        # Translator falls back to English, as for any untranslated message.
        if message.id and message.pluralizable and not all(message.string or ()):
            catalog.delete(message.id, context=message.context)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def mo_messages(mo: bytes) -> _FileMessages:
    """The messages of a compiled catalogue, read by the standard library's gettext (a
    plural entry with an empty form is left out, as an untranslated one)."""
    import io

    translations = gettext.GNUTranslations(io.BytesIO(mo))
    # gettext has no public way to list its messages; _catalog has been its mapping
    # (msgid -> text, (msgid, form) -> text) since Python 2.
    catalog: dict[object, str] = translations._catalog  # type: ignore[attr-defined]
    texts: dict[str, str] = {}
    forms: dict[str, dict[int, str]] = {}
    for key, value in catalog.items():
        if isinstance(key, tuple):
            forms.setdefault(key[0], {})[key[1]] = value
        elif isinstance(key, str) and key:  # "" is the header
            texts[key] = value
    plurals = {msgid: tuple(found[i] for i in range(len(found)))
               for msgid, found in forms.items()
               if all(found.get(i) for i in range(len(found)))}
    info: dict[str, str] = translations.info()
    plural_forms = info.get("plural-forms", "")
    return _FileMessages(texts, plurals, plural_forms)


def po_file_messages(data: bytes) -> _FileMessages:
    """One .po file's messages. Babel compiles it to .mo once per content (kept in the
    cache folder, keyed by a hash of the file's bytes); gettext reads the .mo. Reading
    a .po with Babel takes about 75 ms for all four languages, a compiled one about 8:
    this sits on the server's first answer (issue 23), whose page carries words of all
    four languages. No cache folder, or a damaged cached file: compiled again."""
    import hashlib

    key = hashlib.blake2b(data, digest_size=16).hexdigest()
    cached = _cache_dir() / f"{key}.{_CACHE_FORMAT}.mo"
    try:
        return mo_messages(cached.read_bytes())
    except Exception:  # missing, unreadable or damaged: compile it (again)
        pass
    mo = compile_po(data)
    temp = cached.with_name(f".{cached.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        temp.write_bytes(mo)
        os.replace(temp, cached)  # a reader sees the whole file or none
    except OSError as exc:  # a read-only home or a full disk: the app works, slower
        logger.info("compiled catalogue not cached at %s: %s", cached, exc)
        with contextlib.suppress(OSError):
            temp.unlink()  # no half-written leftover
    return mo_messages(mo)


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
            found = po_file_messages(path.read_bytes())
        except OSError as exc:
            logger.warning("translation catalogue %s unreadable: %s", path, exc)
            continue
        except Exception as exc:  # a malformed .po must not take the UI down
            logger.error("translation catalogue %s is invalid: %s", path, exc)
            continue
        if not out.plural_forms:
            out.plural_forms = found.plural_forms
        out.texts.update(found.texts)
        out.plurals.update(found.plurals)
    if not out.plural_forms:
        from babel.messages.plurals import get_plural

        try:
            out.plural_forms = get_plural(BABEL_LOCALES.get(lang, lang)).plural_forms
        except (ValueError, UnknownLocaleError):  # not a locale Babel knows
            out.plural_forms = "nplurals=2; plural=(n != 1);"
    return out


@lru_cache(maxsize=4 * (len(SUPPORTED_LANGUAGES) + 1))
def _shell_file(path: str, mtime_ns: int, size: int) -> _FileMessages:
    return po_file_messages(Path(path).read_bytes())


def page_text(lang: str, msgid: str) -> str:
    """`Translator(lang).t(msgid)` for the web page's own words (the app's title and
    description, the connection banner's): the page carries them in every language, at
    the server's first answer (issue 23), when no catalogue is loaded yet. A msgid found
    in the language's messages.po is read from that file alone (a msgid is in one file
    of a language only: tests/app/test_po_reader.py), about a quarter of the work of
    loading the whole catalogue; anything else goes the Translator's way."""
    lang = lang if lang in SUPPORTED_LANGUAGES else DEFAULT_LANGUAGE
    path = catalogue_path(lang)
    try:
        stat = path.stat()
        text = _shell_file(str(path), stat.st_mtime_ns, stat.st_size).texts.get(msgid)
    except Exception:  # unreadable or invalid: the Translator logs it and falls back
        text = None
    return text if text is not None else Translator(lang).t(msgid)


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
