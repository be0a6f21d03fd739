"""History figures: list + first history page, statistics, memory, for 100 / 1,000 /
10,000 stored finished games. Printed, never asserted.

    village-companion bench --history [--json] [--sizes 100,1000] [--home]

(companion/bench/main.py runs it.) `--home` adds Home's figures on the live app
(companion/bench/home.py: the time to first show Home's history, cold and warm, and the
server's RSS after one and twenty Home loads), measured with a real server and raw Flet
protocol clients.

The games come from companion/bench/fixture.py, shared with companion/bench/home.py.
"""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from functools import partial
from pathlib import Path

from companion.bench.fixture import store_finished_game, write_history_fixture
from companion.core.json_types import JsonObject
from companion.history.backup import backup_json, import_backup
from companion.history.cache import QUIET_NS, HistoryCache, fingerprint
from companion.history.query import history_page
from companion.history.records import build_records
from companion.history.saved_index import INDEX_FILE
from companion.history.stats import compute_stats
from companion.store.base import utc_iso
from companion.store.memory import MemoryStore
from companion.store.tinydb_store import TinyDBStore

SIZES = (100, 1000, 10_000)
IMPORT_GAMES = 20  # the backup imported before the "after an import" figure
TARGET_MS = 300  # issue 23: every history and statistics path at 10,000 games
BENCH_OPEN = "bench-open"  # the unfinished game the "after a save" figure appends to


def _first_page(store: TinyDBStore) -> int:
    records = build_records(store.list_sessions()).records
    return len(history_page(records, page=0).items)


def _cached_page(cache: HistoryCache, store: TinyDBStore) -> int:
    return len(cache.page(store, page=0).items)


def _after_save_ms(cache: HistoryCache, store: TinyDBStore, repeats: int, *,
                   finish: bool) -> float:
    """Home's history (`cache.home`, what Home's load calls) right after one game was
    saved: an event appended to an unfinished game, or (`finish`) a game stored finished
    (it moves into the records). The save itself is not timed; median of `repeats`."""
    samples = []
    for n in range(repeats):
        if finish:
            store_finished_game(store, n)
        else:
            store.append(BENCH_OPEN, [{"seq": n, "group": n, "at": utc_iso(),
                                       "body": {"type": "end_turn"}}])
        start = time.perf_counter()
        cache.home(store)
        samples.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(samples), 2)


def _import_source(count: int) -> str:
    """A backup of `count` finished Villagers tallies (real games: an import replays
    every game it stores)."""
    from companion.tally.rules import SetField
    from companion.tally.service import TallyService

    source = MemoryStore()
    svc = TallyService(source)
    for n in range(count):
        sid, session = svc.create("villagers", [f"Im{n}", "Bo"])
        svc.apply(sid, session, SetField(player=0, field="money", value=n + 1))
        svc.finish(sid, session)
    return backup_json(source)


class _Clock:
    """Wall and CPU time (ms) of one step: on a shared machine the wall time also holds
    the waits for a core, the CPU time only this process's work."""

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.cpu = time.process_time()

    def lap(self) -> tuple[float, float]:
        wall, cpu = time.perf_counter(), time.process_time()
        took = ((wall - self.wall) * 1000, (cpu - self.cpu) * 1000)
        self.wall, self.cpu = wall, cpu
        return took


def _fresh_load(root: Path, *, saved: bool) -> JsonObject:
    """A start: a new store and cache, Home's first load (`cache.home`) and then the
    statistics from nothing; with `saved` False the saved index is deleted first (the
    records rebuilt from a listing, as before issue 23). Wall and CPU ms of each."""
    if not saved:
        (root / INDEX_FILE).unlink(missing_ok=True)
    store = TinyDBStore(root)
    cache = HistoryCache()
    clock = _Clock()
    cache.home(store)
    home, home_cpu = clock.lap()
    how = cache.last_update
    cache.stats(store)
    stats, stats_cpu = clock.lap()
    cache.wait_saved()
    return {"home": home, "home_cpu": home_cpu, "stats": stats, "stats_cpu": stats_cpu,
            "how": how}


def _paths_ms(root: Path, repeats: int) -> JsonObject:
    """Issue 23's paths, at one size: first load after a start from the saved index and
    from nothing (rebuilt), statistics from nothing after each, Home and statistics after
    an import (IMPORT_GAMES games) and after a backup export, and the export itself.
    Each also as CPU time (`..._cpu_ms`)."""
    first = HistoryCache()
    first.records(TinyDBStore(root))  # the saved index, as a first start leaves
    first.wait_saved()  # written before the runs, not during one of them
    del first  # its records are not kept alive through the runs
    out: JsonObject = {}
    for saved, name in ((True, "saved"), (False, "rebuilt")):
        runs = [_fresh_load(root, saved=saved) for _ in range(repeats)]
        for field, figure in (("home", "first"), ("stats", "stats")):
            out[f"{figure}_{name}_ms"] = round(statistics.median(r[field] for r in runs), 2)
            out[f"{figure}_{name}_cpu_ms"] = round(
                statistics.median(r[f"{field}_cpu"] for r in runs), 2)
        out[f"first_{name}_how"] = runs[-1]["how"]
    store = TinyDBStore(root)
    cache = HistoryCache()
    cache.stats(store)
    import_backup(store, _import_source(IMPORT_GAMES))  # untimed: the import itself
    cache.rescan()  # as the app does after an import (companion/app/history/data.py)
    clock = _Clock()
    cache.home(store)
    out["after_import_ms"], out["after_import_cpu_ms"] = clock.lap()
    cache.stats(store)
    out["after_import_stats_ms"], out["after_import_stats_cpu_ms"] = clock.lap()
    cache.wait_saved()
    clock = _Clock()
    backup_json(store)  # what "Back up everything" runs: every game read, and the text
    out["export_ms"], out["export_cpu_ms"] = clock.lap()
    cache.home(store)
    cache.stats(store)
    out["after_export_ms"], out["after_export_cpu_ms"] = clock.lap()
    return {k: round(v, 2) if isinstance(v, float) else v for k, v in out.items()}


def _median_ms(run: Callable[[], object], repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        samples.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(samples), 2)


def bench_history(tmp_root: Path, sizes: tuple[int, ...] = SIZES,
                  repeats: int = 3) -> JsonObject:
    """Per size (games stored), in ms and MB:

    list_page_ms: list every game (index current) + build every record + the first
    history page, as the History screen opened before the cache (and as it opens once
    after a write); cached_page_ms: the History screen's first page through HistoryCache
    with nothing changed since the last load (one directory scan + the slice);
    cached_stats_ms: the statistics screen's figures through the cache, likewise (the
    sessions folder untouched for over a second, as between two page loads: one stat of
    the folder); after_save_ms: Home's history through the cache right after one event
    was saved to an unfinished game (the save itself not timed), and after_finish_ms:
    likewise right after one game was stored finished; scan_ms: the directory scan the
    cache falls back to when the folder changed less than a second before (the
    fingerprint of every game file);
    Issue 23's paths (`_paths_ms`): first_saved_ms / first_rebuilt_ms: Home's first load
    after a start, the records taken from the saved index (history-index.json) / built
    from a listing with no saved index (the path before issue 23); stats_saved_ms /
    stats_rebuilt_ms: the statistics from nothing right after; after_import_ms /
    after_import_stats_ms: Home and then the statistics right after an import of
    IMPORT_GAMES games; export_ms: a backup export (every game file read), and
    after_export_ms: Home and the statistics right after it;
    records_ms: building the records alone
    (from a listing already made); stats_ms: every statistic from those records;
    peak_mb: tracemalloc peak of one list + records + page + statistics pass (Python
    allocations only); records_mb: what the records keep alive. Medians of `repeats`.
    """
    tmp_root = Path(tmp_root)
    tmp_root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="history-bench-", dir=tmp_root))
    load = [round(x, 2) for x in os.getloadavg()]
    figures: JsonObject = {"sizes": list(sizes), "load_average": load,
                           "list_page_ms": {},
                           "cached_page_ms": {}, "cached_stats_ms": {}, "scan_ms": {},
                           "after_save_ms": {}, "after_finish_ms": {},
                           "records_ms": {},
                           "stats_ms": {}, "peak_mb": {}, "records_mb": {},
                           "skipped": {}, "paths": {}}
    try:
        for size in sizes:
            root = work / f"store-{size}"
            write_history_fixture(root, size)
            store = TinyDBStore(root)
            key = str(size)
            figures["list_page_ms"][key] = _median_ms(partial(_first_page, store), repeats)
            # No write for a while, as between two page loads (the fixture was just
            # written: its folder's mtime is set back instead of sleeping).
            old = time.time_ns() - 2 * QUIET_NS
            os.utime(store.sessions_dir, ns=(old, old))
            cache = HistoryCache()
            cache.stats(store)  # the first load builds the records and the statistics
            figures["scan_ms"][key] = _median_ms(partial(fingerprint, store), repeats)
            figures["cached_page_ms"][key] = _median_ms(partial(_cached_page, cache, store),
                                                        repeats)
            figures["cached_stats_ms"][key] = _median_ms(partial(cache.stats, store),
                                                         repeats)
            store.create(BENCH_OPEN, "village", BENCH_OPEN, {"game": "village"})
            cache.home(store)
            saves = max(repeats, 5)
            figures["after_save_ms"][key] = _after_save_ms(cache, store, saves,
                                                           finish=False)
            figures["after_finish_ms"][key] = _after_save_ms(cache, store, saves,
                                                             finish=True)
            del cache
            infos = store.list_sessions()
            figures["records_ms"][key] = _median_ms(partial(build_records, infos), repeats)
            built = build_records(infos)
            figures["skipped"][key] = built.skipped
            figures["stats_ms"][key] = _median_ms(partial(compute_stats, built.records),
                                                  repeats)
            del infos, built
            tracemalloc.start()
            try:
                kept = build_records(store.list_sessions()).records
                history_page(kept, page=0)
                compute_stats(kept)
                current, peak = tracemalloc.get_traced_memory()
            finally:
                tracemalloc.stop()
            figures["peak_mb"][key] = round(peak / 2**20, 1)
            figures["records_mb"][key] = round(current / 2**20, 1)
            del kept
            figures["paths"][key] = _paths_ms(root, repeats)
            shutil.rmtree(root)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return figures


def print_figures(figs: JsonObject) -> None:
    print("history, by finished games stored:  list+page ms  cached page ms"
          "  cached stats ms  scan ms  records ms  stats ms  peak MB  records MB")
    for size in figs["sizes"]:
        k = str(size)
        print(f"  {size:>6}                           {figs['list_page_ms'][k]:>11}"
              f"  {figs['cached_page_ms'][k]:>14}  {figs['cached_stats_ms'][k]:>15}"
              f"  {figs['scan_ms'][k]:>7}"
              f"  {figs['records_ms'][k]:>10}  {figs['stats_ms'][k]:>8}"
              f"  {figs['peak_mb'][k]:>7}  {figs['records_mb'][k]:>10}")
    print("Home's history right after a save (cache.home, ms):  after an event saved"
          "  after a game finished")
    for size in figs["sizes"]:
        k = str(size)
        print(f"  {size:>6}  {figs['after_save_ms'][k]:>48}"
              f"  {figs['after_finish_ms'][k]:>21}")


def print_paths(figs: JsonObject) -> None:
    print(f"issue 23 paths, wall ms (CPU ms), target <= {TARGET_MS} at 10,000 games; "
          f"load average {figs.get('load_average')}:")
    rows = (("first load, saved index", "first_saved"),
            ("first load, rebuilt (no saved index: before issue 23)", "first_rebuilt"),
            ("statistics from nothing, after the saved first load", "stats_saved"),
            ("statistics from nothing, after the rebuilt first load", "stats_rebuilt"),
            (f"Home after an import of {IMPORT_GAMES} games", "after_import"),
            ("statistics after that import", "after_import_stats"),
            ("a backup export (every game file read, the file's text)", "export"),
            ("Home and statistics after the export", "after_export"))
    for size in figs["sizes"]:
        p = figs["paths"][str(size)]
        print(f"  {size} games:")
        for words, key in rows:
            print(f"    {words:<56} {p[key + '_ms']:>9} ({p[key + '_cpu_ms']})")

