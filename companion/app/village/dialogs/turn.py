"""Dialogs the table opens on request: the well's colour, the bag's contents, and the
"we drew physically" forms that replace the app's bag or mass draw."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Literal

import flet as ft

from companion.app.village.dialogs.common import DialogSlot, dialog, text, text_button
from companion.app.village.dialogs.draws import BagForm, FormEnv, MassForm
from companion.app.village.table.cubes import colour_name, cube_chip
from companion.app.village.table.sections import bag_text
from companion.app.village.table.words import player_name
from companion.village.chance import Outcome
from companion.village.commands import Well
from companion.village.read import Reader

if TYPE_CHECKING:
    from companion.app.context import AppContext
    from companion.app.village.controller import VillageController


class TurnDialogs:
    def __init__(self, ctx: AppContext, controller: VillageController,
                 slot: DialogSlot) -> None:
        self.ctx = ctx
        self.controller = controller
        self.slot = slot

    def _tag(self, name: str) -> tuple[str, str, int]:
        # Ends with the log length: any action elsewhere makes the dialog stale.
        return ("user", name, len(self.controller.session.events))

    def _close_button(self, label_key: str = "common.cancel") -> ft.Control:
        """Cancel where the dialog offers a choice; Close where it only shows something."""
        return text_button(self.ctx.t(label_key), self.slot.close,
                           identifier="dialog-cancel" if label_key == "common.cancel"
                           else "dialog-close")

    # ---- the well ---------------------------------------------------------------------------
    def open_well(self) -> None:
        """The colours the engine accepts for the well now, each with the fewest coins."""
        ctx, state = self.ctx, self.controller.state
        comp = self.controller.session.comp
        name = player_name(ctx, state, state.current)
        reader = Reader(state, comp)
        price = reader.well_price() or 0
        options = reader.well_options()
        body: list[ft.Control] = [text(ctx.t("village.well.body", player=name, count=price))]
        if not options:
            body.append(text(ctx.t("village.well.none", player=name, count=price), bold=True))
        for option in options:
            colour, coins = option.colour, option.coins
            hint = (ctx.t("village.well.with_coins", coins=coins) if coins
                    else ctx.t("village.well.cubes", colour=colour_name(ctx, colour),
                               count=option.cubes))
            body.append(ft.Row([
                cube_chip(ctx, colour, size=56, identifier=f"well-{colour}",
                          on_click=partial(self._use_well, colour, coins)),
                ft.Column([text(colour_name(ctx, colour), bold=True), text(hint, muted=True)],
                          spacing=2, tight=True, expand=True)],
                vertical_alignment=ft.CrossAxisAlignment.CENTER))
        self.slot.show(dialog(ctx.t("village.well.title"), body, [self._close_button()],
                              identifier="dialog-well"), self._tag("well"))

    async def _use_well(self, colour: str, coins: int) -> None:
        if await self.controller.dispatch(Well(colour=colour, coins=coins)):
            self.slot.close()

    # ---- the bag ----------------------------------------------------------------------------
    def open_bag(self) -> None:
        ctx, state = self.ctx, self.controller.state
        body: list[ft.Control] = [text(bag_text(ctx, state)),
                text(ctx.t("village.bag.monks", count=state.monks_in_bag), muted=True)]
        self.slot.show(dialog(ctx.t("village.bag.title"), body,
                              [self._close_button("common.close")],
                              identifier="dialog-bag"), self._tag("bag"))

    # ---- replacing a draw with what was drawn by hand ---------------------------------------
    def open_redraw(self, draw: Literal["bag", "mass"]) -> None:
        async def submit(outcome: Outcome) -> bool:
            done = await self.controller.redraw(draw, outcome)
            if done:
                self.slot.close()
            return done

        env = FormEnv(self.ctx, self.controller, submit, [self._close_button()], [])
        form = BagForm(env, redraw=True) if draw == "bag" else MassForm(env, redraw=True)
        self.slot.show(form.build(), self._tag(f"redraw-{draw}"))
