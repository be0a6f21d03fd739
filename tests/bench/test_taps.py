"""The tap benchmark's pure parts (percentiles, the figures, the printed table), the CLI
wiring, and (e2e) a two-round run that yields numbers for every kind. Nothing is timed."""

from __future__ import annotations

import argparse
from pathlib import Path

import psutil
import pytest

from companion.bench import taps as tap_bench
from companion.bench.serve import environment
from companion.bench.taps import (
    APP_KINDS,
    BARE,
    figures,
    percentile,
    summarise,
    table_lines,
)
from companion.cli import build_parser


def test_percentile_interpolates_between_ranks() -> None:
    samples = [40.0, 10.0, 30.0, 20.0]  # order does not matter
    assert percentile(samples, 0.0) == 10.0
    assert percentile(samples, 1.0) == 40.0
    assert percentile(samples, 0.5) == pytest.approx(25.0)
    assert percentile(samples, 0.95) == pytest.approx(38.5)
    assert percentile([7.0], 0.95) == 7.0


def test_percentile_refuses_nothing_and_bad_q() -> None:
    with pytest.raises(ValueError):
        percentile([], 0.5)
    with pytest.raises(ValueError):
        percentile([1.0], 1.5)


def test_summarise() -> None:
    assert summarise([]) == {"n": 0, "p50": None, "p95": None}
    fig = summarise([float(ms) for ms in range(1, 101)])  # 1..100 ms
    assert fig == {"n": 100, "p50": 50.5, "p95": 95.0}


def _figs() -> dict[str, object]:
    app = {"cube tap": [100.0, 200.0, 300.0], "end turn": [150.0], "undo": [120.0, 180.0]}
    bare = {"cube tap": [30.0, 40.0, 50.0], "end turn": [50.0], "undo": [20.0, 40.0]}
    return figures(app, bare, {"undo": 1, BARE: 2}, rounds=3)


def test_figures_pair_each_kind_with_its_bare_taps() -> None:
    figs = _figs()
    kinds = figs["kinds"]
    assert isinstance(kinds, dict) and list(kinds) == list(APP_KINDS)
    assert kinds["cube tap"] == {"app": {"n": 3, "p50": 200.0, "p95": 290.0},
                                 "bare": {"n": 3, "p50": 40.0, "p95": 49.0},
                                 "p50_ratio": 5.0, "lost": 0}
    assert kinds["undo"]["p50_ratio"] == 5.0 and kinds["undo"]["lost"] == 1
    # Every bare tap pooled: 30 40 50 50 20 40.
    assert figs[BARE] == {"n": 6, "p50": 40.0, "p95": 50.0, "lost": 2}
    assert figs["rounds"] == 3


def test_figures_with_a_kind_never_measured() -> None:
    figs = figures({"cube tap": [100.0]}, {"cube tap": [25.0]}, {}, rounds=1)
    assert figs["kinds"]["end turn"] == {"app": {"n": 0, "p50": None, "p95": None},
                                         "bare": {"n": 0, "p50": None, "p95": None},
                                         "p50_ratio": None, "lost": 0}
    lines = table_lines(figs)
    end_turn = next(line for line in lines if line.startswith("end turn"))
    assert end_turn.split() == ["end", "turn", "-", "-", "-", "-", "-", "0", "0"]


def test_table_prints_app_and_bare_side_by_side() -> None:
    lines = table_lines(_figs())
    assert lines[0].split() == ["tap", "to", "frame", "(ms)", "app", "p50", "app", "p95",
                                "bare", "p50", "bare", "p95", "x", "bare", "n", "lost"]
    assert set(lines[1]) == {"-", " "}
    rows = {line[:18].strip(): line[18:].split() for line in lines[2:7]}
    assert rows == {
        "cube tap": ["200.0", "290.0", "40.0", "49.0", "5.00", "3", "0"],
        "end turn": ["150.0", "150.0", "50.0", "50.0", "3.00", "1", "0"],
        "undo": ["150.0", "177.0", "30.0", "39.0", "5.00", "2", "1"],
        "counter": ["-", "-", "-", "-", "-", "0", "0"],
        f"{BARE} (all)": ["40.0", "50.0", "6", "2"],
    }
    assert len({len(line) for line in lines[:7]}) == 1  # columns line up
    assert lines[7].startswith("(3 rounds; headless Chromium 360x800")
    assert "input touch (a touch, as a phone)" in lines[8]


def test_cli_wires_taps_and_rounds(monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    args = build_parser().parse_args(["bench", "--taps", "--rounds", "4", "--json"])
    assert args.taps and args.rounds == 4 and args.json
    assert build_parser().parse_args(["bench"]).rounds == 30
    seen: list[int] = []

    def fake_measure(rounds: int, **_kw: object) -> dict[str, object]:
        seen.append(rounds)
        return figures({"cube tap": [1.0]}, {"cube tap": [1.0]}, {}, rounds)

    monkeypatch.setattr(tap_bench, "measure_taps", fake_measure)
    assert args.func(args) == 0
    assert seen == [4]
    assert '"cube tap"' in capsys.readouterr().out


def test_cli_refuses_zero_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(taps=True, rounds=0, json=False)
    from companion.bench.main import run_bench

    assert run_bench(args) == 2
    assert "rounds must be at least 1" in capsys.readouterr().err


# A benchmark in a real Chromium (the browser tests' job, and a long one): out of the CI
# run, behind `slow` (VILLAGE_SLOW=1); `village-companion bench --taps` runs it for figures.
@pytest.mark.slow
@pytest.mark.e2e
def test_two_rounds_give_numbers_for_every_kind() -> None:
    if not tap_bench.CHROMIUM.exists():
        pytest.skip(f"Debian chromium not installed at {tap_bench.CHROMIUM}")
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    figs = tap_bench.measure_taps(2, chromium=Path(tap_bench.CHROMIUM))
    for kind in APP_KINDS:
        fig = figs["kinds"][kind]
        assert fig["app"]["n"] >= 2 and fig["app"]["p50"] > 0, (kind, fig)
        assert fig["bare"]["n"] >= 2 and fig["bare"]["p50"] > 0, (kind, fig)
    # 2 rounds × (cube tap, end turn, 2 undos, 2 counter taps), each + a bare tap
    assert figs[BARE]["n"] == 12
    left = {p.pid for p in psutil.Process().children(recursive=True)} - before
    assert not left, f"processes left running: {left}"


def test_renderer_is_chosen_and_printed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bench measures the renderer the app serves unless told otherwise, says which
    one the page loaded, and refuses one Flet does not know."""
    args = build_parser().parse_args(["bench", "--taps"])
    assert args.renderer == "auto"
    assert build_parser().parse_args(["bench", "--taps", "--renderer", "canvaskit"]
                                     ).renderer == "canvaskit"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["bench", "--taps", "--renderer", "html"])
    assert environment("skwasm")["FLET_WEB_RENDERER"] == "skwasm"
    figs = figures({"cube tap": [100.0]}, {"cube tap": [25.0]}, {}, rounds=1,
                   renderer="auto", loaded="skwasm")
    assert "renderer auto (loaded: skwasm)" in "\n".join(table_lines(figs))
    with pytest.raises(ValueError, match="renderer must be one of"):
        tap_bench.measure_taps(1, renderer="html")
    seen: list[str] = []

    def fake_measure(rounds: int, **kw: object) -> dict[str, object]:
        seen.append(str(kw["renderer"]))
        return figures({"cube tap": [1.0]}, {"cube tap": [1.0]}, {}, rounds)

    monkeypatch.setattr(tap_bench, "measure_taps", fake_measure)
    args = build_parser().parse_args(["bench", "--taps", "--renderer", "skwasm", "--json"])
    assert args.func(args) == 0
    assert seen == ["skwasm"]


def test_input_is_a_phones_touch_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--input` picks how both apps are tapped: touch (the default, a phone's finger) or
    mouse (a desktop click); the figures and the table say which; anything else is
    refused."""
    assert build_parser().parse_args(["bench", "--taps"]).input == "touch"
    assert build_parser().parse_args(["bench", "--taps", "--input", "mouse"]).input == "mouse"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["bench", "--taps", "--input", "pen"])
    with pytest.raises(ValueError, match="input must be one of"):
        tap_bench.measure_taps(1, tap_input="pen")
    figs = figures({"cube tap": [1.0]}, {"cube tap": [1.0]}, {}, 1, tap_input="mouse")
    assert figs["input"] == "mouse"
    assert "input mouse (a mouse click, as a desktop)" in "\n".join(table_lines(figs))
    seen: list[str] = []

    def fake_measure(rounds: int, **kw: object) -> dict[str, object]:
        seen.append(str(kw["tap_input"]))
        return figures({"cube tap": [1.0]}, {"cube tap": [1.0]}, {}, rounds)

    monkeypatch.setattr(tap_bench, "measure_taps", fake_measure)
    args = build_parser().parse_args(["bench", "--taps", "--input", "mouse", "--json"])
    assert args.func(args) == 0
    assert seen == ["mouse"]


class _Pointer:
    def __init__(self, name: str, calls: list[tuple[str, float, float]]) -> None:
        self.name, self.calls = name, calls

    def tap(self, x: float, y: float) -> None:
        self.calls.append((f"{self.name}.tap", x, y))

    def click(self, x: float, y: float) -> None:
        self.calls.append((f"{self.name}.click", x, y))


class _Page:
    """What Tapper.tap asks of a Playwright page: the probe's answers and the pointer."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, float, float]] = []
        self.touchscreen = _Pointer("touchscreen", self.calls)
        self.mouse = _Pointer("mouse", self.calls)

    def wait_for_function(self, *_a: object, **_kw: object) -> None:
        return None

    def evaluate(self, script: str, *_a: object) -> object:
        if script == tap_bench._RESULT_JS:
            return [100.0, 130.0, 142.5]  # pointerdown, change seen, the frame after
        return "text"


class _Box:
    def __init__(self) -> None:
        self.first = self

    def bounding_box(self) -> dict[str, float]:
        return {"x": 100.0, "y": 200.0, "width": 48.0, "height": 48.0}


def test_a_touch_tapper_taps_with_the_touchscreen_and_a_mouse_one_clicks() -> None:
    for touch, pointer in ((True, "touchscreen.tap"), (False, "mouse.click")):
        page = _Page()
        tapper = tap_bench.Tapper(page, touch)
        tapper.settle = lambda: None  # type: ignore[method-assign]
        assert tapper.tap(_Box(), "table-turn") == 42.5  # the frame after - pointerdown
        assert page.calls == [(pointer, 124.0, 224.0)]  # the target's centre
