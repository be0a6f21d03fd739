"""The cold-load benchmark's pure parts: which kind a transfer counts under, the grouping
and the printed figures (the browser run itself is `village-companion bench --cold-load`)."""

from __future__ import annotations

import pytest

from companion.bench.cold_load import KINDS, Load, figures, group_bytes, kind_of, report_lines

BASE = "http://127.0.0.1:8550"


@pytest.mark.parametrize(("url", "rtype", "kind"), [
    (f"{BASE}/", "Document", "page"),
    (f"{BASE}/play/village/abc", "Document", "page"),
    (f"{BASE}/canvaskit/skwasm.wasm", "Fetch", "engine"),
    (f"{BASE}/canvaskit/skwasm.js", "Script", "engine"),
    (f"{BASE}/canvaskit/chromium/canvaskit.wasm", "Fetch", "engine"),
    (f"{BASE}/canvaskit/canvaskit.js", "Script", "engine"),
    (f"{BASE}/main.dart.wasm", "Fetch", "flutter app"),
    (f"{BASE}/main.dart.mjs", "Script", "flutter app"),
    (f"{BASE}/main.dart.js", "Script", "flutter app"),
    (f"{BASE}/flutter_bootstrap.js", "Script", "flutter app"),
    (f"{BASE}/assets/FontManifest.json", "Fetch", "flutter app"),
    (f"{BASE}/assets/AssetManifest.bin.json", "Fetch", "flutter app"),
    (f"{BASE}/assets/shaders/ink_sparkle.frag", "Fetch", "flutter app"),
    (f"{BASE}/assets/fonts/MaterialIcons-Regular.otf", "Fetch", "fonts"),
    (f"{BASE}/fonts/noto-sans-kr-korean-400-normal.woff2", "Font", "fonts"),
    (f"{BASE}/assets/packages/cupertino_icons/assets/CupertinoIcons.ttf", "Fetch", "fonts"),
    (f"{BASE}/manifest.json", "Manifest", "app assets"),
    (f"{BASE}/icons/icon-192.png", "Other", "app assets"),
    (f"{BASE}/favicon.png", "Other", "app assets"),
    ("ws://127.0.0.1:8550/ws", "websocket", "websocket"),
    ("data:application/octet-stream;base64,AAAA", "Other", "other"),
])
def test_kind_of_sorts_every_transfer(url: str, rtype: str, kind: str) -> None:
    assert kind_of(url, rtype) == kind


def test_group_bytes_sums_per_kind_and_names_every_kind() -> None:
    grouped = group_bytes([
        (f"{BASE}/canvaskit/skwasm.wasm", "Fetch", 3000),
        (f"{BASE}/canvaskit/skwasm.js", "Script", 60),
        (f"{BASE}/fonts/noto-sans-kr-korean-400-normal.woff2", "Font", 500),
        (f"{BASE}/assets/fonts/roboto.woff2", "Fetch", 60),
        ("ws://127.0.0.1:8550/ws", "websocket", 7),
        ("ws://127.0.0.1:8550/ws", "websocket", 5),
    ])
    assert list(grouped) == list(KINDS)
    assert grouped["engine"] == 3060 and grouped["fonts"] == 560
    assert grouped["websocket"] == 12 and grouped["page"] == 0
    assert sum(grouped.values()) == 3632


def test_figures_compare_the_app_with_the_bare_app_and_list_the_apps_files() -> None:
    app = [Load(3000, 2500, [(f"{BASE}/main.dart.wasm", "Fetch", 8000)]),
           Load(2000, 1800, [(f"{BASE}/main.dart.wasm", "Fetch", 8000),
                             (f"{BASE}/fonts/x.woff2", "Font", 100)]),
           Load(2600, 2200, [(f"{BASE}/main.dart.wasm", "Fetch", 8000)])]
    bare = [Load(1000, 900, [(f"{BASE}/main.dart.wasm", "Fetch", 8000)])] * 3
    figs = figures(app, bare, "auto")
    assert figs["app"]["usable_ms"] == {"p50": 2600, "min": 2000, "max": 3000}
    assert figs["bare"]["first_frame_ms"]["p50"] == 900
    assert figs["usable_ratio"] == 2.6 and figs["usable_vs_bare_first_frame"] == 2.89
    assert figs["app"]["bytes"]["flutter app"] == 8000 and figs["app"]["bytes"]["fonts"] == 0
    assert figs["app_files"] == {"/main.dart.wasm": 8000}
    text = "\n".join(report_lines(figs))
    assert "x2.6" in text and "Home usable" in text and "/main.dart.wasm" in text
