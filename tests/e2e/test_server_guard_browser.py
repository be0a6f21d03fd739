"""The server guard and shutdown in real Chromium: another site's page, or a DNS-rebound
name, gets no session; the app's own page does; SIGTERM/SIGINT with the page open end the
server within 2 s."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from .conftest import CHROMIUM_FLAGS, REPO, free_port, wait_for_http
from .test_browser import LOAD_TIMEOUT_MS, open_app

pytestmark = pytest.mark.e2e

EXIT_BUDGET_S = 2.0
CI_SLACK_S = 3.0

# Resolves these names to this machine, as DNS rebinding does.
REBIND_FLAG = "--host-resolver-rules=MAP evil.example 127.0.0.1, MAP attacker.example 127.0.0.1"

# Opens a WebSocket from the page it runs in: 'open', or 'refused' when the upgrade fails.
WS_JS = """async (url) => await new Promise((done) => {
  const ws = new WebSocket(url);
  ws.onopen = () => { ws.close(); done('open'); };
  ws.onerror = () => done('refused');
  setTimeout(() => done('timeout'), 10000);
})"""

ATTACK_PAGE = "<!doctype html><title>another site</title><p>nothing to see here</p>"


class Server:
    """`python -m companion` on a free port; stderr goes to a file the test can read."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        self.log_path = tmp / f"server-{self.port}.log"
        env = {**os.environ, "FLET_WEB_NO_CDN": "1", "FLET_WEB_RENDERER": "canvaskit"}
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "companion", "--port", str(self.port),
                 "--data-dir", str(tmp / f"data-{self.port}")],
                cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=log)
        wait_for_http(self.url, 30, self.proc)

    def log(self) -> str:
        return self.log_path.read_text("utf-8", errors="replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture(scope="module")
def guarded(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(tmp_path_factory.mktemp("guard"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def rebinding_browser(browser: Any, chromium: Path) -> Iterator[Any]:
    other = browser.browser_type.launch(executable_path=str(chromium),
                                        args=[*CHROMIUM_FLAGS, REBIND_FLAG])
    try:
        yield other
    finally:
        other.close()


def test_own_page_opens_a_session(browser: Any, guarded: Server) -> None:
    page = open_app(browser, guarded.url, "en-US")
    page.get_by_text("Continue a game").wait_for(timeout=LOAD_TIMEOUT_MS)
    assert page.evaluate(WS_JS, guarded.ws_url) == "open"  # the same call as the next test
    page.context.close()


@pytest.fixture(scope="module")
def other_local_site() -> Iterator[str]:
    """Another web site on this machine (any local dev server, or a page a rebound name
    served): a real loopback server, so Chromium's own Local Network Access rules (which
    already stop a public site's page from reaching 127.0.0.1) do not decide the test."""

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            body = ATTACK_PAGE.encode()
            self.send_response(200)
            self.send_header("content-type", "text/html")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://attacker.example:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_another_sites_page_cannot_open_a_session(rebinding_browser: Any, guarded: Server,
                                                  other_local_site: str) -> None:
    context = rebinding_browser.new_context()
    page = context.new_page()
    page.goto(f"{other_local_site}/")
    assert page.evaluate(WS_JS, guarded.ws_url) == "refused"
    # the server itself refused it (not the browser): it logged the foreign Origin
    assert f"refused a request with Origin '{other_local_site}'" in guarded.log()
    context.close()


def test_dns_rebinding_gets_403_and_no_session(rebinding_browser: Any,
                                               guarded: Server) -> None:
    evil = f"evil.example:{guarded.port}"
    context = rebinding_browser.new_context()
    page = context.new_page()
    response = page.goto(f"http://{evil}/")
    assert response is not None and response.status == 403
    assert "403 Forbidden" in page.content()
    assert page.locator("flutter-view").count() == 0
    # The attacker's page, first served by the attacker, then talks to the rebound name.
    page.route(f"http://{evil}/attack", lambda route: route.fulfill(
        status=200, content_type="text/html", body=ATTACK_PAGE))
    page.goto(f"http://{evil}/attack")
    assert page.evaluate(WS_JS, f"ws://{evil}/ws") == "refused"
    assert f"refused a request with Host '{evil}'" in guarded.log()
    context.close()


def _port_closed(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return True
    return False


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_signal_with_the_page_open_ends_the_server_promptly(browser: Any, tmp_path: Path,
                                                             sig: signal.Signals) -> None:
    server = Server(tmp_path)
    try:
        page = open_app(browser, server.url, "en-US")
        page.get_by_text("Continue a game").wait_for(timeout=LOAD_TIMEOUT_MS)
        started = time.monotonic()
        server.proc.send_signal(sig)
        code = server.proc.wait(timeout=EXIT_BUDGET_S + CI_SLACK_S + 5)
        elapsed = time.monotonic() - started
        print(f"{sig.name} with the page open: exit {code} after {elapsed:.2f}s")
        assert elapsed < EXIT_BUDGET_S + CI_SLACK_S
        assert code == 0  # run_app returned normally: the store was closed in `finally`
        assert _port_closed(server.port)
        assert "Traceback" not in server.log()
        page.context.close()
    finally:
        server.stop()
