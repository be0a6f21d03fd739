"""The wizard's "check your components" step: each estimated value this game will use,
one at a time, next to a drawing of where it is printed, with Confirm or Correct."""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

import flet as ft

from companion.app.kit import BODY_TEXT_SIZE, TOUCH_TARGET, body, heading, notice_card, pager
from companion.app.paging import PageSlice
from companion.app.village.dialogs.common import error_line, show_error
from companion.app.village.wizard.calibration import (
    Estimate,
    confirm,
    correct,
    load_estimates,
    load_warnings,
)
from companion.app.village.wizard.editors import Editor, EditProblem, editor_for
from companion.app.village.wizard.estimate_notes import (
    RULEBOOK_LABELS,
    RULEBOOK_LANGUAGE,
    Quote,
    note_for,
)
from companion.app.village.wizard.schematics import schematic
from companion.store.base import SessionStore
from companion.village.components import BAG_NOT_ABOVE_DRAW, ComponentWarning

if TYPE_CHECKING:
    from companion.app.context import AppContext

logger = logging.getLogger(__name__)

LABELS = {
    "setup_cards": "village.estimate.setup_cards",
    "time_track_length": "village.estimate.time_track_length",
    "chronicle_sections": "village.estimate.chronicle_sections",
    "graveyard_slots": "village.estimate.graveyard_slots",
    "council_advance_time": "village.estimate.council_advance_time",
    "church_advance_grain": "village.estimate.church_advance_grain",
    "travel_cities": "village.estimate.travel_cities",
    "final_turns_market": "village.estimate.final_turns_market",  # a reading: not asked
    "scriptorium_train_time": "village.estimate.scriptorium_train_time",
    "smithy_train_time": "village.estimate.smithy_train_time",
    "stable_train_time": "village.estimate.stable_train_time",
    "karla_track_spaces": "village.estimate.karla_track_spaces",
    "karla_fate_after": "village.estimate.karla_fate_after",
    "karla_action_order": "village.estimate.karla_action_order",
    "player_colours": "village.estimate.player_colours",
}
# What a warning says, by ComponentWarning.key (its params fill the text).
WARNINGS = {BAG_NOT_ABOVE_DRAW: "village.components.warning.bag_not_above_draw"}
STATUS = {
    "unchecked": ("village.components.unchecked", ft.Icons.HELP_OUTLINE, ft.Colors.OUTLINE),
    "confirmed": ("village.components.confirmed", ft.Icons.CHECK_CIRCLE, ft.Colors.PRIMARY),
    "corrected": ("village.components.corrected", ft.Icons.EDIT, ft.Colors.TERTIARY),
}


class ComponentCheck:
    def __init__(self, ctx: AppContext, edition: Literal["big-box", "2011"], *, solo: bool,
                 seats: int, on_loaded: Callable[[], None] | None = None) -> None:
        self.ctx = ctx
        self.edition, self.solo, self.seats = edition, solo, seats
        self.on_loaded = on_loaded
        self.estimates: list[Estimate] | None = None
        self.warnings: list[ComponentWarning] = []
        self.index = 0
        self.editor: Editor | None = None
        self.editor_item: str | None = None
        self.error = error_line()
        self.column = ft.Column([body(ctx.t("common.loading"), muted=True)], spacing=10)

    def label(self, key: str) -> str:
        label_key = LABELS.get(key)
        return self.ctx.t(label_key) if label_key else key

    # ---- loading ------------------------------------------------------------------------------
    def load(self) -> None:
        edition, solo, seats = self.edition, self.solo, self.seats

        def read(s: SessionStore) -> tuple[list[Estimate], list[ComponentWarning]]:
            return (load_estimates(s, edition, solo=solo, seats=seats),
                    load_warnings(s, edition, seats=seats))

        self.ctx.in_background(read, then=self._loaded)

    def _loaded(self, loaded: tuple[list[Estimate], list[ComponentWarning]]) -> None:
        estimates, self.warnings = loaded
        first = self.estimates is None
        self.estimates = estimates
        if first:  # start at the first value nobody has looked at yet
            self.index = next((i for i, e in enumerate(estimates) if e.status == "unchecked"), 0)
        self.render()
        if self.on_loaded is not None:
            self.on_loaded()

    def unchecked(self) -> int:
        return sum(1 for e in self.estimates or [] if e.status == "unchecked")

    # ---- rendering ----------------------------------------------------------------------------
    def build(self) -> ft.Control:
        return ft.Semantics(identifier="component-check", content=self.column)

    def render(self) -> None:
        t = self.ctx.t
        if self.estimates is None:
            return
        if not self.estimates:
            self.column.controls = [body(t("village.components.none")), *self._warnings()]
            return
        self.index = min(max(self.index, 0), len(self.estimates) - 1)
        est = self.estimates[self.index]
        done = len(self.estimates) - self.unchecked()
        # The value being checked comes first; the overview of all of them follows.
        self.column.controls = [
            body(t("village.components.intro")),
            ft.Text(t("village.components.progress", done=done, total=len(self.estimates)),
                    size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_600),
            *self._warnings(),
            self._item(est),
            pager(PageSlice(self.estimates[self.index:self.index + 1], self.index,
                            len(self.estimates)),
                  t("village.components.position", index=self.index + 1,
                    total=len(self.estimates)),
                  t("pager.previous"), t("pager.next"),
                  on_previous=partial(self._go, self.index - 1),
                  on_next=partial(self._go, self.index + 1)),
            self._overview(),
        ]

    def _warnings(self) -> list[ft.Control]:
        """Values that contradict the rulebook: said plainly, but Start still works (the
        box may print them after all)."""
        texts = [self.ctx.t(WARNINGS[w.key], **w.params) for w in self.warnings
                 if w.key in WARNINGS]
        if not texts:
            return []
        return [notice_card("\n\n".join(texts), ft.Icons.WARNING_AMBER,
                            identifier="component-warnings")]

    def _overview(self) -> ft.Control:
        chips: list[ft.Control] = []
        assert self.estimates is not None
        for i, est in enumerate(self.estimates):
            _key, icon, colour = STATUS[est.status]
            chips.append(ft.Semantics(identifier=f"estimate-tab-{est.key}", content=ft.Chip(
                label=ft.Text(self.label(est.key)), leading=ft.Icon(icon, color=colour, size=18),
                selected=i == self.index, on_click=partial(self._go, i), height=TOUCH_TARGET)))
        return ft.Row(chips, wrap=True, spacing=4, run_spacing=4)

    def _item(self, est: Estimate) -> ft.Control:
        t = self.ctx.t
        status_key, icon, colour = STATUS[est.status]
        controls: list[ft.Control] = [
            ft.Row([ft.Icon(icon, color=colour),
                    heading(self.label(est.key))], wrap=True),
            ft.Text(t(status_key), size=BODY_TEXT_SIZE, color=colour,
                    weight=ft.FontWeight.W_600),
            schematic(self.ctx, est.key, est.value, est.seats),
            self._why(est),
        ]
        if self.editor is not None and self.editor_item == est.item:
            controls += [
                ft.Text(t("village.components.correct_intro"), size=BODY_TEXT_SIZE),
                self.editor.build(), self.error,
                ft.Row([
                    ft.Semantics(identifier="estimate-save", content=ft.FilledButton(
                        t("village.components.save"), icon=ft.Icons.SAVE,
                        on_click=partial(self._save, est), height=TOUCH_TARGET)),
                    ft.TextButton(t("common.cancel"), on_click=self._cancel,
                                  height=TOUCH_TARGET)], wrap=True)]
        else:
            controls.append(ft.Row([
                ft.Semantics(identifier="estimate-confirm", content=ft.FilledButton(
                    t("village.components.confirm"), icon=ft.Icons.CHECK,
                    on_click=partial(self._confirm, est), height=TOUCH_TARGET)),
                ft.Semantics(identifier="estimate-correct", content=ft.OutlinedButton(
                    t("village.components.correct"), icon=ft.Icons.EDIT,
                    on_click=partial(self._open_editor, est), height=TOUCH_TARGET)),
            ], wrap=True, spacing=8))
        return ft.Semantics(identifier=f"estimate-{est.key}", content=ft.Container(
            padding=12, border_radius=12, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
            content=ft.Column(controls, spacing=10, tight=True)))

    def _why(self, est: Estimate) -> ft.Control:
        """Why it is an estimate, in the reader's language; the rulebook's sentences it
        rests on as quotes (as printed) with their translation."""
        t = self.ctx.t
        note = note_for(self.edition, est.key)
        muted_colour = ft.Colors.ON_SURFACE_VARIANT
        if note is None:  # not translated (a value added to the data files later)
            return ft.Text(t("village.components.source", note=est.note), size=13,
                           color=muted_colour, selectable=True)
        lines: list[ft.Control] = [ft.Text(t("village.components.source", note=t(note.why)),
                                           size=13, color=muted_colour, selectable=True)]
        lines += [self._quote(quote) for quote in note.quotes]
        return ft.Semantics(identifier=f"why-{est.key}",
                            content=ft.Column(lines, spacing=6, tight=True))

    def _quote(self, quote: Quote) -> ft.Control:
        t = self.ctx.t
        source = t(RULEBOOK_LABELS[quote.rulebook])
        if quote.section:
            source = t("village.why.quote_source", rulebook=source, section=quote.section)
        parts: list[ft.Control] = [
            ft.Text(f"“{quote.text}”", size=13, italic=True, selectable=True),
            ft.Text(f"— {source}", size=12, color=ft.Colors.ON_SURFACE_VARIANT),
        ]
        if RULEBOOK_LANGUAGE[quote.rulebook] != self.ctx.language:
            parts.append(ft.Text(t("village.why.translation", text=t(quote.translation)),
                                 size=13, selectable=True))
        return ft.Container(
            ft.Column(parts, spacing=2, tight=True),
            padding=ft.Padding.only(left=10, top=2, bottom=2),
            border=ft.Border.only(left=ft.BorderSide(3, ft.Colors.OUTLINE_VARIANT)))

    # ---- actions ------------------------------------------------------------------------------
    def _go(self, index: int) -> None:
        if self.editor is not None:  # leaving an open editor keeps nothing half-saved
            self.editor, self.editor_item = None, None
        self.index = index
        self.render()

    def _next_unchecked(self) -> None:
        assert self.estimates is not None
        n = len(self.estimates)
        order = [(self.index + k) % n for k in range(1, n + 1)]
        self.index = next((i for i in order if self.estimates[i].status == "unchecked"),
                          self.index)

    def _confirm(self, est: Estimate) -> None:
        edition = self.edition

        def done(_: None) -> None:
            self._next_unchecked()
            self.load()

        self.ctx.in_background(lambda s: confirm(s, edition, est), then=done,
                               on_error=self._refused)

    def _open_editor(self, est: Estimate) -> None:
        self.editor = editor_for(self.ctx, est.key, self.label(est.key), est.value)
        self.editor_item = est.item
        show_error(self.error, None)
        self.render()

    def _cancel(self) -> None:
        self.editor, self.editor_item = None, None
        self.render()

    def _save(self, est: Estimate) -> None:
        assert self.editor is not None
        try:
            value = self.editor.parse()
        except EditProblem as exc:
            show_error(self.error, self.ctx.t("village.error", field=exc.field,
                                              message=exc.message))
            return
        show_error(self.error, None)
        edition = self.edition

        def work(store: SessionStore) -> None:
            correct(store, edition, est, value)

        def done(_: Any) -> None:
            self.editor, self.editor_item = None, None
            self.load()

        self.ctx.in_background(work, then=done, on_error=self._refused)

    def _refused(self, exc: Exception) -> None:
        """The engine refused the value: say which field, keep the editor as typed."""
        field, _, message = str(exc).partition(": ")
        if not message:
            field, message = self.label(self.estimates[self.index].key if self.estimates
                                        else ""), field
        show_error(self.error, self.ctx.t("village.error", field=field, message=message))
        if self.editor is None:  # a refused confirmation: no editor to show it in
            self.ctx.toast(self.error.value or "")
