"""Closing a dialog, and moving to another screen only once the phone has closed it.

Flet's web client closes a dialog by popping the navigator's top route. When the same
update also pushes a view (the round-end screen opening by itself as the answer to the
game's last death is saved), the pushed view is on top by then: the client pops the view
and the dialog stays drawn over the table, its answer saved but the question still shown.
So every dialog is closed here, and a navigation asked for while a close is not yet
confirmed by the client (its dismiss event) waits for it, or for SETTLE_TIMEOUT_S when the
client never answers (it went away).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import flet as ft

logger = logging.getLogger(__name__)

# A dialog's close animation takes about 0.25 s in the web client; a client that has not
# confirmed the close by then never will (it went away), and the navigation goes ahead.
SETTLE_TIMEOUT_S = 1.0


class ClosingDialogs:
    """The dialogs of one page whose close the client has not confirmed yet, and the
    actions (navigations) waiting for them."""

    def __init__(self) -> None:
        self._closing: dict[int, ft.DialogControl] = {}
        self._waiting: list[Callable[[], object]] = []
        self._timer: asyncio.TimerHandle | None = None

    @property
    def settling(self) -> bool:
        return bool(self._closing)

    def watch(self, dialog: ft.DialogControl,
              on_dismiss: Callable[[ft.Event[ft.DialogControl]], object] | None = None) -> None:
        """Hear `dialog`'s dismissal (set before `page.show_dialog`); `on_dismiss` is the
        dialog's own handler, called after."""

        def dismissed(e: ft.Event[ft.DialogControl]) -> None:
            self.dismissed(dialog)
            if on_dismiss is not None:
                on_dismiss(e)

        dialog.on_dismiss = dismissed

    def close(self, dialog: ft.DialogControl) -> None:
        """Close `dialog` by reference (never `page.pop_dialog()`: a toast may be on top).
        A navigation asked for before the client confirms it waits (see `after`)."""
        if not dialog.open:
            return
        dialog.open = False
        self._closing[id(dialog)] = dialog
        self._start_timer()
        try:
            dialog.update()
        except Exception as exc:  # the page went away meanwhile: nothing to wait for
            logger.info("dialog close skipped: %s", exc)
            self.dismissed(dialog)

    def dismissed(self, dialog: ft.DialogControl) -> None:
        """The client closed `dialog` (its dismiss event)."""
        self._closing.pop(id(dialog), None)
        if not self._closing:
            self._settle()

    def after(self, action: Callable[[], object]) -> None:
        """Run `action` now, or once every dialog being closed is closed on the client."""
        if not self._closing:
            action()
            return
        self._waiting.append(action)

    def _start_timer(self) -> None:
        if self._timer is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # closed outside the page's loop: nobody can wait anyway
            return
        self._timer = loop.call_later(SETTLE_TIMEOUT_S, self._time_out)

    def _time_out(self) -> None:
        self._timer = None
        if self._closing:
            logger.info("%d dialog close(s) not confirmed by the client: going on",
                        len(self._closing))
            self._closing.clear()
            self._settle()

    def _settle(self) -> None:
        timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()
        waiting, self._waiting = self._waiting, []
        for action in waiting:
            try:
                action()
            except Exception:  # one waiting navigation must not keep the next one back
                logger.exception("an action waiting for a dialog's close failed")
