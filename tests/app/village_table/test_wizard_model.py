"""The wizard's draft without the UI: seats, colours, checks that name the field."""

from __future__ import annotations

import pytest

from companion.app.village.wizard.model import SetupProblem, WizardDraft
from companion.village.components import load_components

BIG_BOX = load_components("big-box")
COLOURS = list(BIG_BOX.v("player_colours"))


def named(*names: str) -> WizardDraft:
    draft = WizardDraft.new(solo=False, d4=False, karla_auto=False)
    draft.set_count(len(names))
    for seat, name in zip(draft.seats, names, strict=True):
        seat.name = name
    return draft


def test_changing_the_count_keeps_typed_names() -> None:
    draft = named("Ann", "Bo", "Cy")
    draft.set_count(5)
    assert [s.name for s in draft.seats] == ["Ann", "Bo", "Cy", "", ""]
    assert len({s.colour for s in draft.seats}) == 5
    draft.set_count(2)
    assert [s.name for s in draft.seats] == ["Ann", "Bo"]


def test_moving_a_seat_keeps_the_start_player_person() -> None:
    draft = named("Ann", "Bo", "Cy")
    draft.start_player = 0
    draft.move(0, +1)
    assert [s.name for s in draft.seats] == ["Bo", "Ann", "Cy"] and draft.start_player == 1
    draft.move(0, -1)  # off the top: nothing happens
    assert [s.name for s in draft.seats] == ["Bo", "Ann", "Cy"]


def test_a_taken_colour_is_swapped() -> None:
    draft = named("Ann", "Bo")
    first, second = draft.seats[0].colour, draft.seats[1].colour
    draft.set_colour(0, second)
    assert (draft.seats[0].colour, draft.seats[1].colour) == (second, first)


def test_solo_karla_colour_swaps_with_yours() -> None:
    draft = WizardDraft.new(solo=True, d4=True, karla_auto=True)
    assert draft.karla_variant == "d4" and draft.karla_policy == "auto"
    mine, karla = draft.seats[0].colour, draft.karla_colour
    draft.set_karla_colour(mine)
    assert (draft.seats[0].colour, draft.karla_colour) == (karla, mine)


def test_seat_problems_name_each_field() -> None:
    draft = named("Ann", " ann ", "", "x" * 25)
    problems = {(p.field, p.message) for p in draft.seat_problems(COLOURS)}
    assert problems == {("players[1].name", "duplicate"), ("players[2].name", "empty"),
                        ("players[3].name", "too_long")}
    draft.seats[0].colour = "green"
    assert ("players[0].colour", "colour") in {
        (p.field, p.message) for p in draft.seat_problems(COLOURS)}


def test_to_setup_builds_the_engine_setup() -> None:
    draft = named("Ann", "Bo")
    draft.start_player = None
    draft.compensation = False
    setup = draft.to_setup(BIG_BOX, seed=3)
    assert [p.name for p in setup.players] == ["Ann", "Bo"]
    assert setup.start_player is None and not setup.compensation and setup.seed == 3


def test_to_setup_errors_name_the_field() -> None:
    draft = named("Ann", "Ann")
    with pytest.raises(SetupProblem) as err:
        draft.to_setup(BIG_BOX)
    assert err.value.field == "players[1].name"
    draft = named("Ann", "Bo", "Cy", "Di", "Ed")
    with pytest.raises(SetupProblem) as err:
        draft.to_setup(load_components("2011"))  # 2-4 players, no purple
    assert err.value.field.startswith("players")
