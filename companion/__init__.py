"""Village Companion: a table companion for Village (Big Box) and scoring assistants."""

__version__ = "0.1.0"
