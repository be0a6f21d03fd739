"""The real server (`python -m companion` in a subprocess) with a real WebSocket client:
only its own Host and Origin get a session, and SIGTERM/SIGINT end it within 2 s.

No browser needed (see tests/e2e/test_server_guard_browser.py for the page itself)."""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e.conftest import REPO, free_port, wait_for_http
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

EXIT_BUDGET_S = 2.0
CI_SLACK_S = 3.0  # a loaded 2-core CI box; the measured exit is printed either way


class App:
    def __init__(self, tmp: Path, *extra: str) -> None:
        self.port = free_port()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "--port", str(self.port),
             "--data-dir", str(tmp / f"data-{self.port}"), *extra],
            cwd=REPO, env={**os.environ, "FLET_WEB_NO_CDN": "1"},
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wait_for_http(f"http://127.0.0.1:{self.port}/", 30, self.proc)

    def stop(self) -> str:
        """Ends the process (if a test has not) and returns what it wrote on stderr."""
        if self.proc.poll() is None:
            self.proc.kill()
        _, err = self.proc.communicate()
        return err.decode(errors="replace")

    def ws(self, host: str | None = None, origin: str | None = "own") -> ClientConnection:
        """A WebSocket to /ws over a socket to 127.0.0.1, with the given Host (default the
        server's own) and Origin ("own": the page's, None: no Origin header)."""
        host = host or f"127.0.0.1:{self.port}"
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        own = f"http://127.0.0.1:{self.port}"
        return connect(f"ws://{host}/ws", sock=sock, proxy=None, open_timeout=5,
                       origin=Origin(own if origin == "own" else origin) if origin else None)

    def get(self, host: str, origin: str | None = None) -> tuple[int, str, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
        headers = {"Host": host, **({"Origin": origin} if origin else {})}
        try:
            conn.request("GET", "/", headers=headers)
            response = conn.getresponse()
            return response.status, response.getheader("content-type") or "", response.read()
        finally:
            conn.close()


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    running = App(tmp_path_factory.mktemp("live"))
    try:
        yield running
    finally:
        running.stop()


def refused_status(app: App, host: str | None = None, origin: str | None = "own") -> int:
    with pytest.raises(InvalidStatus) as refused, app.ws(host, origin):
        pass
    return refused.value.response.status_code


# ---- (b) who may connect ---------------------------------------------------------------------
def test_own_origin_and_host_get_a_websocket(app: App) -> None:
    for host, origin in [(None, "own"),
                         (f"localhost:{app.port}", f"http://localhost:{app.port}"),
                         (f"[::1]:{app.port}", f"http://[::1]:{app.port}"),
                         (None, None)]:  # no Origin: not a browser (see server_guard)
        with app.ws(host, origin) as ws:
            assert ws.response is not None and ws.response.status_code == 101


def test_foreign_origin_websocket_is_refused(app: App) -> None:
    assert refused_status(app, origin="http://evil.example") == 403
    assert refused_status(app, origin=f"http://evil.example:{app.port}") == 403
    assert refused_status(app, origin="null") == 403


def test_foreign_host_websocket_is_refused(app: App) -> None:
    """DNS rebinding: the browser sends the attacker's name as Host (and as Origin)."""
    evil = f"evil.example:{app.port}"
    assert refused_status(app, host=evil, origin=f"http://{evil}") == 403
    assert refused_status(app, host=evil) == 403
    assert refused_status(app, host=evil, origin=None) == 403


def test_plain_get_answers_only_own_host(app: App) -> None:
    status, ctype, body = app.get(f"evil.example:{app.port}")
    assert status == 403 and ctype.startswith("text/plain")
    assert body.startswith(b"403 Forbidden") and b"<" not in body  # no app page
    status, _, body = app.get(f"127.0.0.1:{app.port}")
    assert status == 200 and b"flutter" in body.lower()
    status, _, _ = app.get(f"LOCALHOST:{app.port}")
    assert status == 200
    status, _, _ = app.get(f"127.0.0.1:{app.port}", origin="http://evil.example")
    assert status == 403


def test_allow_options_admit_exactly_what_they_name(tmp_path: Path) -> None:
    proxied = App(tmp_path, "--allow-host", "village.test",
                  "--allow-origin", "https://games.example.org")
    try:
        with proxied.ws(f"village.test:{proxied.port}", f"http://village.test:{proxied.port}"):
            pass
        with proxied.ws("village.test", "https://village.test"):  # proxy on 443, Host kept
            pass
        with proxied.ws(None, "https://games.example.org"):  # proxy that rewrites Host
            pass
        assert refused_status(proxied, origin="https://other.example.org") == 403
        assert refused_status(proxied, host="games.example.org") == 403
    finally:
        log = proxied.stop()
    # the operator learns why a phone or a proxy got nowhere
    assert "refused a request with Origin 'https://other.example.org'" in log
    assert "--allow-origin" in log and "--allow-host" in log


# ---- (c) signals -----------------------------------------------------------------------------
def port_closed(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return True
    return False


@pytest.mark.parametrize("with_client", [True, False], ids=["client", "no-client"])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_signal_closes_clients_and_exits_promptly(tmp_path: Path, sig: signal.Signals,
                                                  with_client: bool) -> None:
    """The client here never registers a Flet session, the worst case: Flet's handler for
    it never ends by itself, so only the shutdown grace ends it."""
    running = App(tmp_path)
    try:
        with contextlib.ExitStack() as client:
            ws = client.enter_context(running.ws()) if with_client else None
            started = time.monotonic()
            running.proc.send_signal(sig)
            if ws is not None:  # told the server is going away (1012), not left hanging
                with pytest.raises(ConnectionClosed) as closed:
                    ws.recv(timeout=EXIT_BUDGET_S + CI_SLACK_S)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
            code = running.proc.wait(timeout=EXIT_BUDGET_S + CI_SLACK_S + 5)
            elapsed = time.monotonic() - started
        print(f"{sig.name} {'with' if with_client else 'without'} a client: "
              f"exit {code} after {elapsed:.2f}s")
        assert elapsed < EXIT_BUDGET_S + CI_SLACK_S
        assert code == 0  # run_app returned: its `finally` closed the store
        assert port_closed(running.port)
    finally:
        running.stop()
