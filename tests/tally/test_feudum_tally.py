"""Feudum tally reducer: fields, journey, decrees, progress die, tiles, dawns, sheet."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.feudum.tally import dawning_epoch, roll_needed
from companion.tally.errors import EditRejected

from .helpers import cli_json, new


def dawn(epoch: int, *rows: dict[str, Any]) -> dict[str, Any]:
    return {"type": "dawn", "epoch": epoch, "players": list(rows)}


def test_fields_are_checked_against_the_printed_limits() -> None:
    s = new("feudum", "Ann", "Bo")
    assert s.state.players[0].shillings == 7
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "set", "player": 0, "field": "sulfur", "value": 4}))
    assert caught.value.lines == ["sulfur: must be at most 3 (the wine cask holds 3 sulfur), "
                                  "not 4"]
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "set", "player": 0, "field": "fief", "value": 13}))
    assert caught.value.fields == ["fief"]
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "set", "player": 0, "field": "color", "value": 1}))
    assert caught.value.fields == ["field"]
    s.apply(s.read_edit({"type": "adjust", "player": 0, "field": "vp", "delta": 4}))
    assert s.state.players[0].vp == 4


def test_journey_and_decrees() -> None:
    s = new("feudum", "Ann", "Bo")
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "journey", "player": 0, "stage": 4, "position": 2}))
    assert caught.value.fields == ["position"]
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "journey", "player": 0, "stage": 2, "position": 0}))
    assert caught.value.fields == ["position"]
    s.apply(s.read_edit({"type": "journey", "player": 0, "stage": 2, "position": 3}))
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "decrees", "player": 0, "values": [1, 2, 3, 4]}))
    assert caught.value.fields == ["values"]
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "decrees", "player": 0, "values": [1, -2]}))
    assert caught.value.fields == ["values[1]"]
    s.apply(s.read_edit({"type": "decrees", "player": 0, "values": [5]}))
    assert s.state.players[0].decrees == [5]


def test_rolls_and_tiles_trigger_the_next_dawn() -> None:
    s = new("feudum", "Ann", "Bo")
    assert roll_needed(s.state)
    for face in (1, 2, 3):  # ocean, island, forest lose their epoch-I tiles
        s.apply(s.read_edit({"type": "roll", "source": "manual", "face": face}))
    assert dawning_epoch(s.state) is None
    s.apply(s.read_edit({"type": "roll", "source": "manual",
                         "face": 1}))  # ocean now shows II: reroll
    assert s.state.rolls[-1].reroll and s.state.stacks["ocean"] == [2, 3, 4]
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "take_tile", "region": "ocean"}))
    assert caught.value.fields == ["region"]
    s.apply(s.read_edit({"type": "take_tile", "region": "desert"}))
    assert dawning_epoch(s.state) == 2
    with pytest.raises(EditRejected):
        s.apply(s.read_edit({"type": "take_tile", "region": "atlantis"}))


def test_dawn_scores_guilds_outlands_regions_and_disloyalty() -> None:
    s = new("feudum", "Ann", "Bo", "Cy", "Di")
    s.apply(s.read_edit({"type": "set", "player": 1, "field": "vp", "value": 2}))
    s.apply(s.read_edit(dawn(
        2,
        {"player": 0, "guilds": {"knights": "master", "nobles": "apprentice"},
         "outlands_with_resources": 1, "outlands_empty": 1, "active_regions": 3},
        {"player": 1, "guilds": {"knights": "expert"}, "vassal": True},
        {"player": 2}, {"player": 3, "vassal": True, "service_discs": 1})))
    lines = s.state.dawns[0].lines
    assert [line.total for line in lines] == [5 + 1 + 6 + 5, 3 - 3, 0, 0]
    assert [p.vp for p in s.state.players] == [17, 2, 0, 0]
    assert s.state.epoch == 2 and s.state.players[3].service_discs == 1
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit(dawn(2, *({"player": i} for i in range(4)))))
    assert caught.value.fields == ["epoch"]


def test_dawn_refusals_name_the_row() -> None:
    s = new("feudum", "Ann", "Bo", "Cy")
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit(dawn(2, {"player": 0, "guilds": {"monks": "master"}},
                                 {"player": 1, "guilds": {"monks": "master"}}, {"player": 2})))
    assert caught.value.lines == ["players[1].guilds.monks: Ann is already master of the monks"]
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit(dawn(2, {"player": 0},
                                 {"player": 1, "guilds": {"monks": "apprentice"}}, {"player": 2})))
    assert caught.value.lines == [
        "players[1].guilds.monks: there is no apprentice with fewer than 4 players"]
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit(dawn(2, {"player": 0}, {"player": 1},
                                 {"player": 2, "active_regions": 7})))
    assert caught.value.lines == [
        "players[2].active_regions: must be at most 6 (the map has 6 regions), not 7"]
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit(dawn(2, {"player": 0, "vassal": True, "service_discs": 4},
                                 {"player": 1}, {"player": 2})))
    assert caught.value.fields == ["players[0].service_discs"]
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit(dawn(2, {"player": 0}, {"player": 1})))
    assert caught.value.fields == ["players"]
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit(dawn(2, {"player": 0, "guilds": {"monks": "boss"}},
                                 {"player": 1}, {"player": 2})))
    assert caught.value.fields[0].startswith("players[0].guilds")


def test_seed_disloyalty_example_through_the_tally() -> None:
    # Seed L450: a vassal who never serves loses 3 at the dawn of epoch 2, then 4 and 3 more
    # at epoch 4 (10 so far), then 12 at the end (epoch 5): 22 in all.
    s = new("feudum", "Yellow", "Bo")
    s.apply(s.read_edit({"type": "set", "player": 0, "field": "vp", "value": 30}))
    s.apply(s.read_edit({"type": "set", "player": 0, "field": "fief", "value": 1}))
    for epoch in (2, 3, 4, 5):
        s.apply(s.read_edit(dawn(epoch, {"player": 0, "vassal": True}, {"player": 1})))
    assert [d.lines[0].disloyalty for d in s.state.dawns] == [-3, 0, -7, -12]
    assert [d.lines[0].total for d in s.state.dawns] == [-3, 0, -7, -12]
    assert 30 - s.state.players[0].vp == 22


def test_penalty_takes_vp_below_zero(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    # The seed sets no floor on the VP track (L446-L450): a low-VP vassal goes negative.
    s = new("feudum", "Ann", "Bo")
    s.apply(s.read_edit({"type": "set", "player": 0, "field": "vp", "value": 1}))
    s.apply(s.read_edit(dawn(2, {"player": 0, "vassal": True}, {"player": 1})))
    assert s.state.players[0].vp == -2 and s.state.dawns[0].lines[0].total == -3
    s.apply(s.read_edit({"type": "adjust", "player": 0, "field": "vp", "delta": -1}))
    assert s.state.players[0].vp == -3
    s.apply(s.read_edit({"type": "set", "player": 1, "field": "vp", "value": -4}))
    assert s.state.players[1].vp == -4
    sheet = s.sheet()
    assert [p.categories["vp"] for p in sheet.players] == [-3, -4]
    # + 7 starting shillings // 3 = 2 each
    assert [p.total for p in sheet.players] == [-1, -2] and sheet.winners == ["Ann"]
    assert sheet.to_json() == cli_json(s.rules.score_payload(s.state), tmp_path, capsys)


def test_sheet_matches_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = new("feudum", "Ann", "Bo", "Cy")
    figures = [
        {"vp": 80, "farm": 3, "outpost": 1, "fief": 1, "shillings": 7, "sulfur": 2},
        {"vp": 90, "town": 1, "shillings": 2},
        {"vp": 88, "farm": 1, "shillings": 9, "sulfur": 3},
    ]
    for player, fields in enumerate(figures):
        for field, value in fields.items():
            s.apply(s.read_edit({"type": "set", "player": player, "field": field, "value": value}))
    s.apply(s.read_edit({"type": "journey", "player": 0, "stage": 2, "position": 3}))
    s.apply(s.read_edit({"type": "journey", "player": 1, "stage": 4, "position": 1}))
    s.apply(s.read_edit({"type": "journey", "player": 2, "stage": 2, "position": 3}))
    s.apply(s.read_edit({"type": "decrees", "player": 0, "values": [5]}))
    payload = s.rules.score_payload(s.state)
    assert s.sheet().to_json() == cli_json(payload, tmp_path, capsys)
    assert s.sheet().players[0].categories["journey"] == 9  # tied leaders both score high
