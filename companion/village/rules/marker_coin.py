"""The next-start-player marker as a coin (rulebook: solo game — 單人遊戲 註記, the council's
next-start privilege): in a solo game the held marker may stand in for one coin until paid
or until the new round, when an unpaid one goes back to the council (rounds.py)."""

from __future__ import annotations

from companion.village.commands import NextStartMarkerCoin, SpendNextStartMarker
from companion.village.rules.context import Ctx
from companion.village.rules.errors import require


def _marker_holder(ctx: Ctx) -> int:
    st = ctx.state
    require(st.solo, "type", "only in a solo game", key="rule.solo_only")
    holder = st.next_start_holder
    require(holder is not None and not st.next_start_spent
            and st.players[holder].kind == "human", "type",
            "you do not hold the next-start-player marker", key="rule.no_start_marker")
    require(st.phase in ("turns", "mass_buyout", "mass_advance"), "phase",
            "only before the new round", key="rule.before_new_round_only")
    assert holder is not None
    return holder


def spend_next_start_marker(ctx: Ctx, _cmd: SpendNextStartMarker) -> None:
    """Legacy fold of engine-1 logs: the marker became a lasting coin. New sessions refuse
    the command (VillageSession.execute); `next_start_marker_coin` replaces it."""
    st = ctx.state
    holder = _marker_holder(ctx)
    st.next_start_holder = None
    st.next_start_spent = True
    st.players[holder].coins += 1
    ctx.note("next_start_spent")


def next_start_marker_coin(ctx: Ctx, _cmd: NextStartMarkerCoin) -> None:
    """The held marker stands in for one coin until paid or until the new round."""
    st = ctx.state
    holder = _marker_holder(ctx)
    st.next_start_spent = True  # off the council; the holder stays set while unpaid
    st.players[holder].coins += 1
    ctx.note("next_start_spent")


def return_marker_coin(ctx: Ctx) -> None:
    """An unpaid marker-coin goes back to the council (new round; also before final
    scoring, since it is no coin of the player's and must not score)."""
    st = ctx.state
    holder = st.marker_coin_holder()
    if holder is None:
        return
    st.players[holder].coins -= 1  # never below 0: any coin paid would have been it
    st.next_start_holder = None
    ctx.note("next_start_back")
