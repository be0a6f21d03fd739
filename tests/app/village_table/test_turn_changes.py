"""Issue 20 on the table: what the turn that just ended changed, under whose turn it is
now, with a death chosen at the end of the turn and the quill passed."""

from __future__ import annotations

from companion.store.memory import MemoryStore

from .conftest import make_game, open_app, tap, texts_under
from .test_table import cube_id, first_cube


def test_the_turn_summary_tells_the_quill_passed_and_the_death(store: MemoryStore) -> None:
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    with open_app(store, f"/play/village/{sid}") as app:
        tap(app, cube_id(store, sid, space, colour))
        app.set_route(f"/play/village/{sid}/player/0")
        for _ in range(4):  # 12 hourglasses by hand: once round the track, past the quill
            app.click(key="time-plus-3")
        app.set_route(f"/play/village/{sid}")
        assert app.find_all(identifier="last-turn") == []  # the turn is not over yet
        app.click("End turn")
        tap(app, "death-red-1a")  # the death owed, answered at the end of the turn
        said = texts_under(app, "last-turn")
        text = "\n".join(said)
        assert "Ann's turn is over. What changed:" in said
        assert "Time +12: Time marker on space 1 of 12, 12 to the quill" in text, text
        assert "Passed the quill ×1: a family member dies for each pass" in text, text
        assert "Died: number 1, farmyard » village chronicle (Farm)" in text, text
        assert "Bo's turn" in app.visible_texts()
