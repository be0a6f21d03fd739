"""What a phone shows once it is no longer part of the game (the host removed it or
stopped sharing): a short note. Its connection is closed as well, so this shows only
to a client that was still open."""

from __future__ import annotations

import flet as ft

from companion.app.kit import body
from companion.app.routing import Screen
from companion.app.table_mode.paths import LEFT_ROUTE


class LeftScreen(Screen):
    def build(self) -> ft.View:
        t = self.ctx.t
        return ft.View(route=LEFT_ROUTE, appbar=ft.AppBar(
            title=ft.Text(t("share.left.title")), automatically_imply_leading=False),
            padding=16, controls=[ft.Semantics(identifier="share-left",
                                               content=body(t("share.left.text")))])
