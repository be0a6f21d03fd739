"""HostOriginGuard with fake ASGI scope/receive/send: only the app's own Host and Origin
reach the app; everything else is a 403 (HTTP) or a refused upgrade (WebSocket)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from companion.web.server_guard import (
    AccessPolicy,
    HostOriginGuard,
    allow_host_option,
    allow_origin_option,
    build_policy,
    parse_authority,
    parse_origin,
)

PORT = 8550


class FakeApp:
    """The wrapped app: records the scopes it saw and answers 200 / accepts."""

    def __init__(self) -> None:
        self.scopes: list[dict[str, Any]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.scopes.append(scope)
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"app"})
        elif scope["type"] == "websocket":
            await receive()
            await send({"type": "websocket.accept"})


def scope(kind: str = "http", host: str | None = f"127.0.0.1:{PORT}",
          origin: str | None = None, extra: list[tuple[bytes, bytes]] | None = None,
          denial_extension: bool = True) -> dict[str, Any]:
    headers = [] if host is None else [(b"host", host.encode("latin-1"))]
    if origin is not None:
        headers.append((b"origin", origin.encode("latin-1")))
    headers += extra or []
    result: dict[str, Any] = {"type": kind, "path": "/ws" if kind == "websocket" else "/",
                              "headers": headers}
    if kind == "websocket" and denial_extension:
        result["extensions"] = {"websocket.http.response": {}}
    return result


def call(guard: HostOriginGuard, sc: dict[str, Any]) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []
    incoming = [{"type": "websocket.connect"}] if sc["type"] == "websocket" else [
        {"type": "http.request", "body": b"", "more_body": False}]

    async def receive() -> dict[str, Any]:
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(dict(message))

    asyncio.run(guard(sc, receive, send))
    return sent


def make(**kwargs: Any) -> tuple[HostOriginGuard, FakeApp]:
    app = FakeApp()
    return HostOriginGuard(app, build_policy(kwargs.pop("bind", "127.0.0.1"), PORT,
                                             **kwargs)), app


def passed(guard: HostOriginGuard, app: FakeApp, sc: dict[str, Any]) -> bool:
    before = len(app.scopes)
    sent = call(guard, sc)
    if len(app.scopes) > before:
        return True
    assert sent[0]["status"] == 403  # refused, never silently dropped
    return False


# ---- HTTP ------------------------------------------------------------------------------------
@pytest.mark.parametrize("host", [f"127.0.0.1:{PORT}", f"localhost:{PORT}", f"[::1]:{PORT}",
                                  f"LocalHost:{PORT}", f"[0:0:0:0:0:0:0:1]:{PORT}"])
def test_own_hosts_reach_the_app(host: str) -> None:
    guard, app = make()
    assert passed(guard, app, scope(host=host))
    assert passed(guard, app, scope("websocket", host=host))


@pytest.mark.parametrize("host", [
    f"evil.example:{PORT}", "evil.example", f"localhost.evil.example:{PORT}",
    "127.0.0.1", "localhost:8551", f"127.0.0.2:{PORT}", f"localhost.:{PORT}",
    f"::1:{PORT}", "[::1]", f"127.0.0.1:{PORT}@evil.example", f"127.0.0.1:{PORT}/x", "",
    f"localhost:{PORT:06d}0", "localhost:0", "localhost:99999", f"[::1]x:{PORT}",
])
def test_foreign_host_is_403_plain_text(host: str) -> None:
    guard, app = make()
    sent = call(guard, scope(host=host))
    assert app.scopes == []
    start, body = sent
    assert start["status"] == 403
    assert (b"content-type", b"text/plain; charset=utf-8") in start["headers"]
    assert body["body"].startswith(b"403 Forbidden") and len(body["body"]) < 200


def test_missing_or_repeated_host_is_403() -> None:
    guard, app = make()
    assert call(guard, scope(host=None))[0]["status"] == 403
    twice = scope(extra=[(b"host", b"evil.example")])
    assert call(guard, twice)[0]["status"] == 403
    assert app.scopes == []


def test_http_with_foreign_origin_is_403_and_own_origin_passes() -> None:
    guard, app = make()
    assert call(guard, scope(origin="http://evil.example"))[0]["status"] == 403
    assert app.scopes == []
    assert passed(guard, app, scope(origin=f"http://127.0.0.1:{PORT}"))


def test_lifespan_passes_through() -> None:
    guard, app = make()
    seen: list[str] = []

    async def run() -> None:
        async def receive() -> dict[str, Any]:
            return {"type": "lifespan.startup"}

        async def send(message: Any) -> None:
            seen.append(message["type"])

        await guard({"type": "lifespan"}, receive, send)

    asyncio.run(run())
    assert app.scopes == [{"type": "lifespan"}]


# ---- WebSocket -------------------------------------------------------------------------------
@pytest.mark.parametrize("origin", [
    f"http://127.0.0.1:{PORT}", f"http://localhost:{PORT}", f"http://[::1]:{PORT}",
    f"https://localhost:{PORT}", f"HTTP://LOCALHOST:{PORT}", f"http://[0::1]:{PORT}",
])
def test_websocket_from_own_page_is_accepted(origin: str) -> None:
    guard, app = make()
    sent = call(guard, scope("websocket", origin=origin))
    assert sent == [{"type": "websocket.accept"}]
    assert len(app.scopes) == 1


@pytest.mark.parametrize("origin", [
    "http://evil.example", f"http://evil.example:{PORT}", "null", "", f"127.0.0.1:{PORT}",
    "http://localhost", "http://localhost:8551", f"ws://localhost:{PORT}",
    f"file://localhost:{PORT}", f"http://localhost:{PORT}/", f"http://localhost:{PORT}/x",
    f"http://user@localhost:{PORT}", f"http://127.0.0.2:{PORT}",
    f"http://localhost.evil.example:{PORT}",
])
def test_websocket_from_foreign_origin_is_refused_before_accept(origin: str) -> None:
    guard, app = make()
    sent = call(guard, scope("websocket", origin=origin))
    assert app.scopes == []
    assert sent[0] == {"type": "websocket.http.response.start", "status": 403,
                       "headers": sent[0]["headers"]}
    assert sent[1]["type"] == "websocket.http.response.body"
    assert all(m["type"] != "websocket.accept" for m in sent)


def test_websocket_refusal_without_denial_extension_closes_with_policy_code() -> None:
    guard, app = make()
    sent = call(guard, scope("websocket", origin="http://evil.example",
                             denial_extension=False))
    assert sent == [{"type": "websocket.close", "code": 1008}]
    assert app.scopes == []


def test_websocket_with_foreign_host_is_refused_even_with_own_origin() -> None:
    """DNS rebinding: the page's origin is the attacker's name, and so is Host."""
    guard, app = make()
    sent = call(guard, scope("websocket", host=f"evil.example:{PORT}",
                             origin=f"http://evil.example:{PORT}"))
    assert sent[0]["status"] == 403 and app.scopes == []
    sent = call(guard, scope("websocket", host=f"evil.example:{PORT}",
                             origin=f"http://127.0.0.1:{PORT}"))
    assert sent[0]["status"] == 403 and app.scopes == []


def test_missing_origin_is_allowed_for_non_browser_clients() -> None:
    """Browsers always send Origin on an upgrade; a client without one is not a web page
    and could send any Origin it liked. The Host check still applies."""
    guard, app = make()
    assert call(guard, scope("websocket")) == [{"type": "websocket.accept"}]
    assert call(guard, scope("websocket", host="evil.example"))[0]["status"] == 403


def test_repeated_origin_is_refused() -> None:
    guard, app = make()
    sc = scope("websocket", origin=f"http://127.0.0.1:{PORT}",
               extra=[(b"origin", b"http://evil.example")])
    assert call(guard, sc)[0]["status"] == 403


def test_header_names_are_case_insensitive() -> None:
    guard, app = make()
    sc = scope("websocket", host=None, extra=[(b"Host", f"localhost:{PORT}".encode()),
                                              (b"Origin", b"http://evil.example")])
    assert call(guard, sc)[0]["status"] == 403
    sc = scope("websocket", host=None, extra=[(b"Host", f"localhost:{PORT}".encode()),
                                              (b"Origin", f"http://localhost:{PORT}".encode())])
    assert call(guard, sc) == [{"type": "websocket.accept"}]


def test_client_gone_before_connect_is_not_answered() -> None:
    guard, app = make()
    sent: list[Any] = []

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.disconnect", "code": 1006}

    async def send(message: Any) -> None:
        sent.append(message)

    asyncio.run(guard(scope("websocket", origin="http://evil.example"), receive, send))
    assert sent == [] and app.scopes == []


# ---- explicit options and binding ------------------------------------------------------------
def test_allow_origin_adds_exactly_that_origin() -> None:
    guard, app = make(allow_origins=["https://games.example.org"])
    ws = "websocket"
    assert passed(guard, app, scope(ws, origin="https://games.example.org"))
    assert passed(guard, app, scope(ws, origin="https://games.example.org:443"))
    assert passed(guard, app, scope(ws, origin="HTTPS://Games.Example.Org"))
    assert not passed(guard, app, scope(ws, origin="http://games.example.org"))
    assert not passed(guard, app, scope(ws, origin="https://games.example.org:8443"))
    assert not passed(guard, app, scope(ws, origin="https://evil.games.example.org"))
    # an allowed origin is not an allowed Host
    assert not passed(guard, app, scope(ws, host="games.example.org"))


def test_allow_host_name_allows_it_on_own_port_or_no_port_and_its_origins() -> None:
    guard, app = make(allow_hosts=["Village.Local", "192.168.1.20"])
    ws = "websocket"
    for host in (f"village.local:{PORT}", "village.local", f"192.168.1.20:{PORT}"):
        assert passed(guard, app, scope(ws, host=host))
    assert not passed(guard, app, scope(ws, host="village.local:9999"))
    assert passed(guard, app, scope(ws, host=f"192.168.1.20:{PORT}",
                                    origin=f"http://192.168.1.20:{PORT}"))
    assert passed(guard, app, scope(ws, host="village.local",
                                    origin="https://village.local"))
    assert not passed(guard, app, scope(ws, host=f"village.local:{PORT}",
                                        origin="http://evil.example"))


def test_allow_host_with_port_allows_only_that_port() -> None:
    guard, app = make(allow_hosts=["proxy.example:8443", "fe80::1"])
    assert passed(guard, app, scope(host="proxy.example:8443"))
    assert not passed(guard, app, scope(host="proxy.example"))
    assert not passed(guard, app, scope(host=f"proxy.example:{PORT}"))
    assert passed(guard, app, scope("websocket", host="proxy.example:8443",
                                    origin="https://proxy.example:8443"))
    assert passed(guard, app, scope(host=f"[fe80::1]:{PORT}"))


def test_specific_bind_address_is_allowed_wildcard_is_not() -> None:
    guard, app = make(bind="192.168.1.20")
    assert passed(guard, app, scope(host=f"192.168.1.20:{PORT}"))
    assert passed(guard, app, scope("websocket", host=f"192.168.1.20:{PORT}",
                                    origin=f"http://192.168.1.20:{PORT}"))
    assert not passed(guard, app, scope(host="192.168.1.20"))  # not the port it serves
    for wildcard in ("0.0.0.0", "::", "", "*"):
        policy = build_policy(wildcard, PORT)
        assert policy.hosts == build_policy("127.0.0.1", PORT).hosts
    assert f"[fe80::2]:{PORT}" in build_policy("fe80::2", PORT).hosts


def test_port_80_also_allows_host_without_port() -> None:
    policy = build_policy("127.0.0.1", 80)
    assert policy.host_allowed("localhost") and policy.host_allowed("localhost:80")
    assert policy.origin_allowed("http://localhost")
    assert not build_policy("127.0.0.1", PORT).host_allowed("localhost")


@pytest.mark.parametrize("value", ["", "*", "bad host", "a/b", "user@host", "host:0",
                                   "host:x", "[::1", "http://host"])
def test_malformed_allow_host_is_rejected(value: str) -> None:
    with pytest.raises(ValueError):
        allow_host_option(value)


@pytest.mark.parametrize("value", ["", "*", "null", "example.org", "ftp://example.org",
                                   "https://example.org/path", "https://"])
def test_malformed_allow_origin_is_rejected(value: str) -> None:
    with pytest.raises(ValueError):
        allow_origin_option(value)


def test_option_values_are_canonical() -> None:
    assert allow_host_option("::1") == "[::1]"
    assert allow_host_option("Example.ORG:8443") == "example.org:8443"
    assert allow_origin_option("HTTPS://Example.org:443/") == "https://example.org"
    assert parse_origin("http://[0:0::1]:80") == "http://[::1]"
    assert parse_authority("[::1]:8550") == ("[::1]", 8550)
    assert parse_authority("::1") is None


def test_policy_is_a_plain_value() -> None:
    policy = AccessPolicy(frozenset({"a:1"}), frozenset())
    assert policy.host_allowed("A:1") and not policy.host_allowed(None)
    assert policy.origin_allowed(None) and not policy.origin_allowed("http://a:1")


def test_refusals_are_logged_once_per_value(caplog: pytest.LogCaptureFixture) -> None:
    guard, _ = make()
    for _ in range(3):
        call(guard, scope(host="evil.example"))
    refused = [r for r in caplog.records if "refused" in r.getMessage()]
    assert len(refused) == 1 and "--allow-host" in refused[0].getMessage()
