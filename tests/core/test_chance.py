"""The seed strings are part of the stored-game format: they must never change."""

from __future__ import annotations

import random

from companion.core.chance import rng_for, seed_text
from companion.tally.chance import rng_for as tally_rng_for
from companion.village.chance import rng_for as village_rng_for


def _draws(rng: random.Random) -> list[float]:
    return [rng.random() for _ in range(3)]


def test_seed_text_is_namespace_seed_position_draw() -> None:
    assert seed_text("village", 7, 12, "bag") == "village:7:12:bag"


def test_village_seeds_as_it_always_has() -> None:
    assert _draws(village_rng_for(7, 12, "bag")) == _draws(random.Random("village:7:12:bag"))
    assert _draws(village_rng_for(7, 12, "bag")) == _draws(rng_for("village", 7, 12, "bag"))


def test_tally_seeds_as_it_always_has() -> None:
    expected = _draws(random.Random("tally:feudum:7:3:progress_die"))
    assert _draws(tally_rng_for("feudum", 7, 3, "progress_die")) == expected
