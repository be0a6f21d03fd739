"""Copy that fits its screen (issue 13, point 10): the bag dialog, which only shows, is
closed with Close (not Cancel); the solo wizard's player step speaks of one player."""

from __future__ import annotations

from companion.store.memory import MemoryStore

from .conftest import make_game, open_app


def test_the_bag_dialog_only_shows_so_its_button_is_close(store: MemoryStore) -> None:
    sid = make_game(store)
    with open_app(store, f"/play/village/{sid}") as app:
        app.click("Bag")
        assert app.find_all(identifier="dialog-close")
        assert app.find_all(identifier="dialog-cancel") == []
        app.click("Close")
        assert app.find_all(identifier="dialog-bag") == []


def test_the_solo_wizard_does_not_speak_of_seats_in_clockwise_order(
        store: MemoryStore) -> None:
    with open_app(store, "/new/village-solo") as app:
        app.click("Next")
        texts = app.visible_texts()
        assert "Your name and colour, then Karla's colour." in texts
        assert not any("clockwise" in t for t in texts)
    with open_app(store, "/new/village") as app:
        app.click("Next")
        assert "Seats in clockwise order. Each player picks a colour." in app.visible_texts()
