"""The history benchmark runs (tiny sizes) and reports every figure; never timed here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.history.bench import bench_history, main


def test_bench_history_reports_every_figure(tmp_path: Path) -> None:
    figs = bench_history(tmp_path, sizes=(5, 12), repeats=1)
    for key in ("list_page_ms", "records_ms", "stats_ms", "peak_mb", "records_mb"):
        assert set(figs[key]) == {"5", "12"}
    assert figs["skipped"] == {"5": 0, "12": 0}


def test_module_entry_point(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--sizes", "3"]) == 0
    assert "list+page ms" in capsys.readouterr().out
    assert main(["--sizes", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["sizes"] == [4]
