"""Per-round card limits (seed L92, L113)."""

from __future__ import annotations

from companion.villagers.data import BUILD_BASE, BUILD_MAX, DRAFT_BASE, DRAFT_MAX


def draft_limit(food: int) -> int:
    """Cards a player must draft this round: 2 + food symbols in the village, at most 5."""
    if food < 0:
        raise ValueError("food must be 0 or more")
    return min(DRAFT_BASE + food, DRAFT_MAX)


def build_limit(builders: int) -> int:
    """Cards a player may place this round: 2 + builders at the start of the build phase,
    at most 5 (basic villagers swapped in and discarded special cards do not count)."""
    if builders < 0:
        raise ValueError("builders must be 0 or more")
    return min(BUILD_BASE + builders, BUILD_MAX)
