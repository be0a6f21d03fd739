"""Store speed figures: the cost of saving one event as the number of stored sessions grows.

`bench_store` compares TinyDBStore with the naive TinyDB layout (every session a document in
one table of one file, rewritten per event) with 0, 100 and 1,000 other stored sessions,
and the store alone with 10,000 (the naive layout would rewrite 10,000 games per event).
Each save is followed, in the same run and the same folder, by a plain atomic rewrite of
a file of the same size (temp file, fsync, rename) and one that also fsyncs the folder as
the store does (so the rename survives a power cut): the floor any durable save stands on.
The saves of every size and their plain rewrites are taken in turns, so that a busy
moment of the (shared) disk falls on all of them alike.
Fixtures are written straight to disk with `json` (fast), measurements go through the real
APIs. Run `python -m companion.bench.store` to print the figures as JSON.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tinydb import Query, TinyDB

from companion.core.json_types import JsonObject
from companion.store.base import utc_iso
from companion.store.tinydb_store import (
    INDEX_FILE,
    SESSIONS_DIR,
    TinyDBStore,
    session_file_tables,
    session_meta,
)

OTHER_COUNTS = (0, 100, 1000, 10_000)
EVENTS_PER_OTHER = 50
#: Above this many other sessions, each holds fewer events (the count is what is measured;
#: 10,000 games of 50 events would be 150 MB of fixture) and the naive layout is not run.
SCALE_OTHERS = 1000
EVENTS_PER_OTHER_AT_SCALE = 5
PLAIN_FILE = "plain-rewrite.bin"  # not a session file name: never listed
EVENTS_IN_TARGET = 100
RESUME_EVENTS = 400
# Keep the measured session near EVENTS_IN_TARGET events: reset it (untimed) this often.
RESET_EVERY = 25
# The naive layout rewrites every session per event; bound its wall time, not its honesty.
NAIVE_BUDGET_S = 2.5
NAIVE_MIN_SAMPLES = 10
TARGET = "target"


def make_event(n: int) -> JsonObject:
    """A realistic event: about 300 bytes of JSON."""
    return {
        "type": "score.set", "seq": n, "at": "2024-05-01T19:42:07.512Z", "player": "p3",
        "category": "church", "value": n % 17, "previous": (n + 5) % 17, "by": "tablet-2",
        "detail": {"tiles": ["chapel", "tower", "well"], "round": n // 12,
                   "note": "moved two monks to the church after the plague check"},
    }


def make_header(n: int) -> JsonObject:
    return {"players": [{"id": f"p{i}", "name": f"Player {i}", "colour": c}
                        for i, c in enumerate(("red", "blue", "green", "yellow"), 1)],
            "setup": {"edition": "big-box", "variant": "standard", "seed": n},
            "components": {"version": 1}}


def p95(samples_ms: list[float]) -> float:
    """Nearest-rank 95th percentile (honest for small samples: never interpolates down)."""
    ordered = sorted(samples_ms)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def _events(count: int) -> list[JsonObject]:
    return [make_event(i) for i in range(count)]


def _sync() -> None:
    # Flush fixture pages first, so background writeback does not land in the timings.
    if hasattr(os, "sync"):
        os.sync()


def write_store_fixture(root: Path, others: int, sessions: dict[str, int]) -> None:
    """Write a TinyDBStore data dir directly: `others` sessions of EVENTS_PER_OTHER events
    plus `sessions` (id -> event count), and a matching index."""
    sessions_dir = root / SESSIONS_DIR
    sessions_dir.mkdir(parents=True, exist_ok=True)
    now = utc_iso()
    per_other = EVENTS_PER_OTHER if others <= SCALE_OTHERS else EVENTS_PER_OTHER_AT_SCALE
    wanted = {f"other-{i:05d}": per_other for i in range(others)} | sessions
    for n, (session_id, count) in enumerate(wanted.items()):
        meta = session_meta(session_id, "village", f"Game {n}", make_header(n), now)
        tables = session_file_tables(meta, _events(count), [])
        (sessions_dir / f"{session_id}.json").write_text(json.dumps(tables), "utf-8")
    TinyDBStore(root).list_sessions()  # builds the index cache, as Home would
    _sync()


def write_naive_fixture(path: Path, others: int) -> None:
    """One TinyDB file, table `sessions`, one document per session holding its events."""
    docs = {}
    ids = [f"other-{i:04d}" for i in range(others)] + [TARGET]
    for n, session_id in enumerate(ids, 1):
        count = EVENTS_IN_TARGET if session_id == TARGET else EVENTS_PER_OTHER
        docs[str(n)] = {"id": session_id, "game": "village", "title": f"Game {n}",
                        "header": make_header(n), "events": _events(count), "redo": []}
    path.write_text(json.dumps({"sessions": docs}), "utf-8")
    _sync()


def plain_rewrite(path: Path, payload: bytes, *, sync_folder: bool = False) -> None:
    """The floor of a durable save: write a temp file beside `path`, fsync it, rename it
    over `path` (and, with sync_folder, fsync the folder: what makes the rename itself
    survive a power cut, as the store does)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "wb") as handle:
        handle.write(payload)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    if sync_folder:
        fd = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class _Saver:
    """One fixture's store, saving events into its target session as the app does."""

    def __init__(self, root: Path, others: int, checked: bool = True) -> None:
        write_store_fixture(root, others, {TARGET: EVENTS_IN_TARGET})
        self.store = TinyDBStore(root)
        stored = self.store.load(TARGET)
        self.baseline, self.version = stored.events, stored.version
        self.checked = checked
        self.target = self.store.sessions_dir / f"{TARGET}.json"
        self.saved = 0

    def save(self) -> float:
        """Save one event (each append names the version it extends: compare-and-append,
        or with checked=False unconditionally); the time it took, in ms."""
        if self.saved and self.saved % RESET_EVERY == 0:  # untimed: keep ~100 events
            self.version = self.store.replace_log(TARGET, self.baseline, [],
                                                  expected=self.version)
        event = make_event(EVENTS_IN_TARGET + self.saved)
        self.saved += 1
        start = time.perf_counter()
        if self.checked:
            self.version = self.store.append(TARGET, [event], expected=self.version)
        else:
            self.version = self.store.append(TARGET, [event])
        return (time.perf_counter() - start) * 1000

    def plain(self, sync_folder: bool) -> float:
        """A plain atomic rewrite of a file of the target's size beside it, in ms."""
        payload = os.urandom(self.target.stat().st_size)
        start = time.perf_counter()
        plain_rewrite(self.store.sessions_dir / PLAIN_FILE, payload, sync_folder=sync_folder)
        return (time.perf_counter() - start) * 1000


def _measure_store(root: Path, others: int, count: int,
                   checked: bool = True) -> list[float]:
    """Save `count` events one by one, as the app does (see _Saver.save)."""
    saver = _Saver(root, others, checked)
    return [saver.save() for _ in range(count)]


def _measure_interleaved(work: Path, sizes: dict[str, int], count: int
                         ) -> dict[str, dict[str, list[float]]]:
    """Per size label: "save", "plain" and "dirsync" samples, taken in turns (a save
    with no other session, one with 100, ..., then the plain rewrites beside each), so
    every figure sees the same disk and the same load on this shared machine."""
    savers = {key: _Saver(work / f"store-{others}", others) for key, others in sizes.items()}
    samples: dict[str, dict[str, list[float]]] = {
        key: {"save": [], "plain": [], "dirsync": []} for key in sizes}
    for _ in range(count):
        for key, saver in savers.items():
            samples[key]["save"].append(saver.save())
            samples[key]["plain"].append(saver.plain(False))
            samples[key]["dirsync"].append(saver.plain(True))
    return samples


def _measure_naive(path: Path, others: int, count: int) -> list[float]:
    write_naive_fixture(path, others)
    samples: list[float] = []
    with TinyDB(path) as db:  # default JSONStorage: rewrites the file in place, fsyncs
        table = db.table("sessions")
        target = Query().id == TARGET
        began = time.perf_counter()
        for i in range(count):
            if len(samples) >= NAIVE_MIN_SAMPLES and time.perf_counter() - began > NAIVE_BUDGET_S:
                break
            if i and i % RESET_EVERY == 0:
                table.update({"events": _events(EVENTS_IN_TARGET)}, target)
            event = make_event(EVENTS_IN_TARGET + i)

            def add(doc: Any, event: JsonObject = event) -> None:
                doc["events"].append(event)
                doc["redo"] = []

            start = time.perf_counter()
            table.update(add, target)
            samples.append((time.perf_counter() - start) * 1000)
    return samples


def _measure_listing(root: Path) -> tuple[float, float]:
    """(listing with a current index, listing right after index.json was lost), in ms."""
    store = TinyDBStore(root)
    store.list_sessions()
    start = time.perf_counter()
    store.list_sessions()
    current = (time.perf_counter() - start) * 1000
    (root / INDEX_FILE).unlink()
    start = time.perf_counter()
    TinyDBStore(root).list_sessions()
    rebuilt = (time.perf_counter() - start) * 1000
    return round(current, 3), round(rebuilt, 3)


def _measure_resume(root: Path, repeats: int = 5) -> float:
    write_store_fixture(root, 0, {"resume": RESUME_EVENTS})
    samples = []
    for _ in range(repeats):
        store = TinyDBStore(root)  # a fresh store: nothing cached, as after an app restart
        start = time.perf_counter()
        session = store.load("resume")
        samples.append((time.perf_counter() - start) * 1000)
        if len(session.events) != RESUME_EVENTS:
            raise RuntimeError(f"resume fixture has {len(session.events)} events")
    return statistics.median(samples)


def bench_store(tmp_root: Path, events_per_measure: int = 200,
                sizes: dict[str, int] | None = None) -> JsonObject:
    """Figures in milliseconds.

    save_ms_p95 / naive_save_ms_p95: {"0"|"100"|"1000"|"10000": p95 time to save one
    ~300-byte event into a session of ~100 events, with that many other stored sessions
    (50 events each; 5 above SCALE_OTHERS, where the naive layout is not run)}.
    plain_rewrite_ms_p95 / plain_dirsync_ms_p95: the p95 of a plain atomic rewrite of a
    file of the saved file's size in the same folder, interleaved with those saves
    (without / with the folder's fsync); save_vs_plain / save_vs_plain_dirsync: the
    store's p95 over each; save_vs_none: the store's p95 over its p95 with no other
    session (the first size).
    The store's saves are compare-and-append (each names the version it extends);
    unchecked_save_ms_p95 is the same without the check, so cas_cost_ms_p95 (their
    difference, at 0 other sessions) is what the check costs.
    list_ms: time to list every game for Home with the index current, and
    list_rebuild_ms the first listing after index.json is lost (every file read).
    resume_ms: median time to load a stored 400-event session in a fresh store.
    samples: how many saves each p95 is based on (the naive one is time-bounded).
    sessions: how many other sessions were stored behind each label. `sizes` maps labels to
    other counts (default: each of OTHER_COUNTS under its own number) so a quick test can
    keep the report's labels while storing only a few sessions.
    """
    sizes = dict(sizes) if sizes is not None else {str(n): n for n in OTHER_COUNTS}
    tmp_root = Path(tmp_root)
    tmp_root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="store-bench-", dir=tmp_root))
    figures: JsonObject = {"save_ms_p95": {}, "naive_save_ms_p95": {},
                           "plain_rewrite_ms_p95": {}, "plain_dirsync_ms_p95": {},
                           "save_vs_plain": {}, "save_vs_plain_dirsync": {},
                           "save_vs_none": {},
                           "samples": {"save": {}, "naive_save": {}}, "sessions": sizes,
                           "list_ms": {}, "list_rebuild_ms": {}}
    try:
        interleaved = _measure_interleaved(work, sizes, events_per_measure)
        none = p95(interleaved[next(iter(sizes))]["save"])
        for key, others in sizes.items():
            taken = interleaved[key]
            save = p95(taken["save"])
            figures["save_ms_p95"][key] = round(save, 3)
            figures["plain_rewrite_ms_p95"][key] = round(p95(taken["plain"]), 3)
            figures["plain_dirsync_ms_p95"][key] = round(p95(taken["dirsync"]), 3)
            figures["save_vs_plain"][key] = round(save / p95(taken["plain"]), 2)
            figures["save_vs_plain_dirsync"][key] = round(save / p95(taken["dirsync"]), 2)
            figures["save_vs_none"][key] = round(save / none, 2)
            figures["samples"]["save"][key] = len(taken["save"])
            if others <= SCALE_OTHERS:
                naive = _measure_naive(work / f"naive-{others}.json", others,
                                       events_per_measure)
                figures["naive_save_ms_p95"][key] = round(p95(naive), 3)
                figures["samples"]["naive_save"][key] = len(naive)
                (work / f"naive-{others}.json").unlink()
            figures["list_ms"][key], figures["list_rebuild_ms"][key] = _measure_listing(
                work / f"store-{others}")
            # Free the disk before the next (bigger) fixture.
            shutil.rmtree(work / f"store-{others}")
        first = next(iter(sizes.values()))
        unchecked = _measure_store(work / "unchecked", first, events_per_measure,
                                   checked=False)
        checked = _measure_store(work / "checked", first, events_per_measure)
        figures["unchecked_save_ms_p95"] = round(p95(unchecked), 3)
        figures["cas_cost_ms_p95"] = round(p95(checked) - p95(unchecked), 3)
        figures["resume_ms"] = round(_measure_resume(work / "resume"), 3)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return figures


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(bench_store(Path(tmp)), indent=2))
