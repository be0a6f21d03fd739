"""The table: whose turn, the action spaces with their cubes, what to do now, and the
choices the game waits for. Every tap becomes one engine command via the controller."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from functools import partial
from typing import Any, Literal

import flet as ft

from companion.app.kit import (
    BODY_TEXT_SIZE,
    TOUCH_TARGET,
    back_button,
    body,
    heading,
    icon_button,
    text_width,
)
from companion.app.kit.changed_parts import update_changed
from companion.app.routing import HOME_ROUTE
from companion.app.table_mode.acting import controls_locked
from companion.app.table_mode.paths import share_route
from companion.app.table_mode.table_actions import share_hint, table_mode_actions
from companion.app.table_mode.turn_notice import SeatStrip, is_phone
from companion.app.village.change_words import changes_card
from companion.app.village.dialogs.common import DialogSlot
from companion.app.village.dialogs.pending import PendingDialogs, pending_summary
from companion.app.village.dialogs.turn import TurnDialogs
from companion.app.village.present import note_texts
from companion.app.village.table.base import SessionScreen
from companion.app.village.table.instructions import (
    instructions_card,
)
from companion.app.village.table.karla_board import KarlaBoard
from companion.app.village.table.live import (
    PlayerTile,
    Slot,
    SpacesPanel,
    TurnButtons,
    TurnHeader,
    set_controls,
)
from companion.app.village.table.paths import (
    game_rules_route,
    log_route,
    panel_route,
    player_route,
    table_route,
)
from companion.app.village.table.sections import (
    banner,
    panel_links,
)
from companion.app.village.table.view_model import table_view
from companion.app.village.table.words import player_name
from companion.village.commands import EndTurn, FreeAction, TakeCube
from companion.village.state import VillageState

logger = logging.getLogger(__name__)
SCROLL_WAIT_S = 2.0  # a phone that went away never answers a scroll

# Notes said at once as a message when a cube is taken: effects the tap itself had
# (a plague cube costs time; the time marker may pass the quill).
SAID_ON_TAKE = frozenset({"plague_taken", "quill_passed", "quill_passed_n"})
# Notes of Karla's own move after the player's turn (her take, why, her fate tile, her
# market day), said as a message when the turn ends.
SAID_FOR_KARLA = ("karla_takes", "karla_why", "karla_no_cube", "karla_market",
                  "karla_fate")
TABLE_CACHE_EXTENT = 3000  # px beyond the screen kept built: the whole table
WIDE_LAYOUT = 900  # px: from this window width, the table beside the players
TABLE_PANE_PARTS = 9  # the parts in the table's pane (the rest are the players')
BannerSpec = tuple[str, str, list[tuple[str, Callable[[], object]]], str]
TITLE_SIZE = 22  # Material's app bar title
TITLE_MIN_SIZE = 14
APP_BAR_LEADING = 56  # px the back arrow's slot takes
APP_BAR_GAPS = 32  # px of padding around the title
PART_GAP = 14  # px under each part of the table


def title_size(title: str, width: float, actions: int, leading: bool) -> int:
    """The app bar title's font size that fits `title` beside the bar's buttons at this
    window `width` (at 360 px a phone's bar holds four 48 px buttons): Material's 22 where
    it fits, smaller where it would be cut ("Round…")."""
    room = width - (APP_BAR_LEADING if leading else 0) - actions * TOUCH_TARGET - APP_BAR_GAPS
    wide = text_width(title, TITLE_SIZE)
    if wide <= room:
        return TITLE_SIZE
    return max(TITLE_MIN_SIZE, int(TITLE_SIZE * room / max(wide, 1)))


class TableScreen(SessionScreen):
    round_end = "opens"  # a round that ends here opens its screen (round_end_follow.py)
    shows_seat_state = True  # a phone's seat line is the table's first part
    round_end_waits = False  # the round end opens once an answered dialog has closed

    def build(self) -> ft.View:
        t = self.ctx.t
        self.slot = DialogSlot(self.ctx.page, self.ctx.dialogs)
        self.pending: PendingDialogs | None = None
        self.turn_dialogs: TurnDialogs | None = None
        self.karla: KarlaBoard | None = None
        self.karla_control: ft.Control | None = None
        self.title = ft.Text(t("game.village"), max_lines=1, tooltip=t("game.village"))
        # A phone's table is its first screen: nothing to go back to, so no back arrow
        # (one that did nothing was there before), and the title gets the room.
        self.phone = is_phone(self.ctx)
        self.seat_strip = SeatStrip(self.ctx) if self.phone else None
        # A list, not a scrolling column: each part gets its own repaint boundary (a tap
        # that changes one part redraws only that part). The cache extent keeps every
        # part of the table built (and in the screen reader's tree) as a column did.
        self.body = self._pane([body(t("common.loading"), muted=True)])
        self.side: ft.ListView | None = None  # the players' pane, in the wide layout
        self.wide = False  # laid out in two panes (set on the first render)
        log_button = icon_button(ft.Icons.HISTORY, t("village.log.title"),
                                 lambda: self.ctx.go(log_route(self.session_id)))
        self.actions: list[ft.Control] = [
            *self.history_buttons(), ft.Semantics(identifier="open-log", content=log_button),
            *table_mode_actions(self.ctx, self.session_id)]
        self.view = ft.View(
            route=table_route(self.session_id),
            appbar=ft.AppBar(
                leading=None if self.phone else back_button(
                    t("common.back"), lambda: self.ctx.go(HOME_ROUTE)),
                automatically_imply_leading=False,
                title=self.title,
                actions=self.actions,
            ),
            padding=0,
            controls=[self.body],
        )
        return self.view

    def update_page(self) -> None:
        """Send this view's changes as one message: not the screens under it (Home).
        The parts changed in place, so the message holds only what changed (one message,
        not one per part: the phone applies it in one go). Dialogs and messages update
        themselves when shown."""
        if self.round_end_waits and self.ctx.dialogs.settling:
            # The round end opens once the answered dialog is closed on the phone; the
            # table's new state goes out with it (the new round is never seen, and tapped,
            # before the round end covers it): the navigation's page update sends it.
            return
        view = getattr(self, "view", None)
        if view is None or view not in self.ctx.page.views:
            super().update_page()
            return
        try:
            update_changed(view)  # only the parts that changed are diffed (issue 23)
        except Exception as exc:  # the client went away meanwhile
            logger.info("view update skipped: %s", exc)

    def will_disappear(self) -> None:
        super().will_disappear()
        self.round_end_waits = False
        self.slot.close()

    def show_failure(self, message: str) -> None:
        self.body.controls = self.failure_controls(message)
        if self.side is not None:
            self.side.controls = []

    # ---- layout: one column on phones, two panes from WIDE_LAYOUT px ---------------------------
    @staticmethod
    def _pane(controls: list[ft.Control] | None = None) -> ft.ListView:
        return ft.ListView(controls or [], expand=True, cache_extent=TABLE_CACHE_EXTENT,
                           padding=ft.Padding.symmetric(horizontal=12, vertical=10))

    def wants_wide(self) -> bool:
        return float(self.ctx.page.width or 0) >= WIDE_LAYOUT

    def _lay_out(self, wide: bool) -> None:
        """One list (phones), or the table's list beside the players' list. A change of
        layout builds the parts again (a control lives in one place: moving the parts
        between lists would send them twice); it happens only when the window crosses
        WIDE_LAYOUT, never on a tap."""
        self.wide = wide
        self.body = self._pane()
        if wide:
            self.side = self._pane()
            content: ft.Control = ft.Row(
                [ft.Container(ft.Semantics(identifier="table-pane", content=self.body),
                              expand=3),
                 ft.VerticalDivider(width=1),
                 ft.Container(ft.Semantics(identifier="players-pane", content=self.side),
                              expand=2)],
                expand=True, spacing=0, vertical_alignment=ft.CrossAxisAlignment.STRETCH)
        else:
            self.side = None
            content = self.body
        self.view.controls = [content]
        self.parts_built = False
        self.karla = self.karla_control = None
        self._read_only_slot = Slot()

    def did_resize(self) -> None:
        if (self.controller is not None and getattr(self, "parts_built", False)
                and self.wants_wide() != self.wide):
            self._rerender()

    # ---- rendering ----------------------------------------------------------------------------
    # The parts are built once (on the first render) and then changed in place: a tap
    # sends only what changed. Whose turn, what they may do and the action spaces come
    # first (within a phone's first screen at every moment); the instructions for the
    # physical table follow as one card, collapsed until tapped.
    def _build_parts(self) -> None:
        t = self.ctx.t
        self.header = TurnHeader()
        self.spaces = SpacesPanel(self.ctx, self._take)
        self.buttons = TurnButtons(self.ctx, on_well=self._open_well, on_free=self._free,
                                   on_end=self._end_turn, on_panel=self._open_current_panel)
        # The same buttons under the turn's instruction once the cube is taken: the next
        # tap ("Do the action", End turn) is then in view on a phone, whatever banners
        # are above and however many spaces below. Its own controls, never the ones
        # below moved: a control moved to another parent is unmounted by Flet's diff.
        self.top_buttons = TurnButtons(self.ctx, on_well=self._open_well, on_free=self._free,
                                       on_end=self._end_turn,
                                       on_panel=self._open_current_panel)
        self.spaces_heading = ft.Row(
            [heading(t("village.table.spaces")),
             ft.TextButton(t("village.bag.button"), icon=ft.Icons.SHOPPING_BAG,
                           on_click=self._open_bag, height=TOUCH_TARGET)],
            alignment=ft.MainAxisAlignment.SPACE_BETWEEN)
        self.players_heading = heading(t("village.table.players"))
        self.players = ft.Column(spacing=8)
        self.player_tiles: list[PlayerTile] = []
        self.links = panel_links(self.ctx, [
            (t("village.table.market"), ft.Icons.STOREFRONT, partial(self._panel, "market")),
            (t("village.table.mass"), ft.Icons.CHURCH, partial(self._panel, "mass")),
            (t("village.table.chronicle"), ft.Icons.MENU_BOOK,
             partial(self._panel, "chronicle")),
            (t("village.table.score"), ft.Icons.SCOREBOARD, partial(self._panel, "score")),
        ])
        self.banner_slot = Slot()
        self.last_turn_slot = Slot()
        self.turn_key: tuple[Any, ...] | None = None
        self.instructions_slot = Slot()
        self.options_slot = Slot()
        self.instructions_open = False
        self.holders: list[ft.Container] = []
        self.parts_built = True

    def render(self) -> None:
        controller = self.controller
        assert controller is not None
        if self.pending is None:
            self.pending = PendingDialogs(self.ctx, controller, self.slot, self.undo,
                                          on_hidden=self._rerender)
            self.turn_dialogs = TurnDialogs(self.ctx, controller, self.slot)
        wide = self.wants_wide()
        if wide != self.wide:
            self._lay_out(wide)
        if not getattr(self, "parts_built", False):
            self._build_parts()
        session, state = controller.session, controller.state
        # What follows from the game alone, worked out once per change and language for
        # every client showing it (view_model); the controls below are this client's.
        view = self.view_model = table_view(self.ctx, session)
        title = view.title
        if self.title.value != title:
            self.title.value = title
            self.title.tooltip = title
            self.title.semantics_label = title
        size = title_size(title, float(self.ctx.page.width or 360), len(self.actions),
                          not self.phone)
        if self.title.size != size:
            self.title.size = size
        options = controller.turn_options()  # what the engine accepts now
        locked = controls_locked(self.ctx)  # a watching phone: no game control is active
        self.spaces.control.disabled = locked
        self.buttons.control.disabled = locked
        self.top_buttons.control.disabled = locked
        self.header.update(view.header)
        # A turn ended (here or on a panel): back to the top, whose turn is next and the
        # cubes. Read when a turn waits for its cube (or no turn is played): a cube taken
        # lower down the list leaves the list where it is.
        turn_key = (state.round, state.current, state.turns_taken, state.phase)
        if self.turn_key is None or state.stage == "take" or state.phase != "turns":
            if self.turn_key is not None and turn_key != self.turn_key:
                self.scroll_to_top()
            self.turn_key = turn_key
        self.spaces.update(state, options, locked)
        # A cube taken: the buttons come up under the instruction (see _build_parts).
        acting = state.phase == "turns" and state.stage == "act"
        (self.top_buttons if acting else self.buttons).update(state, options)
        kinds = [(p.kind, p.colour) for p in state.players]
        if kinds != [(tile.kind, tile.colour) for tile in self.player_tiles]:
            self.player_tiles = [PlayerTile(self.ctx, i, kind, colour, self._open_player)
                                 for i, (kind, colour) in enumerate(kinds)]
        for i, tile in enumerate(self.player_tiles):
            tile.update(view.players[i])
        set_controls(self.players, [tile.control for tile in self.player_tiles])
        if self.seat_strip is not None:
            self.seat_strip.update(state, session.comp)
        parts: list[ft.Control | None] = [
            self.seat_strip.control if self.seat_strip is not None else None,
            self.read_only_note_part(),
            self._banner_part(state),
            self.header.control,
            self.top_buttons.control,  # shown once the cube is taken, see below
            self._last_turn_part(),
            self.spaces_heading,
            self.spaces.control,
            self.buttons.control,
            self._instructions_part(),
            self._karla_board(),
            self.players_heading,
            self.players,
            self.links,
            self._options(),
        ]
        # The list keeps the same items for good (a changed list would rebuild all of
        # them on the phone): a part that comes, goes or is rebuilt changes its holder.
        # An empty holder has no content and no padding (drawn zero high), never
        # `visible=False`: the phone leaves a hidden control out of the list, so every
        # item after it would move to another index and be built again (on CanvasKit an
        # end turn's last-turn card made the frame twice a cube tap's).
        # The turn's buttons stay in their holders, one shown and one hidden, never put in
        # and taken out: a control put back in is sent whole again and the phone builds
        # it anew, on every tap of every phone (issue 23: a third of the diff's CPU). The
        # phone draws a holder with a hidden content as one without content.
        self.top_buttons.control.visible = acting
        self.buttons.control.visible = not acting
        while len(self.holders) < len(parts):
            self.holders.append(ft.Container())
        for holder, part in zip(self.holders, parts, strict=False):
            if holder.content is not part:
                holder.content = part
            shown = part is not None and part.visible is not False
            if (holder.padding is not None) != shown:
                holder.padding = ft.Padding.only(bottom=PART_GAP) if shown else None
        if self.side is None:
            set_controls(self.body, list(self.holders))
        else:  # the table on the left, the players (and Karla's board) on the right
            set_controls(self.body, list[ft.Control](self.holders[:TABLE_PANE_PARTS]))
            set_controls(self.side, list[ft.Control](self.holders[TABLE_PANE_PARTS:]))
        if locked:  # a watching phone is not asked the game's questions
            self.slot.close()
        else:
            self.pending.sync()

    def read_only_note_part(self) -> ft.Control | None:
        if not hasattr(self, "_read_only_slot"):
            self._read_only_slot = Slot()
        return self._read_only_slot.get(self.ctx.read_only, self.read_only_note)

    def _banner_part(self, state: VillageState) -> ft.Control | None:
        specs = self._banners(state)
        if controls_locked(self.ctx):  # a watching phone keeps only the ways to look
            looks = {self.ctx.t(key) for key in ("village.banner.open_market",
                                                 "village.banner.open_mass",
                                                 "village.banner.open_score")}
            specs = [(kind, text, [b for b in buttons if b[0] in looks], ident)
                     for kind, text, buttons, ident in specs]
        sig = tuple((kind, text, tuple(label for label, _ in buttons), ident)
                    for kind, text, buttons, ident in specs)
        return self.banner_slot.get(sig, lambda: ft.Column(
            [banner(kind, text, buttons, ident) for kind, text, buttons, ident in specs],
            spacing=14) if specs else None)

    def _last_turn_part(self) -> ft.Control | None:
        """What the turn that just ended changed (the engine's comparison) and, solo,
        Karla's take after it with her reasons: under the turn header, where the eye is
        when the table comes back (issue 20)."""
        assert self.controller is not None
        session = self.controller.session
        last = self.view_model.last_turn
        if last is None:
            return self.last_turn_slot.get(None, lambda: None)
        return self.last_turn_slot.get(last.sig, lambda: changes_card(
            self.ctx, session.state, session.comp, list(last.changes), title=last.title,
            identifier="last-turn", karla=list(last.karla), show_empty=last.show_empty))

    def scroll_to_top(self) -> None:
        """Bring whose turn it is and the cubes into view; the phone answers in its own
        time, nothing waits for it."""
        pane = self.body

        async def scroll() -> None:
            try:
                await asyncio.wait_for(pane.scroll_to(offset=0, duration=0), SCROLL_WAIT_S)
            except Exception as exc:  # the view went away meanwhile
                logger.info("scroll skipped: %s", exc)

        self.ctx.spawn(scroll())

    def _instructions_part(self) -> ft.Control | None:
        """The round's draw (kept until ticked done) and the last action's notes."""
        view = self.view_model
        draw, lines, done = view.draw, view.notes, view.done
        sig = (draw, lines, done, self.instructions_open, controls_locked(self.ctx))
        return self.instructions_slot.get(sig, lambda: instructions_card(
            self.ctx, draw=draw, notes=lines, done=done, expanded=self.instructions_open,
            on_toggle=self._toggle_instructions, on_done=self._mark_done,
            draw_buttons=self._draw_buttons()))

    def _draw_buttons(self) -> list[ft.Control]:
        """Ways to replace the round's draw (new each time: a control lives in one place)."""
        t = self.ctx.t
        if controls_locked(self.ctx):
            return []
        return [ft.OutlinedButton(t("village.draw.physical"), icon=ft.Icons.BACK_HAND,
                                  on_click=self._redraw_physical, height=TOUCH_TARGET),
                ft.OutlinedButton(t("village.draw.app_again"), icon=ft.Icons.CASINO,
                                  on_click=partial(self._redraw_app, "bag"),
                                  height=TOUCH_TARGET)]

    def _toggle_instructions(self) -> None:
        self.instructions_open = not self.instructions_open
        self._rerender()

    def _mark_done(self, instruction: str) -> None:
        """Saved with the game (off the loop); every client showing it re-renders."""
        if self.controller is not None:
            self.ctx.spawn(self.controller.toggle_mark(instruction))

    def _banners(self, state: VillageState) -> list[BannerSpec]:
        """The banners now: (kind, text, buttons, identifier)."""
        t = self.ctx.t
        out: list[BannerSpec] = []
        assert self.controller is not None and self.pending is not None
        waiting = self.pending.waiting()
        if waiting is not None and (self.pending.is_hidden() or controls_locked(self.ctx)):
            out.append(("info", pending_summary(self.ctx, self.controller, waiting),
                              [(t("village.pending.answer"), self._reopen)],
                              "banner-pending"))
        hint = share_hint(self.ctx, self.session_id)
        if hint is not None:
            out.append(("info", hint[0],
                        [(hint[1], lambda: self.ctx.go(share_route(self.session_id)))],
                        "banner-share"))
        if self.view_model.round_end is not None:
            end_round, final, left = self.view_model.round_end
            actions: list[tuple[str, Callable[[], object]]] = [
                (t("village.round_end.open"), self.open_round_end)]
            if self.view_model.bag_redraw and not controls_locked(self.ctx):
                actions += [(t("village.draw.physical"), self._redraw_physical),
                            (t("village.draw.app_again"), partial(self._redraw_app, "bag"))]
            out.append(("info", t("village.round_end.banner_final" if final
                                  else "village.round_end.banner", round=end_round,
                                  count=left), actions, "banner-round-end"))
        if state.market_day is not None:
            seller = player_name(self.ctx, state, state.market_day.seller)
            out.append(("market", t("village.banner.market", player=seller),
                              [(t("village.banner.open_market"),
                                partial(self._panel, "market"))], "banner-market"))
        if state.phase in ("mass_buyout", "mass_advance"):
            buttons: list[tuple[str, Callable[[], object]]] = [
                (t("village.banner.open_mass"), partial(self._panel, "mass"))]
            mass = state.mass
            if self.view_model.mass_redraw and not state.pending:
                buttons.append((t("village.draw.physical"), self._redraw_mass_physical))
                buttons.append((t("village.draw.app_again"), partial(self._redraw_app, "mass")))
            final = mass is not None and mass.final
            out.append(("mass", t("village.banner.final_mass" if final
                                        else "village.banner.mass"), buttons, "banner-mass"))
        if state.end is not None and state.phase == "turns":
            who = player_name(self.ctx, state, state.end.triggered_by)
            if not state.end.order_set:
                rest = t("village.banner.end_after_turn")
            elif state.end.final_order:
                rest = t("village.banner.end_still", players=", ".join(
                    player_name(self.ctx, state, i) for i in state.end.final_order))
            else:
                rest = t("village.banner.end_last")
            out.append(("end", t("village.banner.end", player=who) + " " + rest,
                              [], "banner-end"))
        if state.phase in ("scoring", "finished"):
            out.append(("end", t("village.stage.scoring" if state.phase == "scoring"
                                       else "village.stage.finished"),
                              [(t("village.banner.open_score"), partial(self._panel, "score"))],
                              "banner-score"))
        return out

    def _karla_board(self) -> ft.Control | None:
        assert self.controller is not None
        if self.controller.state.karla is None:
            return None
        if self.karla is None:  # built once: its fate-tile switchers animate flips
            self.karla = KarlaBoard(self.ctx)
            self.karla_control = self.karla.build()
        self.karla.update(self.controller.session)
        return self.karla_control

    def _options(self) -> ft.Control | None:
        assert self.controller is not None
        session = self.controller.session
        sig = (session.draw_mode, session.karla_policy, self.controller.state.solo,
               controls_locked(self.ctx))
        return self.options_slot.get(sig, self._build_options)

    def _build_options(self) -> ft.Control:
        assert self.controller is not None
        t, session = self.ctx.t, self.controller.session
        rows: list[ft.Control] = [self._switch_row(
            t("village.options.manual_draws"), session.draw_mode == "manual",
            self._toggle_draw_mode, "option-manual-draws")]
        if self.controller.state.solo:
            rows.append(self._switch_row(t("village.options.karla_auto"),
                                         session.karla_policy == "auto",
                                         self._toggle_karla_policy, "option-karla-auto"))
        if controls_locked(self.ctx):  # a watching phone sees the settings, greyed
            for row in rows:
                row.disabled = True
        rows.append(ft.Semantics(identifier="open-rules", content=ft.TextButton(
            t("readings.title"), icon=ft.Icons.RULE, height=TOUCH_TARGET,
            on_click=lambda: self.ctx.go(game_rules_route(self.session_id)))))
        return ft.Column([heading(t("village.options.heading")), *rows], spacing=4)

    @staticmethod
    def _switch_row(label: str, value: bool, on_change: Any, identifier: str) -> ft.Control:
        return ft.Semantics(identifier=identifier, content=ft.Row([
            ft.Text(label, size=BODY_TEXT_SIZE, expand=True),
            ft.Semantics(label=label, content=ft.Switch(value=value, on_change=on_change,
                                                            height=TOUCH_TARGET))],
            vertical_alignment=ft.CrossAxisAlignment.CENTER))

    # ---- taps ---------------------------------------------------------------------------------
    async def _take(self, space: str, colour: str) -> None:
        """Take a cube; a refused take says why (the controller shows the engine's
        refusal), and an effect of the take itself (a plague cube's time) is said at once."""
        controller = self.controller
        if controller is None:
            return
        if await controller.dispatch(TakeCube(space=space, colour=colour)):
            session = controller.session
            said = [n for n in session.last_note_data if n.get("key") in SAID_ON_TAKE]
            if said:
                lines = note_texts(self.ctx, said)
                if any(n.get("key") == "plague_taken" for n in said):
                    # The time the engine charged: the printed cost from the components.
                    lines.insert(1, self.ctx.t("village.table.plague_cost", time=int(
                        session.comp.n("plague_time"))))
                controller.say_after_change("\n".join(lines))

    async def _end_turn(self) -> None:
        """End the turn; what Karla did on her own right after it is said in a message
        (her board, where it is also shown, is below the fold on a phone)."""
        controller = self.controller
        if controller is None:
            return
        if await controller.dispatch(EndTurn()):
            said = [n for n in controller.session.last_note_data
                    if str(n.get("key", "")).startswith(SAID_FOR_KARLA)]
            if said:
                controller.say_after_change("\n".join(note_texts(self.ctx, said)))

    async def _free(self) -> None:
        if self.controller is not None:
            await self.controller.dispatch(FreeAction())

    def _open_well(self) -> None:
        if self.turn_dialogs is not None:
            self.turn_dialogs.open_well()

    def _open_bag(self) -> None:
        if self.turn_dialogs is not None:
            self.turn_dialogs.open_bag()

    def _redraw_physical(self) -> None:
        if self.turn_dialogs is not None:
            self.turn_dialogs.open_redraw("bag")

    def _redraw_mass_physical(self) -> None:
        if self.turn_dialogs is not None:
            self.turn_dialogs.open_redraw("mass")

    def _redraw_app(self, draw: Literal["bag", "mass"] = "bag") -> None:
        async def redraw() -> None:
            if self.controller is not None:
                await self.controller.redraw(draw)

        self.ctx.confirm(self.ctx.t("village.draw.app_again"),
                         self.ctx.t("village.draw.app_again_confirm" if draw == "bag"
                                    else "village.draw.app_again_mass"),
                         lambda: self.ctx.spawn(redraw()))

    def _reopen(self) -> None:
        if self.pending is not None:
            self.pending.reopen()
            self._rerender()

    def _rerender(self) -> None:
        # Explicit: a handler that opened or closed a dialog has already called update(),
        # which turns Flet's automatic update after the handler off.
        self.render()
        self.update_page()

    def open_round_end(self) -> None:
        # At once, in the same update as the change: the new round's table is never seen
        # (and tapped) for a moment before the round end replaces it. When the change was
        # a dialog's answer, the round end waits until the phone has closed the dialog
        # (kit/dialog_settle.py), and this table's update waits with it.
        self.round_end_waits = self.ctx.dialogs.settling
        super().open_round_end()

    def _panel(self, name: str) -> None:
        self.ctx.go(panel_route(self.session_id, name))

    def _open_player(self, index: int) -> None:
        self.ctx.go(panel_route(self.session_id, f"player/{index}"))

    def _open_current_panel(self) -> None:
        if self.controller is not None:  # on the form of the space taken (issue 13)
            st = self.controller.state
            self.ctx.go(player_route(self.session_id, st.current, st.space_taken or "actions"))

    async def _toggle_draw_mode(self, e: ft.Event[ft.Switch]) -> None:
        if self.controller is not None:
            mode = "manual" if e.control.value else "app"
            if not await self.controller.set_prefs(draw_mode=mode):
                self._changed()

    async def _toggle_karla_policy(self, e: ft.Event[ft.Switch]) -> None:
        if self.controller is not None:
            policy = "auto" if e.control.value else "ask"
            if not await self.controller.set_prefs(karla_policy=policy):
                self._changed()
