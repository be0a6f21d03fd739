"""The screen for a route the app does not have (a mistyped or outdated link)."""

from __future__ import annotations

import flet as ft

from companion.app.kit import back_button, big_button, body, heading
from companion.app.routing import HOME_ROUTE, Screen


class NotFoundScreen(Screen):
    identifier = "not-found"

    def build(self) -> ft.View:
        t = self.ctx.t
        title = t("not_found.title")
        return ft.View(
            appbar=ft.AppBar(leading=back_button(t("common.back"), self.ctx.back),
                             title=ft.Text(title)),
            padding=16,
            spacing=16,
            controls=[
                ft.Semantics(identifier=self.identifier, content=ft.Column([
                    ft.Icon(ft.Icons.SEARCH_OFF, size=48),
                    heading(title),
                    body(t("not_found.body", route=self.params.get("route", ""))),
                ], spacing=12)),
                big_button(t("common.home"), ft.Icons.HOME,
                           lambda: self.ctx.go(HOME_ROUTE), filled=False),
            ],
        )
