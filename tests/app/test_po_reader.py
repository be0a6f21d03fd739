"""The catalogues' own .po reader (i18n._read_plain_po, issue 23: the first page carries
words of all four languages, and Babel's reader took about 70 ms for them) gives what
Babel's read_po gives, and leaves every file it does not fully read to Babel."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.i18n import SUPPORTED_LANGUAGES, catalogue_files, po_file_messages

HEADER = ('# A comment\nmsgid ""\nmsgstr ""\n"Language: de\\n"\n'
          '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n'
          '"Content-Type: text/plain; charset=utf-8\\n"\n\n')


def test_every_shipped_catalogue_is_read_plainly_and_as_babel_reads_it() -> None:
    files = [path for lang in SUPPORTED_LANGUAGES for path in catalogue_files(lang)]
    assert len(files) >= 4 * 8
    for path in files:
        data = path.read_bytes()
        plain = i18n._read_plain_po(data)  # raises if any of it needed Babel
        assert plain == i18n._read_po_with_babel(data), path.name
        assert plain.texts and plain.plural_forms.startswith("nplurals=")


PLAIN_CASES = {
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
}

BABEL_CASES = {
    "obsolete entry": HEADER + 'msgid "a.a"\nmsgstr "A"\n\n#~ msgid "a.old"\n#~ msgstr "O"\n',
    "context": HEADER + 'msgctxt "menu"\nmsgid "a.a"\nmsgstr "A"\n',
    "duplicate msgid, the first fuzzy": HEADER + (
        '#, fuzzy\nmsgid "a.a"\nmsgstr "A"\n\nmsgid "a.a"\nmsgstr "B"\n'),
    "more forms than nplurals": HEADER + (
        'msgid "a.n"\nmsgid_plural "a.n"\nmsgstr[0] "1"\nmsgstr[1] "2"\nmsgstr[2] "3"\n'),
    "no Plural-Forms but a Language": ('msgid ""\nmsgstr ""\n"Language: ko\\n"\n\n'
                                       'msgid "a.n"\nmsgid_plural "a.n"\nmsgstr[0] "n"\n'),
    "no header": 'msgid "a.a"\nmsgstr "A"\n',
    "msgid without msgstr": HEADER + 'msgid "a.a"\n\nmsgid "b.b"\nmsgstr "B"\n',
    "latin-1 file": ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=latin-1\\n"\n'
                     '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
                     'msgid "a.a"\nmsgstr "Gr\xfc\xdfe"\n'),
}


@pytest.mark.parametrize("case", sorted(PLAIN_CASES))
def test_plain_layouts_read_as_babel_reads_them(case: str) -> None:
    data = PLAIN_CASES[case].encode("utf-8")
    assert i18n._read_plain_po(data) == i18n._read_po_with_babel(data)


def test_what_the_plain_reader_finds_in_them() -> None:
    escaped = i18n._read_plain_po(PLAIN_CASES["escapes and continued lines"].encode())
    assert escaped.texts == {"a.x": 'Line one\nsay "hi"\tand a \\ backslash', "a.y": "Y"}
    assert escaped.plural_forms == "nplurals=2; plural=(n != 1);"
    fuzzy = i18n._read_plain_po(PLAIN_CASES["fuzzy and untranslated are left out"].encode())
    assert fuzzy.texts == {"a.kept": "K"}
    plural = i18n._read_plain_po(PLAIN_CASES["plurals complete and incomplete"].encode())
    assert plural.plurals == {"a.n": ("one", "many"), "a.o": ("one", "many")}


@pytest.mark.parametrize("case", sorted(BABEL_CASES))
def test_anything_else_is_left_to_babel(case: str) -> None:
    text = BABEL_CASES[case]
    data = text.encode("latin-1") if "latin-1" in case else text.encode("utf-8")
    with pytest.raises(ValueError):  # _NotPlain or a decoding error
        i18n._read_plain_po(data)
    assert po_file_messages(data) == i18n._read_po_with_babel(data)


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
