"""Whose turn it is, and why a player may not do an action now. The engine decides (its
gates and check_action, through companion.village.read); this module only words
the answer, so the forms can be disabled with a reason instead of failing on tap."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.app.village.present import term
from companion.app.village.table.words import player_name
from companion.village.components import ComponentData
from companion.village.read import Reader, Reason
from companion.village.state import VillageState

if TYPE_CHECKING:
    from companion.app.context import AppContext


BLOCK_KEYS: dict[Reason, str] = {
    "waiting": "panel.actions.waiting",
    "not_turns": "panel.actions.not_turns",
    "market_day": "panel.actions.market_day",
    "not_your_turn": "panel.actions.not_your_turn",
    "take_first": "panel.actions.take_first",
    "done": "panel.actions.done",
    "other_space": "panel.actions.other_space",
}


def action_block(state: VillageState, comp: ComponentData, player: int,
                 action: str) -> str | None:
    """None when `player` may do `action` now, else the message key saying why not."""
    block = Reader(state, comp).action_block(player, action)
    return None if block is None else BLOCK_KEYS[block.reason]


def block_text(ctx: AppContext, state: VillageState, key: str) -> str:
    return ctx.t(key, player=player_name(ctx, state, state.current),
                 space=term(ctx, "space", state.space_taken or ""))


def turn_line(ctx: AppContext, state: VillageState) -> str:
    """"Round 2 · Ann's turn" (or the phase when no turn is being played)."""
    t = ctx.t
    if state.phase == "turns":
        who = t("panel.turn.whose", player=player_name(ctx, state, state.current))
    else:
        who = term(ctx, "phase", state.phase)
    return t("panel.turn.round", round=state.round, what=who)
