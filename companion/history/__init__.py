"""After the game (issue 14): history, statistics, backup and sharing of finished games.

Pure domain code, no UI: everything here reads what the store lists (SessionInfo and its
`summary`) or what it stores, never a game engine's state.

- records.py: one GameRecord per finished game of any game, from its SessionInfo;
- names.py: how player names are matched (normalised, plus the user's merge map);
- query.py: the history, newest first, filtered, searched and paged;
- stats.py: statistics per player and per game, from records only;
- backup.py: export / import of everything, one game as JSON, results as CSV;
- bgstats.py: the BG Stats "createPlay" link of a finished game.

(Its speed and memory figures: companion/bench/history.py.)
"""
