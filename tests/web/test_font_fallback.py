"""The web engine's Noto fallback-font requests get the fonts we ship (issue 23: they were
answered 404 and asked for again after every layout)."""

from __future__ import annotations

import asyncio
from typing import Any

from companion.app.launch import assets_dir
from companion.web.font_fallback import FontFallbackRedirect, fallback_target

KR = "/assets/fonts/notosanskr/v36/PbyxFmXiEBPT4ITbgNA5Cgms3VYcOA-vvnIzzuoyeLGC5nwuDo.115.woff2"
TC = "/assets/fonts/notosanstc/v36/-nF7OG829Oofr2wohFbTp9iFOSsLA_ZJ1g.{}.woff2"
LATIN = "/assets/fonts/notosans/v37/o-0mIpQlx3QUlC5A4PNB6Ryti20_6n1iPHjcz6L1SoM.woff2"


def test_slices_go_to_the_shipped_fonts() -> None:
    assert fallback_target(KR) == "/fonts/noto-sans-kr-korean-400-normal.woff2"
    assert fallback_target(TC.format(12)) == (
        "/fonts/noto-sans-tc-chinese-traditional-400-normal.woff2")
    assert fallback_target(TC.format(118)) == "/fonts/noto-sans-tc-118-400-normal.woff2"
    assert fallback_target(TC.format(119)) == "/fonts/noto-sans-tc-119-400-normal.woff2"
    # A family we do not ship gets a valid font all the same, so the engine stops asking.
    assert fallback_target(LATIN) == "/assets/fonts/roboto.woff2"
    for target in {fallback_target(KR), *(fallback_target(TC.format(n)) for n in (1, 118))}:
        assert target is not None and (assets_dir() / target.lstrip("/")).is_file()


def test_other_paths_are_left_alone() -> None:
    for path in ("/assets/fonts/roboto.woff2", "/assets/fonts/MaterialIcons-Regular.otf",
                 "/fonts/noto-sans-kr-korean-400-normal.woff2", "/", "/history/stats",
                 "/assets/fonts/notosanskr/v36/x.115.woff2/../../../secret"):
        assert fallback_target(path) is None, path


def _call(path: str, method: str = "GET") -> tuple[list[dict[str, Any]], list[str]]:
    sent: list[dict[str, Any]] = []
    passed: list[str] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        passed.append(scope["path"])

    async def receive() -> dict[str, Any]:
        return {"type": "http.request"}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path, "headers": []}
    asyncio.run(FontFallbackRedirect(inner)(scope, receive, send))
    return sent, passed


def test_the_middleware_redirects_fallback_requests_only() -> None:
    sent, passed = _call(KR)
    assert not passed and sent[0]["status"] == 302
    assert (b"location", b"/fonts/noto-sans-kr-korean-400-normal.woff2") in sent[0]["headers"]
    sent, passed = _call("/assets/fonts/roboto.woff2")
    assert passed == ["/assets/fonts/roboto.woff2"] and not sent
    sent, passed = _call(KR, method="POST")
    assert passed == [KR] and not sent
