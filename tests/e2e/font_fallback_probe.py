"""Probe (not a test): DOM mutations, animation frames and font requests over two seconds
on a page of the served app, in one language.

    .venv/bin/python -m tests.e2e.font_fallback_probe ko-KR [/history/stats] [--table]

Found with it (issue 23): in Korean and Chinese, Flutter's web engine kept fetching
Noto Sans KR / TC slices (assets/fonts/notosanskr/v36/….110–119.woff2, and one Noto Sans
file) for code points it finds in no font it knows; the server answered 404 and the
engine asked again: 40–130 font requests in 2 s on every page (Home too), each round
laying text out again (heading aria-labels re-set 45–90 a second; 9–24 frames in 2 s
against 120 in English). Fixed by companion/web/font_fallback.py (those requests are
redirected to the shipped fonts): 0 font requests, 0 mutations, 120 frames in 2 s in
Korean and Chinese; tests/e2e/test_font_fallback_browser.py keeps it so.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path

from playwright.sync_api import sync_playwright

from .conftest import CHROMIUM_FLAGS, served_app
from .test_browser import LOAD_TIMEOUT_MS, STEP_TIMEOUT_MS, open_app
from .test_history_browser import seed_history

COLLECT_JS = """() => new Promise(resolve => {
  const out = {mutations: [], batches: [], frames: 0};
  const t0 = performance.now();
  const obs = new MutationObserver(recs => {
    out.batches.push([recs.length, Math.round(performance.now() - t0)]);
    for (const r of recs) {
      const t = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      const host = t && t.closest('[flt-semantics-identifier]');
      out.mutations.push([r.type, r.attributeName,
                          host ? host.getAttribute('flt-semantics-identifier') : null]);
    }
  });
  obs.observe(document, {subtree: true, childList: true, attributes: true,
                         characterData: true});
  let done = false;
  const tick = () => { out.frames++; if (!done) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  setTimeout(() => { done = true; obs.disconnect(); resolve(out); }, 2000);
})"""


def main() -> None:
    locale = sys.argv[1] if len(sys.argv) > 1 else "ko-KR"
    path = next((a for a in sys.argv[2:] if a.startswith("/")), "/history/stats")
    data = Path(tempfile.mkdtemp())
    seed_history(data)
    with served_app(data) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium",
                                     args=CHROMIUM_FLAGS)
        page = open_app(browser, base + path, locale)
        if "--table" in sys.argv:
            page.locator('[flt-semantics-identifier="stats-mode-table"]').locator(
                "flt-semantics, [role=button]").first.click(timeout=LOAD_TIMEOUT_MS)
            page.locator('[flt-semantics-identifier="table-players-numbers"]').wait_for(
                timeout=STEP_TIMEOUT_MS)
        page.wait_for_timeout(2000)
        fonts: list[str] = []
        page.on("request", lambda r: fonts.append(r.url) if "/fonts/" in r.url else None)
        out = page.evaluate(COLLECT_JS)
        print(f"{locale} {path}: {len(out['mutations'])} mutations, {out['frames']} frames, "
              f"{len(fonts)} font requests in 2 s; batches (size, ms): {out['batches']}")
        for key, n in Counter(tuple(m) for m in out["mutations"]).most_common(12):
            print(n, key)
        for url in sorted(set(fonts))[:12]:
            print(url)
        browser.close()


if __name__ == "__main__":
    main()
