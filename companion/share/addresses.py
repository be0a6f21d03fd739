"""The LAN addresses this machine could share the game on, for the CLI to list.

API: `lan_addresses() -> list[str]`: IPv4, not loopback, link-local or multicast; the
default route's address first. Never raises: an empty list when there is none (offline,
no network, a sandbox).
"""

from __future__ import annotations

import ipaddress
import socket

# Any routable address works: connect() on a UDP socket only asks the kernel for a route
# and the source address it would use; nothing is sent. TEST-NET-1 (RFC 5737).
_PROBE = ("192.0.2.1", 9)


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_unspecified
                or ip.is_reserved)


def _default_route_address() -> str | None:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_PROBE)
            return str(probe.getsockname()[0])
    except OSError:
        return None


def _host_name_addresses() -> list[str]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except (OSError, UnicodeError):
        return []
    return [str(info[4][0]) for info in infos]


def lan_addresses() -> list[str]:
    found: list[str] = []
    try:
        candidates = [_default_route_address(), *_host_name_addresses()]
    except Exception:  # the CLI must start whatever the resolver does
        return []
    for address in candidates:
        if address and _usable(address) and address not in found:
            found.append(address)
    return found
