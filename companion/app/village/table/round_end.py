"""The round's end as a screen of its own: step by step in the order the table does it
(the last turn's deaths, the mass - bought out, the black bag's draw, church moves, the
bonus - then the new round: start player, filling the bag, the draw onto each space), each
step with a done mark saved with the game (companion.village.table_marks).

The table opens it by itself when a round ends (TableScreen) and links to it while steps
are still open; Back returns to the table. The steps come from the engine's log
(companion.village.round_end), worked out once per change of the log (cached here, warmed
on the store thread by the controller), never a rule of the app's own.
"""

from __future__ import annotations

from functools import partial

import flet as ft

from companion.app.kit import (
    BODY_TEXT_SIZE,
    back_button,
    big_button,
    body,
    icon_button,
)
from companion.app.village.present import note_text
from companion.app.village.table.base import SessionScreen
from companion.app.village.table.paths import panel_route, round_end_route, table_route
from companion.app.village.table.round_end_data import open_steps, round_end_of
from companion.village import table_marks
from companion.village.round_end import Step
from companion.village.session import VillageSession

STEP_TITLES = {
    "deaths": "village.round_end.step.deaths",
    "buyout": "village.round_end.step.buyout",
    "mass_draw": "village.round_end.step.mass_draw",
    "church": "village.round_end.step.church",
    "bonus": "village.round_end.step.bonus",
    "start_player": "village.round_end.step.start_player",
    "bag_fill": "village.round_end.step.bag_fill",
    "bag_draw": "village.round_end.step.bag_draw",
    "final_scoring": "village.round_end.step.final_scoring",
}

# ---- the screen --------------------------------------------------------------------------------
class RoundEndScreen(SessionScreen):
    round_end = "shows"  # the screen under it does not open it again

    def build(self) -> ft.View:
        t = self.ctx.t
        self.title = ft.Text(t("village.round_end.title_plain"))
        self.list = ft.ListView([body(t("common.loading"), muted=True)], expand=True,
                                spacing=12,
                                padding=ft.Padding.symmetric(horizontal=12, vertical=10))
        self.view = ft.View(
            route=round_end_route(self.session_id),
            appbar=ft.AppBar(
                leading=back_button(t("village.round_end.back"), self._back),
                title=self.title,
                actions=self.history_buttons()),
            padding=0,
            controls=[ft.Semantics(identifier="round-end", content=self.list)])
        return self.view

    def show_failure(self, message: str) -> None:
        self.list.controls = self.failure_controls(message)

    def _back(self) -> None:
        self.ctx.go(table_route(self.session_id))

    def render(self) -> None:
        controller = self.controller
        assert controller is not None
        t = self.ctx.t
        session = controller.session
        end = round_end_of(session)
        done = table_marks.done(session.table_marks, session.state)
        controls: list[ft.Control] = []
        if self.ctx.read_only:
            note = self.read_only_note()
            if note is not None:
                controls.append(note)
        if end is None:
            self.title.value = t("village.round_end.title_plain")
            controls.append(ft.Semantics(identifier="round-end-none", content=body(
                t("village.round_end.none"), muted=True)))
        else:
            self.title.value = (t("village.round_end.title_final") if end.final
                                else t("village.round_end.title", round=end.round))
            current = end.scope == table_marks.scope(session.state)
            if current and end.steps:
                left = open_steps(end, done)
                controls.append(ft.Semantics(identifier="round-end-progress", content=body(
                    t("village.round_end.progress", done=len(end.steps) - left,
                      total=len(end.steps)), muted=True)))
            elif not current:  # an older round's end: what happened, nothing to tick
                controls.append(body(t("village.round_end.past"), muted=True))
            for step in end.steps:
                controls.append(self._step(step, step.id in done, current))
            if end.under_way:
                controls.append(self._under_way(session))
        controls.append(big_button(t("village.round_end.to_table"), ft.Icons.TABLE_RESTAURANT,
                                   self._back, identifier="round-end-to-table"))
        self.list.controls = controls

    def _under_way(self, session: VillageSession) -> ft.Control:
        """The mass (or a draw) still waits for the table: where to answer it."""
        t = self.ctx.t
        mass = session.state.phase in table_marks.ROUND_END_PHASES - {"scoring", "finished"}
        target = (panel_route(self.session_id, "mass") if mass
                  else table_route(self.session_id))
        return ft.Semantics(identifier="round-end-under-way", content=ft.Column([
            body(t("village.round_end.under_way")),
            ft.FilledTonalButton(t("village.banner.open_mass") if mass
                                 else t("village.round_end.to_table"),
                                 on_click=lambda: self.ctx.go(target), height=48),
        ], spacing=8, tight=True))

    def _step(self, step: Step, ticked: bool, current: bool) -> ft.Control:
        t = self.ctx.t
        check = icon_button(
            ft.Icons.CHECK_BOX if ticked else ft.Icons.CHECK_BOX_OUTLINE_BLANK,
            t("village.instructions.undo_done" if ticked else "village.instructions.done"),
            partial(self._tick, step.id), disabled=not current)
        muted = ft.Colors.ON_SURFACE_VARIANT if ticked else None
        strike = ft.TextStyle(decoration=ft.TextDecoration.LINE_THROUGH) if ticked else None
        lines: list[ft.Control] = [ft.Text(t(STEP_TITLES[step.kind]), size=BODY_TEXT_SIZE,
                                           weight=ft.FontWeight.W_600, color=muted)]
        lines += [ft.Text(note_text(self.ctx, line.key, dict(line.params)),
                          size=BODY_TEXT_SIZE, color=muted, style=strike)
                  for line in step.lines]
        box = ft.Container(
            padding=ft.Padding.only(left=4, right=12, top=6, bottom=8), border_radius=12,
            bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
            content=ft.Row([
                ft.Semantics(identifier=f"round-end-step-{step.kind}-done", content=check),
                ft.Column(lines, spacing=4, tight=True, expand=True)],
                spacing=4, vertical_alignment=ft.CrossAxisAlignment.START))
        return ft.Semantics(identifier=f"round-end-step-{step.kind}", checked=ticked,
                            content=box)

    def _tick(self, step_id: str) -> None:
        """Saved with the game (off the loop); every client showing it re-renders."""
        if self.controller is not None:
            self.ctx.spawn(self.controller.toggle_mark(step_id))
