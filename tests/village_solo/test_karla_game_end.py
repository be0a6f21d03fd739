"""Karla takes no turn after she has ended the game (issue 19, point 1; rules version 3).

Seed 000, 遊戲結束: 「將家族成員放置進村莊編年史或公墓最後一格的玩家，不會進行額外的回合。」
(the player who places a member in the last space takes no extra turn), and for the solo
game: 「遊戲結束條件不變。」 (the end conditions are unchanged). The other reading rests on
「每次你拿取一個影響力方塊或瘟疫方塊時…卡拉會…拿取一個同樣顏色的方塊。」 (each time you take
a cube Karla takes one): games choose it as "takes", and games started before rules
version 3 replay with it, as they were played."""

from __future__ import annotations

from typing import Any

import pytest

from companion.village.interpretations import CURRENT_RULES, default_reading, interpretation
from companion.village.session import VillageSession
from companion.village.setup import VillageSetup
from tests.village_solo.helpers import (
    FIRST_DRAW,
    HUMAN,
    KARLA,
    check_invariants,
    karla_cubes,
    solo_setup,
    take,
)
from tests.village_solo.test_karla_deaths import _fill_for_karla_end


def _session(**setup: Any) -> VillageSession:
    raw = solo_setup().model_dump() | setup
    s = VillageSession.new(VillageSetup.model_validate(raw), draw_mode="manual",
                           karla_policy="ask")
    s.enter_draw({"placements": FIRST_DRAW})
    return s


def _karla_ends_the_game(s: VillageSession) -> list[str]:
    """Karla's fate-tile death fills the last graveyard space; returns her cubes then."""
    _fill_for_karla_end(s)
    take(s, "council", "brown")                 # your turn; Karla takes brown, flips a fate
    s.enter_draw({"side": "top", "tile": 0, "quill": True})
    st = s.state
    assert st.end is not None and st.end.triggered_by == KARLA
    assert st.phase == "turns" and st.stage == "take" and st.current == HUMAN
    return karla_cubes(st)


def test_after_her_game_end_you_take_the_final_turn_and_she_takes_nothing() -> None:
    s = _session()
    assert s.state.rules_version == CURRENT_RULES == 3
    cubes = _karla_ends_the_game(s)
    board = sum(len(c) for c in s.state.spaces.values())
    take(s, "harvest", "orange")                # your final turn, and its end
    st = s.state
    assert karla_cubes(st) == cubes             # no extra cube on her board
    assert sum(len(c) for c in st.spaces.values()) == board - 1  # only your cube left it
    assert not any(p.draw == "fate" for p in st.pending)  # no extra fate tile
    assert st.market_day is None
    assert st.mass is not None and st.mass.final  # straight to the final mass
    check_invariants(st, s.comp)


@pytest.mark.parametrize("setup", [{"readings": {"karla_after_her_game_end": "takes"}},
                                   {"rules_version": 2}], ids=["chosen_takes", "rules_v2"])
def test_the_other_reading_and_older_games_give_her_the_take(setup: dict[str, Any]) -> None:
    s = _session(**setup)
    cubes = _karla_ends_the_game(s)
    take(s, "harvest", "orange")
    # She takes after your final turn: orange is gone from harvest, the next orange clockwise
    # (the church's) goes onto her board.
    assert len(karla_cubes(s.state)) == len(cubes) + 1
    assert s.state.spaces["church"] == []


def test_the_reading_is_recorded_with_both_sentences_and_defaults() -> None:
    item = interpretation("karla_after_her_game_end")
    assert item.switchable and item.solo and item.editions == ["big-box"]
    assert "不會進行額外的回合" in item.text and "遊戲結束條件不變" in item.reading["no_take"]
    assert item.other_text is not None and "卡拉會" in item.other_text
    assert item.chosen == "no_take" and item.legacy == "takes" and item.since == 3
    assert default_reading(item.key, 3) == "no_take"
    assert default_reading(item.key, 2) == default_reading(item.key, 1) == "takes"
    # Readings fixed in version 2 keep their version-2 defaults for version-2 games.
    assert default_reading("karla_after_well", 2) == "no_reaction"
    assert default_reading("karla_after_well", 1) == "serve_customer"
