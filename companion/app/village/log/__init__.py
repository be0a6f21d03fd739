"""The game's log: what happened, worded from the events, with "go back to here"."""
