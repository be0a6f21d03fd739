"""The table's list keeps the same items, all shown, through every tap: a part that comes
or goes (the last-turn card, the acting player's panel button) fills or empties a holder.

Flet's web client leaves a hidden control (`visible=False`) out of its parent's list, so
a part hidden or shown moves every item after it to another index, and the phone builds
all of them again: on CanvasKit an end turn's frame cost twice a cube tap's. An empty
holder has no content (or a hidden one: the turn's buttons stay in their holders, shown or
hidden, so a tap never sends them whole again) and no padding, so it is drawn zero high,
as a hidden one was."""

from __future__ import annotations

import flet as ft

from companion.store.memory import MemoryStore

from ..harness import AppHarness
from .conftest import find_id, make_game, open_app, tap
from .test_table import cube_id, first_cube


def _table_list(app: AppHarness) -> ft.ListView:
    body = app.page.views[-1].controls[0]
    assert isinstance(body, ft.ListView)  # the phone's one list (360 px wide)
    return body


def _holders(app: AppHarness) -> list[ft.Container]:
    items = list(_table_list(app).controls)
    assert all(isinstance(item, ft.Container) for item in items)
    return items  # type: ignore[return-value]


def _empty(holder: ft.Container) -> bool:
    """The holder shows nothing: no content, or a hidden one (the phone builds none)."""
    return holder.content is None or holder.content.visible is False


def _assert_all_shown(holders: list[ft.Container]) -> None:
    for holder in holders:
        assert holder.visible is not False, "a hidden item moves the ones after it"
        if _empty(holder):
            assert holder.padding is None  # drawn zero high: no gap for a missing part
        else:
            assert holder.padding == ft.Padding.only(bottom=14)


def _sent_since(app: AppHarness, frames: int) -> bytes:
    return b"".join(app.conn.frames[frames:])


def _holder_of(app: AppHarness, identifier: str) -> ft.Container:
    """The list item holding the part carrying `identifier`."""
    part = find_id(app, identifier)
    return next(h for h in _holders(app) if h.content is part)


def _identifiers(app: AppHarness) -> set[str]:
    return {c.identifier for c, _ in app.walk(visible_only=True)
            if isinstance(c, ft.Semantics) and c.identifier}


def _buttons_column(app: AppHarness) -> ft.Column:
    column = find_id(app, "turn-buttons").content
    assert isinstance(column, ft.Column)
    return column


def test_the_lists_items_stay_shown_through_a_round(store: MemoryStore) -> None:
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    with open_app(store, f"/play/village/{sid}") as app:
        items = _holders(app)
        _assert_all_shown(items)
        assert "last-turn" not in _identifiers(app)
        buttons = _buttons_column(app)
        panel_holder, button_row = buttons.controls
        assert isinstance(panel_holder, ft.Container)
        assert panel_holder.content is None and button_row.visible is not False

        below = _holder_of(app, "turn-buttons")
        sent = len(app.conn.frames)
        tap(app, cube_id(store, sid, space, colour))
        assert all(a is b for a, b in zip(_holders(app), items, strict=True))
        _assert_all_shown(items)
        # The cube taken, the buttons come up right under the turn's instruction (the
        # next tap in view on a phone), in a holder of their own; the one below empties.
        above = _holder_of(app, "turn-buttons")
        assert items.index(above) == items.index(_holder_of(app, "table-turn")) + 1
        assert _empty(below) and below.padding is None
        # The buttons above were in their holder, hidden, since the table was built: shown
        # now, not sent whole (no label of theirs in the patch).
        assert b"End turn" not in _sent_since(app, sent)
        top = _buttons_column(app)
        top_panel, top_row = top.controls
        assert isinstance(top_panel, ft.Container)
        # The acting player's panel button comes in its holder, above the other buttons.
        assert top_panel.content is not None
        assert top_panel.padding == ft.Padding.only(bottom=8)
        assert "Do the action on Ann's board" in app.visible_texts()

        sent = len(app.conn.frames)
        app.click("End turn")
        assert "Bo's turn" in app.visible_texts()
        assert b"Well" not in _sent_since(app, sent)  # the buttons below shown, not resent
        card = _holder_of(app, "last-turn")  # the card comes in its own holder
        assert any(card is item for item in items)
        assert all(a is b for a, b in zip(_holders(app), items, strict=True))
        _assert_all_shown(items)
        assert _empty(above) and not _empty(below)  # down again
        assert _buttons_column(app) is buttons
        assert panel_holder.content is None and panel_holder.padding is None
        assert "Do the action on Ann's board" not in app.visible_texts()

        tap(app, "undo")
        tap(app, "undo")
        assert "last-turn" not in _identifiers(app)
        assert card.content is None and card.padding is None  # emptied, still shown
        assert all(a is b for a, b in zip(_holders(app), items, strict=True))
        _assert_all_shown(items)
