"""The join page (table mode): where a phone types the join code, in the browser's language.

`JoinPage(scope, send, tr, head)` renders and sends it: self-contained (no script, no
external resource), readable at 360 px, its words from the catalogues
(`locales/*/LC_MESSAGES/share.po`). `web.share_guard.ShareGuard` decides when it is shown.
"""

from __future__ import annotations

import html
import math

from starlette.types import Scope, Send

from companion.i18n import Translator
from companion.web.asgi import html_lang, url

JOIN_PATH = "/join"

# The page loads nothing and runs nothing; the form posts only back here.
_PAGE_HEADERS = [
    (b"content-type", b"text/html; charset=utf-8"),
    (b"cache-control", b"no-store"),
    # The join token must not leak in a Referer to another site. Not "no-referrer": with
    # it Chromium posts the code form with "Origin: null", which the Origin guard refuses.
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"default-src 'none'; style-src 'unsafe-inline'; "
                                 b"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"),
]


class JoinPage:
    """The join page in one language, with an optional error above the form."""

    def __init__(self, scope: Scope, send: Send, tr: Translator, head: bool) -> None:
        self.scope, self._send, self.tr, self._head = scope, send, tr, head

    async def locked(self, seconds: float) -> None:
        wait = max(1, math.ceil(seconds))
        await self.send(429, self.tr.tn("share.join.error.locked", wait, seconds=wait),
                        extra=[(b"retry-after", str(wait).encode())])

    async def send(self, status: int, error: str | None, form: bool = True,
                   extra: list[tuple[bytes, bytes]] | None = None) -> None:
        body = self.render(error, form).encode("utf-8")
        await self._send({"type": "http.response.start", "status": status, "headers": [
            *_PAGE_HEADERS, (b"content-length", str(len(body)).encode()), *(extra or [])]})
        await self._send({"type": "http.response.body", "body": b"" if self._head else body})

    def render(self, error: str | None, form: bool) -> str:
        t = self.tr.t
        esc = html.escape
        lang = html_lang(self.tr.lang)
        parts = [f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
                 '<meta name="viewport" content="width=device-width, initial-scale=1">'
                 f"<title>{esc(t('share.join.title'))}</title><style>{_CSS}</style></head>"
                 f"<body><main><h1>{esc(t('share.join.title'))}</h1>"]
        if error:
            parts.append(f'<p class="error" role="alert">{esc(error)}</p>')
        if form:
            parts.append(
                f"<p>{esc(t('share.join.intro'))}</p>"
                f'<form method="post" action="{esc(url(self.scope, JOIN_PATH))}">'
                f'<label for="code">{esc(t("share.join.code_label"))}</label>'
                '<input id="code" name="code" required maxlength="12" autocomplete="off" '
                'autocapitalize="characters" autocorrect="off" spellcheck="false" autofocus>'
                f'<button type="submit">{esc(t("share.join.submit"))}</button></form>')
        parts.append("</main></body></html>")
        return "".join(parts)


# Readable at 360 px: one column, large type, 48 px (and taller) touch targets.
_CSS = (
    "*{box-sizing:border-box}"
    "body{margin:0;font:18px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans',"
    "sans-serif;background:#f6f3ea;color:#1d1b16}"
    "main{max-width:28rem;margin:0 auto;padding:24px 16px}"
    "h1{font-size:1.6rem;line-height:1.25;margin:0 0 16px}p{margin:0 0 16px}"
    ".error{background:#fde8e4;color:#8a1c0c;border-radius:8px;padding:12px 14px}"
    "label{display:block;font-weight:600;margin-bottom:8px}"
    "input{width:100%;min-height:56px;font-size:1.8rem;letter-spacing:.25em;"
    "text-align:center;text-transform:uppercase;padding:8px;border:2px solid #6b5e3c;"
    "border-radius:10px;background:#fff;color:inherit}"
    "button{width:100%;min-height:48px;margin-top:16px;padding:10px;font-size:1.2rem;"
    "font-weight:600;border:0;border-radius:10px;background:#5b4a1f;color:#fff}"
    "@media (prefers-color-scheme:dark){body{background:#1b1a17;color:#eee}"
    "input{background:#2a2824;border-color:#a08f62}.error{background:#4a1f18;color:#ffd9d0}"
    "button{background:#c9a64a;color:#1b1a17}}"
)

