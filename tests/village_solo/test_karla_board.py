"""Karla's board: where her cubes go, what a new round returns, and her fate tiles."""

from __future__ import annotations

import random

import pytest

from companion.village.rules.context import Ctx
from companion.village.rules.errors import RuleError
from companion.village.rules.karla import app_fate_outcome
from companion.village.state import PLAGUE, Pending
from tests.village_solo.helpers import (
    HUMAN,
    KARLA,
    check_invariants,
    cmd,
    end_round,
    fate_position,
    karla_cubes,
    karla_track,
    new_session,
    plain_position,
    put_karla_last,
    take,
)


def test_first_cube_next_to_the_council_icon_then_along_the_arrow() -> None:
    s = new_session()
    take(s, "travel", "plague")                       # your turn ends: Karla takes
    assert karla_track(s.state)[0] == [f"{PLAGUE}@travel"]
    assert s.state.karla is not None and s.state.karla.last_space == 0
    assert s.state.stage == "take" and s.state.current == HUMAN
    take(s, "council", "orange")
    assert karla_track(s.state)[1] == ["orange@family"]
    assert s.state.karla is not None and s.state.karla.last_space == 1


def test_placement_wraps_around_her_board() -> None:
    s = new_session()
    last = len(karla_track(s.state)) - 1
    put_karla_last(s, last)
    take(s, "harvest", "brown")  # harvest has one brown: Karla takes crafts' brown
    assert karla_track(s.state)[0] == ["brown@crafts"]
    assert s.state.karla is not None and s.state.karla.last_space == 0


def test_new_round_returns_all_but_the_last_cube_and_continues_after_it() -> None:
    s = new_session()
    take(s, "travel", "plague")                       # -> space 0
    take(s, "council", "orange")                      # -> space 1 (passes top tile 1)
    s.enter_draw({"side": "top", "tile": 0, "quill": False})
    take(s, "harvest", "brown")                       # -> space 2
    assert s.state.stage == "take"
    assert karla_cubes(s.state) == [f"{PLAGUE}@travel", "orange@family", "brown@crafts"]
    supply_before = dict(s.state.supply)
    end_round(s)
    st = s.state
    assert st.round == 2
    assert karla_cubes(st) == ["brown@crafts"]
    assert karla_track(st)[2] == ["brown@crafts"]
    assert st.karla is not None and st.karla.last_space == 2
    # The returned plague and orange went to the supply before the bag was filled (all
    # plague cubes in the supply go into the bag, so check conservation, not the supply).
    check_invariants(st, s.comp)
    assert supply_before != st.supply
    # Her next cube goes on the space after the kept one.
    colour, space = next((c, sp) for sp, cubes in st.spaces.items() for c in cubes
                         if sp != "market")
    take(s, space, colour)
    while s.state.pending and s.state.pending[0].kind == "karla_cube":
        opts = s.state.pending[0].detail.options
        assert isinstance(opts, list)
        s.execute(cmd("karla_choose_cube", space=s.state.pending[0].detail.space,
                      colour=opts[0]))
    assert s.state.karla is not None and s.state.karla.last_space == 3
    assert len(karla_track(s.state)[3]) == 1


def test_new_round_with_an_empty_board_returns_nothing() -> None:
    s = new_session()
    end_round(s)
    assert karla_cubes(s.state) == []
    assert s.state.karla is not None and s.state.karla.last_space == -1
    check_invariants(s.state, s.comp)


# ---- fate tiles --------------------------------------------------------------------------
def _to_tile(s, side: str, tile: int) -> None:
    """Mutation: Karla's next cube lands on the space that passes this fate tile."""
    put_karla_last(s, fate_position(s.comp, side, tile) - 1)


def test_a_cube_passing_a_fate_tile_flips_it() -> None:
    s = new_session()
    _to_tile(s, "bottom", 2)
    take(s, "harvest", "brown")
    pend = s.state.pending[0]
    assert (pend.kind, pend.draw) == ("chance", "fate")
    assert pend.detail.model_dump(exclude_defaults=True) == {"side": "bottom", "tile": 2,
                                                      "space": "crafts"}


def test_a_cube_passing_no_tile_flips_nothing() -> None:
    s = new_session()
    plain = plain_position(s.comp)
    put_karla_last(s, (plain - 1) % len(karla_track(s.state)))
    take(s, "harvest", "brown")
    assert s.state.karla is not None and s.state.karla.last_space == plain
    assert not s.state.pending


def test_blank_tile_nothing_happens() -> None:
    s = new_session()
    _to_tile(s, "top", 0)
    take(s, "harvest", "brown")
    notes = s.enter_draw({"side": "top", "tile": 0, "quill": False}).notes
    st = s.state
    assert st.karla is not None and st.karla.fate["top"] == [True, False, False]
    assert st.karla.quill["top"] == -1
    assert all(m.living for m in st.members_of(KARLA))
    assert any("blank" in n for n in notes)


def test_quill_tile_one_of_her_oldest_dies() -> None:
    s = new_session()
    _to_tile(s, "top", 2)
    take(s, "harvest", "brown")
    s.enter_draw({"side": "top", "tile": 2, "quill": True})
    st = s.state
    assert st.karla is not None and st.karla.quill["top"] == 2
    dead = [m for m in st.members_of(KARLA) if not m.living]
    assert [(m.gen, m.loc) for m in dead] == [(1, "chronicle:crafts")]


def test_face_up_tile_is_not_flipped_again() -> None:
    s = new_session()
    assert s.state.karla is not None
    s.state.karla.fate["top"][0] = True  # mutation: the first top tile is already face up
    _to_tile(s, "top", 0)
    take(s, "harvest", "brown")
    assert not s.state.pending


def _take_any(s) -> None:
    """You take some non-market influence cube; Karla's cube choices get the first option."""
    colour, space = next((c, sp) for sp, cubes in s.state.spaces.items() for c in cubes
                         if sp != "market" and c != PLAGUE)
    take(s, space, colour)
    while s.state.pending and s.state.pending[0].kind == "karla_cube":
        opts = s.state.pending[0].detail.options
        assert isinstance(opts, list)
        s.execute(cmd("karla_choose_cube", space=s.state.pending[0].detail.space,
                      colour=opts[0]))


def _flip(s, side: str, tile: int, quill: bool):
    _to_tile(s, side, tile)
    _take_any(s)
    assert s.state.pending[0].draw == "fate"
    return s.enter_draw({"side": side, "tile": tile, "quill": quill})


def _next_turn(s) -> None:
    """Karla's take (and its flip) came after your turn: your next turn has begun."""
    st = s.state
    assert not st.pending and st.current == HUMAN and st.stage == "take"


def test_exactly_one_quill_per_set_second_quill_refused() -> None:
    s = new_session()
    _flip(s, "top", 0, quill=True)
    _next_turn(s)
    _to_tile(s, "top", 1)
    _take_any(s)
    with pytest.raises(RuleError) as exc:
        s.enter_draw({"side": "top", "tile": 1, "quill": True})
    assert exc.value.field == "outcome.quill"
    s.enter_draw({"side": "top", "tile": 1, "quill": False})
    check_invariants(s.state, s.comp)


def test_exactly_one_quill_per_set_last_tile_must_be_the_quill() -> None:
    s = new_session()
    _flip(s, "bottom", 0, quill=False)
    _next_turn(s)
    _flip(s, "bottom", 1, quill=False)
    _next_turn(s)
    _to_tile(s, "bottom", 2)
    _take_any(s)
    with pytest.raises(RuleError) as exc:
        s.enter_draw({"side": "bottom", "tile": 2, "quill": False})
    assert exc.value.field == "outcome.quill"
    assert s.state.karla is not None and s.state.karla.fate["bottom"] == [True, True, False]


def test_wrong_tile_or_side_refused() -> None:
    s = new_session()
    _to_tile(s, "top", 1)
    take(s, "harvest", "brown")
    for bad in ({"side": "bottom", "tile": 1, "quill": False},
                {"side": "top", "tile": 0, "quill": False}):
        with pytest.raises(RuleError) as exc:
            s.enter_draw(bad)
        assert exc.value.field == "outcome"
    with pytest.raises(RuleError) as exc:
        s.enter_draw({"side": "top", "tile": 1, "quill": "yes"})
    assert exc.value.field == "outcome.quill"


def test_fully_face_up_set_is_reshuffled_face_down() -> None:
    s = new_session()
    _flip(s, "top", 0, quill=False)
    _next_turn(s)
    _flip(s, "top", 1, quill=True)
    _next_turn(s)
    st = s.state
    assert st.karla is not None and st.karla.fate["top"] == [True, True, False]
    notes = _flip(s, "top", 2, quill=False).notes
    st = s.state
    assert st.karla is not None
    assert st.karla.fate["top"] == [False, False, False]
    assert st.karla.quill["top"] == -1
    assert any("shuffle" in n for n in notes)
    # A new cycle: a fresh quill may show again on any tile.
    _next_turn(s)
    _flip(s, "top", 2, quill=True)
    assert s.state.karla is not None and s.state.karla.quill["top"] == 2
    check_invariants(s.state, s.comp)


def test_app_fate_draws_keep_one_quill_per_set() -> None:
    """App flips: each full cycle of a set shows exactly one quill."""
    s = new_session(draw_mode="app")
    st = s.state
    assert st.karla is not None
    for seed in range(30):
        trial = st.model_copy(deep=True)
        assert trial.karla is not None
        quills = 0
        for tile in range(3):
            out = app_fate_outcome(Ctx(trial, s.comp),
                                   Pending(kind="chance", draw="fate",
                                           detail={"side": "top", "tile": tile}),
                                   random.Random(f"{seed}:{tile}"))
            trial.karla.fate["top"][tile] = True
            if out.quill:
                quills += 1
                trial.karla.quill["top"] = tile
        assert quills == 1
