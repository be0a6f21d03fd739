"""Choices the game waits for, asked in dialogs that open by themselves.

`PendingDialogs.sync()` runs after every render of the table: if the engine waits for a
person (a death, a cube choice, a physical draw to enter) the matching dialog opens; when
the answer arrives (from this phone or another) it closes. A dialog the user hid stays
hidden until the banner's "Answer" reopens it; an open form is never rebuilt while its
question is unchanged, so nothing entered is lost.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.village.dialogs.common import (
    DialogSlot,
    choice_tile,
    dialog,
    text,
    text_button,
)
from companion.app.village.dialogs.draws import (
    BagForm,
    FormEnv,
    MassForm,
    compensation_draw_form,
    d4_form,
    fate_form,
    start_player_form,
)
from companion.app.village.present import note_texts
from companion.app.village.table.cubes import colour_dot, colour_name, cube_chip
from companion.app.village.table.words import (
    death_destination,
    loc_text,
    member_text,
    player_name,
    space_name,
)
from companion.village.commands import (
    ChooseCompensationCube,
    ChooseDeath,
    Command,
    KarlaChooseCube,
)
from companion.village.read import Reader
from companion.village.state import Member, Pending

if TYPE_CHECKING:
    from companion.app.context import AppContext
    from companion.app.village.controller import VillageController


DIALOG_KINDS = ("death", "compensation_cube", "karla_cube", "chance")


def pending_tag(controller: VillageController, pending: Pending) -> tuple[Any, ...]:
    """Identifies one question: the same question after another action is a new one."""
    return ("pending", pending.kind, pending.draw, pending.player,
            pending.detail.model_dump_json(exclude_defaults=True), len(controller.session.events))


def pending_summary(ctx: AppContext, controller: VillageController, pending: Pending) -> str:
    """One line for the "a question is waiting" banner."""
    state = controller.state
    name = player_name(ctx, state, pending.player)
    if pending.kind == "death":
        return ctx.t("village.pending.death", player=name)
    if pending.kind == "compensation_cube":
        return ctx.t("village.pending.compensation", player=name)
    if pending.kind == "karla_cube":
        return ctx.t("village.pending.karla_cube")
    return ctx.t("village.pending.draw")


class PendingDialogs:
    def __init__(self, ctx: AppContext, controller: VillageController, slot: DialogSlot,
                 on_undo: Callable[[], object], on_hidden: Callable[[], None]) -> None:
        self.ctx = ctx
        self.controller = controller
        self.slot = slot
        self.on_undo = on_undo
        self.on_hidden = on_hidden  # the table shows a banner to reopen the question
        self.hidden: object = None  # the tag of a question the user put aside

    # ---- what the table asks ---------------------------------------------------------------
    def waiting(self) -> Pending | None:
        """The question to ask here (a market day is run on the market panel instead)."""
        state = self.controller.state
        if state.pending and state.pending[0].kind in DIALOG_KINDS:
            return state.pending[0]
        return None

    def is_hidden(self) -> bool:
        pending = self.waiting()
        return (pending is not None and not self.slot.is_open
                and pending_tag(self.controller, pending) == self.hidden)

    def sync(self) -> None:
        pending = self.waiting()
        tag = pending_tag(self.controller, pending) if pending is not None else None
        if self.slot.is_open and self.slot.tag == tag and tag is not None:
            return  # the same question is on screen: keep what was entered
        if self.slot.is_open:
            own = isinstance(self.slot.tag, tuple) and self.slot.tag[0] == "pending"
            stale = isinstance(self.slot.tag, tuple) and self.slot.tag[-1] != len(
                self.controller.session.events)
            if own or stale or tag is not None:
                self.slot.close()
        if pending is None or tag == self.hidden or self.slot.is_open:
            return
        self.slot.show(self._build(pending), tag)

    def reopen(self) -> None:
        self.hidden = None
        self.sync()

    def _hide(self) -> None:
        self.hidden = self.slot.tag
        self.slot.close()
        self.on_hidden()

    # ---- building -------------------------------------------------------------------------
    def _actions(self) -> list[ft.Control]:
        t = self.ctx.t
        undo = ft.TextButton(t("village.undo"), icon=ft.Icons.UNDO, on_click=self.on_undo,
                             height=48, disabled=not self.controller.session.can_undo())
        return [ft.Semantics(identifier="dialog-undo", content=undo),
                text_button(t("village.pending.hide"), self._hide, identifier="dialog-hide")]

    def _context(self) -> list[str]:
        return note_texts(self.ctx, self.controller.session.last_note_data)

    def _build(self, pending: Pending) -> ft.AlertDialog:
        if pending.kind == "death":
            return self._death(pending)
        if pending.kind == "compensation_cube":
            return self._compensation(pending)
        if pending.kind == "karla_cube":
            return self._karla(pending)
        return self._draw(pending)

    async def _answer(self, command: Command) -> None:
        await self.controller.dispatch(command)

    def _context_controls(self) -> list[ft.Control]:
        return [text(line, muted=True) for line in self._context()[-4:]]

    def _death(self, pending: Pending) -> ft.AlertDialog:
        ctx, state = self.ctx, self.controller.state
        comp = self.controller.session.comp
        assert pending.player is not None
        candidates = Reader(state, comp).death_candidates(pending.player)
        name = player_name(ctx, state, pending.player)
        # Members of one generation in the same place are the same choice: list it once.
        groups: dict[str, list[Member]] = {}
        for m in candidates:
            groups.setdefault(m.loc, []).append(m)
        tiles = []
        for loc, alike in groups.items():
            m = alike[0]
            title = f"{member_text(ctx, state, m.id)} — {loc_text(ctx, loc)}"
            if len(alike) > 1:
                title += " " + ctx.t("village.death.alike", count=len(alike))
            tiles.append(choice_tile(
                title, death_destination(ctx, state, comp, m),
                partial(self._answer, ChooseDeath(member=m.id)),
                identifier=f"death-{m.id}",
                leading=colour_dot(state.players[m.owner].colour, 24)))
        gen = candidates[0].gen if candidates else 0
        body = [*self._context_controls(),
                text(ctx.t("village.death.body", player=name, gen=gen)), *tiles]
        return dialog(ctx.t("village.death.title", player=name), body, self._actions(),
                      identifier="dialog-death")

    def _compensation(self, pending: Pending) -> ft.AlertDialog:
        ctx, state = self.ctx, self.controller.state
        assert pending.player is not None
        seat = (pending.player - state.start_player) % len(state.players) + 1
        name = player_name(ctx, state, pending.player)
        colours = Reader(state, self.controller.session.comp).compensation_colours()
        chips = self._colour_row(colours, "compensation",
                                 lambda c: ChooseCompensationCube(colour=c))
        body = [*self._context_controls(),
                text(ctx.t("village.compensation.body", player=name, seat=seat)), chips]
        return dialog(ctx.t("village.compensation.title", player=name), body, self._actions(),
                      identifier="dialog-compensation")

    def _karla(self, pending: Pending) -> ft.AlertDialog:
        ctx = self.ctx
        space = pending.detail.space or ""
        options = list(pending.detail.options)
        chips = self._colour_row(options, "karla-choice",
                                 lambda c: KarlaChooseCube(space=space, colour=c))
        reasons = note_texts(ctx, [w.model_dump() for w in pending.detail.why])
        body = [*self._context_controls(),
                text(ctx.t("village.karla.choose_body", space=space_name(ctx, space))),
                *[text(reason, muted=True) for reason in reasons], chips]
        return dialog(ctx.t("village.karla.choose_title"), body, self._actions(),
                      identifier="dialog-karla-cube")

    def _colour_row(self, colours: list[str], prefix: str,
                    command: Callable[[str], Command]) -> ft.Control:
        cells: list[ft.Control] = [ft.Column([
            cube_chip(self.ctx, c, size=56, identifier=f"{prefix}-{c}",
                      on_click=partial(self._answer, command(c))),
            ft.Text(colour_name(self.ctx, c), size=14)],
            horizontal_alignment=ft.CrossAxisAlignment.CENTER, spacing=2, tight=True)
            for c in colours]
        return ft.Row(cells, wrap=True, spacing=12, run_spacing=8)

    def _draw(self, pending: Pending) -> ft.AlertDialog:
        env = FormEnv(self.ctx, self.controller, self.controller.enter_draw, self._actions(),
                      self._context())
        if pending.draw == "start_player":
            return start_player_form(env)
        if pending.draw == "compensation_cube":
            return compensation_draw_form(env, pending)
        if pending.draw == "fate":
            return fate_form(env, pending)
        if pending.draw == "d4":
            return d4_form(env, pending)
        if pending.draw == "mass":
            return MassForm(env, redraw=False,
                            count=pending.detail.count or 0).build()
        return BagForm(env, redraw=False).build()
