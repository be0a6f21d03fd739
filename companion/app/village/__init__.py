"""The Village screens: they render the engine's state and dispatch its commands."""
