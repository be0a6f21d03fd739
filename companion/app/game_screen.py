"""The one lifecycle of a screen that shows a shared game (the Village table, log, panels
and rules screens, and every scoring assistant's running tally):

- open the game off the event loop when the screen appears; a save that overtook the
  open (StaleWrite) opens it again, and so does a release racing the open;
- a game set aside (damaged) or missing is said on the screen, with a way Home;
- listen to the game while shown: any client's change re-renders it; a screen shown again
  listens again and catches up, or opens the game again when it was released meanwhile;
- a page whose client went away is not updated: it stops listening instead;
- the acting (busy, saved before confirmed, every client told) is the controller's
  (`SharedHandle.run`); a read-only store is said in one short line.

A screen subclasses `GameScreen`, names its controller's `open` in `open_controller` and
draws itself in `render` (and says a failure in `show_failure`).
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar, Generic, TypeVar

import flet as ft

from companion.app.kit import big_button, body, read_only_note
from companion.app.routing import HOME_ROUTE, Screen
from companion.app.shared_sessions import SharedHandle
from companion.store.base import CorruptSession, DamagedGame, StaleWrite

logger = logging.getLogger(__name__)

C = TypeVar("C", bound=SharedHandle[Any])
OPEN_ATTEMPTS = 3  # a release or a save racing the open makes it open again


class GameScreen(Screen, Generic[C]):
    controller: C | None = None
    _shown = False
    _opening = False
    open_failed_key: ClassVar[str] = "games.open_failed"  # with {error}

    @property
    def session_id(self) -> str:
        return self.params.get("session_id", "")

    # ---- for subclasses -------------------------------------------------------------------
    async def open_controller(self) -> C:
        """Open this screen's game (off the event loop): the controller's `open`."""
        raise NotImplementedError

    def opened(self, controller: C) -> None:
        """The game was opened and is listened to (first time, or again): before its first
        render."""

    def render(self) -> None:
        raise NotImplementedError

    def show_change(self) -> None:
        """Draw the game as it is now (any client changed it, or the screen is back)."""
        self.render()

    def show_failure(self, message: str) -> None:
        raise NotImplementedError

    def failure_controls(self, message: str) -> list[ft.Control]:
        return [ft.Semantics(identifier="open-failed", content=body(message)),
                big_button(self.ctx.t("common.home"), ft.Icons.HOME,
                           lambda: self.ctx.go(HOME_ROUTE), filled=False)]

    def read_only_text(self) -> str | None:
        """A short line while saving is off (the data folder cannot be written)."""
        return self.ctx.t("store.read_only_short") if self.ctx.read_only else None

    def read_only_note(self) -> ft.Control | None:
        text = self.read_only_text()
        return read_only_note(text) if text is not None else None

    # ---- lifecycle ------------------------------------------------------------------------
    def did_appear(self) -> None:
        self._shown = True
        if self.controller is not None and self.controller.subscribe(self._changed):
            self._changed()  # shown again: listening again, catch up
            return
        # First time, or the game was released from memory meanwhile: (re)open it.
        self.controller = None
        if not self._opening:  # an open under way subscribes when it lands
            self.ctx.spawn(self._open())

    def will_disappear(self) -> None:
        self._shown = False
        if self.controller is not None:
            self.controller.unsubscribe()

    async def _open(self) -> None:
        self._opening = True
        try:
            await self._open_and_listen()
        finally:
            self._opening = False

    async def _open_and_listen(self) -> None:
        for _attempt in range(OPEN_ATTEMPTS):
            try:
                controller = await self.open_controller()
            except StaleWrite:  # saved elsewhere while it was being opened: open again
                continue
            except (DamagedGame, CorruptSession) as exc:  # set aside: Home lists it
                logger.warning("session %s was set aside: %s", self.session_id,
                               exc.problem.reason)
                self._fail(self.ctx.set_aside_text(exc.problem))
                return
            except Exception as exc:  # missing save: say so, never crash
                logger.exception("opening session %s failed", self.session_id)
                self._fail(self.ctx.t(self.open_failed_key, error=str(exc)))
                return
            if not self._shown:  # left before it opened: the hub releases it by itself
                self.controller = controller
                return
            if controller.subscribe(self._changed):
                self.controller = controller
                self.opened(controller)
                self._changed()
                return
        logger.warning("session %s was released or overtaken while opening",
                       self.session_id)

    def _fail(self, message: str) -> None:
        if self._page_alive():
            self.show_failure(message)
            self.update_page()

    def _changed(self) -> None:
        if not self._page_alive():  # this phone went away: stop listening to the game
            if self.controller is not None:
                self.controller.unsubscribe()
            return
        self.show_change()
        self.update_page()

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
