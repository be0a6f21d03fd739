"""Small ASGI helpers the web layers share: request headers, refusals, redirects, the
browser's languages. The ASGI types themselves are Starlette's (`starlette.types`)."""

from __future__ import annotations

from starlette.types import Receive, Scope, Send

from companion.i18n import negotiate_language

# Our language identifiers as an HTML `lang` attribute (BCP 47) where they differ.
_HTML_LANG = {"zh_Hant": "zh-Hant"}


def html_lang(language: str) -> str:
    """`language` (one of companion.i18n.SUPPORTED_LANGUAGES) as an HTML `lang` value."""
    return _HTML_LANG.get(language, language)


def header_values(scope: Scope, name: bytes) -> list[str]:
    """Every value of request header `name` (lower case), in order."""
    return [value.decode("latin-1") for key, value in scope.get("headers", ())
            if key.lower() == name]


def first_header(scope: Scope, name: bytes) -> str | None:
    """The first value of request header `name`, or None."""
    values = header_values(scope, name)
    return values[0] if values else None


def accepted_languages(accept_language: str | None) -> list[str]:
    """The language tags of an Accept-Language header, most wanted first ("de;q=0.5, ko"
    -> ["ko", "de"]); `*`, a q of 0 and an unreadable q are left out (an unreadable q
    counts as 0), ties keep the header's order."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        name, _, value = params.strip().partition("=")
        if name.strip() == "q":
            try:
                quality = float(value)
            except ValueError:
                quality = 0.0
        tag = tag.strip()
        if tag and tag != "*" and quality > 0:
            ranked.append((-quality, index, tag))
    return [tag for _, _, tag in sorted(ranked)]


def language_for(accept_language: str | None) -> str:
    """The app language for an Accept-Language header ("de-CH, de;q=0.9, en;q=0.8" -> de),
    English when it names none of ours."""
    return negotiate_language(accepted_languages(accept_language))


async def send_forbidden(send: Send, body: bytes, prefix: str = "http.response",
                         extra: list[tuple[bytes, bytes]] | None = None) -> None:
    """A 403 with a plain-text `body`, never cached. `prefix` is the ASGI message family
    (`websocket.http.response` to refuse a WebSocket upgrade)."""
    await send({"type": f"{prefix}.start", "status": 403, "headers": [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
        *(extra or []),
    ]})
    await send({"type": f"{prefix}.body", "body": body})


async def refuse_websocket(scope: Scope, receive: Receive, send: Send, body: bytes) -> None:
    """Refuse the upgrade before it is accepted: a 403 with a text body where the server
    offers the WebSocket denial response extension, else a close before accept (which
    servers answer with 403 as well). Policy violation, 1008, is the close code."""
    message = await receive()
    if message["type"] != "websocket.connect":  # the client is already gone
        return
    if "websocket.http.response" in scope.get("extensions", {}):
        await send_forbidden(send, body, "websocket.http.response")
    else:
        await send({"type": "websocket.close", "code": 1008})


async def redirect(send: Send, location: str,
                   extra: list[tuple[bytes, bytes]] | None = None) -> None:
    """A 303 to `location`, never cached."""
    await send({"type": "http.response.start", "status": 303, "headers": [
        (b"location", location.encode("latin-1")), (b"content-length", b"0"),
        (b"cache-control", b"no-store"), (b"referrer-policy", b"same-origin"),
        *(extra or [])]})
    await send({"type": "http.response.body", "body": b""})


def url(scope: Scope, path: str) -> str:
    """`path` under the app's root path (a proxy may mount the app below `/`)."""
    return str(scope.get("root_path", "")).rstrip("/") + path
