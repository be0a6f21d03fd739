"""Final scoring from tracked state (rulebook 最終計分): each category per the table,
logged overrides on top, Big Box tie-breaks (grain, then living members)."""

from __future__ import annotations

import pytest

from companion.village.components import load_components
from companion.village.scoring import sheet_from_state
from companion.village.session import VillageSession

from .conftest import (
    TRACK,
    end_turn,
    fill_all_chronicle,
    give,
    put,
    refused,
    set_board,
    started,
    take,
)

COMP = load_components("big-box")


def scores(s: VillageSession) -> dict[str, dict[str, int]]:
    sheet = sheet_from_state(s.state, s.comp)
    return {p.name: {**p.categories, "total": p.total or 0} for p in sheet.players}


def blank(n: int = 2) -> VillageSession:
    s = started(n)
    give(s, 0, coins=0)
    give(s, 1, coins=0)
    return s


def at_scoring() -> VillageSession:
    """A 2-player game played to final scoring: Chris fills the last chronicle slot with
    the board's last cube taken; Julie takes a free final action; the final mass."""
    s = started(2)
    set_board(s, {"harvest": ["brown"]})
    fill_all_chronicle(s, {"farm": 1})
    give(s, 0, time=TRACK - 1)
    take(s, "harvest", "brown")
    s.execute({"type": "spend_time", "player": 0, "amount": 1})
    end_turn(s)
    s.execute({"type": "choose_death", "member": "blue-1a"})
    s.execute({"type": "free_action"})
    end_turn(s)
    s.enter_draw({"items": ["monk"] * 4})
    assert s.state.phase == "scoring"
    return s


@pytest.mark.parametrize(("cities", "points"), [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10),
                                                (5, 14), (6, 18)])
def test_travel(cities: int, points: int) -> None:
    s = blank()
    s.state.players[0].cities = list(range(1, cities + 1))  # position
    assert scores(s)["Chris"]["travel"] == points


def test_church_per_member_by_level() -> None:
    s = blank()
    for mid, level in (("blue-1a", 1), ("blue-1b", 2), ("blue-1c", 3), ("blue-1d", 4),
                       ("blue-2a", 4)):
        put(s, mid, f"church:{level}")
    assert scores(s)["Chris"]["church"] == 2 + 3 + 4 + 6 + 6


def test_council_per_member_by_level() -> None:
    s = blank()
    for mid, level in (("blue-1a", 1), ("blue-1b", 2), ("blue-1c", 3), ("blue-1d", 4)):
        put(s, mid, f"council:{level}")
    assert scores(s)["Chris"]["council"] == 0 + 2 + 4 + 6


def test_customers_score_their_printed_points() -> None:
    s = blank()
    s.state.players[0].customers = [6, 4, 5]
    assert scores(s)["Chris"]["customers"] == 15


@pytest.mark.parametrize(("dead", "points"), [(0, 0), (1, 0), (2, 0), (3, 4), (4, 7), (5, 12),
                                              (6, 12)])
def test_chronicle_by_number_of_members(dead: int, points: int) -> None:
    s = blank(5)  # 5 players: 5 slots per section
    mids = [m.id for m in s.state.members_of(0)][:dead]
    sections = ["farm", "crafts", "council", "church", "travel", "farm"]
    for mid, sec in zip(mids, sections, strict=False):
        put(s, mid, f"chronicle:{sec}")
    put(s, "yellow-1a", "graveyard")  # the graveyard scores nothing
    assert scores(s)["Chris"]["chronicle"] == points
    assert scores(s)["Julie"]["chronicle"] == 0


def test_coins_and_prestige_add_up_to_the_total() -> None:
    s = blank()
    give(s, 0, coins=3)
    s.state.players[0].prestige = 11
    s.state.players[0].cities = [1, 2]
    s.state.players[0].customers = [6]
    put(s, "blue-1a", "church:2")
    put(s, "blue-2a", "council:3")
    for mid, sec in (("blue-1b", "farm"), ("blue-1c", "crafts"), ("blue-1d", "travel")):
        put(s, mid, f"chronicle:{sec}")
    got = scores(s)["Chris"]
    assert got == {"prestige": 11, "travel": 3, "church": 3, "customers": 6, "chronicle": 4,
                   "council": 4, "coins": 3, "total": 11 + 3 + 3 + 6 + 4 + 4 + 3}


def test_more_grain_breaks_a_tie() -> None:
    s = blank()
    s.state.players[0].prestige = s.state.players[1].prestige = 10
    give(s, 0, grain=1)
    give(s, 1, grain=3)
    sheet = sheet_from_state(s.state, s.comp)
    assert [p.rank for p in sheet.players] == [2, 1]
    assert sheet.winners == ["Julie"]
    assert "most grain on the farmyard" in (sheet.players[0].tiebreak or "")


def test_then_more_living_members_break_a_tie() -> None:
    s = blank()
    s.state.players[0].prestige = s.state.players[1].prestige = 10
    give(s, 0, grain=2)
    give(s, 1, grain=2)
    put(s, "blue-1a", "graveyard")  # scores nothing, but Chris has one living member fewer
    put(s, "yellow-2a", "bag")  # a member in the black bag is alive
    sheet = sheet_from_state(s.state, s.comp)
    assert [p.rank for p in sheet.players] == [2, 1]
    assert "most living family members" in (sheet.players[1].tiebreak or "")


def test_unborn_members_are_not_living() -> None:
    s = blank()
    s.state.players[0].prestige = s.state.players[1].prestige = 10
    put(s, "blue-1a", "graveyard")
    # Chris has 3 living (farmyard), Julie 4 (farmyard): members in the supply don't count.
    assert [p.rank for p in sheet_from_state(s.state, s.comp).players] == [2, 1]


def test_still_tied_the_rank_is_shared() -> None:
    s = blank()
    sheet = sheet_from_state(s.state, s.comp)
    assert [p.rank for p in sheet.players] == [1, 1]
    assert sheet.winners == ["Chris", "Julie"]


def test_an_override_replaces_the_category_and_is_logged() -> None:
    s = at_scoring()
    before = scores(s)["Chris"]
    s.execute({"type": "override_score", "player": 0, "category": "travel", "value": 10})
    after = scores(s)["Chris"]
    assert after["travel"] == 10
    assert after["total"] == before["total"] - before["travel"] + 10
    assert s.events[-1]["body"] == {"type": "override_score", "player": 0,
                                    "category": "travel", "value": 10, "beyond_max": False}
    assert s.state.score_overrides == {"0": {"travel": 10}}
    s.execute({"type": "override_score", "player": 0, "category": "travel", "value": None})
    assert scores(s)["Chris"] == before


def test_overrides_also_after_the_game_is_finished() -> None:
    s = at_scoring()
    s.execute({"type": "finish_game"})
    s.execute({"type": "override_score", "player": 1, "category": "prestige", "value": -2})
    assert scores(s)["Julie"]["prestige"] == -2


def test_overrides_only_at_the_end_and_not_negative() -> None:
    s = started(2)
    with refused(s, "phase"):
        s.execute({"type": "override_score", "player": 0, "category": "coins", "value": 4})
    s = at_scoring()
    with refused(s, "value"):
        s.execute({"type": "override_score", "player": 0, "category": "coins", "value": -1})
    with refused(s, "player"):
        s.execute({"type": "override_score", "player": 2, "category": "coins", "value": 1})


def test_a_played_game_scores_from_its_state() -> None:
    s = at_scoring()
    got = scores(s)
    # Chris: blue-1a plus his 2 oldest supply members in the chronicle (position) -> 3 -> 4.
    assert len(s.state.members_in("chronicle", 0)) == 3
    assert got["Chris"]["chronicle"] == 4
    assert got["Julie"]["chronicle"] == 12  # 7 of hers
    assert got["Chris"]["coins"] == 1 and got["Julie"]["coins"] == 1
