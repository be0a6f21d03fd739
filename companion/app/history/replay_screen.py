"""`/history/replay/:session_id`: a finished Village game step by step, read only.

The stored log is folded through the engine once, on the store thread (history/replay.py
hands it to companion.village.replay.GameReplay); stepping then asks the replay for the
state after step k (a kept snapshot plus a few events, never a refold from the start) and
draws it with the live table's parts (companion.app.village.table.live and
karla_board): whose turn, the action spaces with their cubes, Karla's board in a solo
game, each player's tile with time, coins, grain, prestige and cubes; the current
player's tile is marked "now" and highlighted. Above them: step k of n, the round and
turn, and the step's log line. Below, always in view: eight labelled 48 px buttons
(step, turn and round back and forward, first and last step); where each turn and round
starts comes from the replay. Nothing on the board answers a tap, and the screen offers
no command, undo, redo or "go back to here": nothing on it changes the game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import flet as ft

from companion.app.history.replay import Replay, ReplayStep, build_replay
from companion.app.kit import BODY_TEXT_SIZE, TOUCH_TARGET, back_button, heading, muted
from companion.app.routing import Screen
from companion.app.village.log.words import describe
from companion.app.village.table.karla_board import KarlaBoard
from companion.app.village.table.live import (
    PlayerTile,
    SpacesPanel,
    TurnHeader,
    set_controls,
)
from companion.app.village.table.sections import player_sig
from companion.app.village.table.view_model import header_texts
from companion.app.village.table.words import player_name
from companion.core.json_types import JsonObject
from companion.village.components import ComponentData
from companion.village.read import Reader
from companion.village.replay import GameReplay
from companion.village.state import VillageState

BUTTON_TEXT = 14


@dataclass(frozen=True)
class ReplayedStep:
    """A step as Karla's board reads a session (its state, components and the notes of
    the action so far)."""

    state: VillageState
    comp: ComponentData
    last_note_data: list[JsonObject] = field(default_factory=list)


async def _no_take(_space: str, _colour: str) -> None:
    """The replay's board takes nothing (the panel is disabled as well)."""


def nav_button(label: str, icon: ft.IconData, on_click: Callable[[], object],
               identifier: str) -> tuple[ft.Control, ft.OutlinedButton]:
    """A labelled 48 px button (its text is its name), half a phone's width."""
    button = ft.OutlinedButton(
        content=ft.Text(label, size=BUTTON_TEXT, max_lines=2, text_align=ft.TextAlign.CENTER,
                        overflow=ft.TextOverflow.ELLIPSIS),
        icon=icon, on_click=on_click, height=TOUCH_TARGET, disabled=True,
        style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=8)))
    holder = ft.Container(ft.Semantics(identifier=identifier, content=button), expand=True)
    return holder, button


class ReplayScreen(Screen):
    @property
    def session_id(self) -> str:
        return self.params.get("session_id", "")

    def build(self) -> ft.View:
        t = self.ctx.t
        self.replay: Replay | None = None
        self.index = 0  # into replay.steps
        self.status = ft.Text(t("common.loading"), size=BODY_TEXT_SIZE,
                              weight=ft.FontWeight.W_600)
        self.where = muted("", size=BODY_TEXT_SIZE)
        self.line = ft.Text("", size=BODY_TEXT_SIZE)
        self.header = TurnHeader()
        self.spaces = SpacesPanel(self.ctx, _no_take)
        self.spaces.control.disabled = True  # read only: no cube answers a tap
        self.karla: KarlaBoard | None = None
        self.karla_slot = ft.Container(visible=False)
        self.player_tiles: list[PlayerTile] = []
        self.players = ft.Column(spacing=8)
        self.board = ft.Column([
            heading(t("village.table.spaces")), self.spaces.control,
            self.karla_slot,
            heading(t("village.table.players")),
            ft.Semantics(identifier="replay-players", content=self.players),
            muted(t("history.replay.read_only")),
        ], spacing=10, visible=False)
        self.header_holder = ft.Container(self.header.control, visible=False)
        rows: list[ft.Control] = []
        self.buttons: dict[str, ft.OutlinedButton] = {}
        # (what it does, its name's msgid, icon, action, identifier), two to a row
        step, jump = self.step, self.jump
        pairs: list[tuple[tuple[str, str, ft.IconData, Callable[[], object], str], ...]] = [
            (("previous", "history.replay.previous", ft.Icons.CHEVRON_LEFT,
              partial(step, -1), "replay-back"),
             ("next", "history.replay.next", ft.Icons.CHEVRON_RIGHT,
              partial(step, +1), "replay-forward")),
            (("previous_turn", "history.replay.previous_turn", ft.Icons.SKIP_PREVIOUS,
              partial(jump, "previous_turn"), "replay-previous-turn"),
             ("next_turn", "history.replay.next_turn", ft.Icons.SKIP_NEXT,
              partial(jump, "next_turn"), "replay-next-turn")),
            (("previous_round", "history.replay.previous_round", ft.Icons.FAST_REWIND,
              partial(jump, "previous_round"), "replay-previous-round"),
             ("next_round", "history.replay.next_round", ft.Icons.FAST_FORWARD,
              partial(jump, "next_round"), "replay-next-round")),
            (("first", "history.replay.first", ft.Icons.FIRST_PAGE,
              partial(self.go, 0), "replay-first"),
             ("last", "history.replay.last", ft.Icons.LAST_PAGE,
              partial(self.go, -1), "replay-last")),
        ]
        for pair in pairs:
            cells: list[ft.Control] = []
            for key, msgid, icon, action, identifier in pair:
                holder, button = nav_button(t(msgid), icon, action, identifier)
                self.buttons[key] = button
                cells.append(holder)
            rows.append(ft.Row(cells, spacing=8))
        # Fixed under the board: the next tap is always in view at 360x800.
        controls_bar = ft.Container(
            ft.Semantics(identifier="replay-controls",
                         content=ft.Column(rows, spacing=4, tight=True)),
            padding=ft.Padding.symmetric(horizontal=12, vertical=6),
            border=ft.Border.only(top=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)))
        self.list = ft.ListView([
            ft.Semantics(identifier="replay-step", content=self.status),
            ft.Semantics(identifier="replay-where", content=self.where),
            ft.Semantics(identifier="replay-line", content=self.line),
            ft.Divider(),
            self.header_holder,
            self.board,
        ], expand=True, spacing=8, padding=ft.Padding.symmetric(horizontal=16, vertical=12))
        return ft.View(
            route=f"/history/replay/{self.session_id}",
            appbar=ft.AppBar(
                leading=back_button(t("common.back"), self.ctx.back),
                title=ft.Semantics(content=ft.Text(t("history.replay.title")),
                                   identifier="replay-title"),
            ),
            padding=0,
            spacing=0,
            controls=[ft.Column([self.list, controls_bar], expand=True, spacing=0)],
        )

    def did_appear(self) -> None:
        if self.replay is None:  # folded once per screen (the game is finished)
            self.ctx.in_background(partial(build_replay, self.session_id),
                                   then=self._loaded, on_error=self._failed)

    def _failed(self, exc: Exception) -> None:
        self.status.value = self.ctx.t("history.replay.failed", error=str(exc))

    def _loaded(self, replay: Replay) -> None:
        self.replay = replay
        self.index = 0  # a replay starts at the beginning
        self._render()

    # -- stepping (in memory: a snapshot and a few events at most) -----------------------

    def go(self, index: int) -> None:
        if self.replay is None or not self.replay.steps:
            return
        count = len(self.replay.steps)
        self.index = index % count if index < 0 else min(index, count - 1)
        self._render()

    def step(self, delta: int) -> None:
        if self.replay is None or not self.replay.steps:
            return
        self.index = min(max(self.index + delta, 0), len(self.replay.steps) - 1)
        self._render()

    def jump(self, name: str) -> None:
        """To the step a jump names (the start of the previous/next turn or round)."""
        if self.replay is None or not self.replay.steps:
            return
        number = self._target(self.replay.game, name)
        if number is not None:
            self.index = number - 1
            self._render()

    def _target(self, game: GameReplay, name: str) -> int | None:
        jumps: dict[str, Callable[[int], int | None]] = {
            "previous_turn": game.previous_turn, "next_turn": game.next_turn,
            "previous_round": game.previous_round, "next_round": game.next_round}
        return jumps[name](self.index + 1)

    @property
    def shown(self) -> ReplayStep | None:
        if self.replay is None or not self.replay.steps:
            return None
        return self.replay.steps[self.index]

    def _render(self) -> None:
        t = self.ctx.t
        replay = self.replay
        assert replay is not None
        game = replay.game
        count = len(replay.steps)
        step = self.shown
        b = self.buttons
        b["first"].disabled = b["previous"].disabled = step is None or self.index == 0
        b["next"].disabled = b["last"].disabled = step is None or self.index >= count - 1
        for name in ("previous_turn", "next_turn", "previous_round", "next_round"):
            b[name].disabled = step is None or self._target(game, name) is None
        if step is None:
            self.status.value = t("history.replay.empty")
            self.where.value, self.line.value = "", ""
            self.board.visible = False
            return
        self.status.value = t("history.replay.step", step=step.number, count=count)
        if replay.total_events > count:
            self.status.value += " " + t("history.replay.stopped", count=count)
        final = game.final
        if step.phase == "finished":
            turn = t("history.replay.over")
        else:
            turn = t("history.replay.turn", player=player_name(self.ctx, final, step.current))
        if step.round and step.turn:
            where = [t("history.replay.round_turn", round=step.round, turn=step.turn)]
        elif step.round:
            where = [t("history.replay.round", round=step.round)]
        else:
            where = []
        self.where.value = " · ".join([*where, turn])
        self.line.value = describe(self.ctx, final, step.entry)
        self._draw_board(game, step.number)

    def _draw_board(self, game: GameReplay, number: int) -> None:
        """The table at step `number`, drawn by the live table's parts (read only)."""
        state = game.state_after(number)
        comp = game.comp
        self.header_holder.visible = True
        self.header.update(header_texts(self.ctx, state, comp))
        # The cubes as the live table shows them at that moment: bright where the current
        # player could take them, the rest paler; none answers a tap here.
        reader = Reader(state, comp)
        self.spaces.update(state, reader.turn_options())
        if state.karla is not None:
            if self.karla is None:
                self.karla = KarlaBoard(self.ctx)
                self.karla_slot.content = self.karla.build()
                self.karla_slot.visible = True
            self.karla.update(ReplayedStep(state, comp, game.action_notes(number)))
        kinds = [(p.kind, p.colour) for p in state.players]
        if kinds != [(tile.kind, tile.colour) for tile in self.player_tiles]:
            self.player_tiles = [PlayerTile(self.ctx, i, kind, colour, None)
                                 for i, (kind, colour) in enumerate(kinds)]
        for i, tile in enumerate(self.player_tiles):
            tile.update(player_sig(self.ctx, reader, i))
        set_controls(self.players, [tile.control for tile in self.player_tiles])
        self.board.visible = True
