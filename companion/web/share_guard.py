"""Only the host and the phones that joined may reach the app: ASGI middleware.

API:

* `ShareGuard(app, registry, host_addresses=DEFAULT_HOST_ADDRESSES, limiter=None)` wraps
  the ASGI app, *inside* `server_guard.HostOriginGuard` (Host and Origin are checked first):
  `HostOriginGuard(ShareGuard(flet_app, registry), policy)`.
* `ShareGuard.stop() -> list[str]` stops sharing (`registry.close()`) and closes every
  joined phone's live WebSocket at once (close code 4001); `ShareGuard.remove(member_id)`
  does the same for one phone (close code 4002). Returns the member ids that were closed.
  The page's script (web/connection_banner.py) reads the code and tells the phone in words.
* `ShareGuard.is_host(scope)`, and `member_id_from_user_agent(ua)` for the app: a member's
  WebSocket arrives with ` vc-member/<member id>` at the end of its User-Agent, which Flet
  copies into `page.client_user_agent`; a host's never carries one.

Who is the host: a connection that arrived on a loopback server address listed in
`host_addresses` from a loopback client. Never the Host header, which a LAN client can
write as it likes; and a phone connects to the LAN address, never to 127.0.0.1.

Everyone else:

* `GET /join?t=<join token>`: a valid one-time token makes the phone a member: cookie
  `vc_member` (HttpOnly, SameSite=Strict) and 303 to `/`. `GET /join`: the join page.
  `POST /join` (form field `code`): the join code, rate-limited per client address.
* with a valid member cookie: passes through to the app.
* without: `GET /` and page loads get 303 to `/join`, other requests 403 (with header
  `x-vc-share: stopped` while sharing is off, else `left`: the page's script, asking while
  its connection is lost, learns the phone is no longer a member), and a WebSocket
  is refused before it is accepted (no app session starts). While sharing is off, the join
  page says so.

The join page (`web.join_page`) is self-contained (no script, no external resource) and
takes its words from the app's catalogues (`locales/*/LC_MESSAGES/share.po`) in the
browser's language.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
import threading
from collections.abc import Iterable
from urllib.parse import parse_qs

from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from companion.i18n import Translator
from companion.share.ratelimit import CodeRateLimiter
from companion.share.registry import Joined, Member, Refusal, ShareRegistry
from companion.web.asgi import (
    first_header,
    header_values,
    language_for,
    redirect,
    refuse_websocket,
    send_forbidden,
    url,
)
from companion.web.join_page import JOIN_PATH, JoinPage

logger = logging.getLogger(__name__)

MEMBER_COOKIE = "vc_member"
UA_TAG = "vc-member/"
DEFAULT_HOST_ADDRESSES = frozenset({"127.0.0.1", "::1"})
MEMBER_CLOSE_CODE = 4001  # the host stopped sharing
MEMBER_REMOVED_CODE = 4002  # the host removed this phone
SHARE_HEADER = b"x-vc-share"  # on a non-member's 403: "stopped" (sharing is off) or "left"
MAX_FORM_BYTES = 4096  # a join code form is a few dozen bytes

_UA_TAG_ANYWHERE = re.compile(r"\s*vc-member/\S*", re.IGNORECASE)
_UA_TAG_AT_END = re.compile(r"(?:^|\s)vc-member/([A-Za-z0-9_-]{1,64})$")
_REFUSED = b"403 Forbidden: join the shared game first (open /join on this server).\n"
_ERROR_KEYS = {
    Refusal.INVALID_TOKEN: "share.join.error.token",
    Refusal.WRONG_CODE: "share.join.error.code",
    Refusal.FULL: "share.join.error.full",
}


class _MemberSocket:
    """One member's live WebSocket: the app's `send`, wrapped so the guard can close the
    connection from outside (the host stopped sharing or removed the phone); anything the
    app sends after that is dropped."""

    def __init__(self, send: Send, loop: asyncio.AbstractEventLoop) -> None:
        self._send = send
        self._loop = loop
        self.closed = False
        self._tasks: set[asyncio.Task[None]] = set()

    async def send(self, message: Message) -> None:
        if self.closed:
            return
        if message.get("type") == "websocket.close":
            self.closed = True
        await self._send(message)

    async def _close(self, code: int) -> None:
        try:
            await self._send({"type": "websocket.close", "code": code})
        except Exception as exc:  # the client left meanwhile
            logger.debug("closing a member's WebSocket: %s", exc)

    def close(self, code: int) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self._loop:
            task = self._loop.create_task(self._close(code))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        elif not self._loop.is_closed():  # another thread: hand it to the socket's loop
            asyncio.run_coroutine_threadsafe(self._close(code), self._loop)


def member_id_from_user_agent(user_agent: str | None) -> str | None:
    """The member id `ShareGuard` appended to a joined phone's User-Agent; None for the
    host (the guard strips any tag from a host's User-Agent, so none can be forged)."""
    if not user_agent:
        return None
    found = _UA_TAG_AT_END.search(user_agent.strip())
    return found.group(1) if found else None


def _canonical_ip(address: str) -> str | None:
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ip)


def _is_loopback(address: str) -> bool:
    canonical = _canonical_ip(address)
    return canonical is not None and ipaddress.ip_address(canonical).is_loopback


def _with_user_agent(scope: Scope, member_id: str | None) -> Scope:
    """`scope` with its User-Agent stripped of any vc-member tag, and the member's tag
    appended when `member_id` is given."""
    values = header_values(scope, b"user-agent")
    if not values and member_id is None:
        return scope
    agent = _UA_TAG_ANYWHERE.sub("", " ".join(values)).strip()
    if member_id is not None:
        agent = f"{agent} {UA_TAG}{member_id}".strip()
    headers = [(k, v) for k, v in scope.get("headers", ()) if k.lower() != b"user-agent"]
    headers.append((b"user-agent", agent.encode("latin-1", "replace")))
    return {**scope, "headers": headers}


class ShareGuard:
    def __init__(self, app: ASGIApp, registry: ShareRegistry,
                 host_addresses: Iterable[str] = DEFAULT_HOST_ADDRESSES,
                 limiter: CodeRateLimiter | None = None) -> None:
        self.app = app
        self.registry = registry
        self.host_addresses = frozenset(
            c for c in (_canonical_ip(a) for a in host_addresses) if c is not None)
        self.limiter = limiter or CodeRateLimiter()
        self._sockets_lock = threading.Lock()
        self._sockets: dict[str, set[_MemberSocket]] = {}  # member id -> live WebSockets

    def stop(self) -> list[str]:
        """Stop sharing: every invitation and member token stops working and every joined
        phone's WebSocket is closed now. Returns the member ids that were removed."""
        removed = self.registry.close()
        for member_id in removed:
            self.close_member(member_id)
        return removed

    def remove(self, member_id: str) -> bool:
        """Remove one phone: its cookie stops working and its WebSockets close now."""
        removed = self.registry.remove(member_id)
        self.close_member(member_id, MEMBER_REMOVED_CODE)
        return removed

    def close_member(self, member_id: str, code: int = MEMBER_CLOSE_CODE) -> int:
        """Close the member's live WebSockets (from any thread); returns how many."""
        with self._sockets_lock:
            sockets = self._sockets.pop(member_id, set())
        for socket in sockets:
            socket.close(code)
        return len(sockets)

    def live_sockets(self, member_id: str) -> int:
        with self._sockets_lock:
            return len(self._sockets.get(member_id, ()))

    async def _serve_member_socket(self, scope: Scope, receive: Receive, send: Send,
                                   member_id: str) -> None:
        socket = _MemberSocket(send, asyncio.get_running_loop())
        with self._sockets_lock:
            self._sockets.setdefault(member_id, set()).add(socket)
        try:
            await self.app(_with_user_agent(scope, member_id), receive, socket.send)
        finally:
            with self._sockets_lock:
                live = self._sockets.get(member_id)
                if live is not None:
                    live.discard(socket)
                    if not live:
                        del self._sockets[member_id]

    def is_host(self, scope: Scope) -> bool:
        server, client = scope.get("server"), scope.get("client")
        if not server or not client or not server[0] or not client[0]:
            return False
        server_ip, client_ip = str(server[0]), str(client[0])
        return (_is_loopback(server_ip) and _is_loopback(client_ip)
                and _canonical_ip(server_ip) in self.host_addresses)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if self.is_host(scope):
            await self.app(_with_user_agent(scope, None), receive, send)
            return
        member = self._member(scope)
        if scope["type"] == "websocket":
            if member is None:
                await refuse_websocket(scope, receive, send, _REFUSED)
            else:
                await self._serve_member_socket(scope, receive, send, member.member_id)
            return
        if scope.get("path") in (JOIN_PATH, JOIN_PATH + "/"):
            await self._join(scope, receive, send, member)
        elif member is not None:
            await self.app(_with_user_agent(scope, member.member_id), receive, send)
        elif _is_page_load(scope):
            await redirect(send, url(scope, JOIN_PATH))
        else:
            await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        """403 for a request without membership, saying whether sharing is off."""
        await send_forbidden(send, _REFUSED, extra=[
            (SHARE_HEADER, b"left" if self.registry.sharing else b"stopped")])

    def _member(self, scope: Scope) -> Member | None:
        for header in header_values(scope, b"cookie"):
            token = cookie_parser(header).get(MEMBER_COOKIE)
            member = self.registry.member_for(token) if token else None
            if member is not None:
                return member
        return None

    async def _join(self, scope: Scope, receive: Receive, send: Send,
                    member: Member | None) -> None:
        method = scope.get("method", "GET")
        address = str((scope.get("client") or ("?",))[0])
        tr = Translator(language_for(first_header(scope, b"accept-language")))
        page = JoinPage(scope, send, tr, head=method == "HEAD")
        if method not in ("GET", "HEAD", "POST"):
            await page.send(405, None, extra=[(b"allow", b"GET, HEAD, POST")])
            return
        if member is not None:  # already joined (a reload, a second scan): no new member
            await redirect(send, url(scope, "/"))
            return
        if not self.registry.sharing:
            await page.send(503, tr.t("share.join.off"), form=False)
            return
        if method == "POST":
            await self._join_by_code(scope, receive, send, page, address)
            return
        token = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("t")
        if not token:
            await page.send(200, None)
            return
        result = self.registry.join_by_token(token[0], address)
        await self._answer(scope, send, page, result)

    async def _join_by_code(self, scope: Scope, receive: Receive, send: Send,
                            page: JoinPage, address: str) -> None:
        wait = self.limiter.retry_after(address)
        if wait is not None:  # even the right code: a lockout is not lifted by guessing
            await page.locked(wait)
            return
        body = await _read_body(receive, MAX_FORM_BYTES)
        if body is None:
            await send_forbidden(send, b"403 Forbidden: form too large.\n")
            return
        form = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
        result = self.registry.join_by_code(form.get("code", [""])[0][:64], address)
        if result is Refusal.WRONG_CODE:
            lockout = self.limiter.record_failure(address)
            logger.warning("wrong join code from %s", address)
            if lockout is not None:
                await page.locked(lockout)
                return
        await self._answer(scope, send, page, result)

    async def _answer(self, scope: Scope, send: Send, page: JoinPage,
                      result: Joined | Refusal) -> None:
        if isinstance(result, Joined):
            logger.info("phone %s joined from %s", result.member.member_id,
                        result.member.address)
            cookie = f"{MEMBER_COOKIE}={result.member_token}; HttpOnly; SameSite=Strict; Path=/"
            await redirect(send, url(scope, "/"), [(b"set-cookie", cookie.encode("ascii"))])
        elif result is Refusal.SHARING_OFF:
            await page.send(503, page.tr.t("share.join.off"), form=False)
        else:
            await page.send(403, page.tr.t(_ERROR_KEYS[result]))


def _is_page_load(scope: Scope) -> bool:
    """A browser loading a page (the app's routes on reload), rather than a script, a
    file or an API call: those get 403, a page load is sent to the join page."""
    if scope.get("method") not in ("GET", "HEAD"):
        return False
    if scope.get("path") in ("", "/"):
        return True
    return any("text/html" in accept for accept in header_values(scope, b"accept"))


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The request body, or None when it is larger than `limit` or the client left."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)
