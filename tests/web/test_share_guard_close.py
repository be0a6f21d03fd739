"""Stopping sharing or removing a phone closes its live WebSocket at once (ASGI level)."""

from __future__ import annotations

import asyncio
from collections.abc import MutableMapping
from typing import Any

from companion.share.registry import Joined, ShareRegistry
from companion.web.share_guard import (
    MEMBER_CLOSE_CODE,
    MEMBER_COOKIE,
    MEMBER_REMOVED_CODE,
    ShareGuard,
)


async def app(scope: Any, receive: Any, send: Any) -> None:
    """A Flet-like WebSocket app: accepts, then waits until the client goes away."""
    await receive()
    await send({"type": "websocket.accept"})
    while (await receive())["type"] != "websocket.disconnect":
        pass
    await send({"type": "websocket.send", "text": "after the close"})  # must be dropped


class Client:
    def __init__(self, guard: ShareGuard, token: str) -> None:
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.sent: list[dict[str, Any]] = []
        self.closed = asyncio.Event()
        scope = {"type": "websocket", "path": "/ws", "server": ("10.0.0.2", 8550),
                 "client": ("10.0.0.9", 5000), "headers": [
                     (b"cookie", f"{MEMBER_COOKIE}={token}".encode())]}
        self.inbox.put_nowait({"type": "websocket.connect"})
        self.task = asyncio.get_running_loop().create_task(
            guard(scope, self.inbox.get, self._send))

    async def _send(self, message: MutableMapping[str, Any]) -> None:
        self.sent.append(dict(message))
        if message["type"] == "websocket.close":
            self.closed.set()
            self.inbox.put_nowait({"type": "websocket.disconnect", "code": message["code"]})


def join(registry: ShareRegistry) -> Joined:
    invitation = registry.current() or registry.open("g")
    joined = registry.join_by_code(invitation.join_code, "10.0.0.9")
    assert isinstance(joined, Joined)
    return joined


def test_stop_closes_every_member_socket_at_once() -> None:
    async def scenario() -> None:
        registry = ShareRegistry()
        guard = ShareGuard(app, registry)
        a, b = join(registry), join(registry)
        clients = [Client(guard, a.member_token), Client(guard, a.member_token),
                   Client(guard, b.member_token)]
        await asyncio.sleep(0.01)
        assert guard.live_sockets(a.member.member_id) == 2
        assert not any(c.closed.is_set() for c in clients)
        assert sorted(guard.stop()) == sorted([a.member.member_id, b.member.member_id])
        await asyncio.wait_for(asyncio.gather(*(c.task for c in clients)), 2)
        for client in clients:
            assert client.sent[0] == {"type": "websocket.accept"}
            assert client.sent[-1] == {"type": "websocket.close", "code": MEMBER_CLOSE_CODE}
        assert guard.live_sockets(a.member.member_id) == 0

    asyncio.run(scenario())


def test_remove_closes_only_that_phone_even_from_another_thread() -> None:
    async def scenario() -> None:
        registry = ShareRegistry()
        guard = ShareGuard(app, registry)
        a, b = join(registry), join(registry)
        ca, cb = Client(guard, a.member_token), Client(guard, b.member_token)
        await asyncio.sleep(0.01)
        removed = await asyncio.to_thread(guard.remove, a.member.member_id)
        assert removed
        await asyncio.wait_for(ca.task, 2)
        assert ca.sent[-1]["code"] == MEMBER_REMOVED_CODE  # not the stop code: told apart
        assert not cb.closed.is_set() and registry.member(b.member.member_id) is not None
        # the removed phone's cookie no longer opens a WebSocket
        again = Client(guard, a.member_token)
        await asyncio.wait_for(again.task, 2)
        assert again.sent[0]["type"] in ("websocket.close", "websocket.http.response.start")
        guard.stop()
        await asyncio.wait_for(cb.task, 2)

    asyncio.run(scenario())
