"""The game log: every event in plain words, newest first, 20 to a page, with "go back
to here" on each entry (undoes every later action; redo brings them back). Above them a
note says which rules the game follows (its rules version, the readings it plays by that
differ from the app's) with the way to "How this app reads the rules".

A finished game's log is read only: no "go back to here", no undo or redo (undoing at the
table is still there for an end reached by mistake), a line saying so and the way to its
step-by-step replay. A "go back" tapped on a copy that went stale as the game finished
elsewhere is refused with the same words."""

from __future__ import annotations

import logging
from functools import partial

import flet as ft

from companion.app.kit import BODY_TEXT_SIZE, back_button, big_button, body, icon_button, pager
from companion.app.paging import page_slice
from companion.app.table_mode.acting import by_phone_text
from companion.app.village.log.model import LogEntry, build_entries, merge_counter_taps
from companion.app.village.log.words import describe, drawn_by_the_app, source_text
from companion.app.village.rules_screen import rules_note
from companion.app.village.table.base import SessionScreen
from companion.app.village.table.paths import game_rules_route, log_route, table_route
from companion.core.json_types import JsonObject
from companion.store.base import SessionStore
from companion.village.components import ComponentData
from companion.village.setup import VillageSetup

logger = logging.getLogger(__name__)
PAGE_SIZE = 20


def _replay(setup: VillageSetup, comp: ComponentData, events: list[JsonObject],
            _store: SessionStore) -> list[LogEntry]:
    return build_entries(setup, comp, events)


class LogScreen(SessionScreen):
    def build(self) -> ft.View:
        t = self.ctx.t
        self.page_index = 0
        self.entries: list[LogEntry] | None = None
        self.lines: list[LogEntry] = []  # the entries as shown (counter taps merged)
        # (copy's generation, log length) the entries were built for: a reload after another
        # window saved to the game brings a new copy whose log may differ at equal length.
        self._built_for: tuple[int, int] = (0, -1)
        self._building = False
        self.rules_slot = ft.Column(spacing=0)
        self.finished_slot = ft.Column(spacing=8, visible=False)
        self.status = ft.Text("", size=14, color=ft.Colors.ON_SURFACE_VARIANT)
        self.rows = ft.Column([body(t("common.loading"), muted=True)], spacing=0)
        self.pager_slot = ft.Column(spacing=0)
        return ft.View(
            route=log_route(self.session_id),
            appbar=ft.AppBar(
                # Back goes to the table, not Home (the route table has no per-game parents).
                leading=back_button(t("common.back"),
                                    lambda: self.ctx.go(table_route(self.session_id))),
                title=ft.Text(t("village.log.title")),
                actions=self._bar_buttons(),
            ),
            scroll=ft.ScrollMode.AUTO,
            padding=ft.Padding.symmetric(horizontal=12, vertical=8),
            controls=[self.rules_slot, self.finished_slot, self.status, self.rows,
                      self.pager_slot],
        )

    def _bar_buttons(self) -> list[ft.Control]:
        self._undo_redo = self.history_buttons()
        return list(self._undo_redo)

    @property
    def finished(self) -> bool:
        return self.controller is not None and self.controller.state.phase == "finished"

    def _render_finished(self) -> None:
        """Read only once the game is finished: the undo/redo buttons go, a note and the
        replay come."""
        finished = self.finished
        for button in self._undo_redo:
            button.visible = not finished
        self.finished_slot.visible = finished
        if not finished:
            self.finished_slot.controls = []
            return
        t = self.ctx.t
        self.finished_slot.controls = [
            ft.Semantics(identifier="log-read-only",
                         content=body(t("history.log.read_only"), muted=True)),
            big_button(t("history.replay.open"), ft.Icons.SLOW_MOTION_VIDEO,
                       lambda: self.ctx.go(f"/history/replay/{self.session_id}"),
                       identifier="log-replay", filled=False),
        ]

    def show_failure(self, message: str) -> None:
        self.rows.controls = self.failure_controls(message)

    # ---- data -------------------------------------------------------------------------------
    def render(self) -> None:
        assert self.controller is not None
        self._render_finished()
        self.rules_slot.controls = [rules_note(
            self.ctx, self.controller.session.setup,
            on_open=lambda: self.ctx.go(game_rules_route(self.session_id, from_log=True)))]
        built_for = (self.controller.opened.generation, len(self.controller.session.events))
        if self.entries is not None and self._built_for == built_for:
            self._render_page()
        elif not self._building:
            self._building = True
            self.ctx.spawn(self._rebuild())

    async def _rebuild(self) -> None:
        assert self.controller is not None
        while True:
            opened = self.controller.opened  # a reload may bring a new copy meanwhile
            session = opened.session
            events = list(session.events)  # a snapshot: the replay runs off the loop
            try:
                entries = await self.ctx.store.run(
                    partial(_replay, session.setup, session.comp, events))
            except Exception as exc:
                logger.exception("building the log failed")
                self._building = False
                self.rows.controls = [body(self.ctx.t("common.error", error=str(exc)))]
                self.update_page()
                return
            if self.controller.opened is opened and len(session.events) == len(events):
                break  # else the game moved on meanwhile: build again
        self.entries, self._building = entries, False
        self.lines = merge_counter_taps(entries)
        self._built_for = (opened.generation, len(events))
        self._render_page()
        self.update_page()

    def _render_page(self) -> None:
        assert self.controller is not None and self.entries is not None
        t = self.ctx.t
        newest_first = list(reversed(self.lines))
        state = page_slice(newest_first, self.page_index, PAGE_SIZE)
        self.page_index = state.index
        latest = self.controller.session.group
        self.status.value = t("village.log.status", count=len(self.entries),
                              redo=len(self.controller.session.redo_stack))
        if not newest_first:
            self.rows.controls = [body(t("village.log.empty"), muted=True)]
        else:
            self.rows.controls = [self._row(entry, latest) for entry in state.items]
        self.pager_slot.controls = [pager(
            state, t("pager.status", page=state.index + 1, pages=state.count),
            t("pager.previous"), t("pager.next"),
            on_previous=partial(self._turn, -1), on_next=partial(self._turn, +1))]

    def _row(self, entry: LogEntry, latest: int) -> ft.Control:
        assert self.controller is not None
        t = self.ctx.t
        meta = [t("village.log.meta", group=entry.group, time=self._time(entry.at))]
        if entry.taps > 1:  # consecutive counter taps shown as one line
            meta.append(self.ctx.tn("village.log.taps", entry.taps, count=entry.taps))
        source = source_text(self.ctx, entry)
        if source:
            meta.append(source)
        phone = None if drawn_by_the_app(entry) else by_phone_text(
            self.ctx, entry.by, [p.name for p in self.controller.state.players])
        if phone:
            meta.append(phone)
        side: list[ft.Control] = []
        if not self.finished:  # a finished game's log is read only
            go_back = icon_button(ft.Icons.RESTORE, t("village.log.go_back"),
                                  partial(self._ask_go_back, entry.group),
                                  disabled=entry.group >= latest)
            side = [ft.Semantics(identifier=f"go-back-{entry.seq}", content=go_back)]
        return ft.Semantics(identifier=f"log-{entry.seq}", content=ft.Container(
            padding=ft.Padding.symmetric(vertical=6),
            border=ft.Border.only(bottom=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
            content=ft.Row([
                ft.Column([
                    ft.Text(describe(self.ctx, self.controller.state, entry),
                            size=BODY_TEXT_SIZE),
                    ft.Text(" · ".join(meta), size=13, color=ft.Colors.ON_SURFACE_VARIANT),
                ], spacing=2, tight=True, expand=True),
                *side,
            ], vertical_alignment=ft.CrossAxisAlignment.CENTER)))

    def _time(self, iso: str) -> str:
        try:
            return self.ctx.date_time(iso)
        except Exception:  # an odd timestamp must not hide the entry
            return iso

    def _turn(self, step: int) -> None:
        self.page_index += step
        self._render_page()

    def _ask_go_back(self, group: int) -> None:
        assert self.controller is not None
        if self.finished:  # finished meanwhile (another window): refuse, say why
            self.ctx.toast(self.ctx.t("history.log.refused"))
            return
        count = self.controller.session.group - group

        async def go_back() -> None:
            if self.finished:
                self.ctx.toast(self.ctx.t("history.log.refused"))
            elif self.controller is not None:
                await self.controller.go_back_to(group)

        self.ctx.confirm(self.ctx.t("village.log.go_back"),
                         self.ctx.t("village.log.go_back_confirm", count=count),
                         lambda: self.ctx.spawn(go_back()),
                         confirm_label=self.ctx.t("village.log.go_back"))
