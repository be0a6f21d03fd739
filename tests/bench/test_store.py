"""The store benchmark runs and reports its figures (printed; no timing assertions)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.bench import store as bench


def test_bench_store_smoke(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Small sizes keep the test quick; `python -m companion.bench.store` runs the real one.
    monkeypatch.setattr(bench, "OTHER_COUNTS", (0, 20))
    monkeypatch.setattr(bench, "NAIVE_BUDGET_S", 0.2)
    figures = bench.bench_store(tmp_path, events_per_measure=30)
    print("\n" + json.dumps(figures, indent=2))
    for key in ("save_ms_p95", "naive_save_ms_p95"):
        assert set(figures[key]) == {"0", "20"}
        assert all(isinstance(v, float) and v > 0 for v in figures[key].values())
    assert figures["samples"]["save"] == {"0": 30, "20": 30}
    # The same run's plain atomic rewrite of a file of the same size, and the ratios.
    for key in ("plain_rewrite_ms_p95", "plain_dirsync_ms_p95", "save_vs_plain",
                "save_vs_plain_dirsync", "save_vs_none"):
        assert set(figures[key]) == {"0", "20"}
        assert all(isinstance(v, float) and v > 0 for v in figures[key].values()), key
    assert figures["save_vs_none"]["0"] == 1.0
    assert isinstance(figures["resume_ms"], float) and figures["resume_ms"] > 0
    assert list(tmp_path.iterdir()) == []  # cleaned up after itself


def test_above_scale_only_the_store_is_measured(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Past SCALE_OTHERS (10,000 in the real run) the naive layout is left out and the
    other sessions are smaller; the store and the plain rewrite are still measured."""
    monkeypatch.setattr(bench, "SCALE_OTHERS", 3)
    figures = bench.bench_store(tmp_path, events_per_measure=6, sizes={"0": 0, "10000": 5})
    assert set(figures["save_ms_p95"]) == set(figures["plain_rewrite_ms_p95"]) == {
        "0", "10000"}
    assert set(figures["naive_save_ms_p95"]) == {"0"}


def test_plain_rewrite_replaces_the_file(tmp_path: Path) -> None:
    target = tmp_path / "f.bin"
    target.write_bytes(b"old")
    bench.plain_rewrite(target, b"new bytes", sync_folder=True)
    assert target.read_bytes() == b"new bytes" and sorted(tmp_path.iterdir()) == [target]


def test_event_is_realistic_size() -> None:
    assert 250 <= len(json.dumps(bench.make_event(123))) <= 350


def test_p95_is_nearest_rank() -> None:
    assert bench.p95([float(i) for i in range(1, 101)]) == 95.0
    assert bench.p95([1.0, 2.0, 50.0]) == 50.0
