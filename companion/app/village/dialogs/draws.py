"""Entry forms for draws made physically at the table: bag, mass, fate tile, d4, start
player, compensation cube. Each checks what it can locally (so the error appears inside
the form, next to what was entered, and nothing typed is lost) and then hands the
outcome to the engine, which validates it again."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.kit import BODY_TEXT_SIZE, TOUCH_TARGET
from companion.app.village.dialogs.common import (
    choice_tile,
    dialog,
    error_line,
    filled_button,
    show_error,
    text,
)
from companion.app.village.present import error_text, term
from companion.app.village.table.cubes import (
    CUBE_COLOURS,
    INFLUENCE,
    colour_dot,
    colour_name,
    cube_chip,
)
from companion.app.village.table.words import member_text, player_name, space_name
from companion.village.read import MONK, Reader, RuleError
from companion.village.state import Pending

if TYPE_CHECKING:
    from companion.app.context import AppContext
    from companion.app.village.controller import VillageController

Submit = Callable[[dict[str, Any]], Awaitable[bool]]


@dataclass
class FormEnv:
    """What every form needs: words, the game, how to send the outcome, extra buttons."""

    ctx: AppContext
    controller: VillageController
    submit: Submit  # enter_draw for a pending draw, redraw for a replacement
    actions: list[ft.Control]  # Undo / Hide / Cancel, supplied by the caller
    context: list[str]  # the last action's notes, shown on top for orientation


def _context_lines(env: FormEnv) -> list[ft.Control]:
    return [text(line, muted=True) for line in env.context[-4:]]


def _colour_choices(env: FormEnv, colours: list[str], prefix: str,
                    on_pick: Callable[[str], Any]) -> ft.Control:
    chips: list[ft.Control] = []
    for colour in colours:
        chips.append(ft.Column([
            cube_chip(env.ctx, colour, size=56, identifier=f"{prefix}-{colour}",
                      on_click=partial(on_pick, colour)),
            ft.Text(colour_name(env.ctx, colour), size=14)],
            horizontal_alignment=ft.CrossAxisAlignment.CENTER, spacing=2, tight=True))
    return ft.Row(chips, wrap=True, spacing=12, run_spacing=8)


# ---- the simple ones: one tap is the whole answer -----------------------------------------
def start_player_form(env: FormEnv) -> ft.AlertDialog:
    state = env.controller.state
    tiles = [choice_tile(player_name(env.ctx, state, i), None,
                         partial(env.submit, {"player": i}), identifier=f"start-player-{i}",
                         leading=colour_dot(p.colour, 24))
             for i, p in enumerate(state.players)]
    return dialog(env.ctx.t("village.form.start_player.title"),
                  [*_context_lines(env), text(env.ctx.t("village.form.start_player.body")),
                   *tiles], env.actions, identifier="form-start-player")


def compensation_draw_form(env: FormEnv, pending: Pending) -> ft.AlertDialog:
    state = env.controller.state
    name = player_name(env.ctx, state, pending.player)
    colours = Reader(state, env.controller.session.comp).compensation_colours()

    async def pick(colour: str) -> None:
        await env.submit({"colour": colour})

    return dialog(env.ctx.t("village.form.compensation.title"),
                  [*_context_lines(env), text(env.ctx.t("village.form.compensation.body",
                                                        player=name)),
                   _colour_choices(env, colours, "draw-colour", pick)],
                  env.actions, identifier="form-compensation")


def fate_form(env: FormEnv, pending: Pending) -> ft.AlertDialog:
    side = pending.detail.side or "top"
    tile = pending.detail.tile or 0
    outcome = {"side": side, "tile": tile}
    side_name = term(env.ctx, "side", side)
    return dialog(env.ctx.t("village.form.fate.title"),
                  [*_context_lines(env),
                   text(env.ctx.t("village.form.fate.body", side=side_name, tile=tile + 1)),
                   choice_tile(env.ctx.t("village.form.fate.quill"),
                               env.ctx.t("village.form.fate.quill_hint"),
                               partial(env.submit, {**outcome, "quill": True}),
                               identifier="fate-quill",
                               leading=ft.Icon(ft.Icons.HISTORY_EDU, size=32)),
                   choice_tile(env.ctx.t("village.form.fate.blank"), None,
                               partial(env.submit, {**outcome, "quill": False}),
                               identifier="fate-blank",
                               leading=ft.Icon(ft.Icons.CROP_SQUARE, size=32))],
                  env.actions, identifier="form-fate")


def d4_form(env: FormEnv, pending: Pending) -> ft.AlertDialog:
    space = pending.detail.space or ""

    async def pick(colour: str) -> None:
        await env.submit({"colour": colour})

    return dialog(env.ctx.t("village.form.d4.title"),
                  [*_context_lines(env),
                   text(env.ctx.t("village.form.d4.body", space=space_name(env.ctx, space))),
                   _colour_choices(env, list(INFLUENCE), "d4", pick)],
                  env.actions, identifier="form-d4")


# ---- the bag: cubes per action space ------------------------------------------------------
class BagForm:
    """One slot per cube the setup card puts on each space. Pick a colour in the palette
    (it shows how many are still in the bag), then tap the slots that got that colour;
    tapping a slot of the picked colour empties it. `redraw` replaces the app's draw."""

    def __init__(self, env: FormEnv, *, redraw: bool) -> None:
        self.env = env
        session = env.controller.session
        # for a redraw the board's cubes go back into the bag first, as the engine does
        self.draw = Reader(session.state, session.comp).bag_draw(redraw=redraw)
        self.quota = self.draw.quota
        self.bag = self.draw.bag
        self.slots: dict[str, list[str | None]] = {s: [None] * n for s, n in self.quota.items()}
        self.rows: dict[str, ft.Row] = {}
        self.palette = ft.Row(wrap=True, spacing=8, run_spacing=8)
        self.brush: str | None = next((c for c in CUBE_COLOURS if c in self.bag), None)
        self.error = error_line()

    def build(self) -> ft.AlertDialog:
        ctx = self.env.ctx
        body: list[ft.Control] = [*_context_lines(self.env),
                                  text(ctx.t("village.form.bag.body")), self.palette]
        for space, n in self.quota.items():
            if n == 0:
                continue
            self.rows[space] = ft.Row(self._chips(space), wrap=True, spacing=6)
            body.append(ft.Column([
                text(ctx.tn("village.form.bag.space", n, space=space_name(ctx, space), count=n),
                     bold=True),
                self.rows[space]], spacing=4, tight=True))
        body.append(self.error)
        self._refresh_palette()
        actions = [*self.env.actions,
                   filled_button(ctx.t("village.form.save"), self._save,
                                 identifier="bag-save")]
        return dialog(ctx.t("village.form.bag.title"), body, actions, identifier="form-bag")

    def remaining(self) -> dict[str, int]:
        left = dict(self.bag)
        for cubes in self.slots.values():
            for c in cubes:
                if c is not None:
                    left[c] = left.get(c, 0) - 1
        return left

    def placements(self) -> dict[str, list[str]]:
        return {s: [c for c in cubes if c is not None] for s, cubes in self.slots.items()}

    def _chips(self, space: str) -> list[ft.Control]:
        chips: list[ft.Control] = []
        for k, colour in enumerate(self.slots[space]):
            ident = f"bag-slot-{space}-{k}"
            if colour is None:
                chips.append(ft.Semantics(identifier=ident, button=True,
                                          label=self.env.ctx.t("village.form.bag.empty_slot"),
                                          content=ft.Container(
                    width=TOUCH_TARGET, height=TOUCH_TARGET, border_radius=10,
                    border=ft.Border.all(2, ft.Colors.OUTLINE), alignment=ft.Alignment.CENTER,
                    content=ft.Icon(ft.Icons.ADD), on_click=partial(self.tap, space, k),
                    ink=True)))
            else:
                chips.append(cube_chip(self.env.ctx, colour, identifier=ident,
                                       on_click=partial(self.tap, space, k)))
        return chips

    def pick(self, colour: str) -> None:
        self.brush = colour
        self._refresh_palette()

    def tap(self, space: str, k: int) -> None:
        """Paint the slot with the picked colour; the same colour again empties it."""
        ctx = self.env.ctx
        current = self.slots[space][k]
        show_error(self.error, None)
        if self.brush is None or current == self.brush:
            self.slots[space][k] = None
        elif self.remaining().get(self.brush, 0) <= 0:
            show_error(self.error, ctx.t("village.form.bag.none_left",
                                         colour=colour_name(ctx, self.brush)))
            return
        else:
            self.slots[space][k] = self.brush
        self.rows[space].controls = self._chips(space)
        self._refresh_palette()

    def _refresh_palette(self) -> None:
        left = self.remaining()
        self.palette.controls = [ft.Column([
            cube_chip(self.env.ctx, c, identifier=f"bag-brush-{c}", selected=c == self.brush,
                      on_click=partial(self.pick, c)),
            ft.Text(self.env.ctx.t("village.form.bag.left", count=max(0, left.get(c, 0))),
                    size=14)], horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            spacing=2, tight=True) for c in CUBE_COLOURS if c in self.bag]

    async def _save(self) -> None:
        ctx = self.env.ctx
        for space, cubes in self.slots.items():
            if None in cubes:
                show_error(self.error, ctx.t("village.form.bag.missing",
                                             space=space_name(ctx, space)))
                return
        placements = self.placements()
        try:
            self.draw.check(placements)
        except RuleError as exc:
            show_error(self.error, error_text(ctx, exc))
            return
        await self.env.submit({"placements": placements})


# ---- the mass: what came out of the black bag ---------------------------------------------
class MassForm:
    """Monks (a counter) and the members in the black bag (toggles) until `count` items."""

    def __init__(self, env: FormEnv, *, redraw: bool, count: int | None = None) -> None:
        self.env = env
        session = env.controller.session
        self.draw = Reader(session.state, session.comp).mass_draw(redraw=redraw, count=count)
        self.count = self.draw.count
        self.monks = 0
        self.chosen: list[str] = []
        self.members = self.draw.members
        self.status = ft.Text("", size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_600)
        self.monk_text = ft.Text("0", size=20, weight=ft.FontWeight.BOLD)
        self.member_rows = ft.Column(spacing=6, tight=True)
        self.error = error_line()

    def build(self) -> ft.AlertDialog:
        ctx = self.env.ctx
        monk_row = ft.Semantics(identifier="mass-monks", content=ft.Row([
            text(ctx.t("village.form.mass.monks", available=self.draw.monks_in_bag),
                 bold=True),
            ft.IconButton(ft.Icons.REMOVE, on_click=partial(self._monk, -1),
                          tooltip=ctx.t("village.form.less"), width=48, height=48),
            self.monk_text,
            ft.IconButton(ft.Icons.ADD, on_click=partial(self._monk, +1),
                          tooltip=ctx.t("village.form.more"), width=48, height=48),
        ], wrap=True))
        self._render()
        body = [*_context_lines(self.env), text(ctx.tn("village.form.mass.body", self.count,
                                                      count=self.count)),
                self.status, monk_row, self.member_rows, self.error]
        actions = [*self.env.actions,
                   filled_button(ctx.t("village.form.save"), self._save,
                                 identifier="mass-save")]
        return dialog(ctx.t("village.form.mass.title"), body, actions, identifier="form-mass")

    def items(self) -> list[str]:
        return [MONK] * self.monks + list(self.chosen)

    def _render(self) -> None:
        ctx, state = self.env.ctx, self.draw.state
        self.monk_text.value = str(self.monks)
        self.status.value = ctx.t("village.form.mass.status", chosen=len(self.items()),
                                  count=self.count)
        self.member_rows.controls = [
            choice_tile(member_text(ctx, state, mid), None,
                        partial(self._toggle, mid), identifier=f"mass-member-{mid}",
                        leading=ft.Row([
                            ft.Icon(ft.Icons.CHECK_BOX if mid in self.chosen
                                    else ft.Icons.CHECK_BOX_OUTLINE_BLANK),
                            colour_dot(state.players[state.members[mid].owner].colour, 24)],
                            spacing=4, tight=True))
            for mid in self.members]

    def _monk(self, step: int) -> None:
        self.monks = max(0, min(self.draw.monks_in_bag, self.monks + step))
        self._render()

    def _toggle(self, member: str) -> None:
        if member in self.chosen:
            self.chosen.remove(member)
        else:
            self.chosen.append(member)
        self._render()
        show_error(self.error, None)

    async def _save(self) -> None:
        try:
            self.draw.check(self.items())
        except RuleError as exc:
            show_error(self.error, error_text(self.env.ctx, exc))
            return
        await self.env.submit({"items": self.items()})
