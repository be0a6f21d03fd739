"""The table screen (issue 13): the action area first, the instructions for the physical
table as one collapsed card whose lines can be marked done, every effect and refusal said
in a message, and a tap that changes only what changed."""

from __future__ import annotations

from typing import Any

import flet as ft
import msgpack
from flet.messaging.protocol import decode_ext_from_msgpack

from companion.app.village.hub import HUB
from companion.store.memory import MemoryStore

from ..harness import AppHarness
from .conftest import find_id, make_game, open_app, tap, texts_under
from .test_table import cube_id, first_cube


def order_of(app: AppHarness) -> list[str]:
    """Semantics identifiers of the table view in control (reading) order."""
    view = app.page.views[-1]
    return [str(c.identifier) for c, _ in app.walk(view)
            if isinstance(c, ft.Semantics) and c.identifier]


def toasts(app: AppHarness) -> list[str]:
    return app.toasts()


def test_at_round_start_the_action_area_comes_before_the_instructions(
        store: MemoryStore) -> None:
    sid = make_game(store)
    with open_app(store, f"/play/village/{sid}") as app:
        ids = order_of(app)
        first_cube_id = next(i for i in ids if i.startswith("cube-"))
        for before in ("table-turn", first_cube_id, "action-spaces", "turn-buttons"):
            assert ids.index(before) < ids.index("table-instructions"), (before, ids)
        # Collapsed by default: one line saying how much is left, no instruction shown.
        toggle = find_id(app, "table-instructions-toggle")
        assert toggle.expanded is False
        assert app.find_all(identifier="round-draw") == []
        header = texts_under(app, "table-instructions")
        assert any(t.startswith("At the table: ") and t.endswith(" to do") for t in header)
        tap(app, "table-instructions-toggle")
        assert find_id(app, "table-instructions-toggle").expanded is True
        lines = texts_under(app, "round-draw")
        assert lines[0] == "Round 1: put these cubes on the board"
        assert any(t.startswith("Put on Harvest:") for t in lines), lines


def test_an_instruction_marked_done_is_struck_and_counted(store: MemoryStore) -> None:
    sid = make_game(store)
    with open_app(store, f"/play/village/{sid}") as app:
        tap(app, "table-instructions-toggle")
        header = texts_under(app, "table-instructions-toggle")[0]
        total = int(header.split(": ")[1].split()[0])
        line = find_id(app, "instruction-0")
        words = next(c for c, _ in app.walk(line) if isinstance(c, ft.Text))
        assert words.style is None and line.checked is False
        tap(app, "instruction-0-done")
        line = find_id(app, "instruction-0")
        words = next(c for c, _ in app.walk(line) if isinstance(c, ft.Text))
        assert line.checked is True
        assert words.style is not None
        assert words.style.decoration == ft.TextDecoration.LINE_THROUGH
        assert texts_under(app, "table-instructions-toggle")[0] == (
            f"At the table: {total - 1} to do")
        # Kept for this game while the page lives: away to Home and back, still done.
        app.set_route("/")
        app.set_route(f"/play/village/{sid}")
        tap(app, "table-instructions-toggle")
        assert find_id(app, "instruction-0").checked is True
        tap(app, "instruction-0-done")  # and it can be unmarked
        assert find_id(app, "instruction-0").checked is False


def test_undo_and_redo_say_what_they_undid(store: MemoryStore) -> None:
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    with open_app(store, f"/play/village/{sid}") as app:
        tap(app, cube_id(store, sid, space, colour))
        tap(app, "undo")
        said = f"Ann took {colour} from {space.capitalize()}"
        assert f"Undone: {said}" in toasts(app), toasts(app)
        tap(app, "redo")
        assert f"Redone: {said}" in toasts(app), toasts(app)
        app.click("End turn")
        tap(app, "undo")
        assert "Undone: Ann ended the turn" in toasts(app), toasts(app)


def test_a_cube_tapped_after_the_game_ended_says_why(store: MemoryStore) -> None:
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    opened = HUB.open(store, sid)
    opened.session.state.phase = "finished"  # position: the game is over
    with open_app(store, f"/play/village/{sid}") as app:
        events = len(store.load(sid).events)
        tap(app, cube_id(store, sid, space, colour))
        assert len(store.load(sid).events) == events  # nothing recorded
        assert "The game is finished" in toasts(app), toasts(app)


def test_a_cube_that_may_not_be_taken_now_says_why(store: MemoryStore) -> None:
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    with open_app(store, f"/play/village/{sid}") as app:
        tap(app, cube_id(store, sid, space, colour))
        state = HUB.get(sid).session.state  # type: ignore[union-attr]
        other = next(s for s, c in state.spaces.items() if c and s != "market")
        second = cube_id(store, sid, other, state.spaces[other][0])
        tap(app, second)  # dimmed, still answers
        assert any(t.startswith("Ann already took a cube") for t in toasts(app)), \
            toasts(app)


def sent_controls(app: AppHarness, since: int) -> int:
    """How many controls the frames after `since` sent whole (new or rebuilt ones)."""
    def count(value: Any) -> int:
        if isinstance(value, dict):
            return int("_c" in value) + sum(count(v) for v in value.values())
        if isinstance(value, list | tuple):
            return sum(count(v) for v in value)
        return 0

    return sum(count(msgpack.unpackb(frame, ext_hook=decode_ext_from_msgpack,
                                     strict_map_key=False))
               for frame in app.conn.frames[since:])


def test_a_tap_changes_only_what_changed(store: MemoryStore) -> None:
    """A cube tap keeps the table's controls and sends a handful of new ones (the taken
    cube's neighbour's face, the acting player's cube count), never the table again."""
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    with open_app(store, f"/play/village/{sid}") as app:
        view = app.page.views[-1]
        before = {id(c) for c, _ in app.walk(view)}
        spaces = find_id(app, "action-spaces")
        frames = len(app.conn.frames)
        tap(app, cube_id(store, sid, space, colour))
        assert find_id(app, "action-spaces") is spaces
        after = {id(c) for c, _ in app.walk(view)}
        assert len(before & after) >= 0.8 * len(before)
        assert sent_controls(app, frames) < 25
        frames = len(app.conn.frames)
        app.click("End turn")
        assert find_id(app, "action-spaces") is spaces
        assert sent_controls(app, frames) < 25
