"""Marks the top-level assets/ as the package data `companion.assets` (mapped by setup.py,
read through importlib.resources in companion/bundled.py). No code lives here."""
