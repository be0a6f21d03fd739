"""The web layers' shared helpers (companion/web/asgi.py) and the one language negotiator
they and the app use (companion.i18n.negotiate_language)."""

from __future__ import annotations

import pytest

from companion.i18n import negotiate_language
from companion.web.asgi import accepted_languages, first_header, header_values, html_lang


@pytest.mark.parametrize(("header", "tags"), [
    (None, []), ("", []), ("de-CH, de;q=0.9, en;q=0.8", ["de-CH", "de", "en"]),
    ("de;q=0.5, ko", ["ko", "de"]), ("fr;q=0.5, ko;q=0.5", ["fr", "ko"]),  # ties: in order
    ("*, de;q=0, ko;q=x", []), (" en-US ;q=1.0 ,", ["en-US"]),
])
def test_accepted_languages_rank_by_quality(header: str | None, tags: list[str]) -> None:
    assert accepted_languages(header) == tags


@pytest.mark.parametrize(("preferred", "language"), [
    ([], "en"), ([None, ""], "en"), (["fr_FR", "zh_Hant_TW"], "zh_Hant"),
    (["zh_Hans_CN", "ko"], "ko"), (["zh-CN", "zh-TW"], "zh_Hant"), (["de_CH"], "de"),
    (["pt-BR", "es"], "en"), (["en-GB", "de"], "en"), (["*", "x--y", "de-AT"], "de"),
    (["ZH-hk"], "zh_Hant"), (["zh_Hant"], "zh_Hant"), (["ko_KR.UTF-8"], "ko"),
])
def test_negotiate_language_takes_the_first_we_have(preferred: list[str | None],
                                                     language: str) -> None:
    """Region falls back to its language (de-CH -> de), Chinese goes by script or region
    (Simplified is not offered), anything else falls through to the next, then English."""
    assert negotiate_language(preferred) == language


def test_headers_and_html_lang() -> None:
    scope = {"headers": [(b"Accept-Language", b"ko"), (b"cookie", b"a=1"),
                         (b"cookie", b"b=2")]}
    assert header_values(scope, b"cookie") == ["a=1", "b=2"]
    assert first_header(scope, b"accept-language") == "ko"
    assert first_header(scope, b"origin") is None
    assert html_lang("zh_Hant") == "zh-Hant" and html_lang("de") == "de"
