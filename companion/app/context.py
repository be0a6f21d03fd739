"""What every screen gets: translator, store, settings, navigation and page helpers."""

from __future__ import annotations

import asyncio
import errno
import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import flet as ft

from companion.app.device import DeviceServices
from companion.app.kit.basics import TOUCH_TARGET
from companion.app.kit.dialog_settle import ClosingDialogs
from companion.app.kit.message_strip import SECONDS, Action, MessageStrip
from companion.app.kit.text_fit import keep_words
from companion.app.settings import KEY_LANGUAGE, KEY_THEME, AppSettings, stored_value
from companion.app.store_access import AsyncStore
from companion.app.summaries import local_date, local_datetime, stored_title
from companion.app.theme import apply_theme, install_themes
from companion.i18n import Translator
from companion.store.base import (
    CorruptSession,
    DamagedGame,
    ReadOnlyStore,
    SessionStore,
    StoreProblem,
)

if TYPE_CHECKING:
    from companion.app.table_mode.sharing import TableShare

logger = logging.getLogger(__name__)
KEEP_WORDS_LANGUAGE = "ko"  # spaces between words, but Flutter breaks between syllables

T = TypeVar("T")
# A write the data folder refused (it turned read-only, or lost its permissions).
_READ_ONLY_ERRNOS = (errno.EROFS, errno.EACCES, errno.EPERM)


class Navigation(Protocol):
    """What the context asks of the router (`routing.Router`, which builds every screen
    with this context and so sits above it)."""

    def go(self, route: str) -> None: ...

    def back(self) -> None: ...

    def rebuild(self) -> None: ...


class AppContext:
    """One per connected client (page). The store behind `store` is shared per process."""

    def __init__(self, page: ft.Page, store: AsyncStore, settings: AppSettings,
                 language: str) -> None:
        self.page = page
        self.store = store
        self.settings = settings
        self.translator = Translator(language)
        self.device = DeviceServices(page, on_copied=lambda: self.toast(self.t("common.copied")))
        self.router: Navigation | None = None
        # Dialogs closed but not yet closed on the client: a navigation waits for them.
        self.dialogs = ClosingDialogs()
        # Table mode (issue 12): the process's share state (None: not sharing) and, on a
        # joined phone, its member id (None: the host). See companion/app/table_mode.
        self.share: TableShare | None = None
        self.member_id: str | None = None
        # What this client was already shown, by key, kept across its screens (a round
        # end opened on one screen is not opened again by the screen under it).
        self.seen: dict[str, object] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        # Messages: one strip in the page's overlay for the session (kit/message_strip:
        # a snack bar would rebuild every view twice per message on the web client).
        self.messages = MessageStrip()
        page.overlay.append(self.messages.control)

    # -- text ---------------------------------------------------------------------------

    @property
    def language(self) -> str:
        return self.translator.lang

    def t(self, msgid: str, **kwargs: object) -> str:
        return self._shown(self.translator.t(msgid, **kwargs))

    def tn(self, msgid: str, count: int, /, **kwargs: object) -> str:
        """A message about `count` things, in its plural form (see Translator.tn)."""
        return self._shown(self.translator.tn(msgid, count, **kwargs))

    def _shown(self, text: str) -> str:
        """Korean words are never split across lines on screen (kit.text_fit.keep_words);
        text that leaves the app goes through kit.text_fit.plain."""
        return keep_words(text) if self.translator.lang == KEEP_WORDS_LANGUAGE else text

    def date(self, iso: str) -> str:
        return local_date(iso, self.translator.babel_locale)

    def date_time(self, iso: str) -> str:
        return local_datetime(iso, self.translator.babel_locale)

    def failure_text(self, exc: BaseException) -> str:
        """What a failed store call means, in the player's words: saving is off, a game
        was set aside, or (anything else) the error as it is."""
        if isinstance(exc, ReadOnlyStore) or (
                isinstance(exc, OSError) and exc.errno in _READ_ONLY_ERRNOS):
            return self.t("store.read_only_refused")
        if isinstance(exc, DamagedGame | CorruptSession):
            return self.set_aside_text(exc.problem)
        return self.t("common.error", error=str(exc))

    def set_aside_text(self, problem: StoreProblem) -> str:
        """A game that could not be opened: set aside and listed on Home (or, when
        saving is off, left where it is)."""
        if not problem.id:  # read-only data folder: nothing could be moved
            return self.t("store.damaged_game_left")
        if problem.title:
            return self.t("store.damaged_game_titled",
                          title=stored_title(self.t, problem.title))
        return self.t("store.damaged_game")

    @property
    def read_only(self) -> str | None:
        """Why saving is off (the data folder cannot be written), or None."""
        return getattr(self.store.store, "read_only", None)

    # -- navigation ---------------------------------------------------------------------

    def go(self, route: str) -> None:
        assert self.router is not None
        self.router.go(route)

    def back(self) -> None:
        assert self.router is not None
        self.router.back()

    # -- page helpers -------------------------------------------------------------------

    def toast(self, message: str) -> None:
        """Say `message` at the bottom of the screen for a few seconds (the newest message
        replaces the one shown)."""
        self._say(message, SECONDS)

    def offer(self, message: str, action: Action, *, seconds: float,
              identifier: str) -> None:
        """Say `message` with a button (Home's Undo after a delete or an abandon; a plain
        function) for `seconds`; the button also takes the message away."""
        self._say(message, seconds, action=action, identifier=identifier)

    def _say(self, message: str, seconds: float, **kw: Any) -> None:
        shown = self.messages.show(message, self.t("common.close"), seconds, **kw)
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # not served (no loop): it stays until closed
            return
        self.spawn(self.messages.hide_after(shown, seconds))

    def confirm(self, title: str, message: str, on_confirm: Callable[[], None], *,
                confirm_label: str | None = None, cancel_label: str | None = None,
                on_cancel: Callable[[], None] | None = None) -> None:
        """A modal yes/no question; `on_confirm` runs only on the confirming button,
        `on_cancel` (if given) only on the other one."""

        def close(confirmed: bool) -> None:
            # This dialog by reference: pop_dialog() would close a toast shown on top.
            self.dialogs.close(dialog)
            if confirmed:
                on_confirm()
            elif on_cancel is not None:
                on_cancel()

        dialog = ft.AlertDialog(
            modal=True,
            title=ft.Text(title),
            content=ft.Text(message),
            actions=[  # 48 px: Material's default dialog button is 40 px
                ft.TextButton(cancel_label or self.t("common.cancel"),
                              on_click=lambda _: close(False), height=TOUCH_TARGET),
                ft.FilledButton(confirm_label or self.t("common.ok"),
                                on_click=lambda _: close(True), height=TOUCH_TARGET),
            ],
        )
        self.dialogs.watch(dialog)
        self.page.show_dialog(dialog)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run a coroutine on the page's loop without awaiting it (keeps a reference)."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def in_background(self, work: Callable[[SessionStore], T],
                      then: Callable[[T], None] | None = None,
                      on_error: Callable[[Exception], None] | None = None) -> None:
        """Run store work off the event loop, then apply the result on the loop and
        update the page. Handlers call this instead of touching the store directly."""

        async def runner() -> None:
            try:
                result = await self.store.run(work)
            except Exception as exc:
                if not isinstance(exc, ReadOnlyStore):
                    logger.exception("store call failed")
                if on_error is not None:
                    on_error(exc)
                else:
                    self.toast(self.failure_text(exc))
                self._safe_update()
                return
            if then is not None:
                then(result)
            self._safe_update()

        self.spawn(runner())

    def _safe_update(self) -> None:
        try:
            self.page.update()
        except Exception as exc:  # the client went away meanwhile
            logger.info("page update skipped: %s", exc)

    # -- settings -----------------------------------------------------------------------

    def set_language(self, language: str) -> None:
        """Switch the UI language now: every view on the stack is rebuilt."""
        self.translator = Translator(language)
        self.page.title = self.translator.t("app.title")  # a window title: never wrapped
        install_themes(self.page, language)  # CJK font fallback order follows the language
        if self.router is not None:
            self.router.rebuild()

    def change_setting(self, key: str, value: object) -> None:
        """Apply a setting now (language and theme visibly) and persist it in the
        background; a failed write is reported but the choice stays for this session."""
        self.settings = self.settings.with_value(key, stored_value(value))
        if key == KEY_LANGUAGE and self.settings.language:
            self.set_language(self.settings.language)
        elif key == KEY_THEME:
            apply_theme(self.page, self.settings.theme)
        persisted = stored_value(value)
        self.in_background(
            lambda s: s.set_setting(key, persisted),
            on_error=lambda exc: self.toast(
                self.failure_text(exc) if isinstance(exc, ReadOnlyStore)
                else self.t("settings.save_failed", error=str(exc))),
        )
