"""Only the app's own page may talk to its web server.

Browsers let any web site open a WebSocket to 127.0.0.1, and DNS rebinding lets a foreign
name resolve to this machine. So, like Jupyter, the server checks two request headers
before the app sees a request:

* `Host` must name this server: 127.0.0.1, localhost or [::1] on its port, the bound
  address when the server is bound to a specific one, and names given with `--allow-host`.
  Anything else (a rebound foreign name, a missing or repeated Host) gets HTTP 403.
* `Origin`, when present, must be `http(s)://<an allowed host>` or an origin given with
  `--allow-origin`. A foreign Origin gets HTTP 403 on plain requests and on the WebSocket
  upgrade (refused before it is accepted, so no app session ever starts).

A request without Origin is allowed: browsers always send Origin on a WebSocket upgrade
and on cross-site requests that can carry data, so a missing Origin means a non-browser
client (curl, a script), which could send any Origin it liked anyway. The Origin check
protects against other web sites in the user's browser; the Host check against DNS
rebinding. Neither keeps out a stranger on the same network when the server listens
there (a LAN needs a secret for that).

Pure ASGI, no Flet import: `HostOriginGuard(app, policy)` wraps any ASGI app.
"""

from __future__ import annotations

import ipaddress
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

from companion.web.asgi import header_values, refuse_websocket, send_forbidden

logger = logging.getLogger(__name__)

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
# Bind addresses that mean "every interface": they name no host a client could use.
WILDCARD_BIND_HOSTS = frozenset({"", "*", "0.0.0.0", "::", "[::]"})
DEFAULT_PORTS = {"http": 80, "https": 443}

_NAME = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*")


def _canonical_name(name: str) -> str | None:
    """A host name or IP literal in one spelling (lower case; IPv6 bracketed and
    compressed), or None when it is neither."""
    name = name.lower()
    if name.startswith("[") and name.endswith("]"):
        try:
            return f"[{ipaddress.IPv6Address(name[1:-1]).compressed}]"
        except ValueError:
            return None
    try:
        return str(ipaddress.IPv4Address(name))
    except ValueError:
        pass
    return name if _NAME.fullmatch(name) else None


def parse_authority(value: str) -> tuple[str, int | None] | None:
    """`name[:port]` as (canonical name, port or None); None when malformed. An IPv6
    address must be bracketed, as it is in a Host header or a URL."""
    value = value.strip()
    if value.startswith("["):
        close = value.find("]")
        if close < 0:
            return None
        name, rest = value[:close + 1], value[close + 1:]
        if rest and not rest.startswith(":"):
            return None
        port_text = rest[1:] if rest else None
    else:
        name, sep, port_text_or_empty = value.partition(":")
        port_text = port_text_or_empty if sep else None
    canonical = _canonical_name(name)
    if canonical is None:
        return None
    if port_text is None:
        return canonical, None
    if not port_text.isascii() or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        return None
    return canonical, int(port_text)


def _authority(name: str, port: int | None) -> str:
    return name if port is None else f"{name}:{port}"


def parse_origin(value: str) -> str | None:
    """An Origin (`scheme://host[:port]`, scheme http or https) in its canonical form: lower
    case, IPv6 compressed, the scheme's default port left out. None when it is anything else,
    including the opaque origin `null`."""
    scheme, sep, rest = value.strip().partition("://")
    scheme = scheme.lower()
    if not sep or scheme not in DEFAULT_PORTS:
        return None
    parsed = parse_authority(rest)
    if parsed is None:
        return None
    name, port = parsed
    if port == DEFAULT_PORTS[scheme]:
        port = None
    return f"{scheme}://{_authority(name, port)}"


def allow_host_option(value: str) -> str:
    """`--allow-host NAME` or `NAME:PORT` (a bare IPv6 address may leave out the brackets).
    Returns the canonical form; raises ValueError for anything else."""
    text = value.strip()
    if text.count(":") > 1 and not text.startswith("["):
        text = f"[{text}]"
    parsed = parse_authority(text)
    if parsed is None:
        raise ValueError(f"not a host name or address: {value!r}")
    return _authority(*parsed)


def allow_origin_option(value: str) -> str:
    """`--allow-origin http(s)://host[:port]` (one trailing slash tolerated). Returns the
    canonical form; raises ValueError for anything else."""
    text = value.strip()
    canonical = parse_origin(text[:-1] if text.endswith("/") else text)
    if canonical is None:
        raise ValueError(f"not an origin like https://example.org:8443 : {value!r}")
    return canonical


@dataclass(frozen=True)
class AccessPolicy:
    """What Host and Origin headers the server answers. `hosts` holds canonical
    `name:port` (or a bare `name`: the client used the default port, e.g. through a
    proxy); `origins` canonical origins (see `parse_origin`)."""

    hosts: frozenset[str]
    origins: frozenset[str]

    def host_allowed(self, host: str | None) -> bool:
        if host is None:
            return False
        parsed = parse_authority(host)
        return parsed is not None and _authority(*parsed) in self.hosts

    def origin_allowed(self, origin: str | None) -> bool:
        """A missing Origin is allowed (non-browser client, see the module doc)."""
        if origin is None:
            return True
        canonical = parse_origin(origin)
        return canonical is not None and canonical in self.origins


def build_policy(bind_host: str, port: int, allow_hosts: Iterable[str] = (),
                 allow_origins: Iterable[str] = ()) -> AccessPolicy:
    """The policy for a server bound to `bind_host:port`.

    Allowed hosts: the loopback names on `port` (and without a port when `port` is 80), the
    bound address when it is a specific one, and each `allow_hosts` entry: `NAME:PORT`
    exactly, a bare `NAME` on `port` or without a port (a reverse proxy on 80/443 that
    passes the public Host on). Allowed origins: http and https on every allowed host, and
    each `allow_origins` entry. Raises ValueError for a malformed entry."""
    hosts: set[str] = set()
    for name in LOOPBACK_NAMES:
        hosts.add(_authority(name, port))
        if port == DEFAULT_PORTS["http"]:
            hosts.add(name)
    bind = bind_host.strip().lower()
    if bind not in WILDCARD_BIND_HOSTS:
        bound = parse_authority(allow_host_option(bind))
        assert bound is not None
        hosts.add(_authority(bound[0], port))
    for entry in allow_hosts:
        canonical = allow_host_option(entry)
        parsed = parse_authority(canonical)
        assert parsed is not None
        name, entry_port = parsed
        if entry_port is None:
            hosts.update({_authority(name, port), name})
        else:
            hosts.add(canonical)
    origins: set[str] = set()
    for host in hosts:
        for scheme in DEFAULT_PORTS:
            origin = parse_origin(f"{scheme}://{host}")
            assert origin is not None
            origins.add(origin)
    origins.update(allow_origin_option(entry) for entry in allow_origins)
    return AccessPolicy(frozenset(hosts), frozenset(origins))


_HOST_REFUSED = (b"403 Forbidden: this server does not answer this host name.\n"
                 b"(Start it with --allow-host NAME to allow one.)\n")
_ORIGIN_REFUSED = (b"403 Forbidden: requests from other sites are refused.\n"
                   b"(Start the server with --allow-origin ORIGIN to allow one.)\n")
_MAX_LOGGED = 64  # distinct refused values logged, so a flood cannot fill the log


class HostOriginGuard:
    """ASGI middleware: lets `app` see only HTTP and WebSocket requests whose Host and
    Origin headers `policy` allows; refuses the rest with 403 (lifespan passes through)."""

    def __init__(self, app: ASGIApp, policy: AccessPolicy) -> None:
        self.app = app
        self.policy = policy
        self._logged: set[tuple[str, str]] = set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refusal = self.check(scope)
        if refusal is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            await send_forbidden(send, refusal)
        else:
            await refuse_websocket(scope, receive, send, refusal)

    def check(self, scope: Scope) -> bytes | None:
        """The 403 body when the request must be refused, None when it may pass."""
        hosts = header_values(scope, b"host")
        if len(hosts) != 1 or not self.policy.host_allowed(hosts[0]):
            self._log("Host", hosts[0] if len(hosts) == 1 else repr(hosts),
                      "start with --allow-host NAME to allow it")
            return _HOST_REFUSED
        origins = header_values(scope, b"origin")
        if len(origins) > 1 or not self.policy.origin_allowed(origins[0] if origins else None):
            self._log("Origin", origins[0] if len(origins) == 1 else repr(origins),
                      "start with --allow-origin ORIGIN to allow it")
            return _ORIGIN_REFUSED
        return None

    def _log(self, header: str, value: str, hint: str) -> None:
        key = (header, value)
        if key in self._logged or len(self._logged) >= _MAX_LOGGED:
            return
        self._logged.add(key)
        logger.warning("refused a request with %s %r (%s)", header, value, hint)
