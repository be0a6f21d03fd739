"""Messages ("Ann already took a cube…", "Undone: …") are said by the app's message strip
(kit/message_strip), never by a snack bar: Flet's web client rebuilds every view in the
stack whenever the page's dialogs or overlay list changes, so a message must change only
the strip's own controls."""

from __future__ import annotations

import asyncio

from flet.messaging.protocol import MessageAction, PatchControlBody

from companion.app.kit.basics import TOUCH_TARGET
from companion.app.kit.message_strip import MessageStrip
from companion.app.village.hub import HUB
from companion.store.memory import MemoryStore

from .conftest import make_game, open_app, tap
from .test_table import cube_id_in, first_cube, taken_elsewhere


def test_a_message_redraws_the_strip_alone(store: MemoryStore) -> None:
    """A refused tap (a stale screen offers a cube after the take): the words are said
    in one patch of the strip; the page's dialogs and overlay lists stay as they were."""
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    with open_app(store, f"/play/village/{sid}") as app:
        stale_id = taken_elsewhere(sid, space, colour)
        app.settle()
        overlay = list(app.page.overlay)
        [host] = overlay
        sent = len(app.conn.messages)
        tap(app, stale_id)
        said = "Ann already took a cube this turn; end the turn first"
        assert app.toasts() == [said]
        patches = [m.body for m in app.conn.messages[sent:]
                   if m.action == MessageAction.PATCH_CONTROL]
        assert patches and all(isinstance(p, PatchControlBody) and p.id == host._i
                               for p in patches), patches
        assert list(app.page.overlay) == overlay and app.page._dialogs.controls == []
        assert getattr(host, "visible", None) is True  # the bar shows; the host never changes
        # The next message replaces it, in the same strip.
        tap(app, stale_id)
        assert app.toasts() == [said]
        assert list(app.page.overlay) == overlay and app.page._dialogs.controls == []
        app.click(key="message-close")  # its 48 px Close button takes it away
        assert app.toasts() == []


def test_undo_says_what_it_undid_in_the_strip(store: MemoryStore) -> None:
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    with open_app(store, f"/play/village/{sid}") as app:
        session = HUB.get(sid).session  # type: ignore[union-attr]
        tap(app, cube_id_in(session.state.spaces, space, colour))
        tap(app, "undo")
        [words] = app.toasts()
        assert words.startswith("Undone")
        assert app.page._dialogs.controls == []


def test_the_strip_shows_one_message_and_hides_only_its_own() -> None:
    strip = MessageStrip()  # on no page: it keeps its state and redraws nothing
    assert strip.text is None
    first = strip.show("Copied to the clipboard", "Close")
    second = strip.show("Undone: Ann took a green cube", "Schließen")
    assert strip.text == "Undone: Ann took a green cube"
    # Its Close button is named in the language of the latest message, 48 px.
    assert strip.close_button.tooltip == "Schließen"
    assert strip.close_button.width == TOUCH_TARGET == strip.close_button.height
    asyncio.run(strip.hide_after(first, seconds=0))  # the first one's time is up: not shown
    assert strip.text == "Undone: Ann took a green cube"
    asyncio.run(strip.hide_after(second, seconds=0))
    assert strip.text is None
    assert strip.control.visible is True  # the host never changes its own visibility
    strip.show("Again", "Close")
    strip.hide()  # Close
    assert strip.text is None


def test_an_offer_has_its_button_which_acts_once_and_takes_the_message_away() -> None:
    strip = MessageStrip()
    done: list[str] = []
    strip.show("Deleted: Ann, Bo", "Close", 10, action=("Undo", lambda: done.append("undo")),
               identifier="deleted-snackbar")
    assert strip.seconds == 10 and strip.said.identifier == "deleted-snackbar"
    assert strip.action_button.visible and strip.action_button.content == "Undo"
    assert strip.action_button.height == TOUCH_TARGET
    strip._act()
    assert done == ["undo"] and strip.text is None
    strip._act()  # a second tap on a button already gone does nothing
    assert done == ["undo"]
    # A plain message after it has no button, and its own identifier again.
    strip.show("Copied", "Close")
    assert not strip.action_button.visible and strip.said.identifier == "message"
    assert strip.seconds == 4
