"""Start-up time of the app's web server against a bare Flet hello-world.

Each figure is the median, over `runs` launches, of the time from starting the process to
the first HTTP 200 on `/` (both with no CDN, on free loopback ports). Launches alternate
app / hello so machine noise hits both alike. Every process started is stopped.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

HELLO_WORLD = """\
import sys
import flet as ft

def main(page: ft.Page) -> None:
    page.add(ft.Text("Hello, world"))

ft.run(main, host="127.0.0.1", port=int(sys.argv[1]), view=ft.AppView.WEB_BROWSER,
       no_cdn=True)
"""
REPO = Path(__file__).resolve().parents[2]
READY_TIMEOUT_S = 60.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"FLET_WEB_NO_CDN": "true", "FLET_FORCE_WEB_SERVER": "true"})
    env.pop("FLET_SERVER_PORT", None)  # the command line decides the port
    return env


def _first_ok_ms(command: list[str], port: int) -> float:
    """Launch `command`, return ms until http://127.0.0.1:port/ answers 200, then stop it."""
    url = f"http://127.0.0.1:{port}/"
    started = time.perf_counter()
    # A session of its own so the whole process group can be stopped together.
    proc = subprocess.Popen(command, cwd=REPO, env=_environment(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"{command[:3]} exited with {proc.returncode} before serving")
            if time.perf_counter() - started > READY_TIMEOUT_S:
                raise TimeoutError(f"{url} not ready after {READY_TIMEOUT_S}s")
            try:
                with urllib.request.urlopen(url, timeout=1) as response:
                    if response.status == 200:
                        return (time.perf_counter() - started) * 1000
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.01)
    finally:
        _stop(proc)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def measure_startup(runs: int = 3) -> dict[str, float]:
    if runs < 1:
        raise ValueError("runs must be at least 1")
    app_ms: list[float] = []
    hello_ms: list[float] = []
    with tempfile.TemporaryDirectory(prefix="vc-startup-") as tmp:
        hello = Path(tmp) / "hello_flet.py"
        hello.write_text(HELLO_WORLD, "utf-8")
        for run in range(runs):
            data_dir = Path(tmp) / f"data-{run}"
            port = free_port()
            app_ms.append(_first_ok_ms(
                [sys.executable, "-m", "companion", "--host", "127.0.0.1", "--port", str(port),
                 "--data-dir", str(data_dir)], port))
            port = free_port()
            hello_ms.append(_first_ok_ms([sys.executable, str(hello), str(port)], port))
    app, bare = statistics.median(app_ms), statistics.median(hello_ms)
    return {"app_ms": round(app, 1), "hello_ms": round(bare, 1), "ratio": round(app / bare, 2)}


if __name__ == "__main__":
    print(measure_startup(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
