"""Family (rulebook 家庭): the lowest-numbered member of your colour from the supply is
born onto the farmyard, or an employed living member comes back from the board."""

from __future__ import annotations

import pytest

from .conftest import acting, put, refused


def test_rulebook_example_the_lowest_number_in_the_supply_is_born() -> None:
    """Chris has one gen-2, two gen-3 and two gen-4 members in the supply: he must take
    the gen-2 member."""
    s = acting("family")
    put(s, "blue-2a", "council:1")  # position: two gen-2 members already born
    put(s, "blue-2b", "farmyard")
    s.execute({"type": "family_birth"})
    assert s.state.members["blue-2c"].loc == "farmyard"
    assert sorted(m.gen for m in s.state.members_at("supply", 0)) == [3, 3, 4, 4]


def test_after_generation_two_comes_generation_three() -> None:
    s = acting("family")
    for mid in ("blue-2a", "blue-2b", "blue-2c"):
        put(s, mid, "farmyard")
    s.execute({"type": "family_birth"})
    born = [m for m in s.state.members_at("farmyard", 0) if m.gen == 3]
    assert len(born) == 1


def test_no_birth_with_an_empty_supply() -> None:
    s = acting("family")
    for m in s.state.members_of(0):
        if m.loc == "supply":
            put(s, m.id, "farmyard")
    with refused(s, "family"):
        s.execute({"type": "family_birth"})


@pytest.mark.parametrize("loc", ["workshop:smithy", "council:3", "church:2", "travel:5"])
def test_recall_an_employed_member_from_the_board(loc: str) -> None:
    s = acting("family")
    put(s, "blue-1a", loc)
    s.execute({"type": "family_recall", "member": "blue-1a"})
    assert s.state.members["blue-1a"].loc == "farmyard"
    assert s.state.action_done


@pytest.mark.parametrize("loc", ["chronicle:farm", "graveyard", "bag", "farmyard"])
def test_recall_only_living_members_employed_on_the_board(loc: str) -> None:
    s = acting("family")
    put(s, "blue-1a", loc)
    with refused(s, "member"):
        s.execute({"type": "family_recall", "member": "blue-1a"})


def test_recall_only_ones_own_member() -> None:
    s = acting("family")
    put(s, "red-1a", "council:1")
    with refused(s, "member"):
        s.execute({"type": "family_recall", "member": "red-1a"})
