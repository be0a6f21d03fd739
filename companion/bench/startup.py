"""Start-up time of the app's web server against a bare Flet hello-world.

Each figure is the median, over `runs` launches, of the time from starting the process to
the first HTTP 200 on `/` (both with no CDN, on free loopback ports). Launches alternate
app / hello so machine noise hits both alike. Every process started is stopped. The
machine's load average at the end of the run goes with the figures (`load`: 1, 5 and 15
minutes), since a shared machine's load moves both sides but not always alike.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from companion.bench.serve import app_command, free_port, script_command, serving

HELLO_WORLD = """\
import sys
import flet as ft

def main(page: ft.Page) -> None:
    page.add(ft.Text("Hello, world"))

ft.run(main, host="127.0.0.1", port=int(sys.argv[1]), view=ft.AppView.WEB_BROWSER,
       no_cdn=True)
"""
READY_TIMEOUT_S = 60.0


def _first_ok_ms(command: list[str], port: int, log: Path) -> float:
    """Launch `command`, return ms until http://127.0.0.1:port/ answers 200, then stop it."""
    started = time.perf_counter()
    with serving(command, port, log, timeout_s=READY_TIMEOUT_S, poll_s=0.01):
        return (time.perf_counter() - started) * 1000


def measure_startup(runs: int = 3) -> dict[str, float | list[float]]:
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
            app_ms.append(_first_ok_ms(app_command(port, data_dir), port,
                                       Path(tmp) / "app-server.log"))
            port = free_port()
            hello_ms.append(_first_ok_ms(script_command(hello, port), port,
                                         Path(tmp) / "hello-server.log"))
    app, bare = statistics.median(app_ms), statistics.median(hello_ms)
    return {"app_ms": round(app, 1), "hello_ms": round(bare, 1), "ratio": round(app / bare, 2),
            "load": [round(x, 2) for x in os.getloadavg()]}


if __name__ == "__main__":
    print(measure_startup(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
