"""The start-up benchmark runs both servers once and leaves no process behind."""

from __future__ import annotations

import psutil
import pytest

from companion.bench.startup import measure_startup


def test_measure_startup_once_and_cleans_up() -> None:
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    result = measure_startup(runs=1)
    assert set(result) == {"app_ms", "hello_ms", "ratio"}
    assert result["app_ms"] > 0 and result["hello_ms"] > 0
    assert result["ratio"] == pytest.approx(result["app_ms"] / result["hello_ms"], rel=0.02)
    left = {p.pid for p in psutil.Process().children(recursive=True)} - before
    assert not left, f"processes left running: {left}"


def test_measure_startup_rejects_zero_runs() -> None:
    with pytest.raises(ValueError):
        measure_startup(runs=0)
