"""The table's done marks: which instructions the players ticked as done at the physical
table ("At the table" lines, the round end's steps). They are no game event: the rules never
read them and Undo leaves them alone. They are saved with the game (the stored header's
"table_marks", written by VillageService.set_table_marks) so a restart, another device and
table mode see the same ticks.

Marks belong to a scope: the round they were made for. A round's end belongs to the round it
starts (its steps are done while that round begins), so during the mass the scope is already
the next round; marks of an older scope are gone, which is how the next round clears them.

Stored form: {"scope": <int>, "done": [<instruction id>, ...]} (ids sorted, no repeats).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.json_types import JsonObject
from companion.village.state import VillageState

HEADER_KEY = "table_marks"
# After the last cube of a round: the mass, then the next round (or final scoring).
ROUND_END_PHASES = frozenset({"mass_buyout", "mass_advance", "scoring", "finished"})
MAX_MARKS = 200  # far more than a round shows; keeps a damaged header from growing


def scope(state: VillageState) -> int:
    """The round the table's instructions now belong to."""
    return state.round + (1 if state.phase in ROUND_END_PHASES else 0)


def done(stored: Mapping[str, Any] | None, state: VillageState) -> frozenset[str]:
    """The instructions ticked in the current scope (nothing from an older round; a stored
    value of the wrong shape counts as no marks)."""
    if not isinstance(stored, Mapping) or stored.get("scope") != scope(state):
        return frozenset()
    marks = stored.get("done")
    if not isinstance(marks, list):
        return frozenset()
    return frozenset(m for m in marks if isinstance(m, str))


def toggled(stored: Mapping[str, Any] | None, state: VillageState,
            instruction: str) -> JsonObject:
    """The stored value with `instruction` ticked, or unticked if it was ticked. Marks of
    an older scope are dropped in the same write."""
    if not isinstance(instruction, str) or not instruction or len(instruction) > 120:
        raise ValueError("instruction: a done mark names an instruction by its id")
    marks = set(done(stored, state))
    marks.symmetric_difference_update({instruction})
    return {"scope": scope(state), "done": sorted(marks)[:MAX_MARKS]}
