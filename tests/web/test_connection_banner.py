"""ConnectionBanner with fake ASGI scope/receive/send: the app page gets the banner's
script once, in the right language, with a correct Content-Length; everything else passes
untouched; the Host/Origin guard in front still refuses what it refused."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest

from companion.i18n import SUPPORTED_LANGUAGES, Translator
from companion.web.connection_banner import (
    BANNER_ID,
    END_ID,
    SCRIPT_ID,
    SHADE_ID,
    ConnectionBanner,
    LanguageSource,
    banner_script,
    banner_words,
    choose_language,
    inject,
)
from companion.web.manifest import brand_page
from companion.web.server_guard import HostOriginGuard, build_policy

PORT = 8550
PAGE = (b"<!DOCTYPE html>\n<html>\n<head>\n  <base href=\"/\">\n  <title>Flet</title>\n"
        b"</head>\n<body>\n  <script src=\"flutter_bootstrap.js\" async></script>\n"
        b"</body>\n</html>\n")
FILE_HEADERS = [(b"etag", b'"abc"'), (b"last-modified", b"Tue, 01 Jul 2025 10:00:00 GMT"),
                (b"accept-ranges", b"bytes"), (b"cross-origin-opener-policy", b"same-origin")]
CONFIG_RE = re.compile(r"var cfg = (\{.*?\});\n")


class FakeApp:
    """Answers like Flet's static files: `body` (in `chunks` pieces) with `content_type`,
    a Content-Length and file validators. Records the scopes it saw."""

    def __init__(self, body: bytes = PAGE, content_type: bytes = b"text/html; charset=utf-8",
                 status: int = 200, chunks: int = 1) -> None:
        self.body, self.content_type, self.status, self.chunks = (body, content_type, status,
                                                                  chunks)
        self.scopes: list[dict[str, Any]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.scopes.append(scope)
        if scope["type"] == "websocket":
            await receive()
            await send({"type": "websocket.accept"})
            return
        if scope["type"] != "http":
            return
        await send({"type": "http.response.start", "status": self.status, "headers": [
            (b"content-type", self.content_type),
            (b"content-length", str(len(self.body)).encode()), *FILE_HEADERS]})
        if scope["method"] == "HEAD":
            await send({"type": "http.response.body", "body": b""})
            return
        size = -(-len(self.body) // self.chunks)
        pieces = [self.body[i:i + size] for i in range(0, len(self.body), size)] or [b""]
        for n, piece in enumerate(pieces):
            await send({"type": "http.response.body", "body": piece,
                        "more_body": n < len(pieces) - 1})


def scope(path: str = "/", method: str = "GET", kind: str = "http",
          headers: list[tuple[bytes, bytes]] | None = None,
          origin: str | None = None) -> dict[str, Any]:
    all_headers = [(b"host", f"127.0.0.1:{PORT}".encode())]
    if origin is not None:
        all_headers.append((b"origin", origin.encode()))
    return {"type": kind, "method": method, "path": path,
            "headers": all_headers + (headers or [])}


def call(app: Any, sc: dict[str, Any]) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []
    incoming = [{"type": "websocket.connect"}] if sc["type"] == "websocket" else [
        {"type": "http.request", "body": b"", "more_body": False}]

    async def receive() -> dict[str, Any]:
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(dict(message))

    asyncio.run(app(sc, receive, send))
    return sent


def response(sent: list[dict[str, Any]]) -> tuple[int, dict[bytes, list[bytes]], bytes]:
    start = sent[0]
    assert start["type"] == "http.response.start"
    headers: dict[bytes, list[bytes]] = {}
    for key, value in start["headers"]:
        headers.setdefault(key.lower(), []).append(value)
    body = b"".join(m.get("body", b"") for m in sent[1:])
    return start["status"], headers, body


def config(body: bytes) -> dict[str, Any]:
    """The banner script's configuration object, as the page carries it."""
    found = CONFIG_RE.search(body.decode("utf-8"))
    assert found is not None
    parsed: dict[str, Any] = json.loads(found.group(1))
    return parsed


def fixed(language: str | None) -> LanguageSource:
    async def source(_scope: Any) -> str | None:
        return language
    return source


# ---- the page ---------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/village/friday", "/index.html", "/settings"])
@pytest.mark.parametrize("chunks", [1, 3])
def test_app_page_gets_the_script_once_before_flutter(path: str, chunks: int) -> None:
    status, headers, body = response(call(ConnectionBanner(FakeApp(chunks=chunks)),
                                          scope(path)))
    assert status == 200
    assert body.count(f'id="{SCRIPT_ID}"'.encode()) == 1
    assert body.count(b"<script") == 2  # ours and flutter_bootstrap.js
    assert body.index(SCRIPT_ID.encode()) < body.index(b"</head>") < body.index(
        b"flutter_bootstrap.js")
    ours = re.search(rb"<script id=.*?</script>", body, re.S)
    # nothing else but the app's own title, description and colour (web_manifest)
    assert ours is not None and body.replace(ours.group(0), b"") == brand_page(PAGE, "en")
    assert headers[b"content-length"] == [str(len(body)).encode()]


def test_changed_page_is_never_cached_or_revalidated() -> None:
    _status, headers, _body = response(call(ConnectionBanner(FakeApp()), scope()))
    assert b"etag" not in headers and b"last-modified" not in headers
    assert headers[b"cache-control"] == [b"no-store"]
    assert headers[b"cross-origin-opener-policy"] == [b"same-origin"]  # others kept


def test_conditional_headers_are_dropped_for_pages_only() -> None:
    inner = FakeApp()
    conditional = [(b"if-none-match", b'"abc"'), (b"if-modified-since", b"x")]
    call(ConnectionBanner(inner), scope("/", headers=conditional))
    call(ConnectionBanner(inner), scope("/main.dart.js", headers=conditional))
    page_headers = {k for k, _ in inner.scopes[0]["headers"]}
    asset_headers = {k for k, _ in inner.scopes[1]["headers"]}
    assert b"if-none-match" not in page_headers and b"if-modified-since" not in page_headers
    assert {b"if-none-match", b"if-modified-since"} <= asset_headers


def test_page_wrapped_twice_still_has_one_script() -> None:
    _status, headers, body = response(call(ConnectionBanner(ConnectionBanner(FakeApp())),
                                           scope()))
    assert body.count(SCRIPT_ID.encode()) == 1
    assert headers[b"content-length"] == [str(len(body)).encode()]


def test_head_request_has_no_body_and_no_stale_length() -> None:
    status, headers, body = response(call(ConnectionBanner(FakeApp()), scope(method="HEAD")))
    assert status == 200 and body == b""
    assert b"content-length" not in headers and b"etag" not in headers


def test_inject_without_head_goes_after_body_or_first() -> None:
    assert inject(b"<html><BODY class=x><p>hi</p></BODY>", "<s>") == (
        b"<html><BODY class=x><s><p>hi</p></BODY>")
    assert inject(b"<p>hi</p>", "<s>") == b"<s><p>hi</p>"
    page = inject(PAGE, banner_script("en"))
    assert inject(page, banner_script("de")) == page


# ---- everything else ---------------------------------------------------------------------------

@pytest.mark.parametrize(("path", "content_type"), [
    ("/main.dart.js", b"text/javascript; charset=utf-8"),
    ("/manifest.json", b"application/json"),
    ("/icons/loading-animation.png", b"image/png"),
    ("/page.js", b"text/html"),  # a file that is not a page, whatever its type says
    ("/api", b"application/json"),  # a route answering JSON
])
def test_non_html_is_untouched(path: str, content_type: bytes) -> None:
    inner = FakeApp(body=b"<head></head>not a page", content_type=content_type, chunks=2)
    direct = call(inner, scope(path))
    assert call(ConnectionBanner(inner), scope(path)) == direct


def test_error_pages_and_other_methods_are_untouched() -> None:
    for inner, sc in [(FakeApp(status=404), scope("/missing")),
                      (FakeApp(), scope("/", method="POST"))]:
        assert call(ConnectionBanner(inner), sc) == call(inner, sc)


class Gzipped(FakeApp):
    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"text/html"), (b"content-encoding", b"gzip"), *FILE_HEADERS]})
        await send({"type": "http.response.body", "body": b"\x1f\x8b..."})


def test_compressed_html_is_untouched() -> None:
    assert call(ConnectionBanner(Gzipped()), scope()) == call(Gzipped(), scope())


def test_websocket_and_lifespan_pass_through() -> None:
    inner = FakeApp()
    sent = call(ConnectionBanner(inner), scope("/ws", kind="websocket"))
    assert sent == [{"type": "websocket.accept"}]
    call(ConnectionBanner(inner), {"type": "lifespan"})
    assert [s["type"] for s in inner.scopes] == ["websocket", "lifespan"]


# ---- with the guard in front -------------------------------------------------------------------

def guarded(inner: FakeApp) -> HostOriginGuard:
    return HostOriginGuard(ConnectionBanner(inner), build_policy("127.0.0.1", PORT))


def test_guard_still_refuses_a_foreign_origin() -> None:
    inner = FakeApp()
    status, headers, body = response(call(guarded(inner),
                                          scope(origin="https://evil.example")))
    assert status == 403 and inner.scopes == []
    assert SCRIPT_ID.encode() not in body and headers[b"content-type"] == [
        b"text/plain; charset=utf-8"]
    sent = call(guarded(inner), scope("/ws", kind="websocket", origin="https://evil.example"))
    assert sent[0]["type"] == "websocket.close" and inner.scopes == []


def test_guard_lets_the_own_page_through_with_the_script() -> None:
    status, _headers, body = response(call(guarded(FakeApp()),
                                           scope(origin=f"http://127.0.0.1:{PORT}")))
    assert status == 200 and body.count(SCRIPT_ID.encode()) == 1


# ---- language ----------------------------------------------------------------------------------

def page_language(source: LanguageSource | None, accept: str | None = None) -> str:
    headers = [] if accept is None else [(b"accept-language", accept.encode())]
    _status, _headers, body = response(call(ConnectionBanner(FakeApp(), source),
                                            scope(headers=headers)))
    lang: str = config(body)["lang"]
    return lang


def test_language_setting_beats_the_browser() -> None:
    assert page_language(fixed("ko"), "de-DE,de;q=0.9") == "ko"


@pytest.mark.parametrize(("accept", "expected"), [
    ("de-DE,de;q=0.9,en;q=0.8", "de"), ("zh-TW,zh;q=0.9", "zh_Hant"), ("fr-FR,ko;q=0.5", "ko"),
    ("fr-FR", "en"), (None, "en")])
def test_without_a_setting_the_browser_language_then_english(accept: str | None,
                                                             expected: str) -> None:
    assert page_language(fixed(None), accept) == expected
    assert page_language(None, accept) == expected


def test_failing_language_source_still_serves_the_page(caplog: pytest.LogCaptureFixture
                                                       ) -> None:
    async def broken(_scope: Any) -> str | None:
        raise OSError("disk gone")

    assert page_language(broken, "de") == "de"
    assert "language could not be read" in caplog.text


def test_choose_language_ignores_unknown_settings() -> None:
    assert choose_language("xx", "ko-KR") == "ko"
    assert choose_language("zh_Hant", None) == "zh_Hant"


def test_words_come_from_each_catalogue() -> None:
    words = banner_words()
    assert set(words) == set(SUPPORTED_LANGUAGES)
    english = words["en"]
    assert english["lost"] == "Connection lost — trying to reconnect…"
    for lang, entry in words.items():
        tr = Translator(lang)
        assert entry["lost"] == tr.t("connection.lost")
        assert entry["back"] == tr.t("connection.back")
        assert entry["title"] == tr.t("app.title")
        if lang != "en":  # no English in a non-English banner
            assert entry["lost"] != english["lost"] and entry["back"] != english["back"]
            assert entry["title"] != english["title"]  # the title tells languages apart
        if lang in ("ko", "zh_Hant"):
            assert not re.search(r"[A-Za-z]", entry["lost"] + entry["back"])
    assert words["zh_Hant"]["lang"] == "zh-Hant"



def test_offline_and_ended_words_in_every_language() -> None:
    """Issue 20: "not live" under the banner, and what a phone the host let go reads, with
    the join page's link, from each catalogue; none of it English outside English."""
    words = banner_words()
    english = words["en"]
    keys = {"notLive": "connection.not_live", "stopped": "connection.stopped",
            "removed": "connection.removed", "left": "connection.left",
            "join": "connection.join"}
    assert len({english[k] for k in keys}) == len(keys)  # five different sentences
    for lang, entry in words.items():
        tr = Translator(lang)
        for field, key in keys.items():
            assert entry[field] == tr.t(key) and entry[field] != key
            if lang != "en":
                assert entry[field] != english[field]
        if lang in ("ko", "zh_Hant"):
            assert not re.search(r"[A-Za-z]", "".join(entry[k] for k in keys))


def test_script_knows_the_share_guards_codes_and_header() -> None:
    from companion.web.share_guard import (
        JOIN_PATH,
        MEMBER_CLOSE_CODE,
        MEMBER_REMOVED_CODE,
        SHARE_HEADER,
    )

    cfg = config(banner_script("en").encode())
    assert cfg["codes"] == {str(MEMBER_CLOSE_CODE): "stopped",
                            str(MEMBER_REMOVED_CODE): "removed"}
    assert set(cfg["codes"].values()) < set(cfg["ends"]) and "left" in cfg["ends"]
    assert cfg["shareHeader"] == SHARE_HEADER.decode()
    assert "/" + cfg["joinPath"] == JOIN_PATH
    assert cfg["probe"] == "manifest.json" and 0 < cfg["probeMs"] <= cfg["probeMaxMs"]
    assert cfg["shadeId"] == SHADE_ID and cfg["endId"] == END_ID
    # the sheet and the join link keep 48 px tap targets
    assert "min-height:48px" in cfg["css"].split(f"#{END_ID} a")[1]
    assert "min-height:48px" in cfg["css"].split(f"#{SHADE_ID} span")[1]

def test_script_cannot_be_ended_by_its_words(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.web import connection_banner

    real = connection_banner.banner_words()
    real["de"]["lost"] = "</script><script>alert(1)</script>"
    monkeypatch.setattr(connection_banner, "banner_words", lambda: real)
    script = banner_script("de")
    assert script.count("</script>") == 1 and script.endswith("</script>")
    assert config(script.encode())["words"]["de"]["lost"] == real["de"]["lost"]


def test_script_names_the_banner_and_its_role() -> None:
    script = banner_script("en")
    assert f'"id":"{BANNER_ID}"' in script
    assert 'element(cfg.id, "status")' in script and '"aria-live", "polite"' in script
    assert "min-height:48px" in script and "prefers-color-scheme:dark" in script
    assert config(banner_script("xx").encode())["lang"] == "en"


def test_the_page_html_uses_the_apps_own_cjk_fonts_loaded_while_online() -> None:
    """The banner, the "not live" note and the removed-phone page are HTML: on a device
    with no CJK font of its own they draw with the fonts the app ships (the Flutter page's
    own), which a Korean or Chinese page loads while the server is still there."""
    from companion.web.fonts import WEB_FONTS

    for family, path in WEB_FONTS.items():
        script = banner_script("en")
        assert f"@font-face{{font-family:'{family}';src:url('/{path}')" in script
    assert '"fonts":["VC Noto Sans KR"]' in banner_script("ko")
    assert '"fonts":["VC Noto Sans TC","VC Noto Sans TC 118","VC Noto Sans TC 119"]' in (
        banner_script("zh_Hant"))
    assert '"fonts":[]' in banner_script("de")
