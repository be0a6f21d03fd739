"""Village final scoring: the score-file contract and the tracked-state sheet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.core.validation import InputProblems
from companion.village.scoring import score_payload

CHRIS = {"name": "Chris", "prestige": 23, "cities": 4, "church": [1, 0, 2, 1],
         "council": [0, 1, 1, 0], "customers": [6, 4, 5], "chronicle": 4, "coins": 2,
         "grain": 3, "living": 5, "youngest": 4}


def test_issue_example_scores_79() -> None:
    sheet = score_payload({"game": "village", "players": [CHRIS, {**CHRIS, "name": "Julie",
                                                                  "prestige": 10}]})
    chris = sheet.players[0]
    assert chris.categories == {"prestige": 23, "travel": 10, "church": 16, "customers": 15,
                                "chronicle": 7, "council": 6, "coins": 2}
    assert chris.total == 79 and chris.rank == 1 and chris.achievement is None
    assert sheet.winners == ["Chris"]


@pytest.mark.parametrize(("chronicle", "points"), [(0, 0), (2, 0), (3, 4), (4, 7), (5, 12),
                                                   (9, 12)])
def test_chronicle_table(chronicle: int, points: int) -> None:
    sheet = score_payload({"players": [{**CHRIS, "chronicle": chronicle}, {"name": "B"}]})
    assert sheet.players[0].categories["chronicle"] == points


def test_big_box_tie_breaks_grain_then_living() -> None:
    base = {"prestige": 10}
    players = [{"name": "A", **base, "grain": 2, "living": 9},
               {"name": "B", **base, "grain": 3, "living": 1},
               {"name": "C", **base, "grain": 3, "living": 4},
               {"name": "D", **base, "grain": 3, "living": 4}]
    sheet = score_payload({"players": players})
    assert [p.rank for p in sheet.players] == [4, 3, 1, 1]
    assert sheet.winners == ["C", "D"]


def test_2011_tie_breaks_customers_then_youngest() -> None:
    players = [{"name": "A", "customers": [5], "youngest": 4},
               {"name": "B", "customers": [2, 3], "youngest": 2},
               {"name": "C", "customers": [1, 4], "youngest": 3}]
    sheet = score_payload({"edition": "2011", "players": players})
    assert [p.rank for p in sheet.players] == [3, 2, 1]


@pytest.mark.parametrize(("total_prestige", "expansions", "expected"), [
    (39, [], "apprentice"), (40, [], "traveller"), (79, [], "genius"), (80, [], "sage"),
    (89, ["inn"], "genius"), (90, ["inn"], "sage"), (94, ["marriage"], "genius"),
    (95, ["marriage"], "sage"), (109, ["inn", "port", "marriage"], "genius"),
    (110, ["inn", "port", "marriage"], "sage"), (44, ["port"], "apprentice"),
])
def test_solo_achievements_with_expansion_raises(total_prestige: int, expansions: list[str],
                                                  expected: str) -> None:
    sheet = score_payload({"solo": True, "expansions": expansions,
                           "players": [{"name": "Me", "prestige": total_prestige}]})
    assert sheet.players[0].achievement == expected


def test_invalid_input_names_each_field() -> None:
    with pytest.raises(InputProblems) as err:
        score_payload({"players": [{"name": "A", "cities": 7, "coins": -1, "church": [1, 2]},
                                   {"name": "B", "grain": "3"}]})
    lines = err.value.lines
    assert "players[0].cities: must be between 0 and 6" in lines
    assert "players[0].coins: must be at least 0" in lines
    assert any(line.startswith("players[0].church:") for line in lines)
    assert any(line.startswith("players[1].grain:") for line in lines)


def test_every_problem_is_reported_in_one_run() -> None:
    """Shape, roster and plausibility problems come out together, one line per field,
    in player order; counts no family can reach are refused."""
    with pytest.raises(InputProblems) as err:
        score_payload({"game": "village", "players": [
            {"name": "", "cities": 7},
            {"name": "Bo", "church": [5, 5, 5, 5], "living": 13},
            {"name": "Cy", "customers": [1] * 25},
        ]})
    assert err.value.lines == [
        "players[0].cities: must be between 0 and 6",
        "players[0].name: must not be empty",
        "players[1].church: 20 members, but a family has at most 12",
        "players[1].living: 13 members, but a family has at most 12",
        "players[2].customers: at most 24 customer tiles, not 25",
    ]


def test_cli_json_and_exit_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"game": "village", "solo": True, "players": [CHRIS]}))
    assert main(["score", str(good), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["players"][0]["total"] == 79 and out["players"][0]["achievement"] == "genius"
    assert out["winners"] == ["Chris"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "village", "players": [{"name": "A", "cities": 9}]}))
    assert main(["score", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "players[0].cities: must be between 0 and 6" in err and "Traceback" not in err
    broken = tmp_path / "broken.json"
    broken.write_text("{nope")
    assert main(["score", str(broken)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
