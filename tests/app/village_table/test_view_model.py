"""Four clients on one game: a change works out what the table shows from the game (the
Reader's answers, the words derived from the state) once per language, not once per
client, and every client still shows it with its own controls (issue 23)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest

from companion.app.village.table import view_model
from companion.store.memory import MemoryStore
from companion.village.read import Reader
from companion.village.service import VillageService

from ..harness import AppHarness, FakeClient
from .conftest import make_game, tap, texts_under, village_only_routes
from .test_table import cube_id, first_cube


def table_client(store: MemoryStore, sid: str, locale: str = "en-US") -> AppHarness:
    return AppHarness(store, routes=village_only_routes(), client=FakeClient(
        initial_route=f"/play/village/{sid}", locales=(locale,)))


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """How often the view model and the Reader query inside it are worked out."""
    calls = {"view": 0, "redraw_allowed": 0}
    compute, redraw_allowed = view_model.compute_table_view, Reader.redraw_allowed

    def counting_compute(*args: Any) -> view_model.TableView:
        calls["view"] += 1
        return compute(*args)

    def counting_redraw(self: Reader, *args: Any) -> bool:
        calls["redraw_allowed"] += 1
        return redraw_allowed(self, *args)

    monkeypatch.setattr(view_model, "compute_table_view", counting_compute)
    monkeypatch.setattr(Reader, "redraw_allowed", counting_redraw)
    yield calls


def test_one_change_computes_the_table_once_for_four_clients(
        store: MemoryStore, counted: dict[str, int]) -> None:
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    with ExitStack() as stack:
        clients = [stack.enter_context(table_client(store, sid)) for _ in range(4)]
        assert all("Ann's turn" in c.visible_texts() for c in clients)
        counted.update(view=0, redraw_allowed=0)
        tap(clients[1], cube_id(store, sid, space, colour))
        for client in clients:
            client.settle()
        # Every client re-rendered from one view of the change, made once.
        assert counted["view"] == 1
        # The draw's "may it be redone" question, asked by the view (round_draw) once.
        assert counted["redraw_allowed"] == 1
        for client in clients:
            assert f"{colour} ×1" in texts_under(client, "player-0")
            assert any(t.startswith("Ann: do the") for t in client.visible_texts())
        counted.update(view=0, redraw_allowed=0)
        tap(clients[3], "undo")
        for client in clients:
            client.settle()
        assert counted["view"] == 1
        assert all("No cubes" in texts_under(c, "player-0") for c in clients)


def test_each_language_gets_its_own_view(store: MemoryStore,
                                         counted: dict[str, int]) -> None:
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    with ExitStack() as stack:
        english = [stack.enter_context(table_client(store, sid)) for _ in range(2)]
        german = stack.enter_context(table_client(store, sid, "de-DE"))
        counted.update(view=0)
        tap(english[0], cube_id(store, sid, space, colour))
        for client in (*english, german):
            client.settle()
        assert counted["view"] == 2  # English once, German once
        assert "Ann: take a cube (or use the well)" not in german.visible_texts()
        assert any(t.startswith("Ann: do the") for t in english[1].visible_texts())
        assert not any(t.startswith("Ann: do the") for t in german.visible_texts())


def test_a_view_is_never_used_for_a_later_change(store: MemoryStore) -> None:
    """The shared values follow the session: a change made without any screen (the rules
    applied to the copy directly) is a new change, with values of its own."""
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    session = VillageService(store).open(sid)
    first = view_model.shared(session, "probe", object)
    assert view_model.shared(session, "probe", object) is first  # same change: shared
    session.execute({"type": "take_cube", "space": space, "colour": colour})
    second = view_model.shared(session, "probe", object)
    assert second is not first
    session.undo()
    assert view_model.shared(session, "probe", object) not in (first, second)
