"""Time (rulebook: the time track, and 家族成員過世 — family members' deaths): spending
hourglasses moves the marker clockwise; passing the quill costs a life."""

from __future__ import annotations

from companion.village.rules.context import Ctx
from companion.village.rules.deaths import queue_deaths


def spend_time(ctx: Ctx, player: int, amount: int) -> int:
    """Move the marker; returns how many times it passed the quill.

    Position 0 is the first space right of the quill, so the quill lies between the last
    space and 0. A death is owed per pass: at the end of the player's turn, or at once
    during a market day (rulebook 家族成員過世 例外).
    """
    st = ctx.state
    p = st.players[player]
    if p.kind != "human" or amount <= 0:
        return 0
    length = ctx.comp.n("time_track_length")
    total = p.time + amount
    passes = total // length
    p.time = total % length
    if passes:
        p.deaths_pending += passes
        if passes > 1:
            ctx.note("quill_passed_n", player=p.name, times=passes)
        else:
            ctx.note("quill_passed", player=p.name)
        if st.market_day is not None:
            queue_deaths(ctx, player)
    return passes
