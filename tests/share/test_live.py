"""The real stack over real sockets: uvicorn serving HostOriginGuard(ShareGuard(app)) on
127.0.0.1 (the host's listener) and 127.0.0.2 (standing in for the LAN address), with real
HTTP and WebSocket clients. Only 127.0.0.x addresses are bound."""

from __future__ import annotations

import asyncio
import http.client
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import uvicorn
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from companion.share.registry import ShareRegistry
from companion.web.server_guard import HostOriginGuard, build_policy
from companion.web.share_guard import MEMBER_COOKIE, ShareGuard, member_id_from_user_agent


async def tiny_app(scope: Any, receive: Any, send: Any) -> None:
    """Answers with the User-Agent it was given (what Flet would put in the page)."""
    headers = dict(scope.get("headers", ()))
    ua = headers.get(b"user-agent", b"").decode("latin-1")
    if scope["type"] == "http":
        body = f"inner {ua}".encode()
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
    elif scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": ua})
        await send({"type": "websocket.close", "code": 1000})


def listening_socket(address: str) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((address, 0))
    except OSError as exc:
        sock.close()
        pytest.skip(f"cannot bind {address}: {exc}")
    sock.listen(16)
    return sock


@dataclass
class Live:
    registry: ShareRegistry
    guard: ShareGuard
    host_port: int
    share_port: int

    def http(self, address: str, path: str, method: str = "GET", body: bytes | None = None,
             headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
        port = self.host_port if address == "127.0.0.1" else self.share_port
        conn = http.client.HTTPConnection(address, port, timeout=5)
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        response.read()
        conn.close()
        return response

    def ws(self, address: str, cookie: str | None = None,
           user_agent: str = "Phone/1.0") -> ClientConnection:
        port = self.host_port if address == "127.0.0.1" else self.share_port
        sock = socket.create_connection((address, port), timeout=5)
        extra = {"Cookie": f"{MEMBER_COOKIE}={cookie}"} if cookie else None
        return connect(f"ws://{address}:{port}/ws", sock=sock, proxy=None, open_timeout=5,
                       origin=Origin(f"http://{address}:{port}"), additional_headers=extra,
                       user_agent_header=user_agent)


@pytest.fixture
def live() -> Iterator[Live]:
    host_sock = listening_socket("127.0.0.1")
    share_sock = listening_socket("127.0.0.2")
    host_port, share_port = host_sock.getsockname()[1], share_sock.getsockname()[1]
    registry = ShareRegistry()
    guard = ShareGuard(tiny_app, registry)
    policy = build_policy("127.0.0.1", host_port, allow_hosts=[f"127.0.0.2:{share_port}"])
    config = uvicorn.Config(HostOriginGuard(guard, policy), ws="websockets-sansio",
                            lifespan="off", log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(
        target=lambda: asyncio.run(server.serve(sockets=[host_sock, share_sock])),
        daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "server did not start"
        time.sleep(0.02)
    try:
        yield Live(registry, guard, host_port, share_port)
    finally:
        server.should_exit = True
        thread.join(10)
        host_sock.close()
        share_sock.close()


def refused(live: Live, address: str, cookie: str | None = None) -> int:
    with pytest.raises(InvalidStatus) as exc, live.ws(address, cookie):
        pass
    return exc.value.response.status_code


def test_host_member_and_stranger_over_real_sockets(live: Live) -> None:
    invitation = live.registry.open("game-1")

    # the host, on 127.0.0.1, passes, and cannot carry a member tag
    with live.ws("127.0.0.1", user_agent="Host/1 vc-member/forged") as ws:
        assert ws.recv(timeout=5) == "Host/1"
    assert live.http("127.0.0.1", "/").status == 200

    # a phone on the share listener without a cookie: join page or refusal only
    assert refused(live, "127.0.0.2") == 403
    root = live.http("127.0.0.2", "/")
    assert root.status == 303 and root.getheader("location") == "/join"
    assert live.http("127.0.0.2", "/main.dart.js").status == 403
    assert live.http("127.0.0.2", "/join").status == 200
    # a forged Host header (one HostOriginGuard allows) gives no host rights
    assert live.http("127.0.0.2", "/", headers={"Host": f"127.0.0.1:{live.host_port}"}
                     ).status == 303

    # the QR link: cookie, then everything passes, tagged
    joined = live.http("127.0.0.2", f"/join?t={invitation.join_token}")
    assert joined.status == 303 and joined.getheader("location") == "/"
    set_cookie = joined.getheader("set-cookie") or ""
    assert "HttpOnly" in set_cookie and "SameSite=Strict" in set_cookie
    cookie = set_cookie.split(";")[0].split("=", 1)[1]
    member = live.registry.member_for(cookie)
    assert member is not None
    with live.ws("127.0.0.2", cookie, user_agent="Phone/1.0 vc-member/forged") as ws:
        ua = ws.recv(timeout=5)
    assert ua == f"Phone/1.0 vc-member/{member.member_id}"
    assert member_id_from_user_agent(ua) == member.member_id
    assert live.http("127.0.0.2", "/", headers={"Cookie": f"{MEMBER_COOKIE}={cookie}"}
                     ).status == 200
    # the link was one-time
    assert live.http("127.0.0.2", f"/join?t={invitation.join_token}").status == 403

    # the typed code
    by_code = live.http("127.0.0.2", "/join", "POST", f"code={invitation.join_code}".encode(),
                        {"Content-Type": "application/x-www-form-urlencoded"})
    assert by_code.status == 303 and by_code.getheader("set-cookie")

    # stop sharing: the cookie no longer opens anything; the host carries on
    assert member.member_id in live.guard.stop()
    assert refused(live, "127.0.0.2", cookie) == 403
    with live.ws("127.0.0.1") as ws:
        assert ws.recv(timeout=5) == "Phone/1.0"
