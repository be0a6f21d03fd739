"""Routes of the history screens, and where a finished game of each kind opens."""

from __future__ import annotations

HISTORY_ROUTE = "/history"
STATS_ROUTE = "/history/stats"
BACKUP_ROUTE = "/history/backup"
REPLAY_PATTERN = "/history/replay/:session_id"

#: Game ids as the records name them, in the order the filters offer them.
GAMES = ("village", "small-city", "feudum", "villagers")
GAME_LABEL_KEYS = {"village": "game.village", "small-city": "game.small_city",
                   "feudum": "game.feudum", "villagers": "game.villagers"}


def sheet_route(game: str, session_id: str) -> str:
    """A finished game's final sheet: Village's score panel; an assistant's screen (it
    opens on its final sheet once the game is finished)."""
    if game == "village":
        return f"/play/village/{session_id}/score"
    return f"/play/{game}/{session_id}"


def log_route(game: str, session_id: str) -> str | None:
    """The read-only log of a finished game, where the game has one screen for it."""
    return f"/play/village/{session_id}/log" if game == "village" else None


def replay_route(game: str, session_id: str) -> str | None:
    """A finished game step by step, where the game keeps a log to replay (Village)."""
    return f"/history/replay/{session_id}" if game == "village" else None
