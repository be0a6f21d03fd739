"""A dialog around one typed value that closes only once the value was accepted (see
companion.app.kit).

Every dialog where a person types a value (a score cell, a player's count, a decree)
goes through `ask_value`: tapping an action runs it with the text as typed; the action
answers None when the game accepted (and saved) the value, and the dialog closes; or it
answers why not, in the player's words, and the dialog stays open with the text still
in the field and the reason under it (`TextField.error`). Nothing typed is lost.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import flet as ft

from companion.app.kit.basics import BODY_TEXT_SIZE, TOUCH_TARGET

if TYPE_CHECKING:
    from companion.app.context import AppContext

logger = logging.getLogger(__name__)

# (the text as typed) -> None when accepted, else the reason to show under the field
Submit = Callable[[str], Awaitable[str | None]]


@dataclass(frozen=True)
class DialogAction:
    """One more button of a value dialog ("Use tracked (2)"), run like Save."""

    label: str
    run: Submit
    key: str | None = None


class ValueDialog:
    """Built and shown by `ask_value`; kept for tests and for callers that close it."""

    def __init__(self, ctx: AppContext, title: str, field: ft.TextField, submit: Submit, *,
                 body: Sequence[ft.Control] = (), extra: Sequence[DialogAction] = (),
                 save_label: str | None = None, identifier: str = "value-dialog") -> None:
        self.ctx = ctx
        self.field = field
        self.submit = submit
        self.busy = False
        field.on_submit = lambda _e: self._spawn(submit)
        buttons: list[ft.Control] = [
            ft.TextButton(action.label, key=action.key, height=TOUCH_TARGET,
                          on_click=self._runner(action.run)) for action in extra]
        buttons += [
            ft.TextButton(ctx.t("common.cancel"), on_click=self.close, height=TOUCH_TARGET,
                          key="value-cancel"),
            ft.FilledButton(save_label or ctx.t("games.save"), on_click=self._runner(submit),
                            height=TOUCH_TARGET, key="value-save"),
        ]
        content: list[ft.Control] = [*body, field]
        self.dialog = ft.AlertDialog(
            modal=True,
            title=ft.Text(title, size=20, weight=ft.FontWeight.W_600),
            # Esc closes it as Cancel does. It stays modal (a tap beside it keeps what was
            # typed), and Flutter lets Esc close only a dismissible dialog: the key is
            # heard here, around the field that has the focus.
            content=ft.KeyboardListener(
                content=ft.Semantics(identifier=identifier, content=ft.Column(
                    content, tight=True, spacing=12, width=320)),
                on_key_down=self._on_key),
            actions=buttons,
            actions_overflow_button_spacing=4,
        )

    def _on_key(self, event: ft.KeyDownEvent) -> None:
        if event.key == "Escape":  # as Cancel: nothing is saved
            self.close()

    @property
    def is_open(self) -> bool:
        return bool(self.dialog.open)

    def show(self) -> None:
        self.ctx.dialogs.watch(self.dialog)
        self.ctx.page.show_dialog(self.dialog)

    def close(self) -> None:
        """Close this dialog by reference: never `page.pop_dialog()`, which would close a
        toast shown on top of it instead."""
        self.ctx.dialogs.close(self.dialog)

    def _runner(self, action: Submit) -> Callable[[], None]:
        return lambda: self._spawn(action)

    def _spawn(self, action: Submit) -> None:
        if not self.busy:  # a second tap while the first is being saved does nothing
            self.ctx.spawn(self._run(action))

    async def _run(self, action: Submit) -> None:
        self.busy = True
        try:
            problem = await action(self.field.value or "")
        finally:
            self.busy = False
        if problem is None:
            self.close()
            return
        self.field.error = problem  # the text stays as typed
        try:
            self.field.update()
        except Exception as exc:  # the dialog was closed meanwhile (another phone acted)
            logger.info("field update skipped: %s", exc)


def ask_value(ctx: AppContext, title: str, field: ft.TextField, submit: Submit, *,
              body: Sequence[ft.Control] = (), extra: Sequence[DialogAction] = (),
              save_label: str | None = None,
              identifier: str = "value-dialog") -> ValueDialog:
    """Show a dialog around `field` that closes only when `submit` (or an `extra`
    action) accepted; see the module's docstring."""
    dialog = ValueDialog(ctx, title, field, submit, body=body, extra=extra,
                         save_label=save_label, identifier=identifier)
    dialog.show()
    return dialog


def value_field(label: str, value: str, *, number: bool = False) -> ft.TextField:
    """The field of a value dialog: focused, large enough to read."""
    # A number pad only when no sign is ever typed: phone number pads often lack a minus.
    return ft.TextField(label=label, value=value, autofocus=True,
                        text_size=BODY_TEXT_SIZE + 2, error_max_lines=3,
                        keyboard_type=(ft.KeyboardType.NUMBER if number
                                       else ft.KeyboardType.TEXT))
