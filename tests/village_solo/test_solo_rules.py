"""Solo setup and the solo-only rules: start player, the next-start-player marker as a
coin, and the achievements (with the Inn/Port/Marriage raises)."""

from __future__ import annotations

import pytest

from companion.village.rules.errors import RuleError
from companion.village.scoring import achievement, score_payload, sheet_from_state
from tests.village_solo.helpers import (
    HUMAN,
    KARLA,
    check_invariants,
    cmd,
    end_round,
    new_session,
    resolve_fates,
    set_board,
    take,
)


def test_solo_setup() -> None:
    s = new_session(first_draw=None)
    st = s.state
    assert st.solo and [p.kind for p in st.players] == ["human", "karla"]
    assert st.players[KARLA].coins == 0 and st.players[HUMAN].coins == 1
    side = sorted(m.id for m in st.members_of(KARLA) if m.loc == "karla:side")
    building = sorted(m.id for m in st.members_of(KARLA) if m.loc == "karla:building")
    assert side == ["red-1a", "red-1b", "red-1c", "red-1d", "red-2a", "red-2b", "red-2c"]
    assert building == ["red-3a", "red-3b", "red-4a", "red-4b"]
    assert st.karla is not None
    assert st.karla.fate == {"top": [False] * 3, "bottom": [False] * 3}
    assert st.karla.last_space == -1
    assert st.market_front == [True, True, True, False, False]  # the 2-player market
    # You are the start player: no start-player draw, no seat compensation.
    assert st.start_player == HUMAN
    assert [p.draw for p in st.pending] == ["bag"]
    assert st.players[HUMAN].grain == 0 and not st.players[HUMAN].cubes
    check_invariants(st, s.comp)


def test_you_are_start_player_every_round() -> None:
    s = new_session()
    for round_ in (2, 3):
        end_round(s, bag_seed=round_)
        st = s.state
        assert st.round == round_
        assert st.start_player == HUMAN and st.current == HUMAN and st.stage == "take"


def _take_marker(s) -> None:
    """Your council cube + council entry with privilege 1: you take the marker."""
    s.execute(cmd("adjust", player=HUMAN, field="cubes", key="green", delta=2))
    set_board(s, {"council": ["brown", "pink", "orange"], "harvest": ["brown", "pink"]})
    take(s, "council", "brown", end=False)
    s.execute(cmd("council_enter", member="blue-1a", privilege={"level": 1}))
    assert s.state.next_start_holder == HUMAN


def test_next_start_marker_spent_as_a_coin() -> None:
    s = new_session()
    _take_marker(s)
    coins = s.state.players[HUMAN].coins
    s.execute(cmd("spend_next_start_marker"))
    st = s.state
    assert st.players[HUMAN].coins == coins + 1
    assert st.next_start_holder is None and st.next_start_spent
    with pytest.raises(RuleError) as exc:
        s.execute(cmd("spend_next_start_marker"))
    assert exc.value.field == "type"
    # Spent, it is gone for this round: privilege 1 finds no marker.
    s.execute(cmd("end_turn"))
    resolve_fates(s)
    take(s, "council", "pink", end=False)
    s.execute(cmd("council_privilege", privilege={"level": 1}))
    assert s.state.next_start_holder is None
    s.execute(cmd("end_turn"))
    resolve_fates(s)
    end_round(s)
    st = s.state
    # New round: the marker is back on the council (takeable again), you still start.
    assert st.next_start_holder is None and not st.next_start_spent
    assert st.start_player == HUMAN


def test_unspent_marker_returns_to_the_council_before_the_bag_fill() -> None:
    s = new_session()
    _take_marker(s)
    s.execute(cmd("end_turn"))
    coins = s.state.players[HUMAN].coins
    end_round(s)
    st = s.state
    assert st.next_start_holder is None and not st.next_start_spent
    assert st.players[HUMAN].coins == coins  # not converted into a coin
    assert st.start_player == HUMAN
    with pytest.raises(RuleError) as exc:
        s.execute(cmd("spend_next_start_marker"))
    assert exc.value.field == "type"


def test_marker_may_be_spent_during_the_mass_before_the_new_round() -> None:
    s = new_session()
    _take_marker(s)
    s.execute(cmd("end_turn"))
    st = s.state
    st.members["blue-2a"].loc = "bag"  # mutation: a member of yours in the bag
    set_board(s, {"harvest": ["brown"]})
    take(s, "harvest", "brown")                 # the last cube; the turn ends
    assert s.state.phase == "mass_buyout"
    coins = s.state.players[HUMAN].coins
    s.execute(cmd("spend_next_start_marker"))
    assert s.state.players[HUMAN].coins == coins + 1
    s.execute(cmd("mass_buyout", members=["blue-2a"]))
    assert s.state.members["blue-2a"].loc == "church:1"


@pytest.mark.parametrize(("total", "expansions", "name"), [
    (0, [], "apprentice"), (39, [], "apprentice"), (40, [], "traveller"),
    (49, [], "traveller"), (50, [], "master"), (60, [], "grandmaster"),
    (70, [], "genius"), (79, [], "genius"), (80, [], "sage"), (200, [], "sage"),
    (49, ["inn"], "apprentice"), (50, ["inn"], "traveller"),
    (44, ["port"], "apprentice"), (45, ["port"], "traveller"),
    (54, ["marriage"], "apprentice"), (55, ["marriage"], "traveller"),
    (99, ["inn", "port", "marriage"], "grandmaster"),
    (100, ["inn", "port", "marriage"], "genius"),
    (109, ["inn", "port", "marriage"], "genius"),
    (110, ["inn", "port", "marriage"], "sage"),
    (50, ["inn", "inn"], "traveller"),  # a raise counts once per expansion
])
def test_achievements_with_expansion_raises(total: int, expansions: list[str],
                                            name: str) -> None:
    s = new_session(first_draw=None)
    assert achievement(s.comp, total, expansions) == name


def test_tracked_solo_sheet_scores_you_only_with_an_achievement() -> None:
    s = new_session()
    st = s.state
    st.players[HUMAN].prestige = 41  # mutation: a final position
    st.players[HUMAN].coins = 0
    sheet = sheet_from_state(st, s.comp)
    assert [p.name for p in sheet.players] == ["Chris"]
    assert sheet.players[0].total == 41 and sheet.players[0].achievement == "traveller"
    assert sheet_from_state(st, s.comp, ["port"]).players[0].achievement == "apprentice"


def test_score_file_solo_achievement() -> None:
    sheet = score_payload({"game": "village", "solo": True, "expansions": ["inn"],
                           "players": [{"name": "Chris", "prestige": 60}]})
    assert sheet.players[0].achievement == "master"
