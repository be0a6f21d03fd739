"""Every character of every catalogue has a glyph in a font the page has for its language
(issue 23): the web engine draws with Flet's Roboto, plus the shipped CJK fonts for Korean
and Chinese (companion/web/fonts.py). A character none of them has sends the engine looking
for a fallback font on every layout (a font request, then an empty box or nothing): "✓",
"→" and the full-width "；" did."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.bundled import bundled_dir
from companion.i18n import SUPPORTED_LANGUAGES, catalogue_files
from companion.web.fonts import WEB_FONTS, fallbacks
from companion.web.icon_font import flet_web_dir

ttLib = pytest.importorskip("fontTools.ttLib")
CJK = ("ko", "zh_Hant")
NOT_DRAWN = {"\n"}


def code_points(path: Path) -> set[int]:
    return set(ttLib.TTFont(path).getBestCmap())


def page_fonts(language: str) -> set[int]:
    """The code points the page in `language` has glyphs for."""
    points = code_points(flet_web_dir() / "assets" / "fonts" / "roboto.woff2")
    if language in CJK:
        for family in fallbacks(language):
            points |= code_points(bundled_dir("assets") / WEB_FONTS[family])
    return points


def messages(language: str) -> dict[str, str]:
    """msgid -> every translated form of it, joined."""
    out: dict[str, str] = {}
    for path in catalogue_files(language):
        with path.open("rb") as fh:
            for message in read_po(fh, locale=None):
                if not message.id:
                    continue
                key = message.id if isinstance(message.id, str) else message.id[0]
                forms = message.string if isinstance(message.string, tuple | list) else [
                    message.string]
                out[key] = "".join(form or "" for form in forms)
    return out


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_every_character_of_the_catalogue_has_a_glyph(language: str) -> None:
    has = page_fonts(language)
    missing = {f"{key}: {char!r} (U+{ord(char):04X})"
               for key, text in messages(language).items()
               for char in text if ord(char) not in has and char not in NOT_DRAWN}
    assert not missing, sorted(missing)


def test_the_check_finds_a_character_no_font_has() -> None:
    assert ord("✓") not in page_fonts("en") | page_fonts("zh_Hant")
    assert {ord("√"), ord("·")} <= page_fonts("en")
