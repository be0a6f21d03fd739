"""Start-up imports no screen (issue 23): the route table names screens by module path and
each is imported when first opened; the cache warm-up waits for the server's first answer."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from companion.app import launch, shell
from companion.app.routes import build_routes
from companion.app.routing import LazyScreen, Screen, lazy, load_screens

# What start-up must not import: the statistics screen with its charts, any other screen
# (their modules import the game services), and what only a client's session needs.
NEVER_AT_START = ("flet_charts", "matplotlib", "companion.app.history.stats_screen",
                  "companion.app.history.charts", "companion.app.views.home",
                  "companion.app.village.table.screen", "companion.app.assistants.feudum",
                  # the client session's context and UI kit: the first client imports them
                  "companion.app.context", "companion.app.kit", "companion.app.views.not_found")

_PROBE = """\
import json, sys
import companion.app.launch
from companion.app.routes import build_routes
targets = sorted({spec.screen.module for spec in build_routes().values()})
print(json.dumps({"targets": targets, "modules": sorted(sys.modules)}))
"""


def test_importing_launch_imports_no_screen() -> None:
    # A clean interpreter: this test process has imported screens already.
    out = subprocess.run([sys.executable, "-c", _PROBE], check=True, capture_output=True,
                         text=True, timeout=120).stdout
    seen = json.loads(out.strip().splitlines()[-1])
    modules = set(seen["modules"])
    assert len(seen["targets"]) > 20  # the whole table, every screen named by path
    imported = sorted(m for m in NEVER_AT_START + tuple(seen["targets"])
                      if m in modules or any(k.startswith(m + ".") for k in modules))
    assert imported == []


_FIRST_PAGE_PROBE = """\
import json, sys
from companion.app import launch, shell
shell.warm_first_page().join(60)
print(json.dumps(sorted(sys.modules)))
"""


def test_first_page_warm_up_imports_home_and_no_other_screen() -> None:
    # What the server starts after its first answer, in a clean interpreter.
    out = subprocess.run([sys.executable, "-c", _FIRST_PAGE_PROBE], check=True,
                         capture_output=True, text=True, timeout=120).stdout
    modules = set(json.loads(out.strip().splitlines()[-1]))
    assert {"companion.app.context", "companion.app.views.home"} <= modules
    assert not {"flet_charts", "companion.app.history.stats_screen",
                "companion.app.village.table.screen"} & modules


def test_every_route_names_a_screen_that_imports() -> None:
    routes = build_routes()
    assert all(isinstance(spec.screen, LazyScreen) for spec in routes.values())
    for pattern, spec in routes.items():
        screen = spec.screen
        assert isinstance(screen, LazyScreen)
        factory = screen.load()
        assert screen.loaded, pattern
        assert isinstance(factory, type) and issubclass(factory, Screen), pattern


def test_lazy_screen_passes_its_options() -> None:
    made: list[dict[str, Any]] = []

    class Probe(Screen):
        def __init__(self, ctx: Any, params: Any, **options: Any) -> None:
            super().__init__(ctx, params)
            made.append(options)

    module = type(sys)("companion_lazy_probe")
    module.Probe = Probe  # type: ignore[attr-defined]
    sys.modules["companion_lazy_probe"] = module
    try:
        factory = lazy("companion_lazy_probe:Probe", solo=True, edition="big-box")
        screen = factory(None, {"session_id": "x"})  # type: ignore[arg-type]
        assert isinstance(screen, Probe) and screen.params == {"session_id": "x"}
        assert made == [{"edition": "big-box", "solo": True}]
        assert factory == lazy("companion_lazy_probe:Probe", edition="big-box", solo=True)
    finally:
        del sys.modules["companion_lazy_probe"]


def test_load_screens_logs_a_broken_module_and_goes_on(caplog: pytest.LogCaptureFixture
                                                       ) -> None:
    good = lazy("companion.app.views.not_found:NotFoundScreen")
    load_screens([lazy("companion.app.no_such_screen:Nothing"), good])
    assert good.loaded
    assert "companion.app.no_such_screen" in caplog.text
    with pytest.raises(ModuleNotFoundError):
        lazy("companion.app.no_such_screen:Nothing").load()


def test_screen_warm_up_runs_on_a_daemon_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shell, "SCREEN_WARM_UP_DELAY_S", 0.0)
    timer = shell.warm_screens_later(build_routes())
    assert timer.daemon and timer is not threading.current_thread()
    timer.join(60)
    assert all(isinstance(spec.screen, LazyScreen) and spec.screen.loaded
               for spec in build_routes().values())


def test_cache_warm_up_waits_for_the_first_answer() -> None:
    fired: list[str] = []
    sent: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200})
        sent.append(f"start, warmed {len(fired)}")
        await send({"type": "http.response.body", "body": b"a", "more_body": True})
        sent.append(f"part, warmed {len(fired)}")
        await send({"type": "http.response.body", "body": b"b"})
        sent.append(f"end, warmed {len(fired)}")

    async def send(message: Any) -> None:
        pass

    async def receive() -> Any:
        return {}

    async def run() -> None:
        wrapped = launch.AfterFirstAnswer(app, lambda: fired.append("warm"))
        await wrapped({"type": "websocket"}, receive, send)  # not an HTTP answer
        assert fired == []
        await wrapped({"type": "http"}, receive, send)
        await wrapped({"type": "http"}, receive, send)
        wrapped.fire()  # the fallback timer after it: nothing more

    asyncio.run(run())
    assert fired == ["warm"]
    # sent[:3]: the WebSocket call; then the first HTTP answer warms up once it has ended
    assert sent[3:6] == ["start, warmed 0", "part, warmed 0", "end, warmed 1"]


def test_cache_warm_up_fallback_fires_once_without_a_request(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(launch, "WARM_UP_FALLBACK_S", 0.01)
    fired: list[str] = []

    async def run() -> None:
        wrapped = launch.AfterFirstAnswer(lambda *a: None,  # type: ignore[arg-type]
                                          lambda: fired.append("warm"))
        wrapped.fallback()
        wrapped.fallback()
        await asyncio.sleep(0.1)

    asyncio.run(run())
    assert fired == ["warm"]


# What the server needs before its first answer is the guard, the page's banner and the
# store: the app shell (routes, routing, theme, settings screen wiring, games registry)
# and table mode's sharing come with the first client or the warm-up after that answer.
SHELL_MODULES = ("companion.app.shell", "companion.app.routes", "companion.app.routing",
                 "companion.app.theme", "companion.games", "companion.app.locale_detect",
                 "companion.app.table_mode.sharing", "companion.app.table_mode.confine",
                 # once compiled and cached, the catalogues are read by gettext alone
                 "babel.messages.pofile")

_LAUNCH_PROBE = """\
import json, sys, tempfile
import companion.app.launch
from companion.store import base
companion.app.launch.open_store(tempfile.mkdtemp())
from companion.web.connection_banner import banner_script
banner_script("en")  # what the first page request adds: every language's words
built = [m.__name__ for m in (base.StoredSession, base.SessionInfo, base.StoreProblem)
         if m.__pydantic_complete__]
print(json.dumps({"modules": sorted(sys.modules), "built": built}))
"""


def test_importing_launch_leaves_the_shell_for_later(tmp_path: Path) -> None:
    # The first start after an install (or a catalogue edit) compiles the page's
    # catalogues with Babel; every start after it reads the cached .mo files.
    env = {**os.environ, "VILLAGE_COMPANION_CACHE_DIR": str(tmp_path)}
    for _start in range(2):
        out = subprocess.run([sys.executable, "-c", _LAUNCH_PROBE], check=True, env=env,
                             capture_output=True, text=True, timeout=120).stdout
    seen = json.loads(out.strip().splitlines()[-1])
    assert sorted(set(SHELL_MODULES) & set(seen["modules"])) == []
    # the store's models are built when first used (defer_build), not at start
    assert seen["built"] == []


_SHELL_WARM_UP_PROBE = """\
import json, sys, threading
from companion.app import launch
launch._import_shell_and_first_page()
for thread in threading.enumerate():
    if thread.name == "first-page-warm-up":
        thread.join(60)
print(json.dumps(sorted(sys.modules)))
"""


def test_warm_up_after_the_first_answer_imports_the_shell_and_home() -> None:
    out = subprocess.run([sys.executable, "-c", _SHELL_WARM_UP_PROBE], check=True,
                         capture_output=True, text=True, timeout=120).stdout
    modules = set(json.loads(out.strip().splitlines()[-1]))
    assert {"companion.app.shell", "companion.app.context",
            "companion.app.views.home"} <= modules
    assert not {"flet_charts", "companion.app.history.stats_screen"} & modules


def test_deferred_main_builds_the_shells_main_once_for_every_client(
        monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[tuple[object, object, bool]] = []
    shown: list[object] = []

    def build_main(store: object, share: object = None, warm_screens: bool = False) -> Any:
        built.append((store, share, warm_screens))

        async def main(page: object) -> None:
            shown.append(page)

        return main

    monkeypatch.setattr(shell, "build_main", build_main)
    store, share = object(), object()
    main = launch.deferred_main(store, share)  # type: ignore[arg-type]

    async def two_clients() -> None:
        await asyncio.gather(main("page 1"), main("page 2"))  # type: ignore[arg-type]
        await main("page 3")  # type: ignore[arg-type]

    asyncio.run(two_clients())
    assert built == [(store, share, True)]
    assert sorted(shown) == ["page 1", "page 2", "page 3"]  # type: ignore[type-var]


def test_garbage_collection_is_paused_from_the_cli_until_the_first_answer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    from companion import cli

    frozen: list[bool] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(True))  # keep this process's
    thresholds: list[tuple[int, ...]] = []  # (and its thresholds)
    monkeypatch.setattr(gc, "set_threshold", lambda *t: thresholds.append(t))
    seen: list[bool] = []

    def run_app(**_: Any) -> int:
        seen.append(gc.isenabled())
        launch.resume_garbage_collection()  # what the warm-up after the answer does
        seen.append(gc.isenabled())
        return 0

    monkeypatch.setattr(launch, "run_app", run_app)
    try:
        assert cli.main(["--port", "8128"]) == 0
    finally:
        gc.enable()
    assert seen == [False, True] and frozen == [True]
    # A young generation large enough for a table change's temporaries (issue 23).
    # (the process's own thresholds are whatever earlier tests of this worker left)
    assert thresholds == [(launch.GC_YOUNG, *gc.get_threshold()[1:])]
    launch.resume_garbage_collection()  # already running: nothing to do
    assert frozen == [True] and len(thresholds) == 1
