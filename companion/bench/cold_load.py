"""Cold page loads in a real browser: the app's Home against a bare Flet app (issue 23).

`village-companion bench --cold-load [--loads N] [--renderer R] [--json]`. Both apps run as
web servers on free loopback ports (no CDN, the same flet and renderer): the app on a data
folder with a few games, the bare app a minimal `ft.run` counter. Headless Debian Chromium
(/usr/bin/chromium) at 360x800 opens each N times, alternating (app first in odd rounds,
bare first in even ones, so machine noise hits both alike), every load in a fresh browser
context: an empty cache, a cold browser. One warm-up load of each comes first and is
dropped (it warms the servers, not the browser).

Per load, from the navigation's start (performance.now() in the page):
- usable: Home's first button (a new-game button, `new-*`) is in Flutter's semantics tree
  and tappable; for the bare app its counter button (its first frame with content);
- first frame: Flutter's `flutter-first-frame` event;
- bytes: every HTTP response's encoded length (headers and body, from the Chrome DevTools
  Protocol's Network.loadingFinished) and the WebSocket frames' payloads, grouped by kind
  (`kind_of`), counted until the page has been quiet for QUIET_MS after it was usable.

Printed, never asserted; every process started is stopped.
"""

from __future__ import annotations

import base64
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from companion.bench.report import run_and_print
from companion.bench.serve import CHROMIUM, CHROMIUM_FLAGS, RENDERERS, VIEWPORT, app_and_bare

LOAD_TIMEOUT_MS = 90_000  # a cold CanvasKit start on a busy 2-core box
QUIET_MS = 1500  # no request for this long after the page was usable: the load is over
DEFAULT_LOADS = 5
APP_USABLE = '[flt-semantics-identifier^="new-"]'  # Home's new-game buttons
BARE_USABLE = '[flt-semantics-identifier="inc"]'

# The kinds bytes are grouped by, in print order.
KINDS = ("page", "engine", "flutter app", "fonts", "app assets", "websocket", "other")

# Injected before any page script: turns on Flutter's semantics DOM as soon as its
# placeholder exists and stamps the first frame and the moment the usable selector shows
# a tappable node.
PROBE_JS = """
(() => {
  const p = {firstFrame: null, usable: null, sel: %SELECTOR%};
  window.__coldLoad = p;
  window.addEventListener('flutter-first-frame', () => {
    if (p.firstFrame === null) p.firstFrame = performance.now();
  });
  const check = () => {
    const ph = document.querySelector('flt-semantics-placeholder');
    if (ph && !ph.__vcClicked) { ph.__vcClicked = true; ph.click(); }
    if (p.usable !== null) return;
    const node = document.querySelector(p.sel);
    if (!node) return;
    const tap = node.matches('[flt-tappable]') ? node : node.querySelector('[flt-tappable]');
    if (!tap) return;
    const box = tap.getBoundingClientRect();
    if (box.width > 0 && box.height > 0) p.usable = performance.now();
  };
  new MutationObserver(check).observe(document, {subtree: true, childList: true,
                                                 attributes: true});
})();
"""
_USABLE_JS = "() => window.__coldLoad && window.__coldLoad.usable !== null"
_TIMES_JS = "() => [window.__coldLoad.usable, window.__coldLoad.firstFrame]"


# ---- figures (pure) -------------------------------------------------------------------------
def kind_of(url: str, resource_type: str = "") -> str:
    """The kind a response's bytes count under: `page` (the HTML), `engine` (CanvasKit or
    skwasm: their .wasm and .js), `flutter app` (Flet's compiled client: main.dart.*,
    flutter*.js, the asset and font manifests, NOTICES, shaders), `fonts` (any font file),
    `app assets` (manifest.json, favicon, icons, other files), `websocket` (the Flet
    protocol), `other`."""
    parts = urlsplit(url)
    if parts.scheme in ("ws", "wss") or resource_type.lower() == "websocket":
        return "websocket"
    if parts.scheme not in ("http", "https"):
        return "other"
    path = parts.path.lower()
    name = path.rsplit("/", 1)[-1]
    if "/canvaskit/" in path or name.startswith(("canvaskit.", "skwasm", "wimp.")):
        return "engine"
    if name.endswith((".woff2", ".woff", ".ttf", ".otf")):
        return "fonts"
    if (name.startswith(("main.dart.", "flutter")) or name in (
            "fontmanifest.json", "assetmanifest.bin", "assetmanifest.bin.json",
            "assetmanifest.json", "notices", "version.json") or "/shaders/" in path):
        return "flutter app"
    if path.endswith("/") or name.endswith(".html") or resource_type.lower() == "document":
        return "page"
    if "." in name:
        return "app assets"
    return "page" if resource_type.lower() in ("", "document") else "other"


def group_bytes(transfers: Iterable[tuple[str, str, int]]) -> dict[str, int]:
    """Bytes per kind (every kind of KINDS, 0 when none) from (url, resource type, bytes)."""
    out = dict.fromkeys(KINDS, 0)
    for url, resource_type, size in transfers:
        kind = kind_of(url, resource_type)
        out[kind] = out.get(kind, 0) + size
    return out


def spread(samples: list[float]) -> dict[str, float | None]:
    """p50, min and max in ms, rounded to whole ms (None when there is no sample)."""
    if not samples:
        return {"p50": None, "min": None, "max": None}
    return {"p50": round(statistics.median(samples)), "min": round(min(samples)),
            "max": round(max(samples))}


# ---- one load ---------------------------------------------------------------------------------
@dataclass
class Load:
    """What one cold page load took and transferred."""

    usable_ms: float
    first_frame_ms: float | None
    transfers: list[tuple[str, str, int]] = field(default_factory=list)

    def by_kind(self) -> dict[str, int]:
        return group_bytes(self.transfers)


class _Recorder:
    """Network bytes of one page from the DevTools protocol: responses and WS frames."""

    def __init__(self, cdp: Any) -> None:
        self.requests: dict[str, tuple[str, str]] = {}
        self.transfers: list[tuple[str, str, int]] = []
        self.last = time.monotonic()
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.webSocketCreated", self._ws_created)
        cdp.on("Network.webSocketFrameReceived", self._frame)
        cdp.on("Network.webSocketFrameSent", self._frame)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})

    def _sent(self, event: dict[str, Any]) -> None:
        self.last = time.monotonic()
        self.requests[event["requestId"]] = (event["request"]["url"], event.get("type", ""))

    def _finished(self, event: dict[str, Any]) -> None:
        self.last = time.monotonic()
        url, rtype = self.requests.get(event["requestId"], ("", ""))
        self.transfers.append((url, rtype, int(event.get("encodedDataLength", 0))))

    def _ws_created(self, event: dict[str, Any]) -> None:
        self.requests[event["requestId"]] = (event["url"], "websocket")

    def _frame(self, event: dict[str, Any]) -> None:
        url, _ = self.requests.get(event["requestId"], ("ws://?", "websocket"))
        frame = event["response"]
        data = frame.get("payloadData", "")
        size = len(base64.b64decode(data)) if frame.get("opcode") == 2 else len(
            data.encode("utf-8"))
        self.transfers.append((url, "websocket", size))


def cold_load(browser: Any, url: str, selector: str) -> Load:
    """Open `url` in a fresh context (empty cache) and measure it (see the module doc)."""
    context = browser.new_context(viewport=VIEWPORT, locale="en-US", device_scale_factor=1)
    try:
        context.add_init_script(PROBE_JS.replace("%SELECTOR%", json.dumps(selector)))
        page = context.new_page()
        recorder = _Recorder(context.new_cdp_session(page))
        page.goto(url)
        page.wait_for_function(_USABLE_JS, timeout=LOAD_TIMEOUT_MS, polling=50)
        usable, first_frame = page.evaluate(_TIMES_JS)
        deadline = time.monotonic() + 20  # then what came so far is the load
        while (time.monotonic() - recorder.last < QUIET_MS / 1000
               and time.monotonic() < deadline):
            page.wait_for_timeout(100)
        return Load(float(usable), None if first_frame is None else float(first_frame),
                    list(recorder.transfers))
    finally:
        context.close()


def seed_games(data_dir: Path) -> None:
    """A few games: two open Village tables and three finished assistant games."""
    from companion.store.tinydb_store import TinyDBStore
    from companion.village.service import VillageService
    from companion.village.setup import PlayerSetup, VillageSetup

    service = VillageService(TinyDBStore(data_dir))
    for seed in (1, 2):
        service.create(VillageSetup(players=[PlayerSetup(name="Ann", colour="red"),
                                             PlayerSetup(name="Bo", colour="blue")],
                                    start_player=0, seed=seed))
    store = TinyDBStore(data_dir)
    for n in range(3):
        sid = f"done{n}"
        store.create(sid, "feudum", f"Feudum league {n + 1}", {})
        store.update_info(sid, finished=True, summary={
            "players": [{"name": "Ann", "total": 41 + n, "rank": 1},
                        {"name": "Bo", "total": 35, "rank": 2}], "winners": ["Ann"]})


# ---- the run ----------------------------------------------------------------------------------
def _renderer_loaded(loads: list[Load]) -> str:
    names = [url for load in loads for url, _t, _n in load.transfers]
    return "skwasm" if any("skwasm" in u and u.endswith(".wasm") for u in names) else (
        "canvaskit")


def figures(app: list[Load], bare: list[Load], renderer: str) -> dict[str, Any]:
    """What `bench --cold-load --json` prints."""
    def side(loads: list[Load]) -> dict[str, Any]:
        kinds = [load.by_kind() for load in loads]
        bytes_p50 = {k: round(statistics.median(d[k] for d in kinds)) for k in KINDS}
        frames = [ld.first_frame_ms for ld in loads if ld.first_frame_ms is not None]
        return {"usable_ms": spread([ld.usable_ms for ld in loads]),
                "first_frame_ms": spread(frames), "bytes": bytes_p50,
                "total_bytes": sum(bytes_p50.values()),
                "loaded": _renderer_loaded(loads)}

    a, b = side(app), side(bare)
    ratio = (round(a["usable_ms"]["p50"] / b["usable_ms"]["p50"], 2)
             if a["usable_ms"]["p50"] and b["usable_ms"]["p50"] else None)
    frame_ratio = (round(a["usable_ms"]["p50"] / b["first_frame_ms"]["p50"], 2)
                   if a["usable_ms"]["p50"] and b["first_frame_ms"]["p50"] else None)
    files: dict[str, int] = {}
    if app:
        for url, _rtype, size in app[-1].transfers:
            path = urlsplit(url).path or url
            files[path] = files.get(path, 0) + size
    return {"loads": len(app), "renderer": renderer, "app": a, "bare": b,
            "usable_ratio": ratio, "usable_vs_bare_first_frame": frame_ratio,
            "app_files": dict(sorted(files.items(),
                                                            key=lambda kv: -kv[1])),
            "load_average": [round(x, 2) for x in os.getloadavg()]}


def _kb(n: int) -> str:
    return f"{n / 1024:,.0f} KiB"


def report_lines(figs: dict[str, Any]) -> list[str]:
    a, b = figs["app"], figs["bare"]
    lines = [f"cold page loads: {figs['loads']} each, alternating; renderer "
             f"{figs['renderer']} (loaded: app {a['loaded']}, bare {b['loaded']}); "
             f"load average {figs['load_average']}",
             "ms from navigation          p50     min     max"]
    for label, fig in (("app: Home usable", a["usable_ms"]),
                       ("bare: counter usable", b["usable_ms"]),
                       ("app: first frame", a["first_frame_ms"]),
                       ("bare: first frame", b["first_frame_ms"])):
        lines.append(f"  {label:<24}" + "".join(f"{'-' if fig[k] is None else fig[k]:>8}"
                                                for k in ("p50", "min", "max")))
    lines.append(f"  Home usable / bare usable (p50): x{figs['usable_ratio']}; "
                 f"/ bare first frame (p50, the target's ratio): "
                 f"x{figs['usable_vs_bare_first_frame']}")
    lines.append("bytes per load (p50)         app          bare")
    for kind in KINDS:
        lines.append(f"  {kind:<20}{_kb(a['bytes'][kind]):>14}{_kb(b['bytes'][kind]):>14}")
    lines.append(f"  {'total':<20}{_kb(a['total_bytes']):>14}{_kb(b['total_bytes']):>14}")
    lines.append("app files (last load), largest first:")
    for path, size in list(figs["app_files"].items())[:25]:
        lines.append(f"  {_kb(size):>12}  {path}")
    return lines


def measure(loads: int = DEFAULT_LOADS, renderer: str = "auto", *,
            chromium: Path = CHROMIUM,
            progress: Callable[[str], None] = lambda _line: None) -> dict[str, Any]:
    if loads < 1:
        raise ValueError("--loads must be at least 1")
    if renderer not in RENDERERS:
        raise ValueError(f"--renderer must be one of {', '.join(RENDERERS)}")
    if not chromium.exists():
        raise FileNotFoundError(f"{chromium} not found (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="vc-cold-") as tmp:
        data_dir = Path(tmp) / "data"
        seed_games(data_dir)
        with (app_and_bare(data_dir, Path(tmp), renderer) as (app_url, bare_url),
              sync_playwright() as pw):
            browser = pw.chromium.launch(executable_path=str(chromium), args=CHROMIUM_FLAGS)
            try:
                cold_load(browser, app_url, APP_USABLE)  # warm-up: the servers, dropped
                cold_load(browser, bare_url, BARE_USABLE)
                app: list[Load] = []
                bare: list[Load] = []
                for n in range(loads):
                    order = [(app, app_url, APP_USABLE), (bare, bare_url, BARE_USABLE)]
                    for into, url, selector in (order if n % 2 == 0 else order[::-1]):
                        into.append(cold_load(browser, url, selector))
                    progress(f"load {n + 1}/{loads}: app {app[-1].usable_ms:.0f} ms, "
                             f"bare {bare[-1].usable_ms:.0f} ms")
            finally:
                browser.close()
    return figures(app, bare, renderer)


def run_cli(loads: int, as_json: bool, renderer: str = "auto") -> int:
    """`village-companion bench --cold-load`: measure, then print (or JSON)."""
    return run_and_print("cold-load", lambda: measure(
        loads, renderer, progress=lambda line: print(line, file=sys.stderr)),
        report_lines, as_json)
