"""Phone features the game screens use: keep the screen on, haptics, sharing, saving a
file (a download in the browser).

All of them are client round trips (Flet services). They are fired as background tasks
with a timeout and never awaited by a handler, so an unsupported client (a desktop
browser has no vibration motor) or a slow one cannot stall the UI. Failures are logged.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Literal

import flet as ft

from companion.app.kit.text_fit import plain

logger = logging.getLogger(__name__)

HapticKind = Literal["light", "medium", "heavy", "selection", "vibrate"]
_CLIENT_TIMEOUT_S = 5.0
_SAVE_DIALOG_TIMEOUT_S = 600.0  # a native save dialog waits for the user
_MOBILE = (ft.PagePlatform.ANDROID, ft.PagePlatform.IOS)


class DeviceServices:
    """One per page. Holds the service controls (they must stay referenced to stay
    registered with the page) and remembers the wakelock state to avoid redundant calls."""

    def __init__(self, page: ft.Page, on_copied: Callable[[], None]) -> None:
        self._page = page
        self._on_copied = on_copied
        # Constructing a Service registers it with the current page.
        self.wakelock = ft.Wakelock()
        self.haptics = ft.HapticFeedback()
        self.share = ft.Share()
        self.clipboard = ft.Clipboard()
        self._files: ft.FilePicker | None = None  # made on first use (few pages need it)
        self._awake = False
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def screen_kept_on(self) -> bool:
        return self._awake

    @property
    def can_share_natively(self) -> bool:
        """Native share sheet on phones (app or mobile browser); clipboard elsewhere."""
        return self._page.platform in _MOBILE

    def keep_screen_on(self, on: bool = True) -> None:
        """Game views call this while they are open (the router does it for routes
        registered with `keeps_awake=True`)."""
        if on == self._awake:
            return
        self._awake = on
        self._fire("wakelock", self.wakelock.enable if on else self.wakelock.disable)

    def haptic(self, kind: HapticKind = "light") -> None:
        """Confirm by touch, on phones only: a desktop or laptop has nothing to vibrate,
        and each call is one more round trip (and client frame) after every tap."""
        if self._page.platform not in _MOBILE:
            return
        method = {
            "light": self.haptics.light_impact,
            "medium": self.haptics.medium_impact,
            "heavy": self.haptics.heavy_impact,
            "selection": self.haptics.selection_click,
            "vibrate": self.haptics.vibrate,
        }[kind]
        self._fire(f"haptic {kind}", method)

    def share_action(self, text: str, subject: str | None = None) -> ft.ClientAction:
        """For a button's `action=`: runs on the client inside the tap itself, which is the
        only moment browsers (iOS Safari above all) allow sharing or clipboard writes."""
        text, subject = plain(text), None if subject is None else plain(subject)
        if self.can_share_natively:
            return ft.ShareText(text=text, subject=subject)
        return ft.CopyToClipboard(text)

    def share_text(self, text: str, subject: str | None = None) -> None:
        """Share from code (no tap in progress): share sheet on phones, else clipboard."""
        text, subject = plain(text), None if subject is None else plain(subject)

        async def share() -> None:
            if self.can_share_natively:
                try:
                    await asyncio.wait_for(
                        self.share.share_text(text, subject=subject), _CLIENT_TIMEOUT_S)
                    return
                except Exception as exc:  # unsupported client: fall back to clipboard
                    logger.info("share sheet unavailable (%s); copying instead", exc)
            await asyncio.wait_for(self.clipboard.set(text), _CLIENT_TIMEOUT_S)
            self._on_copied()

        self._fire("share", share)

    def save_file(self, file_name: str, data: bytes) -> None:
        """Offer `data` as a file: in the browser a download of exactly these bytes (the
        web client needs no server path for it), a save dialog in the desktop and phone
        apps. Fired from a tap; nothing waits for it."""
        if self._files is None:
            self._files = ft.FilePicker()
        picker = self._files
        self._fire("save file",
                   lambda: picker.save_file(file_name=file_name, src_bytes=data),
                   timeout=_SAVE_DIALOG_TIMEOUT_S)

    def _fire(self, what: str, call: Callable[[], Awaitable[object]],
              timeout: float = _CLIENT_TIMEOUT_S) -> None:
        async def runner() -> None:
            try:
                await asyncio.wait_for(call(), timeout)
            except Exception as exc:
                logger.info("%s failed on this client: %s", what, exc)

        task = asyncio.get_running_loop().create_task(runner())
        self._tasks.add(task)  # keep a reference until done (asyncio holds only weak ones)
        task.add_done_callback(self._tasks.discard)

