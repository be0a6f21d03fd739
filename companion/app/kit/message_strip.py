"""The app's messages ("Undone: …", a refusal, "Copied", Home's "Deleted: … [Undo]"): a
strip at the bottom of the screen that lives in the page's overlay for the whole session,
with a 48 px Close and, for a message that offers one, a 48 px button (Material's snack bar
buttons are 40 px in Flet 1.0.5).

Why not a snack bar: Flet's web client (1.0.5, view.dart) has every view in the stack
listen to the page's dialogs and overlay lists, and rebuilds each whole view when either
list changes. A snack bar is added to the dialogs list to show and removed again after
it closes, so each message rebuilt the table and Home under it twice (about 700 control
builds; a 30-40 ms frame in desktop Chromium, several times that on a phone). The strip
is added once, when the page starts; a message then changes the strip's own words and
whether its bar shows, and only the strip is redrawn. The bar never slides: it appears
and goes in one frame, so a message does not keep the phone drawing frames while the
next tap's answer travels.

The host never changes its own `visible`: a control's visibility is also announced to
its parent (here the overlay list, which would rebuild every view again); the bar inside
it does. With the bar hidden the host has no size and takes no taps.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import flet as ft

from companion.app.kit.basics import TOUCH_TARGET, icon_button

logger = logging.getLogger(__name__)

SECONDS = 4.0  # as long as a snack bar's default
EDGE = 12  # px between the bar and the window's edges
WORDS_ID = "message"  # the words' identifier unless a message names its own
Action = tuple[str, Callable[[], object]]  # a button's label and what it does
STRIP_ATTRIBUTE = "message_strip"


def strip_of(page: ft.Page) -> MessageStrip:
    """The page's message strip (AppContext puts it in the overlay)."""
    for control in page.overlay:
        strip = getattr(control, STRIP_ATTRIBUTE, None)
        if isinstance(strip, MessageStrip):
            return strip
    raise LookupError("no message strip on this page")


class MessageStrip:
    """Shows one message at a time; a new one replaces the one on screen."""

    def __init__(self) -> None:
        self.words = ft.Text("", color=ft.Colors.ON_INVERSE_SURFACE, expand=True)
        self.said = ft.Semantics(identifier=WORDS_ID, live_region=True, content=self.words,
                                 expand=True)
        # An optional button ("Undo"): 48 px high, light on the bar's dark background.
        self.action_button = ft.TextButton("", on_click=self._act, height=TOUCH_TARGET,
                                           style=ft.ButtonStyle(color=ft.Colors.INVERSE_PRIMARY),
                                           visible=False, key="message-action")
        self._action: Action | None = None
        self.close_button = icon_button(ft.Icons.CLOSE, "", lambda: self.hide(),
                                        key="message-close")
        if isinstance(self.close_button.icon, ft.Icon):  # light on the bar's dark background
            self.close_button.icon.color = ft.Colors.ON_INVERSE_SURFACE
        self.bar = ft.Container(
            content=ft.Row([self.said, self.action_button, self.close_button],
                           spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            bgcolor=ft.Colors.INVERSE_SURFACE, border_radius=8,
            padding=ft.Padding.only(left=16, top=4, right=4, bottom=4),
            visible=False)
        self.control = ft.Container(content=self.bar, left=EDGE, right=EDGE, bottom=EDGE)
        # From the page back to the strip (tests read the message's seconds): a plain
        # attribute, not a dataclass field, so never sent to the client.
        setattr(self.control, STRIP_ATTRIBUTE, self)
        self._shown = 0  # which message is on screen: a timer hides only its own
        self.seconds = SECONDS  # how long the message on screen stays

    @property
    def text(self) -> str | None:
        """The message on screen (None: none)."""
        return str(self.words.value) if self.bar.visible else None

    def show(self, text: str, close_name: str, seconds: float = SECONDS, *,
             action: Action | None = None, identifier: str = WORDS_ID) -> int:
        """Say `text` (its Close button named `close_name`) for `seconds`, with `action`'s
        button if given (it also takes the message away); the number of this message,
        for `hide_after`."""
        self._shown += 1
        self.seconds = seconds
        self.words.value = text
        self.said.identifier = identifier
        self._action = action
        self.action_button.visible = action is not None
        if action is not None:
            self.action_button.content = action[0]
        self._name_close(close_name)
        self.bar.visible = True
        self._update()
        return self._shown

    def hide(self, shown: int | None = None) -> None:
        """Take the message away (`shown`: only if that message is still the one on
        screen)."""
        if shown is not None and shown != self._shown:
            return
        if self.bar.visible:
            self.bar.visible = False
            self._update()

    async def hide_after(self, shown: int, seconds: float) -> None:
        """Hide message `shown` after `seconds`, if it is still the one on screen."""
        await asyncio.sleep(seconds)
        self.hide(shown)

    def _act(self) -> object:
        action, self._action = self._action, None
        self.hide()
        return action[1]() if action is not None else None

    def _name_close(self, name: str) -> None:
        self.close_button.tooltip = name
        if isinstance(self.close_button.icon, ft.Icon):
            self.close_button.icon.semantics_label = name

    def _update(self) -> None:
        try:
            self.control.update()
        except Exception as exc:  # not on a page yet, or the client went away
            logger.debug("message strip not redrawn: %s", exc)
