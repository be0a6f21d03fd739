"""`/play/village/:session_id/mass` — the mass: buy-outs player by player, the random draw
revealed item by item, grain advancement on the church track, the majority bonus."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from companion.app.kit import apply_button, card, muted, stepper
from companion.app.routing import RouteParams
from companion.app.village.panel.base import PanelScreen
from companion.app.village.panel.mass_sections import bag_card, bonus_card, church_card, drawn_card
from companion.app.village.panel.turn import turn_line
from companion.app.village.table.words import player_name
from companion.village.commands import MassAdvance, MassBuyOut
from companion.village.state import Member

if TYPE_CHECKING:
    from companion.app.context import AppContext


class MassScreen(PanelScreen):
    identifier = "mass-panel"

    def __init__(self, ctx: AppContext, params: RouteParams) -> None:
        super().__init__(ctx, params)
        self.buy: dict[int, int] = {}  # generation -> members to buy out
        self.targets: dict[str, int] = {}  # member id -> church level to move to
        self._draft_for: tuple[str, int | None] = ("", None)
        self.revealed = 0
        self._drawn_seen: list[str] = []

    def title(self) -> str:
        return self.ctx.t("panel.mass.title")

    def body_controls(self) -> list[ft.Control]:
        t = self.ctx.t
        st = self.state
        rules = self.rules()
        out: list[ft.Control] = [muted(turn_line(self.ctx, st), size=16)]
        mass = st.mass
        if mass is None:
            out.append(muted(t("panel.mass.none"), size=16))
        else:
            out.append(ft.Text(t("panel.mass.final") if mass.final
                               else t("panel.mass.round", round=st.round),
                               size=20, weight=ft.FontWeight.W_600))
            self._sync_drafts(st.phase, rules.mass_buyer() if st.phase == "mass_buyout"
                              else rules.mass_advancer())
            if st.phase == "mass_buyout":
                out.append(self._buyout_card())
            if mass.bought:
                names = ", ".join(self._member_text(st.members[m]) for m in mass.bought)
                out.append(muted(t("panel.mass.bought", members=names), size=16))
            if mass.drawn:
                self._sync_reveal(mass.drawn)
                out.append(drawn_card(self.ctx, st, mass.drawn, self.revealed,
                                      self._reveal(1), self._reveal(len(mass.drawn))))
            if st.phase == "mass_advance":
                out.append(self._advance_card())
        out += [church_card(self.ctx, st, self.comp), bag_card(self.ctx, st, self.comp),
                bonus_card(self.ctx, st, self.comp)]
        notes = self.notes_card()
        if notes is not None:
            out.insert(1, notes)
        return out

    def _member_text(self, m: Member) -> str:
        return self.ctx.t("panel.mass.member", player=player_name(self.ctx, self.state, m.owner),
                          gen=m.gen)

    def _sync_drafts(self, phase: str, who: int | None) -> None:
        """Start a fresh draft when the buyer/advancer changes."""
        if self._draft_for != (phase, who):
            self._draft_for = (phase, who)
            self.buy, self.targets = {}, {}

    def _sync_reveal(self, drawn: list[str]) -> None:
        if drawn != self._drawn_seen:
            self._drawn_seen = list(drawn)
            self.revealed = 0

    def _reveal(self, count: int) -> Callable[[], None]:
        def run() -> None:
            self.revealed = min(len(self._drawn_seen), self.revealed + count)
            self.refresh()
        return run

    # ---- buy-outs -------------------------------------------------------------------------
    def _buyout_card(self) -> ft.Control:
        t = self.ctx.t
        st = self.state
        who = self.rules().mass_buyer()
        if who is None:
            return muted(t("panel.mass.drawing"), size=16)
        assert st.mass is not None
        p, name = st.players[who], player_name(self.ctx, st, who)
        rules = self.rules()
        cost, room = rules.buyout_price(1), rules.mass_room()
        in_bag = st.members_at("bag", who)
        chosen = sum(self.buy.values())
        lines: list[ft.Control] = [
            ft.Text(t("panel.mass.buyer", player=name), size=20, weight=ft.FontWeight.W_600,
                    key="buyer"),
            ft.Text(self.ctx.tn("panel.mass.coins", p.coins, coins=p.coins, cost=cost,
                                room=room), size=16),
        ]
        for gen in sorted({m.gen for m in in_bag}):
            have = sum(1 for m in in_bag if m.gen == gen)
            label = t("panel.mass.buy_gen", gen=gen, count=have)
            lines.append(stepper(label, self.buy.get(gen, 0), self._buy_step(gen, -1),
                                 self._buy_step(gen, +1), key=f"buy-gen{gen}",
                                 minus_tip=t("panel.common.less", what=label),
                                 plus_tip=t("panel.common.more", what=label),
                                 minus_disabled=not self.buy.get(gen),
                                 plus_disabled=self.buy.get(gen, 0) >= have or chosen >= room))
        price = rules.buyout_price(chosen)
        lines.append(apply_button(self.ctx.tn("panel.mass.buy", price, count=chosen,
                                              coins=price),
                                  self._buy_out, disabled=chosen == 0, key="buy-out"))
        lines.append(apply_button(t("panel.mass.buy_none", player=name), self._buy_none,
                                  key="buy-none", filled=False))
        lines = self.form_controls(lines, self._buy_command(), "buy")
        return card(t("panel.mass.buyouts"), lines, identifier="mass-buyout")

    def _buy_step(self, gen: int, delta: int) -> Callable[[], None]:
        def run() -> None:
            self.buy[gen] = max(0, self.buy.get(gen, 0) + delta)
            self.refresh()
        return run

    def _buy_command(self) -> MassBuyOut | None:
        who = self.rules().mass_buyer()
        if who is None:
            return None
        in_bag = sorted(self.state.members_at("bag", who), key=lambda m: m.id)
        members = [m.id for gen, n in self.buy.items()
                   for m in [x for x in in_bag if x.gen == gen][:n]]
        return MassBuyOut(members=members)

    async def _buy_out(self) -> None:
        command = self._buy_command()
        if command is not None:
            await self.dispatch_form(command)  # a refusal shows in the form

    async def _buy_none(self) -> None:
        await self.dispatch(MassBuyOut(members=[]))

    # ---- advancement ----------------------------------------------------------------------
    def _advance_card(self) -> ft.Control:
        t = self.ctx.t
        st = self.state
        rules = self.rules()
        who = rules.mass_advancer()
        if who is None:
            return muted(t("panel.mass.bonus_next"), size=16)
        p, name = st.players[who], player_name(self.ctx, st, who)
        top = self._top_level()
        movable = sorted((m for m in st.members_in("church", who) if m.level < top),
                         key=lambda m: (m.level, m.gen, m.id))
        total = 0
        lines: list[ft.Control] = [
            ft.Text(t("panel.mass.advancer", player=name), size=20,
                    weight=ft.FontWeight.W_600, key="advancer"),
            ft.Text(t("panel.mass.grain", grain=p.grain), size=16)]
        for m in movable:
            target = max(self.targets.get(m.id, m.level), m.level)
            cost = rules.advance_cost(m.level, target)
            total += cost
            label = t("panel.mass.move", gen=m.gen, level=m.level)
            lines.append(stepper(label, target, self._target_step(m, -1),
                                 self._target_step(m, +1), key=f"advance-{m.id}",
                                 minus_tip=t("panel.common.less", what=label),
                                 plus_tip=t("panel.common.more", what=label),
                                 minus_disabled=target <= m.level,
                                 plus_disabled=target >= top,
                                 note=t("panel.mass.move_cost", grain=cost)))
        lines.append(ft.Text(t("panel.mass.total", total=total, grain=p.grain), size=18,
                             weight=ft.FontWeight.W_600, key="advance-total",
                             color=ft.Colors.ERROR if total > p.grain else None))
        lines.append(apply_button(t("panel.mass.advance", grain=total), self._advance,
                                  disabled=total == 0, key="advance"))
        lines.append(apply_button(t("panel.mass.no_advance", player=name), self._no_advance,
                                  key="no-advance", filled=False))
        lines = self.form_controls(lines, self._advance_command(), "advance")
        return card(t("panel.mass.advancement"), lines, identifier="mass-advance")

    def _top_level(self) -> int:
        """The church track's top level, from the component data."""
        return self.rules().church_levels()[-1]

    def _target_step(self, m: Member, delta: int) -> Callable[[], None]:
        def run() -> None:
            now = self.targets.get(m.id, m.level)
            self.targets[m.id] = min(self._top_level(), max(m.level, now + delta))
            self.refresh()
        return run

    def _advance_command(self) -> MassAdvance:
        moves = {mid: level for mid, level in self.targets.items()
                 if level > self.state.members[mid].level}
        return MassAdvance(moves=moves)

    async def _advance(self) -> None:
        await self.dispatch_form(self._advance_command())  # a refusal shows in the form

    async def _no_advance(self) -> None:
        await self.dispatch(MassAdvance(moves={}))
