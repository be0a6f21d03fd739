"""When a game screen opens the round-end screen by itself: once per round end on each
client, on the screen showing the game when the round ended (the table, or a panel: Ann
passing at Karla's market day ends the round on the market screen), or on the first of
those shown after it (the table after the log). A screen opened later for a round that
ended before it finds nothing new: opening the table mid-mass shows the table."""

from __future__ import annotations

from companion.app.context import AppContext
from companion.village import table_marks
from companion.village.state import VillageState


def round_end_is_new(ctx: AppContext, session_id: str, state: VillageState) -> bool:
    """Whether a round ended since this client last showed `session_id`'s state on a
    screen that follows the round end (or on the round-end screen itself); remembers
    `state` as shown either way."""
    key = f"village.round_end.{session_id}"
    ended = table_marks.scope(state)
    seen = ctx.seen.get(key)
    ctx.seen[key] = ended
    if not isinstance(seen, int) or ended <= seen or state.round < 1:
        return False  # first look, the same round, or an undo back into the round
    return ended - 1 >= 1  # the setup's first round beginning ends no round
