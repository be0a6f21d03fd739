"""Tap latency in a real browser: the app's Village table against a bare Flet counter.

`village-companion bench --taps [--rounds N] [--input touch|mouse] [--json]`. Both apps
run as web servers on free loopback ports (no CDN) and are driven in headless Debian
Chromium at 360×800. A tap lands at the centre of the target's semantics node; its latency
is the time from the `pointerdown` (an injected capture listener reads
`performance.now()`) to the first animation frame after Flutter's semantics DOM shows the
change (a MutationObserver sees it; a requestAnimationFrame then stamps the next frame).

The input is a phone's by default (`touch`: Chromium's touch emulation sends touchstart and
touchend, as a finger does; nothing hovers). `mouse` is a desktop click: the pointer first
moves onto the target, so the button it leaves and the one it enters run their hover
animations during the tap, and a clicked button shows its focus highlight (Flutter's
traditional highlight mode). The bare counter is tapped with the same input as the app.

The renderer is the one the app serves (`--renderer auto`, Flet's default: Chromium, with
WebAssembly GC, runs skwasm and main.dart.wasm; a browser without it falls back to
CanvasKit) or one forced for both apps (`canvaskit`, `skwasm`); the one that loaded is
printed (read from the page's resource list).

Each round on a two-player Village table (seeded through the service, as a real game): a
cube tap, End turn, then two undos (End turn, then the take) back to where it began; one
warm-up round first is dropped. Then the page opens Ann's board (her card on the table, as
a player would) and each round taps a counter there: grain one more, then one less.
After every app tap the bare counter is tapped once, so machine noise hits both alike;
each app kind is shown beside the bare taps that followed it. Before and after each tap
its page is left to settle (no semantics change for SETTLE_MS): a screen can re-render
twice for one change, and the app's second render must not land in a bare tap. Nothing
here is asserted; figures are printed. Every process started is stopped.
"""

from __future__ import annotations

import math
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.bench.report import run_and_print
from companion.bench.serve import CHROMIUM, CHROMIUM_FLAGS, RENDERERS, VIEWPORT, app_and_bare

LOAD_TIMEOUT_MS = 90_000  # CanvasKit start-up on a busy 2-core box
TAP_TIMEOUT_MS = 15_000  # a tap whose change has not shown by then counts as lost
SETTLE_MS = 300
APP_BAR = 56  # px: page content under it is not tappable
SETTLE_TIMEOUT_MS = 15_000
ATTEMPTS = 3  # a lost tap is tapped again (a person would)
WARMUP_ROUNDS = 1  # measured like the others, then dropped

DEFAULT_ROUNDS = 30
DEFAULT_RENDERER = "auto"  # what the app serves: it never sets FLET_WEB_RENDERER
APP_KINDS = ("cube tap", "end turn", "undo", "counter")
INPUTS = ("touch", "mouse")
DEFAULT_INPUT = "touch"  # a phone's tap
BARE = "bare counter"

# Injected before any page script: the pointerdown stamp, the change detector and the
# "last semantics change" clock used to let a page settle.
PROBE_JS = """
(() => {
  const nodeText = (id) => {
    const e = document.querySelector(`[flt-semantics-identifier="${id}"]`);
    return e ? ((e.getAttribute('aria-label') || '') + '\\n' + (e.textContent || '')).trim()
             : null;
  };
  const probe = {armed: false, down: null, change: null, frame: null, test: () => false,
                 nodeText};
  window.__tapProbe = probe;
  window.__semanticsChanged = 0;
  window.addEventListener('pointerdown', () => {
    if (probe.armed && probe.down === null) probe.down = performance.now();
  }, true);
  new MutationObserver(() => {
    window.__semanticsChanged = performance.now();
    if (probe.armed && probe.down !== null && probe.change === null && probe.test()) {
      probe.change = performance.now();
      probe.armed = false;
      requestAnimationFrame(() => { probe.frame = performance.now(); });
    }
  }).observe(document, {subtree: true, childList: true, attributes: true,
                        characterData: true});
})();
"""
_ARM_JS = """([id, before]) => {
  const p = window.__tapProbe;
  p.down = null; p.change = null; p.frame = null;
  p.test = () => p.nodeText(id) !== before;
  p.armed = true;
}"""
_DISARM_JS = "() => { window.__tapProbe.armed = false; }"
_TEXT_JS = "(id) => window.__tapProbe.nodeText(id)"
_RESULT_JS = "() => { const p = window.__tapProbe; return [p.down, p.change, p.frame]; }"
_FRAME_JS = "() => window.__tapProbe.frame !== null"
_QUIET_JS = "(ms) => performance.now() - (window.__semanticsChanged || 0) > ms"
_IDS_JS = """() => Array.from(document.querySelectorAll('[flt-semantics-identifier]'))
  .map(e => e.getAttribute('flt-semantics-identifier'))"""


# ---- figures (pure) -------------------------------------------------------------------------
def percentile(samples: Sequence[float], q: float) -> float:
    """The q-quantile (0 ≤ q ≤ 1) with linear interpolation between closest ranks (as
    numpy's default and statistics.quantiles' "inclusive" method)."""
    if not samples:
        raise ValueError("no samples")
    if not 0.0 <= q <= 1.0:
        raise ValueError("q must be within [0, 1]")
    ordered = sorted(samples)
    pos = q * (len(ordered) - 1)
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def summarise(samples: Sequence[float]) -> dict[str, Any]:
    """n, p50, p95 in ms (rounded to 0.1); p50/p95 are None when there are no samples."""
    if not samples:
        return {"n": 0, "p50": None, "p95": None}
    return {"n": len(samples), "p50": round(percentile(samples, 0.5), 1),
            "p95": round(percentile(samples, 0.95), 1)}


def figures(app: dict[str, list[float]], bare: dict[str, list[float]],
            lost: dict[str, int], rounds: int, renderer: str = DEFAULT_RENDERER,
            loaded: str | None = None, tap_input: str = DEFAULT_INPUT) -> dict[str, Any]:
    """What `bench --taps --json` prints: per app kind its figures and those of the bare
    taps made right after it; `bare counter` pools every bare tap; the renderer asked
    for and the one the page loaded."""
    kinds: dict[str, Any] = {}
    for kind in APP_KINDS:
        fig = summarise(app.get(kind, []))
        paired = summarise(bare.get(kind, []))
        ratio = (round(fig["p50"] / paired["p50"], 2)
                 if fig["p50"] is not None and paired["p50"] else None)
        kinds[kind] = {"app": fig, "bare": paired, "p50_ratio": ratio,
                       "lost": lost.get(kind, 0)}
    pooled = [ms for kind in APP_KINDS for ms in bare.get(kind, [])]
    return {"rounds": rounds, "renderer": renderer, "loaded": loaded, "input": tap_input,
            "kinds": kinds,
            "bare counter": {**summarise(pooled), "lost": lost.get(BARE, 0)}}


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def table_lines(figs: dict[str, Any]) -> list[str]:
    """The printed table: each app kind beside the bare counter taps alternated with it."""
    headers = ["tap to frame (ms)", "app p50", "app p95", "bare p50", "bare p95", "x bare",
               "n", "lost"]
    rows: list[list[str]] = []
    for kind, fig in figs["kinds"].items():
        ratio = fig["p50_ratio"]
        rows.append([kind, _ms(fig["app"]["p50"]), _ms(fig["app"]["p95"]),
                     _ms(fig["bare"]["p50"]), _ms(fig["bare"]["p95"]),
                     "-" if ratio is None else f"{ratio:.2f}",
                     str(fig["app"]["n"]), str(fig["lost"])])
    bare = figs[BARE]
    rows.append([f"{BARE} (all)", "", "", _ms(bare["p50"]), _ms(bare["p95"]), "",
                 str(bare["n"]), str(bare["lost"])])
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) if i == 0 else h.rjust(w)
                       for i, (h, w) in enumerate(zip(headers, widths, strict=True))),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                        for i, (c, w) in enumerate(zip(r, widths, strict=True)))
              for r in rows]
    renderer = figs.get("renderer", DEFAULT_RENDERER)
    loaded = figs.get("loaded") or "?"
    lines.append(f"({figs['rounds']} rounds; headless Chromium {VIEWPORT['width']}x"
                 f"{VIEWPORT['height']}; renderer {renderer} (loaded: {loaded});")
    tap_input = figs.get("input", DEFAULT_INPUT)
    how = "a touch, as a phone" if tap_input == "touch" else "a mouse click, as a desktop"
    lines.append(f" input {tap_input} ({how}); pointerdown to the first frame after the change;")
    lines.append(f" x bare = app p50 / bare p50; lost = taps with no change within "
                 f"{TAP_TIMEOUT_MS // 1000} s, tapped again)")
    return lines


def seed_game(data_dir: Path) -> str:
    """A two-player Village game at its first take, stored as the wizard would; its id."""
    from companion.store.tinydb_store import TinyDBStore
    from companion.village.service import VillageService
    from companion.village.setup import PlayerSetup, VillageSetup

    setup = VillageSetup(players=[PlayerSetup(name="Ann", colour="red"),
                                  PlayerSetup(name="Bo", colour="blue")],
                         start_player=0, seed=7)
    session_id, _ = VillageService(TinyDBStore(data_dir)).create(setup)
    return session_id


# ---- the browser side ------------------------------------------------------------------------
class Lost(Exception):
    """A tap whose change never showed."""


@dataclass
class Tapper:
    """One page, its probe, and tapping an element at its centre."""

    page: Any
    touch: bool = False  # a finger (touchscreen.tap) or a mouse click

    def settle(self) -> None:
        self.page.wait_for_function(_QUIET_JS, arg=SETTLE_MS, timeout=SETTLE_TIMEOUT_MS)

    def text(self, identifier: str) -> str:
        return str(self.page.evaluate(_TEXT_JS, identifier) or "")

    def ids(self) -> list[str]:
        return list(self.page.evaluate(_IDS_JS))

    def centre(self, locator: Any, top: float) -> tuple[float, float]:
        """The centre of `locator`'s first node, scrolled on screen (below `top`, the app
        bar's height for the page body) first if needed."""
        node = locator.first
        for _ in range(3):
            box = node.bounding_box()
            if box and box["y"] >= top and box["y"] + box["height"] <= VIEWPORT["height"]:
                return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            node.evaluate("e => e.scrollIntoView({block: 'center'})")
            self.page.wait_for_timeout(200)
            self.settle()
        raise RuntimeError(f"cannot bring {locator} on screen")

    def press(self, x: float, y: float) -> None:
        """A finger's tap or a mouse click at (x, y), as this page is driven."""
        if self.touch:
            self.page.touchscreen.tap(x, y)
        else:
            self.page.mouse.click(x, y)

    def tap(self, locator: Any, watch: str, top: float = APP_BAR) -> float:
        """Click `locator`; ms from pointerdown to the frame after `watch`'s text changed.
        Raises Lost (after disarming) when it does not change within TAP_TIMEOUT_MS."""
        self.settle()
        x, y = self.centre(locator, top)
        self.page.evaluate(_ARM_JS, [watch, self.text(watch)])
        self.press(x, y)
        try:
            self.page.wait_for_function(_FRAME_JS, timeout=TAP_TIMEOUT_MS)
        except Exception as exc:  # playwright's TimeoutError
            self.page.evaluate(_DISARM_JS)
            raise Lost(str(exc)) from exc
        down, _change, frame = self.page.evaluate(_RESULT_JS)
        return float(frame - down)


@dataclass
class Run:
    """Samples gathered so far."""

    app: dict[str, list[float]] = field(default_factory=dict)
    bare: dict[str, list[float]] = field(default_factory=dict)
    lost: dict[str, int] = field(default_factory=dict)

    def tap(self, kind: str, do: Callable[[], float], done: Callable[[], bool]) -> float:
        """`do()` until it measures a tap, retrying lost ones; a lost tap whose change
        turns up late (`done()`) is not tapped again (nor counted)."""
        for _ in range(ATTEMPTS):
            try:
                return do()
            except Lost:
                self.lost[kind] = self.lost.get(kind, 0) + 1
                if done():
                    return math.nan
        raise RuntimeError(f"{kind}: {ATTEMPTS} taps and no change")


class TableDriver:
    """The Village table: which cube to take, End turn, undo, and where the round is."""

    def __init__(self, tapper: Tapper) -> None:
        self.t = tapper

    def turn(self) -> str:
        return self.t.text("table-turn")

    def wait_turn(self, test: Callable[[str], bool], what: str) -> None:
        deadline = time.monotonic() + TAP_TIMEOUT_MS / 1000
        while not test(self.turn()):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the table never showed {what}: {self.turn()!r}")
            self.t.page.wait_for_timeout(50)

    def cube(self) -> Any:
        """A tappable cube off the market space (the market cube starts a market day) that
        is no plague cube; scrolls down to the action spaces when none is in the tree.
        (Cubes that may not be taken now are dimmed but still answer a tap with the
        reason; this is only called at a take, where every such cube may be taken.)"""
        page = self.t.page
        for _ in range(12):
            for ident in self.t.ids():
                parts = ident.split("-")
                if (len(parts) == 4 and parts[0] == "cube" and parts[1] != "market"
                        and parts[2] != "plague"):
                    node = page.locator(f'[flt-semantics-identifier="{ident}"]').locator(
                        "xpath=descendant-or-self::*[@flt-tappable]")
                    if node.count() and node.first.get_attribute("aria-disabled") != "true":
                        return node
            page.mouse.move(180, 400)
            page.mouse.wheel(0, 300)
            page.wait_for_timeout(300)
        raise RuntimeError("no cube to take on the table")

    def end_turn_button(self) -> Any:
        return self.t.page.locator('[flt-semantics-identifier="turn-buttons"]').get_by_role(
            "button", name="End turn", exact=True)

    def undo_button(self) -> Any:
        return self.t.page.locator('[flt-semantics-identifier="undo"]')


_LOADED_JS = """() => performance.getEntriesByType('resource').map(e => e.name)
  .some(n => /skwasm[^/]*\\.wasm/.test(n)) ? 'skwasm' : 'canvaskit'"""


def loaded_renderer(tapper: Tapper) -> str:
    """Which renderer the page loaded: skwasm fetches skwasm.wasm, CanvasKit does not."""
    return str(tapper.page.evaluate(_LOADED_JS))


def _open(browser: Any, url: str, tap_input: str = DEFAULT_INPUT) -> Tapper:
    touch = tap_input == "touch"
    context = browser.new_context(viewport=VIEWPORT, locale="en-US", device_scale_factor=1,
                                  has_touch=touch)
    context.add_init_script(PROBE_JS)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("flutter-view", timeout=LOAD_TIMEOUT_MS)
    placeholder = page.locator("flt-semantics-placeholder")
    placeholder.wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
    placeholder.evaluate("e => e.click()")  # turn on Flutter's semantics DOM
    return Tapper(page, touch)


class Session:
    """The two pages and the samples: app taps, each followed by a bare counter tap."""

    def __init__(self, app: Tapper, bare: Tapper) -> None:
        self.app, self.bare = app, bare
        self.table = TableDriver(app)
        self.run = Run()

    def app_tap(self, kind: str, target: Callable[[], Any], done: Callable[[str], bool],
                top: float = APP_BAR, watch: str = "table-turn") -> None:
        """Tap the app and time the change of `watch`'s text (`done` tells, from that text,
        that a lost tap landed late), then the bare counter."""
        run = self.run
        self.app.page.bring_to_front()
        ms = run.tap(kind, lambda: self.app.tap(target(), watch, top),
                     lambda: done(self.app.text(watch)))
        if not math.isnan(ms):
            run.app.setdefault(kind, []).append(ms)
        self.app.settle()  # its second render (the saved game told every phone) is over
        self.bare.page.bring_to_front()
        button = self.bare.page.locator('[flt-semantics-identifier="inc"]').locator(
            "xpath=descendant-or-self::*[@flt-tappable]")
        before = self.bare.text("count")
        ms = run.tap(BARE, lambda: self.bare.tap(button, "count", 0),
                     lambda: self.bare.text("count") != before)
        if not math.isnan(ms):
            run.bare.setdefault(kind, []).append(ms)
        self.bare.settle()

    def round(self, start: str) -> None:
        """Take a cube, End turn, undo both: back at `start` (the turn header)."""
        table = self.table
        self.app_tap("cube tap", table.cube, lambda s: "end the turn" in s)
        table.wait_turn(lambda s: "end the turn" in s, "Ann acting after her take")
        after_take = table.turn()
        self.app_tap("end turn", table.end_turn_button, lambda s: s != after_take)
        table.wait_turn(lambda s: bool(s) and "Bo" in s.splitlines()[-1], "Bo's turn")
        self.app_tap("undo", table.undo_button, lambda s: s == after_take, 0)
        table.wait_turn(lambda s: s == after_take, "Ann's turn back after undo")
        self.app_tap("undo", table.undo_button, lambda s: s == start, 0)
        table.wait_turn(lambda s: s == start, "the round's start back after undo")

    def open_board(self) -> None:
        """Ann's board, opened from her card on the table as a player would (not timed)."""
        card = self.app.page.locator('[flt-semantics-identifier="player-0"]').locator(
            "xpath=descendant-or-self::*[@flt-tappable]")
        self.app.settle()
        self.app.press(*self.app.centre(card, APP_BAR))
        self.app.page.locator('[flt-semantics-identifier="counters"]').wait_for(
            timeout=LOAD_TIMEOUT_MS)

    def _grain(self, which: int) -> Any:
        """The grain stepper's button on Ann's board: 0 one less, 1 one more (the first
        stepper of the counters card)."""
        return self.app.page.locator('[flt-semantics-identifier="counters"]').locator(
            'flt-semantics[role="button"]').nth(which)

    def counter_round(self) -> None:
        """Grain one more, then one less: the counters card back where it was."""
        before = self.app.text("counters")
        self.app_tap("counter", lambda: self._grain(1), lambda s: s != before,
                     watch="counters")
        self._wait_text("counters", lambda s: s != before, "grain one more")
        self.app_tap("counter", lambda: self._grain(0), lambda s: s == before,
                     watch="counters")
        self._wait_text("counters", lambda s: s == before, "grain back")

    def _wait_text(self, identifier: str, test: Callable[[str], bool], what: str) -> None:
        deadline = time.monotonic() + TAP_TIMEOUT_MS / 1000
        while not test(self.app.text(identifier)):
            if time.monotonic() > deadline:
                raise RuntimeError(f"{identifier} never showed {what}")
            self.app.page.wait_for_timeout(50)


def _measure(browser: Any, app_url: str, bare_url: str, session_id: str, rounds: int,
             progress: Callable[[str], None], tap_input: str = DEFAULT_INPUT
             ) -> tuple[Run, str]:
    app = _open(browser, f"{app_url}play/village/{session_id}", tap_input)
    app.page.locator('[flt-semantics-identifier="table-turn"]').wait_for(
        timeout=LOAD_TIMEOUT_MS)
    bare = _open(browser, bare_url, tap_input)
    bare.page.locator('[flt-semantics-identifier="inc"]').wait_for(timeout=LOAD_TIMEOUT_MS)
    session = Session(app, bare)
    session.table.wait_turn(lambda s: "take a cube" in s, "Ann's first take")
    start = session.table.turn()
    for _ in range(WARMUP_ROUNDS):  # first take, first render of each state: dropped
        session.round(start)
    session.run = Run()
    loaded = loaded_renderer(app)
    if loaded_renderer(bare) != loaded:  # both apps must be drawn the same way
        raise RuntimeError(f"the app loaded {loaded}, the bare counter did not")
    progress(f"warm-up done (renderer: {loaded}, input: {tap_input})")
    for r in range(rounds):
        session.round(start)
        progress(f"round {r + 1}/{rounds}")
    # Ann's board: one warm-up round of counter taps (its first render), then the rounds.
    session.open_board()
    run = session.run
    session.run = Run()
    for _ in range(WARMUP_ROUNDS):
        session.counter_round()
    session.run = run
    for r in range(rounds):
        session.counter_round()
        progress(f"counter round {r + 1}/{rounds}")
    return session.run, loaded


def measure_taps(rounds: int = DEFAULT_ROUNDS, *, chromium: Path = CHROMIUM,
                 progress: Callable[[str], None] | None = None,
                 renderer: str = DEFAULT_RENDERER,
                 tap_input: str = DEFAULT_INPUT) -> dict[str, Any]:
    """Run both apps and the browser, measure `rounds` rounds, stop everything; the
    figures (see `figures`)."""
    if rounds < 1:
        raise ValueError("rounds must be at least 1")
    if renderer not in RENDERERS:
        raise ValueError(f"renderer must be one of {', '.join(RENDERERS)}")
    if tap_input not in INPUTS:
        raise ValueError(f"input must be one of {', '.join(INPUTS)}")
    if not chromium.exists():
        raise FileNotFoundError(f"{chromium} not found (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    say = progress or (lambda _line: None)
    with tempfile.TemporaryDirectory(prefix="vc-taps-") as tmp:
        data_dir = Path(tmp) / "data"
        session_id = seed_game(data_dir)
        with (app_and_bare(data_dir, Path(tmp), renderer) as (app_url, bare_url),
              sync_playwright() as pw):
            browser = pw.chromium.launch(executable_path=str(chromium), args=CHROMIUM_FLAGS)
            try:
                run, loaded = _measure(browser, app_url, bare_url, session_id, rounds, say,
                                       tap_input)
            finally:
                browser.close()
    return figures(run.app, run.bare, run.lost, rounds, renderer, loaded, tap_input)


def run_cli(rounds: int, as_json: bool, renderer: str = DEFAULT_RENDERER,
            tap_input: str = DEFAULT_INPUT) -> int:
    """`village-companion bench --taps`: measure, then print the table (or JSON)."""
    return run_and_print("taps", lambda: measure_taps(
        rounds, progress=lambda line: print(line, file=sys.stderr), renderer=renderer,
        tap_input=tap_input), table_lines, as_json)


if __name__ == "__main__":
    raise SystemExit(run_cli(int(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_ROUNDS,
                             "--json" in sys.argv))
