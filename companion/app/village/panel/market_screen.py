"""`/play/village/:session_id/market` — the customer spaces, and the market day as a flow:
whose go it is, serve (front space, printed points, the goods it demands, the extra
sale's green or a coin) or pass; afterwards the refill as table instructions."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from companion.app.kit import (
    apply_button,
    body,
    card,
    choice_chips,
    muted,
    notice_card,
    stepper,
    switch,
)
from companion.app.routing import RouteParams
from companion.app.table_mode.acting import for_another_seat
from companion.app.village.dialogs.common import refusal_message
from companion.app.village.forms.payment import PaymentDraft, payment_editor
from companion.app.village.panel.base import PanelScreen
from companion.app.village.panel.turn import action_block, turn_line
from companion.app.village.present import term
from companion.app.village.table.words import player_name
from companion.village.commands import (
    Command,
    EndTurn,
    HoldMarket,
    MarketPass,
    MarketServe,
    as_paid,
)
from companion.village.state import MarketDay

if TYPE_CHECKING:
    from companion.app.context import AppContext

SPACE_SIZE = 52  # five spaces side by side on a 360 px phone


class MarketScreen(PanelScreen):
    identifier = "market-panel"

    def __init__(self, ctx: AppContext, params: RouteParams) -> None:
        super().__init__(ctx, params)
        self._draft_seller: int | None = None
        self._slot_chips: ft.Row | None = None  # the drawn sale form's parts changed in place
        self._points_row: ft.Row | None = None
        self._serve_button: ft.Control | None = None
        self._reset_sale()

    def _reset_sale(self) -> None:
        self.slot: int | None = None
        self.points = 0
        self.pay = PaymentDraft()
        self.with_coin = False
        # A sale whose payment is not what a customer takes, waiting for "That's what we
        # paid": the command and the engine's words.
        self.pay_question: tuple[MarketServe, str] | None = None

    def title(self) -> str:
        return self.ctx.t("panel.market.title")

    def body_controls(self) -> list[ft.Control]:
        out: list[ft.Control] = [muted(turn_line(self.ctx, self.state), size=16),
                                 self._spaces()]
        md = self.state.market_day
        seller = md.seller if md is not None else None
        if seller != self._draft_seller:  # a sale is drafted for one seller only
            self._reset_sale()
            self._draft_seller = seller
        out.append(self._market_day(md) if md is not None else self._hold())
        notes = self.notes_card()
        if notes is not None:
            out.append(notes)
        return out

    # ---- the spaces -----------------------------------------------------------------------
    def _spaces(self) -> ft.Control:
        t = self.ctx.t
        st = self.state
        used = self.rules().market_front_open()  # a space this player count leaves empty
        served = st.market_day.emptied if st.market_day else []
        front = [self._space(i, full, closed=not used[i], served=i in served, front=True)
                 for i, full in enumerate(st.market_front)]
        queue = [self._space(i, full) for i, full in enumerate(st.market_queue)]
        return card(t("panel.market.spaces"), [
            muted(t("panel.market.front")), ft.Row(front, spacing=6, wrap=True),
            muted(t("panel.market.queue")), ft.Row(queue, spacing=6, wrap=True),
            ft.Text(self.ctx.tn("panel.market.stack", st.customer_stack,
                                count=st.customer_stack), size=16, key="stack"),
        ], identifier="market-spaces")

    def _space(self, index: int, full: bool, *, closed: bool = False, served: bool = False,
               front: bool = False) -> ft.Control:
        t = self.ctx.t
        if closed:
            state, icon = t("panel.market.closed"), ft.Icons.BLOCK
        elif served:
            state, icon = t("panel.market.served"), ft.Icons.CHECK
        elif full:
            state, icon = t("panel.market.customer"), ft.Icons.PERSON
        else:
            state, icon = t("panel.market.empty"), None
        label = t("panel.market.space", number=index + 1)
        return ft.Container(
            width=SPACE_SIZE, height=SPACE_SIZE + 8, border_radius=8,
            bgcolor=(ft.Colors.PRIMARY_CONTAINER if full and not closed
                     else ft.Colors.SURFACE_CONTAINER_HIGHEST),
            border=ft.Border.all(2 if front else 1, ft.Colors.OUTLINE),
            opacity=0.45 if closed else 1.0,
            alignment=ft.Alignment.CENTER,
            tooltip=f"{label}: {state}",
            key=f"{'front' if front else 'queue'}-{index}",
            content=ft.Column([
                ft.Text(str(index + 1), size=16, weight=ft.FontWeight.BOLD),
                ft.Icon(icon, size=20) if icon else ft.Container(height=20),
            ], spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER, tight=True),
        )

    # ---- the market day -------------------------------------------------------------------
    def _market_day(self, md: MarketDay) -> ft.Control:
        t = self.ctx.t
        st = self.state
        seller = player_name(self.ctx, st, md.seller)  # Karla in the reader's spelling
        free = self.rules().sale_is_free()  # the engine's answer, tried on a copy
        extra = self.comp.counts("market_extra_sale")
        lines: list[ft.Control] = [
            muted(t("panel.market.day_by", player=player_name(self.ctx, st, md.trigger))),
            ft.Text(t("panel.market.to_sell", player=seller), size=22,
                    weight=ft.FontWeight.W_600, key="seller"),
            ft.Text(t("panel.market.free_sale") if free
                    else t("panel.market.paid_sale", green=extra["green"], time=extra["time"]),
                    size=16),
            # Passing is one tap and often the only move (no green cube to pay with):
            # first, not under the whole sale form.
            apply_button(t("panel.market.pass", player=seller), self._pass, key="pass",
                         filled=False),
        ]
        lines += self._history(md)
        slots = self.rules().market_slots()
        if self.slot not in slots:
            self.slot = None
        self._slot_chips = choice_chips(
            [(str(s), t("panel.market.space", number=s + 1)) for s in slots],
            str(self.slot) if self.slot is not None else None, self._pick_slot,
            key="serve-slot")
        self._points_row = stepper(
            t("panel.market.points"), self.points, self._points(-1), self._points(+1),
            key="serve-points", minus_tip=t("panel.common.less", what=t("panel.market.points")),
            plus_tip=t("panel.common.more", what=t("panel.market.points")),
            minus_disabled=self.points == 0)
        lines += [
            muted(t("panel.market.which_space")),
            self._slot_chips,
            self._points_row,
            payment_editor(self.ctx, self.pay, self.refresh, key="serve-pay",
                           colours=[], goods=list(self.comp.names("goods_types")),
                           kinds=("grain", "goods"), title=t("panel.market.demand"),
                           always_open=True),
        ]
        if not free:
            lines.append(switch(t("panel.market.with_coin"), self.with_coin,
                                self._toggle_coin))
        if self.pay_question is not None:  # above Serve, where the eye is
            lines.append(notice_card(
                t("panel.pay.differs_title") + "\n" + self.pay_question[1], ft.Icons.PAYMENTS,
                t("panel.pay.as_paid"), self._serve_as_paid, identifier="pay-differs"))
        serve = apply_button(t("panel.market.serve", player=seller), self._serve,
                             disabled=self.slot is None, key="serve")
        self._serve_button = serve.controls[0]
        lines.append(serve)
        lines = self.form_controls(lines, self._serve_command(), "serve")
        return card(t("panel.market.day"), lines, identifier="market-day")

    def _history(self, md: MarketDay) -> list[ft.Control]:
        t = self.ctx.t
        st = self.state
        out: list[ft.Control] = []
        for player, slot in md.sales:
            key = ("panel.market.karla_sold" if st.players[player].kind == "karla"
                   else "panel.market.sold")
            out.append(ft.Text(t(key, player=player_name(self.ctx, st, player), number=slot + 1),
                               size=16))
        if md.passed:
            names = ", ".join(player_name(self.ctx, st, i) for i in md.passed)
            out.append(muted(t("panel.market.passed", players=names)))
        if md.karla_to_serve and any(p.kind == "karla" for p in st.players):
            out.append(muted(t("panel.market.karla_auto")))
        return out

    # A space and the points change the drawn form in place, not by a re-render: a
    # re-render replaces every control, and a tap already on its way to a replaced one
    # (the "+" tapped right after choosing a space) is dropped by Flet.
    def _pick_slot(self, slot: str) -> None:
        self.slot = int(slot)
        if self.refusal is not None or self._slot_chips is None:
            self.refresh()  # the refusal's words go with the choice they were about
            return
        for chip in self._slot_chips.controls:
            if isinstance(chip, ft.Chip):
                chip.selected = chip.key == f"serve-slot-{slot}"
        if self._serve_button is not None:
            self._serve_button.disabled = False

    def _points(self, delta: int) -> Callable[[], None]:
        def run() -> None:
            self.points = max(0, self.points + delta)
            if self.refusal is not None or self._points_row is None:
                self.refresh()
                return
            for control in self._points_row.controls:
                if isinstance(control, ft.IconButton) and control.key == "serve-points-minus":
                    control.disabled = self.points == 0
                elif isinstance(control, ft.Container) and isinstance(control.content, ft.Text):
                    control.content.value = str(self.points)
        return run

    def _toggle_coin(self) -> None:
        self.with_coin = not self.with_coin
        self.refresh()

    def _serve_command(self) -> MarketServe | None:
        if self.slot is None:
            return None
        return MarketServe(slot=self.slot, points=self.points, pay=self.pay.as_payment(),
                           extra_with_coin=self.with_coin)

    async def _serve(self) -> None:
        command = self._serve_command()
        if command is None:
            return
        self.pay_question = None
        differs = self.rules().payment_refusal(command)
        if differs is not None:
            self.pay_question = (command, refusal_message(self.ctx, differs))
            self.refresh()
            return
        await self._send(command)

    async def _serve_as_paid(self) -> None:
        if self.pay_question is None:
            return
        command = self.pay_question[0]
        self.pay_question = None
        await self._send(as_paid(command))

    async def _send(self, command: Command) -> None:
        if await self.dispatch_form(command):  # a refusal shows in the sale form
            self._reset_sale()
            self.refresh()

    async def _pass(self) -> None:
        if await self.dispatch(MarketPass()):
            self._reset_sale()
            self.refresh()

    # ---- holding one from a well turn ------------------------------------------------------
    def _hold(self) -> ft.Control:
        t = self.ctx.t
        st = self.state
        block = action_block(st, self.comp, st.current, "market")
        lines: list[ft.Control] = [muted(t("panel.market.no_day"), size=16)]
        space = term(self.ctx, "space", "market")
        if st.action_done and self.controller is not None \
                and self.controller.turn_options().end_turn:
            # The turn's market day is over: its end is the next tap, here (a phone was
            # left on this screen with no word of what came next).
            name = player_name(self.ctx, st, st.current)
            lines.append(body(t("panel.market.day_over", player=name)))
            if for_another_seat(self.ctx, st.current):
                # a seller's phone: the turn is the taker's to end; back to the table
                lines.append(ft.Semantics(identifier="market-to-table", content=apply_button(
                    t("panel.common.open_table"), self.to_table)))
            else:
                lines.append(ft.Semantics(identifier="market-end-turn", content=apply_button(
                    t("village.table.end_turn"), self._end_turn)))
        elif block is None and st.phase == "turns":
            lines.append(apply_button(t("panel.market.hold",
                                        player=player_name(self.ctx, st, st.current)),
                                      self._hold_market, key="hold-market"))
            lines.append(muted(t("panel.market.hold_hint", space=space)))
        else:  # no button to explain: only how a market day starts
            lines.append(muted(t("panel.market.start_hint", space=space)))
        return card(t("panel.market.day"), lines, identifier="market-day")

    async def _end_turn(self) -> None:
        if await self.dispatch(EndTurn()):
            self.to_table()

    async def _hold_market(self) -> None:
        await self.dispatch(HoldMarket())
