"""Member locations: one string in storage, read and built only through `locations`."""

from __future__ import annotations

import pytest

from companion.village.locations import (
    BAG,
    KARLA_SIDE,
    Loc,
    chronicle_spot,
    church_spot,
    council_spot,
    is_location,
    travel_spot,
    workshop_spot,
)
from companion.village.session import VillageSession
from companion.village.setup import PlayerSetup, VillageSetup


@pytest.mark.parametrize("text, place, spot", [
    ("supply", "supply", None), (BAG, "bag", None), (council_spot(3), "council", "3"),
    (church_spot(1), "church", "1"), (travel_spot(6), "travel", "6"),
    (workshop_spot("smithy"), "workshop", "smithy"), (chronicle_spot("farm"), "chronicle",
                                                       "farm"),
    (KARLA_SIDE, "karla", "side")])
def test_round_trip(text: str, place: str, spot: str | None) -> None:
    loc = Loc.parse(text)
    assert (loc.place, loc.spot) == (place, spot)
    assert str(loc) == text


@pytest.mark.parametrize("text", ["", "attic", "council", "council:", "bag:2",
                                  "karla:roof", "supply:1"])
def test_malformed_locations_are_refused_with_the_reason(text: str) -> None:
    assert not is_location(text)
    with pytest.raises(ValueError, match=repr(text)):
        Loc.parse(text)


def test_levels_only_where_there_are_levels() -> None:
    assert Loc.parse(council_spot(4)).level == 4
    assert Loc.parse(travel_spot(2)).level == 2
    with pytest.raises(ValueError):
        _ = Loc.parse(chronicle_spot("farm")).level


def test_every_member_of_a_new_game_stands_somewhere_well_formed() -> None:
    two = VillageSetup(players=[PlayerSetup(name="A", colour="red"),
                                PlayerSetup(name="B", colour="blue")], seed=3)
    solo = VillageSetup(players=[PlayerSetup(name="C", colour="blue")], solo=True,
                        karla_colour="red", seed=3)
    for setup, expected in ((two, {"farmyard", "supply"}),
                            (solo, {"farmyard", "supply", "karla"})):
        game = VillageSession.new(setup)
        assert {m.location.place for m in game.state.members.values()} == expected
