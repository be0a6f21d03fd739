"""New-game screen for the assistants: player names in seat order (Small City also shows
each seat's starting money). Creating the session runs on the store thread; then the
running tally opens in its place."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import flet as ft

from companion import games
from companion.app.assistants.controller import TallyController
from companion.app.kit import TOUCH_TARGET, back_button, big_button, body, heading, icon_button
from companion.app.routing import RouteParams, Screen
from companion.tally.api import EditRejected, rules_for

if TYPE_CHECKING:
    from companion.app.context import AppContext

# A refused name, by the problem's key (never by its English wording) -> what the field says.
NAME_TEXTS = {"tally.name_empty": "games.setup.empty",
              "tally.name_duplicate": "games.setup.duplicate"}


def play_route(game: str, session_id: str) -> str:
    """Where the new game opens: its route in the games' registry (companion/games)."""
    return games.play_route(game, session_id) or f"/play/{game}/{session_id}"


class SetupScreen(Screen):
    game: ClassVar[str]
    title_key: ClassVar[str]

    def __init__(self, ctx: AppContext, params: RouteParams) -> None:
        super().__init__(ctx, params)
        rules = rules_for(self.game)
        self.minimum, self.maximum = rules.min_players, rules.max_players
        self.names: list[str] = [""] * max(self.minimum, 2 if self.maximum >= 2 else 1)
        self.errors: dict[int, str] = {}
        self.general: str | None = None
        self.busy = False

    def seat_note(self, index: int) -> str | None:
        """A line under a player's field (Small City: seat and starting money)."""
        return None

    def build(self) -> ft.View:
        t = self.ctx.t
        self._rows = ft.Column(spacing=8)
        self._general = ft.Text("", color=ft.Colors.ERROR, visible=False)
        self._add = ft.TextButton(t("games.setup.add"), icon=ft.Icons.PERSON_ADD,
                                  on_click=self._add_player, height=TOUCH_TARGET)
        self._render()
        return ft.View(
            appbar=ft.AppBar(leading=back_button(t("common.back"), self.ctx.back),
                             title=ft.Text(t(self.title_key))),
            scroll=ft.ScrollMode.AUTO,
            padding=ft.Padding.symmetric(horizontal=16, vertical=12),
            spacing=12,
            controls=[
                heading(t("games.setup.heading")),
                body(t("games.setup.hint", minimum=self.minimum, maximum=self.maximum),
                     muted=True),
                self._rows, self._add, self._general,
                big_button(t("games.setup.start"), ft.Icons.PLAY_ARROW, self._start,
                           identifier="setup-start"),
            ],
        )

    def _render(self) -> None:
        t = self.ctx.t
        rows: list[ft.Control] = []
        for i, name in enumerate(self.names):
            def changed(e: ft.Event[ft.TextField], i: int = i) -> None:
                self.names[i] = e.control.value or ""

            field = ft.TextField(label=t("games.setup.player", number=i + 1), value=name,
                                 on_change=changed, error=self.errors.get(i), expand=True,
                                 helper=self.seat_note(i),
                                 capitalization=ft.TextCapitalization.WORDS)
            remove = icon_button(ft.Icons.REMOVE_CIRCLE_OUTLINE,
                                 t("games.setup.remove", number=i + 1),
                                 lambda _e, i=i: self._remove(i),
                                 disabled=len(self.names) <= self.minimum)
            rows.append(ft.Row([field, remove],
                               vertical_alignment=ft.CrossAxisAlignment.START))
        self._rows.controls = rows
        self._add.disabled = len(self.names) >= self.maximum
        self._general.value = self.general or ""
        self._general.visible = bool(self.general)

    def _add_player(self) -> None:
        if len(self.names) < self.maximum:
            self.names.append("")
            self._render()

    def _remove(self, index: int) -> None:
        if len(self.names) > self.minimum:
            del self.names[index]
            self.errors = {}
            self._render()

    def _start(self) -> None:
        if not self.busy:
            self.busy = True
            self.ctx.spawn(self._create())

    async def _create(self) -> None:
        try:
            session_id = await TallyController.create(self.ctx, self.game, list(self.names))
        except EditRejected as exc:
            self._show_problems(exc)
            return
        except Exception as exc:  # a failed save is shown, the names stay
            self.errors, self.general = {}, self.ctx.failure_text(exc)
            self._render()
            self.ctx.page.update()
            return
        finally:
            self.busy = False
        self.ctx.go(play_route(self.game, session_id))

    def _show_problems(self, exc: EditRejected) -> None:
        t = self.ctx.t
        self.errors, self.general = {}, None
        for problem in exc.problems:
            index = _player_index(problem.field)
            if index is not None:
                msgid = NAME_TEXTS.get(problem.key or "") or f"error.{problem.key}"
                self.errors[index] = (t(msgid, **problem.params) if problem.key
                                      and self.ctx.translator.has(msgid) else problem.message)
            else:
                self.general = t("games.setup.count", minimum=self.minimum,
                                 maximum=self.maximum)
        self._render()
        self.ctx.page.update()


def _player_index(field: str) -> int | None:
    # "players[2].name" -> 2
    if field.startswith("players[") and "]" in field:
        inside = field[len("players["):field.index("]")]
        return int(inside) if inside.isdigit() else None
    return None
