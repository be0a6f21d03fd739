"""The shell's screens. Game screens live elsewhere and are registered in `routes.py`."""
