"""The running tally screen every assistant shares: load, undo/redo, sections, problems.

A game's screen subclasses `TallyScreen` and renders its sections from the controller's
state. Handlers never block: edits go through `self.edit(...)`, which saves on the store
thread and re-renders when the save is done (or shows the refused field).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, ClassVar

import flet as ft

from companion.app.assistants.controller import Outcome, TallyController
from companion.app.game_screen import GameScreen
from companion.app.kit import (
    PRIMARY_BUTTON_HEIGHT,
    Section,
    ask_number,
    back_button,
    banner,
    body,
    icon_button,
    section_bar,
)
from companion.app.routing import RouteParams
from companion.tally.api import Edit, Problem, SetField

if TYPE_CHECKING:
    from companion.app.context import AppContext

# Field names the rules use -> catalogue keys (others are shown as the rules name them).
FIELD_LABELS: dict[str, str] = {
    "money": "games.field.money",
    "votes": "games.field.votes",
    "pollution": "games.field.pollution",
    "vp": "games.field.vp",
    "shillings": "games.field.shillings",
    "sulfur": "games.field.sulfur",
    "service_discs": "games.field.service_discs",
    "fief": "games.field.fief",
    "food": "games.field.food",
    "builders": "games.field.builders",
    "villagers": "games.field.villagers",
    "coins_on_cards": "games.field.coins_on_cards",
}


PLAYER_FIELD = re.compile(r"^players\[(\d+)\]\.?(.*)$")


BAR_HEIGHT = 72  # the section bar: 56 px targets and the bar's padding
FOOTER_HEIGHT, FOOTER_SPACING = PRIMARY_BUTTON_HEIGHT, 4  # a next-step button above it


class TallyScreen(GameScreen[TallyController]):
    title_key: ClassVar[str]
    first_section: ClassVar[str]
    final_section: ClassVar[str] = "final"

    def __init__(self, ctx: AppContext, params: RouteParams) -> None:
        super().__init__(ctx, params)
        self.section = self.first_section
        self.problems: list[Problem] = []

    # ---- what a game provides ------------------------------------------------------------
    def sections(self) -> list[Section]:
        raise NotImplementedError

    def status(self) -> str:
        """One line under the app bar: where the game is."""
        raise NotImplementedError

    def render_section(self, key: str) -> list[ft.Control]:
        raise NotImplementedError

    def footer(self) -> ft.Control | None:
        """The section's next step, kept in view above the section bar (a phone would
        otherwise find it under the bar, at the end of a long section)."""
        return None

    # ---- frame ---------------------------------------------------------------------------
    def build(self) -> ft.View:
        t = self.ctx.t
        self._status = ft.Text("", size=16, weight=ft.FontWeight.W_600)
        self._banner = ft.Column([], visible=False,
                                 horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        # Stretch: cards and banners use the phone's full width.
        self._body = ft.Column([body(t("common.loading"), muted=True)], spacing=12,
                               horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        self._undo = icon_button(ft.Icons.UNDO, t("games.undo"),
                                 lambda: self.run(self._undo_redo(undo=True)), disabled=True)
        self._redo = icon_button(ft.Icons.REDO, t("games.redo"),
                                 lambda: self.run(self._undo_redo(undo=False)), disabled=True)
        self._bar = ft.BottomAppBar(content=ft.Row([]), height=BAR_HEIGHT,
                                    padding=ft.Padding.symmetric(horizontal=6, vertical=4),
                                    visible=False)
        return ft.View(
            appbar=ft.AppBar(leading=back_button(t("common.back"), self.ctx.back),
                             title=ft.Text(t(self.title_key)),
                             actions=[self._undo, self._redo]),
            scroll=ft.ScrollMode.AUTO,
            padding=ft.Padding.symmetric(horizontal=16, vertical=12),
            spacing=12,
            controls=[self._status, self._banner, self._body],
            bottom_appbar=self._bar,
        )

    # ---- lifecycle (companion/app/game_screen.py) -----------------------------------------
    async def open_controller(self) -> TallyController:
        return await TallyController.open(self.ctx, self.session_id)

    def opened(self, controller: TallyController) -> None:
        if controller.session.finished:
            self.section = self.final_section

    def show_failure(self, message: str) -> None:
        self._body.controls = self.failure_controls(message)

    # ---- reading -----------------------------------------------------------------------
    @property
    def ctl(self) -> TallyController:
        assert self.controller is not None
        return self.controller

    @property
    def state(self) -> Any:
        return self.ctl.state

    @property
    def names(self) -> list[str]:
        return list(self.ctl.session.setup.players)

    @property
    def finished(self) -> bool:
        return self.ctl.session.finished

    def problem_for(self, *fields: str) -> str | None:
        """The message of a refused edit about one of `fields` (for a TextField error)."""
        return next((self.problem_message(p) for p in self.problems if p.field in fields),
                    None)

    def term_keys(self) -> dict[str, str]:
        """Extra field words a game translates ("knights" -> its guild label key)."""
        return {}

    def field_words(self, field: str) -> str:
        """'players[1].guilds.knights' -> 'Bo · Knights'; 'money' -> 'Money'."""
        match = PLAYER_FIELD.match(field)
        if match:
            index, rest = int(match[1]), match[2]
            name = self.names[index] if index < len(self.names) else f"#{index}"
            return f"{name} · {self.field_words(rest)}" if rest else name
        last = field.rsplit(".", 1)[-1]
        key = FIELD_LABELS.get(field) or FIELD_LABELS.get(last) or self.term_keys().get(last)
        return self.ctx.t(key) if key else field

    # A refusal's params that name a game term: param name -> {value: its label key}
    # (Feudum: "region" -> {"forest": "games.fd.region.forest", ...}).
    param_terms: ClassVar[dict[str, dict[str, str]]] = {}

    def problem_message(self, problem: Problem) -> str:
        """What is wrong, in the player's language: worded by the problem's key
        ("error.<key>", any refusal of any game), else its English message."""
        msgid = f"error.{problem.key}" if problem.key else ""
        if not msgid or not self.ctx.translator.has(msgid):
            return problem.message
        shown: dict[str, Any] = {}
        for name, value in problem.params.items():
            term = self.param_terms.get(name, {}).get(str(value), "")
            shown[name] = self.ctx.t(term) if term and self.ctx.translator.has(term) else value
        return self.ctx.t(msgid, **shown)

    def problem_text(self, problem: Problem) -> str:
        return self.ctx.t("games.error", field=self.field_words(problem.field),
                          message=self.problem_message(problem))

    # ---- acting ------------------------------------------------------------------------
    def run(self, coro: Coroutine[Any, Any, Any]) -> None:
        self.ctx.spawn(coro)

    def edit(self, edit: Edit | Callable[[], Edit],
             then: Callable[[], None] | None = None) -> None:
        """Save an edit off the loop; `then` runs only once it is saved."""
        self.run(self._edit(edit, then))

    async def save(self, edit: Edit | Callable[[], Edit]) -> Outcome:
        """For dialogs that show the problem themselves."""
        return await self.ctl.apply(edit)

    async def _edit(self, edit: Edit | Callable[[], Edit],
                    then: Callable[[], None] | None) -> None:
        outcome = await self.ctl.apply(edit)
        self.problems = list(outcome.problems)
        if outcome.ok and then is not None:
            then()
        self.render()
        self.update_page()

    async def _undo_redo(self, *, undo: bool) -> None:
        outcome = await (self.ctl.undo() if undo else self.ctl.redo())
        self.problems = list(outcome.problems)
        self.render()
        self.update_page()

    def looks_early(self) -> bool:
        """Whether the game seems not played to its end (the finish question says so)."""
        return False

    def ask_finish(self) -> None:
        """Ask before saving to history, as Village does (panel.score.finish_*); a game
        that looks early gets a warning naming where it stands."""
        t = self.ctx.t
        text = t("games.final.confirm_body")
        if self.looks_early():
            text = t("games.final.confirm_early", status=self.status()) + "\n\n" + text
        self.ctx.confirm(t("games.final.confirm_title"), text,
                         lambda: self.run(self.finish()),
                         confirm_label=t("games.final.confirm"))

    async def finish(self) -> None:
        outcome = await self.ctl.finish()
        self.problems = list(outcome.problems)
        if outcome.ok:
            self.ctx.toast(self.ctx.t("games.final.saved"))
        self.render()
        self.update_page()

    def select(self, key: str) -> None:
        self.section = key
        self.problems = []
        self.render()

    # ---- rendering -----------------------------------------------------------------------
    def render(self) -> None:
        if self.controller is None:
            return
        t = self.ctx.t
        session = self.ctl.session
        self._undo.disabled = not session.can_undo or self.ctl.busy
        self._redo.disabled = not session.can_redo or self.ctl.busy
        self._status.value = self.status()
        lines = [self.problem_text(p) for p in self.problems]
        if self.finished:
            lines.insert(0, t("games.finished_banner"))
        read_only = self.read_only_text()
        if read_only is not None:
            lines.insert(0, read_only)
        self._banner.controls = [banner(lines, error=bool(self.problems))] if lines else []
        self._banner.visible = bool(lines)
        sections = section_bar(self.sections(), self.section, self.select)
        footer = self.footer()
        self._bar.content = (ft.Column([footer, sections], spacing=FOOTER_SPACING)
                             if footer is not None else sections)
        self._bar.height = BAR_HEIGHT + (FOOTER_HEIGHT + FOOTER_SPACING if footer else 0)
        self._bar.visible = True
        self._body.controls = self.render_section(self.section)


def player_options(names: list[str]) -> list[tuple[int, str]]:
    return list(enumerate(names))


def ask_value(screen: TallyScreen, player: int, field: str, label: str, current: int) -> None:
    """Dialog to type a player's exact value for `field` (saved as a "set" edit)."""
    async def save(value: int) -> Outcome:
        return await screen.save(lambda: SetField(player=player, field=field, value=value))

    def describe(outcome: Outcome) -> str:
        return "; ".join(screen.problem_message(p) for p in outcome.problems) or screen.ctx.t(
            "games.not_saved")

    ask_number(screen.ctx, f"{screen.names[player]} · {label}", label, current, save,
               describe)
