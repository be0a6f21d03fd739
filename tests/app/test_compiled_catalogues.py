"""The catalogues as the app reads them (i18n.po_file_messages: compiled by Babel to .mo
once per content, kept in the cache folder, read by the standard library's gettext;
issue 23: the first page carries words of all four languages and Babel's .po reader took
about 70 ms for them) give what Babel's own reading of the .po gives."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion import i18n
from companion.i18n import SUPPORTED_LANGUAGES, catalogue_files, po_file_messages

HEADER = ('# A comment\nmsgid ""\nmsgstr ""\n"Language: de\\n"\n'
          '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n'
          '"Content-Type: text/plain; charset=utf-8\\n"\n\n')


def babel_reading(data: bytes) -> i18n._FileMessages:
    """The reference: what Babel's read_po finds (fuzzy, untranslated and incomplete
    plural entries left out)."""
    catalog = read_po(io.BytesIO(data), locale=None)
    out = i18n._FileMessages({}, {}, "")
    if any(name.lower() == "plural-forms" for name, _ in catalog.mime_headers):
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
    return out


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("VILLAGE_COMPANION_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / "catalogues"


def test_every_shipped_catalogue_reads_as_babel_reads_it() -> None:
    files = [path for lang in SUPPORTED_LANGUAGES for path in catalogue_files(lang)]
    assert len(files) >= 4 * 8
    for path in files:
        data = path.read_bytes()
        found = po_file_messages(data)
        assert found == babel_reading(data), path.name
        assert found.texts and found.plural_forms.startswith("nplurals=")
        assert po_file_messages(data) == found  # the second time from the cache


CASES = {
    "escapes and continued lines": HEADER + (
        '#: somewhere.py:1\n#. for translators\nmsgid "a.x"\nmsgstr ""\n'
        '"Line one\\n"\n"say \\"hi\\"\\tand a \\\\ backslash"\n\n'
        'msgid "a.y"\nmsgstr "Y"\n'),
    "fuzzy and untranslated are left out": HEADER + (
        '#, fuzzy\nmsgid "a.fuzzy"\nmsgstr "F"\n\n#, python-format, fuzzy\n'
        'msgid "a.fuzzy2"\nmsgstr "F2"\n\nmsgid "a.empty"\nmsgstr ""\n\n'
        'msgid "a.kept"\nmsgstr "K"\n'),
    "plurals complete and incomplete": HEADER + (
        'msgid "a.n"\nmsgid_plural "a.n"\nmsgstr[0] "one"\nmsgstr[1] "many"\n\n'
        'msgid "a.m"\nmsgid_plural "a.m"\nmsgstr[0] "one"\n\n'
        'msgid "a.o"\nmsgid_plural "a.o"\nmsgstr[1] "many"\nmsgstr[0] "one"\n'),
    "no blank lines between entries": HEADER + 'msgid "a.a"\nmsgstr "A"\nmsgid "b.b"\n'
                                                'msgstr "B"\r\n',
    "obsolete entry": HEADER + 'msgid "a.a"\nmsgstr "A"\n\n#~ msgid "a.old"\n#~ msgstr "O"\n',
    "duplicate msgid, the first fuzzy": HEADER + (
        '#, fuzzy\nmsgid "a.a"\nmsgstr "A"\n\nmsgid "a.a"\nmsgstr "B"\n'),
    "more forms than nplurals": HEADER + (
        'msgid "a.n"\nmsgid_plural "a.n"\nmsgstr[0] "1"\nmsgstr[1] "2"\nmsgstr[2] "3"\n'),
    "no Plural-Forms but a Language": ('msgid ""\nmsgstr ""\n"Language: ko\\n"\n\n'
                                       'msgid "a.n"\nmsgid_plural "a.n"\nmsgstr[0] "n"\n'),
    "no header": 'msgid "a.a"\nmsgstr "A"\n',
    "latin-1 file": ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=latin-1\\n"\n'
                     '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
                     'msgid "a.a"\nmsgstr "Gr\xfc\xdfe"\n'),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_po_layouts_read_as_babel_reads_them(case: str) -> None:
    text = CASES[case]
    data = text.encode("latin-1") if "latin-1" in case else text.encode("utf-8")
    assert po_file_messages(data) == babel_reading(data)


def test_what_is_found_in_them() -> None:
    escaped = po_file_messages(CASES["escapes and continued lines"].encode())
    assert escaped.texts == {"a.x": 'Line one\nsay "hi"\tand a \\ backslash', "a.y": "Y"}
    assert escaped.plural_forms == "nplurals=2; plural=(n != 1);"
    fuzzy = po_file_messages(CASES["fuzzy and untranslated are left out"].encode())
    assert fuzzy.texts == {"a.kept": "K"}
    plural = po_file_messages(CASES["plurals complete and incomplete"].encode())
    assert plural.plurals == {"a.n": ("one", "many"), "a.o": ("one", "many")}


def test_a_compiled_catalogue_is_kept_and_read_back(own_cache: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    data = CASES["escapes and continued lines"].encode()
    first = po_file_messages(data)
    kept = list(own_cache.iterdir())
    assert len(kept) == 1 and kept[0].suffix == ".mo"

    def no_compiling(data: bytes) -> bytes:
        raise AssertionError("compiled again")

    monkeypatch.setattr(i18n, "compile_po", no_compiling)
    assert po_file_messages(data) == first
    # another content is another file: an edited .po is never read from an old cache
    with pytest.raises(AssertionError, match="compiled again"):
        po_file_messages(data.replace(b'"Y"', b'"Z"'))


def test_a_damaged_cached_file_is_compiled_again(own_cache: Path) -> None:
    data = CASES["plurals complete and incomplete"].encode()
    first = po_file_messages(data)
    (kept,) = own_cache.iterdir()
    kept.write_bytes(kept.read_bytes()[:40])  # cut short
    assert po_file_messages(data) == first
    assert po_file_messages(data) == first  # and the cache mended
    kept.write_bytes(b"not a catalogue")
    assert po_file_messages(data) == first


def test_no_cache_folder_still_reads_the_catalogue(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("VILLAGE_COMPANION_CACHE_DIR", str(blocker))
    data = CASES["fuzzy and untranslated are left out"].encode()
    assert po_file_messages(data) == babel_reading(data)


def test_a_msgid_is_in_one_file_of_a_language_only() -> None:
    # load_messages would let a later file win silently, and page_text reads messages.po
    # alone for the page's words.
    for lang in SUPPORTED_LANGUAGES:
        where: dict[str, str] = {}
        for path in catalogue_files(lang):
            found = po_file_messages(path.read_bytes())
            for msgid in [*found.texts, *found.plurals]:
                assert msgid not in where, f"{lang}: {msgid} in {where[msgid]} and {path.name}"
                where[msgid] = path.name


def test_page_text_is_what_the_translator_says_without_loading_the_catalogues() -> None:
    i18n.load_messages.cache_clear()
    shell_ids = {lang: list(po_file_messages(i18n.catalogue_path(lang).read_bytes()).texts)
                 for lang in SUPPORTED_LANGUAGES}
    texts = {(lang, msgid): i18n.page_text(lang, msgid)
             for lang, ids in shell_ids.items() for msgid in ids}
    assert i18n.load_messages.cache_info().currsize == 0  # messages.po alone was read
    assert len(texts) > 4 * 50
    assert texts == {(lang, msgid): i18n.Translator(lang).t(msgid)
                     for lang, ids in shell_ids.items() for msgid in ids}
    # elsewhere than in messages.po, unknown, or an unsupported language: the Translator's
    assert i18n.page_text("de", "history.title") == i18n.Translator("de").t("history.title")
    assert i18n.page_text("ko", "no.such.key") == "no.such.key"
    assert i18n.page_text("xx", "app.title") == i18n.Translator("en").t("app.title")


def test_a_failed_cache_write_leaves_no_temp_file(own_cache: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def full_disk(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(i18n.os, "replace", full_disk)
    data = CASES["escapes and continued lines"].encode()
    assert po_file_messages(data) == babel_reading(data)  # read all the same
    assert list(own_cache.iterdir()) == []  # the half-made temp file is gone
