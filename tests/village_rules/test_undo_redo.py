"""Undo and redo (session log): undo pops the last user action with the chance events it
caused, redo re-applies the very same events (nothing is re-rolled), a new command clears
the redo stack, go_back_to undoes everything after a group."""

from __future__ import annotations

from typing import Any

from companion.village.session import VillageSession

from .conftest import TRACK, end_turn, fill, new_session, resolve_deaths, take


def snapshot(s: VillageSession) -> dict[str, Any]:
    return s.state.model_dump(exclude={"notes", "note_data"})


def app_game(seed: int = 3) -> VillageSession:
    """An app-drawn 3-player game, compensation on, start player drawn."""
    return new_session(3, start_player=None, compensation=True, draw_mode="app", seed=seed)


def answer_pending(s: VillageSession) -> None:
    st = s.state
    if st.pending and st.pending[0].kind == "compensation_cube":
        s.execute({"type": "choose_compensation_cube", "colour": "green"})
    resolve_deaths(s)


def take_any(s: VillageSession) -> None:
    """Take the first cube on the board and do nothing (a market day: everyone passes)."""
    space = next(sp for sp, c in s.state.spaces.items() if c)
    take(s, space, sorted(s.state.spaces[space])[0])
    while s.state.market_day is not None:
        s.execute({"type": "market_pass"})


def play_turn(s: VillageSession) -> None:
    take_any(s)
    end_turn(s)
    answer_pending(s)


def to_last_cube(s: VillageSession) -> None:
    answer_pending(s)
    while s.state.cubes_on_board() > 1:
        play_turn(s)
    take_any(s)


def test_setup_draws_are_not_undoable() -> None:
    s = app_game()
    assert [e["body"]["draw"] for e in s.events if e["body"]["type"] == "chance"] == [
        "start_player", "compensation_cube", "bag"]
    assert not s.can_undo() and s.undo() is False


def test_undo_pops_the_action_with_its_chance_events_and_redo_replays_them() -> None:
    s = app_game()
    to_last_cube(s)
    before = snapshot(s)
    n = len(s.events)
    # The round ends; nobody is in the black bag or on the church track, so the app draws
    # the mass and the next round's bag within this one action.
    end_turn(s)
    added = s.events[n:]
    assert [e["body"]["type"] for e in added] == ["end_turn", "chance", "chance"]
    assert [e["body"].get("draw") for e in added[1:]] == ["mass", "bag"]
    assert len({e["group"] for e in added}) == 1
    assert s.state.round == 2
    after = snapshot(s)
    assert s.undo() is True
    assert snapshot(s) == before
    assert len(s.events) == n
    assert s.redo_stack == added
    assert s.redo() is True
    assert s.events[n:] == added  # the very same outcomes, not re-rolled
    assert snapshot(s) == after
    assert not s.can_redo()


def test_a_new_command_clears_redo() -> None:
    s = app_game()
    answer_pending(s)
    space = next(sp for sp, c in s.state.spaces.items() if len(set(c)) > 1)
    first, second = sorted(set(s.state.spaces[space]))[:2]
    take(s, space, first)
    assert s.undo()
    assert s.can_redo() and s.state.stage == "take"
    take(s, space, second)
    assert not s.can_redo() and s.redo() is False
    assert s.state.players[s.state.current].cubes.get(second, 0) >= 1 or second == "plague"


def test_go_back_to_a_group() -> None:
    s = app_game()
    answer_pending(s)
    play_turn(s)
    mark = s.group
    at_mark = snapshot(s)
    play_turn(s)
    play_turn(s)
    undone = s.go_back_to(mark)
    assert undone >= 2
    assert s.group == mark and snapshot(s) == at_mark
    for _ in range(undone):
        assert s.redo()
    assert not s.can_redo()


def test_undo_brings_back_a_pending_death() -> None:
    s = new_session(3)
    fill(s, {"crafts": ["plague", "brown", "brown", "brown"]})
    take(s, "crafts", "plague")
    s.execute({"type": "spend_time", "player": 0, "amount": TRACK - 2})
    end_turn(s)
    assert s.state.pending[0].kind == "death"
    s.execute({"type": "choose_death", "member": "blue-1b"})
    assert s.state.members["blue-1b"].loc == "chronicle:farm"
    s.undo()
    assert s.state.pending[0].kind == "death"
    assert s.state.members["blue-1b"].loc == "farmyard"
    s.execute({"type": "choose_death", "member": "blue-1c"})
    assert s.state.members["blue-1c"].loc == "chronicle:farm"


def test_undo_of_a_redraw_restores_the_first_draw() -> None:
    s = new_session(3, draw_mode="app")
    first = {sp: list(c) for sp, c in s.state.spaces.items()}
    s.redraw("bag")
    assert s.events[-1]["body"]["redraw"] is True
    s.undo()
    assert {sp: list(c) for sp, c in s.state.spaces.items()} == first
    assert all(not e["body"].get("redraw") for e in s.events)
