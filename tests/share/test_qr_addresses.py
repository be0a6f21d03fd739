"""The QR image of the join URL, and the LAN address list (never fails)."""

from __future__ import annotations

import base64
import socket
import struct

import pytest

from companion.share import addresses
from companion.share.qr import qr_data_uri, qr_png

URL = "http://192.168.1.20:8550/join?t=" + "A" * 43


def test_qr_is_a_big_png() -> None:
    png = qr_png(URL)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", png[16:24])  # IHDR
    assert width == height >= 400  # readable at arm's length


def test_data_uri_round_trips() -> None:
    uri = qr_data_uri(URL)
    prefix = "data:image/png;base64,"
    assert uri.startswith(prefix)
    assert base64.b64decode(uri[len(prefix):], validate=True) == qr_png(URL)


def test_lan_addresses_are_ipv4_and_not_loopback() -> None:
    found = addresses.lan_addresses()
    assert isinstance(found, list)
    for address in found:
        socket.inet_aton(address)
        assert not address.startswith(("127.", "169.254.", "0."))
    assert len(found) == len(set(found))


def test_lan_addresses_never_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object, **__: object) -> object:
        raise OSError("no network")

    monkeypatch.setattr(addresses.socket, "socket", broken)
    monkeypatch.setattr(addresses.socket, "getaddrinfo", broken)
    assert addresses.lan_addresses() == []


def test_lan_addresses_filter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(addresses, "_default_route_address", lambda: "192.168.1.20")
    monkeypatch.setattr(addresses, "_host_name_addresses",
                        lambda: ["127.0.1.1", "192.168.1.20", "169.254.3.4", "10.0.0.7"])
    assert addresses.lan_addresses() == ["192.168.1.20", "10.0.0.7"]
