"""What the Village screens (table, log, panels, rules) share: the game-screen lifecycle
(companion/app/game_screen.py: open off the event loop, re-render on any client's change)
and undo/redo buttons that are always in the app bar.

On a joined phone (table mode) they also re-render when the host changes the phone's
standing (watch-only, the acting setting), keep undo/redo disabled while the phone may not
act, and tell the phone when its seat comes up (a vibration; a message on screens without
the seat line at the top)."""

from __future__ import annotations

import asyncio
from typing import Literal

import flet as ft

from companion.app.game_screen import GameScreen
from companion.app.kit import icon_button
from companion.app.table_mode.acting import controls_locked, phone_seat
from companion.app.table_mode.turn_notice import is_phone, notice_turn, seat_is_up
from companion.app.village.controller import VillageController
from companion.app.village.table.paths import round_end_route
from companion.app.village.table.round_end_follow import round_end_is_new


class SessionScreen(GameScreen[VillageController]):
    _unsubscribe_share: object = None
    shows_seat_state = False  # the screen shows the phone's seat line (table, panels)
    # A round that ends while the screen is shown: the table and the panels open the
    # round-end screen, the round-end screen counts as having shown it, the log and the
    # rules leave it to the table (round_end_follow.py).
    round_end: Literal["opens", "shows", "ignores"] = "ignores"
    open_failed_key = "village.open_failed"

    async def open_controller(self) -> VillageController:
        return await VillageController.open(self.ctx, self.session_id)

    # ---- app bar ------------------------------------------------------------------------------
    def history_buttons(self) -> list[ft.Control]:
        t = self.ctx.t
        # named on the button itself (kit.icon_button), for screen readers (issue 13)
        self.undo_button = icon_button(ft.Icons.UNDO, t("village.undo"), self.undo,
                                       disabled=True)
        self.redo_button = icon_button(ft.Icons.REDO, t("village.redo"), self.redo,
                                       disabled=True)
        return [ft.Semantics(identifier="undo", content=self.undo_button),
                ft.Semantics(identifier="redo", content=self.redo_button)]

    def _refresh_history(self) -> None:
        session = self.controller.session if self.controller else None
        locked = controls_locked(self.ctx)  # a watching phone: nothing to tap
        self.undo_button.disabled = locked or session is None or not session.can_undo()
        self.redo_button.disabled = locked or session is None or not session.can_redo()

    async def undo(self) -> None:
        if self.controller is not None:
            await self.controller.undo()

    async def redo(self) -> None:
        if self.controller is not None:
            await self.controller.redo()

    # ---- lifecycle (GameScreen's, plus the phone's standing in table mode) ---------------------
    def did_appear(self) -> None:
        self._listen_to_share()
        super().did_appear()

    def will_disappear(self) -> None:
        unsubscribe, self._unsubscribe_share = self._unsubscribe_share, None
        if callable(unsubscribe):
            unsubscribe()
        super().will_disappear()

    def show_change(self) -> None:
        self._refresh_history()
        self.render()
        self._follow_round_end()
        self._notice_turn()
        self._tell_take_back()

    def _tell_take_back(self) -> None:
        """Another client undid, redid or went back: said here, once per client (the
        change alone moved cubes on this screen without a word)."""
        if self.controller is None or not self._shown:
            return
        news = self.controller.take_back_news()
        if news is not None:
            self.controller.say_after_change(news)

    # ---- the round end (round_end_follow.py) -----------------------------------------------------
    def _follow_round_end(self) -> None:
        if self.controller is None or not self._shown or self.round_end == "ignores":
            return
        if round_end_is_new(self.ctx, self.session_id, self.controller.state) \
                and self.round_end == "opens":
            self.open_round_end()

    def open_round_end(self) -> None:
        self.ctx.go(round_end_route(self.session_id))

    # ---- table mode: the phone's standing and its turn ------------------------------------------
    def _listen_to_share(self) -> None:
        """A phone re-renders when the host changes what it may do (any thread tells)."""
        share = self.ctx.share
        if not is_phone(self.ctx) or share is None or self._unsubscribe_share is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not on the page's loop (never in the app): nothing to hear
            return
        seen = (controls_locked(self.ctx), phone_seat(self.ctx))

        def heard(_invitation: object) -> None:
            if loop.is_closed():
                return
            loop.call_soon_threadsafe(on_loop)

        def on_loop() -> None:
            nonlocal seen
            now = (controls_locked(self.ctx), phone_seat(self.ctx))
            if now != seen and self._shown and self.controller is not None:
                seen = now
                self._changed()

        self._unsubscribe_share = share.registry.subscribe(heard)

    def _notice_turn(self) -> None:
        if self.controller is None or not is_phone(self.ctx):
            return
        state = self.controller.state
        if notice_turn(self.ctx, seat_is_up(self.ctx, state, self.controller.session.comp)) \
                and not self.shows_seat_state and phone_seat(self.ctx) is not None:
            self.ctx.toast(self.ctx.t("share.turn.yours", player=state.players[
                phone_seat(self.ctx) or 0].name))

