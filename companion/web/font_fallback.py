"""Answers the web engine's Noto fallback-font requests with the fonts we ship.

Flet's no-CDN page sets Flutter's `fontFallbackBaseUrl` to `assets/fonts/`, so for a code
point it finds in no font it knows, the engine fetches a Google Fonts slice such as
`/assets/fonts/notosanskr/v36/….115.woff2`. Flet ships none of them: the server answered
404, and the engine asked again after every layout (issue 23: 40–130 font requests every
2 s in Korean and Chinese, each one laying all text out again). Here each such request is
redirected to a shipped font (Hangul -> Noto Sans KR, Han -> Noto Sans TC, anything else
-> Flet's Roboto): the engine loads it once, records the slice as downloaded and does not
ask again; the redirect target is the file the page already loads, so the browser's cache
answers it. No Flet import.
"""

from __future__ import annotations

import re

from starlette.types import ASGIApp, Receive, Scope, Send

from companion.web.fonts import HANGUL, HANT, HANT_PUNCT_A, HANT_PUNCT_B, WEB_FONTS

# /assets/fonts/<family dir>/<version>/<name>[.<slice>].woff2 (Flet's own fonts sit
# directly in /assets/fonts/ and are not matched).
_SLICE = re.compile(r"^/assets/fonts/([a-z0-9]+)/[^/]+/[^/]+?(?:\.(\d+))?\.woff2$")
_HAN_DIRS = frozenset({"notosanstc", "notosanssc", "notosanshk", "notosansjp"})
_HANT_SLICES = {"118": HANT_PUNCT_A, "119": HANT_PUNCT_B}
# Shipped by flet-web: a valid font, so the engine stops asking for glyphs nobody has.
_OTHER = "/assets/fonts/roboto.woff2"


def fallback_target(path: str) -> str | None:
    """The shipped font answering the engine's fallback request for `path`, or None when
    `path` is no fallback-font request."""
    match = _SLICE.match(path)
    if match is None:
        return None
    family_dir, piece = match.groups()
    if family_dir == "notosanskr":
        return "/" + WEB_FONTS[HANGUL]
    if family_dir in _HAN_DIRS:
        family = _HANT_SLICES.get(piece or "", HANT) if family_dir == "notosanstc" else HANT
        return "/" + WEB_FONTS[family]
    return _OTHER


class FontFallbackRedirect:
    """ASGI middleware: redirects the web engine's fallback-font requests (see above)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        target = (fallback_target(scope.get("path", ""))
                  if scope["type"] == "http" and scope.get("method") in ("GET", "HEAD")
                  else None)
        if target is None:
            await self.app(scope, receive, send)
            return
        await send({"type": "http.response.start", "status": 302,
                    "headers": [(b"location", target.encode()), (b"content-length", b"0"),
                                (b"cache-control", b"max-age=86400")]})
        await send({"type": "http.response.body", "body": b""})
