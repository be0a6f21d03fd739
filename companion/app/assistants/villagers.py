"""Villagers screen: Round (draft/build limits, locked villagers), Market (the two market
phases), Players (money, villagers, coins on cards, food, builders), Final."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.assistants.final import final_section
from companion.app.assistants.play import TallyScreen
from companion.app.assistants.players import FieldRow, field_rows, player_chips
from companion.app.kit import (
    BODY_TEXT_SIZE,
    SMALL_TEXT,
    TOUCH_TARGET,
    Section,
    big_button,
    card,
    chips,
    count_stepper,
    heading,
    icon_button,
    number_field,
    parse_count,
)
from companion.app.routing import RouteParams
from companion.tally.api import SetField
from companion.villagers.tally import (
    MarketIn,
    PayMarket,
    SilverIn,
    Unlock,
    VillagersState,
    market_income,
    next_market,
)

if TYPE_CHECKING:
    from companion.app.context import AppContext

NOBODY = -1  # the unlock owner chip meaning "nobody has the unlocking villager"


@dataclass
class MarketDraft:
    """Typed text per field, so a wrong entry is shown, never lost."""

    gold: str = "0"
    coins: str = "0"
    silver: list[tuple[str, str]] = field(default_factory=list)  # (coins each, count)


class VillagersScreen(TallyScreen):
    title_key = "game.villagers"
    first_section = "round"

    def __init__(self, ctx: AppContext, params: RouteParams) -> None:
        super().__init__(ctx, params)
        self.player = 0  # Players section
        self.limit_player = 0
        self.unlock_player = 0
        self.unlock_owner = NOBODY
        self.market_player = 0
        self.market_drafts: dict[int, MarketDraft] = {}
        self.market_for: int | None = None  # the market the drafts were made for
        self.market_errors: dict[str, str] = {}
        self.market_preview = ft.Column(spacing=4,
                                        horizontal_alignment=ft.CrossAxisAlignment.STRETCH)

    @property
    def state(self) -> VillagersState:
        state: VillagersState = self.ctl.state
        return state

    def sections(self) -> list[Section]:
        t = self.ctx.t
        return [Section("round", t("games.section.round"), ft.Icons.TIMELAPSE),
                Section("market", t("games.section.market"), ft.Icons.STOREFRONT),
                Section("players", t("games.section.players"), ft.Icons.PEOPLE),
                Section("final", t("games.section.final"), ft.Icons.EMOJI_EVENTS)]

    def looks_early(self) -> bool:
        return next_market(self.state) is not None

    def status(self) -> str:
        which = next_market(self.state)
        if which is None:
            return self.ctx.t("games.vg.status_done")
        return self.ctx.t("games.vg.status", market=which)

    def render_section(self, key: str) -> list[ft.Control]:
        if key == "round":
            return self.round_section()
        if key == "market":
            return self.market_section()
        if key == "players":
            return self.players_section()
        return final_section(self, self.ctl.session.rules.tie_keys(self.state))

    def _pick(self, attribute: str, value: int) -> None:
        setattr(self, attribute, value)
        self.render()

    # ---- round: limits and locked villagers -----------------------------------------------
    def round_section(self) -> list[ft.Control]:
        t = self.ctx.t
        st = self.state
        player = self.limit_player
        row = st.players[player]
        locked = self.finished

        def nudge(name: str, value: int) -> None:
            self.edit(SetField(player=player, field=name, value=value))

        out: list[ft.Control] = [
            heading(t("games.vg.limits_heading")),
            player_chips(self, player, partial(self._pick, "limit_player"),
                         id_prefix="limit-player"),
            count_stepper(self.ctx, t("games.field.food"), row.food, partial(nudge, "food"),
                    disabled=locked, note=t("games.vg.food_note")),
            count_stepper(self.ctx, t("games.field.builders"), row.builders,
                    partial(nudge, "builders"), disabled=locked,
                    note=t("games.vg.builders_note")),
            ft.Semantics(identifier="limits", content=ft.Text(
                t("games.vg.limits", name=row.name, draft=row.draft_limit,
                  build=row.build_limit), size=BODY_TEXT_SIZE + 2, weight=ft.FontWeight.W_600)),
        ]
        others = [t("games.vg.limits_short", name=p.name, draft=p.draft_limit,
                    build=p.build_limit) for i, p in enumerate(st.players) if i != player]
        if others:
            out.append(ft.Text(" · ".join(others), size=SMALL_TEXT,
                               color=ft.Colors.ON_SURFACE_VARIANT))
        out += [
            heading(t("games.vg.unlock_heading")),
            ft.Text(t("games.vg.unlock_who"), size=SMALL_TEXT),
            chips(list(enumerate(self.names)), self.unlock_player,
                  partial(self._pick, "unlock_player"), id_prefix="unlock-player"),
            ft.Text(t("games.vg.unlock_owner"), size=SMALL_TEXT),
            chips([*enumerate(self.names), (NOBODY, t("games.vg.nobody"))], self.unlock_owner,
                  partial(self._pick, "unlock_owner"), id_prefix="unlock-owner"),
            ft.Text(self._unlock_words(), size=SMALL_TEXT),
            big_button(t("games.vg.unlock_record"), ft.Icons.LOCK_OPEN, self._unlock,
                       identifier="unlock-record", filled=False),
        ]
        return out

    def _unlock_words(self) -> str:
        t = self.ctx.t
        who, owner = self.names[self.unlock_player], self.unlock_owner
        if owner == self.unlock_player:
            return t("games.vg.unlock_own", name=who)
        if owner == NOBODY:
            return t("games.vg.unlock_bank", name=who)
        return t("games.vg.unlock_other", name=who, owner=self.names[owner])

    def _unlock(self) -> None:
        owner = None if self.unlock_owner == NOBODY else self.unlock_owner
        self.edit(Unlock(player=self.unlock_player, owner=owner))

    # ---- market ----------------------------------------------------------------------------
    def draft(self, player: int) -> MarketDraft:
        which = next_market(self.state)
        if which != self.market_for:  # a new market: coins on cards come from the tally
            self.market_for, self.market_drafts, self.market_errors = which, {}, {}
        if player not in self.market_drafts:
            coins = self.state.players[player].coins_on_cards
            self.market_drafts[player] = MarketDraft(coins=str(coins))
        return self.market_drafts[player]

    def market_inputs(self) -> list[MarketIn] | None:
        """Every player's draft as the rules' input, or None while a figure is not a
        whole number (those fields show why)."""
        rows = []
        for i in range(len(self.names)):
            d = self.draft(i)
            gold, coins = parse_count(d.gold), parse_count(d.coins)
            silver = [(parse_count(a), parse_count(b)) for a, b in d.silver]
            if gold is None or coins is None or any(a is None or b is None
                                                    for a, b in silver):
                return None
            rows.append(MarketIn(player=i, gold_icons=gold, coins_on_cards=coins,
                                 silver=[SilverIn(coins_each=a or 0, count=b or 0)
                                         for a, b in silver]))
        return rows

    def market_section(self) -> list[ft.Control]:
        t = self.ctx.t
        which = next_market(self.state)
        out: list[ft.Control] = []
        if which is None:
            out.append(heading(t("games.vg.markets_done")))
            return out + self.past_markets()
        player = self.market_player
        d = self.draft(player)
        out += [
            heading(t("games.vg.market_heading", market=which)),
            ft.Text(t("games.vg.market1_hint") if which == 1 else t("games.vg.market2_hint"),
                    size=SMALL_TEXT),
            player_chips(self, player, self._choose_market_player, id_prefix="market-player"),
            ft.Row([
                number_field(t("games.vg.gold"), d.gold,
                             partial(self._set_market, player, "gold"),
                             error=self.market_errors.get(f"{player}.gold")),
                number_field(t("games.vg.coins"), d.coins,
                             partial(self._set_market, player, "coins"),
                             error=self.market_errors.get(f"{player}.coins")),
            ], spacing=8),
        ]
        if which == 2:
            out.append(ft.Text(t("games.vg.silver_hint"), size=SMALL_TEXT))
            for k, (each, count) in enumerate(d.silver):
                out.append(ft.Row([
                    number_field(t("games.vg.silver_each"), each,
                                 partial(self._set_silver, player, k, 0),
                                 error=self.market_errors.get(f"{player}.silver{k}.0")),
                    ft.Text("×", size=BODY_TEXT_SIZE),
                    number_field(t("games.vg.silver_count"), count,
                                 partial(self._set_silver, player, k, 1),
                                 error=self.market_errors.get(f"{player}.silver{k}.1")),
                    icon_button(ft.Icons.DELETE_OUTLINE, t("games.vg.silver_remove", number=k + 1),
                                partial(self._remove_silver, player, k)),
                ], spacing=6, vertical_alignment=ft.CrossAxisAlignment.START))
            out.append(ft.TextButton(t("games.vg.silver_add"), icon=ft.Icons.ADD,
                                     height=TOUCH_TARGET,
                                     on_click=partial(self._add_silver, player)))
        self._refresh_market_preview(which)
        out.append(ft.Semantics(identifier="market-preview", content=self.market_preview))
        out.append(big_button(t("games.vg.pay_market", market=which), ft.Icons.PAYMENTS,
                              partial(self._pay_market, which), identifier="pay-market"))
        return out + self.past_markets()

    def _choose_market_player(self, player: int) -> None:
        self.market_player = player
        self.render()

    def _set_market(self, player: int, name: str, text: str, control: ft.TextField) -> None:
        setattr(self.draft(player), name, text)
        self._check_text(f"{player}.{name}", text, control)

    def _set_silver(self, player: int, index: int, part: int, text: str,
                    control: ft.TextField) -> None:
        rows = self.draft(player).silver
        each, count = rows[index]
        rows[index] = (text, count) if part == 0 else (each, text)
        self._check_text(f"{player}.silver{index}.{part}", text, control)

    def _check_text(self, key: str, text: str, control: ft.TextField) -> None:
        # Per keystroke: mark the field and refresh the preview; never rebuild the fields.
        if parse_count(text) is None:
            self.market_errors[key] = self.ctx.t("games.bad_number", field=control.label)
        else:
            self.market_errors.pop(key, None)
        control.error = self.market_errors.get(key)
        which = next_market(self.state)
        if which is not None:
            self._refresh_market_preview(which)

    def _add_silver(self, player: int) -> None:
        self.draft(player).silver.append(("0", "0"))
        self.render()

    def _remove_silver(self, player: int, index: int) -> None:
        self.draft(player).silver.pop(index)
        self.market_errors = {k: v for k, v in self.market_errors.items()
                              if not k.startswith(f"{player}.silver")}
        self.render()

    def _refresh_market_preview(self, which: int) -> None:
        t = self.ctx.t
        rows = self.market_inputs()
        if rows is None:
            self.market_preview.controls = [ft.Text(t("games.vg.fix_figures"),
                                                    color=ft.Colors.ERROR)]
            return
        lines: list[ft.Control] = [
            ft.Text(t("games.vg.income_line", name=self.names[line.player], gold=line.gold,
                      coins=line.coins, silver=line.silver, total=line.total),
                    size=SMALL_TEXT + 1)
            for line in market_income(which, rows, self.names)]
        self.market_preview.controls = [card(None, lines)]

    def _pay_market(self, which: int) -> None:
        rows = self.market_inputs()
        if rows is None:
            self.render()
            return
        self.edit(lambda: PayMarket(which=which, players=rows))

    def past_markets(self) -> list[ft.Control]:
        t = self.ctx.t
        return [ft.Text(t("games.vg.market_paid", market=record.which, scores=", ".join(
            f"{self.names[line.player]} +{line.total}" for line in record.lines)),
            size=SMALL_TEXT) for record in self.state.markets]

    # ---- players ---------------------------------------------------------------------------
    def players_section(self) -> list[ft.Control]:
        t = self.ctx.t
        row = self.state.players[self.player]
        out: list[ft.Control] = [player_chips(self, self.player, partial(self._pick, "player"))]
        values: dict[str, Any] = {name: getattr(row, name) for name in (
            "money", "villagers", "coins_on_cards", "food", "builders")}
        out += field_rows(self, self.player, [
            FieldRow("money", t("games.field.money"), t("games.vg.money_note")),
            FieldRow("villagers", t("games.field.villagers"), t("games.vg.villagers_note")),
            FieldRow("coins_on_cards", t("games.field.coins_on_cards")),
            FieldRow("food", t("games.field.food")),
            FieldRow("builders", t("games.field.builders")),
        ], values)
        return out
