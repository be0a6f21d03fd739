"""Log entries: every stored event with who did it. Events do not name their actor (the
current player is implied), so the log replays the events once to find out; this runs on
the store thread, never on the event loop."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any

from companion.village.components import ComponentData
from companion.village.engine import apply_event, start_state
from companion.village.session import parse_body
from companion.village.setup import VillageSetup
from companion.village.state import VillageState

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class LogEntry:
    seq: int
    group: int
    at: str
    body: dict[str, Any]
    actor: int | None  # the player the event was for (None: nobody in particular)
    by: Any = None  # table mode: whose phone did it, e.g. {"seat": 1} (None: the host)
    taps: int = 1  # stored events this line stands for (consecutive counter taps merged)


# Commands that name the player they are for (corrections, mostly).
PLAYER_NAMED = ("spend_time", "adjust", "override_score", "set_time", "take_back_time",
                "add_customer_tile", "remove_customer_tile", "set_customer_points")


def actor_of(state: VillageState, body: dict[str, Any]) -> int | None:
    """Who an event acts for, judged from the state just before it."""
    kind = body.get("type")
    pending = state.pending[0] if state.pending else None
    if kind in PLAYER_NAMED:
        player = body.get("player")
        return player if isinstance(player, int) else None
    if kind == "move_member":
        member = state.members.get(str(body.get("member")))
        return member.owner if member is not None else None
    if kind == "next_start_marker_coin":
        return state.next_start_holder
    if kind == "chance" or kind in ("choose_death", "choose_compensation_cube"):
        return pending.player if pending is not None else None
    if kind == "karla_choose_cube":
        return state.karla.player if state.karla is not None else None
    if kind in ("market_serve", "market_pass") and state.market_day is not None:
        return state.market_day.seller
    if kind in ("mass_buyout", "mass_advance") and state.mass is not None:
        order, index = state.mass.order, state.mass.index
        return order[index] if index < len(order) else None
    if kind in ("finish_game", "spend_next_start_marker"):
        return None
    return state.current


def build_entries(setup: VillageSetup, comp: ComponentData,
                  events: list[dict[str, Any]]) -> list[LogEntry]:
    """Oldest first. Blocking (replays the game): call it through the store thread."""
    state = start_state(setup, comp)
    entries: list[LogEntry] = []
    replaying = True
    for event in events:
        body = dict(event.get("body", {}))
        actor = actor_of(state, body) if replaying else None
        entries.append(LogEntry(seq=int(event.get("seq", len(entries))),
                                group=int(event.get("group", 0)), at=str(event.get("at", "")),
                                body=body, actor=actor, by=event.get("by")))
        if replaying:
            try:
                apply_event(state, comp, parse_body(body))
            except Exception:  # a log the engine no longer folds: show it without actors
                logger.exception("log replay stopped at event %s", event.get("seq"))
                replaying = False
    return entries


def _counter(entry: LogEntry) -> tuple[Any, ...] | None:
    """Which counter an `adjust` event changed (player, field, colour/goods), else None."""
    body = entry.body
    if body.get("type") != "adjust" or not isinstance(body.get("delta"), int):
        return None
    return (body.get("player"), body.get("field"), body.get("key"), entry.by)


def merge_counter_taps(entries: list[LogEntry]) -> list[LogEntry]:
    """The log as shown: consecutive taps on one counter of one player become one line
    with their sum ("prestige +3"). Only the display merges; the stored events, and undo
    one tap at a time, stay as they are. A merged line carries the newest tap's seq,
    group and time, so "go back to here" keeps every tap it shows."""
    shown: list[LogEntry] = []
    for entry in entries:
        counter = _counter(entry)
        last = shown[-1] if shown else None
        if counter is not None and last is not None and _counter(last) == counter:
            total = int(last.body["delta"]) + int(entry.body["delta"])
            shown[-1] = replace(entry, body={**entry.body, "delta": total},
                                taps=last.taps + entry.taps)
        else:
            shown.append(entry)
    return shown
