"""Marks the top-level locales/ as the package data `companion.locales` (mapped by setup.py,
read through importlib.resources in companion/bundled.py). No code lives here."""
