"""`village-companion simulate-karla`: output shape (text and JSON) and determinism."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.cli import main

TIMING = ("seconds", "games_per_second")


def _run_json(capsys: pytest.CaptureFixture[str], games: int, seed: int) -> dict[str, Any]:
    code = main(["simulate-karla", "--games", str(games), "--seed", str(seed), "--json"])
    assert code == 0
    return json.loads(capsys.readouterr().out)


def test_json_output_shape(capsys: pytest.CaptureFixture[str]) -> None:
    games = 8
    rep = _run_json(capsys, games, 3)
    assert rep["games"] == games and rep["seed"] == 3
    assert rep["finished"] == games and rep["errors"] == 0 and rep["first_error"] is None
    assert rep["steps"] > 50 * games
    # Variants and policies alternate: 8 games cover every pair twice.
    assert rep["variants"] == {"standard": 4, "d4": 4}
    assert rep["policies"] == {"ask": 4, "auto": 4}
    rounds = rep["rounds"]
    assert sum(rounds["histogram"].values()) == games
    assert rounds["min"] <= rounds["mean"] <= rounds["max"]
    assert all(k.isdigit() and int(k) >= 1 for k in rounds["histogram"])
    played = sum(int(k) * n for k, n in rounds["histogram"].items())
    kd = rep["karla_deaths_per_round"]
    assert sum(kd["histogram"].values()) == played  # every round of every game once
    assert set(kd["by_round"]) == {str(r) for r in range(1, rounds["max"] + 1)}
    kg = rep["karla_deaths_per_game"]
    total_deaths = sum(int(k) * n for k, n in kd["histogram"].items())
    assert kg["mean"] == pytest.approx(total_deaths / games, abs=1e-3)
    assert 0 <= kg["min"] <= kg["max"] <= 11  # Karla has 11 members
    end = rep["end"]
    assert sum(end["trigger"].values()) == games and set(end["trigger"]) <= {"you", "karla"}
    assert sum(end["cause"].values()) == games
    assert set(end["cause"]) <= {"chronicle", "graveyard"}
    assert sum(end["detail"].values()) == games
    score = rep["score"]
    assert sum(score["histogram"].values()) == games
    assert sum(score["achievements"].values()) == games
    assert score["min"] <= score["median"] <= score["max"]
    for bucket in score["histogram"]:
        low, high = map(int, bucket.split("-"))
        assert high - low == 9 and low % 10 == 0
    assert rep["seconds"] > 0 and rep["games_per_second"] > 0


def test_same_seed_same_figures(capsys: pytest.CaptureFixture[str]) -> None:
    first = _run_json(capsys, 4, 11)
    second = _run_json(capsys, 4, 11)
    for key in TIMING:
        first.pop(key)
        second.pop(key)
    assert first == second
    other = _run_json(capsys, 4, 12)
    assert other["steps"] != first["steps"] or other["score"] != first["score"]


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate-karla", "--games", "4", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("simulate-karla: 4 games, seed 5 (4 finished, 0 failed)")
    for heading in ("Rounds per game", "Karla's deaths per round", "How the game ended",
                    "Random player's final score", "achievements:", "Throughput:"):
        assert heading in out, heading
    assert "games/s" in out and "filled the last" in out


def test_no_games_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate-karla", "--games", "0"]) == 2
    assert "--games" in capsys.readouterr().err
