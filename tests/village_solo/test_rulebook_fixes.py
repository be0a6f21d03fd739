"""Solo rules fixed in rules version 2 (issue 10), from the Big Box rulebook (seed 000,
單人遊戲), and the games started before the fix, which keep the rules they were played by.

- Karla after the well: no reaction, so no customer served in a market day held through
  the well (interpretations.json "karla_after_well");
- the next-start-player marker paid as a coin: gone to the supply, only an unused one goes
  back to the council ("marker_coin_return", "marker_coin_paid_later_rounds").
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.village.interpretations import CURRENT_RULES
from companion.village.session import Outcome, VillageSession
from companion.village.setup import VillageSetup
from tests.village_solo.helpers import (
    FIRST_DRAW,
    HUMAN,
    KARLA,
    check_invariants,
    cmd,
    end_round,
    karla_cubes,
    resolve_fates,
    serve,
    set_board,
    solo_setup,
    take,
)


def stored_v1() -> VillageSetup:
    """A solo setup saved before rules versions, loaded as the service loads it."""
    raw = solo_setup().model_dump(mode="json")
    del raw["rules_version"], raw["readings"]
    return VillageSetup.model_validate(raw, context={"stored": True})


def _session(setup: VillageSetup) -> VillageSession:
    session = VillageSession.new(setup, draw_mode="manual")
    session.enter_draw({"placements": FIRST_DRAW})
    return session


def _keys(outcome: Outcome) -> list[Any]:
    return [n["key"] for n in outcome.note_data]


# ---- Karla after the well ----------------------------------------------------------------
def _market_day_through_the_well(s: VillageSession) -> None:
    """You use the well (3 brown), hold the market and serve the front customer (free)."""
    s.execute(cmd("adjust", player=HUMAN, field="cubes", key="brown", delta=3))
    s.execute(cmd("well", colour="brown"))
    s.execute(cmd("hold_market"))
    serve(s, slot=0, points=5)


def test_after_the_well_karla_does_not_serve_in_your_market_day() -> None:
    """000 單人遊戲 水井行動的特殊狀況:
    「卡拉不會在你執行「水井」行動後從遊戲版圖上拿取方塊(或「反應」)！」
    — and serving a customer is one of 「卡拉的(反應)行動」 (市集:
    「如果是你觸發市集日，且服務了最前頭的顧客，那卡拉將會服務原本第二前頭的顧客。」)."""
    s = _session(solo_setup())
    assert s.setup.rules_version == CURRENT_RULES
    _market_day_through_the_well(s)
    md = s.state.market_day
    assert md is not None and not md.karla_to_serve
    assert md.sales == [(HUMAN, 0)] and md.seller == HUMAN  # her go passed: no sale
    s.execute(cmd("market_pass"))
    s.execute(cmd("end_turn"))
    st = s.state
    assert st.market_day is None and st.players[KARLA].customers == []
    assert karla_cubes(st) == []  # and no cube either
    assert st.current == HUMAN and st.stage == "take"
    check_invariants(st, s.comp)


def test_in_a_market_day_from_the_market_cube_she_still_serves() -> None:
    s = _session(solo_setup())
    set_board(s, {"market": ["green"], "harvest": ["brown", "pink"], "crafts": ["orange"]})
    take(s, "market", "green")
    assert s.state.market_day is not None and s.state.market_day.karla_to_serve
    serve(s, slot=0, points=5)
    assert s.state.market_day is not None
    assert s.state.market_day.sales == [(HUMAN, 0), (KARLA, 1)]


def test_a_game_may_choose_the_other_reading_she_serves_after_the_well() -> None:
    s = _session(solo_setup().model_copy(update={
        "readings": {"karla_after_well": "serve_customer"}}))
    _market_day_through_the_well(s)
    md = s.state.market_day
    assert md is not None and md.sales == [(HUMAN, 0), (KARLA, 1)]


def test_a_game_started_before_the_fix_keeps_her_serving_after_the_well() -> None:
    s = _session(stored_v1())
    assert s.rules_version == 1 and s.state.follows_older_rules
    assert s.readings["karla_after_well"] == "serve_customer"
    _market_day_through_the_well(s)
    md = s.state.market_day
    assert md is not None and md.karla_to_serve
    assert md.sales == [(HUMAN, 0), (KARLA, 1)]
    s.execute(cmd("market_pass"))
    s.execute(cmd("end_turn"))
    assert s.state.players[KARLA].customers == [0]
    assert karla_cubes(s.state) == []  # no cube after the well, then as now


# ---- the next-start-player marker paid as a coin ----------------------------------------
def _take_marker(s: VillageSession) -> None:
    """Your council cube + council entry with privilege 1: you take the marker."""
    s.execute(cmd("adjust", player=HUMAN, field="cubes", key="green", delta=2))
    set_board(s, {"council": ["brown", "pink", "orange"], "harvest": ["brown", "pink"]})
    take(s, "council", "brown", end=False)
    s.execute(cmd("council_enter", member="blue-1a", privilege={"level": 1}))
    assert s.state.next_start_holder == HUMAN


def _pay_with_the_marker(s: VillageSession) -> int:
    """Turn the marker into a coin and pay it at the well (2 green + 1 coin); the round
    then ends. Returns your coins before the marker."""
    coins = s.state.players[HUMAN].coins
    s.execute(cmd("next_start_marker_coin"))
    s.execute(cmd("end_turn"))
    resolve_fates(s)
    s.execute(cmd("adjust", player=HUMAN, field="cubes", key="green", delta=2))
    s.execute(cmd("well", colour="green", coins=1))
    assert s.state.players[HUMAN].coins == coins and s.state.marker_coin_holder() is None
    s.execute(cmd("end_turn"))
    end_round(s)
    return coins


def _privilege_1(s: VillageSession) -> Outcome:
    """Your council cube and the council's first privilege (your member is there)."""
    set_board(s, {"council": ["brown", "pink"], "harvest": ["brown", "pink"]})
    take(s, "council", "brown", end=False)
    return s.execute(cmd("council_privilege", privilege={"level": 1}))


def test_a_paid_marker_does_not_go_back_to_the_council() -> None:
    """000 單人遊戲 註記: 「可以將它做為金幣使用(使用後放回供應區)」 and
    「在填裝綠色布袋前，你必須將「下一輪起始玩家標記」放回議會上所示的位置(如果你拿取卻未使用的話)。」
    — only a marker taken and not used goes back; a paid one is in the supply, and the first
    privilege then finds none (第一階級: 「如果該標記已經被其他玩家拿取，你將空手而歸。」)."""
    s = _session(solo_setup())
    _take_marker(s)
    coins = _pay_with_the_marker(s)
    for round_ in (2, 3):  # "marker_coin_paid_later_rounds": out for the rest of the game
        st = s.state
        assert st.round == round_
        assert st.next_start_holder is None and st.next_start_spent
        out = _privilege_1(s)
        assert "next_start_gone" in _keys(out) and "next_start_taken" not in _keys(out)
        assert s.state.next_start_holder is None
        assert s.state.players[HUMAN].coins == coins  # no coin from the privilege
        s.execute(cmd("end_turn"))
        resolve_fates(s)
        end_round(s, bag_seed=round_)
    check_invariants(s.state, s.comp)


@pytest.mark.parametrize("setup", [stored_v1(), solo_setup().model_copy(update={
    "readings": {"marker_coin_return": "every_round"}})], ids=["rules_version_1", "chosen"])
def test_before_the_fix_a_paid_marker_came_back_every_round(setup: VillageSetup) -> None:
    s = _session(setup)
    assert "marker_coin_paid_later_rounds" not in s.readings  # it applies to unused_only
    _take_marker(s)
    coins = _pay_with_the_marker(s)
    st = s.state
    assert st.next_start_holder is None and not st.next_start_spent  # back on the council
    out = _privilege_1(s)
    assert "next_start_taken" in _keys(out) and s.state.next_start_holder == HUMAN
    s.execute(cmd("next_start_marker_coin"))  # a coin again in round 2
    assert s.state.players[HUMAN].coins == coins + 1


def test_an_unused_marker_still_goes_back_to_the_council() -> None:
    s = _session(solo_setup())
    _take_marker(s)
    s.execute(cmd("end_turn"))
    resolve_fates(s)
    end_round(s)
    st = s.state
    assert st.next_start_holder is None and not st.next_start_spent
    out = _privilege_1(s)
    assert "next_start_taken" in _keys(out) and s.state.next_start_holder == HUMAN
