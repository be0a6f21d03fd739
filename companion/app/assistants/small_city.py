"""Small City screen: Round (phase tracker and helpers: small_city_round.SmallCityRound, the
base of this screen), Players, Promises, Final."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import flet as ft

from companion.app.assistants.final import final_section
from companion.app.assistants.players import FieldRow, field_rows, player_chips
from companion.app.assistants.small_city_round import (
    SmallCityRound,
    next_step_button,
    phase_name,
    round_section,
)
from companion.app.kit import (
    BODY_TEXT_SIZE,
    SMALL_TEXT,
    Section,
    big_button,
    card,
    chip,
    chips,
    pager,
)
from companion.app.paging import page_slice
from companion.app.routing import RouteParams
from companion.small_city.data import PROMISE_VALUES, ROUNDS, STARTING_MONEY
from companion.small_city.promises import Language, promise_deck
from companion.small_city.tally import (
    DropPromise,
    KeepPromise,
    PromiseResult,
    kept,
)

if TYPE_CHECKING:
    from companion.app.context import AppContext

PROMISES_PER_PAGE = 8
PROMISE_LANGUAGE: dict[str, Language] = {"en": "en", "zh_Hant": "zh-Hant", "ko": "ko",
                                         "de": "de"}


class SmallCityScreen(SmallCityRound):
    title_key = "game.small_city"
    first_section = "round"

    def __init__(self, ctx: AppContext, params: RouteParams) -> None:
        super().__init__(ctx, params)
        self.player = 0  # Players section
        self.promise_page = 0
        self.keeping: int | None = None  # promise card being assigned
        self.keep_player = 0
        self.keep_value = PROMISE_VALUES[0]

    def sections(self) -> list[Section]:
        t = self.ctx.t
        return [Section("round", t("games.section.round"), ft.Icons.TIMELAPSE),
                Section("players", t("games.section.players"), ft.Icons.PEOPLE),
                Section("promises", t("games.section.promises"), ft.Icons.HANDSHAKE),
                Section("final", t("games.section.final"), ft.Icons.EMOJI_EVENTS)]

    def looks_early(self) -> bool:
        return self.state.round < ROUNDS

    def status(self) -> str:
        st = self.state
        return self.ctx.t("games.sc.status", round=st.round, rounds=ROUNDS, phase=st.phase,
                          name=phase_name(self, st.phase))

    def footer(self) -> ft.Control | None:
        return next_step_button(self) if self.section == "round" else None

    def render_section(self, key: str) -> list[ft.Control]:
        if key == "round":
            return round_section(self)
        if key == "players":
            return self.players_section()
        if key == "promises":
            return self.promises_section()
        return self.final_view()

    # ---- players -----------------------------------------------------------------------
    def players_section(self) -> list[ft.Control]:
        t = self.ctx.t
        row = self.state.players[self.player]

        def choose(i: int) -> None:
            self.player = i
            self.render()

        out: list[ft.Control] = [player_chips(self, self.player, choose)]
        note = t("games.sc.seat", seat=row.seat, money=STARTING_MONEY[row.seat])
        out.append(ft.Text(note, size=SMALL_TEXT, color=ft.Colors.ON_SURFACE_VARIANT))
        if row.out:
            out.append(ft.Text(t("games.sc.out", name=row.name), color=ft.Colors.ERROR))
        out += field_rows(self, self.player, [
            FieldRow("money", t("games.field.money")),
            FieldRow("votes", t("games.field.votes")),
            FieldRow("pollution", t("games.field.pollution"), t("games.sc.pollution_note")),
        ], {"money": row.money, "votes": row.votes, "pollution": row.pollution})
        return out

    # ---- promises ----------------------------------------------------------------------
    def promises_section(self) -> list[ft.Control]:
        t = self.ctx.t
        language = PROMISE_LANGUAGE.get(self.ctx.language, "en")
        cards = promise_deck().cards
        state = page_slice(cards, self.promise_page, PROMISES_PER_PAGE)
        self.promise_page = state.index
        out: list[ft.Control] = [ft.Text(t("games.sc.promises_hint"), size=SMALL_TEXT)]
        for promise in state.items:
            out.append(self._promise_card(promise.number, promise.pile,
                                          promise.text_in(language)))
        out.append(pager(state, t("pager.status", page=state.index + 1, pages=state.count),
                         t("pager.previous"), t("pager.next"),
                         on_previous=partial(self._turn_promises, -1),
                         on_next=partial(self._turn_promises, +1)))
        return out

    def _turn_promises(self, step: int) -> None:
        self.promise_page += step
        self.keeping = None
        self.render()

    def _promise_card(self, number: int, pile: str, text: str) -> ft.Control:
        t = self.ctx.t
        holder = kept(self.state, number)
        pile_label = t("games.sc.pile_normal") if pile == "normal" else t(
            "games.sc.pile_special")
        lines: list[ft.Control] = [
            ft.Text(f"#{number} · {pile_label}", size=SMALL_TEXT,
                    color=ft.Colors.ON_SURFACE_VARIANT),
            ft.Text(text, size=BODY_TEXT_SIZE)]
        locked = self.finished
        if holder is not None:
            lines.append(ft.Text(t("games.sc.kept_by", name=self.names[holder.player],
                                   value=holder.value), weight=ft.FontWeight.W_600))
            lines.append(self._result_chips(number, holder.fulfilled))
            lines.append(ft.TextButton(t("games.sc.drop_promise"), icon=ft.Icons.DELETE_OUTLINE,
                                       height=48, disabled=locked,
                                       on_click=lambda: self.edit(DropPromise(card=number))))
        elif self.keeping == number:
            lines += [
                ft.Text(t("games.sc.keep_who"), size=SMALL_TEXT),
                chips(list(enumerate(self.names)), self.keep_player, self._keep_player,
                      id_prefix="keep-player"),
                ft.Text(t("games.sc.keep_value"), size=SMALL_TEXT),
                chips([(v, str(v)) for v in PROMISE_VALUES], self.keep_value,
                      self._keep_value, id_prefix="keep-value"),
                big_button(t("games.sc.keep_confirm", number=number,
                             name=self.names[self.keep_player]), ft.Icons.CHECK,
                           partial(self._keep, number), identifier=f"keep-{number}"),
            ]
        else:
            lines.append(ft.TextButton(t("games.sc.keep"), icon=ft.Icons.BOOKMARK_ADD_OUTLINED,
                                       height=48, disabled=locked,
                                       on_click=partial(self._start_keep, number)))
        return card(None, lines, identifier=f"promise-{number}")

    def _result_chips(self, number: int, fulfilled: bool | None) -> ft.Row:
        t = self.ctx.t

        def result(value: bool) -> None:
            self.edit(PromiseResult(card=number,
                                    fulfilled=None if fulfilled is value else value))

        return ft.Row([
            chip(t("games.sc.fulfilled"), fulfilled is True, partial(result, True),
                 disabled=self.finished, identifier=f"fulfilled-{number}"),
            chip(t("games.sc.failed"), fulfilled is False, partial(result, False),
                 disabled=self.finished, identifier=f"failed-{number}"),
        ], wrap=True, spacing=8)

    def _start_keep(self, number: int) -> None:
        self.keeping = number
        self.render()

    def _keep_player(self, player: int) -> None:
        self.keep_player = player
        self.render()

    def _keep_value(self, value: int) -> None:
        self.keep_value = value
        self.render()

    def _keep(self, number: int) -> None:
        def done() -> None:
            self.keeping = None

        self.edit(KeepPromise(player=self.keep_player, card=number, value=self.keep_value),
                  then=done)

    # ---- final -------------------------------------------------------------------------
    def final_view(self) -> list[ft.Control]:
        """The sheet; the kept promises' fulfilled/failed switches come first while one is
        still open (the sheet needs them), after the sheet once all are decided."""
        t = self.ctx.t
        decisions: list[ft.Control] = []
        promises = sorted(self.state.promises, key=lambda k: (k.player, k.card))
        if promises:
            decisions.append(ft.Text(t("games.sc.promises_at_end"), size=BODY_TEXT_SIZE,
                                     weight=ft.FontWeight.W_600))
        for holder in promises:
            decisions.append(ft.Text(t("games.sc.kept_line", name=self.names[holder.player],
                                       number=holder.card, value=holder.value),
                                     size=SMALL_TEXT))
            decisions.append(self._result_chips(holder.card, holder.fulfilled))
        sheet = final_section(self, self.ctl.session.rules.tie_keys(self.state))
        if any(k.fulfilled is None for k in promises):
            return decisions + sheet
        return sheet + decisions
