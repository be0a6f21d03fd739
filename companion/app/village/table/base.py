"""What the table and the log share: open the session off the event loop, re-render on any
client's change, and undo/redo buttons that are always in the app bar.

On a joined phone (table mode) they also re-render when the host changes the phone's
standing (watch-only, the acting setting), keep undo/redo disabled while the phone may not
act, and tell the phone when its seat comes up (a vibration; a message on screens without
the seat line at the top)."""

from __future__ import annotations

import asyncio
import logging

import flet as ft

from companion.app.kit import big_button, body, icon_button, read_only_note
from companion.app.routing import HOME_ROUTE, Screen
from companion.app.table_mode.acting import controls_locked, phone_seat
from companion.app.table_mode.turn_notice import is_phone, notice_turn, seat_is_up
from companion.app.village.controller import VillageController
from companion.store.base import CorruptSession, DamagedGame, StaleWrite

logger = logging.getLogger(__name__)


class SessionScreen(Screen):
    controller: VillageController | None = None
    _shown = False
    _opening = False
    _unsubscribe_share: object = None
    shows_seat_state = False  # the screen shows the phone's seat line (table, panels)

    @property
    def session_id(self) -> str:
        return self.params.get("session_id", "")

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

    # ---- lifecycle ----------------------------------------------------------------------------
    def did_appear(self) -> None:
        self._shown = True
        self._listen_to_share()
        if self.controller is not None and self.controller.subscribe(self._changed):
            self._changed()  # shown again: listening again, catch up
            return
        # First time, or the game was released from memory meanwhile: (re)open it.
        self.controller = None
        if not self._opening:  # an open under way subscribes when it lands
            self.ctx.spawn(self._open())

    def will_disappear(self) -> None:
        self._shown = False
        unsubscribe, self._unsubscribe_share = self._unsubscribe_share, None
        if callable(unsubscribe):
            unsubscribe()
        if self.controller is not None:
            self.controller.unsubscribe()

    async def _open(self) -> None:
        self._opening = True
        try:
            await self._open_and_listen()
        finally:
            self._opening = False

    async def _open_and_listen(self) -> None:
        for _attempt in range(3):  # a release racing this open makes it open again
            try:
                controller = await VillageController.open(self.ctx, self.session_id)
            except StaleWrite:  # saved elsewhere while it was being opened: open again
                continue
            except (DamagedGame, CorruptSession) as exc:  # set aside: Home lists it
                logger.warning("Village session %s was set aside: %s", self.session_id,
                               exc.problem.reason)
                self.show_failure(self.ctx.set_aside_text(exc.problem))
                self.update_page()
                return
            except Exception as exc:  # missing save: say so, never crash
                logger.exception("opening Village session %s failed", self.session_id)
                self.show_failure(self.ctx.t("village.open_failed", error=str(exc)))
                self.update_page()
                return
            if not self._shown:  # left before it opened: the hub releases it by itself
                self.controller = controller
                return
            if controller.subscribe(self._changed):
                self.controller = controller
                self._changed()
                return
        logger.warning("Village session %s was released while opening", self.session_id)

    def _changed(self) -> None:
        if not self._page_alive():  # this phone went away: stop listening to the game
            if self.controller is not None:
                self.controller.unsubscribe()
            return
        self._refresh_history()
        self.render()
        self._notice_turn()
        self.update_page()

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

    def _page_alive(self) -> bool:
        try:
            return self.ctx.page.session is not None
        except RuntimeError:  # flet: "An attempt to fetch destroyed session."
            return False

    def update_page(self) -> None:
        try:
            self.ctx.page.update()
        except Exception as exc:  # the client went away meanwhile
            logger.info("page update skipped: %s", exc)

    # ---- for subclasses -----------------------------------------------------------------------
    def render(self) -> None:
        raise NotImplementedError

    def failure_controls(self, message: str) -> list[ft.Control]:
        return [ft.Semantics(identifier="open-failed", content=body(message)),
                big_button(self.ctx.t("common.home"), ft.Icons.HOME,
                           lambda: self.ctx.go(HOME_ROUTE), filled=False)]

    def show_failure(self, message: str) -> None:
        raise NotImplementedError

    def read_only_note(self) -> ft.Control | None:
        """A short line while saving is off (the data folder cannot be written)."""
        return read_only_note(self.ctx.t("store.read_only_short")) if self.ctx.read_only \
            else None
