"""The one server start of the benchmarks and the browser tests (companion.bench.serve),
tried on a tiny standard-library HTTP server: no Flet, no browser, a second or so."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest

from companion.bench.serve import Server, app_command, environment, free_port, serving

# Writes far more to stderr than a pipe holds (64 KiB) before it serves: a server whose
# stderr went to a pipe nobody reads would block here and never answer.
NOISY = """\
import http.server, sys
sys.stderr.write("noise\\n" * 40000)
sys.stderr.flush()
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])),
                       http.server.SimpleHTTPRequestHandler).serve_forever()
"""


def test_a_noisy_server_is_waited_for_logged_to_its_file_and_stopped(tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "noisy.log"
    with serving([sys.executable, "-c", NOISY, str(port)], port, log, timeout_s=30) as server:
        proc = server.proc
        assert proc is not None and proc.poll() is None
        assert server.url == f"http://127.0.0.1:{port}/"
        assert log.stat().st_size > 64 * 1024
    assert server.proc is None and proc.poll() is not None


def test_a_server_that_exits_first_says_why(tmp_path: Path) -> None:
    port = free_port()
    dies = [sys.executable, "-c", "import sys; sys.stderr.write('boom: no config'); "
                                  "sys.exit(3)"]
    with pytest.raises(RuntimeError, match=r"(?s)code 3.*boom: no config"):
        Server(dies, port, tmp_path / "dies.log").start(timeout_s=30)


def test_a_restarted_server_serves_on_its_port_again(tmp_path: Path) -> None:
    port = free_port()
    server = Server([sys.executable, "-c", NOISY, str(port)], port, tmp_path / "again.log")
    server.start(30)
    server.stop(signal.SIGKILL)  # the server dies
    server.start(30)
    try:
        assert server.proc is not None and server.proc.poll() is None
    finally:
        server.stop()


def test_the_app_command_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    command = app_command(8123, Path("/tmp/data"), "--share", "127.0.0.2")
    assert command[1:] == ["-m", "companion", "--host", "127.0.0.1", "--port", "8123",
                           "--data-dir", "/tmp/data", "--share", "127.0.0.2"]
    monkeypatch.setenv("FLET_SERVER_PORT", "9999")  # the command line decides the port
    monkeypatch.setenv("FLET_WEB_RENDERER", "skwasm")
    env = environment("canvaskit")
    assert env["FLET_WEB_RENDERER"] == "canvaskit" and env["FLET_WEB_NO_CDN"] == "1"
    assert "FLET_SERVER_PORT" not in env
    assert environment()["FLET_WEB_RENDERER"] == "skwasm"  # None: left as it is
