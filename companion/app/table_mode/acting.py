"""Who may act on a shared game, and who did it.

The Village controller asks `acting_refusal(ctx)` before every command, draw, undo or
preference change (the one place the check lives), and stores `acted_by(ctx, actor)` with
the events a phone's command recorded: `{"seat": 2}` (the log shows "Cy's phone"), or
`{"seat": 2, "for": 0}` when the phone acted for another player's seat ("Cy's phone, for
Ann"). Before such a command `may_act_for(ctx, actor, names)` asks the phone first ("It is
Ann's turn. Act for Ann?"), or refuses when the host lets phones act only for their own
seat; then a phone may undo or redo only what it did itself (`may_take_back`), and
otherwise it is asked before taking back another's action (`ask_take_back`). A
watching phone may not act at all, and its screens show no active control
(`controls_locked`); the host's own actions carry nothing.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.app.context import AppContext
    from companion.core.json_types import JsonObject
    from companion.village.service import ActedBy


def acting_refusal(ctx: AppContext) -> str | None:
    """Why this client may not change the game (in its language), or None when it may:
    the host always may; a phone only while it is a member with a seat that the host has
    not made watch-only."""
    if ctx.member_id is None or ctx.share is None:
        return None
    member = ctx.share.member(ctx.member_id)
    if member is None:
        return ctx.t("share.refused.left")
    if member.watch_only:
        return ctx.t("share.refused.watch_only")
    if member.seat is None:
        return ctx.t("share.refused.no_seat")
    return None


def controls_locked(ctx: AppContext) -> bool:
    """True on a phone that may not change the game (watching, made watch-only, or no
    longer a member): its screens show every game control disabled, not refused after
    the tap."""
    return acting_refusal(ctx) is not None


def phone_seat(ctx: AppContext) -> int | None:
    """The seat this phone acts for (None: the host, or a phone without a seat)."""
    if ctx.member_id is None or ctx.share is None:
        return None
    member = ctx.share.member(ctx.member_id)
    return member.seat if member is not None else None


def for_another_seat(ctx: AppContext, actor: int | None) -> bool:
    """True when this phone would act for `actor`, a seat that is not its own."""
    seat = phone_seat(ctx)
    return seat is not None and actor is not None and actor != seat


async def may_act_for(ctx: AppContext, actor: int | None, names: list[str],
                      up: int | None = None) -> bool:
    """Before a phone acts for another player's seat: refused (said) when the host lets
    phones act only for their own seat, else asked ("Act for Ann?"); True to go on. The
    host, and a phone acting for its own seat, go on without a word. `up`: the seat the
    game waits for; the words say "It is Ann's turn" only when `actor` is that seat, and
    "This is Ann's board" when the phone changes another player's board on its own turn
    (or on somebody else's)."""
    if not for_another_seat(ctx, actor) or ctx.share is None:
        return True
    assert actor is not None
    seat = phone_seat(ctx)
    assert seat is not None
    other = names[actor] if 0 <= actor < len(names) else str(actor + 1)
    turn = actor == up
    if ctx.share.registry.own_seat_only:
        ctx.toast(ctx.t("share.act_for.refused" if turn else "share.act_for.refused_board",
                        player=other))
        return False
    answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

    def settle(value: bool) -> None:
        if not answer.done():
            answer.set_result(value)

    mine = names[seat] if 0 <= seat < len(names) else str(seat + 1)
    ctx.confirm(ctx.t("share.act_for.title" if turn else "share.act_for.title_board",
                      player=other),
                ctx.t("share.act_for.message", player=other, me=mine),
                lambda: settle(True), confirm_label=ctx.t("share.act_for.yes", player=other),
                on_cancel=lambda: settle(False))
    return await waiting_for_the_user(answer)


def _made_by(events: list[JsonObject], seat: int) -> bool:
    """Whether this seat's phone made the action `events` for its own seat."""
    by = events[0].get("by") if events else None
    return isinstance(by, dict) and by.get("seat") == seat and by.get("for", seat) == seat


def may_take_back(ctx: AppContext, groups: list[list[JsonObject]]) -> bool:
    """Before a phone undoes or redoes `groups` (each the events of one action): when the
    host lets phones act only for their own seat, only actions this phone made for its
    own seat (their first event's "by", see `acted_by`); refused, and said, otherwise.
    The host, and every phone while that setting is off, go on (see `ask_take_back`)."""
    seat = phone_seat(ctx)
    if ctx.share is None or not ctx.share.registry.own_seat_only or seat is None:
        return True
    if all(_made_by(events, seat) for events in groups):
        return True
    ctx.toast(ctx.t("share.take_back.refused"))
    return False


async def ask_take_back(ctx: AppContext, events: list[JsonObject], what: str,
                        label: str) -> bool:
    """A phone about to undo or redo an action it did not make (the host's, another
    phone's) is asked first, as acting for another seat is; True to go on. The host, and
    a phone taking back its own action, go on without a word."""
    seat = phone_seat(ctx)
    if ctx.share is None or seat is None or _made_by(events, seat):
        return True
    answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

    def settle(value: bool) -> None:
        if not answer.done():
            answer.set_result(value)

    ctx.confirm(ctx.t("share.take_back.title"), ctx.t("share.take_back.message", what=what),
                lambda: settle(True), confirm_label=label, on_cancel=lambda: settle(False))
    return await waiting_for_the_user(answer)


async def waiting_for_the_user(answer: asyncio.Future[bool]) -> bool:
    """The phone's answer to the question on screen. (Named: the headless test harness
    counts a task waiting here as idle, as a real client waiting for a finger is.)"""
    return await answer


def acted_by(ctx: AppContext, actor: int | None = None) -> ActedBy | None:
    """What goes into a stored event's "by": the seat of the phone that acted, and the
    seat it acted for when that is another one."""
    if ctx.member_id is None or ctx.share is None:
        return None
    member = ctx.share.member(ctx.member_id)
    if member is None or member.seat is None:
        return None
    if actor is not None and actor != member.seat:
        return {"seat": member.seat, "for": actor}
    return {"seat": member.seat}


def _index(value: object, names: list[str]) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
        return value
    return None


def by_phone_text(ctx: AppContext, by: object, names: list[str]) -> str | None:
    """The log's "— Julie's phone" (or "— Julie's phone, for Tom") for an event's "by"
    (None when there is none)."""
    if not isinstance(by, dict):
        return None
    seat = _index(by.get("seat"), names)
    if seat is None:
        return None
    other = _index(by.get("for"), names)
    if other is not None and other != seat:
        return ctx.t("share.log.by_phone_for", player=names[seat], other=names[other])
    return ctx.t("share.log.by_phone", player=names[seat])
