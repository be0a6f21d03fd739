"""Routes of table mode (no screen imports: the Village screens link here)."""

from __future__ import annotations

from companion.app.village.table.paths import TABLE_PATTERN

SHARE_PATTERN = f"{TABLE_PATTERN}/share"  # the host's QR screen for this game
SEAT_PATTERN = f"{TABLE_PATTERN}/seat"  # a phone picks who it is
LEFT_ROUTE = "/share/left"  # a phone that was removed or whose sharing stopped


def share_route(session_id: str) -> str:
    return f"/play/village/{session_id}/share"


def seat_route(session_id: str) -> str:
    return f"/play/village/{session_id}/seat"
