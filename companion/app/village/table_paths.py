"""Route paths of the Village screens (kept apart from the route table to avoid import
cycles between the screens that link to each other)."""

from __future__ import annotations

NEW_VILLAGE = "/new/village"
NEW_VILLAGE_SOLO = "/new/village-solo"
TABLE_PATTERN = "/play/village/:session_id"
LOG_PATTERN = "/play/village/:session_id/log"


def table_route(session_id: str) -> str:
    return f"/play/village/{session_id}"


def log_route(session_id: str) -> str:
    return f"/play/village/{session_id}/log"


def panel_route(session_id: str, panel: str) -> str:
    """The panels another screen set owns: "player/2", "market", "mass", "chronicle",
    "score"."""
    return f"/play/village/{session_id}/{panel}"
