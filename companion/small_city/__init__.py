"""Small City (2-4 players, 8 rounds): in-game helpers and the end-of-game sheet."""
