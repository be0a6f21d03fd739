"""Stand-ins until the real screens land: "coming soon" for new games, a saved-game
placeholder, and "not found" for unknown routes (all clearly labelled)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from companion.app.routing import HOME_ROUTE, RouteParams, Screen
from companion.app.widgets import back_button, big_button, body, heading

if TYPE_CHECKING:
    from companion.app.context import AppContext


class _MessageScreen(Screen):
    identifier = "placeholder"

    def title(self) -> str:
        raise NotImplementedError

    def message(self) -> str:
        raise NotImplementedError

    def build(self) -> ft.View:
        t = self.ctx.t
        return ft.View(
            appbar=ft.AppBar(leading=back_button(t("common.back"), self.ctx.back),
                             title=ft.Text(self.title())),
            padding=16,
            spacing=16,
            controls=[
                ft.Semantics(identifier=self.identifier, content=ft.Column([
                    ft.Icon(ft.Icons.CONSTRUCTION, size=48),
                    heading(self.title()),
                    body(self.message()),
                ], spacing=12)),
                big_button(t("coming_soon.home"), ft.Icons.HOME,
                           lambda: self.ctx.go(HOME_ROUTE), filled=False),
            ],
        )


class ComingSoonScreen(_MessageScreen):
    """Registered for a route whose screen is not written yet."""

    identifier = "coming-soon"

    def __init__(self, ctx: AppContext, params: RouteParams, *, game_label_key: str) -> None:
        super().__init__(ctx, params)
        self.game_label_key = game_label_key

    def title(self) -> str:
        return self.ctx.t("coming_soon.title")

    def message(self) -> str:
        return self.ctx.t("coming_soon.body", game=self.ctx.t(self.game_label_key))


class SavedSessionScreen(_MessageScreen):
    """Placeholder for `/session/:session_id` until the game screens take it over."""

    identifier = "saved-session"

    def title(self) -> str:
        return self.ctx.t("session.title")

    def message(self) -> str:
        return self.ctx.t("session.body", title=self.params.get("session_id", ""))


class NotFoundScreen(_MessageScreen):
    identifier = "not-found"

    def title(self) -> str:
        return self.ctx.t("not_found.title")

    def message(self) -> str:
        return self.ctx.t("not_found.body", route=self.params.get("route", ""))
