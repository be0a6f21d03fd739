"""Home's history at scale, measured on the live app: `python -m companion.bench.history
--home` (after the domain figures of companion/bench/history.py).

For each size (100 / 1,000 / 10,000 finished games, the fixture of
companion/bench/history.py) the app runs as its own web server (`python -m companion`,
127.0.0.1 only, a fresh data folder) and raw Flet protocol clients (one browser tab each,
over a real WebSocket, as companion/bench/tables.py drives the table) open Home:

- first_ms: from the client's register message to the arrival of the first frame holding
  a finished-game row of Home (`home-history-<id>`), for the first client after the server
  answered HTTP (cold: the server warms the history cache at start, on the store thread,
  and the first load queues behind it); `skeleton_ms`: to Home's page skeleton
  (`home-title`) and `after_skeleton_ms`: history minus skeleton, as the issue measured;
- idle_first_ms: the first load of a second server started the same way, opened once the
  server has gone quiet after its start (its warm-up done: no CPU used for half a second),
  as when the page is opened a moment after the server was started;
- warm_ms: the same for the next loads (median, p95 and max), the cache warm;
- after_save_ms: a load right after a game was saved (median of AFTER_SAVE_LOADS): each
  time one more finished game is stored in the data folder (by this process, as a second
  writer would; the server's cache finds it by its scan, as for its own saves) just
  before the load, which must then show that game's row;
- cold_unwarmed_ms: the first load when the warm-up at start is switched off
  (VILLAGE_COMPANION_NO_HISTORY_WARMUP=1): what the first client paid before;
- rss_mb (largest size only): the server's RSS after one Home load and after twenty, each
  load a new client that disconnects once its history shows (Flet keeps a disconnected
  session about an hour, so each load's session is still held), and the growth in %.

Printed, never asserted; every process started is stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from companion.bench.history import store_finished_game, write_history_fixture
from companion.bench.tables import (
    CONTROL_EVENT,
    DEVICE_INFO,
    INVOKE_METHOD,
    REGISTER_CLIENT,
    app_server,
    cpu_seconds,
    pack_frame,
    rss_kb,
    unpack_frame,
)
from companion.bench.taps import percentile
from companion.core.json_types import JsonObject
from companion.store.tinydb_store import TinyDBStore

SIZES = (100, 1000, 10_000)
WARM_LOADS = 10
AFTER_SAVE_LOADS = 5
MEMORY_LOADS = 20
LOAD_TIMEOUT_S = 120.0
NO_WARMUP_ENV = "VILLAGE_COMPANION_NO_HISTORY_WARMUP"
SKELETON = b"home-title"
HISTORY_ROW = b"home-history-"


async def load_home(port: int, row: str | None = None) -> tuple[float, float]:
    """One tab opening Home: (ms to the skeleton, ms to the first history row, or to the
    row of game `row` when given)."""
    wanted = HISTORY_ROW if row is None else row.encode()
    from websockets.asyncio.client import connect
    from websockets.typing import Origin

    async with connect(f"ws://127.0.0.1:{port}/ws",
                       origin=Origin(f"http://127.0.0.1:{port}"),
                       user_agent_header="home-bench", max_size=None, open_timeout=60,
                       ping_interval=None) as ws:
        page = {"route": "/", "web": True, "platform": "linux",
                "platform_brightness": "light", "width": 360, "height": 800}
        started = time.perf_counter()
        await ws.send(pack_frame(REGISTER_CLIENT, {"session_id": "", "page_name": "",
                                              "page": page}))
        skeleton: float | None = None
        deadline = started + LOAD_TIMEOUT_S
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError("Home's history never showed")
            frame = await asyncio.wait_for(ws.recv(), remaining)
            arrived = time.perf_counter()
            if not isinstance(frame, bytes) or not frame or frame[0] != 0:
                continue
            if skeleton is None and SKELETON in frame:
                skeleton = arrived
            if wanted in frame:
                return ((skeleton or arrived) - started) * 1000, (arrived - started) * 1000
            action, body = unpack_frame(frame)
            if action == INVOKE_METHOD:  # answer as the web client does
                name = body.get("name")
                await ws.send(pack_frame(INVOKE_METHOD, {
                    "control_id": body["control_id"], "call_id": body["call_id"],
                    "result": DEVICE_INFO if name == "get_device_info" else None,
                    "error": None}))
                if name == "push_route":
                    route = (body.get("args") or {}).get("route", "/")
                    await ws.send(pack_frame(CONTROL_EVENT, {"target": 1, "name": "route_change",
                                                        "data": {"route": route}}))


@contextlib.contextmanager
def _env(name: str, value: str | None) -> Iterator[None]:
    old = os.environ.get(name)
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = old


def _settled_rss_mb(pid: int) -> float:
    time.sleep(0.5)  # let the server finish the load's last work
    return round(rss_kb(pid) / 1024, 1)


def wait_quiet(pid: int, timeout: float = 60.0) -> None:
    """Until process `pid` used no CPU for half a second (its start-up work is done)."""
    deadline = time.monotonic() + timeout
    last, quiet_since = cpu_seconds(pid), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.1)
        now = cpu_seconds(pid)
        if now != last:
            last, quiet_since = now, time.monotonic()
        elif time.monotonic() - quiet_since >= 0.5:
            return


def bench_home(tmp_root: Path, sizes: tuple[int, ...] = SIZES, *,
               warm_loads: int = WARM_LOADS,
               memory_loads: int = MEMORY_LOADS) -> JsonObject:
    figs: JsonObject = {"sizes": list(sizes), "first_ms": {}, "skeleton_ms": {},
                        "after_skeleton_ms": {}, "idle_first_ms": {}, "warm_ms": {},
                        "after_save_ms": {}, "cold_unwarmed_ms": {}, "rss_mb": {}}
    work = Path(tempfile.mkdtemp(prefix="home-bench-", dir=tmp_root))
    try:
        for size in sizes:
            key = str(size)
            data = work / f"data-{size}"
            write_history_fixture(data, size)
            with _env(NO_WARMUP_ENV, None), app_server(data) as (proc, port):
                skeleton, first = asyncio.run(load_home(port))
                figs["first_ms"][key] = round(first, 1)
                figs["skeleton_ms"][key] = round(skeleton, 1)
                figs["after_skeleton_ms"][key] = round(first - skeleton, 1)
                rss_one = _settled_rss_mb(proc.pid)
                warm = [asyncio.run(load_home(port))[1] for _ in range(warm_loads)]
                figs["warm_ms"][key] = {"p50": round(statistics.median(warm), 1),
                                        "p95": round(percentile(warm, 0.95), 1),
                                        "max": round(max(warm), 1)}
                writer = TinyDBStore(data)
                saved = []
                for n in range(AFTER_SAVE_LOADS):
                    sid = store_finished_game(writer, n)  # newest: first on Home
                    saved.append(asyncio.run(load_home(port, f"home-history-{sid}"))[1])
                figs["after_save_ms"][key] = round(statistics.median(saved), 1)
                if size == max(sizes):
                    for _ in range(memory_loads - 1 - warm_loads):
                        asyncio.run(load_home(port))
                    rss_many = _settled_rss_mb(proc.pid)
                    loads = max(memory_loads, warm_loads + 1)
                    figs["rss_mb"] = {"games": size, "after_1": rss_one,
                                      f"after_{loads}": rss_many,
                                      "growth_pct": round(100 * (rss_many - rss_one)
                                                          / rss_one, 1)}
            with _env(NO_WARMUP_ENV, None), app_server(data) as (proc, port):
                wait_quiet(proc.pid)
                figs["idle_first_ms"][key] = round(asyncio.run(load_home(port))[1], 1)
            with _env(NO_WARMUP_ENV, "1"), app_server(data) as (proc, port):
                figs["cold_unwarmed_ms"][key] = round(asyncio.run(load_home(port))[1], 1)
            shutil.rmtree(data, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return figs


def print_home_figures(figs: JsonObject) -> None:
    print("Home's history on the live server (raw Flet protocol client over a WebSocket):")
    print("  games  first load ms (cold)  skeleton ms  after skeleton ms"
          "  first load once quiet ms  warm p50/p95/max ms  after a save ms"
          "  first load, no warm-up ms")
    for size in figs["sizes"]:
        k = str(size)
        w = figs["warm_ms"][k]
        print(f"  {size:>5}  {figs['first_ms'][k]:>21}  {figs['skeleton_ms'][k]:>11}"
              f"  {figs['after_skeleton_ms'][k]:>17}  {figs['idle_first_ms'][k]:>24}"
              f"  {w['p50']:>7}/{w['p95']}/{w['max']:<9}"
              f"  {figs['after_save_ms'].get(k, '-'):>15}"
              f"  {figs['cold_unwarmed_ms'][k]:>25}")
    rss = figs["rss_mb"]
    if rss:
        many = next(k for k in rss if k.startswith("after_") and k != "after_1")
        print(f"  server RSS with {rss['games']} games: {rss['after_1']} MB after one Home "
              f"load, {rss[many]} MB after {many[6:]} ({rss['growth_pct']:+}%)")
