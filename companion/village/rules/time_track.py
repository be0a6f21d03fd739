"""Time (rulebook: the time track, and 家族成員過世 — family members' deaths): spending
hourglasses moves the marker clockwise; passing the quill costs a life."""

from __future__ import annotations

from dataclasses import dataclass

from companion.village.rules.context import Ctx
from companion.village.rules.deaths import queue_deaths


@dataclass(frozen=True)
class TimeMarker:
    """Where a time marker stands, as the farmyard prints it: `position` as the state keeps
    it (0 = the first space right of the quill), `space` the printed space's number (1 =
    that first space), the track's `length`, and `to_quill`, the spaces left to the quill:
    spending that many hourglasses (or more) moves the marker past it."""

    position: int
    space: int
    length: int
    to_quill: int


def spaces_to_quill(length: int, position: int) -> int:
    """Spaces from a marker on `position` to the quill (the quill lies between the last
    space and space 0): the hourglasses that take it past the quill."""
    return length - position


def passes_after(length: int, position: int, amount: int) -> int:
    """How many times spending `amount` hourglasses from `position` passes the quill (0:
    it does not)."""
    return (position + amount) // length if amount > 0 else 0


def marker_at(length: int, position: int) -> TimeMarker:
    """A marker on `position` of a track of `length` spaces (see TimeMarker)."""
    return TimeMarker(position=position, space=position + 1, length=length,
                      to_quill=spaces_to_quill(length, position))


def time_marker(ctx: Ctx, player: int) -> TimeMarker:
    """Where `player`'s time marker stands (see TimeMarker)."""
    return marker_at(ctx.comp.n("time_track_length"), ctx.state.players[player].time)


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
    passes = passes_after(length, p.time, amount)
    p.time = (p.time + amount) % length
    if passes:
        p.deaths_pending += passes
        if passes > 1:
            ctx.note("quill_passed_n", player=p.name, times=passes)
        else:
            ctx.note("quill_passed", player=p.name)
        if st.market_day is not None:
            queue_deaths(ctx, player)
    return passes
