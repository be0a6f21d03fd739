"""The new-game wizard: players, options, and the check of every estimated printed value."""
