"""The green bag and the round fill (rulebook 階段1 - 填滿行動格 and the notes under the
3-player example): card counts into the bag, all supply plague cubes, leftovers stay,
a depleted colour adds what is left, the card's count per space, manual entry, redraw."""

from __future__ import annotations

from companion.village.components import SetupCard
from companion.village.session import VillageSession

from .conftest import (
    fill,
    new_session,
    noted,
    placements_for,
    play_out_round,
    quota,
    refused,
    take,
)

INFLUENCE = ("brown", "pink", "orange", "green")
PLAGUE = 6  # 遊戲設置 10: 「…跟6個瘟疫方塊放在遊戲版圖旁公共供應區」
PER_COLOUR = 33  # 遊戲配件: 各33個


def card(s: VillageSession) -> SetupCard:
    """This game's setup card: cubes of each colour into the bag and cubes per space. Its
    numbers are estimates the players may correct, so the tests read them from the
    component data the game plays with rather than repeating them."""
    return s.comp.setup_card(len(s.state.players))


def per_colour(s: VillageSession) -> int:
    return card(s).bag_per_colour


def test_first_fill_puts_the_card_count_of_each_colour_and_every_plague_cube_in() -> None:
    s = new_session(3)
    st, n = s.state, per_colour(s)
    assert st.pending[0].kind == "chance" and st.pending[0].draw == "bag"
    assert {c: st.bag[c] for c in INFLUENCE} == dict.fromkeys(INFLUENCE, n)
    assert st.bag["plague"] == PLAGUE and st.supply["plague"] == 0
    assert {c: st.supply[c] for c in INFLUENCE} == dict.fromkeys(INFLUENCE, PER_COLOUR - n)


def test_each_space_gets_the_card_count_and_the_rest_stays_in_the_bag() -> None:
    s = new_session(3)
    assert quota(s) == card(s).spaces
    fill(s)
    st = s.state
    assert {space: len(c) for space, c in st.spaces.items()} == card(s).spaces
    assert sum(st.bag.values()) == (len(INFLUENCE) * per_colour(s) + PLAGUE
                                    - card(s).cubes_placed)
    assert st.round == 1 and st.stage == "take" and st.current == 0


def test_the_app_draw_follows_the_card_too() -> None:
    s = new_session(4, draw_mode="app")
    draws = [e["body"] for e in s.events if e["body"].get("draw") == "bag"]
    assert len(draws) == 1 and draws[0]["source"] == "app"
    placed = {sp: len(c) for sp, c in draws[0]["outcome"]["placements"].items()}
    assert placed == card(s).spaces  # the 4-player card
    assert {sp: len(c) for sp, c in s.state.spaces.items()} == placed
    assert s.state.cubes_on_board() == card(s).cubes_placed
    assert sum(s.state.bag.values()) == (len(INFLUENCE) * per_colour(s) + PLAGUE
                                         - card(s).cubes_placed)


def _leftovers_after_round_one(s: VillageSession) -> dict[str, int]:
    wanted = {"harvest": ["plague", "plague", "brown"]}  # 2 of the 6 plague cubes drawn
    fill(s, wanted)
    return dict(s.state.bag)


def test_leftovers_stay_in_the_bag_and_taken_plague_comes_back() -> None:
    s = new_session(3)
    left = _leftovers_after_round_one(s)
    assert left["plague"] == 4
    play_out_round(s)
    st = s.state
    assert st.round == 2 and st.pending[0].draw == "bag"
    # The 2 plague cubes taken went back to the supply, and from there into the bag again.
    assert st.bag["plague"] == PLAGUE and st.supply["plague"] == 0
    for c in INFLUENCE:
        assert st.bag[c] == left[c] + per_colour(s)


def test_a_depleted_colour_goes_in_only_as_far_as_the_supply_allows() -> None:
    s = new_session(3)
    fill(s)
    # Position: the players hold all but 2 of the green cubes left in the supply.
    st = s.state
    hoard = st.supply["green"] - 2
    st.supply["green"] = 2
    st.players[1].cubes["green"] = hoard
    bag_green = st.bag["green"]
    play_out_round(s)
    st = s.state
    assert st.round == 2
    assert st.supply["green"] == 0
    assert st.bag["green"] == bag_green + 2  # nobody paid green back in round 1
    assert noted(s.last_notes, "Only 2 green")
    assert st.bag["brown"] >= per_colour(s)  # the other colours are added in full


def test_a_manual_draw_with_the_wrong_count_on_a_space_is_refused() -> None:
    s = new_session(3)
    bad = placements_for(s)
    bad["market"] = bad["market"][:1]
    with refused(s, "outcome.market"):
        s.enter_draw({"placements": bad})


def test_a_manual_draw_of_cubes_not_in_the_bag_is_refused() -> None:
    s = new_session(3)
    bad = placements_for(s)
    # Other cubes of the draw turn pink until one more pink is drawn than the bag holds.
    drawn = sum(cubes.count("pink") for cubes in bad.values())
    others = [(sp, i) for sp, cubes in bad.items() for i, c in enumerate(cubes) if c != "pink"]
    for sp, i in others[:s.state.bag["pink"] + 1 - drawn]:
        bad[sp][i] = "pink"
    assert sum(cubes.count("pink") for cubes in bad.values()) == s.state.bag["pink"] + 1
    with refused(s, "outcome.pink"):
        s.enter_draw({"placements": bad})


def test_a_manual_draw_on_an_unknown_space_is_refused() -> None:
    s = new_session(3)
    bad = placements_for(s)
    bad["well"] = ["brown"]
    with refused(s, "outcome.well"):
        s.enter_draw({"placements": bad})


def test_a_manual_draw_must_map_spaces_to_cubes() -> None:
    s = new_session(3)
    with refused(s, "outcome.placements"):
        s.enter_draw({"placements": ["brown"]})


def test_entering_a_draw_when_none_waits_is_refused() -> None:
    s = new_session(3)
    fill(s)
    with refused(s, "draw"):
        s.enter_draw({"placements": placements_for(s)})


def test_redraw_before_the_first_take_replaces_the_board() -> None:
    s = new_session(3)
    fill(s, {"harvest": ["brown", "brown", "brown"]})
    before = {c: s.state.bag[c] + sum(x.count(c) for x in s.state.spaces.values())
              for c in (*INFLUENCE, "plague")}
    # The new draw is checked against the bag with the board's cubes back in it.
    s.redraw("bag", {"placements": _fit_after_return(s, {"harvest": ["plague", "green",
                                                                      "green"]})})
    st = s.state
    assert sorted(st.spaces["harvest"]) == ["green", "green", "plague"]
    ev = s.events[-1]["body"]
    assert ev["redraw"] is True and ev["source"] == "manual" and ev["draw"] == "bag"
    after = {c: st.bag[c] + sum(x.count(c) for x in st.spaces.values())
             for c in (*INFLUENCE, "plague")}
    assert after == before
    assert {sp: len(c) for sp, c in st.spaces.items()} == card(s).spaces


def _fit_after_return(s: VillageSession, wanted: dict[str, list[str]]) -> dict[str, list[str]]:
    """A full draw computed as if the board's cubes were back in the bag."""
    trial = new_session(3)
    trial.state.bag = {c: s.state.bag[c] + sum(x.count(c) for x in s.state.spaces.values())
                       for c in s.state.bag}
    return placements_for(trial, wanted)


def test_app_redraw_before_the_first_take_is_logged_as_a_redraw() -> None:
    s = new_session(3, draw_mode="app")
    n = len(s.events)
    s.redraw("bag")
    assert len(s.events) == n + 1
    ev = s.events[-1]["body"]
    assert (ev["draw"], ev["source"], ev["redraw"]) == ("bag", "app", True)
    assert {sp: len(c) for sp, c in s.state.spaces.items()} == card(s).spaces
    assert s.state.cubes_on_board() + sum(s.state.bag.values()) == (len(INFLUENCE) * per_colour(s)
                                                                    + PLAGUE)


def test_no_redraw_once_a_cube_was_taken() -> None:
    s = new_session(3)
    fill(s, {"harvest": ["brown", "brown", "brown"]})
    take(s, "harvest", "brown")
    with refused(s, "draw"):
        s.redraw("bag", {"placements": placements_for(s)})
