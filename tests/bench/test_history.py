"""The history benchmark runs (tiny sizes) and reports every figure; never timed here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.bench.history import bench_history
from companion.cli import main


def test_bench_history_reports_every_figure(tmp_path: Path) -> None:
    figs = bench_history(tmp_path, sizes=(5, 12), repeats=1)
    for key in ("list_page_ms", "cached_page_ms", "cached_stats_ms", "scan_ms", "records_ms",
                "stats_ms", "peak_mb", "records_mb", "after_save_ms", "after_finish_ms"):
        assert set(figs[key]) == {"5", "12"}
    assert figs["skipped"] == {"5": 0, "12": 0}
    # Issue 23's paths: first load from the saved index and rebuilt, statistics from
    # nothing, after an import and an export; the first load really took the saved index.
    for size in ("5", "12"):
        paths = figs["paths"][size]
        for key in ("first_saved_ms", "first_rebuilt_ms", "stats_saved_ms",
                    "stats_rebuilt_ms", "after_import_ms", "after_import_stats_ms",
                    "export_ms", "after_export_ms"):
            assert isinstance(paths[key], float) and paths[key] > 0, key
            assert isinstance(paths[key.replace("_ms", "_cpu_ms")], float), key
        assert (paths["first_saved_how"], paths["first_rebuilt_how"]) == ("saved", "listed")


def test_history_through_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """`village-companion bench --history [--sizes N,M] [--json]` measures the history."""
    assert main(["bench", "--history", "--sizes", "3"]) == 0
    out = capsys.readouterr().out
    assert "list+page ms" in out and "after a game finished" in out
    assert "first load, saved index" in out and "after an import" in out
    assert main(["bench", "--history", "--sizes", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["sizes"] == [4]


def test_bench_history_flag_runs_the_history_benchmark(monkeypatch: pytest.MonkeyPatch) -> None:
    """`village-companion bench --history [--json]` hands over to the history benchmark
    at its own sizes; `--home` adds Home on the live app."""
    from companion.bench import main as bench_main

    calls: list[tuple[bool, tuple[int, ...] | None, bool]] = []

    def fake(as_json: bool = False, sizes: tuple[int, ...] | None = None,
             home: bool = False) -> int:
        calls.append((as_json, sizes, home))
        return 0

    monkeypatch.setattr(bench_main, "run_history_bench", fake)
    assert main(["bench", "--history", "--json"]) == 0
    assert main(["bench", "--history", "--sizes", "10,20", "--home"]) == 0
    assert calls == [(True, None, False), (False, (10, 20), True)]


@pytest.mark.parametrize("sizes", ["1x5", "", "0", "ten"])
def test_bad_history_sizes_name_the_option(sizes: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--history", "--sizes", sizes]) == 2
    assert "--sizes: with --history, game counts like 100,1000" in capsys.readouterr().err
