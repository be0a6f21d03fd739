"""Game-agnostic tally sessions for the scoring assistants (Small City, Feudum, Villagers).

A session is a setup (game id, player names, a seed) plus an append-only log of the edits
people made; its state is the fold of that log through the game's reducer. Pure: no Flet,
no storage library. `service.py` binds a session to a SessionStore.
"""
