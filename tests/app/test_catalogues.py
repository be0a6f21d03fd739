"""Every language has every key, with the same placeholders; every key used exists."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion import i18n
from companion.i18n import (
    SUPPORTED_LANGUAGES,
    Translator,
    available_languages,
    best_language,
    catalogue_files,
    placeholders,
)

APP_DIR = Path(i18n.__file__).resolve().parent / "app"
WEB_DIR = APP_DIR.parent / "web"  # the join page and the connection banner
KEY_RE = re.compile(r"^[a-z_]+(\.[a-z0-9_]+)+$")


# Namespaces whose keys are built at run time (f"note.{key}", f"colour.{c}" ...): they are
# checked against the engine's own lists below instead of against constants in the code.
DYNAMIC_NAMESPACES = ("note", "colour", "space", "section", "goods", "side", "draw",
                      "category", "phase", "achievement", "reward", "building", "cube_letter",
                      "rules",  # rules.<key>...: interpretations.json (test_rules_readings)
                      "error")  # error.<key>: engine error keys (test_error_keys)


PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many")


def raw_catalogue(lang: str) -> dict[str, tuple[str, bool]]:
    out: dict[str, tuple[str, bool]] = {}
    for path in catalogue_files(lang):
        with path.open("rb") as fh:
            catalog = read_po(fh)
        for m in catalog:
            if m.id:
                assert str(m.id) not in out, f"{m.id} is defined twice ({path.name})"
                out[str(m.id)] = (str(m.string or ""), bool(m.fuzzy))
    return out


def is_plural_variant(key: str) -> bool:
    """`<key>#one` …: a plural form of `<key>`, chosen by Translator.tn."""
    return "#" in key and key.rsplit("#", 1)[-1] in PLURAL_CATEGORIES


def keys_used_in_app() -> dict[str, str]:
    """String constants in companion/app and companion/web that look like message keys ->
    where."""
    namespaces = {key.split(".")[0] for key in raw_catalogue("en")}
    found: dict[str, str] = {}
    for path in [*APP_DIR.rglob("*.py"), *WEB_DIR.rglob("*.py")]:
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
    english, other = raw_catalogue("en"), raw_catalogue(lang)
    if not Translator(lang).plural_categories():
        # No plural categories (Korean, Chinese): one text serves every count.
        english = {k: v for k, v in english.items() if not is_plural_variant(k)}
    missing = sorted(set(english) - set(other))
    extra = sorted(set(other) - set(english))
    assert not missing, f"{lang} lacks keys: {missing}"
    assert not extra, f"{lang} has keys English does not: {extra}"
    problems = []
    for key, (text, fuzzy) in other.items():
        if not text:
            problems.append(f"{key}: untranslated")
        elif fuzzy:
            problems.append(f"{key}: fuzzy")
        elif placeholders(text) != placeholders(english[key][0]):
            problems.append(f"{key}: placeholders {sorted(placeholders(text))} != "
                            f"{sorted(placeholders(english[key][0]))}")
    assert not problems, f"{lang}: " + "; ".join(problems)


def test_english_catalogue_is_complete() -> None:
    english = raw_catalogue("en")
    assert all(text and not fuzzy for text, fuzzy in english.values())


def test_every_key_used_in_the_app_exists() -> None:
    english = raw_catalogue("en")
    missing = {key: where for key, where in keys_used_in_app().items() if key not in english}
    assert not missing, f"keys used but not in locales/en: {missing}"


def test_plural_variants_belong_to_a_key() -> None:
    for lang in SUPPORTED_LANGUAGES:
        catalogue = raw_catalogue(lang)
        tags = Translator(lang).plural_categories()
        for key in filter(is_plural_variant, catalogue):
            base, category = key.rsplit("#", 1)
            assert base in catalogue, f"{lang}: {key} has no general text {base}"
            assert category in tags, f"{lang} has no plural category {category!r}: {key}"


@pytest.mark.parametrize(("lang", "count", "expected"), [
    ("en", 1, "Setup card, 1 player"), ("en", 2, "Setup card, 2 players"),
    ("en", 0, "Setup card, 0 players"), ("de", 1, "Aufbaukarte, 1 Person"),
    ("de", 4, "Aufbaukarte, 4 Personen"),
])
def test_plural_forms(lang: str, count: int, expected: str) -> None:
    assert Translator(lang).tn("village.schematic.setup_card", count,
                               players=count) == expected


def test_languages_without_plural_forms_use_the_general_text() -> None:
    ko = Translator("ko")
    assert ko.tn("village.schematic.setup_card", 1, players=1) == ko.t(
        "village.schematic.setup_card", players=1)


def test_no_unused_keys() -> None:
    static = {k for k in raw_catalogue("en")
              if k.split(".")[0] not in DYNAMIC_NAMESPACES and not is_plural_variant(k)}
    unused = sorted(static - set(keys_used_in_app()))
    assert not unused, f"keys in the catalogues that no code uses: {unused}"


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_catalogue_formats_with_its_placeholders(lang: str) -> None:
    tr = Translator(lang)
    for key, (text, _fuzzy) in raw_catalogue(lang).items():
        values = {name: f"<{name}>" for name in placeholders(text)}
        rendered = tr.t(key, **values)
        for name in values:
            assert f"<{name}>" in rendered, (lang, key)


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
    i18n.load_catalogue.cache_clear()
    yield tmp_path
    i18n.load_catalogue.cache_clear()


def test_missing_key_falls_back_to_english_then_key(scratch_locales: Path) -> None:
    ko = Translator("ko")
    assert ko.t("a.only_en") == "English only"
    assert ko.t("a.nowhere") == "a.nowhere"
    assert ko.t("a.hello", name="Kim") == "안녕 {name"  # broken text shown raw, no crash


def test_broken_or_missing_catalogue_never_raises(scratch_locales: Path) -> None:
    assert Translator("de").t("a.hello", name="X") == "Hello X"
    assert Translator("zh_Hant").t("a.hello", name="X") == "Hello X"  # file absent
    assert Translator("xx").lang == "en"


def test_unknown_placeholder_stays_visible() -> None:
    assert Translator("en").t("pager.status", page=1) == "Page 1 of {pages}"
