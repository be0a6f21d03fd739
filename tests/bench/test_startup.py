"""The start-up benchmark runs both servers once and leaves no process behind."""

from __future__ import annotations

import psutil
import pytest

from companion.bench.startup import measure_startup


def test_measure_startup_once_and_cleans_up() -> None:
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    result = measure_startup(runs=1)
    assert set(result) == {"app_ms", "hello_ms", "ratio", "load"}
    app_ms, hello_ms, load = result["app_ms"], result["hello_ms"], result["load"]
    assert isinstance(app_ms, float) and isinstance(hello_ms, float)
    assert app_ms > 0 and hello_ms > 0
    assert result["ratio"] == pytest.approx(app_ms / hello_ms, rel=0.02)
    assert isinstance(load, list) and len(load) == 3 and min(load) >= 0
    left = {p.pid for p in psutil.Process().children(recursive=True)} - before
    assert not left, f"processes left running: {left}"


def test_measure_startup_rejects_zero_runs() -> None:
    with pytest.raises(ValueError):
        measure_startup(runs=0)
