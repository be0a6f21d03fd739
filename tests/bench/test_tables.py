"""The table-mode benchmark: its pure parts, the CLI wiring, and a tiny live run (one
table, two raw protocol clients on a server bound to 127.0.0.1) that must yield a row of
positive figures. Nothing is timed."""

from __future__ import annotations

import argparse
import json

import pytest

from companion.bench import tables as table_bench
from companion.bench.tables import (
    ACTION_KINDS,
    parse_sizes,
    rounds_for,
    size_figures,
    table_lines,
)
from companion.cli import build_parser


def test_parse_sizes() -> None:
    assert parse_sizes("1x5,10x5, 50X4") == [(1, 5), (10, 5), (50, 4)]
    for bad in ("", "5", "0x3", "2x0", "axb", "2x3x4"):
        with pytest.raises(ValueError):
            parse_sizes(bad)


def test_rounds_cover_the_actions_asked() -> None:
    assert rounds_for(120, 1) == 30  # four actions a round
    assert rounds_for(120, 10) == 3
    assert rounds_for(120, 50) == 1  # every table plays at least one round
    assert rounds_for(8, 1) == 2


def test_size_figures_and_printed_table() -> None:
    row = size_figures(2, 3, {"cube take": [10.0, 30.0], "end turn": [20.0], "undo": [40.0]},
                       lost=1, rss_before_kb=100 * 1024, rss_after_kb=110 * 1024,
                       seconds=2.0, server_cpu_s=0.2, load=(1.25, 2.0))
    assert (row["n"], row["p50"], row["max"], row["lost"]) == (4, 25.0, 40.0, 1)
    assert row["rss_per_table_mb"] == 5.0 and row["actions_per_s"] == 2.0
    assert row["server_cpu_ms_per_action"] == 50.0
    assert row["kinds"]["end turn"] == {"n": 1, "p50": 20.0, "p95": 20.0, "max": 20.0}
    lines = table_lines({"sizes": [row], "think_s": 2.0, "clients_as": "host windows"})
    assert lines[0].split()[:4] == ["N", "tables", "M", "clients"]
    assert lines[2].split() == ["2", "3", "4", "25.0", "38.5", "40.0", "1", "5.00", "2.0",
                                "50.0", "1.2-2.0"]


def test_cli_wires_the_options(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, object] = {}

    def fake(args: argparse.Namespace) -> int:
        seen.update(sizes=args.sizes, actions=args.actions, think=args.think)
        return 0

    monkeypatch.setattr(table_bench, "run_cli", fake)
    args = build_parser().parse_args(["bench", "--tables", "--sizes", "2x3", "--actions",
                                      "8", "--think", "0.5"])
    assert args.func(args) == 0
    assert seen == {"sizes": "2x3", "actions": 8, "think": 0.5}


def test_bad_sizes_are_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    args = build_parser().parse_args(["bench", "--tables", "--sizes", "3"])
    assert args.func(args) == 2
    assert "TABLESxCLIENTS" in capsys.readouterr().err


def test_a_tiny_live_run_yields_positive_figures(capsys: pytest.CaptureFixture[str]) -> None:
    """One table, two clients, two rounds (eight actions) against the real server."""
    args = build_parser().parse_args(["bench", "--tables", "--sizes", "1x2", "--actions",
                                      "8", "--think", "0.1", "--json"])
    assert args.func(args) == 0
    figs = json.loads(capsys.readouterr().out)
    (row,) = figs["sizes"]
    assert (row["tables"], row["clients"], row["n"], row["lost"]) == (1, 2, 8, 0)
    assert 0 < row["p50"] <= row["p95"] <= row["max"]
    assert all(row["kinds"][kind]["n"] > 0 for kind in ACTION_KINDS)
    assert row["rss_after_mb"] > 0 and row["rss_before_mb"] > 0
    assert row["server_cpu_ms_per_action"] > 0
    assert "host windows" in figs["clients_as"]
