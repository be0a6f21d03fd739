"""Route paths of the Village screens (kept apart from the route table to avoid import
cycles between the screens that link to each other)."""

from __future__ import annotations

NEW_VILLAGE = "/new/village"
NEW_VILLAGE_SOLO = "/new/village-solo"
TABLE_PATTERN = "/play/village/:session_id"
LOG_PATTERN = "/play/village/:session_id/log"
ROUND_END_PATTERN = "/play/village/:session_id/round-end"
# "How this app reads the rules": every entry (from Settings), the entries of one kind of
# game (from the wizard, above it so the draft stays), and one game's (from its table or
# its log, above that screen).
RULES_ROUTE = "/rules"
WIZARD_RULES_PATTERN = "/new/village/rules/:edition"
WIZARD_SOLO_RULES = "/new/village-solo/rules"
GAME_RULES_PATTERN = "/play/village/:session_id/rules"
LOG_RULES_PATTERN = "/play/village/:session_id/log/rules"


def table_route(session_id: str) -> str:
    return f"/play/village/{session_id}"


def log_route(session_id: str) -> str:
    return f"/play/village/{session_id}/log"


def round_end_route(session_id: str) -> str:
    return f"/play/village/{session_id}/round-end"


def wizard_rules_route(edition: str, solo: bool) -> str:
    return WIZARD_SOLO_RULES if solo else f"/new/village/rules/{edition}"


def game_rules_route(session_id: str, *, from_log: bool = False) -> str:
    return f"/play/village/{session_id}{'/log' if from_log else ''}/rules"


def panel_route(session_id: str, panel: str) -> str:
    """The panels another screen set owns: "player/2", "market", "mass", "chronicle",
    "score"."""
    return f"/play/village/{session_id}/{panel}"


def player_route(session_id: str, index: int, action: str | None = None) -> str:
    """A player's panel; with `action` (a space taken this turn: "harvest" ...) it opens
    on that action's form (see panel/player_screen.py)."""
    return f"/play/village/{session_id}/player/{index}" + (f"/{action}" if action else "")
