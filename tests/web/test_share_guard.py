"""ShareGuard with hand-built ASGI scopes and a fake inner app: who is the host, joining by
token and by code, the rate limit, and what a phone without a valid cookie gets."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from companion.share.ratelimit import CodeRateLimiter
from companion.share.registry import ShareRegistry
from companion.web.asgi import language_for
from companion.web.share_guard import (
    MEMBER_COOKIE,
    SHARE_HEADER,
    ShareGuard,
    member_id_from_user_agent,
)

HOST_SERVER = ("127.0.0.1", 8550)
SHARE_SERVER = ("127.0.0.2", 8550)  # the LAN listener, in tests a second loopback address
PHONE = ("127.0.0.2", 40000)


class Inner:
    """The app behind the guard: records every scope it sees."""

    def __init__(self) -> None:
        self.scopes: list[dict[str, Any]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.scopes.append(scope)
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"app"})
        else:
            await receive()
            await send({"type": "websocket.accept"})

    def user_agent(self) -> str | None:
        headers = dict(self.scopes[-1]["headers"])
        ua = headers.get(b"user-agent")
        return None if ua is None else ua.decode("latin-1")


@dataclass
class Response:
    messages: list[dict[str, Any]] = field(default_factory=list)

    @property
    def status(self) -> int | None:
        start = next((m for m in self.messages if m["type"].endswith("response.start")), None)
        return None if start is None else int(start["status"])

    def header(self, name: bytes) -> str | None:
        start = next(m for m in self.messages if m["type"].endswith("response.start"))
        return next((v.decode() for k, v in start["headers"] if k == name), None)

    @property
    def body(self) -> str:
        return b"".join(m.get("body", b"") for m in self.messages
                        if m["type"].endswith("response.body")).decode()

    @property
    def cookie(self) -> str:
        value = self.header(b"set-cookie")
        assert value is not None
        return value.split(";")[0].split("=", 1)[1]


def scope(kind: str = "http", path: str = "/", method: str = "GET",
          server: tuple[str, int] = SHARE_SERVER, client: tuple[str, int] = PHONE,
          headers: Iterable[tuple[str, str]] = (), query: str = "",
          cookie: str | None = None) -> dict[str, Any]:
    raw = [(k.lower().encode(), v.encode()) for k, v in headers]
    raw.append((b"host", f"{server[0]}:{server[1]}".encode()))
    if cookie is not None:
        raw.append((b"cookie", f"other=1; {MEMBER_COOKIE}={cookie}".encode()))
    s: dict[str, Any] = {"type": kind, "path": path, "raw_path": path.encode(),
                         "query_string": query.encode(), "root_path": "", "headers": raw,
                         "server": server, "client": client, "scheme": "http"}
    if kind == "http":
        s["method"] = method
    else:
        s["extensions"] = {"websocket.http.response": {}}
    return s


def run(guard: ShareGuard, s: dict[str, Any], body: bytes = b"") -> Response:
    response = Response()
    first = ({"type": "http.request", "body": body, "more_body": False}
             if s["type"] == "http" else {"type": "websocket.connect"})
    queue = [first]

    async def receive() -> dict[str, Any]:
        return queue.pop(0) if queue else {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        response.messages.append(dict(message))

    asyncio.run(guard(s, receive, send))
    return response


class Clock:
    now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def reg() -> ShareRegistry:
    registry = ShareRegistry()
    registry.open("game-1")
    return registry


@pytest.fixture
def inner() -> Inner:
    return Inner()


@pytest.fixture
def guard(inner: Inner, reg: ShareRegistry, clock: Clock) -> ShareGuard:
    return ShareGuard(inner, reg, host_addresses={"127.0.0.1", "::1"},
                      limiter=CodeRateLimiter(clock))


def join(guard: ShareGuard, reg: ShareRegistry) -> str:
    inv = reg.current()
    assert inv is not None
    response = run(guard, scope(path="/join", query=f"t={inv.join_token}"))
    assert response.status == 303
    return response.cookie


# ---- who is the host ---------------------------------------------------------------------
@pytest.mark.parametrize(("server", "client", "host"), [
    (("127.0.0.1", 8550), ("127.0.0.1", 5000), True),
    (("::1", 8550), ("::1", 5000), True),
    (("::ffff:127.0.0.1", 8550), ("::ffff:127.0.0.1", 5000), True),
    (("127.0.0.2", 8550), ("127.0.0.1", 5000), False),  # the share listener
    (("127.0.0.1", 8550), ("192.168.1.30", 5000), False),  # not from this machine
    (("192.168.1.20", 8550), ("192.168.1.30", 5000), False),
    (("192.168.1.20", 8550), ("127.0.0.1", 5000), False),
])
def test_host_is_decided_by_server_and_client_address(
        guard: ShareGuard, inner: Inner, server: tuple[str, int], client: tuple[str, int],
        host: bool) -> None:
    response = run(guard, scope(server=server, client=client))
    assert (response.status == 200 and len(inner.scopes) == 1) is host


def test_missing_addresses_are_not_the_host(guard: ShareGuard) -> None:
    s = scope()
    s["server"] = None
    s["client"] = None
    assert not guard.is_host(s)


def test_forged_host_header_gives_no_host_rights(guard: ShareGuard, inner: Inner) -> None:
    s = scope(headers=[("Host", "127.0.0.1:8550"), ("Origin", "http://127.0.0.1:8550")])
    assert run(guard, s).status == 303
    assert run(guard, scope("websocket", "/ws", headers=[("Host", "localhost:8550")])
               ).status == 403
    assert inner.scopes == []


def test_host_passes_with_any_vc_member_tag_stripped(guard: ShareGuard, inner: Inner) -> None:
    ua = "Mozilla/5.0 (X11) vc-member/abcd1234 Chrome/140"
    run(guard, scope("websocket", "/ws", server=HOST_SERVER, client=("127.0.0.1", 1),
                     headers=[("User-Agent", ua)]))
    assert inner.user_agent() == "Mozilla/5.0 (X11) Chrome/140"
    assert member_id_from_user_agent(inner.user_agent()) is None


# ---- joining -----------------------------------------------------------------------------
def test_join_by_token_sets_cookie_and_redirects(guard: ShareGuard, reg: ShareRegistry,
                                                 inner: Inner) -> None:
    inv = reg.current()
    assert inv is not None
    response = run(guard, scope(path="/join", query=f"t={inv.join_token}"))
    assert response.status == 303 and response.header(b"location") == "/"
    cookie_header = response.header(b"set-cookie")
    assert cookie_header is not None
    assert cookie_header.startswith(f"{MEMBER_COOKIE}=")
    assert "; HttpOnly" in cookie_header and "; SameSite=Strict" in cookie_header
    assert "; Path=/" in cookie_header
    member = reg.member_for(response.cookie)
    assert member is not None and member.address == PHONE[0]
    # one-time: the same link again gets the page with an error, and no member
    again = run(guard, scope(path="/join", query=f"t={inv.join_token}"))
    assert again.status == 403 and "already used" in again.body
    assert len(reg.members("game-1")) == 1 and inner.scopes == []


def test_join_page_is_self_contained_and_in_the_browsers_language(guard: ShareGuard) -> None:
    page = run(guard, scope(path="/join", headers=[("Accept-Language", "de-AT,de;q=0.9")]))
    assert page.status == 200
    assert page.header(b"content-type") == "text/html; charset=utf-8"
    assert "Dem Spiel beitreten" in page.body and 'lang="de"' in page.body
    assert 'name="code"' in page.body and 'method="post"' in page.body
    assert "http" not in page.body.replace('http-equiv', '')  # nothing loaded from outside
    assert "<script" not in page.body
    assert "default-src 'none'" in (page.header(b"content-security-policy") or "")
    zh = run(guard, scope(path="/join", headers=[("Accept-Language", "zh-TW")]))
    assert "加入遊戲" in zh.body and 'lang="zh-Hant"' in zh.body
    ko = run(guard, scope(path="/join", headers=[("Accept-Language", "fr, ko;q=0.5")]))
    assert "게임 참가" in ko.body
    en = run(guard, scope(path="/join"))
    assert "Join the game" in en.body


@pytest.mark.parametrize(("header", "lang"), [
    (None, "en"), ("", "en"), ("fr-FR", "en"), ("en-US,de;q=0.9", "en"),
    ("de;q=0.5, ko", "ko"), ("zh-CN, zh-TW;q=0.8", "zh_Hant"), ("de;q=0", "en"),
    ("*", "en"), ("de;q=x, ko;q=0.1", "ko"),
])
def test_language_for(header: str | None, lang: str) -> None:
    assert language_for(header) == lang


def test_join_by_code(guard: ShareGuard, reg: ShareRegistry) -> None:
    inv = reg.current()
    assert inv is not None
    code = inv.join_code.lower()
    response = run(guard, scope(path="/join", method="POST"), f"code={code}".encode())
    assert response.status == 303 and response.header(b"location") == "/"
    assert reg.member_for(response.cookie) is not None


def test_wrong_code_shows_the_page_with_an_error(guard: ShareGuard, reg: ShareRegistry) -> None:
    response = run(guard, scope(path="/join", method="POST"), b"code=22222")
    assert response.status == 403 and "not right" in response.body
    assert response.header(b"set-cookie") is None and reg.members("game-1") == []


def test_lockout_after_five_wrong_codes_is_429(guard: ShareGuard, reg: ShareRegistry,
                                               clock: Clock) -> None:
    inv = reg.current()
    assert inv is not None
    post = scope(path="/join", method="POST")
    statuses = [run(guard, post, b"code=2").status for _ in range(5)]
    assert statuses == [403, 403, 403, 403, 429]
    locked = run(guard, post, f"code={inv.join_code}".encode())  # right code, still locked
    assert locked.status == 429 and locked.header(b"retry-after") == "60"
    assert "60 seconds" in locked.body and reg.members("game-1") == []
    other = scope(path="/join", method="POST", client=("127.0.0.3", 1))
    assert run(guard, other, f"code={inv.join_code}".encode()).status == 303  # per address
    clock.now += 60
    assert run(guard, post, f"code={inv.join_code}".encode()).status == 303


def test_oversized_form_is_refused(guard: ShareGuard) -> None:
    assert run(guard, scope(path="/join", method="POST"), b"code=" + b"A" * 5000).status == 403


def test_other_methods_on_join(guard: ShareGuard) -> None:
    response = run(guard, scope(path="/join", method="PUT"))
    assert response.status == 405 and response.header(b"allow") == "GET, HEAD, POST"


def test_a_member_opening_join_again_is_sent_home(guard: ShareGuard,
                                                  reg: ShareRegistry) -> None:
    cookie = join(guard, reg)
    inv = reg.current()
    assert inv is not None
    response = run(guard, scope(path="/join", query=f"t={inv.join_token}", cookie=cookie))
    assert response.status == 303 and response.header(b"set-cookie") is None
    assert len(reg.members("game-1")) == 1 and reg.current() == inv  # token not spent


# ---- without / with a member cookie ------------------------------------------------------
def test_no_cookie_http_is_sent_to_join_or_refused(guard: ShareGuard, inner: Inner) -> None:
    root = run(guard, scope(path="/"))
    assert root.status == 303 and root.header(b"location") == "/join"
    page = run(guard, scope(path="/game/abc", headers=[("Accept", "text/html,*/*")]))
    assert page.status == 303
    script = run(guard, scope(path="/main.dart.js", headers=[("Accept", "*/*")]))
    assert script.status == 403
    assert run(guard, scope(path="/", method="POST")).status == 403
    assert inner.scopes == []



def test_a_refused_request_says_whether_sharing_is_off(guard: ShareGuard,
                                                        reg: ShareRegistry) -> None:
    """The page's script, probing while its connection is lost, reads from the 403 that
    this phone is no longer a member ("left") or that sharing stopped (issue 20)."""
    probe = scope(path="/manifest.json", headers=[("Accept", "*/*")])
    answer = run(guard, probe)
    assert answer.status == 403 and answer.header(SHARE_HEADER) == "left"
    reg.close()
    answer = run(guard, probe)
    assert answer.status == 403 and answer.header(SHARE_HEADER) == "stopped"

def test_no_cookie_websocket_is_refused_before_accept(guard: ShareGuard, inner: Inner) -> None:
    response = run(guard, scope("websocket", "/ws"))
    assert response.status == 403
    assert not any(m["type"] == "websocket.accept" for m in response.messages)
    bad = run(guard, scope("websocket", "/ws", cookie="forged"))
    assert bad.status == 403
    plain = scope("websocket", "/ws")
    plain["extensions"] = {}  # a server without the denial response extension
    closed = run(guard, plain)
    assert closed.messages == [{"type": "websocket.close", "code": 1008}]
    assert inner.scopes == []


def test_valid_cookie_passes_with_the_tagged_user_agent(guard: ShareGuard, reg: ShareRegistry,
                                                        inner: Inner) -> None:
    cookie = join(guard, reg)
    member = reg.member_for(cookie)
    assert member is not None
    run(guard, scope("websocket", "/ws", cookie=cookie,
                     headers=[("User-Agent", "Mozilla/5.0 (Android) Mobile")]))
    assert inner.user_agent() == f"Mozilla/5.0 (Android) Mobile vc-member/{member.member_id}"
    assert member_id_from_user_agent(inner.user_agent()) == member.member_id
    assert run(guard, scope(path="/", cookie=cookie)).body == "app"


def test_forged_vc_member_in_user_agent_is_replaced(guard: ShareGuard, reg: ShareRegistry,
                                                    inner: Inner) -> None:
    cookie = join(guard, reg)
    member = reg.member_for(cookie)
    assert member is not None
    run(guard, scope("websocket", "/ws", cookie=cookie,
                     headers=[("User-Agent", "X vc-member/deadbeef"),
                              ("user-agent", "VC-MEMBER/cafe Y")]))
    assert inner.user_agent() == f"X Y vc-member/{member.member_id}"
    assert [k for k, _ in inner.scopes[-1]["headers"]].count(b"user-agent") == 1
    run(guard, scope("websocket", "/ws", cookie=cookie))  # no User-Agent at all
    assert inner.user_agent() == f"vc-member/{member.member_id}"


@pytest.mark.parametrize("header", [
    'theme=dark mode; {name}={token}',  # another app's cookie with a space in its value
    '{name}="{token}"; prefs={{"a":1}}',  # quoted, beside a JSON cookie
    'a=1;{name}={token}',
])
def test_member_cookie_is_read_beside_any_other_cookie(guard: ShareGuard, reg: ShareRegistry,
                                                       inner: Inner, header: str) -> None:
    """Other apps on this host may set cookies that a strict parser (http.cookies'
    SimpleCookie) gives up on; the member cookie must still be found."""
    token = join(guard, reg)
    sc = scope(path="/")
    sc["headers"].append((b"cookie", header.format(name=MEMBER_COOKIE, token=token).encode()))
    assert run(guard, sc).status == 200 and len(inner.scopes) == 1


def test_removed_member_and_stop_refuse_the_cookie(guard: ShareGuard, reg: ShareRegistry,
                                                   inner: Inner) -> None:
    first, second = join(guard, reg), join(guard, reg)
    removed = reg.member_for(first)
    assert removed is not None
    reg.remove(removed.member_id)
    assert run(guard, scope("websocket", "/ws", cookie=first)).status == 403
    assert run(guard, scope("websocket", "/ws", cookie=second)).status is None  # accepted
    kept = reg.member_for(second)
    assert kept is not None
    assert guard.stop() == [kept.member_id]
    assert run(guard, scope("websocket", "/ws", cookie=second)).status == 403
    assert run(guard, scope(path="/", cookie=second)).status == 303


def test_sharing_off_says_so_and_refuses(guard: ShareGuard, reg: ShareRegistry,
                                         inner: Inner) -> None:
    inv = reg.current()
    assert inv is not None
    guard.stop()
    page = run(guard, scope(path="/join"))
    assert page.status == 503 and "Sharing is off" in page.body and "<form" not in page.body
    assert run(guard, scope(path="/join", query=f"t={inv.join_token}")).status == 503
    assert run(guard, scope(path="/join", method="POST"),
               f"code={inv.join_code}".encode()).status == 503
    assert run(guard, scope("websocket", "/ws")).status == 403
    # the host keeps working
    assert run(guard, scope(server=HOST_SERVER, client=("127.0.0.1", 1))).status == 200


def test_lifespan_passes_through(guard: ShareGuard, inner: Inner) -> None:
    async def go() -> None:
        async def receive() -> dict[str, Any]:
            return {"type": "lifespan.startup"}

        async def send(_: MutableMapping[str, Any]) -> None:
            pass

        await guard({"type": "lifespan"}, receive, send)

    inner_calls: list[str] = []

    async def lifespan_app(scope: Any, receive: Any, send: Any) -> None:
        inner_calls.append(scope["type"])

    guard.app = lifespan_app
    asyncio.run(go())
    assert inner_calls == ["lifespan"]


@pytest.mark.parametrize(("ua", "member"), [
    (None, None), ("", None), ("Mozilla/5.0", None), ("Mozilla/5.0 vc-member/ab12", "ab12"),
    ("vc-member/ab12", "ab12"), ("Mozilla vc-member/ab12 trailing", None),
])
def test_member_id_from_user_agent(ua: str | None, member: str | None) -> None:
    assert member_id_from_user_agent(ua) == member
