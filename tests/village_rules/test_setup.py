"""Setup (rulebook 遊戲設置 1-14): players, start player, seat compensation, market,
chronicle and graveyard, members, coins."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from companion.core.validation import error_lines
from companion.village.rules.errors import RuleError
from companion.village.session import VillageSession
from companion.village.setup import VillageSetup

from .conftest import make_setup, new_session


def _problem(raw: dict[str, Any]) -> str:
    with pytest.raises(ValidationError) as info:
        VillageSetup.model_validate(raw)
    return error_lines(info.value)[0].removeprefix("(input): ")


def _players(*pairs: tuple[str, str]) -> list[dict[str, str]]:
    return [{"name": n, "colour": c} for n, c in pairs]


# ---- validation names the field ----------------------------------------------------------
@pytest.mark.parametrize(("players", "field"), [
    (_players(("Chris", "red"), ("chris", "blue")),
     "players[1].name: two players have the same name"),
    (_players(("Chris", "red"), ("Julie", "red")),
     "players[1].colour: two players have the same colour"),
    (_players(("Chris", "red")), "players: 2 to 5 players"),
    (_players(*[(f"P{i}", c) for i, c in enumerate(
        ["red", "yellow", "blue", "white", "purple", "red"])]), "players: 2 to 5 players"),
    (_players((" ", "red"), ("Julie", "blue")), "players[0].name: must not be empty"),
])
def test_setup_problems_name_the_field(players: list[dict[str, str]], field: str) -> None:
    assert _problem({"players": players}) == field


def test_start_player_out_of_range_names_the_field() -> None:
    line = _problem({"players": _players(("Chris", "red"), ("Julie", "blue")),
                     "start_player": 2})
    assert line.startswith("start_player:")


def test_unknown_colour_is_refused_naming_the_player_colour() -> None:
    setup = VillageSetup.model_validate(
        {"players": _players(("Chris", "red"), ("Julie", "green"))})
    with pytest.raises(RuleError) as info:
        VillageSession.new(setup)
    assert info.value.field == "players[1].colour"
    assert "red, yellow, blue, white, purple" in info.value.message


# ---- start player ------------------------------------------------------------------------
def test_chosen_start_player_starts_without_a_draw() -> None:
    s = new_session(4, start_player=2, draw_mode="app")
    assert s.state.start_player == 2 and s.state.current == 2
    assert all(e["body"].get("draw") != "start_player" for e in s.events)


def test_drawn_start_player_is_a_recorded_app_chance_event() -> None:
    s = VillageSession.new(make_setup(4, seed=7), draw_mode="app")
    first = s.events[0]["body"]
    assert first["type"] == "chance" and first["draw"] == "start_player"
    assert first["source"] == "app"
    assert s.state.start_player == first["outcome"]["player"]
    assert s.events[0]["group"] == 0  # part of the setup: nothing to undo
    assert not s.can_undo()


def test_drawn_start_player_waits_for_entry_in_manual_mode() -> None:
    s = new_session(3, start_player=None)
    assert s.state.pending[0].draw == "start_player"
    s.enter_draw({"player": 1})
    assert s.state.start_player == 1 and s.state.current == 1
    assert s.events[-1]["body"]["source"] == "manual"


# ---- seat compensation (遊戲設置 14) ---------------------------------------------------
def test_seat_compensation_for_five_players_from_the_start_player() -> None:
    # Start player Oliver (seat index 2): seats 2..5 are Dana, Emil, Chris, Julie.
    s = new_session(5, start_player=2, compensation=True)
    st = s.state
    chris, julie, oliver, dana, emil = st.players
    assert oliver.grain == 0 and oliver.coins == 1 and not any(oliver.cubes.values())
    assert dana.grain == 1  # 2nd: 1 grain
    # 3rd (Emil): a random cube, a chance draw; 4th (Chris): a cube of choice.
    assert st.pending[0].kind == "chance" and st.pending[0].draw == "compensation_cube"
    assert st.pending[0].player == 4
    assert st.pending[1].kind == "compensation_cube" and st.pending[1].player == 0
    assert julie.coins == 2  # 5th: an extra coin
    assert chris.coins == 1 and dana.coins == 1


def test_third_seat_random_cube_is_recorded_and_fourth_seat_chooses() -> None:
    s = new_session(4, start_player=0, compensation=True, draw_mode="app")
    st = s.state
    drawn = [e["body"] for e in s.events if e["body"].get("draw") == "compensation_cube"]
    assert len(drawn) == 1 and drawn[0]["source"] == "app"
    colour = drawn[0]["outcome"]["colour"]
    assert st.players[2].cubes == {colour: 1}
    assert st.supply[colour] == 32
    assert st.players[1].grain == 1
    # The 4th seat is asked; nothing else may happen first.
    assert st.pending[0].kind == "compensation_cube" and st.pending[0].player == 3
    with pytest.raises(RuleError) as info:
        s.execute({"type": "end_turn"})
    assert info.value.field == "type"
    s.execute({"type": "choose_compensation_cube", "colour": "green"})
    assert s.state.players[3].cubes == {"green": 1}
    # 33 green: 1 chosen, the 4-player card's count into the bag, the rest in the supply.
    into_bag = s.comp.setup_card(4).bag_per_colour
    assert s.state.supply["green"] == 33 - 1 - into_bag - (colour == "green")
    # Then the first round starts: the bag is drawn by the app.
    assert s.state.round == 1 and s.state.cubes_on_board() > 0


def test_no_compensation_when_switched_off() -> None:
    s = new_session(5, compensation=False)
    assert [p.grain for p in s.state.players] == [0] * 5
    assert [p.coins for p in s.state.players] == [1] * 5
    assert s.state.pending[0].draw == "bag"


# ---- market, chronicle, graveyard ------------------------------------------------------
@pytest.mark.parametrize(("n", "front"), [(2, 3), (3, 4), (4, 5), (5, 5)])
def test_market_front_queue_and_stack(n: int, front: int) -> None:
    st = new_session(n).state
    assert st.market_front == [True] * front + [False] * (5 - front)
    assert st.market_queue == [True] * 5
    assert st.customer_stack == 24 - front - 5
    assert st.customer_total() == 24


@pytest.mark.parametrize(("n", "per_section", "graveyard"), [(2, 2, 5), (3, 3, 6), (4, 4, 7),
                                                              (5, 5, 8)])
def test_chronicle_and_graveyard_close_slots_by_player_count(n: int, per_section: int,
                                                             graveyard: int) -> None:
    # With the shipped (estimated) marks -,-,3-5,4-5,5 per section and 8 graves
    # marked -,-,-,-,-,3-5,4-5,5 (遊戲設置 7: unused colours cover the marked slots).
    st = new_session(n).state
    assert st.chronicle_capacity == dict.fromkeys(
        ("farm", "crafts", "council", "church", "travel"), per_section)
    assert st.graveyard_capacity == graveyard


# ---- members and coins (遊戲設置 3, 5) ------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_members_and_coins(n: int) -> None:
    st = new_session(n).state
    for i, p in enumerate(st.players):
        mine = st.members_of(i)
        assert len(mine) == 11
        assert sorted(m.gen for m in mine if m.loc == "farmyard") == [1, 1, 1, 1]
        assert sorted(m.gen for m in mine if m.loc == "supply") == [2, 2, 2, 3, 3, 4, 4]
        assert p.coins == 1 and p.grain == 0 and p.time == 0 and p.prestige == 0
    assert st.monks_in_bag == 4
    assert st.next_start_holder is None  # the marker lies on its council space
    # Influence cubes and plague cubes: 33 of each colour and 6 plague, all in the supply or
    # (for the first round, already) in the green bag.
    for colour in ("brown", "pink", "orange", "green"):
        assert st.supply[colour] + st.bag[colour] == 33
    assert st.bag["plague"] == 6 and st.supply["plague"] == 0


# ---- expansions: not tracked yet ---------------------------------------------------------
@pytest.mark.parametrize("expansion", ["inn", "port", "marriage"])
def test_a_new_setup_with_an_expansion_is_refused_naming_the_field(expansion: str) -> None:
    """The engine has none of the expansions' spaces or parts (Marriage: a 12th member for
    everyone, 12 for Karla, a 7th plague cube, the wedding space), so it says so instead of
    tracking a different game."""
    line = _problem({"players": _players(("Chris", "red"), ("Julie", "blue")),
                     "expansions": [expansion]})
    assert line.startswith("expansions: ") and "not supported yet" in line


def test_a_stored_setup_with_an_expansion_still_loads() -> None:
    raw = {"players": _players(("Chris", "blue")), "solo": True, "karla_colour": "red",
           "expansions": ["marriage"]}
    setup = VillageSetup.model_validate(raw, context={"stored": True})
    session = VillageSession.new(setup)
    # Members as in the base game (the expansion is not tracked), 11 each.
    assert [len(session.state.members_of(i)) for i in (0, 1)] == [11, 11]
