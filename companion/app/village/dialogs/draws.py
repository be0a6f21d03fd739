"""Entry forms for draws made physically at the table: bag, mass, fate tile, d4, start
player, compensation cube. Each checks what it can locally (so the error appears inside
the form, next to what was entered, and nothing typed is lost) and then hands the
outcome to the engine, which validates it again."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import flet as ft

from companion.app.kit import BODY_TEXT_SIZE, TOUCH_TARGET, icon_button
from companion.app.village.dialogs.common import (
    choice_tile,
    dialog,
    error_line,
    filled_button,
    refusal_message,
    scroller,
    sheet,
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
from companion.village.chance import (
    BagOutcome,
    ColourOutcome,
    FateOutcome,
    MassOutcome,
    Outcome,
    StartPlayerOutcome,
)
from companion.village.read import MONK, Reader, RuleError
from companion.village.state import Pending

if TYPE_CHECKING:
    from companion.app.context import AppContext
    from companion.app.village.controller import VillageController

logger = logging.getLogger(__name__)
Submit = Callable[[Outcome], Awaitable[bool]]


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
                    on_pick: Callable[[str], object]) -> ft.Control:
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
                         partial(env.submit, StartPlayerOutcome(player=i)),
                         identifier=f"start-player-{i}",
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
        await env.submit(ColourOutcome(colour=colour))

    return dialog(env.ctx.t("village.form.compensation.title"),
                  [*_context_lines(env), text(env.ctx.t("village.form.compensation.body",
                                                        player=name)),
                   _colour_choices(env, colours, "draw-colour", pick)],
                  env.actions, identifier="form-compensation")


def fate_form(env: FormEnv, pending: Pending) -> ft.AlertDialog:
    side = pending.detail.side or "top"
    tile = pending.detail.tile or 0
    side_name = term(env.ctx, "side", side)
    return dialog(env.ctx.t("village.form.fate.title"),
                  [*_context_lines(env),
                   text(env.ctx.t("village.form.fate.body", side=side_name, tile=tile + 1)),
                   choice_tile(env.ctx.t("village.form.fate.quill"),
                               env.ctx.t("village.form.fate.quill_hint"),
                               partial(env.submit, FateOutcome(side=side, tile=tile, quill=True)),
                               identifier="fate-quill",
                               leading=ft.Icon(ft.Icons.HISTORY_EDU, size=32)),
                   choice_tile(env.ctx.t("village.form.fate.blank"), None,
                               partial(env.submit, FateOutcome(side=side, tile=tile, quill=False)),
                               identifier="fate-blank",
                               leading=ft.Icon(ft.Icons.CROP_SQUARE, size=32))],
                  env.actions, identifier="form-fate")


def d4_form(env: FormEnv, pending: Pending) -> ft.AlertDialog:
    space = pending.detail.space or ""

    async def pick(colour: str) -> None:
        await env.submit(ColourOutcome(colour=colour))

    return dialog(env.ctx.t("village.form.d4.title"),
                  [*_context_lines(env),
                   text(env.ctx.t("village.form.d4.body", space=space_name(env.ctx, space))),
                   _colour_choices(env, list(INFLUENCE), "d4", pick)],
                  env.actions, identifier="form-d4")


# ---- the bag: cubes per action space ------------------------------------------------------
class BagForm:
    """One slot per cube the setup card puts on each space. Pick a colour in the palette
    (it shows how many are still in the bag), then tap the slots that got that colour;
    tapping a slot of the picked colour empties it. `redraw` replaces the app's draw.

    A full-screen sheet on a phone: the status line (how many slots are still empty, or
    what is wrong) and the palette stay on top while the slots scroll; the first empty
    slot is marked; a refusal is said at the top and beside the space it is about."""

    def __init__(self, env: FormEnv, *, redraw: bool) -> None:
        self.env = env
        session = env.controller.session
        # for a redraw the board's cubes go back into the bag first, as the engine does
        self.draw = Reader(session.state, session.comp).bag_draw(redraw=redraw)
        self.quota = self.draw.quota
        self.bag = self.draw.bag
        self.slots: dict[str, list[str | None]] = {s: [None] * n for s, n in self.quota.items()}
        self.rows: dict[str, ft.Row] = {}
        self.beside: dict[str, ft.Text] = {}  # a space's own error line, under its slots
        self.palette = ft.Row(wrap=True, spacing=8, run_spacing=8)
        self.brush: str | None = next((c for c in CUBE_COLOURS if c in self.bag), None)
        self.error = error_line()  # at the top, always in view
        self.status = ft.Text("", size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_600)
        self.scroller = scroller([])

    def build(self) -> ft.AlertDialog:
        ctx = self.env.ctx
        scrolling: list[ft.Control] = [*_context_lines(self.env),
                                       text(ctx.t("village.form.bag.body"), muted=True)]
        for space, n in self.quota.items():
            if n == 0:
                continue
            self.rows[space] = ft.Row(wrap=True, spacing=6, run_spacing=6)
            self.beside[space] = error_line()
            scrolling.append(ft.Semantics(identifier=f"bag-space-{space}", content=ft.Column([
                text(ctx.tn("village.form.bag.space", n, space=space_name(ctx, space),
                            count=n), bold=True),
                self.rows[space], self.beside[space]], spacing=4, tight=True)))
        self._render()
        self.scroller.controls = scrolling
        return sheet(ctx.page, ctx.t("village.form.bag.title"),
                     fixed=[ft.Semantics(identifier="bag-status", live_region=True,
                                         content=ft.Column([self.error, self.status],
                                                           spacing=2, tight=True)),
                            self.palette],
                     scrolling=self.scroller, actions=self.env.actions,
                     primary=filled_button(ctx.t("village.form.save"), self._save,
                                           identifier="bag-save"),
                     identifier="form-bag")

    def remaining(self) -> dict[str, int]:
        left = dict(self.bag)
        for cubes in self.slots.values():
            for c in cubes:
                if c is not None:
                    left[c] = left.get(c, 0) - 1
        return left

    def placements(self) -> dict[str, list[str]]:
        return {s: [c for c in cubes if c is not None] for s, cubes in self.slots.items()}

    def empty_slots(self) -> list[tuple[str, int]]:
        """Every (space, slot) still empty, in the order the form shows them."""
        return [(space, k) for space, cubes in self.slots.items()
                for k, colour in enumerate(cubes) if colour is None]

    def _chips(self, space: str, first_empty: tuple[str, int] | None) -> list[ft.Control]:
        ctx = self.env.ctx
        chips: list[ft.Control] = []
        for k, colour in enumerate(self.slots[space]):
            ident = f"bag-slot-{space}-{k}"
            if colour is None:
                marked = (space, k) == first_empty  # the next slot to fill
                label = ctx.t("forms.bag.next_slot" if marked else "village.form.bag.empty_slot")
                chips.append(ft.Semantics(identifier=ident, button=True, label=label,
                                          content=ft.Container(
                    width=TOUCH_TARGET, height=TOUCH_TARGET, border_radius=10,
                    border=ft.Border.all(3 if marked else 2,
                                         ft.Colors.PRIMARY if marked else ft.Colors.OUTLINE),
                    bgcolor=ft.Colors.PRIMARY_CONTAINER if marked else None,
                    alignment=ft.Alignment.CENTER, key=ft.ScrollKey(ident),  # type: ignore[call-arg]
                    content=ft.Icon(ft.Icons.ADD,
                                    color=ft.Colors.ON_PRIMARY_CONTAINER if marked else None),
                    on_click=partial(self.tap, space, k), ink=True)))
            else:
                chips.append(cube_chip(ctx, colour, identifier=ident,
                                       on_click=partial(self.tap, space, k)))
        return chips

    def pick(self, colour: str) -> None:
        self.brush = colour
        self._refresh_palette()

    def tap(self, space: str, k: int) -> None:
        """Paint the slot with the picked colour; the same colour again empties it."""
        ctx = self.env.ctx
        current = self.slots[space][k]
        self._clear_errors()
        if self.brush is None or current == self.brush:
            self.slots[space][k] = None
        elif self.remaining().get(self.brush, 0) <= 0:
            self._refuse(ctx.t("village.form.bag.none_left",
                               colour=colour_name(ctx, self.brush)), space)
            return
        else:
            self.slots[space][k] = self.brush
        self._render()

    def _render(self) -> None:
        """Every row (the marked slot moves), the palette's counts and the status line."""
        empty = self.empty_slots()
        first = empty[0] if empty else None
        for space, row in self.rows.items():
            row.controls = self._chips(space, first)
        self._refresh_palette()
        ctx = self.env.ctx
        if empty:
            self.status.value = ctx.tn("forms.bag.status", len(empty), count=len(empty),
                                       space=space_name(ctx, empty[0][0]))
            self.status.color = ft.Colors.ON_SURFACE_VARIANT
        else:
            self.status.value = ctx.t("forms.bag.ready")
            self.status.color = ft.Colors.PRIMARY

    def _refresh_palette(self) -> None:
        left = self.remaining()
        self.palette.controls = [ft.Column([
            cube_chip(self.env.ctx, c, identifier=f"bag-brush-{c}", selected=c == self.brush,
                      on_click=partial(self.pick, c)),
            ft.Text(self.env.ctx.t("village.form.bag.left", count=max(0, left.get(c, 0))),
                    size=14)], horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            spacing=2, tight=True) for c in CUBE_COLOURS if c in self.bag]

    def _clear_errors(self) -> None:
        show_error(self.error, None)
        for line in self.beside.values():
            show_error(line, None)

    def _refuse(self, message: str, space: str | None, beside: str | None = None) -> None:
        """`message` at the top (always in view) and, short, beside the space it is
        about."""
        show_error(self.error, message)
        if space in self.beside:
            show_error(self.beside[space], beside or message)

    async def _save(self) -> None:
        ctx = self.env.ctx
        self._clear_errors()
        empty = self.empty_slots()
        if empty:  # Save says why it is not ready, and where
            space = empty[0][0]
            self._refuse(ctx.t("village.form.bag.missing", space=space_name(ctx, space)),
                         space, ctx.t("forms.bag.slot_empty"))
            await self._scroll_to(f"bag-slot-{space}-{empty[0][1]}")
            return
        placements = self.placements()
        try:
            self.draw.check(placements)
        except RuleError as exc:
            space = exc.field.removeprefix("outcome.")
            self._refuse(error_text(ctx, exc), space, refusal_message(ctx, exc))
            return
        await self.env.submit(BagOutcome(placements=placements))

    async def _scroll_to(self, key: str) -> None:
        """Bring the marked slot into view (the slots scroll under the palette)."""
        try:
            await self.scroller.scroll_to(scroll_key=key, duration=200)
        except Exception as exc:  # the dialog went away meanwhile
            logger.info("scroll skipped: %s", exc)


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
        """A full-screen sheet on a phone: the count chosen, any error and the monks stay
        on top; the members in the bag scroll."""
        ctx = self.env.ctx
        monk_row = ft.Semantics(identifier="mass-monks", content=ft.Row([
            ft.Container(text(ctx.t("village.form.mass.monks", available=self.draw.monks_in_bag),
                              bold=True), expand=True),
            icon_button(ft.Icons.REMOVE, ctx.t("village.form.less"),
                        partial(self._monk, -1)),
            self.monk_text,
            icon_button(ft.Icons.ADD, ctx.t("village.form.more"), partial(self._monk, +1)),
        ], vertical_alignment=ft.CrossAxisAlignment.CENTER))
        self._render()
        scrolling = scroller([*_context_lines(self.env),
                              text(ctx.tn("village.form.mass.body", self.count,
                                          count=self.count), muted=True),
                              self.member_rows])
        return sheet(ctx.page, ctx.t("village.form.mass.title"),
                     fixed=[ft.Semantics(identifier="mass-status", live_region=True,
                                         content=ft.Column([self.error, self.status],
                                                           spacing=2, tight=True)),
                            monk_row],
                     scrolling=scrolling, actions=self.env.actions,
                     primary=filled_button(ctx.t("village.form.save"), self._save,
                                           identifier="mass-save"),
                     identifier="form-mass")

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
        await self.env.submit(MassOutcome(items=self.items()))
