"""`/play/village/:session_id/score` — final scoring: categories per player from the
tracked game, every cell editable (a logged override), totals, ranks, tie-breaks in words,
the solo achievement; Share as plain text; Finish saves the result to history."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime

import flet as ft

from companion.app.history.bgstats_button import bgstats_button
from companion.app.kit import (
    TOUCH_TARGET,
    DialogAction,
    apply_button,
    ask_value,
    card,
    longest_word_width,
    muted,
    parse_whole,
    text_width,
    value_field,
)
from companion.app.routing import HOME_ROUTE
from companion.app.village.dialogs.common import override_command
from companion.app.village.panel.base import PanelScreen
from companion.app.village.panel.score_text import result_line, share_text, tie_explanations
from companion.app.village.panel.turn import turn_line
from companion.app.village.present import term
from companion.app.village.table.cubes import piece
from companion.scoring.contract import ScoreSheet
from companion.village.commands import FinishGame
from companion.village.scoring import (
    CATEGORIES,
    category_maxima,
    sheet_from_state,
    tracked_categories,
)

logger = logging.getLogger(__name__)

# The category column is as wide as its longest word (never narrower: a word would break
# inside itself, "Ansehenslei/ste"); the players' columns share the rest, 48 px at least,
# a name's width where it fits. Wider than the screen (many players, long words), the
# table scrolls sideways; a name cut short shows whole on tap and in its tooltip.
LABEL_SIZE, NAME_SIZE = 15, 13
MIN_LABEL_WIDTH = 64
LABEL_ONE_LINE = 104
TABLE_WIDTH = 326  # a 360 px phone: the screen's padding and the table's border off
TABLE_INSET = 34
MIN_CELL, MAX_CELL = 48, 64
NAME_PAD = 8
EDITABLE_PHASES = ("scoring", "finished")


def label_width(labels: list[tuple[str, bool]]) -> int:
    """The category column: each (label, bold) on one line up to LABEL_ONE_LINE px (a
    Chinese label would otherwise wrap between any two characters), and never narrower
    than a label's longest word."""
    def need(text: str, bold: bool) -> float:
        return max(longest_word_width(text, LABEL_SIZE, bold=bold),
                   min(text_width(text, LABEL_SIZE, bold=bold), LABEL_ONE_LINE))

    return max(MIN_LABEL_WIDTH, *(int(need(text, bold)) + 4 for text, bold in labels))


def name_width(name: str) -> int:
    return int(text_width(name, NAME_SIZE)) + NAME_PAD


def column_widths(names: list[str], label: int, available: float) -> list[int]:
    """Each player's column: 48 px, then (shortest names first) the width of the name
    while it fits in `available`, then an even share of what is left up to 64 px."""
    widths = [MIN_CELL] * len(names)
    budget = int(available) - label - MIN_CELL * len(names)
    for i in sorted(range(len(names)), key=lambda k: name_width(names[k])):
        grow = max(0, min(name_width(names[i]) - widths[i], budget))
        widths[i] += grow
        budget -= grow
    for i in range(len(names)):
        grow = max(0, min(MAX_CELL - widths[i], budget // max(len(names) - i, 1)))
        widths[i] += grow
        budget -= grow
    return widths


class ScoreScreen(PanelScreen):
    identifier = "score-panel"

    def title(self) -> str:
        return self.ctx.t("panel.score.title")

    def sheet(self) -> ScoreSheet:
        assert self.controller is not None
        expansions = [str(e) for e in self.controller.session.setup.expansions]
        return sheet_from_state(self.state, self.comp, expansions)

    def body_controls(self) -> list[ft.Control]:
        t = self.ctx.t
        st = self.state
        sheet = self.sheet()
        editable = st.phase in EDITABLE_PHASES
        out: list[ft.Control] = [muted(turn_line(self.ctx, st), size=16)]
        if not editable:
            out.append(muted(t("panel.score.preview"), size=16))
        out.append(ft.Semantics(identifier="score-table", content=ft.Container(
            self._table(sheet, editable), padding=4, border_radius=12,
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT))))
        if editable:
            out.append(muted(t("panel.score.edit_hint")))
        results: list[ft.Control] = []
        result = result_line(self.ctx, sheet, self.comp)
        if result:
            results.append(ft.Text(result, size=20, weight=ft.FontWeight.W_600,
                                   key="winners"))
        for r in sheet.players:
            if r.achievement:
                results.append(ft.Text(t("panel.score.achievement",
                                         name=term(self.ctx, "achievement", r.achievement)),
                                       size=18, key="achievement"))
        ties = tie_explanations(self.ctx, st, self.comp, sheet)
        results += [ft.Text(text, size=16) for text in ties]
        if results:
            out.append(card(t("panel.score.result"), results, identifier="score-result"))
        out.append(self._share_button(sheet, ties))
        if st.phase == "scoring":
            out.append(apply_button(t("panel.score.finish"), self._ask_finish, key="finish"))
        elif st.phase == "finished":
            out.append(muted(t("panel.score.finished"), size=16))
            out.append(bgstats_button(self.ctx, self.session_id))  # issue 14
        return out

    # ---- the table ------------------------------------------------------------------------
    def available_width(self) -> float:
        """The table's room on this screen (the page less its padding)."""
        return max(TABLE_WIDTH, float(self.ctx.page.width or 0) - TABLE_INSET)

    def did_resize(self) -> None:
        if getattr(self, "_laid_out_for", None) != self.available_width():
            self.refresh()

    def _table(self, sheet: ScoreSheet, editable: bool) -> ft.Control:
        t = self.ctx.t
        st = self.state
        humans = st.humans()
        total, rank = t("panel.score.total"), t("panel.score.rank")
        labels = [(term(self.ctx, "category", cat), False) for cat in CATEGORIES]
        label_w = label_width([*labels, (total, True), (rank, False)])
        self._laid_out_for = self.available_width()
        names = [st.players[i].name for i in humans]
        widths = column_widths(names, label_w, self._laid_out_for)
        header: list[ft.Control] = [ft.Container(width=label_w)]
        for i, width in zip(humans, widths, strict=True):
            header.append(self._name_header(i, width))
        rows: list[ft.Control] = [ft.Row(header, spacing=0)]
        for cat, (label, _) in zip(CATEGORIES, labels, strict=True):
            cells: list[ft.Control] = [self._label(label, label_w)]
            for col, i in enumerate(humans):
                overridden = cat in st.score_overrides.get(str(i), {})
                cells.append(self._cell(sheet.players[col].categories.get(cat, 0), i, cat,
                                        overridden, editable, widths[col]))
            rows.append(ft.Row(cells, spacing=0))
        rows.append(ft.Divider(height=1))
        rows.append(ft.Row([self._label(total, label_w, bold=True)] + [
            self._plain(str(r.total), f"total-{col}", widths[col], bold=True)
            for col, r in enumerate(sheet.players)], spacing=0))
        rows.append(ft.Row([self._label(rank, label_w)] + [
            self._plain(t("panel.score.rank_n", rank=r.rank), f"rank-{col}", widths[col])
            for col, r in enumerate(sheet.players)], spacing=0))
        # Wider than the phone with many players: the table scrolls sideways.
        return ft.Row([ft.Column(rows, spacing=0)], scroll=ft.ScrollMode.AUTO)

    def _name_header(self, player: int, width: int) -> ft.Control:
        """A player's colour and name; a name cut short to fit shows whole in a tooltip
        and, on a tap, in a message (phones have no hover)."""
        p = self.state.players[player]
        cut = name_width(p.name) > width
        name = ft.Text(p.name, size=NAME_SIZE, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS,
                       key=f"name-{player}", tooltip=p.name if cut else None)
        column = ft.Column([piece(p.colour, size=18), name], spacing=2, tight=True,
                           horizontal_alignment=ft.CrossAxisAlignment.CENTER)
        if not cut:
            return ft.Container(column, width=width)
        return ft.Semantics(label=p.name, button=True, content=ft.Container(
            column, width=width, height=TOUCH_TARGET, alignment=ft.Alignment.CENTER,
            border_radius=8, key=f"name-cell-{player}",
            on_click=lambda: self.ctx.toast(p.name)))

    @staticmethod
    def _label(text: str, width: int, bold: bool = False) -> ft.Control:
        return ft.Container(ft.Text(text, size=LABEL_SIZE,
                                    weight=ft.FontWeight.W_600 if bold else None),
                            width=width, height=TOUCH_TARGET,
                            alignment=ft.Alignment.CENTER_LEFT)

    @staticmethod
    def _plain(text: str, key: str, width: int, bold: bool = False) -> ft.Control:
        return ft.Container(ft.Text(text, size=18, key=key,
                                    weight=ft.FontWeight.BOLD if bold else None),
                            width=width, height=TOUCH_TARGET, alignment=ft.Alignment.CENTER)

    def _cell(self, value: int, player: int, cat: str, overridden: bool, editable: bool,
              width: int) -> ft.Control:
        box = ft.Container(
            ft.Text(str(value), size=18, key=f"value-{player}-{cat}",
                    weight=ft.FontWeight.BOLD if overridden else None,
                    italic=overridden,
                    color=ft.Colors.TERTIARY if overridden else None),
            width=width, height=TOUCH_TARGET, alignment=ft.Alignment.CENTER,
            border_radius=8, key=f"cell-{player}-{cat}",
            bgcolor=ft.Colors.TERTIARY_CONTAINER if overridden else None,
            on_click=self._editor(player, cat) if editable else None,
        )
        if not editable:
            return box
        # Named on the cell itself: a tooltip would be a separate node beside it.
        return ft.Semantics(button=True, content=box, label=self.ctx.t(
            "panel.score.edit_cell", player=self.state.players[player].name,
            category=term(self.ctx, "category", cat)))

    # ---- editing a cell -------------------------------------------------------------------
    def _editor(self, player: int, cat: str) -> Callable[[], None]:
        return lambda: self._open_editor(player, cat)

    def _open_editor(self, player: int, cat: str) -> None:
        """A cell's exact value: the dialog closes only once the game took it; a refused
        value stays in the field with the reason under it (kit.ask_value)."""
        t = self.ctx.t
        st = self.state
        tracked = tracked_categories(st, self.comp, player)[cat]
        current = st.score_overrides.get(str(player), {}).get(cat, tracked)
        field = value_field(t("panel.score.points"), str(current))
        most = category_maxima(self.comp)[cat]  # the engine's bound, from the components
        asked: list[int] = []  # the value above it the dialog asked about

        async def save(text: str) -> str | None:
            value = parse_whole(text)
            if value is None:
                return t("panel.score.not_a_number")
            if most is not None and value > most:
                if asked[-1:] != [value]:  # ask first; Save again ("Keep it") keeps it
                    asked.append(value)
                    keep_label()
                    return t("panel.score.beyond_max", maximum=most)
                return await self._override(player, cat, value, beyond_max=True)
            return await self._override(player, cat, value)

        async def use_tracked(_text: str) -> str | None:
            return await self._override(player, cat, None)

        extra: list[DialogAction] = []
        if cat in st.score_overrides.get(str(player), {}):
            extra.append(DialogAction(t("panel.score.use_tracked", value=tracked), use_tracked,
                                      key="use-tracked"))
        dialog = ask_value(self.ctx, t("panel.score.edit_title", player=st.players[player].name,
                                       category=term(self.ctx, "category", cat)),
                           field, save,
                           body=[muted(t("panel.score.tracked", value=tracked), size=16)],
                           extra=extra, save_label=t("panel.score.save"),
                           identifier="score-editor")

        def keep_label() -> None:
            """Save becomes "Keep it": the next tap keeps the value asked about."""
            for button in dialog.dialog.actions:
                if isinstance(button, ft.FilledButton) and button.key == "value-save":
                    button.content = t("panel.score.keep")
                    try:
                        button.update()
                    except Exception as exc:  # the dialog was closed meanwhile
                        logger.info("keep label skipped: %s", exc)

    async def _override(self, player: int, cat: str, value: int | None,
                        beyond_max: bool = False) -> str | None:
        """None once the game took the value; else why not (the engine's refusal, checked
        first so it can be shown under the field; a failed save was toasted). `beyond_max`:
        the players kept a value above what the game can give (logged)."""
        refused, command = override_command(self.ctx, self.state, self.comp, player, cat,
                                            value, beyond_max)
        if command is None:
            return refused
        return None if await self.dispatch(command) else self.ctx.t("games.not_saved")

    # ---- share and finish -----------------------------------------------------------------
    def _share_button(self, sheet: ScoreSheet, ties: list[str]) -> ft.Control:
        """The share sheet on a phone, the clipboard elsewhere, run by the client inside
        the tap: the only moment browsers (iOS Safari above all) allow either."""
        today = datetime.now(UTC).isoformat()
        text = share_text(self.ctx, sheet, ties, self.ctx.date(today), self.comp)
        device = self.ctx.device

        def shared() -> None:
            if not device.can_share_natively:  # the client copied it in the tap
                self.ctx.toast(self.ctx.t("common.copied"))

        return ft.Row([ft.OutlinedButton(
            self.ctx.t("panel.score.share"), icon=ft.Icons.SHARE, key="share", height=56,
            expand=True, on_click=shared,
            action=device.share_action(text, subject=self.ctx.t("game.village")))])

    def _ask_finish(self) -> None:
        t = self.ctx.t
        self.ctx.confirm(t("panel.score.finish_title"), t("panel.score.finish_body"),
                         lambda: self.ctx.spawn(self._finish()),
                         confirm_label=t("panel.score.finish_confirm"))

    async def _finish(self) -> None:
        if await self.dispatch(FinishGame()):
            self.ctx.go(HOME_ROUTE)
