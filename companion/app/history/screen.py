"""`/history`: every finished game of the four games, newest first: date, duration,
players, scores and winner; filters (game, Village edition, solo/multiplayer, player, date
range) and a player search; paged (the client holds only the page it shows). A row opens
the game's final sheet; a Village game also has its log and its step-by-step replay one
tap away. Below them, "Abandoned": unfinished games given up on from Home (kept, not in
the statistics), each with Resume to put it back on Home's "Continue a game"."""

from __future__ import annotations

from datetime import date
from functools import partial
from typing import Any

import flet as ft

from companion.app.history.backup_screen import offer_file
from companion.app.history.data import (
    PageData,
    day_text,
    export_one_game,
    game_label,
    read_page,
    record_label,
    resume_abandoned,
    score_text,
    winner_text,
)
from companion.app.history.paths import (
    BACKUP_ROUTE,
    STATS_ROUTE,
    log_route,
    replay_route,
    sheet_route,
)
from companion.app.kit import (
    BODY_TEXT_SIZE,
    SMALL_TEXT,
    TOUCH_TARGET,
    back_button,
    chips,
    heading,
    icon_button,
    muted,
    pager,
)
from companion.app.paging import PageSlice
from companion.app.routing import Screen
from companion.app.summaries import game_title
from companion.app.village.present import term
from companion.games import GAME_IDS, editions
from companion.history.played import last_played
from companion.history.query import HistoryFilter
from companion.history.records import GameRecord
from companion.store.base import SessionInfo

PAGE_SIZE = 10
ALL = "all"
ANY_PLAYER = "\u2063every"  # the player filter's "every player" (no name is this)
SOLO, MULTI = "solo", "multi"


def parse_day(text: str | None) -> date | None:
    """A date typed as YYYY-MM-DD (ValueError otherwise); empty: no date."""
    text = (text or "").strip()
    if not text:
        return None
    return date.fromisoformat(text)


class HistoryScreen(Screen):
    def build(self) -> ft.View:
        t = self.ctx.t
        self._game = ALL
        self._solo = ALL
        self._edition = ALL  # Village only: "big-box" or "2011" (the records' edition)
        self._player: str | None = None
        self._search = ""
        self._since: date | None = None
        self._until: date | None = None
        self._page = 0
        self._request = 0
        self._players: list[str] = []
        self._game_row = ft.Container()
        self._solo_row = ft.Container()
        self._edition_row = ft.Container(visible=False)
        self._search_field = ft.TextField(
            label=t("history.search"), prefix_icon=ft.Icons.SEARCH, dense=False,
            on_change=self._search_changed, text_size=BODY_TEXT_SIZE, expand=True)
        self._player_pick = ft.Dropdown(
            label=t("history.player"), options=[], value=ANY_PLAYER, expand=True,
            on_select=self._player_chosen, text_size=BODY_TEXT_SIZE)
        self._since_field = ft.TextField(
            label=t("history.since"), hint_text=t("history.date_hint"), expand=True,
            on_blur=self._dates_changed, on_submit=self._dates_changed,
            keyboard_type=ft.KeyboardType.DATETIME, text_size=BODY_TEXT_SIZE)
        self._until_field = ft.TextField(
            label=t("history.until"), hint_text=t("history.date_hint"), expand=True,
            on_blur=self._dates_changed, on_submit=self._dates_changed,
            keyboard_type=ft.KeyboardType.DATETIME, text_size=BODY_TEXT_SIZE)
        self._count = muted(t("common.loading"), size=BODY_TEXT_SIZE)
        self._rows = ft.Column(spacing=4)
        self._abandoned = ft.Column(spacing=4)
        # Hidden while there is none (a Semantics must hold a visible control: the web
        # client draws an error box in its place otherwise).
        self._abandoned_box = ft.Semantics(identifier="history-abandoned",
                                           content=self._abandoned, visible=False)
        self._render_filters()
        return ft.View(
            route="/history",
            appbar=ft.AppBar(
                leading=back_button(t("common.back"), self.ctx.back),
                title=ft.Semantics(content=ft.Text(t("history.title")),
                                   identifier="history-title"),
                actions=[
                    icon_button(ft.Icons.INSIGHTS, t("history.open_stats"),
                                lambda: self.ctx.go(STATS_ROUTE)),
                    icon_button(ft.Icons.SETTINGS_BACKUP_RESTORE, t("history.open_backup"),
                                lambda: self.ctx.go(BACKUP_ROUTE)),
                ],
            ),
            scroll=ft.ScrollMode.AUTO,
            padding=ft.Padding.symmetric(horizontal=16, vertical=12),
            spacing=8,
            controls=[
                ft.Row([self._search_field]),
                ft.ExpansionTile(
                    title=ft.Text(t("history.filters"), size=BODY_TEXT_SIZE),
                    leading=ft.Icon(ft.Icons.FILTER_LIST),
                    controls_padding=ft.Padding.symmetric(vertical=8),
                    maintain_state=True,
                    controls=[ft.Column([
                        self._game_row, self._edition_row, self._solo_row,
                        ft.Row([self._player_pick]),
                        ft.Row([self._since_field, self._until_field], spacing=8),
                    ], spacing=8)],
                ),
                ft.Semantics(identifier="history-count", content=self._count),
                ft.Semantics(identifier="history-rows", content=self._rows),
                self._abandoned_box,
            ],
        )

    def did_appear(self) -> None:
        self._load()

    # -- filters ---------------------------------------------------------------------------

    def _render_filters(self) -> None:
        t = self.ctx.t
        games: list[tuple[Any, str]] = [(ALL, t("history.all_games"))]
        games += [(g, game_label(t, g)) for g in GAME_IDS]
        self._game_row.content = chips(games, self._game, self._pick_game,
                                       id_prefix="history-game")
        # The edition is a Village matter: offered once Village is the game shown.
        offered = editions(self._game)
        choices: list[tuple[Any, str]] = [(ALL, t("history.all_editions"))]
        choices += [(e.id, t(e.label_key)) for e in offered]
        self._edition_row.visible = bool(offered)
        self._edition_row.content = chips(choices, self._edition, self._pick_edition,
                                          id_prefix="history-edition")
        kinds = [(ALL, t("history.all_kinds")), (SOLO, t("history.solo_only")),
                 (MULTI, t("history.multi_only"))]
        self._solo_row.content = chips(kinds, self._solo, self._pick_solo,
                                       id_prefix="history-kind")

    def _pick_game(self, value: str) -> None:
        self._game = value
        if not editions(value):
            self._edition = ALL
        self._filter_changed()

    def _pick_edition(self, value: str) -> None:
        self._edition = value
        self._filter_changed()

    def _pick_solo(self, value: str) -> None:
        self._solo = value
        self._filter_changed()

    def _player_chosen(self, e: ft.Event[ft.Dropdown]) -> None:
        value = e.control.value
        self._player = None if not value or value == ANY_PLAYER else value
        self._filter_changed()

    def _search_changed(self, e: ft.Event[ft.TextField]) -> None:
        self._search = (e.control.value or "").strip()
        self._page = 0
        self._load()

    def _dates_changed(self, e: ft.Event[ft.TextField] | None = None) -> None:
        t = self.ctx.t
        values: list[date | None] = []
        ok = True
        for field_control, name in ((self._since_field, t("history.since")),
                                    (self._until_field, t("history.until"))):
            try:
                values.append(parse_day(field_control.value))
                field_control.error = None
            except ValueError:
                # The typed text stays; the filter keeps its last good value.
                field_control.error = t("history.bad_date", field=name)
                values.append(None)
                ok = False
        if not ok:
            return
        since, until = values
        if since is not None and until is not None and since > until:
            self._until_field.error = t("history.bad_range")
            return
        if (since, until) != (self._since, self._until):
            self._since, self._until = since, until
            self._page = 0
            self._load()

    def _filter_changed(self) -> None:
        self._page = 0
        self._render_filters()
        self._load()

    def current_filter(self) -> HistoryFilter:
        return HistoryFilter(
            game=None if self._game == ALL else self._game,
            edition=None if self._edition == ALL else self._edition,
            solo=None if self._solo == ALL else self._solo == SOLO,
            player=self._player, search=self._search or None,
            since=self._since, until=self._until)

    # -- data ------------------------------------------------------------------------------

    def _load(self) -> None:
        self._request += 1
        request = self._request
        self.ctx.in_background(
            partial(read_page, self.current_filter(), self._page, PAGE_SIZE),
            then=partial(self._show, request), on_error=self._failed)

    def _failed(self, exc: Exception) -> None:
        self._count.value = self.ctx.failure_text(exc)
        self._rows.controls = []

    def _show(self, request: int, data: PageData) -> None:
        if request != self._request:  # a newer filter is on its way
            return
        t = self.ctx.t
        page = data.page
        self._page = page.page
        self._update_players(data.players)
        if page.total == 0:
            self._count.value = t("history.none")
        else:
            self._count.value = self.ctx.tn("history.count", page.total, count=page.total)
        if data.skipped:
            self._count.value += " " + t("history.skipped", count=data.skipped)
        rows: list[ft.Control] = [self._row(r) for r in page.items]
        state = PageSlice(items=page.items, index=page.page, count=page.pages)
        rows.append(pager(state, t("pager.status", page=page.page + 1, pages=page.pages),
                          t("pager.previous"), t("pager.next"),
                          on_previous=partial(self._turn, -1),
                          on_next=partial(self._turn, +1)))
        self._rows.controls = rows
        self._render_abandoned(data.abandoned)

    # -- abandoned games (unfinished, given up on from Home) --------------------------------

    def _render_abandoned(self, games: tuple[SessionInfo, ...]) -> None:
        t = self.ctx.t
        self._abandoned_box.visible = bool(games)
        if not games:
            self._abandoned.controls = []
            return
        rows: list[ft.Control] = [
            ft.Divider(),
            heading(self.ctx.tn("history.abandoned.heading", len(games), count=len(games))),
            muted(t("history.abandoned.note"), size=BODY_TEXT_SIZE),
        ]
        for info in games:
            title = game_title(t, info.game, info.title, info.summary) or game_label(
                t, info.game)
            rows.append(ft.Semantics(identifier=f"abandoned-{info.id}", content=ft.Column([
                ft.ListTile(
                    leading=ft.Icon(ft.Icons.FLAG_OUTLINED),
                    title=ft.Text(title, size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_500),
                    subtitle=ft.Text(f"{game_label(t, info.game)} · " + t(
                        "home.resume.last_played",
                        date=self.ctx.date_time(last_played(info))), size=SMALL_TEXT),
                    min_height=TOUCH_TARGET),
                ft.Row([ft.Semantics(identifier=f"resume-{info.id}", content=ft.OutlinedButton(
                    t("history.abandoned.resume"), icon=ft.Icons.RESTORE,
                    height=TOUCH_TARGET, on_click=partial(self._resume, info, title)))],
                    alignment=ft.MainAxisAlignment.END),
            ], spacing=0, tight=True)))
        self._abandoned.controls = rows

    def _resume(self, info: SessionInfo, title: str) -> None:
        self.ctx.in_background(partial(resume_abandoned, info.id),
                               then=lambda _done: self._resumed(title),
                               on_error=self._resume_failed)

    def _resumed(self, title: str) -> None:
        self.ctx.toast(self.ctx.t("history.abandoned.resumed", title=title))
        self._load()

    def _resume_failed(self, exc: Exception) -> None:
        self.ctx.toast(self.ctx.failure_text(exc))
        self._load()

    def _update_players(self, players: list[str]) -> None:
        if players == self._players:
            return
        self._players = players
        t = self.ctx.t
        self._player_pick.options = [ft.DropdownOption(key=ANY_PLAYER,
                                                      text=t("history.all_players"))]
        self._player_pick.options += [ft.DropdownOption(key=n, text=n) for n in players]
        if self._player is not None and self._player not in players:
            self._player = None
        self._player_pick.value = self._player or ANY_PLAYER

    def _export_game(self, session_id: str) -> None:
        self.ctx.in_background(partial(export_one_game, session_id),
                               then=partial(offer_file, self.ctx))

    def _turn(self, step: int) -> None:
        self._page = max(0, self._page + step)
        self._load()

    def _row(self, record: GameRecord) -> ft.Control:
        """One finished game: "date · game" on one line at 360 px (the game names its
        edition: "Village (2011)"), the duration, scores and winner below, and the
        row's buttons under them (beside the text they squeezed it onto three lines)."""
        t = self.ctx.t
        head = [day_text(record.date, self.ctx.translator.babel_locale),
                record_label(t, record)]
        lines = [score_text(record, t),
                 winner_text(record, t, lambda a: term(self.ctx, "achievement", a))]
        if record.duration_min is not None:
            lines.insert(0, t("history.duration", minutes=record.duration_min))
        tile = ft.ListTile(
            title=ft.Text(" · ".join(head), size=BODY_TEXT_SIZE,
                          weight=ft.FontWeight.W_500),
            subtitle=ft.Text("\n".join(lines), size=SMALL_TEXT),
            is_three_line=True, min_height=TOUCH_TARGET,
            on_click=partial(self.ctx.go, sheet_route(record.game, record.id)),
        )
        log = log_route(record.game, record.id)
        controls: list[ft.Control] = []
        if log is not None:
            controls.append(icon_button(ft.Icons.LIST_ALT, t("history.open_log"),
                                        partial(self.ctx.go, log)))
        replay = replay_route(record.game, record.id)
        if replay is not None:
            controls.append(icon_button(ft.Icons.SLOW_MOTION_VIDEO, t("history.replay.open"),
                                        partial(self.ctx.go, replay)))
        controls.append(icon_button(ft.Icons.FILE_DOWNLOAD_OUTLINED, t("history.export_game"),
                                    partial(self._export_game, record.id)))
        return ft.Semantics(identifier=f"history-{record.id}", content=ft.Column([
            tile, ft.Row(controls, spacing=0, alignment=ft.MainAxisAlignment.END)],
            spacing=0, tight=True))

