"""The 2011 edition's own end rules, from its Korean summary (seed 004, 3. 게임 종료 and
4. 최종 점수계산), on tracked games:

- 최종액션 중 죽게 되는 가족원은 단순히 게임에서 제거한다: a member dying in the final turns is
  simply removed from the game, even with free chronicle or graveyard slots;
- 최종액션 A/B/C: outside a market day, or when the market-day host ends the game, everyone
  but the trigger player from the next player; C: when another player ends the game in a
  market day, 촉발자 다음사람부터 촉발자까지 — from the player after the trigger through the
  trigger (the Big Box instead starts after the market-day host);
- 동점인 경우 고객타일이 많은 게임자 ... 계속 동점인 경우 높은 숫자의 가족원을 가진 게임자: ties go
  to most customer tiles, then to the player with the highest-numbered family member.
"""

from __future__ import annotations

from companion.village.scoring import sheet_from_state
from companion.village.session import VillageSession

from .conftest import (
    assert_conserved,
    end_turn,
    fill_all_chronicle,
    give,
    noted,
    put,
    started,
    take,
)


def _track(s: VillageSession) -> int:
    return int(s.comp.v("time_track_length"))


def _ends_at_chris_turn_end(s: VillageSession) -> list[str]:
    """Chris (seat 0) takes a brown from harvest, passes the quill; his farm member fills
    the last chronicle slot. Returns the notes of the death."""
    give(s, 0, time=_track(s) - 1)
    take(s, "harvest", "brown")
    s.execute({"type": "spend_time", "player": 0, "amount": 1})
    end_turn(s)
    return s.execute({"type": "choose_death", "member": "blue-1a"}).notes


def test_a_member_dying_in_the_final_turns_is_removed_even_with_a_free_slot() -> None:
    s = started(3, {"harvest": ["brown", "plague", "orange"]}, edition="2011")
    assert s.comp.edition == "2011"
    fill_all_chronicle(s, {"farm": 1})
    _ends_at_chris_turn_end(s)
    st = s.state
    assert st.members["blue-1a"].loc == "chronicle:farm"  # the trigger's own death counts
    assert st.graveyard_free() > 0
    give(s, 1, time=_track(s) - 2)
    take(s, "harvest", "plague")  # Julie's final turn: 2 time passes the quill
    end_turn(s)
    out = s.execute({"type": "choose_death", "member": "yellow-1a"})
    st = s.state
    assert st.members["yellow-1a"].loc == "removed"  # Big Box: the free grave
    assert noted(out.notes, "Julie", "removed from the game")
    assert st.graveyard_free() == st.graveyard_capacity  # nobody took a grave
    assert_conserved(s)


def test_outside_a_market_day_the_others_play_once_from_the_next_player() -> None:
    s = started(3, {"harvest": ["brown", "pink", "orange"]}, edition="2011")
    fill_all_chronicle(s, {"farm": 1})
    notes = _ends_at_chris_turn_end(s)
    assert noted(notes, "Final turns: Julie, Oliver")  # A: the trigger has no final turn


def _market_day(edition: str, last_sale_deadly: bool = False) -> VillageSession:
    """Chris holds a market day; Julie's paid sale passes the quill and her death fills the
    last chronicle slot (if `last_sale_deadly`, her sale also empties the market)."""
    s = started(3, {"market": ["green", "green"], "harvest": ["brown"] * 3}, edition=edition)
    if last_sale_deadly:
        st = s.state
        for slot in range(1, len(st.market_front)):  # position: one customer waits
            if st.market_front[slot]:
                st.market_front[slot] = False
                st.customer_stack += 1
    fill_all_chronicle(s, {"farm": 1}, owner=2)
    give(s, 1, cubes={"green": 1}, grain=1, time=_track(s) - 1)
    take(s, "market", "green")
    s.execute({"type": "market_pass"})  # Chris
    s.execute({"type": "market_serve", "slot": 0, "points": 2, "pay": {"grain": 1}})
    s.execute({"type": "choose_death", "member": "yellow-1a"})
    while s.state.market_day is not None:
        s.execute({"type": "market_pass"})
    st = s.state
    assert st.end is not None and st.end.triggered_by == 1 and st.end.during_market
    return s


def test_another_player_ending_it_in_a_market_day_plays_last_in_2011() -> None:
    out = end_turn(_market_day("2011"))
    assert noted(out.notes, "Final turns: Oliver, Chris, Julie")  # C: after Julie, to Julie
    out = end_turn(_market_day("big-box"))
    assert noted(out.notes, "Final turns: Julie, Oliver, Chris")  # Big Box: after the host


def test_the_2011_order_also_when_the_deadly_sale_emptied_the_market() -> None:
    s = _market_day("2011", last_sale_deadly=True)
    out = end_turn(s)
    assert noted(out.notes, "Final turns: Oliver, Chris, Julie")
    for who in (2, 0, 1):
        assert s.state.current == who
        take(s, "harvest", "brown")
        end_turn(s)
    assert s.state.mass is not None and s.state.mass.final


def test_the_market_host_ending_it_takes_no_final_turn_in_2011() -> None:
    s = started(3, {"market": ["green", "green"], "harvest": ["brown"] * 3}, edition="2011")
    fill_all_chronicle(s, {"farm": 1})
    give(s, 0, cubes={"green": 1}, grain=2, time=_track(s) - 1)
    take(s, "market", "green")
    s.execute({"type": "market_serve", "slot": 0, "points": 2, "pay": {"grain": 1}})
    s.execute({"type": "market_pass"})  # Julie
    s.execute({"type": "market_pass"})  # Oliver
    s.execute({"type": "market_serve", "slot": 1, "points": 2, "pay": {"grain": 1}})
    s.execute({"type": "choose_death", "member": "blue-1a"})
    s.execute({"type": "market_pass"})
    out = end_turn(s)
    assert noted(out.notes, "Final turns: Julie, Oliver")  # B


def test_tracked_2011_ties_go_to_most_customer_tiles_then_the_highest_member() -> None:
    s = started(3, edition="2011")
    st = s.state
    # Position: a final one where all three score 25 (prestige 20 + 5 customer points).
    for i, tiles in enumerate(([3, 2], [5], [4, 1])):
        st.players[i].prestige, st.players[i].coins = 20, 0
        st.players[i].customers = tiles
        st.customer_stack -= len(tiles)
    put(s, "blue-2a", "farmyard")  # Chris: a gen-2 member; Oliver's are all gen 1
    put(s, "red-4a", "graveyard")  # Oliver's gen 4 is dead: it does not count
    sheet = sheet_from_state(st, s.comp)
    assert [p.total for p in sheet.players] == [25, 25, 25]
    ranks = {p.name: p.rank for p in sheet.players}
    # Julie: 1 tile, last. Chris and Oliver: 2 tiles each; Chris's gen-2 member wins.
    assert ranks == {"Chris": 1, "Oliver": 2, "Julie": 3}
    assert sheet.winners == ["Chris"]
    # With equal members too, the two stay tied and share the rank.
    put(s, "blue-2a", "supply")
    sheet = sheet_from_state(st, s.comp)
    assert {p.name: p.rank for p in sheet.players} == {"Chris": 1, "Oliver": 1, "Julie": 3}
