"""The wizard's "check your components" step: every estimated value this game will use
on one screen, answered at once with "All match my box" or one by one; each value opens
to a drawing of where it is printed, the rulebook's sentences it rests on, and its
correction."""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Literal

import flet as ft

from companion.app.kit import (
    BODY_TEXT_SIZE,
    TOUCH_TARGET,
    VALUE_TEXT_SIZE,
    big_button,
    body,
    muted,
    notice_card,
)
from companion.app.village.dialogs.common import error_line, show_error
from companion.app.village.wizard.calibration import (
    Estimate,
    confirm,
    confirm_all,
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
                 seats: int, on_loaded: Callable[[], None] | None = None,
                 on_start: Callable[[], None] | None = None) -> None:
        self.ctx = ctx
        self.edition, self.solo, self.seats = edition, solo, seats
        self.on_loaded = on_loaded
        self.on_start = on_start  # once every value is answered: Start, where "All match" was
        self.estimates: list[Estimate] | None = None
        self.warnings: list[ComponentWarning] = []
        self.open_key: str | None = None  # the one value whose picture and source are shown
        self.saving = False  # "All match my box" is being saved (a second tap waits)
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
        self.estimates, self.warnings = loaded
        self.render()
        if self.on_loaded is not None:
            self.on_loaded()

    def unchecked(self) -> int:
        return sum(1 for e in self.estimates or [] if e.status == "unchecked")

    def all_answered(self) -> bool:
        """Loaded, every value confirmed or corrected, and nothing the rulebook contradicts:
        a returning player has nothing to do here."""
        return self.estimates is not None and self.unchecked() == 0 and not self.warnings

    # ---- rendering ----------------------------------------------------------------------------
    def build(self) -> ft.Control:
        return ft.Semantics(identifier="component-check", content=self.column)

    def render(self) -> None:
        """One screen: the answer for all of them first (in view on a phone), then every
        value as a compact row that opens to its picture, its source and its correction."""
        t = self.ctx.t
        if self.estimates is None:
            return
        if not self.estimates:
            self.column.controls = [body(t("village.components.none")), *self._warnings()]
            return
        unchecked = self.unchecked()
        done = len(self.estimates) - unchecked
        controls: list[ft.Control] = [
            body(t("village.components.intro")),
            ft.Text(t("village.components.progress", done=done, total=len(self.estimates)),
                    size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_600),
        ]
        if unchecked:
            every = done == 0 and self.editor is None  # a value being corrected is not "all"
            label = "village.components.all_match" if every else "village.components.rest_match"
            controls.append(big_button(t(label), ft.Icons.DONE_ALL, self._confirm_all,
                                       identifier="estimate-all-match"))
        elif self.on_start is not None:
            controls.append(big_button(t("village.wizard.start"), ft.Icons.PLAY_ARROW,
                                       self.on_start, identifier="check-start"))
        controls += [
            *self._warnings(),
            muted(t("village.components.list_hint")),
            ft.Column([self._row(est) for est in self.estimates], spacing=6),
        ]
        self.column.controls = controls

    def _warnings(self) -> list[ft.Control]:
        """Values that contradict the rulebook: said plainly, but Start still works (the
        box may print them after all)."""
        texts = [self.ctx.t(WARNINGS[w.key], **w.params) for w in self.warnings
                 if w.key in WARNINGS]
        if not texts:
            return []
        return [notice_card("\n\n".join(texts), ft.Icons.WARNING_AMBER,
                            identifier="component-warnings")]

    @staticmethod
    def _number(est: Estimate) -> list[ft.Control]:
        """The value itself where it is a single number (the drawing shows the others)."""
        value = est.value
        if isinstance(value, bool) or not isinstance(value, int):
            return []
        return [ft.Text(str(value), size=VALUE_TEXT_SIZE, weight=ft.FontWeight.W_600)]

    def _row(self, est: Estimate) -> ft.Control:
        """The value's name and what the player said; tapping it opens the picture, the
        source and the buttons (one value open at a time)."""
        status_key, icon, colour = STATUS[est.status]
        is_open = self.open_key == est.key
        head = ft.Semantics(
            identifier=f"estimate-tab-{est.key}", button=True, expanded=is_open,
            content=ft.Container(
                on_click=partial(self._toggle, est.key), ink=True, border_radius=12,
                padding=ft.Padding.symmetric(horizontal=4, vertical=12),  # >= 48 px high
                content=ft.Row([
                    ft.Container(ft.Icon(icon, color=colour), width=40,
                                 alignment=ft.Alignment.CENTER),
                    ft.Column([
                        ft.Text(self.label(est.key), size=BODY_TEXT_SIZE,
                                weight=ft.FontWeight.W_600),
                        ft.Text(self.ctx.t(status_key), size=13, color=colour)],
                        spacing=0, tight=True, expand=True),
                    *self._number(est),
                    ft.Icon(ft.Icons.EXPAND_LESS if is_open else ft.Icons.EXPAND_MORE),
                ], spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER)))
        controls: list[ft.Control] = [head]
        if is_open:
            controls += self._details(est)
        return ft.Semantics(identifier=f"estimate-{est.key}", content=ft.Container(
            padding=ft.Padding.only(left=4, right=4, bottom=4 if is_open else 0),
            border_radius=12,
            bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
            content=ft.Column(controls, spacing=10, tight=True)))

    def _details(self, est: Estimate) -> list[ft.Control]:
        t = self.ctx.t
        controls: list[ft.Control] = [schematic(self.ctx, est.key, est.value, est.seats,
                                                est.player_counts),
                                      self._why(est)]
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
            return controls
        buttons: list[ft.Control] = []
        if est.status == "unchecked":
            buttons.append(ft.Semantics(identifier="estimate-confirm", content=ft.FilledButton(
                t("village.components.confirm"), icon=ft.Icons.CHECK,
                on_click=partial(self._confirm, est), height=TOUCH_TARGET)))
        buttons.append(ft.Semantics(identifier="estimate-correct", content=ft.OutlinedButton(
            t("village.components.correct"), icon=ft.Icons.EDIT,
            on_click=partial(self._open_editor, est), height=TOUCH_TARGET)))
        controls.append(ft.Row(buttons, wrap=True, spacing=8, run_spacing=8))
        return controls

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
    def _toggle(self, key: str) -> None:
        """Open a value (closing the one open before), or close it again; an open editor
        is left without saving anything."""
        self.editor, self.editor_item = None, None
        self.open_key = None if self.open_key == key else key
        self.render()

    def _confirm_all(self) -> None:
        """Every value not answered yet matches the box: one confirmation each, saved as
        "Matches my box" saves one. A value whose correction is open is not confirmed:
        its editor stays, with what was typed."""
        if self.saving or not self.estimates:
            return
        self.saving = True
        edition = self.edition
        shown = [e for e in self.estimates if self.editor is None or e.item != self.editor_item]

        def done(_: None) -> None:
            self.saving = False
            self.load()

        def refused(exc: Exception) -> None:
            self.saving = False
            self._refused(exc)
            self.load()  # what was saved before the refusal shows as confirmed

        self.ctx.in_background(lambda s: confirm_all(s, edition, shown), then=done,
                               on_error=refused)

    def _confirm(self, est: Estimate) -> None:
        edition = self.edition

        def done(_: None) -> None:
            if self.open_key == est.key:
                self.open_key = None
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

        def done(_: object) -> None:
            self.editor, self.editor_item = None, None
            self.load()

        self.ctx.in_background(work, then=done, on_error=self._refused)

    def _refused(self, exc: Exception) -> None:
        """The engine refused the value: say which field, keep the editor as typed."""
        field, _, message = str(exc).partition(": ")
        if not message:
            field, message = self.label(self.open_key or ""), field
        show_error(self.error, self.ctx.t("village.error", field=field, message=message))
        if self.editor is None:  # a refused confirmation: no editor to show it in
            self.ctx.toast(self.error.value or "")
