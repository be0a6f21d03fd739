"""`/history/replay/:session_id`: a finished Village game step by step, read only.

The stored log is folded through the engine once, on the store thread (history/replay.py);
stepping then only shows another of the kept steps: step k of n, the round and the turn
within it, whose turn, each player's counters and the log line of step k. First / back /
forward / last step and previous / next turn and round are 48 px buttons named for screen
readers; where each turn and round starts was worked out with the fold
(companion.history.positions). The screen offers no command, undo, redo or "go back to
here": nothing on it changes the game."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import flet as ft

from companion.app.history.replay import Replay, ReplayStep, build_replay
from companion.app.kit import BODY_TEXT_SIZE, back_button, body, icon_button, muted
from companion.app.routing import Screen
from companion.app.village.log.words import describe
from companion.app.village.table.words import player_name


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
        self.players = ft.Column(spacing=4)
        self.note = muted(t("history.replay.read_only"))
        self.first = icon_button(ft.Icons.FIRST_PAGE, t("history.replay.first"),
                                 partial(self.go, 0), disabled=True)
        self.back = icon_button(ft.Icons.CHEVRON_LEFT, t("history.replay.previous"),
                                partial(self.step, -1), disabled=True)
        self.forward = icon_button(ft.Icons.CHEVRON_RIGHT, t("history.replay.next"),
                                   partial(self.step, +1), disabled=True)
        self.last = icon_button(ft.Icons.LAST_PAGE, t("history.replay.last"),
                                partial(self.go, -1), disabled=True)
        self.previous_round = icon_button(
            ft.Icons.FAST_REWIND, t("history.replay.previous_round"),
            partial(self.jump, lambda r, i: r.marks.previous_round(i)), disabled=True)
        self.previous_turn = icon_button(
            ft.Icons.SKIP_PREVIOUS, t("history.replay.previous_turn"),
            partial(self.jump, lambda r, i: r.marks.previous_turn(i)), disabled=True)
        self.next_turn = icon_button(
            ft.Icons.SKIP_NEXT, t("history.replay.next_turn"),
            partial(self.jump, lambda r, i: r.marks.next_turn(i)), disabled=True)
        self.next_round = icon_button(
            ft.Icons.FAST_FORWARD, t("history.replay.next_round"),
            partial(self.jump, lambda r, i: r.marks.next_round(i)), disabled=True)
        # Two rows of four: eight 48 px buttons do not fit one row at 360 px.
        jumps = ft.Row([
            ft.Semantics(identifier="replay-previous-round", content=self.previous_round),
            ft.Semantics(identifier="replay-previous-turn", content=self.previous_turn),
            ft.Semantics(identifier="replay-next-turn", content=self.next_turn),
            ft.Semantics(identifier="replay-next-round", content=self.next_round),
        ], alignment=ft.MainAxisAlignment.CENTER, spacing=8)
        buttons = ft.Row([
            ft.Semantics(identifier="replay-first", content=self.first),
            ft.Semantics(identifier="replay-back", content=self.back),
            ft.Semantics(identifier="replay-forward", content=self.forward),
            ft.Semantics(identifier="replay-last", content=self.last),
        ], alignment=ft.MainAxisAlignment.CENTER, spacing=8)
        return ft.View(
            route=f"/history/replay/{self.session_id}",
            appbar=ft.AppBar(
                leading=back_button(t("common.back"), self.ctx.back),
                title=ft.Semantics(content=ft.Text(t("history.replay.title")),
                                   identifier="replay-title"),
            ),
            scroll=ft.ScrollMode.AUTO,
            padding=ft.Padding.symmetric(horizontal=16, vertical=12),
            spacing=8,
            controls=[
                ft.Semantics(identifier="replay-step", content=self.status),
                ft.Semantics(identifier="replay-where", content=self.where),
                ft.Semantics(identifier="replay-line", content=self.line),
                ft.Divider(),
                ft.Semantics(identifier="replay-players", content=self.players),
                buttons,
                jumps,
                self.note,
            ],
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

    # -- stepping (in memory: nothing slow here) ---------------------------------------

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

    def jump(self, target: Callable[[Replay, int], int | None]) -> None:
        """To the step a jump names (the start of the previous/next turn or round)."""
        if self.replay is None or not self.replay.steps:
            return
        index = target(self.replay, self.index)
        if index is not None:
            self.index = index
            self._render()

    @property
    def shown(self) -> ReplayStep | None:
        if self.replay is None or not self.replay.steps:
            return None
        return self.replay.steps[self.index]

    def _render(self) -> None:
        t = self.ctx.t
        replay = self.replay
        assert replay is not None
        count = len(replay.steps)
        step = self.shown
        self.first.disabled = self.back.disabled = step is None or self.index == 0
        self.forward.disabled = self.last.disabled = step is None or self.index >= count - 1
        marks = replay.marks
        self.previous_round.disabled = step is None or marks.previous_round(self.index) is None
        self.previous_turn.disabled = step is None or marks.previous_turn(self.index) is None
        self.next_turn.disabled = step is None or marks.next_turn(self.index) is None
        self.next_round.disabled = step is None or marks.next_round(self.index) is None
        if step is None:
            self.status.value = t("history.replay.empty")
            self.where.value, self.line.value = "", ""
            self.players.controls = []
            return
        self.status.value = t("history.replay.step", step=step.number, count=count)
        if replay.total_events > count:
            self.status.value += " " + t("history.replay.stopped", count=count)
        final = replay.final
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
        rows: list[ft.Control] = []
        for index, counters in enumerate(step.players):
            marker = "▶ " if index == step.current and step.phase != "finished" else ""
            rows.append(body(marker + t(
                "history.replay.player", name=player_name(self.ctx, final, index),
                prestige=counters.prestige, coins=counters.coins, grain=counters.grain,
                time=counters.time)))
        self.players.controls = rows
