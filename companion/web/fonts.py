"""The web fonts the app ships (assets/fonts, served from the assets dir) and which a
language needs: Flutter draws with them (companion/app/theme.py), and the page's own HTML (the
connection banner, the "not live" note, the removed-phone page) uses the same files, so
Korean and Chinese read the same on a device with no CJK font of its own. No Flet import:
the banner's ASGI layer reads this at start."""

from __future__ import annotations

import re
from functools import cache

# Family name -> asset path.
HANGUL = "VC Noto Sans KR"
HANT = "VC Noto Sans TC"
HANT_PUNCT_A = "VC Noto Sans TC 118"
HANT_PUNCT_B = "VC Noto Sans TC 119"
WEB_FONTS: dict[str, str] = {
    HANGUL: "fonts/noto-sans-kr-korean-400-normal.woff2",
    HANT: "fonts/noto-sans-tc-chinese-traditional-400-normal.woff2",
    HANT_PUNCT_A: "fonts/noto-sans-tc-118-400-normal.woff2",
    HANT_PUNCT_B: "fonts/noto-sans-tc-119-400-normal.woff2",
}
_HANT_ALL = [HANT, HANT_PUNCT_A, HANT_PUNCT_B]


def fallbacks(language: str) -> list[str]:
    """The families to fall back on, the language's own first."""
    return [HANGUL, *_HANT_ALL] if language == "ko" else [*_HANT_ALL, HANGUL]


def needed(language: str) -> list[str]:
    """The families a page in `language` cannot do without (loaded while still online)."""
    return {"ko": [HANGUL], "zh_Hant": list(_HANT_ALL)}.get(language, [])


# Hangul (jamo, compatibility jamo, syllables), CJK punctuation, Bopomofo, the CJK
# ideographs (extension A, unified, compatibility, the supplementary planes) and the
# full-width forms: text with any of these needs a shipped web font to draw.
_CJK_CLASS = ("[\u1100-\u11ff\u3000-\u303f\u3100-\u312f\u3130-\u318f"
              "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
              "\uff00-\uffef\U00020000-\U0003134f]")
_HANGUL_CLASS = "[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]"


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(CJK, Hangul), compiled when first needed: about 3 ms that the server's start
    (which imports this module for the banner) does not need (issue 23)."""
    return re.compile(_CJK_CLASS), re.compile(_HANGUL_CLASS)


def contains_cjk(text: str) -> bool:
    """True when `text` has a Hangul or Han character (or CJK punctuation)."""
    return _patterns()[0].search(text) is not None


def fonts_for_text(text: str) -> list[str]:
    """The shipped families `text` needs: the Korean font for Hangul, the Chinese ones
    for Han characters and CJK punctuation; none for other text."""
    cjk, hangul = _patterns()
    families = [HANGUL] if hangul.search(text) else []
    if cjk.search(hangul.sub("", text)):
        families += _HANT_ALL
    return families


def first_screen_fonts(language: str) -> dict[str, str]:
    """The web fonts a page in `language` registers at start (issue 23): only its own
    (Korean's or Chinese's); an English or German Home fetches no CJK font until such
    text appears or the user leaves Home (see theme.load_all_web_fonts)."""
    return {family: WEB_FONTS[family] for family in needed(language)}


def font_face_css() -> str:
    """@font-face rules for every shipped family (fetched only when used or loaded)."""
    return "".join(f"@font-face{{font-family:'{family}';src:url('/{path}') format('woff2');"
                   "font-display:swap}" for family, path in WEB_FONTS.items())
