"""The host's "Let phones join" screen for one game: a large QR code of the one-time join
URL, the URL in words, the join code in big letters, the joined phones (seat, watch-only
switch, Remove) and "Stop sharing".

Opening the screen opens the invitation for this game (an invitation already open for it
is kept, so a QR code being scanned stays valid). The registry tells of every change
(a phone joined, the token was used, a seat chosen) on whatever thread made it; the
screen redraws on the page's loop.
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial

import flet as ft

from companion.app.kit import TOUCH_TARGET, back_button, big_button, body, heading
from companion.app.routing import Screen
from companion.app.table_mode.paths import share_route
from companion.app.table_mode.table_actions import share_opened
from companion.app.village.table.paths import table_route
from companion.share.qr import qr_png
from companion.share.registry import Invitation, Member

logger = logging.getLogger(__name__)

QR_MIN_PX = 280
CONTENT_MAX_PX = 600  # the screen's column on a wide window
SCROLLBAR_PX = 16  # room kept for the scrollbar beside the column
QR_MAX_PX = 480
CODE_TEXT_SIZE = 44


def spaced_code(code: str) -> str:
    """ "ABCDEF" -> "ABC DEF": easier to read across the table (spaces do not matter)."""
    return f"{code[:3]} {code[3:]}" if len(code) > 4 else code


class HostShareScreen(Screen):
    @property
    def session_id(self) -> str:
        return self.params.get("session_id", "")

    def build(self) -> ft.View:
        t = self.ctx.t
        self._unsubscribe: object = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._names: list[str] = []
        self.content = ft.Column(spacing=14, horizontal_alignment=ft.CrossAxisAlignment.CENTER)
        return ft.View(
            route=share_route(self.session_id),
            appbar=ft.AppBar(
                leading=back_button(t("common.back"),
                                    lambda: self.ctx.go(table_route(self.session_id))),
                title=ft.Text(t("share.host.title"))),
            scroll=ft.ScrollMode.AUTO,
            padding=ft.Padding.symmetric(horizontal=16, vertical=12),
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            controls=[self.content],
        )

    # ---- lifecycle ------------------------------------------------------------------------
    def did_appear(self) -> None:
        share = self.ctx.share
        if share is None or self.ctx.member_id is not None:
            self.content.controls = [body(self.ctx.t("share.host.not_sharing"))]
            self._update()
            return
        self._loop = asyncio.get_running_loop()
        share_opened(self.ctx, self.session_id)
        current = share.registry.current()
        if current is None or current.game_id != self.session_id:
            share.registry.open(self.session_id)
        self._unsubscribe = share.registry.subscribe(self._heard)
        self.ctx.spawn(self._load_names())
        self._render()

    def will_disappear(self) -> None:
        unsubscribe, self._unsubscribe = self._unsubscribe, None
        if callable(unsubscribe):
            unsubscribe()

    def _heard(self, _invitation: Invitation | None) -> None:
        """Any thread: redraw on the page's loop, never here."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            loop.call_soon(self._redraw)
        else:
            loop.call_soon_threadsafe(self._redraw)

    def _redraw(self) -> None:
        if self._unsubscribe is None:  # left meanwhile
            return
        self._render()
        self._update()

    async def _load_names(self) -> None:
        from companion.app.table_mode.seat_screen import player_names

        try:
            self._names = await player_names(self.ctx, self.session_id)
        except Exception:  # the names are a help; the phones are listed without them
            logger.exception("reading the players of %s failed", self.session_id)
            return
        self._redraw()

    def _update(self) -> None:
        try:
            self.ctx.page.update()
        except Exception as exc:  # the client went away
            logger.info("page update skipped: %s", exc)

    # ---- rendering ------------------------------------------------------------------------
    def _render(self) -> None:
        share = self.ctx.share
        assert share is not None
        t = self.ctx.t
        invitation = share.registry.current()
        if invitation is None or invitation.game_id != self.session_id:
            self.content.controls = [
                ft.Semantics(identifier="share-stopped",
                             content=body(t("share.host.stopped"))),
                big_button(t("share.host.start_again"), ft.Icons.QR_CODE,
                           self._start_again, identifier="share-start"),
            ]
            return
        url = share.join_url(invitation)
        width = self.ctx.page.width or 360
        # One centred column, clear of the scrollbar at the window's right edge (it lay
        # over the full-width "Stop sharing" on a wide screen).
        column = max(QR_MIN_PX, min(CONTENT_MAX_PX, width - 2 * 16 - SCROLLBAR_PX))
        self.content.width = column
        size = int(max(QR_MIN_PX, min(QR_MAX_PX, column - 16)))  # 8 px white frame
        members = share.registry.members(self.session_id)
        self.content.controls = [
            body(t("share.host.scan")),
            ft.Semantics(identifier="share-qr", label=t("share.host.qr_label"),
                         content=ft.Container(
                             ft.Image(src=qr_png(url), width=size, height=size,
                                      fit=ft.BoxFit.CONTAIN),
                             bgcolor=ft.Colors.WHITE, padding=8, border_radius=8)),
            ft.Semantics(identifier="join-url", label=url, content=ft.Text(
                url, size=14, text_align=ft.TextAlign.CENTER)),
            body(t("share.host.or_type", url=share.join_page_url)),
            ft.Semantics(identifier="join-code", label=invitation.join_code, content=ft.Text(
                spaced_code(invitation.join_code), size=CODE_TEXT_SIZE,
                weight=ft.FontWeight.BOLD, font_family="monospace")),
            ft.Divider(),
            heading(t("share.host.phones")),
            *([self._member_row(m) for m in members]
              or [body(t("share.host.no_phones"), muted=True)]),
            self._own_seat_row(),
            ft.Divider(),
            big_button(t("share.host.stop"), ft.Icons.STOP_SCREEN_SHARE, self._ask_stop,
                       identifier="share-stop", filled=False),
        ]

    def _seat_text(self, member: Member) -> str:
        t = self.ctx.t
        share = self.ctx.share
        assert share is not None
        if not share.has_chosen(member.member_id):
            return t("share.host.choosing")
        if member.seat is None:
            return t("share.host.watching")
        name = (self._names[member.seat] if 0 <= member.seat < len(self._names)
                else str(member.seat + 1))
        return t("share.host.seat", player=name)

    def _member_row(self, member: Member) -> ft.Control:
        t = self.ctx.t
        label = t("share.host.watch_only")
        return ft.Semantics(identifier=f"member-{member.member_id}", content=ft.Container(
            padding=ft.Padding.symmetric(vertical=6),
            border=ft.Border.only(bottom=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
            content=ft.Column([
                ft.Text(f"{self._seat_text(member)} · {member.address}", size=16,
                        weight=ft.FontWeight.W_600),
                ft.Row([
                    ft.Semantics(identifier=f"watch-only-{member.member_id}", label=label,
                                 content=ft.Switch(label=label, value=member.watch_only,
                                                   height=TOUCH_TARGET,
                                                   on_change=partial(self._watch_only,
                                                                     member.member_id))),
                    ft.Semantics(identifier=f"remove-{member.member_id}", content=ft.TextButton(
                        t("share.host.remove"), icon=ft.Icons.PHONELINK_ERASE,
                        height=TOUCH_TARGET,
                        on_click=partial(self._ask_remove, member))),
                ], alignment=ft.MainAxisAlignment.SPACE_BETWEEN, wrap=True),
            ], spacing=4, tight=True)))

    def _own_seat_row(self) -> ft.Control:
        """The host's setting: may a phone act for another player's seat (after asking)?"""
        t = self.ctx.t
        assert self.ctx.share is not None
        label = t("share.host.own_seat_only")
        return ft.Column([
            ft.Semantics(identifier="own-seat-only", label=label, content=ft.Switch(
                label=label, value=self.ctx.share.registry.own_seat_only,
                height=TOUCH_TARGET, on_change=self._own_seat_only)),
            body(t("share.host.own_seat_only_help"), muted=True),
        ], spacing=2, tight=True)

    # ---- taps -----------------------------------------------------------------------------
    def _own_seat_only(self, e: ft.Event[ft.Switch]) -> None:
        assert self.ctx.share is not None
        self.ctx.share.registry.set_own_seat_only(bool(e.control.value))

    def _watch_only(self, member_id: str, e: ft.Event[ft.Switch]) -> None:
        assert self.ctx.share is not None
        self.ctx.share.registry.set_watch_only(member_id, bool(e.control.value))

    def _ask_remove(self, member: Member) -> None:
        """Asked first, as stopping is: a removed phone is let go at once and must join
        again (a new code from this screen) to come back."""
        t = self.ctx.t

        def remove() -> None:
            assert self.ctx.share is not None
            self.ctx.share.remove(member.member_id)

        self.ctx.confirm(t("share.host.remove_title"),
                         t("share.host.remove_confirm",
                           phone=f"{self._seat_text(member)} · {member.address}"), remove,
                         confirm_label=t("share.host.remove"))

    def _ask_stop(self) -> None:
        t = self.ctx.t

        def stop() -> None:
            assert self.ctx.share is not None
            self.ctx.share.stop()
            self._redraw()

        self.ctx.confirm(t("share.host.stop"), t("share.host.stop_confirm"), stop,
                         confirm_label=t("share.host.stop"))

    def _start_again(self) -> None:
        assert self.ctx.share is not None
        self.ctx.share.registry.open(self.session_id)
