"""`/play/village/:session_id/player/:index` — one player's farmyard: time ring, counters,
family by place, and the action forms (enabled only on that player's own action step)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import flet as ft

from companion.app.kit import (
    TOUCH_TARGET,
    apply_button,
    body,
    card,
    choice_chips,
    muted,
    notice_card,
)
from companion.app.routing import RouteParams
from companion.app.village.change_words import changes_card
from companion.app.village.controller import last_action
from companion.app.village.dialogs.common import refusal_message
from companion.app.village.forms.base import ActionForm, FormEnv
from companion.app.village.forms.council import CouncilForm
from companion.app.village.forms.crafts import CraftsForm
from companion.app.village.forms.simple import ChurchForm, FamilyForm, HarvestForm
from companion.app.village.forms.travel import TravelForm
from companion.app.village.panel.base import PanelScreen
from companion.app.village.panel.members import group_members
from companion.app.village.panel.player_sections import (
    CustomerEdits,
    MoveDraft,
    cities_card,
    counters_card,
    customers_card,
    family_card,
    move_card,
    time_card,
)
from companion.app.village.panel.turn import action_block, block_text, turn_line
from companion.app.village.present import term
from companion.app.village.table.paths import panel_route
from companion.app.village.table.words import player_name
from companion.village.commands import (
    AddCustomerTile,
    Adjust,
    Command,
    EndTurn,
    MoveMember,
    NextStartMarkerCoin,
    RemoveCustomerTile,
    SetCustomerPoints,
    SpendTime,
    TakeBackTime,
    as_paid,
)
from companion.village.read import Reader

if TYPE_CHECKING:
    from companion.app.context import AppContext

TABS = ("overview", "family", "actions")
TAB_KEYS = {"overview": "panel.player.tab_overview", "family": "panel.player.tab_family",
            "actions": "panel.player.tab_actions"}


class PlayerScreen(PanelScreen):
    identifier = "player-panel"

    def __init__(self, ctx: AppContext, params: RouteParams) -> None:
        super().__init__(ctx, params)
        raw = params.get("index", "0")
        self.index = int(raw) if raw.isdigit() else -1
        self.forms: dict[str, ActionForm] = {
            f.action: f for f in (HarvestForm(), FamilyForm(), CraftsForm(), CouncilForm(),
                                  TravelForm(), ChurchForm())}
        # ".../player/<i>/<action>" (the table's "do the action" shortcut) opens that
        # action's form; ".../player/<i>/actions" the actions tab on this turn's form.
        routed = params.get("action")
        self.tab = "actions" if routed is not None else "overview"
        # the form the user (or the route) picked, for this turn only
        self.action: str | None = routed if routed in self.forms else None
        self.move = MoveDraft()  # the member correction being chosen
        self._turn: tuple[int, int] | None = None
        # A payment that is not the printed cost, waiting for "That's what we paid":
        # (action, command, the engine's words, end the turn after it).
        self.pay_question: tuple[str, Command, str, bool] | None = None

    reconciles = True  # its controls come from the state and drafts only

    def title(self) -> str:
        """Whose board this is ("Cy's board"), once the game is read."""
        if self.controller is None or not 0 <= self.index < len(self.state.players):
            return self.ctx.t("panel.player.title")
        return self.ctx.t("panel.player.title_of",
                          player=player_name(self.ctx, self.state, self.index))

    # ---- rendering ------------------------------------------------------------------------
    def body_controls(self) -> list[ft.Control]:
        t = self.ctx.t
        st = self.state
        if not 0 <= self.index < len(st.players):
            return [body(t("panel.player.no_such", index=self.params.get("index", "")))]
        p = st.players[self.index]
        out: list[ft.Control] = [self._switcher(), muted(turn_line(self.ctx, st), size=16)]
        if p.kind == "karla":
            return [*out, muted(t("panel.player.karla"), size=16),
                    family_card(self.ctx, st, self.index), self._move_card()]
        out.append(self._tabs())
        if self.tab == "overview":
            reader = Reader(st, self.comp)
            if reader.marker_coin_offered():
                out.append(notice_card(t("panel.marker.coin_hint"), ft.Icons.PAID,
                                       t("panel.marker.coin_button"), self._marker_coin,
                                       identifier="marker-coin"))
            out += [time_card(self.ctx, p, reader.time_marker(self.index), self._spend,
                              self._take_back),
                    counters_card(self.ctx, p, self.comp, self._adjust),
                    cities_card(self.ctx, p, self.comp, self._toggle_city),
                    customers_card(self.ctx, p, self._customer_edits())]
        elif self.tab == "family":
            out += [family_card(self.ctx, st, self.index), self._move_card()]
        else:
            out += self._actions()
        return out

    def _switcher(self) -> ft.Control:
        st = self.state
        options = [(str(i), player_name(self.ctx, st, i)) for i in range(len(st.players))]
        return choice_chips(options, str(self.index), self._go_player, key="player")

    def _go_player(self, index: str) -> None:
        if index != str(self.index):
            self.ctx.go(panel_route(self.session_id, f"player/{index}"))
        else:
            self.refresh()  # tapping the shown player keeps their chip selected

    def _tabs(self) -> ft.Control:
        buttons: list[ft.Control] = []
        for tab in TABS:
            label = self.ctx.t(TAB_KEYS[tab])
            kind = ft.FilledTonalButton if tab == self.tab else ft.TextButton
            # Narrow padding: three tabs share a 360 px phone without wrapping a label.
            buttons.append(kind(label, on_click=self._tab_setter(tab), key=f"tab-{tab}",
                                height=TOUCH_TARGET, expand=True,
                                style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=4))))
        return ft.Row(buttons, spacing=4)

    def _tab_setter(self, tab: str) -> Callable[[], None]:
        def run() -> None:
            self.tab = tab
            self.refresh()
        return run

    # ---- actions tab ----------------------------------------------------------------------
    def _default_action(self) -> str:
        st = self.state
        if st.current == self.index and st.space_taken in self.forms:
            return st.space_taken
        return self.action or "harvest"

    def _actions(self) -> list[ft.Control]:
        t = self.ctx.t
        st = self.state
        turn = (st.round, st.turns_taken)
        if turn != self._turn:  # a new turn starts on the form its cube allows
            if self._turn is not None:  # (the first render keeps the route's form)
                self.action = None
            self._turn = turn
        action = self.action or self._default_action()
        block = action_block(st, self.comp, self.index, action)
        options = [(a, term(self.ctx, "space", a)) for a in self.forms]
        out: list[ft.Control] = []
        done = self._done_card(term(self.ctx, "space", action))
        if done is not None:  # what the action changed, and the end of the turn, on top
            out.append(done)
        out.append(choice_chips(options, action, self._pick_action, key="action"))
        if block is not None and done is None:
            out.append(self._blocked(block))
        form = self.forms[action]
        env = FormEnv(self.ctx, st, self.comp, self.index, block is None, self.refresh)
        command = form.command(env)
        ready = command is not None
        controls = form.controls(env)
        controls = self.form_controls(controls, command, action)  # a refusal: in words
        name = term(self.ctx, "space", action)
        if self.pay_question is not None and self.pay_question[0] == action:
            # Right above Apply, where the eye is: the printed cost and the way to keep
            # the payment as entered (the engine logs it as an override).
            controls.append(notice_card(
                t("panel.pay.differs_title") + "\n" + self.pay_question[2], ft.Icons.PAYMENTS,
                t("panel.pay.as_paid"), self._apply_as_paid, identifier="pay-differs"))
        own_turn = block is None and st.current == self.index and st.phase == "turns"
        if own_turn:  # the usual turn: the action and the end of the turn in one tap
            controls.append(apply_button(t("forms.apply_and_end", action=name),
                                         self._apply_and_end, disabled=not ready,
                                         key="apply-and-end"))
        controls.append(apply_button(t("panel.form.apply", action=name), self._apply,
                                     disabled=block is not None or not ready,
                                     key="apply-action", filled=not own_turn))
        if block is None and not ready:
            controls.append(muted(t("panel.form.incomplete")))
        out.append(card(name, controls, identifier="action-form"))
        notes = self.notes_card()
        if notes is not None:
            out.append(notes)
        return out

    def _turn_done(self) -> bool:
        """This player's action of this turn is done: the end of the turn is next."""
        st = self.state
        return (st.current == self.index and st.phase == "turns" and st.action_done
                and st.market_day is None and not st.pending)

    def _done_card(self, name: str) -> ft.Control | None:
        """What the last action changed (the engine's comparison), with the end of the
        turn: shown once this player's action is done and nothing came after it."""
        assert self.controller is not None
        summary = last_action(self.controller.session)
        if (not self._turn_done() or summary is None or summary.player != self.index
                or summary.turn_over):
            return None
        t = self.ctx.t
        return changes_card(self.ctx, self.state, self.comp, summary.changes,
                            title=t("village.changes.action_title", action=name),
                            identifier="action-changes",
                            action=(t("village.table.end_turn"), self._end_turn),
                            key="changes-end-turn")

    def _blocked(self, block: str) -> ft.Control:
        """Why the forms are off; a market day or a mass has its own panel to go to; once
        this turn's action is done, the end of the turn is one tap away."""
        t = self.ctx.t
        st = self.state
        text = block_text(self.ctx, st, block)
        if self._turn_done():
            return notice_card(text, ft.Icons.CHECK_CIRCLE_OUTLINE, t("village.table.end_turn"),
                               self._end_turn, identifier="action-blocked")
        panel = ("market" if st.market_day is not None
                 else "mass" if st.phase in ("mass_buyout", "mass_advance") else None)
        if panel is None:
            return notice_card(text, ft.Icons.INFO_OUTLINE, identifier="action-blocked")
        label = t("panel.actions.open_market" if panel == "market" else "panel.actions.open_mass")
        return notice_card(text, ft.Icons.INFO_OUTLINE, label,
                           lambda: self.ctx.go(panel_route(self.session_id, panel)),
                           identifier="action-blocked")

    def _pick_action(self, action: str) -> None:
        self.action = action
        self.refresh()

    async def _apply(self) -> bool:
        """Apply (a button handler: Flet may pass it an event, so no parameters here)."""
        return await self._apply_action(and_end=False)

    async def _apply_action(self, *, and_end: bool) -> bool:
        action = self.action or self._default_action()
        form = self.forms[action]
        env = FormEnv(self.ctx, self.state, self.comp, self.index, True, self.refresh)
        command = form.command(env)
        self.pay_question = None
        if command is None:
            return False
        differs = self.rules().payment_refusal(command)
        if differs is not None:  # ask beside Apply instead of refusing in a message
            self.pay_question = (action, command, refusal_message(self.ctx, differs), and_end)
            self.refresh()
            return False
        return await self._send(form, command, and_end)

    async def _send(self, form: ActionForm, command: Command, and_end: bool) -> bool:
        if await self.dispatch_form(command):  # a refusal shows beside what it names
            form.reset()
            self.refresh()
            if not and_end:  # what the action changed is said at the top
                self.scroll_to_top()
            return True
        return False

    async def _apply_as_paid(self) -> None:
        """"That's what we paid": the same command, its payment marked as confirmed."""
        if self.pay_question is None:
            return
        action, command, _, and_end = self.pay_question
        self.pay_question = None
        if await self._send(self.forms[action], as_paid(command), and_end) and and_end:
            await self._end_and_leave()

    async def _apply_and_end(self) -> None:
        """The action, then the end of the turn, then the table (the next player's turn,
        or a choice the action left for the table to answer first)."""
        if not await self._apply_action(and_end=True):
            return  # refused: the form keeps what was chosen, the toast says why
        await self._end_and_leave()

    async def _end_and_leave(self) -> None:
        if not self.state.pending:
            await self.dispatch(EndTurn())
        self.to_table()

    async def _end_turn(self) -> None:
        if await self.dispatch(EndTurn()):
            self.to_table()

    # ---- corrections (always available) --------------------------------------------------
    def _spend(self, amount: int) -> Callable[[], Awaitable[object]]:
        async def run() -> None:
            await self.dispatch(SpendTime(player=self.index, amount=amount))
        return run

    async def _take_back(self) -> None:
        await self.dispatch(TakeBackTime(player=self.index, amount=1))

    async def _marker_coin(self) -> None:
        await self.dispatch(NextStartMarkerCoin())

    def _customer_edits(self) -> CustomerEdits:
        def points(index: int, value: int) -> Callable[[], Awaitable[object]]:
            async def run() -> None:
                await self.dispatch(SetCustomerPoints(player=self.index, index=index,
                                                      points=value))
            return run

        def remove(index: int) -> Callable[[], Awaitable[object]]:
            async def run() -> None:
                await self.dispatch(RemoveCustomerTile(player=self.index, index=index))
            return run

        async def add() -> None:
            await self.dispatch(AddCustomerTile(player=self.index, points=0))

        refused = self.rules().customer_tile_refusal(self.index)
        return CustomerEdits(points=points, remove=remove, add=add,
                             add_refusal=refused.message if refused is not None else None)

    def _move_card(self) -> ft.Control:
        return move_card(self.ctx, self.state, self.comp, self.index, self.move,
                         self._pick_move_group, self._pick_move_to, self._move)

    def _pick_move_group(self, group: str) -> None:
        self.move = MoveDraft(group=group)
        self.refresh()

    def _pick_move_to(self, loc: str) -> None:
        self.move.to = loc
        self.refresh()

    async def _move(self) -> None:
        group, to = self.move.group, self.move.to
        if group is None or to is None:
            return
        groups = {g.key: g for g in group_members(self.state.members_of(self.index))}
        if group in groups and await self.dispatch(
                MoveMember(member=groups[group].first, to=to)):
            self.move = MoveDraft()
            self.refresh()

    async def _adjust(self, field: str, key: str | None, delta: int) -> None:
        await self.dispatch(Adjust(player=self.index, field=field, key=key, delta=delta))

    async def _toggle_city(self, city: str) -> None:
        visited = int(city) in self.state.players[self.index].cities
        await self._adjust("cities", city, -1 if visited else +1)
        self.refresh()  # a refused toggle must not leave the chip flipped on the client
