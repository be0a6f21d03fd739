"""Turns (rulebook 階段2, 水井, 一輪結束, 開始新一輪): one cube per turn, the action of
its space, the well, the round end, the next start player."""

from __future__ import annotations

from .conftest import (
    TRACK,
    end_turn,
    fill,
    give,
    noted,
    play_out_round,
    refused,
    set_board,
    started,
    take,
)


def test_an_influence_cube_goes_to_the_farmyard() -> None:
    s = started(3, {"harvest": ["orange", "brown", "brown"]})
    take(s, "harvest", "orange")
    st = s.state
    assert st.players[0].cubes == {"orange": 1}
    assert sorted(st.spaces["harvest"]) == ["brown", "brown"]
    assert st.players[0].time == 0
    assert st.stage == "act" and st.space_taken == "harvest"


def test_a_plague_cube_goes_back_to_the_supply_and_costs_2_time() -> None:
    s = started(3, {"church": ["plague", "brown", "brown"]})
    take(s, "church", "plague")
    st = s.state
    assert st.supply["plague"] == 1
    assert st.players[0].time == 2
    assert "plague" not in st.players[0].cubes


def test_a_cube_that_is_not_on_the_space_is_refused() -> None:
    s = started(3, {"harvest": ["brown", "brown", "brown"]})
    with refused(s, "colour"):
        take(s, "harvest", "green")


def test_only_one_cube_per_turn() -> None:
    s = started(3, {"harvest": ["brown", "brown", "brown"]})
    take(s, "harvest", "brown")
    with refused(s, "stage"):
        take(s, "harvest", "brown")


def test_the_turn_cannot_end_before_a_cube_is_taken() -> None:
    s = started(3)
    with refused(s, "stage"):
        end_turn(s)


def test_no_action_before_a_cube_is_taken() -> None:
    s = started(3)
    with refused(s, "stage"):
        s.execute({"type": "harvest"})


def test_the_action_must_match_the_space_of_the_cube() -> None:
    s = started(3, {"harvest": ["brown", "brown", "brown"]})
    take(s, "harvest", "brown")
    with refused(s, "action"):
        s.execute({"type": "family_birth"})
    s.execute({"type": "harvest"})
    assert s.state.players[0].grain == 2


def test_the_action_is_optional_and_done_at_most_once() -> None:
    s = started(3, {"harvest": ["brown", "brown", "brown"]})
    take(s, "harvest", "brown")
    s.execute({"type": "harvest"})
    with refused(s, "action"):
        s.execute({"type": "harvest"})
    end_turn(s)
    take(s, "harvest", "brown")
    end_turn(s)  # Julie takes the cube and does nothing
    assert s.state.players[1].grain == 0 and s.state.current == 2


def test_turns_go_clockwise_from_the_start_player() -> None:
    s = started(4, start_player=2)
    seen = []
    for _ in range(5):
        seen.append(s.state.current)
        space = next(sp for sp, c in s.state.spaces.items() if c and sp != "market")
        take(s, space, s.state.spaces[space][0])
        end_turn(s)
    assert seen == [2, 3, 0, 1, 2]


# ---- the well (水井) ---------------------------------------------------------------------
def test_the_well_returns_three_cubes_of_one_colour_and_allows_any_action() -> None:
    s = started(3)
    give(s, 0, cubes={"pink": 3})
    supply = s.state.supply["pink"]
    board = s.state.cubes_on_board()
    s.execute({"type": "well", "colour": "pink"})
    st = s.state
    assert st.players[0].cubes["pink"] == 0 and st.supply["pink"] == supply + 3
    assert st.cubes_on_board() == board  # no cube taken
    s.execute({"type": "family_birth"})
    assert s.state.members["blue-2a"].loc == "farmyard"  # family on a pink well


def test_the_well_needs_three_cubes_of_the_same_colour() -> None:
    s = started(3)
    give(s, 0, cubes={"pink": 2, "green": 1})
    with refused(s, "colour"):
        s.execute({"type": "well", "colour": "pink"})


def test_a_coin_stands_in_for_a_missing_well_cube() -> None:
    # Rulebook 金幣 3: a coin counts as any influence cube.
    s = started(3)
    give(s, 0, cubes={"pink": 2}, coins=1)
    s.execute({"type": "well", "colour": "pink", "coins": 1})
    p = s.state.players[0]
    assert p.cubes["pink"] == 0 and p.coins == 0
    assert s.state.space_taken == "well"


def test_the_well_needs_a_cube_on_the_board() -> None:
    s = started(3)
    give(s, 0, cubes={"pink": 3})
    set_board(s, {})  # position: the board is empty
    with refused(s, "well"):
        s.execute({"type": "well", "colour": "pink"})


def test_the_well_counts_as_the_turns_cube() -> None:
    s = started(3)
    give(s, 0, cubes={"pink": 3})
    s.execute({"type": "well", "colour": "pink"})
    with refused(s, "stage"):
        take(s, "harvest", s.state.spaces["harvest"][0])


# ---- round end ---------------------------------------------------------------------------
def test_whoever_takes_the_last_cube_still_acts_then_the_mass_is_held() -> None:
    s = started(3)
    set_board(s, {"harvest": ["brown"]})  # position: one cube left on the board
    s.state.current = 1
    take(s, "harvest", "brown")
    assert s.state.phase == "turns"
    s.execute({"type": "harvest"})
    assert s.state.players[1].grain == 2
    end_turn(s)
    assert s.state.phase == "mass_buyout"
    assert s.state.mass is not None and s.state.mass.order == [0, 1, 2]


def test_without_the_marker_the_start_player_stays() -> None:
    s = started(3, start_player=1)
    play_out_round(s)
    st = s.state
    assert st.round == 2 and st.start_player == 1
    assert st.pending[0].draw == "bag"


def test_the_next_start_player_marker_holder_starts_the_next_round() -> None:
    s = started(3, {"council": ["green", "green", "green"]})
    give(s, 2, cubes={"green": 2})
    take(s, "council", "green")
    end_turn(s)
    take(s, "council", "green")
    end_turn(s)
    take(s, "council", "green")  # Oliver
    s.execute({"type": "council_enter", "member": "red-1a", "privilege": {"level": 1}})
    assert s.state.next_start_holder == 2
    end_turn(s)
    play_out_round(s)
    st = s.state
    assert st.round == 2
    assert st.start_player == 2 and st.next_start_holder is None  # marker back on the council
    assert noted(s.last_notes, "Oliver becomes the start player")
    fill(s)
    assert s.state.current == 2


def test_the_last_cube_from_the_market_then_a_death_then_the_mass() -> None:
    """The market action is mandatory even with the last cube; a death owed in that turn is
    decided at its end, before the round's mass."""
    s = started(3)
    set_board(s, {"market": ["plague"]})  # position: the last cube is a plague cube
    s.state.current = 1
    give(s, 1, time=TRACK - 1)
    take(s, "market", "plague")
    st = s.state
    assert st.market_day is not None and st.market_day.trigger == 1
    assert st.players[1].deaths_pending == 1 and not st.pending  # owed, not yet decided
    for _ in range(3):
        s.execute({"type": "market_pass"})
    end_turn(s)
    assert s.state.pending[0].kind == "death" and s.state.phase == "turns"
    s.execute({"type": "choose_death", "member": "yellow-1a"})
    assert s.state.members["yellow-1a"].loc == "chronicle:farm"
    assert s.state.phase == "mass_buyout"
