"""`/history/stats`: statistics of one game at a time (scores of different games are on
different scales), as charts or as a table of the same numbers, and a way to merge two
spellings of a player's name (kept in the store's settings, names.MERGE_SETTING).

Charts: plays and wins per player; where the points come from (average per category,
stacked); scores over time; solo Village against Karla per variant; per game the average
winning score and how many played. The figures come from companion.history.stats through
the per-store cache, on the store thread."""

from __future__ import annotations

from datetime import date
from functools import partial
from typing import Any

import flet as ft
from babel.dates import format_date
from babel.numbers import format_decimal, format_percent

from companion.app.history import charts
from companion.app.history.data import (
    StatsData,
    game_label,
    merge_names,
    read_stats,
    unmerge_name,
)
from companion.app.history.paths import HISTORY_ROUTE
from companion.app.kit import (
    BODY_TEXT_SIZE,
    SMALL_TEXT,
    TOUCH_TARGET,
    apply_button,
    back_button,
    body,
    card,
    chips,
    muted,
)
from companion.app.routing import Screen
from companion.app.village.present import term
from companion.games import edition_label_key
from companion.history.names import NameMatcher
from companion.history.stats import UNKNOWN_POLICY, UNKNOWN_VARIANT, PlayerStats, Statistics

CHARTS, TABLE = "charts", "table"
NAME_COLUMN_WIDTH = 96  # the fixed first column of every table (names, pairs, games)
MAX_PAIRS = 30  # head-to-head rows: the pairs that met most
POLICY_KEYS = {"ask": "history.policy.ask", "auto": "history.policy.auto",
               UNKNOWN_POLICY: "history.policy.unknown"}
STREAK_KEYS = {"won": "history.stats.streak_won", "lost": "history.stats.streak_lost",
               "tied": "history.stats.streak_tied"}
VARIANT_KEYS = {"standard": "history.variant.standard", "d4": "history.variant.d4",
                UNKNOWN_VARIANT: "history.variant.unknown"}
TALLY_CATEGORY_KEYS = {
    "votes": "games.cat.votes", "promises": "games.cat.promises",
    "pollution": "games.cat.pollution", "vp": "games.cat.vp",
    "journey": "games.cat.journey", "empire": "games.cat.empire",
    "shillings": "games.cat.shillings", "decrees": "games.cat.decrees",
    "money": "games.cat.money"}


class StatisticsScreen(Screen):
    def build(self) -> ft.View:
        t = self.ctx.t
        self._game: str | None = None
        self._mode = CHARTS
        self._data: StatsData | None = None
        self._merge_from: str | None = None
        self._merge_to: str | None = None
        self._body = ft.Column([body(t("common.loading"), muted=True)], spacing=12)
        return ft.View(
            route="/history/stats",
            appbar=ft.AppBar(
                leading=back_button(t("common.back"), self.ctx.back),
                title=ft.Semantics(content=ft.Text(t("history.stats.title")),
                                   identifier="stats-title"),
            ),
            scroll=ft.ScrollMode.AUTO,
            padding=ft.Padding.symmetric(horizontal=12, vertical=12),
            spacing=12,
            controls=[self._body],
        )

    def did_appear(self) -> None:
        self._load()

    def _load(self) -> None:
        self.ctx.in_background(partial(read_stats, self._game), then=self._show,
                               on_error=self._failed)

    def _failed(self, exc: Exception) -> None:
        self._body.controls = [body(self.ctx.failure_text(exc))]

    def _show(self, data: StatsData) -> None:
        self._data = data
        self._game = data.stats.games[0].game if data.stats.games else None
        self._render()

    # -- choices ---------------------------------------------------------------------------

    def _pick_game(self, game: str) -> None:
        self._game = game
        self._load()

    def _pick_mode(self, mode: str) -> None:
        self._mode = mode
        self._render()

    # -- rendering -------------------------------------------------------------------------

    def _render(self) -> None:
        t = self.ctx.t
        data = self._data
        assert data is not None
        if not data.games:
            self._body.controls = [body(t("history.stats.empty"), muted=True),
                                   apply_button(t("history.title"),
                                                lambda: self.ctx.go(HISTORY_ROUTE))]
            return
        stats = data.stats
        out: list[ft.Control] = [
            chips([(g, game_label(t, g)) for g in data.games], self._game, self._pick_game,
                  id_prefix="stats-game"),
            chips([(CHARTS, t("history.stats.charts")), (TABLE, t("history.stats.table"))],
                  self._mode, self._pick_mode, id_prefix="stats-mode"),
            muted(self.ctx.tn("history.count", stats.records, count=stats.records),
                  size=BODY_TEXT_SIZE),
        ]
        out += self._charts(stats, data) if self._mode == CHARTS else self._tables(stats, data)
        out.append(self._merge_card(data))
        self._body.controls = out

    # -- words and numbers -----------------------------------------------------------------

    def _number(self, value: float | None) -> str:
        if value is None:
            return "—"
        return format_decimal(value, format="#,##0.#", locale=self.ctx.translator.babel_locale)

    def _percent(self, value: float | None) -> str:
        if value is None:
            return "—"
        return format_percent(value, format="#,##0%", locale=self.ctx.translator.babel_locale)

    def _category(self, name: str) -> str:
        key = TALLY_CATEGORY_KEYS.get(name)
        return self.ctx.t(key) if key else term(self.ctx, "category", name)

    def _variant(self, name: str) -> str:
        key = VARIANT_KEYS.get(name)
        return self.ctx.t(key) if key else name

    def _categories(self, stats: Statistics) -> list[str]:
        return list(dict.fromkeys(c for p in stats.players for c in p.average_by_category))

    def _short_date(self, value: date) -> str:
        # The axis writes days as History does: with the four-digit year (issue 22.8).
        return format_date(value, format="medium", locale=self.ctx.translator.babel_locale)

    # -- charts ----------------------------------------------------------------------------

    def _charts(self, stats: Statistics, data: StatsData) -> list[ft.Control]:
        t = self.ctx.t
        players = stats.players[:charts.MAX_BARS]
        out: list[ft.Control] = []
        if players:
            wins, other = charts.colour(0), charts.colour(1)
            out.append(card(t("history.stats.plays_wins"), [
                charts.legend([(t("history.stats.wins"), wins),
                               (t("history.stats.other_plays"), other)]),
                charts.stacked_bars([(p.name, [p.wins, p.plays - p.wins]) for p in players],
                                    [wins, other], "chart-plays"),
            ], identifier="card-plays"))
        cats = self._categories(stats)
        if cats:
            colours = [charts.colour(i) for i in range(len(cats))]
            with_cats = [p for p in players if p.average_by_category]
            out.append(card(t("history.stats.categories"), [
                muted(t("history.stats.categories_note")),
                charts.legend([(self._category(c), colours[i]) for i, c in enumerate(cats)]),
                charts.stacked_bars([(p.name, [p.average_by_category.get(c, 0) for c in cats])
                                     for p in with_cats], colours, "chart-categories"),
            ], identifier="card-categories"))
        over_time = [p for p in stats.players if p.scores_over_time][:charts.MAX_LINES]
        if over_time:
            out.append(self._line_card(
                t("history.stats.over_time"),
                [(p.name, p.scores_over_time) for p in over_time], "chart-over-time"))
        solo_series = [(f"{p.name} · {self._variant(v)}", pts)
                       for p in stats.players if p.solo is not None
                       for v, pts in p.solo.trend_by_variant.items()][:charts.MAX_LINES]
        if solo_series:
            out.append(self._line_card(t("history.stats.solo_trend"), solo_series,
                                       "chart-solo"))
            out.append(card(t("history.stats.achievements"),
                            self._achievement_lines(stats), identifier="card-achievements"))
        per_game = [(game_label(t, g.game), g.average_winning_score or 0)
                    for g in data.overall.games if g.average_winning_score is not None]
        if per_game:
            out.append(card(t("history.stats.winning_score"), [
                charts.bars(per_game, charts.colour(2), "chart-winning")],
                identifier="card-winning"))
        mix = stats.games[0].player_counts if stats.games else {}  # the chosen game
        if mix:
            out.append(card(t("history.stats.player_mix"), [
                charts.bars([(self._count_label(n), c) for n, c in mix.items()],
                            charts.colour(3), "chart-mix")], identifier="card-mix"))
        return out

    def _count_label(self, players: int) -> str:
        t = self.ctx.t
        return t("history.stats.solo_short") if players == 1 else str(players)

    def _line_card(self, title: str, series: list[tuple[str, list[Any]]],
                   identifier: str) -> ft.Control:
        colours = [charts.colour(i) for i in range(len(series))]
        days = sorted({d for _, pts in series for d, _ in pts})
        ends = (self._short_date(days[0]), self._short_date(days[-1])) if days else ("", "")
        return card(title, [
            charts.legend([(name, colours[i]) for i, (name, _) in enumerate(series)]),
            charts.lines([pts for _, pts in series], colours, identifier, ends),
        ], identifier=f"card-{identifier}")

    def _achievement_lines(self, stats: Statistics) -> list[ft.Control]:
        t = self.ctx.t
        lines: list[ft.Control] = []
        for p in stats.players:
            if p.solo is None:
                continue
            reached = ", ".join(
                t("history.stats.achievement_count",
                  name=term(self.ctx, "achievement", a), count=n)
                for a, n in sorted(p.solo.achievements.items(), key=lambda kv: -kv[1]))
            lines.append(ft.Text(self.ctx.tn(
                "history.stats.solo_line", p.solo.plays, name=p.name, plays=p.solo.plays,
                best=self._number(p.solo.best_score), reached=reached or "—"),
                size=SMALL_TEXT))
        return lines

    # -- tables ----------------------------------------------------------------------------

    @staticmethod
    def _table(columns: list[str], rows: list[list[str]], identifier: str) -> ft.Control:
        """A table whose first column (the names) stays put while the numbers scroll
        sideways beside it: two DataTables of the same row heights, side by side, the
        second in a horizontally scrolling row (identifiers `<id>-names`, `<id>-numbers`)."""
        def data_table(cols: list[str], cells: list[list[str]], numeric: bool,
                       width: int | None) -> ft.DataTable:
            return ft.DataTable(
                columns=[ft.DataColumn(label=ft.Text(c, size=SMALL_TEXT,
                                                     weight=ft.FontWeight.W_600),
                                       numeric=numeric) for c in cols],
                rows=[ft.DataRow(cells=[ft.DataCell(ft.Text(
                    v, size=BODY_TEXT_SIZE if numeric else SMALL_TEXT, width=width,
                    max_lines=2 if width else 1,
                    overflow=ft.TextOverflow.ELLIPSIS if width else ft.TextOverflow.VISIBLE,
                    tooltip=v if width else None)) for v in row]) for row in cells],
                column_spacing=14, horizontal_margin=6, heading_row_height=40,
                data_row_min_height=TOUCH_TARGET, data_row_max_height=TOUCH_TARGET)

        names = data_table(columns[:1], [r[:1] for r in rows], False, NAME_COLUMN_WIDTH)
        numbers = data_table(columns[1:], [r[1:] for r in rows], True, None)
        return ft.Semantics(identifier=identifier, content=ft.Row([
            ft.Semantics(identifier=f"{identifier}-names", content=names),
            ft.Row([ft.Semantics(identifier=f"{identifier}-numbers", content=numbers)],
                   scroll=ft.ScrollMode.AUTO, expand=True),
        ], spacing=0, vertical_alignment=ft.CrossAxisAlignment.START))

    def _tables(self, stats: Statistics, data: StatsData) -> list[ft.Control]:
        t = self.ctx.t
        unknown = any(p.unknown for p in stats.players)
        out: list[ft.Control] = [card(t("history.stats.players"), [self._table(
            [t("history.player"), t("history.stats.plays"), t("history.stats.wins"),
             t("history.stats.losses"), t("history.stats.ties"),
             *([t("history.stats.unknown")] if unknown else []),
             t("history.stats.win_rate"), t("history.stats.average"),
             t("history.stats.best"), t("history.stats.longest_streak"),
             t("history.stats.current_streak")],
            [self._player_row(p, unknown) for p in stats.players], "table-players"),
            muted(t("history.stats.results_note"))],
            identifier="card-table-players")]
        cats = self._categories(stats)
        if cats:
            with_cats = [p for p in stats.players if p.average_by_category]
            out.append(card(t("history.stats.categories"), [self._table(
                [t("history.player"), *[self._category(c) for c in cats]],
                [[p.name, *[self._number(p.average_by_category.get(c)) for c in cats]]
                 for p in with_cats], "table-categories")],
                identifier="card-table-categories"))
            out.append(card(t("history.stats.best_categories"), [self._table(
                [t("history.player"), *[self._category(c) for c in cats]],
                [[p.name, *[self._number(p.best_by_category.get(c)) for c in cats]]
                 for p in with_cats], "table-best-categories")],
                identifier="card-table-best-categories"))
        if stats.head_to_head:
            out.append(card(t("history.stats.head_to_head"), [self._table(
                [t("history.stats.pair"), t("history.stats.games"),
                 t("history.stats.ahead"), t("history.stats.level")],
                [[t("history.stats.pair_names", a=h.a_name, b=h.b_name), str(h.games),
                  f"{h.a_ahead} : {h.b_ahead}", str(h.level)]
                 for h in stats.head_to_head[:MAX_PAIRS]], "table-h2h"),
                muted(t("history.stats.head_to_head_note"))],
                identifier="card-table-h2h"))
        karla_rows = [[p.name, self._variant(k.variant), self._policy(k.policy),
                       str(k.plays), str(k.wins), str(k.losses), self._percent(k.win_rate),
                       self._number(k.best_score), self._number(k.average_score)]
                      for p in stats.players if p.solo is not None
                      for k in p.solo.against_karla]
        if karla_rows:
            out.append(card(t("history.stats.karla", karla=t("village.karla")), [self._table(
                [t("history.player"), t("history.stats.variant"), t("history.stats.policy"),
                 t("history.stats.plays"), t("history.stats.wins"), t("history.stats.losses"),
                 t("history.stats.win_rate"), t("history.stats.best"),
                 t("history.stats.average")],
                karla_rows, "table-karla"), *self._achievement_lines(stats)],
                identifier="card-table-karla"))
        out.append(card(t("history.stats.per_edition"), [self._table(
            [t("history.stats.game"), t("history.stats.plays"),
             t("history.stats.winning_score"), t("history.stats.minutes"),
             t("history.stats.player_mix")],
            [[self._edition_label(g.game, g.edition), str(g.plays),
              self._number(g.average_winning_score), self._number(g.average_duration_min),
              " · ".join(f"{self._count_label(n)}: {c}" for n, c in g.player_counts.items())]
             for g in data.overall.editions], "table-games")], identifier="card-table-games"))
        return out

    def _edition_label(self, game: str, edition: str | None) -> str:
        t = self.ctx.t
        name = game_label(t, game)
        key = edition_label_key(game, edition)
        return t("history.stats.game_edition", game=name, edition=t(key)) if key else name

    def _policy(self, name: str) -> str:
        key = POLICY_KEYS.get(name)
        return self.ctx.t(key) if key else name

    def _streak(self, p: PlayerStats) -> str:
        streak = p.current_streak
        if streak is None:
            return "—"
        return self.ctx.tn(STREAK_KEYS[streak.outcome], streak.length, count=streak.length)

    def _player_row(self, p: PlayerStats, unknown: bool) -> list[str]:
        return [p.name, str(p.plays), str(p.wins), str(p.losses), str(p.ties),
                *([str(p.unknown)] if unknown else []), self._percent(p.win_rate),
                self._number(p.average_score), self._number(p.best_score),
                str(p.longest_win_streak), self._streak(p)]

    # -- merging names ---------------------------------------------------------------------

    def _merge_card(self, data: StatsData) -> ft.Control:
        t = self.ctx.t
        names = sorted({p.name for p in data.overall.players} | set(data.merges),
                       key=str.casefold)
        options = [ft.DropdownOption(key=n, text=n) for n in names]
        source = ft.Dropdown(label=t("history.merge.from"), options=options,
                             value=self._merge_from, expand=True,
                             on_select=self._from_chosen, text_size=BODY_TEXT_SIZE)
        target = ft.Dropdown(label=t("history.merge.to"),
                             options=[ft.DropdownOption(key=n, text=n) for n in names],
                             value=self._merge_to, expand=True,
                             on_select=self._to_chosen, text_size=BODY_TEXT_SIZE)
        controls: list[ft.Control] = [
            muted(t("history.merge.note")),
            ft.Row([source]), ft.Row([target]),
            apply_button(t("history.merge.apply"), self._merge, key="merge-apply",
                         filled=False),
        ]
        for src, dst in sorted(data.merges.items(), key=lambda kv: kv[0].casefold()):
            controls.append(ft.Row([
                ft.Text(t("history.merge.entry", name=src, target=dst), size=BODY_TEXT_SIZE,
                        expand=True),
                ft.TextButton(t("history.merge.undo"), height=TOUCH_TARGET,
                              on_click=partial(self._unmerge, src))],
                vertical_alignment=ft.CrossAxisAlignment.CENTER))
        return card(t("history.merge.title"), controls, identifier="card-merge")

    def _from_chosen(self, e: ft.Event[ft.Dropdown]) -> None:
        self._merge_from = e.control.value or None

    def _to_chosen(self, e: ft.Event[ft.Dropdown]) -> None:
        self._merge_to = e.control.value or None

    def _merge(self) -> None:
        t = self.ctx.t
        source, target = self._merge_from, self._merge_to
        if not source or not target:
            self.ctx.toast(t("history.merge.pick_both"))
            return
        if NameMatcher().key(source) == NameMatcher().key(target):
            self.ctx.toast(t("history.merge.same"))
            return
        self.ctx.in_background(partial(merge_names, source, target),
                               then=lambda _: self._merged(source, target))

    def _merged(self, source: str, target: str) -> None:
        self._merge_from = self._merge_to = None
        self.ctx.toast(self.ctx.t("history.merge.done", name=source, target=target))
        self._load()

    def _unmerge(self, source: str) -> None:
        self.ctx.in_background(partial(unmerge_name, source), then=lambda _: self._load())

