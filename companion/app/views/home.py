"""Home: resume unfinished games, start a new one, browse finished games (all paged)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import flet as ft

from companion.app.paging import page_slice
from companion.app.routing import Screen
from companion.app.summaries import summarize
from companion.app.widgets import BODY_TEXT_SIZE, big_button, body, heading, pager
from companion.store.base import SessionInfo, SessionStore, StoreProblem
from companion.tally.registry import TALLY_GAMES

RESUME_PAGE_SIZE = 5
HISTORY_PAGE_SIZE = 10
MAX_PROBLEMS_SHOWN = 3


@dataclass(frozen=True)
class NewGame:
    route: str
    label_key: str
    icon: ft.IconData


NEW_GAMES: tuple[NewGame, ...] = (
    NewGame("/new/village", "game.village", ft.Icons.GROUPS),
    NewGame("/new/village-solo", "game.village_solo", ft.Icons.PERSON),
    NewGame("/new/small-city", "game.small_city", ft.Icons.LOCATION_CITY),
    NewGame("/new/feudum", "game.feudum", ft.Icons.CASTLE),
    NewGame("/new/villagers", "game.villagers", ft.Icons.AGRICULTURE),
)

# Game ids as stored in sessions -> label keys (unknown ids are shown as they are).
GAME_LABEL_KEYS = {
    "village": "game.village",
    "village-solo": "game.village_solo",
    "village_solo": "game.village_solo",
    "small-city": "game.small_city",
    "small_city": "game.small_city",
    "feudum": "game.feudum",
    "villagers": "game.villagers",
}


# Games whose saved sessions open in their own table screen (others: the placeholder).
PLAY_ROUTES = {"village": "/play/village/{id}", "village-solo": "/play/village/{id}",
               "village_solo": "/play/village/{id}"}
# The scoring assistants (companion/app/games) resume at /play/<game>/<id>.
PLAY_ROUTES.update({game: f"/play/{game}/{{id}}" for game in TALLY_GAMES})


def session_route(session_id: str, game: str = "") -> str:
    return PLAY_ROUTES.get(game, "/session/{id}").format(id=session_id)


@dataclass(frozen=True)
class HomeData:
    sessions: list[SessionInfo]
    problems: list[StoreProblem]


def read_home_data(store: SessionStore) -> HomeData:
    """Blocking store reads for Home; runs on the store thread."""
    return HomeData(sessions=store.list_sessions(), problems=store.problems())


class HomeScreen(Screen):
    def build(self) -> ft.View:
        t = self.ctx.t
        self._data: HomeData | None = None
        self._resume_page = 0
        self._history_page = 0
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
                actions=[ft.IconButton(ft.Icons.SETTINGS, tooltip=t("home.settings"),
                                       on_click=lambda: self.ctx.go("/settings"),
                                       width=48, height=48)],
            ),
            scroll=ft.ScrollMode.AUTO,
            padding=ft.Padding.symmetric(horizontal=16, vertical=12),
            spacing=12,
            controls=[
                self._problems,
                heading(t("home.resume.heading")),
                self._resume,
                ft.Divider(),
                heading(t("home.new.heading")),
                ft.Column(new_game_buttons, spacing=8),
                ft.Divider(),
                heading(t("home.history.heading")),
                self._history,
            ],
        )

    def did_appear(self) -> None:
        # Fresh data every time Home is shown: a game may have been saved meanwhile.
        self.ctx.in_background(read_home_data, then=self._show_data,
                               on_error=self._show_load_error)

    # -- data -> controls --------------------------------------------------------------

    def _show_load_error(self, exc: Exception) -> None:
        message = self.ctx.t("home.load_failed", error=str(exc))
        self._resume.controls = [body(message)]
        self._history.controls = []

    def _show_data(self, data: HomeData) -> None:
        self._data = data
        self._render_problems(data.problems)
        self._render_resume()
        self._render_history()

    def _render_problems(self, problems: list[StoreProblem]) -> None:
        t = self.ctx.t
        if not problems:
            self._problems.visible = False
            return
        lines: list[ft.Control] = [
            ft.Text(t("home.problems.title", count=len(problems)),
                    size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_600,
                    color=ft.Colors.ON_ERROR_CONTAINER),
        ]
        for problem in problems[:MAX_PROBLEMS_SHOWN]:
            lines.append(ft.Text(
                t("home.problems.item", path=problem.path, reason=problem.reason,
                  moved_to=problem.moved_to),
                size=14, color=ft.Colors.ON_ERROR_CONTAINER, selectable=True))
        if len(problems) > MAX_PROBLEMS_SHOWN:
            lines.append(ft.Text(t("home.problems.more",
                                   count=len(problems) - MAX_PROBLEMS_SHOWN),
                                 size=14, color=ft.Colors.ON_ERROR_CONTAINER))
        self._problems.content = ft.Semantics(
            identifier="store-problems",
            content=ft.Row([
                ft.Icon(ft.Icons.WARNING_AMBER, color=ft.Colors.ON_ERROR_CONTAINER),
                ft.Column(lines, spacing=4, expand=True),
            ], vertical_alignment=ft.CrossAxisAlignment.START),
        )
        self._problems.bgcolor = ft.Colors.ERROR_CONTAINER
        self._problems.padding = 12
        self._problems.border_radius = 12
        self._problems.visible = True

    def _game_label(self, game: str) -> str:
        key = GAME_LABEL_KEYS.get(game)
        return self.ctx.t(key) if key else game

    def _render_resume(self) -> None:
        t = self.ctx.t
        assert self._data is not None
        unfinished = [s for s in self._data.sessions if not s.finished]
        if not unfinished:
            self._resume.controls = [body(t("home.resume.empty"), muted=True)]
            return
        state = page_slice(unfinished, self._resume_page, RESUME_PAGE_SIZE)
        self._resume_page = state.index
        rows: list[ft.Control] = [
            ft.ListTile(
                leading=ft.Icon(ft.Icons.PLAY_CIRCLE_OUTLINE),
                title=ft.Text(info.title or self._game_label(info.game)),
                subtitle=ft.Text(f"{self._game_label(info.game)} · "
                                 + t("home.resume.last_played",
                                     date=self.ctx.date_time(info.updated_at))),
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
        finished = [s for s in self._data.sessions if s.finished]
        if not finished:
            self._history.controls = [body(t("home.history.empty"), muted=True)]
            return
        state = page_slice(finished, self._history_page, HISTORY_PAGE_SIZE)
        self._history_page = state.index
        rows: list[ft.Control] = []
        for info in state.items:
            result = summarize(info.summary)
            lines = []
            if result.players:
                lines.append(t("home.history.players", names=", ".join(result.players)))
            if result.scores:
                scores = ", ".join(t("home.history.score", name=name, score=score)
                                   for name, score in result.scores)
                lines.append(t("home.history.scores", scores=scores))
            lines.append(t("home.history.winner", names=", ".join(result.winners))
                         if result.winners else t("home.history.no_winner"))
            rows.append(ft.ListTile(
                leading=ft.Icon(ft.Icons.EMOJI_EVENTS_OUTLINED),
                title=ft.Text(f"{self.ctx.date(info.updated_at)} · "
                              f"{self._game_label(info.game)}"),
                subtitle=ft.Text("\n".join(lines)),
                is_three_line=len(lines) > 1,
            ))
        rows.append(pager(state, t("pager.status", page=state.index + 1, pages=state.count),
                          t("pager.previous"), t("pager.next"),
                          on_previous=partial(self._turn_history, -1),
                          on_next=partial(self._turn_history, +1)))
        self._history.controls = rows

    def _turn_resume(self, step: int) -> None:
        self._resume_page += step
        self._render_resume()

    def _turn_history(self, step: int) -> None:
        self._history_page += step
        self._render_history()
