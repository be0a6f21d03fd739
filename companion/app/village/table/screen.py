"""The table: whose turn, the action spaces with their cubes, what to do now, and the
choices the game waits for. Every tap becomes one engine command via the controller."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Literal

import flet as ft

from companion.app.kit import BODY_TEXT_SIZE, TOUCH_TARGET, back_button, body, heading
from companion.app.routing import HOME_ROUTE
from companion.app.table_mode.table_actions import table_mode_actions
from companion.app.village.dialogs.common import DialogSlot
from companion.app.village.dialogs.pending import PendingDialogs, pending_summary
from companion.app.village.dialogs.turn import TurnDialogs
from companion.app.village.present import note_texts
from companion.app.village.table.base import SessionScreen
from companion.app.village.table.karla_board import KarlaBoard
from companion.app.village.table.paths import (
    game_rules_route,
    log_route,
    panel_route,
    table_route,
)
from companion.app.village.table.sections import (
    banner,
    notes_card,
    panel_links,
    players_strip,
    round_draw_panel,
    spaces_panel,
    turn_buttons,
    turn_header,
)
from companion.app.village.table.words import player_name
from companion.village.read import Reader
from companion.village.state import VillageState


class TableScreen(SessionScreen):
    def build(self) -> ft.View:
        t = self.ctx.t
        self.slot = DialogSlot(self.ctx.page)
        self.pending: PendingDialogs | None = None
        self.turn_dialogs: TurnDialogs | None = None
        self.karla: KarlaBoard | None = None
        self.karla_control: ft.Control | None = None
        self.title = ft.Text(t("game.village"))
        self.body = ft.Column([body(t("common.loading"), muted=True)], spacing=14)
        log_button = ft.IconButton(ft.Icons.HISTORY, tooltip=t("village.log.title"),
                                   on_click=lambda: self.ctx.go(log_route(self.session_id)),
                                   width=TOUCH_TARGET, height=TOUCH_TARGET)
        return ft.View(
            route=table_route(self.session_id),
            appbar=ft.AppBar(
                leading=back_button(t("common.back"), lambda: self.ctx.go(HOME_ROUTE)),
                title=self.title,
                actions=[*self.history_buttons(),
                         ft.Semantics(identifier="open-log", content=log_button),
                         *table_mode_actions(self.ctx, self.session_id)],
            ),
            scroll=ft.ScrollMode.AUTO,
            padding=ft.Padding.symmetric(horizontal=12, vertical=10),
            controls=[self.body],
        )

    def will_disappear(self) -> None:
        super().will_disappear()
        self.slot.close()

    def show_failure(self, message: str) -> None:
        self.body.controls = self.failure_controls(message)

    # ---- rendering ----------------------------------------------------------------------------
    def render(self) -> None:
        controller = self.controller
        assert controller is not None
        if self.pending is None:
            self.pending = PendingDialogs(self.ctx, controller, self.slot, self.undo,
                                          on_hidden=self._rerender)
            self.turn_dialogs = TurnDialogs(self.ctx, controller, self.slot)
        session, state = controller.session, controller.state
        t = self.ctx.t
        self.title.value = (t("village.table.title", round=state.round) if state.round
                            else t("village.table.setup"))
        draw_panel = round_draw_panel(self.ctx, session, on_physical=self._redraw_physical,
                                      on_app_redraw=partial(self._redraw_app, "bag"))
        options = Reader(state, session.comp).turn_options()  # what the engine accepts now
        notes = [n for n in session.last_note_data  # the draw panel lists the draw itself
                 if draw_panel is None or n.get("key") != "put_on_space"]
        parts: list[ft.Control | None] = [
            self.read_only_note(),
            *self._banners(state),
            turn_header(self.ctx, state, session.comp),
            notes_card(self.ctx, note_texts(self.ctx, notes)),
            draw_panel,
            ft.Row([heading(t("village.table.spaces")),
                    ft.TextButton(t("village.bag.button"), icon=ft.Icons.SHOPPING_BAG,
                                  on_click=self._open_bag, height=TOUCH_TARGET)],
                   alignment=ft.MainAxisAlignment.SPACE_BETWEEN),
            spaces_panel(self.ctx, state, options, on_take=self._take),
            turn_buttons(self.ctx, state, options, on_well=self._open_well, on_free=self._free,
                         on_end=self._end_turn, on_panel=self._open_current_panel),
            self._karla_board(),
            heading(t("village.table.players")),
            players_strip(self.ctx, state, int(session.comp.v("time_track_length")),
                          self._open_player),
            panel_links(self.ctx, [
                (t("village.table.market"), ft.Icons.STOREFRONT, partial(self._panel, "market")),
                (t("village.table.mass"), ft.Icons.CHURCH, partial(self._panel, "mass")),
                (t("village.table.chronicle"), ft.Icons.MENU_BOOK,
                 partial(self._panel, "chronicle")),
                (t("village.table.score"), ft.Icons.SCOREBOARD, partial(self._panel, "score")),
            ]),
            self._options(),
        ]
        self.body.controls = [p for p in parts if p is not None]
        self.pending.sync()

    def _banners(self, state: VillageState) -> list[ft.Control]:
        t = self.ctx.t
        out: list[ft.Control] = []
        assert self.controller is not None and self.pending is not None
        waiting = self.pending.waiting()
        if waiting is not None and self.pending.is_hidden():
            out.append(banner("info", pending_summary(self.ctx, self.controller, waiting),
                              [(t("village.pending.answer"), self._reopen)],
                              "banner-pending"))
        if state.market_day is not None:
            seller = player_name(self.ctx, state, state.market_day.seller)
            out.append(banner("market", t("village.banner.market", player=seller),
                              [(t("village.banner.open_market"),
                                partial(self._panel, "market"))], "banner-market"))
        if state.phase in ("mass_buyout", "mass_advance"):
            buttons: list[tuple[str, Callable[[], Any]]] = [
                (t("village.banner.open_mass"), partial(self._panel, "mass"))]
            mass = state.mass
            if (Reader(state, self.controller.session.comp).redraw_allowed("mass")
                    and not state.pending):
                buttons.append((t("village.draw.physical"), self._redraw_mass_physical))
                buttons.append((t("village.draw.app_again"), partial(self._redraw_app, "mass")))
            final = mass is not None and mass.final
            out.append(banner("mass", t("village.banner.final_mass" if final
                                        else "village.banner.mass"), buttons, "banner-mass"))
        if state.end is not None and state.phase == "turns":
            who = player_name(self.ctx, state, state.end.triggered_by)
            if not state.end.order_set:
                rest = t("village.banner.end_after_turn")
            elif state.end.final_order:
                rest = t("village.banner.end_still", players=", ".join(
                    player_name(self.ctx, state, i) for i in state.end.final_order))
            else:
                rest = t("village.banner.end_last")
            out.append(banner("end", t("village.banner.end", player=who) + " " + rest,
                              [], "banner-end"))
        if state.phase in ("scoring", "finished"):
            out.append(banner("end", t("village.stage.scoring" if state.phase == "scoring"
                                       else "village.stage.finished"),
                              [(t("village.banner.open_score"), partial(self._panel, "score"))],
                              "banner-score"))
        return out

    def _karla_board(self) -> ft.Control | None:
        assert self.controller is not None
        if self.controller.state.karla is None:
            return None
        if self.karla is None:  # built once: its fate-tile switchers animate flips
            self.karla = KarlaBoard(self.ctx)
            self.karla_control = self.karla.build()
        self.karla.update(self.controller.session)
        return self.karla_control

    def _options(self) -> ft.Control:
        assert self.controller is not None
        t, session = self.ctx.t, self.controller.session
        rows: list[ft.Control] = [self._switch_row(
            t("village.options.manual_draws"), session.draw_mode == "manual",
            self._toggle_draw_mode, "option-manual-draws")]
        if self.controller.state.solo:
            rows.append(self._switch_row(t("village.options.karla_auto"),
                                         session.karla_policy == "auto",
                                         self._toggle_karla_policy, "option-karla-auto"))
        rows.append(ft.Semantics(identifier="open-rules", content=ft.TextButton(
            t("readings.title"), icon=ft.Icons.RULE, height=TOUCH_TARGET,
            on_click=lambda: self.ctx.go(game_rules_route(self.session_id)))))
        return ft.Column([heading(t("village.options.heading")), *rows], spacing=4)

    @staticmethod
    def _switch_row(label: str, value: bool, on_change: Any, identifier: str) -> ft.Control:
        return ft.Semantics(identifier=identifier, content=ft.Row([
            ft.Text(label, size=BODY_TEXT_SIZE, expand=True),
            ft.Semantics(label=label, content=ft.Switch(value=value, on_change=on_change))],
            vertical_alignment=ft.CrossAxisAlignment.CENTER))

    # ---- taps ---------------------------------------------------------------------------------
    async def _take(self, space: str, colour: str) -> None:
        if self.controller is not None:
            await self.controller.dispatch({"type": "take_cube", "space": space,
                                            "colour": colour})

    async def _end_turn(self) -> None:
        if self.controller is not None:
            await self.controller.dispatch({"type": "end_turn"})

    async def _free(self) -> None:
        if self.controller is not None:
            await self.controller.dispatch({"type": "free_action"})

    def _open_well(self) -> None:
        if self.turn_dialogs is not None:
            self.turn_dialogs.open_well()

    def _open_bag(self) -> None:
        if self.turn_dialogs is not None:
            self.turn_dialogs.open_bag()

    def _redraw_physical(self) -> None:
        if self.turn_dialogs is not None:
            self.turn_dialogs.open_redraw("bag")

    def _redraw_mass_physical(self) -> None:
        if self.turn_dialogs is not None:
            self.turn_dialogs.open_redraw("mass")

    def _redraw_app(self, draw: Literal["bag", "mass"] = "bag") -> None:
        async def redraw() -> None:
            if self.controller is not None:
                await self.controller.redraw(draw)

        self.ctx.confirm(self.ctx.t("village.draw.app_again"),
                         self.ctx.t("village.draw.app_again_confirm" if draw == "bag"
                                    else "village.draw.app_again_mass"),
                         lambda: self.ctx.spawn(redraw()))

    def _reopen(self) -> None:
        if self.pending is not None:
            self.pending.reopen()
            self._rerender()

    def _rerender(self) -> None:
        # Explicit: a handler that opened or closed a dialog has already called update(),
        # which turns Flet's automatic update after the handler off.
        self.render()
        self.update_page()

    def _panel(self, name: str) -> None:
        self.ctx.go(panel_route(self.session_id, name))

    def _open_player(self, index: int) -> None:
        self.ctx.go(panel_route(self.session_id, f"player/{index}"))

    def _open_current_panel(self) -> None:
        if self.controller is not None:
            self._open_player(self.controller.state.current)

    async def _toggle_draw_mode(self, e: ft.Event[ft.Switch]) -> None:
        if self.controller is not None:
            mode = "manual" if e.control.value else "app"
            if not await self.controller.set_prefs(draw_mode=mode):
                self._changed()

    async def _toggle_karla_policy(self, e: ft.Event[ft.Switch]) -> None:
        if self.controller is not None:
            policy = "auto" if e.control.value else "ask"
            if not await self.controller.set_prefs(karla_policy=policy):
                self._changed()
