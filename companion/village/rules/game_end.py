"""Game end (rulebook: 遊戲結束 — game end): the last chronicle or graveyard slot filled;
final turns; final mass."""

from __future__ import annotations

from companion.village.rules.context import Ctx
from companion.village.state import EndState


def trigger_end(ctx: Ctx, player: int, where: str, *,
                market_trigger: int | None = None) -> None:
    """The last chronicle or graveyard slot was filled by `player`'s member.

    The end counts as "in a market day" while one is under way, and also when the death
    was owed in a market day that closed before it was answered (`market_trigger`: who
    held it) — the sale that passed the quill was the market's last."""
    st = ctx.state
    if st.end is not None:
        return
    host = st.market_day.trigger if st.market_day is not None else market_trigger
    st.end = EndState(triggered_by=player, during_market=host is not None,
                      market_trigger=host)
    ctx.note(f"game_end_{where}", player=st.players[player].name)


def final_order(ctx: Ctx) -> list[int]:
    """Who still takes a final turn, in order, once the current turn is over.

    Not in a market day: everyone but the trigger player, clockwise after them.
    In a market day: if the market-day trigger player also triggered the end, everyone else;
    otherwise everyone, clockwise after the market-day trigger player (Big Box 遊戲結束 特殊情況,
    reading "final_turns_after_market_end" "market_host_order"; the 2011 edition, and the
    other Big Box reading, start after the end trigger instead).
    """
    st = ctx.state
    end = st.end
    assert end is not None
    n = len(st.players)
    after = [(st.current + k) % n for k in range(1, n + 1)]  # ends with the current player
    humans = set(st.humans())
    if end.during_market:
        # Karla may hold a market day during your turn: compare with who held it.
        market_trigger = end.market_trigger if end.market_trigger is not None else st.current
        if end.triggered_by == market_trigger:
            order = [p for p in after if p != market_trigger]
        elif _market_end_rule(ctx) == "after_end_trigger":
            # 2011 edition: from the player after the end trigger through the end trigger.
            order = [(end.triggered_by + k) % n for k in range(1, n + 1)]
        else:
            order = after
    else:
        after_trigger = [(end.triggered_by + k) % n for k in range(1, n)]
        order = after_trigger
    return [p for p in order if p in humans]


def _market_end_rule(ctx: Ctx) -> str:
    """Where the final turns start when someone other than the market-day host ends the
    game: the 2011 edition's own rule (004 최종액션 C); in the Big Box, whose rulebook names
    no seat, the game's reading "final_turns_after_market_end" (games started before rules
    version 2: the component value they played with)."""
    if ctx.state.edition == "big-box" and ctx.rules_version >= 2:
        return ctx.reading("final_turns_after_market_end")
    return str(ctx.comp.text("final_turns_market"))
