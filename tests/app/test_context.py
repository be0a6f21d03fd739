"""How a game screen plugs in: its own route, the context helpers, the wakelock."""

from __future__ import annotations

import flet as ft

from companion.app.context import AppContext
from companion.app.routes import build_routes
from companion.app.routing import RouteParams, RouteSpec, Screen

from .conftest import ProblemStore
from .harness import AppHarness

EVENTS: list[str] = []


class DemoTableScreen(Screen):
    """Stands in for a future game screen."""

    def build(self) -> ft.View:
        EVENTS.clear()
        return ft.View(controls=[
            ft.Text(f"table {self.params['session_id']}"),
            ft.TextField(label="Player name", on_change=self._named),
            ft.Button("End game", on_click=self._ask),
            ft.Button("Share score", on_click=lambda: self.ctx.device.share_text("Ann 41")),
            ft.Button("Save", on_click=self._save),
        ])

    def _named(self, e: ft.Event[ft.TextField]) -> None:
        EVENTS.append(f"name={e.control.value}")

    def _ask(self) -> None:
        self.ctx.confirm("End the game?", "Scores will be final.",
                         on_confirm=lambda: EVENTS.append("ended"))

    def _save(self) -> None:
        self.ctx.in_background(lambda s: s.set_setting("demo.saved", True),
                               then=lambda _: self.ctx.toast("Saved!"))


def demo_factory(ctx: AppContext, params: RouteParams) -> Screen:
    return DemoTableScreen(ctx, params)


def harness(store: ProblemStore) -> AppHarness:
    routes = build_routes()  # the app's registry plus the new screen, as routes.py would
    routes["/play/demo/:session_id"] = RouteSpec(demo_factory, keeps_awake=True)
    return AppHarness(store, routes=routes)


def test_game_screen_route_confirm_share_and_wakelock(store: ProblemStore) -> None:
    with harness(store) as app:
        app.set_route("/play/demo/s1")
        assert [v.route for v in app.page.views] == ["/", "/play/demo/s1"]
        assert "table s1" in app.visible_texts()
        assert app.client.wakelock_on

        app.type_into("Player name", "Kim")
        assert EVENTS == ["name=Kim"]

        app.click("End game")
        assert "End the game?" in app.visible_texts()
        app.click("Cancel")
        assert "End the game?" not in app.visible_texts() and EVENTS == ["name=Kim"]
        app.click("End game")
        app.click("OK")
        assert EVENTS == ["name=Kim", "ended"]

        app.click("Share score")
        assert app.client.clipboard == "Ann 41"
        assert "Copied to the clipboard" in app.visible_texts()

        app.click("Save")
        assert "Saved!" in app.visible_texts()
        assert store.get_setting("demo.saved") is True

        app.back()
        assert not app.client.wakelock_on
