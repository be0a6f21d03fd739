"""Seeding for chance events, shared by every game's session.

Every random outcome is drawn from a generator seeded by the game seed and the log
position, so the same log draws the same. The seed string is part of the stored-game
format: a changed string would re-roll every app draw of every saved game and golden log.
"""

from __future__ import annotations

import random


def seed_text(namespace: str, seed: int, seq: int, draw: str) -> str:
    """'<namespace>:<seed>:<seq>:<draw>' — e.g. 'village:7:12:bag' or (a tally's namespace
    names its game) 'tally:feudum:7:3:progress_die'."""
    return f"{namespace}:{seed}:{seq}:{draw}"


def rng_for(namespace: str, seed: int, seq: int, draw: str) -> random.Random:
    return random.Random(seed_text(namespace, seed, seq, draw))
