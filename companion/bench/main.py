"""`village-companion bench`: speed and memory figures, printed (never asserted).

Engine apply time per accepted command (p50/p99), replay of a 400-event session, the
store's save-one-event p95 with 0/100/1000 stored sessions against a naive TinyDB layout,
resuming a stored real game, peak RSS. `--startup` adds launch-to-first-HTTP-200 of the app
against a bare Flet hello-world. `--taps [--rounds N]` instead measures tap latency in
headless Chromium against a bare Flet counter (companion/bench/taps.py). `--tables`
measures table mode at scale (companion/bench/tables.py). `--history [--sizes 100,1000]
[--home]` the history and statistics, and Home on the live app, with many stored games
(companion/bench/history.py, companion/bench/home.py).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from companion.bench.store import bench_store
from companion.core.json_types import JsonObject
from companion.store.tinydb_store import TinyDBStore
from companion.village.autoplay import candidate_commands
from companion.village.rules.errors import RuleError
from companion.village.service import VillageService
from companion.village.session import VillageSession
from companion.village.setup import PlayerSetup, VillageSetup

COLOURS = ["red", "yellow", "blue", "white", "purple"]


def _setup(players: int, seed: int) -> VillageSetup:
    return VillageSetup(players=[PlayerSetup(name=f"P{i + 1}", colour=COLOURS[i])
                                 for i in range(players)], seed=seed)


def _percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def bench_apply(games: int = 12) -> tuple[float, float, VillageSession]:
    """Time each accepted command of random 2–5 player games; returns p50, p99 (µs)."""
    samples: list[float] = []
    longest: VillageSession | None = None
    for g in range(games):
        session = VillageSession.new(_setup(2 + g % 4, g))
        rng = random.Random(g)
        while session.state.phase != "finished":
            for cmd in candidate_commands(session, rng):
                t0 = time.perf_counter()
                try:
                    session.execute(cmd)
                except RuleError:
                    continue
                samples.append((time.perf_counter() - t0) * 1e6)
                break
        if longest is None or len(session.events) > len(longest.events):
            longest = session
    assert longest is not None
    return _percentile(samples, 0.5), _percentile(samples, 0.99), longest


def bench_replay(session: VillageSession, events: int = 400, repeats: int = 5) -> float:
    log = session.events[:events]
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        VillageSession(session.setup, session.comp, log)
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def bench_resume(session: VillageSession, root: Path, repeats: int = 5) -> float:
    """Open a stored real game with a fresh store each time: load + fold."""
    svc = VillageService(TinyDBStore(root))
    sid, _ = svc.create(session.setup)
    svc.store.replace_log(sid, session.events[:400], [])
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        VillageService(TinyDBStore(root)).open(sid)
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def collect(startup: bool = False, *, games: int = 12, store_sizes: dict[str, int] | None = None,
            events_per_measure: int = 200) -> JsonObject:
    """Every figure, keyed as `bench --json` prints them. The defaults are the real
    measurement; `games` (random games timed), `store_sizes` (label -> other stored
    sessions, see bench_store) and `events_per_measure` shrink it for a quick check."""
    p50, p99, longest = bench_apply(games)
    with tempfile.TemporaryDirectory() as tmp:
        store_figs = bench_store(Path(tmp) / "store", events_per_measure, store_sizes)
        resume = bench_resume(longest, Path(tmp) / "resume")
    out: JsonObject = {
        "apply_us_p50": round(p50, 1),
        "apply_us_p99": round(p99, 1),
        "replay_400_ms": round(bench_replay(longest), 2),
        "save_ms_p95": store_figs["save_ms_p95"],
        "naive_save_ms_p95": store_figs["naive_save_ms_p95"],
        # The same run's plain atomic rewrite of a file of the same size (and with the
        # folder's fsync, as the store does), and the store's p95 over each.
        "plain_rewrite_ms_p95": store_figs["plain_rewrite_ms_p95"],
        "plain_dirsync_ms_p95": store_figs["plain_dirsync_ms_p95"],
        "save_vs_plain": store_figs["save_vs_plain"],
        "save_vs_plain_dirsync": store_figs["save_vs_plain_dirsync"],
        "save_vs_none": store_figs["save_vs_none"],
        # Every save names the version it extends; what that check costs per save.
        "unchecked_save_ms_p95": store_figs["unchecked_save_ms_p95"],
        "cas_cost_ms_p95": store_figs["cas_cost_ms_p95"],
        "list_ms": store_figs["list_ms"],
        "list_rebuild_ms": store_figs["list_rebuild_ms"],
        "resume_ms": round(resume, 2),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    if startup:
        from companion.bench.startup import measure_startup

        out["startup"] = measure_startup()
    return out


def run_history_bench(as_json: bool = False, sizes: tuple[int, ...] | None = None,
                      home: bool = False) -> int:
    """`bench --history [--sizes 100,1000] [--home]`: the history figures, and with `home`
    Home's figures on the live app, both on the same stored games."""
    from companion.bench.history import SIZES, bench_history, print_figures, print_paths

    sizes = sizes or SIZES
    with tempfile.TemporaryDirectory() as tmp:
        figs = bench_history(Path(tmp), sizes)
        home_figs: JsonObject | None = None
        if home:
            from companion.bench.home import bench_home, print_home_figures

            home_figs = bench_home(Path(tmp), sizes)
    if as_json:
        print(json.dumps({**figs, "home": home_figs} if home_figs else figs, indent=2))
    else:
        print_figures(figs)
        print_paths(figs)
        if home_figs is not None:
            print_home_figures(home_figs)
    return 0


def game_counts(text: str | None) -> tuple[int, ...] | None:
    """`--sizes` for --history: comma-separated game counts ("100,1000"); None when not
    given. Raises ValueError naming the option for anything else."""
    if text is None:
        return None
    try:
        counts = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        counts = ()
    if not counts or min(counts) < 1:
        raise ValueError(f"--sizes: with --history, game counts like 100,1000 (not {text!r})")
    return counts


def run_bench(args: argparse.Namespace) -> int:
    if getattr(args, "history", False):  # the history and statistics at scale
        try:
            sizes = game_counts(getattr(args, "sizes", None))
        except ValueError as exc:
            print(exc, file=sys.stderr)
            return 2
        return run_history_bench(bool(args.json), sizes, bool(getattr(args, "home", False)))
    if getattr(args, "tables", False):  # table mode: many clients on a live server
        from companion.bench.tables import run_cli as run_tables

        return run_tables(args)
    if getattr(args, "taps", False):  # a browser benchmark of its own
        from companion.bench.taps import run_cli

        return run_cli(int(getattr(args, "rounds", 30)), bool(args.json),
                       str(getattr(args, "renderer", "auto")),
                       str(getattr(args, "input", "touch")))
    t0 = time.perf_counter()
    figs = collect(startup=bool(getattr(args, "startup", False)))
    figs["bench_seconds"] = round(time.perf_counter() - t0, 1)
    if args.json:
        print(json.dumps(figs, indent=2))
        return 0
    save, naive = figs["save_ms_p95"], figs["naive_save_ms_p95"]
    print(f"engine apply per command: p50 {figs['apply_us_p50']} µs, "
          f"p99 {figs['apply_us_p99']} µs")
    print(f"replay of a 400-event session: {figs['replay_400_ms']} ms")
    plain, dirsync = figs["plain_rewrite_ms_p95"], figs["plain_dirsync_ms_p95"]
    print("save one event, p95 (ms), by stored sessions:   ours    naive TinyDB"
          "  plain rewrite  +folder fsync  ours/plain  ours/none")
    for k in save:
        print(f"  {k:>5}                                      {save[k]:>7}"
              f"  {naive.get(k, '-'):>9}  {plain[k]:>13}  {dirsync[k]:>13}"
              f"  {figs['save_vs_plain'][k]:>10}  {figs['save_vs_none'][k]:>9}")
    big = max(save, key=int)
    print(f"  ours at {big} vs 0: x{save[big] / save['0']:.2f}; naive/ours at 1000: "
          f"x{naive['1000'] / save['1000']:.0f}")
    print(f"compare-and-append: p95 {figs['cas_cost_ms_p95']} ms per save over "
          f"{figs['unchecked_save_ms_p95']} ms unchecked")
    lists, rebuilt = figs["list_ms"], figs["list_rebuild_ms"]
    print(f"list games for Home at 1000 stored: {lists['1000']} ms "
          f"(index lost, rebuilt from the files: {rebuilt['1000']} ms)")
    print(f"resume a stored 400-event game: {figs['resume_ms']} ms")
    print(f"peak RSS: {figs['peak_rss_mb']} MB")
    if "startup" in figs:
        s = figs["startup"]
        print(f"startup to first HTTP 200: app {s.get('app_ms')} ms, bare Flet "
              f"{s.get('hello_ms')} ms, ratio {s.get('ratio')} (load {s.get('load')})")
    print(f"(bench took {figs['bench_seconds']} s)", file=sys.stderr)
    return 0
