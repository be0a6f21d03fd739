"""Karla's cube after each of your turns: same colour/same space, clockwise search, your
choice, the empty board, the well, plague cubes, and the d4 variant."""

from __future__ import annotations

import pytest

from companion.village.components import ComponentProblem, correction_value, load_components
from companion.village.rules.errors import RuleError
from companion.village.rules.karla import DEFAULT_CHOICE_ORDER, default_choice
from companion.village.session import VillageSession
from companion.village.state import PLAGUE
from tests.village_solo.helpers import (
    FIRST_DRAW,
    HUMAN,
    KARLA,
    check_invariants,
    clockwise,
    cmd,
    karla_cubes,
    new_session,
    set_board,
    solo_setup,
    take,
)


def _only_karla_cube(session) -> str:
    cubes = karla_cubes(session.state)
    assert len(cubes) == 1, cubes
    return cubes[0]


def test_same_colour_from_the_same_space() -> None:
    s = new_session()
    set_board(s, {"harvest": ["brown", "brown", "pink"], "church": ["brown"]})
    take(s, "harvest", "brown")
    assert _only_karla_cube(s) == "brown@harvest"
    assert s.state.spaces["harvest"] == ["pink"]
    assert s.state.spaces["church"] == ["brown"]
    check_invariants(s.state, s.comp)


@pytest.mark.parametrize("start", range(7))
def test_next_clockwise_space_with_that_colour(start: int) -> None:
    """The order comes from karla_action_order (as printed on her board); the search
    skips the nearer-in-display-order space and wraps around."""
    s = new_session()
    order = clockwise(s, s.comp.v("karla_action_order")[start])
    mine, first, later = order[0], order[2], order[4]
    set_board(s, {mine: ["orange", "pink"], first: ["pink", "brown"],
                  later: ["pink"], order[1]: ["brown"]})
    take(s, mine, "pink")
    if mine == "market":
        # Your market cube starts a market day first; Karla takes once your turn is over.
        assert karla_cubes(s.state) == []
        s.execute(cmd("market_pass"))
        assert karla_cubes(s.state) == []
        s.execute(cmd("end_turn"))
    assert _only_karla_cube(s) == f"pink@{first}"
    assert s.state.spaces[later] == ["pink"]


def test_no_such_colour_anywhere_asks_for_a_cube_from_your_space() -> None:
    s = new_session()
    set_board(s, {"crafts": ["green", "brown", PLAGUE, "brown"], "church": ["pink"]})
    take(s, "crafts", "green")
    st = s.state
    pend = st.pending[0]
    assert pend.kind == "karla_cube" and pend.detail.space == "crafts"
    assert pend.detail.options == [PLAGUE, "brown"]
    # Anything else waits for the answer; a wrong space or colour is refused by field.
    with pytest.raises(RuleError) as exc:
        s.execute(cmd("end_turn"))
    assert exc.value.field == "type"
    with pytest.raises(RuleError) as exc:
        s.execute(cmd("karla_choose_cube", space="church", colour="pink"))
    assert exc.value.field == "space"
    with pytest.raises(RuleError) as exc:
        s.execute(cmd("karla_choose_cube", space="crafts", colour="pink"))
    assert exc.value.field == "colour"
    s.execute(cmd("karla_choose_cube", space="crafts", colour="brown"))
    st = s.state
    assert _only_karla_cube(s) == "brown@crafts"
    assert sorted(st.spaces["crafts"]) == ["brown", PLAGUE]
    assert not st.pending
    check_invariants(st, s.comp)


def test_auto_policy_uses_the_documented_default() -> None:
    s = new_session(policy="auto")
    set_board(s, {"crafts": ["green", "brown", PLAGUE, "orange"]})
    take(s, "crafts", "green")
    assert _only_karla_cube(s) == f"{PLAGUE}@crafts"  # plague first: it leaves the board
    assert not s.state.pending
    # The logged answer is an ordinary command: replays do not depend on the policy.
    assert s.events[-1]["body"]["type"] == "karla_choose_cube"
    assert default_choice(["orange", "brown"]) == "brown"
    assert DEFAULT_CHOICE_ORDER[0] == PLAGUE


def test_single_option_needs_no_choice() -> None:
    s = new_session()
    set_board(s, {"crafts": ["green", "brown", "brown"]})
    take(s, "crafts", "green")
    assert not s.state.pending
    assert _only_karla_cube(s) == "brown@crafts"


def test_your_space_empty_means_next_non_empty_space_clockwise() -> None:
    s = new_session()
    order = clockwise(s, "council")
    # Your space empties with your cube; the next space is empty too; the one after has 2.
    set_board(s, {"council": ["green"], order[2]: ["pink", "orange"], order[4]: ["brown"]})
    take(s, "council", "green")
    pend = s.state.pending[0]
    assert pend.kind == "karla_cube" and pend.detail.space == order[2]
    with pytest.raises(RuleError) as exc:
        s.execute(cmd("karla_choose_cube", space=order[4], colour="brown"))
    assert exc.value.field == "space"
    s.execute(cmd("karla_choose_cube", space=order[2], colour="orange"))
    assert _only_karla_cube(s) == f"orange@{order[2]}"


def test_empty_board_she_takes_nothing() -> None:
    s = new_session()
    set_board(s, {"family": ["pink"]})
    notes = take(s, "family", "pink")
    assert karla_cubes(s.state) == []
    # No cube choice is asked: the round is over and the mass draw waits.
    assert [(p.kind, p.draw) for p in s.state.pending] == [("chance", "mass")]
    assert any("no cube" in n for n in notes)
    check_invariants(s.state, s.comp)


def test_after_the_well_she_takes_nothing() -> None:
    s = new_session()
    s.execute(cmd("adjust", player=HUMAN, field="cubes", key="brown", delta=3))
    board = {k: list(v) for k, v in s.state.spaces.items()}
    s.execute(cmd("well", colour="brown"))
    st = s.state
    assert karla_cubes(st) == []
    assert st.spaces == board
    assert not st.pending and st.flow == []
    s.execute(cmd("harvest"))
    s.execute(cmd("end_turn"))
    # ... not after your turn either, and you take your next turn at once.
    assert karla_cubes(s.state) == [] and s.state.spaces == board
    assert s.state.current == HUMAN and s.state.stage == "take"


@pytest.mark.parametrize(("board", "expected"), [
    ({"harvest": [PLAGUE, PLAGUE, "pink"]}, f"{PLAGUE}@harvest"),
    ({"harvest": [PLAGUE, "pink"], "crafts": ["brown", PLAGUE]}, f"{PLAGUE}@crafts"),
])
def test_plague_cube_she_takes_plague_like_any_colour(board, expected) -> None:
    s = new_session()
    set_board(s, board)
    take(s, "harvest", PLAGUE)
    assert s.state.players[HUMAN].time == 2  # your plague costs you 2 time
    assert _only_karla_cube(s) == expected
    check_invariants(s.state, s.comp)


# ---- d4 variant ----------------------------------------------------------------------
def test_d4_rolled_colour_from_your_space() -> None:
    s = new_session(variant="d4")
    set_board(s, {"harvest": ["brown", "pink", "orange"], "church": ["pink"]})
    take(s, "harvest", "brown")
    pend = s.state.pending[0]
    assert (pend.kind, pend.draw) == ("chance", "d4")
    s.enter_draw({"colour": "pink"})
    assert _only_karla_cube(s) == "pink@harvest"


def test_d4_rolled_colour_clockwise_when_not_on_your_space() -> None:
    s = new_session(variant="d4")
    order = clockwise(s, "harvest")
    set_board(s, {"harvest": ["brown", "pink"], order[1]: ["orange"], order[3]: ["orange"]})
    take(s, "harvest", "brown")
    s.enter_draw({"colour": "orange"})
    assert _only_karla_cube(s) == f"orange@{order[1]}"


def test_d4_rerolls_when_the_colour_is_absent() -> None:
    s = new_session(variant="d4")
    set_board(s, {"harvest": ["brown", "pink", "orange"]})
    take(s, "harvest", "brown")
    out = s.enter_draw({"colour": "green"})
    assert any("roll again" in n for n in out.notes)
    assert s.state.pending[0].draw == "d4"
    assert karla_cubes(s.state) == []
    s.enter_draw({"colour": "orange"})
    assert _only_karla_cube(s) == "orange@harvest"
    d4 = [e for e in s.events if e["body"].get("draw") == "d4"]
    assert [e["body"]["outcome"]["colour"] for e in d4] == ["green", "orange"]


def test_d4_app_draws_reroll_as_separate_chance_events() -> None:
    """With app draws every roll is its own logged event until a present colour shows."""
    rolls: list[str] = []
    for seed in range(60):
        s = new_session(variant="d4", seed=seed)
        s.draw_mode = "app"
        set_board(s, {"harvest": ["brown", "pink", "orange"]})
        take(s, "harvest", "brown")
        rolls = [e["body"]["outcome"]["colour"] for e in s.events
                 if e["body"].get("draw") == "d4"]
        if len(rolls) >= 2:
            break
    assert len(rolls) >= 2, "60 seeds never needed a reroll"
    assert all(c in ("brown", "green") for c in rolls[:-1])  # absent colours: roll again
    assert rolls[-1] in ("pink", "orange")
    assert _only_karla_cube(s) == f"{rolls[-1]}@harvest"


def test_d4_refuses_a_non_colour() -> None:
    s = new_session(variant="d4")
    set_board(s, {"harvest": ["brown", "pink", "orange"]})
    take(s, "harvest", "brown")
    with pytest.raises(RuleError) as exc:
        s.enter_draw({"colour": PLAGUE})
    assert exc.value.field == "outcome.colour"


def test_d4_no_roll_once_a_single_influence_colour_is_left() -> None:
    s = new_session(variant="d4")
    set_board(s, {"harvest": ["brown", "pink", PLAGUE], "church": ["pink"]})
    take(s, "harvest", "brown")
    st = s.state
    assert not any(e["body"].get("draw") == "d4" for e in s.events)
    pend = st.pending[0]
    # From your space, your choice among its cubes (plague included).
    assert pend.kind == "karla_cube" and pend.detail.space == "harvest"
    assert pend.detail.options == [PLAGUE, "pink"]


def test_d4_single_colour_left_and_your_space_empty() -> None:
    s = new_session(variant="d4")
    order = clockwise(s, "harvest")
    set_board(s, {"harvest": ["brown"], order[2]: ["pink", "pink"]})
    take(s, "harvest", "brown")
    assert not s.state.pending
    assert _only_karla_cube(s) == f"pink@{order[2]}"


def test_her_cube_comes_after_your_turn_not_before_your_action() -> None:
    s = new_session()
    order = clockwise(s, "crafts")
    assert order[1] == "market"
    set_board(s, {"crafts": ["pink", "brown"], "market": ["pink"], "harvest": ["orange"]})
    take(s, "crafts", "pink", end=False)
    st = s.state
    # Your action comes first: Karla has not taken her cube, no market day yet.
    assert karla_cubes(st) == [] and st.market_day is None
    s.execute(cmd("end_turn"))
    st = s.state
    assert karla_cubes(st) == ["pink@market"]
    assert st.market_day is not None and st.market_day.trigger == KARLA
    assert st.market_day.sales == [(KARLA, 0)] and st.market_day.seller == HUMAN
    # Her market day over, your next turn begins.
    s.execute(cmd("market_pass"))
    st = s.state
    assert st.market_day is None and st.current == HUMAN and st.stage == "take"


# Karla's board as printed for the Big Box, expansions' spaces included (covered by wooden
# markers in a base game). The order itself is made up: the engine must work for any.
LAYOUT_WITH_COVERED_SPACES = ["inn", "market", "sea_travel", "travel", "council", "wedding",
                              "church", "family", "smuggling", "harvest", "crafts"]


def test_spaces_covered_for_modules_not_in_play_are_walked_past() -> None:
    s = VillageSession.new(solo_setup(), {"karla_action_order": LAYOUT_WITH_COVERED_SPACES},
                           draw_mode="manual")
    s.enter_draw({"placements": FIRST_DRAW})
    assert clockwise(s, "market") == ["market", "travel", "council", "church", "family",
                                      "harvest", "crafts"]
    # From crafts (the last), the search wraps past smuggling, inn and sea_travel.
    set_board(s, {"crafts": ["pink"], "travel": ["pink"], "council": ["pink"]})
    take(s, "crafts", "pink")
    assert _only_karla_cube(s) == "pink@travel"
    assert s.state.spaces["council"] == ["pink"]
    # Her next-non-empty search skips them too: nothing of your colour, crafts empty.
    set_board(s, {"crafts": ["orange"], "church": ["brown", "pink"]})
    take(s, "crafts", "orange")
    pend = s.state.pending[0]
    assert pend.kind == "karla_cube" and pend.detail.space == "church"
    check_invariants(s.state, s.comp)


@pytest.mark.parametrize(("order", "message"), [
    (["inn", "market", "travel", "council", "church", "family", "harvest"], "missing crafts"),
    (LAYOUT_WITH_COVERED_SPACES + ["inn"], "inn listed twice"),
    ("market travel", "must be a list"),
])
def test_a_karla_layout_must_hold_every_space_in_play_once(order: object,
                                                          message: str) -> None:
    with pytest.raises(ComponentProblem) as exc:
        correction_value(load_components("big-box"), "karla_action_order", order)
    assert str(exc.value).startswith("karla_action_order:") and message in str(exc.value)
    assert correction_value(load_components("big-box"), "karla_action_order",
                            LAYOUT_WITH_COVERED_SPACES) == LAYOUT_WITH_COVERED_SPACES
