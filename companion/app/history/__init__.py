"""After the game (issue 14), the screens: History (finished games of every game, filtered
and paged), Statistics (charts and a table, merging two spellings of a name) and Backups
(export / import), plus the "Log in BG Stats" button of a finished game's sheet.

The figures come from companion.history through its per-store HistoryCache, always on the
store thread (ctx.in_background); a client keeps only the page or figures it shows."""
