"""Villagers (1-5 players): draft/build limits, the two market phases, final ranking."""
