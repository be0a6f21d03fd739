"""Every language has every key, with the same placeholders; every key used exists; plural
messages are gettext plural entries with the language's number of forms."""

from __future__ import annotations

import ast
import gettext
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from companion import i18n
from companion.i18n import (
    BABEL_LOCALES,
    SUPPORTED_LANGUAGES,
    Translator,
    available_languages,
    best_language,
    catalogue_files,
    load_messages,
    placeholders,
)

APP_DIR = Path(i18n.__file__).resolve().parent / "app"
WEB_DIR = APP_DIR.parent / "web"  # the join page and the connection banner
GAMES_DIR = APP_DIR.parent / "games"  # the games' registry: their names' keys
KEY_RE = re.compile(r"^[a-z_]+(\.[a-z0-9_]+)+$")


# Namespaces whose keys are built at run time (f"note.{key}", f"colour.{c}" ...): they are
# checked against the engine's own lists below instead of against constants in the code.
DYNAMIC_NAMESPACES = ("note", "colour", "space", "section", "goods", "side", "draw",
                      "category", "phase", "achievement", "reward", "building", "cube_letter",
                      "rules",  # rules.<key>...: interpretations.json (test_rules_readings)
                      "error")  # error.<key>: engine error keys (test_error_keys)


class RawMessage(NamedTuple):
    """One catalogue entry as the file has it: a plural entry has one text per form."""

    forms: tuple[str, ...]
    fuzzy: bool
    plural: bool
    plural_id: str | None  # msgid_plural


def read_catalogue_file(path: Path) -> Catalog:
    """The file as pybabel reads it, strictly: a form beyond the header's nplurals, an
    unknown keyword or a broken line raises instead of being skipped."""
    with path.open("rb") as fh:
        return read_po(fh, abort_invalid=True)


def raw_messages(lang: str) -> dict[str, RawMessage]:
    out: dict[str, RawMessage] = {}
    for path in catalogue_files(lang):
        for m in read_catalogue_file(path):
            if not m.id:
                continue
            if m.pluralizable:
                key, plural_id = str(m.id[0]), str(m.id[1])
                assert isinstance(m.string, (tuple, list)), key  # a form per plural
                forms = tuple(str(form or "") for form in m.string)
            else:
                key, plural_id, forms = str(m.id), None, (str(m.string or ""),)
            assert key not in out, f"{key} is defined twice ({path.name})"
            out[key] = RawMessage(forms, bool(m.fuzzy), m.pluralizable, plural_id)
    return out


def raw_catalogue(lang: str) -> dict[str, tuple[str, bool]]:
    """key -> (text, fuzzy) for every entry; a plural entry's text is its forms joined by
    a line break, so checks of words see every form."""
    return {key: ("\n".join(m.forms), m.fuzzy) for key, m in raw_messages(lang).items()}


def plural_keys(lang: str = "en") -> set[str]:
    return {key for key, m in raw_messages(lang).items() if m.plural}


def header_plural_forms(path: Path) -> str:
    """The file's own `Plural-Forms` header ('' when it has none)."""
    headers = dict(read_catalogue_file(path).mime_headers)
    return " ".join(str(headers.get("Plural-Forms", "")).split())


def count_for_form(lang: str, index: int) -> int:
    """A count the language's plural rule sends to msgstr[index]."""
    catalogue = load_messages(lang)
    return next(n for n in range(1000) if catalogue.plural_index(n) == index)


def keys_used_in_app() -> dict[str, str]:
    """String constants in companion/app and companion/web that look like message keys ->
    where."""
    namespaces = {key.split(".")[0] for key in raw_catalogue("en")}
    found: dict[str, str] = {}
    for path in [*APP_DIR.rglob("*.py"), *WEB_DIR.rglob("*.py"), *GAMES_DIR.rglob("*.py")]:
        if path.name == "settings.py" and path.parent == APP_DIR:
            continue  # store keys such as "app.language", not messages
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and KEY_RE.match(node.value) and node.value.split(".")[0] in namespaces):
                found.setdefault(node.value, f"{path.relative_to(APP_DIR.parent)}:{node.lineno}")
    return found


def test_every_supported_language_has_a_catalogue() -> None:
    assert available_languages() == list(SUPPORTED_LANGUAGES)


@pytest.mark.parametrize("lang", [lang for lang in SUPPORTED_LANGUAGES if lang != "en"])
def test_catalogue_has_every_key_with_same_placeholders(lang: str) -> None:
    english, other = raw_messages("en"), raw_messages(lang)
    missing = sorted(set(english) - set(other))
    extra = sorted(set(other) - set(english))
    assert not missing, f"{lang} lacks keys: {missing}"
    assert not extra, f"{lang} has keys English does not: {extra}"
    problems = []
    for key, message in other.items():
        wanted = placeholders(english[key].forms[-1])
        if message.plural != english[key].plural:
            problems.append(f"{key}: plural in one language, not in the other")
        elif not all(message.forms):
            problems.append(f"{key}: untranslated")
        elif message.fuzzy:
            problems.append(f"{key}: fuzzy")
        for form in message.forms:
            if form and placeholders(form) != wanted:
                problems.append(f"{key}: placeholders {sorted(placeholders(form))} != "
                                f"{sorted(wanted)}")
    assert not problems, f"{lang}: " + "; ".join(problems)


def test_english_catalogue_is_complete() -> None:
    english = raw_messages("en")
    assert all(all(m.forms) and not m.fuzzy for m in english.values())
    for key, message in english.items():  # English forms differ in words, never in values
        assert len({frozenset(placeholders(form)) for form in message.forms}) == 1, key


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_every_file_declares_the_languages_plural_forms(lang: str) -> None:
    """Each .po says `Plural-Forms` itself (Poedit and Weblate read one file at a time),
    and it is the gettext rule Babel knows for the language: en/de two forms, ko/zh one."""
    expected = get_plural(BABEL_LOCALES[lang]).plural_forms
    assert expected == {"en": "nplurals=2; plural=(n != 1);",
                        "de": "nplurals=2; plural=(n != 1);",
                        "ko": "nplurals=1; plural=0;",
                        "zh_Hant": "nplurals=1; plural=0;"}[lang]
    for path in catalogue_files(lang):
        assert header_plural_forms(path) == expected, path.name
    assert load_messages(lang).plural_forms == expected


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_plural_entries_have_one_form_per_plural_of_the_language(lang: str) -> None:
    nplurals = get_plural(BABEL_LOCALES[lang]).num_plurals
    plurals = {key: m for key, m in raw_messages(lang).items() if m.plural}
    assert plurals  # the messages about a number of things
    for key, message in plurals.items():
        assert message.plural_id == key, f"{lang} {key}: msgid_plural is the key too"
        assert len(message.forms) == nplurals, (lang, key, message.forms)
        assert all(message.forms), f"{lang} {key}: an empty form"


def test_no_plural_variant_keys_remain() -> None:
    """The old `<key>#one` convention is gone: no key holds a '#'."""
    for lang in SUPPORTED_LANGUAGES:
        assert not [key for key in raw_messages(lang) if "#" in key], lang


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_pybabel_reads_every_catalogue_with_its_plurals(lang: str) -> None:
    """babel.messages.pofile.read_po (what pybabel compile/update use) parses every file
    strictly and sees the plural entries as plural, the same set in every language."""
    seen: set[str] = set()
    for path in catalogue_files(lang):
        catalog = read_catalogue_file(path)
        seen |= {str(m.id[0]) for m in catalog if m.id and m.pluralizable}
        assert catalog.num_plurals == get_plural(BABEL_LOCALES[lang]).num_plurals
    assert seen == plural_keys("en")
    assert "village.schematic.setup_card" in seen and "history.count" in seen


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_compiled_catalogue_ngettext_agrees_with_tn(lang: str) -> None:
    """Compiled to .mo by Babel and read by the standard library's GNUTranslations, every
    plural message gives the text Translator.tn gives, for every count."""
    merged = Catalog(locale=BABEL_LOCALES[lang])
    for path in catalogue_files(lang):
        for message in read_catalogue_file(path):
            if message.id and message.pluralizable:
                merged[message.id] = message
    merged.mime_headers = read_catalogue_file(catalogue_files(lang)[0]).mime_headers
    buffer = io.BytesIO()
    write_mo(buffer, merged)
    buffer.seek(0)
    compiled = gettext.GNUTranslations(buffer)
    tr = Translator(lang)
    for key in plural_keys(lang):
        for count in (0, 1, 2, 3, 5, 11, 21, 101):
            assert compiled.ngettext(key, key, count) == tr.tn(key, count), (key, count)


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_plural_rule_matches_the_cldr_categories(lang: str) -> None:
    """The gettext rule tells apart exactly the counts CLDR does for whole numbers."""
    cldr = Locale.parse(BABEL_LOCALES[lang]).plural_form
    catalogue = load_messages(lang)
    for count in range(0, 1001):
        assert (catalogue.plural_index(count) == 0) == (
            cldr(count) == "one" or len(cldr.tags) == 0), count


def plural_calls() -> list[tuple[str, str, str]]:
    """(method, key, where) for every t/tn call in the app whose key is a literal."""
    found = []
    for path in [*APP_DIR.rglob("*.py"), *WEB_DIR.rglob("*.py"), *GAMES_DIR.rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("t", "tn") and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                found.append((node.func.attr, node.args[0].value,
                              f"{path.relative_to(APP_DIR.parent)}:{node.lineno}"))
    return found


def test_plural_messages_are_read_with_a_count() -> None:
    plurals = plural_keys("en")
    calls = plural_calls()
    assert sum(method == "tn" for method, *_ in calls) >= 25
    wrong = [f"{where}: {method}({key!r})" for method, key, where in calls
             if (method == "t") == (key in plurals)]
    assert not wrong, "a plural message needs tn, any other t: " + ", ".join(wrong)


def test_every_key_used_in_the_app_exists() -> None:
    english = raw_catalogue("en")
    missing = {key: where for key, where in keys_used_in_app().items() if key not in english}
    assert not missing, f"keys used but not in locales/en: {missing}"


@pytest.mark.parametrize(("lang", "count", "expected"), [
    ("en", 1, "Setup card, 1 player"), ("en", 2, "Setup card, 2 players"),
    ("en", 0, "Setup card, 0 players"), ("de", 1, "Aufbaukarte, 1 Person"),
    ("de", 4, "Aufbaukarte, 4 Personen"), ("de", 0, "Aufbaukarte, 0 Personen"),
])
def test_plural_forms(lang: str, count: int, expected: str) -> None:
    assert Translator(lang).tn("village.schematic.setup_card", count,
                               players=count) == expected


@pytest.mark.parametrize("lang", ["ko", "zh_Hant"])
def test_languages_with_one_form_use_it_for_every_count(lang: str) -> None:
    tr = Translator(lang)
    (form,) = raw_messages(lang)["village.log.taps"].forms
    for count in (0, 1, 2, 5):
        assert tr.tn("village.log.taps", count, count=count) == form.format(count=count)


def test_a_key_without_plural_forms_reads_the_same_for_every_count() -> None:
    en = Translator("en")
    texts = {en.tn("history.stats.streak_won", n, count=3) for n in (0, 1, 2, 5)}
    assert texts == {en.t("history.stats.streak_won", count=3)}


def test_no_unused_keys() -> None:
    static = {k for k in raw_catalogue("en") if k.split(".")[0] not in DYNAMIC_NAMESPACES}
    unused = sorted(static - set(keys_used_in_app()))
    assert not unused, f"keys in the catalogues that no code uses: {unused}"


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_catalogue_formats_with_its_placeholders(lang: str) -> None:
    tr = Translator(lang)
    for key, message in raw_messages(lang).items():
        for index, form in enumerate(message.forms):
            values = {name: f"<{name}>" for name in placeholders(form)}
            rendered = (tr.tn(key, count_for_form(lang, index), **values) if message.plural
                        else tr.t(key, **values))
            assert rendered == (form.format(**values) if values else form), (lang, key, index)


@pytest.mark.parametrize(("locale", "expected"), [
    ("zh-TW", "zh_Hant"), ("zh_Hant_TW", "zh_Hant"), ("zh-Hant", "zh_Hant"),
    ("zh-HK", "zh_Hant"), ("zh", "zh_Hant"), ("zh-CN", "en"), ("zh-Hans-CN", "en"),
    ("ko-KR", "ko"), ("ko", "ko"), ("de-AT", "de"), ("de_DE.UTF-8", "de"),
    ("en-GB", "en"), ("fr-FR", "en"), ("", "en"), (None, "en"), ("---", "en"),
])
def test_best_language(locale: str | None, expected: str) -> None:
    assert best_language(locale) == expected


@pytest.fixture
def scratch_locales(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private locales dir with a partial Korean and a broken German catalogue."""
    def write(lang: str, entries: dict[str, str]) -> None:
        path = tmp_path / lang / "LC_MESSAGES" / "messages.po"
        path.parent.mkdir(parents=True)
        body = "".join(f'msgid "{k}"\nmsgstr "{v}"\n\n' for k, v in entries.items())
        path.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                        + body, "utf-8")

    write("en", {"a.hello": "Hello {name}", "a.only_en": "English only"})
    write("ko", {"a.hello": "안녕 {name"})  # broken placeholder on purpose
    (tmp_path / "de" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "de" / "LC_MESSAGES" / "messages.po").write_bytes(b"\xff\xfe not a po")
    monkeypatch.setenv("VILLAGE_COMPANION_LOCALES_DIR", str(tmp_path))
    i18n.load_messages.cache_clear()
    yield tmp_path
    i18n.load_messages.cache_clear()


def test_missing_key_falls_back_to_english_then_key(scratch_locales: Path) -> None:
    ko = Translator("ko")
    assert ko.t("a.only_en") == "English only"
    assert ko.t("a.nowhere") == "a.nowhere"
    assert ko.t("a.hello", name="Kim") == "안녕 {name"  # broken text shown raw, no crash


def test_broken_or_missing_catalogue_never_raises(scratch_locales: Path) -> None:
    assert Translator("de").t("a.hello", name="X") == "Hello X"
    assert Translator("zh_Hant").t("a.hello", name="X") == "Hello X"  # file absent
    assert Translator("xx").lang == "en"


def test_plural_message_falls_back_to_english_with_englishs_rule(
        scratch_locales: Path) -> None:
    plural = ('msgid "a.items"\nmsgid_plural "a.items"\n'
              'msgstr[0] "{count} item"\nmsgstr[1] "{count} items"\n')
    en = scratch_locales / "en" / "LC_MESSAGES" / "messages.po"
    en.write_text(en.read_text("utf-8").replace(
        '"Content-Type', '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n"Content-Type')
        + "\n" + plural, "utf-8")
    i18n.load_messages.cache_clear()
    ko = Translator("ko")  # Korean has one form, but its catalogue lacks the message
    assert [ko.tn("a.items", n, count=n) for n in (0, 1, 2)] == ["0 items", "1 item",
                                                                 "2 items"]
    assert ko.t("a.items", count=3) == "3 items"  # without a count: the general form
    assert ko.tn("a.nowhere", 1) == "a.nowhere"


def test_broken_plural_rule_falls_back_to_one_and_other(scratch_locales: Path) -> None:
    path = scratch_locales / "zh_Hant" / "LC_MESSAGES" / "messages.po"
    path.parent.mkdir(parents=True)
    path.write_text('msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n +);\\n"\n\n'
                    'msgid "a.items"\nmsgid_plural "a.items"\n'
                    'msgstr[0] "一 {count}"\nmsgstr[1] "多 {count}"\n', "utf-8")
    i18n.load_messages.cache_clear()
    zh = Translator("zh_Hant")
    assert [zh.tn("a.items", n, count=n) for n in (1, 4)] == ["一 1", "多 4"]


def test_unknown_placeholder_stays_visible() -> None:
    assert Translator("en").t("pager.status", page=1) == "Page 1 of {pages}"
