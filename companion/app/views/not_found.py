"""The screen for a route the app does not have (a mistyped or outdated link)."""

from __future__ import annotations

import flet as ft

from companion.app.routing import HOME_ROUTE, Screen
from companion.app.widgets import back_button, big_button, body, heading


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
                big_button(t("common.home"), ft.Icons.HOME,
                           lambda: self.ctx.go(HOME_ROUTE), filled=False),
            ],
        )


class NotFoundScreen(_MessageScreen):
    identifier = "not-found"

    def title(self) -> str:
        return self.ctx.t("not_found.title")

    def message(self) -> str:
        return self.ctx.t("not_found.body", route=self.params.get("route", ""))
