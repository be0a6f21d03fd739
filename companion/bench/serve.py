"""A web server for a benchmark or a browser test: the app (`python -m companion`) or a bare
Flet app script on a free 127.0.0.1 port, started, waited for and stopped in one place.

Standard library only (no Flet import: a test's process never loads the app). The server
runs in a session of its own, so `stop` ends its whole process group (the signal asked for,
SIGTERM by default, then SIGKILL after 10 s). Its stdout is discarded and its stderr is
appended to a log FILE, never a pipe: a pipe nobody reads fills up and blocks the server
at its next log line. `start` returns at the first HTTP 200 on `/`; a server that exits
first raises RuntimeError with the end of its log.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
READY_TIMEOUT_S = 60.0
# The browser the benchmarks open the served pages in: Debian chromium, headless, a phone.
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run", "--disable-sync"]
VIEWPORT = {"width": 360, "height": 800}
RENDERERS = ("auto", "canvaskit", "skwasm")  # FLET_WEB_RENDERER's values
STOP_TIMEOUT_S = 10.0
LOG_TAIL = 3000  # characters of the log a start failure quotes

# A bare Flet app beside which the app is measured: a counter with a button.
BARE_COUNTER = """\
import sys
import flet as ft

def main(page: ft.Page) -> None:
    count = ft.Text("0", size=32)

    def increment() -> None:
        count.value = str(int(count.value) + 1)

    page.add(ft.Semantics(identifier="count", content=count),
             ft.Semantics(identifier="inc", content=ft.Button("Add one", on_click=increment)))

ft.run(main, host="127.0.0.1", port=int(sys.argv[1]), view=ft.AppView.WEB_BROWSER,
       no_cdn=True)
"""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def app_command(port: int, data_dir: Path, *extra: str) -> list[str]:
    """`python -m companion` serving `data_dir` on 127.0.0.1:`port`, plus `extra` options."""
    return [sys.executable, "-m", "companion", "--host", "127.0.0.1", "--port", str(port),
            "--data-dir", str(data_dir), *extra]


def script_command(script: Path, port: int) -> list[str]:
    """A bare Flet app script that takes its port as its only argument (BARE_COUNTER)."""
    return [sys.executable, str(script), str(port)]


def environment(renderer: str | None = None) -> dict[str, str]:
    """This environment for a web server with no CDN, whose command line decides its
    address and port; `renderer` sets FLET_WEB_RENDERER (None: Flet's own choice)."""
    env = dict(os.environ)
    env.update({"FLET_WEB_NO_CDN": "1", "FLET_FORCE_WEB_SERVER": "true"})
    if renderer is not None:
        env["FLET_WEB_RENDERER"] = renderer
    env.pop("FLET_SERVER_PORT", None)
    env.pop("FLET_SERVER_IP", None)
    return env


def log_beside(data_dir: Path) -> Path:
    """Where the log of a server of `data_dir` goes: a file beside the folder."""
    return data_dir.parent / f"{data_dir.name}-server.log"


def wait_for_http(url: str, timeout_s: float, proc: subprocess.Popen[bytes], *,
                  poll_s: float = 0.1) -> None:
    """Return at the first HTTP 200 from `url`; RuntimeError when `proc` exits first,
    TimeoutError after `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server for {url} exited early with code {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(poll_s)
    raise TimeoutError(f"{url} did not answer 200 within {timeout_s}s")


def stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    """Send `sig` to the server's process group, wait, then kill what is left."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, sig)
        proc.wait(timeout=STOP_TIMEOUT_S)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


class Server:
    """One server: `command` serving on 127.0.0.1:`port`, logging to `log`. `start()`
    launches it and waits for its page, `stop()` ends it; `start()` again serves on the
    same port, as a restarted server would."""

    def __init__(self, command: Sequence[str], port: int, log: Path, *,
                 env: dict[str, str] | None = None) -> None:
        self.command, self.port, self.log = list(command), port, log
        self.env = environment() if env is None else env
        self.url = f"http://127.0.0.1:{port}/"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout_s: float = READY_TIMEOUT_S, *, poll_s: float = 0.1) -> None:
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(self.command, cwd=REPO, env=self.env,
                                         stdout=subprocess.DEVNULL, stderr=log,
                                         start_new_session=True)
        try:
            wait_for_http(self.url, timeout_s, self.proc, poll_s=poll_s)
        except RuntimeError as exc:  # it exited: say why
            self.stop()
            tail = self.log.read_text("utf-8", "replace")[-LOG_TAIL:]
            raise RuntimeError(f"{exc}\n{tail}") from None
        except BaseException:
            self.stop()
            raise

    def stop(self, sig: int = signal.SIGTERM) -> None:
        proc, self.proc = self.proc, None
        if proc is not None:
            stop(proc, sig)


@contextlib.contextmanager
def serving(command: Sequence[str], port: int, log: Path, *,
            env: dict[str, str] | None = None, timeout_s: float = READY_TIMEOUT_S,
            poll_s: float = 0.1) -> Iterator[Server]:
    """A started Server until the block ends (then stopped, whatever happened)."""
    server = Server(command, port, log, env=env)
    server.start(timeout_s, poll_s=poll_s)
    try:
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def app_and_bare(data_dir: Path, work: Path, renderer: str | None = None
                 ) -> Iterator[tuple[str, str]]:
    """The app serving `data_dir` and the bare counter (BARE_COUNTER) side by side, with
    one renderer, each on a free port; yields their URLs. The script and both logs go to
    `work`."""
    bare_script = work / "bare_counter.py"
    bare_script.write_text(BARE_COUNTER, "utf-8")
    app_port, bare_port = free_port(), free_port()
    env = environment(renderer)
    with (serving(app_command(app_port, data_dir), app_port, work / "app.log",
                  env=env) as app,
          serving(script_command(bare_script, bare_port), bare_port, work / "bare.log",
                  env=env) as bare):
        yield app.url, bare.url
