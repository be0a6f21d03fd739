"""Dialog plumbing shared by the pending-choice dialogs and the draw entry forms."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft
from pydantic import ValidationError

from companion.app.kit import BODY_TEXT_SIZE, TOUCH_TARGET
from companion.app.kit.dialog_settle import ClosingDialogs
from companion.app.village.present import error_params, error_text
from companion.village.commands import OverrideScore
from companion.village.components import ComponentData
from companion.village.read import Reader, RuleError
from companion.village.state import VillageState

if TYPE_CHECKING:
    from companion.app.context import AppContext

logger = logging.getLogger(__name__)
Action = Callable[[], object]


class DialogSlot:
    """One dialog at a time, closed by reference. Never `page.pop_dialog()`: a toast
    (also a dialog control) may be on top and would be closed instead. Closing goes
    through the page's ClosingDialogs, so a screen change asked for in the same breath
    waits until the phone has closed it (kit/dialog_settle.py)."""

    def __init__(self, page: ft.Page, closing: ClosingDialogs) -> None:
        self.page = page
        self.closing = closing
        self.dialog: ft.AlertDialog | None = None
        self.tag: object = None

    @property
    def is_open(self) -> bool:
        return self.dialog is not None and bool(self.dialog.open)

    def show(self, dialog: ft.AlertDialog, tag: object) -> None:
        self.close()
        self.dialog, self.tag = dialog, tag
        self.closing.watch(dialog, self._dismissed)
        self.page.show_dialog(dialog)

    def close(self) -> None:
        dialog, self.dialog, self.tag = self.dialog, None, None
        if dialog is not None:
            self.closing.close(dialog)

    def _dismissed(self, e: Any = None) -> None:
        # Closed from the client side (barrier tap, back key): forget it. A dismissal can
        # arrive late, after the next dialog was shown (two pending choices in a row): only
        # the dialog the event is about may be forgotten, never its successor.
        source = getattr(e, "control", None)
        if source is None or source is self.dialog:
            self.dialog, self.tag = None, None


def dialog(title: str, body: list[ft.Control], actions: list[ft.Control], *,
           identifier: str) -> ft.AlertDialog:
    """A modal dialog that scrolls on a small phone and is as tall as its content."""
    return ft.AlertDialog(
        modal=True,
        scrollable=True,
        title=ft.Text(title, size=20, weight=ft.FontWeight.W_600),
        content=ft.Semantics(identifier=identifier, content=ft.Column(
            body, tight=True, spacing=10, width=340)),
        actions=actions,
        actions_overflow_button_spacing=4,
    )


# Narrower than this, a long form is a full-screen sheet (a phone held upright).
PHONE_WIDTH = 600
SHEET_CHROME = 72  # the sheet's title and paddings, in px
WIDE_SHEET_WIDTH = 440
WIDE_SHEET_HEIGHT = 680


def scroller(controls: list[ft.Control]) -> ft.Column:
    """The part of a sheet that scrolls (keep it to scroll a slot into view)."""
    return ft.Column(controls, spacing=10, scroll=ft.ScrollMode.AUTO, expand=True)


def sheet(page: ft.Page, title: str, *, fixed: list[ft.Control], scrolling: ft.Column,
          actions: list[ft.Control], primary: ft.Control,
          identifier: str) -> ft.AlertDialog:
    """A long form: on a phone the whole screen, with `fixed` (what must stay in view: the
    status or error line, a palette) on top, `scrolling` below it, and one compact footer
    row (`actions`, then `primary`) that wraps rather than stacking a button per line.
    `scrolling` comes from `scroller()`.
    Wider screens get the same layout as a dialog of a fixed size."""
    width, height = float(page.width or 360), float(page.height or 800)
    phone = width < PHONE_WIDTH
    # No expanding child in a wrapping row: the web client draws that as a grey box.
    footer = ft.Row([*actions, primary], wrap=True, spacing=4, run_spacing=4,
                    alignment=ft.MainAxisAlignment.END,
                    vertical_alignment=ft.CrossAxisAlignment.CENTER)
    body = ft.Column([*fixed, ft.Divider(height=1), scrolling, ft.Divider(height=1), footer],
                     spacing=8)
    box = ft.Container(body, width=width - 24 if phone else WIDE_SHEET_WIDTH,
                       height=(height - SHEET_CHROME) if phone
                       else min(height - 2 * SHEET_CHROME, WIDE_SHEET_HEIGHT))
    return ft.AlertDialog(
        modal=True,
        title=ft.Text(title, size=18, weight=ft.FontWeight.W_600, max_lines=2),
        title_padding=ft.Padding.only(left=12, right=12, top=12, bottom=4),
        content_padding=ft.Padding.only(left=12, right=12, bottom=8),
        inset_padding=ft.Padding.all(0) if phone else None,
        shape=ft.RoundedRectangleBorder(radius=0) if phone else None,
        content=ft.Semantics(identifier=identifier, content=box),
    )


def text(value: str, *, muted: bool = False, bold: bool = False) -> ft.Text:
    return ft.Text(value, size=BODY_TEXT_SIZE, selectable=False,
                   color=ft.Colors.ON_SURFACE_VARIANT if muted else None,
                   weight=ft.FontWeight.W_600 if bold else None)


def error_line() -> ft.Text:
    """Where a form shows what is wrong (hidden until then)."""
    return ft.Text("", size=BODY_TEXT_SIZE, color=ft.Colors.ERROR, visible=False)


def show_error(line: ft.Text, message: str | None) -> None:
    line.value = message or ""
    line.visible = bool(message)


# A tile's padding above and below one 24 px line of text: 48 px at the least.
TILE_PADDING = 12


def choice_tile(title: str, subtitle: str | None, on_click: Action, *, identifier: str,
                leading: ft.Control | None = None) -> ft.Control:
    """A full-width tappable answer (≥ 56 px), two lines at most."""
    lines: list[ft.Control] = [ft.Text(title, size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_600)]
    if subtitle:
        lines.append(ft.Text(subtitle, size=14, color=ft.Colors.ON_SURFACE_VARIANT))
    row: list[ft.Control] = ([leading] if leading is not None else []) + [
        ft.Column(lines, spacing=2, tight=True, expand=True)]
    return ft.Semantics(identifier=identifier, button=True, content=ft.Container(
        content=ft.Row(row, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        padding=ft.Padding.symmetric(horizontal=12, vertical=TILE_PADDING),
        border_radius=12, border=ft.Border.all(1, ft.Colors.OUTLINE),
        on_click=on_click, ink=True, height=None))


def text_button(label: str, on_click: Action, *, identifier: str | None = None) -> ft.Control:
    button = ft.TextButton(label, on_click=on_click, height=TOUCH_TARGET)
    return ft.Semantics(content=button, identifier=identifier) if identifier else button


def filled_button(label: str, on_click: Action, *,
                  identifier: str | None = None) -> ft.Control:
    button = ft.FilledButton(label, on_click=on_click, height=TOUCH_TARGET)
    return ft.Semantics(content=button, identifier=identifier) if identifier else button


# ---- a value checked before it is sent (a dialog stays open on a refusal) --------------
def refusal_message(ctx: AppContext, exc: RuleError) -> str:
    """What is wrong, for the line under the field the person typed into: the field is
    the one they see, so only the reason, worded from the catalogues by the error's key
    (an error without a key keeps the engine's words with its field named)."""
    msgid = f"error.{exc.key}" if exc.key else ""
    if msgid and ctx.translator.has(msgid):
        return ctx.t(msgid, **error_params(ctx, exc.params))
    return error_text(ctx, exc)


def override_command(ctx: AppContext, state: VillageState, comp: ComponentData, player: int,
                     category: str, value: int | None,
                     beyond_max: bool) -> tuple[str | None, OverrideScore | None]:
    """A score override as its command, or why the engine would refuse it now (tried on a
    copy, in the player's words): (None, command) when it would accept it."""
    try:
        command = OverrideScore(player=player, category=category, value=value,
                                beyond_max=beyond_max)
    except ValidationError as exc:  # a shape the command does not take (a bug, not input)
        logger.warning("override of %s does not validate: %s", category, exc)
        return ctx.t("games.not_saved"), None
    refused = Reader(state, comp).refusal(command)
    if refused is not None:
        return refusal_message(ctx, refused), None
    return None, command
