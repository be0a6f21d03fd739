"""Screens of the scoring assistants (Small City, Feudum, Villagers) over companion.tally."""
