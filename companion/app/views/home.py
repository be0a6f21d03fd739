"""Home: resume unfinished games (or delete or abandon one), start a new one, browse
finished games (all paged)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

import flet as ft

from companion import games
from companion.app.history.data import (
    day_text,
    game_label,
    record_label,
    winner_text,
    with_opponent,
)
from companion.app.kit import (
    BODY_TEXT_SIZE,
    TOUCH_TARGET,
    big_button,
    body,
    heading,
    icon_button,
    pager,
)
from companion.app.paging import PageSlice, page_slice
from companion.app.routing import Screen
from companion.app.settings import (
    KEY_CUBE_DISPLAY,
    KEY_D4_VARIANT,
    KEY_KARLA_POLICY,
    KEY_LANGUAGE,
    KEY_THEME,
)
from companion.app.summaries import game_title, shown_player, stored_title
from companion.app.theme import load_all_web_fonts
from companion.app.village.present import term
from companion.history.abandon import FinishedGame, split_unfinished
from companion.history.cache import history_cache
from companion.history.library import Library
from companion.history.played import last_played
from companion.history.query import HistoryPage
from companion.history.records import OUT_SCORE, GameRecord
from companion.history.results import winner_names
from companion.store.base import (
    SessionExists,
    SessionInfo,
    SessionStore,
    StaleWrite,
    StoreProblem,
)
from companion.web.fonts import fonts_for_text

RESUME_PAGE_SIZE = 5
UNDO_DELETE_SECONDS = 10  # how long the "Deleted … Undo" message stays
HISTORY_PAGE_SIZE = 10
MAX_PROBLEMS_SHOWN = 3
EXPORT_PREVIEW_CHARS = 20_000  # the dialog shows this much; Download gives everything
EXPORT_COPY_CHARS = 2_000_000  # Copy is offered up to this size (the text rides the tap)
EXPORT_PREVIEW_HEIGHT = 240  # a scrolling box for longer files
EXPORT_SHORT_CHARS = 400  # shorter texts are shown as they are
EXPORT_DIALOG_WIDTH = 360

# Settings kept from a damaged settings file, named as Settings names them.
SETTING_LABEL_KEYS = {
    KEY_LANGUAGE: "settings.language",
    KEY_THEME: "settings.theme",
    KEY_KARLA_POLICY: "settings.karla",
    KEY_D4_VARIANT: "home.problems.setting_d4",
    KEY_CUBE_DISPLAY: "settings.cubes",
}
CALIBRATION_PREFIX = "calibration:village:"


@dataclass(frozen=True)
class NewGame:
    route: str
    label_key: str
    icon: ft.IconData


#: The new-game buttons: every way the registry's games start (companion/games).
NEW_GAMES: tuple[NewGame, ...] = tuple(
    NewGame(start.route, start.name_key, getattr(ft.Icons, start.icon))
    for game in games.GAMES for start in game.starts)


def session_route(session_id: str, game: str = "") -> str:
    """Where a saved game opens (the registry's route; a legacy id opens its game's). A
    game this build does not know (a newer app wrote it) gets the not-found screen."""
    return games.play_route(game, session_id) or f"/play/{game}/{session_id}"


@dataclass(frozen=True)
class HomeData:
    unfinished: list[SessionInfo]  # every unfinished game, last saved first
    history: HistoryPage  # one page of the finished games (the history cache's records)
    problems: list[StoreProblem]
    read_only: str | None = None  # why saving is off, if it is


def read_history(page: int, store: SessionStore) -> HistoryPage:
    """Store thread: one page of finished games from the history cache (shared with
    /history; a store unchanged since the last look is not listed again)."""
    return history_cache(store).home(store, page, HISTORY_PAGE_SIZE)[1]


def read_home_data(store: SessionStore, history_page: int = 0) -> HomeData:
    """Blocking store reads for Home; runs on the store thread. The games come from the
    history cache (companion/history/cache.py), warmed at server start: a client keeps
    only the unfinished games and the one page of finished games it shows."""
    unfinished, history = history_cache(store).home(store, history_page, HISTORY_PAGE_SIZE)
    going, _abandoned = split_unfinished(unfinished)  # abandoned ones: History lists them
    return HomeData(unfinished=going, history=history,
                    problems=store.problems(), read_only=getattr(store, "read_only", None))


def discard_problem(problem_id: str, history_page: int, store: SessionStore) -> HomeData:
    """Store thread: delete a set-aside file and its report, then read Home again."""
    with contextlib.suppress(KeyError):  # already deleted (another tab): nothing to do
        store.discard_problem(problem_id)
    return read_home_data(store, history_page)


def trash_game(session_id: str, history_page: int, store: SessionStore
               ) -> tuple[str, HomeData]:
    """Store thread: move a game to the trash (restorable; history/library.py), then read
    Home again."""
    trash_id = Library(store).trash(session_id)
    return trash_id, read_home_data(store, history_page)


def restore_game(trash_id: str, history_page: int, store: SessionStore) -> HomeData:
    """Store thread: put a deleted game back exactly as it was, then read Home again."""
    Library(store).restore(trash_id)
    return read_home_data(store, history_page)


def abandon_game(session_id: str, history_page: int, store: SessionStore) -> HomeData:
    """Store thread: mark a game abandoned (kept, off "Continue"), then read Home again."""
    Library(store).abandon(session_id)
    return read_home_data(store, history_page)


def resume_game(session_id: str, history_page: int, store: SessionStore) -> HomeData:
    """Store thread: an abandoned game back among the games to continue (Undo)."""
    Library(store).resume(session_id)
    return read_home_data(store, history_page)


def _read_home(history_page: int, store: SessionStore) -> HomeData:
    return read_home_data(store, history_page)


def export_file_name(problem: StoreProblem) -> str:
    """`<id>.json` -> `<id>-set-aside.json`: what the downloaded copy is called."""
    original = Path(problem.path).name or problem.id
    stem, dot, suffix = original.rpartition(".")
    return f"{stem}-set-aside.{suffix}" if dot and stem else f"{original}-set-aside"


class HomeScreen(Screen):
    def build(self) -> ft.View:
        t = self.ctx.t
        self._data: HomeData | None = None
        self._resume_page = 0
        self._history_page = 0
        self._history_request = 0
        self._read_only = ft.Container(visible=False)
        self._problems = ft.Container(visible=False)
        self._resume = ft.Column([body(t("common.loading"), muted=True)], spacing=0)
        self._history = ft.Column([body(t("common.loading"), muted=True)], spacing=0)
        new_game_buttons = [
            big_button(t(game.label_key), game.icon, partial(self.ctx.go, game.route),
                       identifier=f"new-{game.route.rsplit('/', 1)[-1]}",
                       filled=index == 0)
            for index, game in enumerate(NEW_GAMES)
        ]
        return ft.View(
            route="/",
            appbar=ft.AppBar(
                title=ft.Semantics(content=ft.Text(t("app.title")), identifier="home-title"),
                actions=[icon_button(ft.Icons.SETTINGS, t("home.settings"),
                                     lambda: self.ctx.go("/settings"))],
            ),
            scroll=ft.ScrollMode.AUTO,
            padding=ft.Padding.symmetric(horizontal=16, vertical=12),
            spacing=12,
            controls=[
                self._read_only,
                self._problems,
                heading(t("home.resume.heading")),
                self._resume,
                ft.Divider(),
                heading(t("home.new.heading")),
                ft.Column(new_game_buttons, spacing=8),
                ft.Divider(),
                heading(t("home.history.heading")),
                self._history,
                # Every finished game, filters, statistics and backups (issue 14).
                big_button(t("history.open"), ft.Icons.HISTORY,
                           partial(self.ctx.go, "/history"), identifier="open-history",
                           filled=False),
            ],
        )

    def did_appear(self) -> None:
        # Fresh data every time Home is shown: a game may have been saved meanwhile.
        self.ctx.in_background(partial(_read_home, self._history_page),
                               then=self._show_data, on_error=self._show_load_error)

    # -- data -> controls --------------------------------------------------------------

    def _show_load_error(self, exc: Exception) -> None:
        message = self.ctx.t("home.load_failed", error=str(exc))
        self._resume.controls = [body(message)]
        self._history.controls = []

    def _show_data(self, data: HomeData) -> None:
        self._history_request += 1  # a page turn still under way is older than this
        self._data = data
        self._fonts_for(data)
        self._render_read_only(data.read_only)
        self._render_problems(data.problems)
        self._render_resume()
        self._render_history()

    def _fonts_for(self, shown: object) -> None:
        """Korean or Chinese in the games shown (a name, a title): the CJK web fonts are
        registered (Home alone does not load them on an English or German page, issue 23);
        the update that shows the rows sends them."""
        families = fonts_for_text(repr(shown))
        if families:
            load_all_web_fonts(self.ctx.page, families)

    def _render_read_only(self, reason: str | None) -> None:
        if not reason:
            self._read_only.visible = False
            self._read_only.content = None
            return
        self._read_only.content = ft.Semantics(
            identifier="read-only-banner",
            content=ft.Row([
                ft.Icon(ft.Icons.EDIT_OFF, color=ft.Colors.ON_SECONDARY_CONTAINER),
                ft.Text(self.ctx.t("home.read_only", reason=reason), size=BODY_TEXT_SIZE,
                        color=ft.Colors.ON_SECONDARY_CONTAINER, selectable=True,
                        expand=True),
            ], vertical_alignment=ft.CrossAxisAlignment.START),
        )
        self._read_only.bgcolor = ft.Colors.SECONDARY_CONTAINER
        self._read_only.padding = 12
        self._read_only.border_radius = 12
        self._read_only.visible = True

    def _render_problems(self, problems: list[StoreProblem]) -> None:
        t = self.ctx.t
        if not problems:
            self._problems.visible = False
            self._problems.content = None
            return
        lines: list[ft.Control] = [
            ft.Text(t("home.problems.title", count=len(problems)),
                    size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_600,
                    color=ft.Colors.ON_ERROR_CONTAINER),
        ]
        for problem in problems[:MAX_PROBLEMS_SHOWN]:
            lines.append(self._problem_entry(problem))
        if len(problems) > MAX_PROBLEMS_SHOWN:
            lines.append(ft.Text(t("home.problems.more",
                                   count=len(problems) - MAX_PROBLEMS_SHOWN),
                                 size=14, color=ft.Colors.ON_ERROR_CONTAINER))
        self._problems.content = ft.Semantics(
            identifier="store-problems",
            content=ft.Row([
                ft.Icon(ft.Icons.WARNING_AMBER, color=ft.Colors.ON_ERROR_CONTAINER),
                ft.Column(lines, spacing=12, expand=True),
            ], vertical_alignment=ft.CrossAxisAlignment.START),
        )
        self._problems.bgcolor = ft.Colors.ERROR_CONTAINER
        self._problems.padding = 12
        self._problems.border_radius = 12
        self._problems.visible = True

    def _problem_entry(self, problem: StoreProblem) -> ft.Control:
        """What was set aside, in the player's words; the technical reason in small
        text; Export and Delete (48 px high)."""
        t = self.ctx.t
        detail = [problem.reason, problem.id or Path(problem.moved_to).name]
        if problem.at:
            with contextlib.suppress(Exception):  # an odd timestamp must not hide it
                detail.insert(0, self.ctx.date_time(problem.at))
        colour = ft.Colors.ON_ERROR_CONTAINER
        buttons: list[ft.Control] = []
        if problem.id:  # set aside in quarantine/ (not a report of a read-only folder)
            buttons = [
                ft.OutlinedButton(t("home.problems.export"), icon=ft.Icons.DOWNLOAD,
                                  height=TOUCH_TARGET,
                                  on_click=partial(self._export, problem)),
                ft.OutlinedButton(t("home.problems.delete"), icon=ft.Icons.DELETE_OUTLINE,
                                  height=TOUCH_TARGET,
                                  on_click=partial(self._ask_delete, problem)),
            ]
        return ft.Semantics(identifier=f"problem-{problem.id}", content=ft.Column([
            ft.Text(self._problem_text(problem), size=BODY_TEXT_SIZE, color=colour,
                    weight=ft.FontWeight.W_500),
            ft.Text(" · ".join(part for part in detail if part), size=12, color=colour,
                    selectable=True),
            ft.Row(buttons, wrap=True, spacing=8, run_spacing=8),
        ], spacing=4, tight=True))

    def _problem_text(self, problem: StoreProblem) -> str:
        t = self.ctx.t
        name = stored_title(self.ctx.t, problem.title) or Path(problem.path).name
        if problem.kind == "game":
            return t("home.problems.game", title=name)
        if problem.kind == "index":
            return t("home.problems.index")
        if problem.kind == "settings":
            if not problem.recovered:
                return t("home.problems.settings_none")
            keys = ", ".join(self._setting_label(key) for key in problem.recovered)
            return self.ctx.tn("home.problems.settings", len(problem.recovered),
                               count=len(problem.recovered), keys=keys)
        return t("home.problems.file", title=name)

    def _setting_label(self, key: str) -> str:
        label = SETTING_LABEL_KEYS.get(key)
        if label is not None:
            return self.ctx.t(label)
        if key.startswith(CALIBRATION_PREFIX):
            return self.ctx.t("home.problems.setting_calibration",
                              edition=key[len(CALIBRATION_PREFIX):])
        return key

    # -- Delete and Export -------------------------------------------------------------

    def _ask_delete(self, problem: StoreProblem) -> None:
        t = self.ctx.t
        self.ctx.confirm(t("home.problems.delete_title"), t("home.problems.delete_body"),
                         partial(self._delete, problem),
                         confirm_label=t("home.problems.delete"))

    def _delete(self, problem: StoreProblem) -> None:
        self.ctx.in_background(partial(discard_problem, problem.id, self._history_page),
                               then=self._deleted)

    def _deleted(self, data: HomeData) -> None:
        self._show_data(data)
        self.ctx.toast(self.ctx.t("home.problems.deleted"))

    def _export(self, problem: StoreProblem) -> None:
        self.ctx.in_background(lambda store: store.problem_bytes(problem.id),
                               then=partial(self._show_export, problem),
                               on_error=self._export_failed)

    def _export_failed(self, exc: Exception) -> None:
        if isinstance(exc, KeyError):  # deleted meanwhile (another tab): show what is left
            self.ctx.toast(self.ctx.t("home.problems.gone"))
            self.did_appear()
        else:
            self.ctx.toast(self.ctx.failure_text(exc))

    def _show_export(self, problem: StoreProblem, raw: bytes) -> None:
        """The file as it was found: Download hands the exact bytes to the browser (or
        the save dialog); its text is shown to select and copied by Copy, inside the tap
        (the only moment browsers allow writing to the clipboard)."""
        t = self.ctx.t
        text = raw.decode("utf-8", errors="replace")
        shown = text if len(text) <= EXPORT_PREVIEW_CHARS else text[:EXPORT_PREVIEW_CHARS]
        content: list[ft.Control] = [
            ft.Text(t("home.export.body", file=export_file_name(problem),
                      size=len(raw)), size=14),
            ft.Container(
                ft.Column([ft.Text(shown, size=12, selectable=True)],
                          scroll=ft.ScrollMode.AUTO),
                height=EXPORT_PREVIEW_HEIGHT if len(shown) > EXPORT_SHORT_CHARS else None,
                padding=8, border_radius=8,
                bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST),
        ]
        if len(shown) < len(text):
            content.append(ft.Text(t("home.export.shortened"), size=12,
                                   color=ft.Colors.ON_SURFACE_VARIANT))

        def download() -> None:
            self.ctx.device.save_file(export_file_name(problem), raw)

        def copied() -> None:  # the client copied it in the tap
            self.ctx.toast(t("common.copied"))

        actions: list[ft.Control] = [
            ft.FilledButton(t("home.export.download"), icon=ft.Icons.DOWNLOAD,
                            height=TOUCH_TARGET, on_click=download),
        ]
        if len(text) <= EXPORT_COPY_CHARS:
            actions.append(ft.OutlinedButton(t("home.export.copy"), icon=ft.Icons.COPY,
                                             height=TOUCH_TARGET, on_click=copied,
                                             action=ft.CopyToClipboard(text)))
        actions.append(ft.TextButton(t("home.export.close"), height=TOUCH_TARGET,
                                     on_click=lambda: self.ctx.page.pop_dialog()))
        self.ctx.page.show_dialog(ft.AlertDialog(
            title=ft.Text(t("home.export.title")),
            content=ft.Column(content, tight=True, spacing=8, width=EXPORT_DIALOG_WIDTH),
            actions=actions,
            actions_overflow_button_spacing=8,
        ))

    def _game_label(self, game: str) -> str:
        return game_label(self.ctx.t, game)

    def _render_resume(self) -> None:
        t = self.ctx.t
        assert self._data is not None
        unfinished = self._data.unfinished
        if not unfinished:
            self._resume.controls = [body(t("home.resume.empty"), muted=True)]
            return
        state = page_slice(unfinished, self._resume_page, RESUME_PAGE_SIZE)
        self._resume_page = state.index
        rows: list[ft.Control] = [
            ft.ListTile(
                leading=ft.Icon(ft.Icons.PLAY_CIRCLE_OUTLINE),
                title=ft.Text(self._title(info)),
                subtitle=ft.Text(f"{self._game_label(info.game)} · "
                                 + t("home.resume.last_played",
                                     date=self.ctx.date_time(last_played(info)))),
                trailing=ft.Row([
                    ft.Semantics(identifier=f"abandon-{info.id}", content=icon_button(
                        ft.Icons.FLAG_OUTLINED, t("home.resume.abandon"),
                        partial(self._ask_abandon_game, info))),
                    ft.Semantics(identifier=f"delete-{info.id}", content=icon_button(
                        ft.Icons.DELETE_OUTLINE, t("home.resume.delete"),
                        partial(self._ask_delete_game, info))),
                ], spacing=12, tight=True),  # apart: a thumb must not hit the other one
                on_click=partial(self.ctx.go, session_route(info.id, info.game)),
            )
            for info in state.items
        ]
        rows.append(pager(state, t("pager.status", page=state.index + 1, pages=state.count),
                          t("pager.previous"), t("pager.next"),
                          on_previous=partial(self._turn_resume, -1),
                          on_next=partial(self._turn_resume, +1)))
        self._resume.controls = rows

    def _render_history(self) -> None:
        t = self.ctx.t
        assert self._data is not None
        history = self._data.history
        self._history_page = history.page
        if not history.total:
            self._history.controls = [body(t("home.history.empty"), muted=True)]
            return
        rows: list[ft.Control] = [self._history_row(record) for record in history.items]
        state = PageSlice(items=history.items, index=history.page, count=history.pages)
        rows.append(pager(state, t("pager.status", page=state.index + 1, pages=state.count),
                          t("pager.previous"), t("pager.next"),
                          on_previous=partial(self._turn_history, -1),
                          on_next=partial(self._turn_history, +1)))
        self._history.controls = rows

    def _history_row(self, record: GameRecord) -> ft.Control:
        t = self.ctx.t
        summary = {"solo": record.solo}
        shown = partial(shown_player, t, record.game, summary)  # Karla: 카를라 …
        names = with_opponent(record, t, ", ".join(shown(p.name) for p in record.players))
        lines = [t("home.history.players", names=names)]  # solo: "Ann vs. Karla"
        scored = [p for p in record.players if p.score is not None or p.eliminated]
        if scored:
            scores = ", ".join(t("home.history.score", name=shown(p.name),
                                 score=OUT_SCORE if p.eliminated else p.score)
                               for p in scored)
            lines.append(t("home.history.scores", scores=scores))
        if record.solo:  # won or lost against Karla (companion.history.results)
            lines.append(winner_text(record, t, lambda a: term(self.ctx, "achievement", a)))
        else:
            winners = [shown(n) for n in winner_names(record)]
            lines.append(t("home.history.winner", names=", ".join(winners)) if winners
                         else t("home.history.no_winner"))
        day = day_text(record.date, self.ctx.translator.babel_locale)
        return ft.Semantics(identifier=f"home-history-{record.id}", content=ft.ListTile(
            leading=ft.Icon(ft.Icons.EMOJI_EVENTS_OUTLINED),
            title=ft.Text(f"{day} · {record_label(self.ctx.t, record)}"),
            subtitle=ft.Text("\n".join(lines)),
            is_three_line=len(lines) > 1,
        ))

    def _title(self, info: SessionInfo) -> str:
        """Built from the summary in the reader's language (the stored title is English)."""
        return game_title(self.ctx.t, info.game, info.title, info.summary) or \
            self._game_label(info.game)

    # -- delete an unfinished game (to the trash, with Undo) ------------------------------

    def _ask_delete_game(self, info: SessionInfo) -> None:
        t = self.ctx.t
        self.ctx.confirm(t("home.resume.delete_title"),
                         t("home.resume.delete_body", title=self._title(info)),
                         partial(self._delete_game, info),
                         confirm_label=t("home.resume.delete_confirm"))

    def _delete_game(self, info: SessionInfo) -> None:
        self.ctx.in_background(partial(trash_game, info.id, self._history_page),
                               then=partial(self._game_deleted, info))

    def _game_deleted(self, info: SessionInfo, result: tuple[str, HomeData]) -> None:
        trash_id, data = result
        self._show_data(data)
        t = self.ctx.t
        self.ctx.offer(
            t("home.resume.deleted", title=self._title(info)),
            (t("home.resume.undo"), partial(self._undo_delete, info, trash_id)),
            seconds=UNDO_DELETE_SECONDS, identifier="deleted-snackbar")

    def _undo_delete(self, info: SessionInfo, trash_id: str) -> None:
        self.ctx.in_background(partial(restore_game, trash_id, self._history_page),
                               then=partial(self._game_restored, info),
                               on_error=self._restore_failed)

    def _game_restored(self, info: SessionInfo, data: HomeData) -> None:
        self._show_data(data)
        self.ctx.toast(self.ctx.t("home.resume.restored", title=self._title(info)))

    def _restore_failed(self, exc: Exception) -> None:
        if isinstance(exc, KeyError | SessionExists):  # restored already (another tab)
            self.ctx.toast(self.ctx.t("home.resume.restore_gone"))
            self.did_appear()
        else:
            self.ctx.toast(self.ctx.failure_text(exc))

    # -- abandon an unfinished game (kept, listed in History; with Undo) -----------------

    def _ask_abandon_game(self, info: SessionInfo) -> None:
        t = self.ctx.t
        self.ctx.confirm(t("home.resume.abandon_title"),
                         t("home.resume.abandon_body", title=self._title(info)),
                         partial(self._abandon_game, info),
                         confirm_label=t("home.resume.abandon_confirm"))

    def _abandon_game(self, info: SessionInfo) -> None:
        self.ctx.in_background(partial(abandon_game, info.id, self._history_page),
                               then=partial(self._game_abandoned, info),
                               on_error=self._abandon_failed)

    def _game_abandoned(self, info: SessionInfo, data: HomeData) -> None:
        self._show_data(data)
        t = self.ctx.t
        self.ctx.offer(
            t("home.resume.abandoned", title=self._title(info)),
            (t("home.resume.undo"), partial(self._undo_abandon, info)),
            seconds=UNDO_DELETE_SECONDS, identifier="abandoned-snackbar")

    def _abandon_failed(self, exc: Exception) -> None:
        if isinstance(exc, StaleWrite | FinishedGame | KeyError):  # changed elsewhere
            self.ctx.toast(self.ctx.t("home.resume.abandon_changed"))
        else:
            self.ctx.toast(self.ctx.failure_text(exc))
        self.did_appear()  # show the games as they are now

    def _undo_abandon(self, info: SessionInfo) -> None:
        self.ctx.in_background(partial(resume_game, info.id, self._history_page),
                               then=partial(self._game_resumed, info),
                               on_error=self._abandon_failed)

    def _game_resumed(self, info: SessionInfo, data: HomeData) -> None:
        self._show_data(data)
        self.ctx.toast(self.ctx.t("home.resume.resumed", title=self._title(info)))

    def _turn_resume(self, step: int) -> None:
        self._resume_page += step
        self._render_resume()

    def _turn_history(self, step: int) -> None:
        """Another page of finished games, read on the store thread (the client holds
        only the page it shows)."""
        self._history_page = max(0, self._history_page + step)
        self._history_request += 1
        request = self._history_request
        self.ctx.in_background(partial(read_history, self._history_page),
                               then=partial(self._show_history_page, request))

    def _show_history_page(self, request: int, page: HistoryPage) -> None:
        if request != self._history_request or self._data is None:
            return  # a newer turn is on its way
        self._data = replace(self._data, history=page)
        self._fonts_for(page)
        self._render_history()
