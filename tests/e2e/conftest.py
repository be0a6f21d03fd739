"""Real-browser fixtures: the app as a subprocess, Debian chromium through Playwright.

Never runs `playwright install`: it drives the system chromium at /usr/bin/chromium and
skips (with the reason) only when that binary is absent.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from companion.bench.serve import Server, app_command, environment, log_beside

# The e2e tests start their own servers with these too.
from companion.bench.serve import free_port as free_port
from companion.bench.serve import wait_for_http as wait_for_http

CHROMIUM = Path("/usr/bin/chromium")
REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "test-artifacts" / "screenshots"
PHONE = {"width": 360, "height": 800}
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run", "--disable-sync"]


def seed_store(data_dir: Path) -> None:
    """Two open games, one finished, and one corrupt file for the problems banner."""
    from companion.store.tinydb_store import TinyDBStore

    store = TinyDBStore(data_dir)
    store.create("friday", "village", "Friday at Kim's", {})
    store.create("solo1", "village-solo", "Karla rematch", {})
    store.create("done1", "feudum", "Feudum league", {})
    store.update_info("done1", finished=True, summary={
        "players": [{"name": "Ann", "total": 41, "rank": 1},
                    {"name": "Bo", "total": 35, "rank": 2}],
        "winners": ["Ann"]})
    (data_dir / "sessions" / "broken.json").write_text("{not json", "utf-8")


@pytest.fixture(scope="session")
def chromium() -> Path:
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium not installed at /usr/bin/chromium "
                    "(apt-get install -y chromium); e2e tests need it")
    return CHROMIUM


class AppProcess(Server):
    """`python -m companion` serving `data_dir` on 127.0.0.1: `start()` launches it and
    waits until the page answers, `stop()` ends it (SIGTERM, then kill; or any signal, e.g.
    SIGKILL for a server that dies), and `start()` again serves on the same port, as a
    restarted server would (the connection-banner test). Its log goes to a file beside its
    data, never to a pipe nobody reads (a full pipe would stop the server mid-test at its
    next log line)."""

    def __init__(self, data_dir: Path, *extra: str, port: int | None = None) -> None:
        self.data_dir, self.extra = data_dir, extra
        port = port or free_port()
        super().__init__(app_command(port, data_dir, *extra), port, log_beside(data_dir),
                         env=environment("canvaskit"))
        self.base = f"http://127.0.0.1:{self.port}"

    def start(self, timeout_s: float = 30, *, poll_s: float = 0.1) -> None:
        super().start(timeout_s, poll_s=poll_s)


@contextmanager
def served_app(data_dir: Path, *extra: str) -> Iterator[str]:
    """The app (`python -m companion`) serving `data_dir` on 127.0.0.1 and a free port,
    until the block ends (SIGTERM, then kill): yields "http://127.0.0.1:PORT"."""
    with restartable_app(data_dir, *extra) as app:
        yield app.base


@contextmanager
def restartable_app(data_dir: Path, *extra: str) -> Iterator[AppProcess]:
    """served_app, yielding the AppProcess so a test can stop and start it on its port;
    whatever runs when the block ends is stopped."""
    app = AppProcess(data_dir, *extra)
    app.start()
    try:
        yield app
    finally:
        app.stop()


@pytest.fixture(scope="module")
def app_url(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data_dir = tmp_path_factory.mktemp("e2e-data")
    seed_store(data_dir)
    with served_app(data_dir) as base:
        yield base + "/"


@pytest.fixture(scope="module")
def browser(chromium: Path) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=str(chromium), args=CHROMIUM_FLAGS)
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


# ---- failure artifacts ----------------------------------------------------------------------
FAILURES = REPO / "test-artifacts" / "failures"
# Every identified semantics node with its text, every button's name, and open dialogs: what
# the page showed when a step timed out (a canvas screenshot alone cannot be searched).
_DUMP_JS = """() => {
  const text = (e) => ((e.getAttribute('aria-label') || '') + ' | ' +
                       (e.textContent || '')).replace(/\\s+/g, ' ').trim();
  const ids = Array.from(document.querySelectorAll('[flt-semantics-identifier]'))
    .map(e => 'id ' + e.getAttribute('flt-semantics-identifier') + ': ' + text(e));
  const buttons = Array.from(document.querySelectorAll('flt-semantics[role="button"]'))
    .map(e => 'button: ' + text(e));
  const dialogs = document.querySelectorAll('flt-semantics[role="alertdialog"]').length;
  return [location.href, 'dialogs: ' + dialogs, ...ids, ...buttons].join('\\n');
}"""


_REPORTS = pytest.StashKey[dict[str, pytest.TestReport]]()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[
        None, pytest.TestReport, pytest.TestReport]:
    report = yield
    item.stash.setdefault(_REPORTS, {})[report.when] = report
    return report


@pytest.fixture(autouse=True)
def close_pages(request: pytest.FixtureRequest, browser: Any) -> Iterator[None]:
    """Closes every browser context a test opened; when the test failed, first saves a
    screenshot and a semantics dump of each open page under test-artifacts/failures/ and
    prints the dump (pytest shows it with the failure)."""
    yield
    report = request.node.stash.get(_REPORTS, {}).get("call")
    failed = report is not None and report.failed
    for c, context in enumerate(list(browser.contexts)):
        for p, page in enumerate(context.pages):
            if failed and not page.is_closed():
                save_failure(page, f"{request.node.name}-{c}-{p}")
        context.close()


def save_failure(page: Any, name: str) -> None:
    FAILURES.mkdir(parents=True, exist_ok=True)
    try:
        page.screenshot(path=str(FAILURES / f"{name}.png"))
        dump = page.evaluate(_DUMP_JS)
    except Exception as exc:  # the page may be gone: the dump is a help, never a failure
        dump = f"no dump: {exc}"
    (FAILURES / f"{name}.txt").write_text(dump, "utf-8")
    print(f"---- page at failure ({name}) ----\n{dump}")
