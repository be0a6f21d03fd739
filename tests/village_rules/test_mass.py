"""Mass (rulebook 彌撒 and its 3-player example): buy-outs for 1 coin from the start player
on, stop at 4, random draw to 4 items, monks back in the bag, members to church level 1;
advancement for grain once each; the 2-prestige majority bonus and its tie-breaks."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from companion.village.session import VillageSession

from .conftest import (
    assert_conserved,
    end_turn,
    give,
    noted,
    put,
    refused,
    set_board,
    started,
    take,
)


def at_mass(position: Callable[[VillageSession], None], n: int = 3,
            names: list[str] | None = None, colours: list[str] | None = None,
            ) -> VillageSession:
    """Round 1 ends: `position` writes the members, coins and grain, then the last cube
    is taken and the mass begins."""
    s = started(n, names=names, colours=colours)
    set_board(s, {"harvest": ["brown"]})  # position: one cube left
    s.state.current = n - 1
    position(s)
    take(s, "harvest", "brown")
    end_turn(s)
    return s


def rulebook_mass() -> VillageSession:
    def position(s: VillageSession) -> None:
        put(s, "blue-1a", "church:1")  # Chris's blue gen 1, already on the track
        put(s, "blue-2a", "bag")
        put(s, "red-2a", "church:1")  # Oliver's red gen 2, already on the track
        put(s, "red-1a", "bag")
        put(s, "yellow-1a", "bag")  # Julie's member in the bag
        give(s, 0, grain=3)
        give(s, 1, grain=4)
        give(s, 2, grain=0)

    return at_mass(position, names=["Chris", "Oliver", "Julie"],
                   colours=["blue", "red", "yellow"])


def test_rulebook_mass_example() -> None:
    """Chris, start player, buys his blue gen 2 for 1 coin; Oliver buys his red gen 1;
    Julie buys none; 2 random items are drawn, one of them Julie's member, and the monk
    goes back. Chris pays 2 grain to move his gen 1 to level 3 and 1 grain to move his
    gen 2 to level 2; Oliver pays 4 grain to move his gen 2 to level 4; Julie has no grain.
    Chris and Oliver tie on members; Oliver's member is further right: he gains 2."""
    s = rulebook_mass()
    st = s.state
    assert st.phase == "mass_buyout" and st.mass is not None and st.mass.order == [0, 1, 2]
    s.execute({"type": "mass_buyout", "members": ["blue-2a"]})
    s.execute({"type": "mass_buyout", "members": ["red-1a"]})
    s.execute({"type": "mass_buyout", "members": []})  # Julie
    st = s.state
    assert [p.coins for p in st.players] == [0, 0, 1]
    assert st.pending[0].draw == "mass" and st.pending[0].detail.count == 2
    s.enter_draw({"items": ["yellow-1a", "monk"]})
    st = s.state
    assert st.monks_in_bag == 4  # the drawn monk went back into the bag
    assert {m: st.members[m].loc for m in ("blue-2a", "red-1a", "yellow-1a")} == dict.fromkeys(
        ("blue-2a", "red-1a", "yellow-1a"), "church:1")
    assert st.phase == "mass_advance"
    s.execute({"type": "mass_advance", "moves": {"blue-1a": 3, "blue-2a": 2}})
    assert s.state.players[0].grain == 0
    out = s.execute({"type": "mass_advance", "moves": {"red-2a": 4}})
    st = s.state
    assert st.players[1].grain == 0
    # Julie cannot advance: she is not asked, the mass ends.
    assert [p.prestige for p in st.players] == [0, 2, 0]
    assert noted(out.notes, "Oliver gains 2 prestige", "tied for most church members (2)",
                 "level 4")
    assert st.members["red-2a"].loc == "church:4" and st.members["blue-1a"].loc == "church:3"
    assert st.phase == "turns" and st.round == 2 and st.start_player == 0
    assert_conserved(s)


def test_buy_outs_stop_at_4_and_then_nothing_is_drawn() -> None:
    def position(s: VillageSession) -> None:
        for mid in ("blue-1a", "blue-1b", "blue-1c", "blue-1d", "blue-2a"):
            put(s, mid, "bag")
        put(s, "yellow-1a", "bag")
        give(s, 0, coins=5)

    s = at_mass(position)
    with refused(s, "members"):
        s.execute({"type": "mass_buyout",
                   "members": ["blue-1a", "blue-1b", "blue-1c", "blue-1d", "blue-2a"]})
    s.execute({"type": "mass_buyout", "members": ["blue-1a", "blue-1b", "blue-1c", "blue-2a"]})
    st = s.state
    assert all(e["body"].get("draw") != "mass" for e in s.events)  # no random draw
    assert [e["body"]["type"] for e in s.events].count("mass_buyout") == 1
    assert st.players[0].coins == 1
    assert st.members["yellow-1a"].loc == "bag"  # Julie was never asked; it stays in the bag
    assert st.members["blue-1d"].loc == "bag"
    assert st.players[0].prestige == 2  # the only one on the track


def test_one_may_buy_only_ones_own_members_and_only_with_coins() -> None:
    def position(s: VillageSession) -> None:
        put(s, "blue-1a", "bag")
        put(s, "blue-1b", "bag")
        put(s, "yellow-1a", "bag")

    s = at_mass(position)
    with refused(s, "members[0]"):
        s.execute({"type": "mass_buyout", "members": ["yellow-1a"]})
    with refused(s, "members"):
        s.execute({"type": "mass_buyout", "members": ["blue-1a", "blue-1b"]})  # 1 coin


def test_players_who_cannot_buy_are_not_asked() -> None:
    def position(s: VillageSession) -> None:
        put(s, "blue-1a", "bag")
        give(s, 0, coins=0)
        put(s, "red-1a", "bag")

    s = at_mass(position)
    st = s.state
    assert st.mass is not None and st.mass.order[st.mass.index] == 2  # Oliver: coin + member


def test_a_manual_mass_draw_must_fit_the_bag() -> None:
    def position(s: VillageSession) -> None:
        put(s, "blue-1a", "bag")
        give(s, 0, coins=0)

    s = at_mass(position)
    assert s.state.pending[0].detail.count == 4
    with refused(s, "outcome.items"):
        s.enter_draw({"items": ["monk", "monk", "monk"]})
    with refused(s, "outcome.items"):
        s.enter_draw({"items": ["monk"] * 5})
    with refused(s, "outcome.items[1]"):
        s.enter_draw({"items": ["monk", "red-1a", "monk", "monk"]})
    s.enter_draw({"items": ["monk", "blue-1a", "monk", "monk"]})
    assert s.state.members["blue-1a"].loc == "church:1"
    assert s.state.players[0].prestige == 2


def test_advancing_costs_grain_per_level_entered_and_happens_once() -> None:
    def position(s: VillageSession) -> None:
        put(s, "blue-1a", "church:2")
        put(s, "yellow-2a", "church:1")
        give(s, 0, grain=2)
        give(s, 1, grain=5)

    s = at_mass(position)
    s.enter_draw({"items": ["monk"] * 4})
    with refused(s, "moves"):
        s.execute({"type": "mass_advance", "moves": {"blue-1a": 4}})  # 1 + 2 grain
    with refused(s, "moves.blue-1a"):
        s.execute({"type": "mass_advance", "moves": {"blue-1a": 1}})  # only to the right
    with refused(s, "moves.yellow-2a"):
        s.execute({"type": "mass_advance", "moves": {"yellow-2a": 2}})
    s.execute({"type": "mass_advance", "moves": {"blue-1a": 3}})
    st = s.state
    assert st.players[0].grain == 1
    assert st.mass is not None and st.mass.order[st.mass.index] == 1  # Julie's go now
    s.execute({"type": "mass_advance", "moves": {"yellow-2a": 4}})
    st = s.state
    assert st.players[1].grain == 1
    # Tie on 1 member each: Julie's is further right.
    assert [p.prestige for p in st.players] == [0, 2, 0]


def test_most_members_win_regardless_of_level() -> None:
    def position(s: VillageSession) -> None:
        put(s, "blue-1a", "church:1")
        put(s, "blue-1b", "church:1")
        put(s, "yellow-2a", "church:4")

    s = at_mass(position)
    out = s.enter_draw({"items": ["monk"] * 4})
    assert [p.prestige for p in s.state.players] == [2, 0, 0]
    assert noted(out.notes, "Chris gains 2 prestige", "most members")


def test_a_tie_on_count_and_on_the_rightmost_level_pays_everyone_tied() -> None:
    def position(s: VillageSession) -> None:
        put(s, "blue-1a", "church:3")
        put(s, "blue-1b", "church:1")
        put(s, "yellow-1a", "church:3")
        put(s, "yellow-1b", "church:2")
        put(s, "red-1a", "church:4")  # Oliver has fewer members: out of the running

    s = at_mass(position)
    out = s.enter_draw({"items": ["monk"] * 4})
    assert [p.prestige for p in s.state.players] == [2, 2, 0]
    assert noted(out.notes, "Chris gains 2 prestige", "each")
    assert noted(out.notes, "Julie gains 2 prestige", "each")


def test_nobody_on_the_track_no_bonus() -> None:
    s = at_mass(lambda s: None)
    out = s.enter_draw({"items": ["monk"] * 4})
    assert [p.prestige for p in s.state.players] == [0, 0, 0]
    assert noted(out.notes, "no bonus")
    assert s.state.round == 2


@pytest.mark.parametrize("outcome", [None, {"items": ["monk", "monk"]}], ids=["app", "manual"])
def test_the_mass_draw_can_be_redrawn_before_anyone_advances(
        outcome: dict[str, list[str]] | None) -> None:
    s = rulebook_mass()
    s.execute({"type": "mass_buyout", "members": ["blue-2a"]})
    s.execute({"type": "mass_buyout", "members": ["red-1a"]})
    s.execute({"type": "mass_buyout", "members": []})
    s.enter_draw({"items": ["yellow-1a", "monk"]})
    s.redraw("mass", outcome)
    st = s.state
    ev = s.events[-1]["body"]
    assert ev["redraw"] is True and len(ev["outcome"]["items"]) == 2  # 4 minus 2 bought
    assert st.mass is not None and len(st.mass.drawn) == 2
    assert st.members["blue-2a"].loc == "church:1"  # bought members stay out
    if outcome is not None:
        assert st.members["yellow-1a"].loc == "bag"  # back in the bag
