"""Log entries: every stored event with who did it. Events do not name their actor (the
current player is implied), so the log replays the events once to find out (the engine's
replay, companion.village.replay); this runs on the store thread, never on the event
loop."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.core.json_types import JsonObject
from companion.village.components import ComponentData
from companion.village.replay import GameReplay, LogEntry, actor_of
from companion.village.setup import VillageSetup

# LogEntry and actor_of moved to the domain (companion.village.replay); the log's and
# the table's screens import them from here.
__all__ = ["LogEntry", "actor_of", "build_entries", "merge_counter_taps"]


def build_entries(setup: VillageSetup, comp: ComponentData,
                  events: list[JsonObject]) -> list[LogEntry]:
    """Oldest first; a log the engine stops folding keeps its later lines without actors.
    Blocking (replays the game): call it through the store thread."""
    return GameReplay.log_entries(setup, comp, events)


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
