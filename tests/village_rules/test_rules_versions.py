"""Rules fixed in rules version 2 (issue 10) outside the solo mode, each from its rulebook's
wording, and the games started before the fix (rules version 1), which replay with the
rules they were played by. Also what a game tells about the rules it follows (for the log).

- 2011, 4 players: no chronicle or graveyard space is blocked (004 blocks them only with
  fewer than 4 players);
- 2011: no seat compensation unless chosen as a house rule;
- 2011: only a member dying in the final turns is removed from the game;
- Big Box: the final turns after a market-day end follow the game's reading
  "final_turns_after_market_end".
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.village.interpretations import (
    CURRENT_RULES,
    effective_readings,
    interpretation,
    interpretations,
)
from companion.village.session import VillageSession
from companion.village.setup import VillageSetup

from .conftest import (
    end_turn,
    fill_all_chronicle,
    fill_chronicle,
    fill_graveyard,
    give,
    make_setup,
    noted,
    put,
    started,
    take,
)

# The 2011 board as the data estimate it: slots marked 5 (the Big Box marks) above 4.
MARKED_5 = {"chronicle_sections": dict.fromkeys(
                ("farm", "crafts", "council", "church", "travel"), [2, 2, 3, 4, 5]),
            "graveyard_slots": [2, 2, 2, 2, 2, 3, 4, 5]}


def stored(raw: dict[str, Any]) -> VillageSetup:
    """A setup saved before rules versions (no rules_version), loaded as the service
    loads a stored game's."""
    return VillageSetup.model_validate(raw, context={"stored": True})


def _raw(n: int, edition: str, **kw: Any) -> dict[str, Any]:
    names, colours = ["Chris", "Julie", "Oliver", "Dana"], ["blue", "yellow", "red", "white"]
    return {"edition": edition, "start_player": 0, **kw,
            "players": [{"name": a, "colour": c} for a, c in zip(names[:n], colours[:n],
                                                                  strict=True)]}


def _track(s: VillageSession) -> int:
    return int(s.comp.v("time_track_length"))


# ---- 2011, 4 players: every chronicle and graveyard space is open ------------------------
def test_a_4_player_2011_game_blocks_no_chronicle_or_graveyard_space() -> None:
    """004 게임 준비:
    「4인 미만시 - 사용하지 않는 게임자의 색 가족원말을 게임판 우하측 연대기위 인원수보다 큰
    숫자칸에 높여 놓는다. 또 게임판 좌하측 무명무덤에도 같은 방식으로 높여 놓는다.」
    — spaces are blocked only with fewer than 4 players."""
    for corrections in (None, MARKED_5):
        s = VillageSession.new(make_setup(4, edition="2011"), corrections)
        st = s.state
        assert st.chronicle_capacity == {
            sec: len(marks) for sec, marks in s.comp.v("chronicle_sections").items()}
        assert st.graveyard_capacity == len(s.comp.v("graveyard_slots"))
    assert st.chronicle_capacity == dict.fromkeys(MARKED_5["chronicle_sections"], 5)
    assert st.graveyard_capacity == 8


@pytest.mark.parametrize(("n", "per_section", "graveyard"), [(2, 2, 5), (3, 3, 6)])
def test_fewer_than_4_players_in_2011_block_the_spaces_above_their_count(
        n: int, per_section: int, graveyard: int) -> None:
    st = VillageSession.new(make_setup(n, edition="2011"), MARKED_5).state
    assert st.chronicle_capacity == dict.fromkeys(MARKED_5["chronicle_sections"], per_section)
    assert st.graveyard_capacity == graveyard


def test_the_big_box_still_blocks_its_5_spaces_with_4_players() -> None:
    st = VillageSession.new(make_setup(4)).state
    assert set(st.chronicle_capacity.values()) == {4} and st.graveyard_capacity == 7


def test_a_2011_game_started_before_the_fix_keeps_its_4_player_capacities() -> None:
    s = VillageSession.new(stored(_raw(4, "2011")), MARKED_5)
    assert s.rules_version == 1
    assert s.state.chronicle_capacity == dict.fromkeys(MARKED_5["chronicle_sections"], 4)
    assert s.state.graveyard_capacity == 7


# ---- 2011: no seat compensation ------------------------------------------------------------
def _after_setup(setup: VillageSetup) -> VillageSession:
    return VillageSession.new(setup, draw_mode="manual")


def test_a_2011_game_has_no_seat_compensation() -> None:
    """004 게임 준비:
    「선마커 (직사각 중간 타일 2마름 그림) - 연장자가 가져가 자신 앞에 두고 선이 된다.」
    — the oldest takes the start marker and begins; nobody is compensated."""
    s = _after_setup(VillageSetup.model_validate(_raw(4, "2011")))
    st = s.state
    assert not s.setup.compensation and s.readings["compensation_2011"] == "off"
    assert [p.draw for p in st.pending] == ["bag"]  # straight to the first round
    start = int(s.comp.v("start_coins"))
    assert all(p.grain == 0 and not p.cubes and p.coins == start for p in st.players)


@pytest.mark.parametrize("setup", [
    VillageSetup.model_validate(_raw(4, "2011", compensation=True)),  # the house rule
    stored(_raw(4, "2011")),  # a 2011 game started before the fix
], ids=["house_rule", "rules_version_1"])
def test_with_compensation_on_a_2011_game_compensates_as_before(setup: VillageSetup) -> None:
    s = _after_setup(setup)
    st = s.state
    assert s.setup.compensation and s.readings["compensation_2011"] == "on"
    assert st.players[1].grain == 1  # 2nd seat: 1 grain
    assert [(p.kind, p.draw, p.player) for p in st.pending] == [
        ("chance", "compensation_cube", 2), ("compensation_cube", None, 3)]


# ---- 2011: only deaths in the final turns are removed --------------------------------------
def _two_deaths_in_the_ending_turn(s: VillageSession) -> None:
    """Chris (seat 0) passes the quill twice in his turn. His farmyard member dies first
    and fills the last grave (the farm section is full): the game ends. His second death
    is his gen-1 member in a workshop (the crafts section has room)."""
    fill_chronicle(s, "farm")
    fill_graveyard(s, leave_free=1)
    put(s, "blue-1b", "workshop:wainwright")
    give(s, 0, time=_track(s) - 1)
    take(s, "harvest", "brown")
    s.execute({"type": "spend_time", "player": 0, "amount": 1})
    s.execute({"type": "spend_time", "player": 0, "amount": _track(s)})
    end_turn(s)
    s.execute({"type": "choose_death", "member": "blue-1a"})
    assert s.state.members["blue-1a"].loc == "graveyard"
    assert s.state.end is not None and not s.state.end.order_set  # still his turn


def test_a_second_death_in_the_turn_that_ends_a_2011_game_goes_to_its_section() -> None:
    """004 최종액션: 「최종액션 중 죽게 되는 가족원은 단순히 게임에서 제거한다.」 — only a member
    dying in the final turns is removed; the turn that ended the game is no final turn."""
    s = started(3, {"harvest": ["brown", "plague", "orange"]}, edition="2011")
    _two_deaths_in_the_ending_turn(s)
    out = s.execute({"type": "choose_death", "member": "blue-1b"})
    st = s.state
    assert st.members["blue-1b"].loc == "chronicle:crafts"
    assert not noted(out.notes, "removed from the game")
    assert noted(out.notes, "Final turns: Julie, Oliver")
    # In a final turn a death is removed, as before.
    give(s, 1, time=_track(s) - 2)
    take(s, "harvest", "plague")
    end_turn(s)
    s.execute({"type": "choose_death", "member": "yellow-1a"})
    assert s.state.members["yellow-1a"].loc == "removed"


def test_a_2011_game_started_before_the_fix_removes_the_second_death() -> None:
    s = started(3, {"harvest": ["brown", "plague", "orange"]}, edition="2011",
                rules_version=1)
    _two_deaths_in_the_ending_turn(s)
    out = s.execute({"type": "choose_death", "member": "blue-1b"})
    assert s.state.members["blue-1b"].loc == "removed"
    assert noted(out.notes, "Chris", "removed from the game")


# ---- Big Box: the final turns after a market-day end follow the game's reading -------------
def _julie_ends_it_in_chris_market_day(**kw: Any) -> list[str]:
    """Chris holds a market day; Julie's paid sale passes the quill and her death fills the
    last chronicle slot. Returns the notes of Chris's end of turn."""
    s = started(3, {"market": ["green", "green"], "harvest": ["brown"] * 3}, **kw)
    fill_all_chronicle(s, {"farm": 1}, owner=2)
    give(s, 1, cubes={"green": 1}, grain=1, time=_track(s) - 1)
    take(s, "market", "green")
    s.execute({"type": "market_pass"})
    s.execute({"type": "market_serve", "slot": 0, "points": 2, "pay": {"grain": 1}})
    s.execute({"type": "choose_death", "member": "yellow-1a"})
    while s.state.market_day is not None:
        s.execute({"type": "market_pass"})
    return end_turn(s).notes


def test_the_big_box_final_turns_after_a_market_day_end_follow_the_chosen_reading() -> None:
    """000 遊戲結束 特殊情況:
    「如果觸發市集日跟遊戲結束的不是同一位玩家，則所有玩家依順時鐘順序各再執行一個行動。」
    — no seat to start from is named: the game's reading decides."""
    notes = _julie_ends_it_in_chris_market_day(
        readings={"final_turns_after_market_end": "after_end_trigger"})
    assert noted(notes, "Final turns: Oliver, Chris, Julie")  # after the end trigger
    notes = _julie_ends_it_in_chris_market_day()  # the default: after the host
    assert noted(notes, "Final turns: Julie, Oliver, Chris")


def test_a_big_box_game_started_before_the_fix_keeps_the_component_rule() -> None:
    notes = _julie_ends_it_in_chris_market_day(rules_version=1)
    assert noted(notes, "Final turns: Julie, Oliver, Chris")


# ---- what a game tells about its rules (the log shows it) ---------------------------------
def test_a_new_game_follows_the_current_rules_and_its_readings() -> None:
    s = VillageSession.new(make_setup(3, readings={
        "final_turns_after_market_end": "after_end_trigger"}))
    st = s.state
    assert s.rules_version == st.rules_version == CURRENT_RULES
    assert not st.follows_older_rules
    assert s.readings == st.readings == effective_readings(s.setup) == {
        "final_turns_after_market_end": "after_end_trigger"}
    copy = st.clone()
    assert copy == st and copy.readings == st.readings and copy.readings is not st.readings
    # Setup facts, not folded ones: the state's dumps (golden digests) leave them out.
    assert "rules_version" not in st.model_dump() and "readings" not in st.model_dump_json()


def test_a_game_started_before_the_fix_says_so_with_its_older_readings() -> None:
    s = VillageSession.new(stored(_raw(2, "2011")))
    st = s.state
    assert s.rules_version == st.rules_version == 1 and st.follows_older_rules
    assert s.readings == {"compensation_2011": "on"}
    solo = VillageSession.new(stored({"players": [{"name": "Chris", "colour": "blue"}],
                                      "solo": True, "karla_colour": "red"}))
    assert solo.state.follows_older_rules
    assert solo.readings == {"karla_after_well": "serve_customer",
                             "karla_after_her_game_end": "takes",
                             "marker_coin_return": "every_round",
                             "final_turns_after_market_end": "market_host_order",
                             "karla_fifth_church_member": "stays_in_bag"}


def test_a_reading_the_rulebook_leaves_no_choice_in_cannot_be_chosen() -> None:
    assert not interpretation("karla_fifth_church_member").switchable
    with pytest.raises(ValueError, match="karla_fifth_church_member: not a reading"):
        make_setup(3, readings={"karla_fifth_church_member": "draw_again"})


def test_applies_with_names_known_readings() -> None:
    for item in interpretations():
        for key, option in item.applies_with.items():
            assert option in interpretation(key).options, item.key
