"""Who may act on a shared game, and who did it.

The Village controller asks `acting_refusal(ctx)` before every command, draw, undo or
preference change (the one place the check lives), and stores `acted_by(ctx)` with the
events a phone's command recorded: `{"seat": 2}` (the log shows "Cy's phone"). A
watching phone may not act at all; the host's own actions carry nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.app.context import AppContext


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


def acted_by(ctx: AppContext) -> dict[str, Any] | None:
    """What goes into a stored event's "by": the seat of the phone that acted."""
    if ctx.member_id is None or ctx.share is None:
        return None
    member = ctx.share.member(ctx.member_id)
    if member is None or member.seat is None:
        return None
    return {"seat": member.seat}


def by_phone_text(ctx: AppContext, by: Any, names: list[str]) -> str | None:
    """The log's "— Julie's phone" for an event's "by" (None when there is none)."""
    if not isinstance(by, dict):
        return None
    seat = by.get("seat")
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return ctx.t("share.log.by_phone", player=names[seat])
    return None
