"""Routes of the history screens, and where a finished game of each kind opens (the
games' registry, companion/games, holds each game's routes)."""

from __future__ import annotations

from companion import games

HISTORY_ROUTE = "/history"
STATS_ROUTE = "/history/stats"
BACKUP_ROUTE = "/history/backup"
REPLAY_PATTERN = "/history/replay/:session_id"


def sheet_route(game: str, session_id: str) -> str:
    """A finished game's final sheet: Village's score panel; an assistant's screen (it
    opens on its final sheet once the game is finished). A game this build does not know
    gets /play/<game>/<id>: the not-found screen."""
    return games.sheet_route(game, session_id) or f"/play/{game}/{session_id}"


def log_route(game: str, session_id: str) -> str | None:
    """The read-only log of a finished game, where the game has one screen for it."""
    return games.log_route(game, session_id)


def replay_route(game: str, session_id: str) -> str | None:
    """A finished game step by step, where the game keeps a log to replay (Village)."""
    return games.replay_route(game, session_id)
