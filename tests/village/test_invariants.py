"""The invariant checker itself: it must notice a broken position (not pass vacuously)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from companion.village.session import VillageSession
from companion.village.setup import PlayerSetup, VillageSetup
from companion.village.state import Member, VillageState
from tests.village.invariants import check_invariants


def _solo() -> VillageSession:
    return VillageSession.new(VillageSetup(players=[PlayerSetup(name="Chris", colour="blue")],
                                           solo=True, karla_colour="red", seed=1))


def _put(members: list[Member], loc: str) -> None:
    for m in members:
        m.loc = loc


def _fill_farm_section(st: VillageState, extra: int) -> None:
    ids = [m.id for m in st.members.values() if m.loc == "supply"]
    for mid in ids[: st.chronicle_capacity["farm"] + extra]:
        st.members[mid].loc = "chronicle:farm"


def _queue_tile_to_closed_front_space(st: VillageState) -> None:
    """What a refill that forgets the spaces closed for the player count does (once in
    rules/market.py): the front queue tile goes to the last front space, which a 2-player
    (solo) market leaves empty all game. No tile is lost or added."""
    q = st.market_queue.index(True)
    st.market_queue[q], st.market_front[-1] = False, True


BROKEN: dict[str, Callable[[VillageState], object]] = {
    "council level that does not exist": lambda st: setattr(st.members["blue-1a"], "loc",
                                                            "council:9"),
    "unknown workshop": lambda st: setattr(st.members["blue-1a"], "loc", "workshop:mill"),
    "unknown place": lambda st: setattr(st.members["blue-1a"], "loc", "attic"),
    "chronicle section that does not exist": lambda st: setattr(
        st.members["blue-1a"], "loc", "chronicle:market"),
    "Karla's member on a farmyard": lambda st: setattr(st.members["red-1a"], "loc",
                                                       "farmyard"),
    "your member beside Karla's board": lambda st: setattr(st.members["blue-2a"], "loc",
                                                           "karla:side"),
    "a member lost": lambda st: st.members.pop("blue-4b"),
    "a member of the wrong generation": lambda st: setattr(st.members["blue-4b"], "gen", 1),
    "two Karla members on one church level": lambda st: _put(
        [st.members[m] for m in ("red-3a", "red-3b")], "church:2"),
    "a chronicle section over its slots": lambda st: _fill_farm_section(st, 1),
    "a full graveyard and the game not ended": lambda st: _put(
        [x for x in st.members.values() if x.loc == "karla:side"][:st.graveyard_capacity],
        "graveyard"),
    "a customer tile lost": lambda st: setattr(st, "customer_stack", st.customer_stack - 1),
    "a customer on a front space closed for the player count":
        _queue_tile_to_closed_front_space,
    "a cube lost": lambda st: st.supply.__setitem__("green", st.supply["green"] - 1),
}


def test_a_fresh_game_passes() -> None:
    s = _solo()
    check_invariants(s.state, s.comp)


@pytest.mark.parametrize("what", sorted(BROKEN))
def test_a_broken_position_is_noticed(what: str) -> None:
    s = _solo()
    st = s.state.clone()
    BROKEN[what](st)
    with pytest.raises(AssertionError):
        check_invariants(st, s.comp)
