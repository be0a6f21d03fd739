"""Chance events (a die roll) in a tally log.

A roll is either drawn by the app or typed in by a table that rolled physically; the log
records the outcome and where it came from, and replays apply the recorded outcome — a
roll is never re-rolled by undo/redo or by reopening the session.
"""

from __future__ import annotations

import random
from typing import Literal

from companion.core import chance

ChanceSource = Literal["app", "manual"]


def rng_for(game: str, seed: int, seq: int, draw: str) -> random.Random:
    """Seeded by the session seed and the log position: the same log draws the same."""
    return chance.rng_for(f"tally:{game}", seed, seq, draw)  # "tally:<game>:<seed>:..."
