"""The assistants' tally screens share the Village screens' lifecycle (game_screen.py):
a save that overtook the open opens the game again; a screen shown again listens again
(and catches up) without reopening the game; a page whose client went away is not
updated, and stops listening."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import flet as ft
import pytest

from companion.app.assistants.controller import TallyController
from companion.app.assistants.hub import HUB
from companion.app.assistants.play import TallyScreen
from companion.app.routes import build_routes
from companion.app.routing import Router, RouteSpec, Screen
from companion.store.base import StaleWrite

from ..conftest import ProblemStore
from ..harness import AppHarness, FakeClient
from .helpers import start, texts_in


class Cover(Screen):
    """A screen shown over the tally (as a dialog-like page would be)."""

    def build(self) -> ft.View:
        return ft.View(controls=[ft.Text("Covering")])


def with_cover() -> dict[str, RouteSpec]:
    return {**build_routes(), "/play/villagers/:session_id/cover": RouteSpec(
        Cover, parent="/play/villagers/:session_id")}


@pytest.fixture(autouse=True)
def fresh_hub() -> Iterator[None]:
    yield
    HUB._open.clear()


def tally_screen(app: AppHarness) -> TallyScreen:
    router = cast(Router, cast(Any, app.page.on_view_pop).__self__)
    screen = router.top_screen
    assert isinstance(screen, TallyScreen)
    return screen


def count_opens(monkeypatch: pytest.MonkeyPatch, stale_first: int = 0) -> list[str]:
    """Record TallyController.open calls; the first `stale_first` raise StaleWrite."""
    calls: list[str] = []
    real = TallyController.open.__func__  # type: ignore[attr-defined]

    async def open_(cls: type[TallyController], ctx: Any, session_id: str) -> Any:
        calls.append(session_id)
        if len(calls) <= stale_first:
            raise StaleWrite(session_id, 1, 2)
        return await real(cls, ctx, session_id)

    monkeypatch.setattr(TallyController, "open", classmethod(open_))
    return calls


def test_a_stale_write_at_open_opens_the_tally_again(store: ProblemStore,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    calls = count_opens(monkeypatch, stale_first=1)
    with AppHarness(store) as app:
        sid = start(app, "Villagers", "Ann", "Bo")
        assert calls == [sid, sid]  # the stale open was tried again
        assert app.find_all(identifier="open-failed") == []
        app.click("Increase Food")  # the screen works on the game it opened
        assert "Ann: draft 3 · build 2" in texts_in(app, "limits")


def test_a_tally_shown_again_listens_again_and_catches_up(
        store: ProblemStore, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = count_opens(monkeypatch)
    with AppHarness(store, routes=with_cover()) as app:
        sid = start(app, "Villagers", "Ann", "Bo")
        screen = tally_screen(app)
        app.set_route(f"/play/villagers/{sid}/cover")  # the tally is hidden under it
        assert screen.controller is not None and not screen.controller.subscribed
        with AppHarness(store, client=FakeClient(
                initial_route=f"/play/villagers/{sid}")) as other:
            other.click("Increase Food")  # another phone changes the game meanwhile
            app.set_route(f"/play/villagers/{sid}")  # shown again
            assert screen.controller.subscribed
            assert "Ann: draft 3 · build 2" in texts_in(app, "limits")  # caught up
            other.click("Increase Food")  # and it hears the next change too
            app.settle()
            assert "Ann: draft 4 · build 2" in texts_in(app, "limits")
        assert calls == [sid, sid]  # one open per phone: shown again is not reopened


def test_a_dead_page_is_not_updated_and_stops_listening(
        store: ProblemStore, monkeypatch: pytest.MonkeyPatch) -> None:
    with AppHarness(store) as app:
        sid = start(app, "Villagers", "Ann", "Bo")
        screen = tally_screen(app)
        assert screen.controller is not None and screen.controller.subscribed
        updates: list[int] = []
        page = app.page
        session = page._Page__session  # type: ignore[attr-defined]
        monkeypatch.setattr(page, "_Page__session", lambda: None)  # the client went away
        monkeypatch.setattr(page, "update", lambda *_a: updates.append(1))
        with AppHarness(store, client=FakeClient(
                initial_route=f"/play/villagers/{sid}")) as other:
            other.click("Increase Food")  # tells every screen showing the game
        assert updates == []  # the dead page was not drawn on
        assert not screen.controller.subscribed  # and no longer listens to the game
        opened = HUB.get(sid)
        assert opened is None or screen._changed not in opened.listeners
        monkeypatch.setattr(page, "_Page__session", session)
