"""The share state of one server process, and the server set-up for `--share`.

API:

* `TableShare(registry, address, port)`: one per process, passed to `build_main(...,
  share=...)` and found by every screen as `ctx.share` (None when not sharing).
  `join_url(invitation)`, `join_page_url`, `stop()`, `remove(member_id)`,
  `choose_seat(member_id, seat)`, `has_chosen(member_id)`, `member(member_id)`.
* `choose_address(requested, print_line)`: the LAN address to share on (the one asked for,
  else the first of `lan_addresses()`); raises `ShareSetupError` when there is none.
* `bind_sockets(host, address, port)`: the two listening sockets (loopback for the host,
  the LAN address for the phones) that uvicorn serves at once.

No Flet import: launch.py uses it before the app exists.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Callable

from companion.share.addresses import lan_addresses
from companion.share.registry import Invitation, Member, ShareRegistry
from companion.web.share_guard import JOIN_PATH, ShareGuard


class ShareSetupError(Exception):
    """Sharing cannot start (no LAN address, an address that cannot be bound)."""


class TableShare:
    def __init__(self, registry: ShareRegistry, address: str, port: int,
                 guard: ShareGuard | None = None) -> None:
        self.registry = registry
        self.address = address
        self.port = port
        self.guard = guard  # set by launch once the ASGI stack is built
        self._lock = threading.Lock()
        self._chosen: set[str] = set()  # members that picked a seat (or to watch)

    @property
    def base_url(self) -> str:
        host = f"[{self.address}]" if ":" in self.address else self.address
        return f"http://{host}:{self.port}"

    @property
    def join_page_url(self) -> str:
        return self.base_url + JOIN_PATH

    def join_url(self, invitation: Invitation) -> str:
        return f"{self.join_page_url}?t={invitation.join_token}"

    def member(self, member_id: str) -> Member | None:
        return self.registry.member(member_id)

    def has_chosen(self, member_id: str) -> bool:
        with self._lock:
            return member_id in self._chosen

    def choose_seat(self, member_id: str, seat: int | None) -> Member | None:
        """Seat `seat` (a player's index) or None (watching); a reload keeps it."""
        with self._lock:
            self._chosen.add(member_id)
        return self.registry.choose_seat(member_id, seat)

    def remove(self, member_id: str) -> bool:
        """The phone stops being a member and its connection closes now."""
        with self._lock:
            self._chosen.discard(member_id)
        if self.guard is not None:
            return self.guard.remove(member_id)
        return self.registry.remove(member_id)

    def stop(self) -> list[str]:
        """Stop sharing: every phone is closed at once, every link and code stops."""
        with self._lock:
            self._chosen.clear()
        if self.guard is not None:
            return self.guard.stop()
        return self.registry.close()


def choose_address(requested: str | None, print_line: Callable[[str], None] = print) -> str:
    """The address to share on: `requested` (checked), else the first LAN address."""
    found = lan_addresses()
    if requested:
        try:
            ip = ipaddress.IPv4Address(requested.strip())
        except ValueError:
            raise ShareSetupError(f"--share wants an IPv4 address of this machine, "
                                  f"not {requested!r}") from None
        if ip.is_unspecified or ip.is_multicast:
            raise ShareSetupError(f"--share {requested}: give the one address the phones "
                                  "use, not every interface")
        address = str(ip)
    elif found:
        address = found[0]
    else:
        raise ShareSetupError("--share: this machine has no LAN address (no network?). "
                              "Connect to the table's Wi-Fi, or give one: --share ADDRESS")
    print_line("LAN addresses: " + (", ".join(found) if found else "(none found)"))
    print_line(f"Sharing on {address}")
    return address


def bind_sockets(host: str, address: str, port: int) -> list[socket.socket]:
    """Listening sockets on host:port (the host's own browser) and address:port (phones)."""
    sockets: list[socket.socket] = []
    try:
        for bind_to in dict.fromkeys((host, address)):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind((bind_to, port))
            except OSError as exc:
                raise ShareSetupError(f"cannot listen on {bind_to}:{port}: "
                                      f"{exc.strerror or exc}") from exc
            sock.listen(128)
            sock.set_inheritable(True)
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    return sockets
