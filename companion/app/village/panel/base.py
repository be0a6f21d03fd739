"""What every Village panel adds to the table's SessionScreen (open off the event loop,
re-render on any client's change, undo/redo): a back arrow to the table, the notice
for a choice the table must take first, and the table instructions of the last action.

A panel keeps its half-filled forms as plain draft objects on the screen and rebuilds its
controls from (state, drafts) on every change, so a move made on another phone never
wipes what this user was choosing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

import flet as ft

from companion.app.kit import back_button, body, notice_card
from companion.app.kit.reconcile import reconcile_list
from companion.app.table_mode.acting import controls_locked
from companion.app.table_mode.turn_notice import SeatStrip, is_phone
from companion.app.village.forms.refusal import with_refusal
from companion.app.village.present import error_text, note_texts
from companion.app.village.table.base import SessionScreen
from companion.app.village.table.paths import table_route
from companion.app.village.table.words import player_name, stage_text
from companion.village.commands import Command
from companion.village.components import ComponentData
from companion.village.read import Reader, RuleError
from companion.village.state import Pending, VillageState

logger = logging.getLogger(__name__)
SCROLL_WAIT_S = 2.0  # a phone that went away never answers a scroll

# What a pending choice is called in the notice (it is answered on the table screen).
PENDING_KEYS = {
    "death": "panel.pending.death",
    "chance": "panel.pending.draw",
    "compensation_cube": "panel.pending.compensation",
    "karla_cube": "panel.pending.karla",
    "market_day": "panel.pending.market",
}


class PanelScreen(SessionScreen):
    """Base for the five panels: subclasses give `title()` and `body_controls()`."""
    round_end = "opens"  # Ann passing at Karla's market day can end the round here
    identifier = "panel"
    shows_seat_state = True  # on a phone: whose turn, at the top
    # The body's new controls are merged into those on the page (kit.reconcile), so a tap
    # sends only what changed; for panels that keep no reference to a built control.
    reconciles = False

    def title(self) -> str:
        raise NotImplementedError

    def body_controls(self) -> list[ft.Control]:
        """The body from the current state and this screen's drafts."""
        raise NotImplementedError

    # ---- shortcuts for subclasses ------------------------------------------------------
    @property
    def state(self) -> VillageState:
        assert self.controller is not None
        return self.controller.state

    @property
    def comp(self) -> ComponentData:
        assert self.controller is not None
        return self.controller.session.comp

    def rules(self) -> Reader:
        """The engine's read API over the live state."""
        return Reader(self.state, self.comp)

    def last_notes(self) -> list[str]:
        """Table instructions of the last action: this client's, else whoever acted last
        (the session keeps them, so a phone that only watched sees them too)."""
        assert self.controller is not None
        if self.controller.last_notes:
            return self.controller.last_notes
        return note_texts(self.ctx, list(self.controller.session.last_note_data))

    def notes_card(self) -> ft.Control | None:
        notes = self.last_notes()
        return table_notes(self.ctx.t("panel.common.at_the_table"), notes) if notes else None

    # ---- view ---------------------------------------------------------------------------
    def build(self) -> ft.View:
        t = self.ctx.t
        self._notice = ft.Container(visible=False)
        self._strip = SeatStrip(self.ctx) if is_phone(self.ctx) else None
        self._title = ft.Text(self.title())
        # Phones: one column. Wider screens: cards two or three abreast (see card()).
        self._body = ft.ResponsiveRow([body(t("common.loading"), muted=True)], spacing=12,
                                      run_spacing=12)
        self.view = ft.View(
            appbar=ft.AppBar(
                leading=back_button(t("panel.common.to_table"), self.to_table),
                title=self._title,
                actions=self.history_buttons(),
            ),
            scroll=ft.ScrollMode.AUTO,
            padding=ft.Padding.symmetric(horizontal=12, vertical=8),
            spacing=12,
            controls=[ft.Semantics(identifier=self.identifier,
                                   content=ft.Column(
                                       [*([self._strip.control] if self._strip else []),
                                        self._notice, self._body], spacing=12))],
        )
        return self.view

    def scroll_to_top(self) -> None:
        """Bring the top of the panel into view (after an action: what it changed is
        said there); the phone answers in its own time, nothing waits for it."""
        view = getattr(self, "view", None)
        if view is None:
            return

        async def scroll() -> None:
            try:
                await asyncio.wait_for(view.scroll_to(offset=0, duration=0), SCROLL_WAIT_S)
            except Exception as exc:  # the view went away meanwhile
                logger.info("scroll skipped: %s", exc)

        self.ctx.spawn(scroll())

    def to_table(self) -> None:
        self.ctx.go(table_route(self.session_id))

    def render(self) -> None:
        up = self._strip.update(self.state, self.comp) if self._strip is not None else False
        self._title.value = self.title()
        self._render_notice(up)
        controls = self.body_controls()
        if self.reconciles:
            controls = reconcile_list(self._body.controls, controls)
        self._body.controls = controls
        # A watching phone sees the panel with every control greyed (not refused on tap).
        self._body.disabled = controls_locked(self.ctx)

    def update_page(self) -> None:
        """Send this view's changes only: the table's view under it is not diffed again
        (the whole page's diff walked both, hundreds of controls, on every tap)."""
        view = getattr(self, "view", None)
        if view is None or view not in self.ctx.page.views:
            super().update_page()
            return
        try:
            view.update()
        except Exception as exc:  # the client went away meanwhile
            logger.info("view update skipped: %s", exc)

    def refresh(self) -> None:
        """Redraw after a local change (a chip, a stepper of a draft)."""
        if self.controller is not None:
            self._changed()

    def show_failure(self, message: str) -> None:
        self._body.controls = self.failure_controls(message)

    def _render_notice(self, up: bool = False) -> None:
        """A choice the table screen must take first; else, on a phone whose seat is up
        and whose next step is a cube on the table, that step and the way there (a phone
        that reloads on a panel is told what its turn asks)."""
        waiting = self.waiting()
        t = self.ctx.t
        if waiting is None and up and self._cube_next():
            self._notice.content = notice_card(
                stage_text(self.ctx, self.state, self.comp), ft.Icons.PAN_TOOL_ALT,
                t("panel.common.open_table"), self.to_table, identifier="turn-next")
            self._notice.visible = True
            return
        if waiting is None:
            self._notice.visible = False
            self._notice.content = None
            return
        who = (player_name(self.ctx, self.state, waiting.player)
               if waiting.player is not None else "")
        text = t(PENDING_KEYS.get(waiting.kind, "panel.pending.other"), player=who)
        self._notice.content = notice_card(text, ft.Icons.PAN_TOOL_ALT,
                                           t("panel.common.open_table"), self.to_table,
                                           identifier="pending-notice")
        self._notice.visible = True

    def _cube_next(self) -> bool:
        """The turn waits for a cube (or the well), which is taken on the table."""
        state = self.state
        return (state.phase == "turns" and state.stage == "take" and not state.pending
                and state.market_day is None)

    def waiting(self) -> Pending | None:
        """The choice the table screen must take first, if any."""
        return self.state.pending[0] if self.state.pending else None

    # ---- acting -------------------------------------------------------------------------
    # The last refused form command and why: shown in its form until the form changes.
    refusal: tuple[Command, RuleError] | None = None

    async def dispatch_form(self, command: Command) -> bool:
        """Apply a form's command; a refusal is shown in the form (`form_controls`)."""
        self.refusal = None

        def refused(exc: RuleError) -> None:
            self.refusal = (command, exc)
            self.refresh()

        return await self.dispatch(command, refused)

    def form_controls(self, controls: list[ft.Control], command: Command | None,
                      part_prefix: str) -> list[ft.Control]:
        """A form's controls, with the refusal of `command` (if it is the one refused,
        unchanged since) under the part it names (keys "<part_prefix>-<part>")."""
        refused = self.refusal
        if refused is None or command is None or refused[0] != command:
            return controls
        return with_refusal(controls, part_prefix, refused[1].field,
                            error_text(self.ctx, refused[1]))

    async def dispatch(self, command: Command,
                       on_refusal: Callable[[RuleError], object] | None = None) -> bool:
        """Apply a command; the controller toasts a refusal (in words) unless
        `on_refusal` shows it in the form, and every subscribed screen re-renders on
        success."""
        if self.controller is None:
            return False
        return await self.controller.dispatch(command, on_refusal)


def table_notes(title: str, notes: Sequence[str]) -> ft.Control:
    """What the players do with the physical pieces after the last action."""
    return notice_card(title + "\n" + "\n".join(f"• {n}" for n in notes),
                       ft.Icons.TABLE_RESTAURANT, identifier="table-notes")
