"""Property tests: random solo games against Karla, played to the end by the random player
in both variants (standard, d4) and both cube policies (ask, auto).

The number of games per variant/policy pair is a quarter of the hypothesis profile's
max_examples (tests/conftest.py: 10 in "dev", 50 random ones in "ci"); VILLAGE_SOLO_EXAMPLES,
when set, overrides it. The `slow` twin replays the 250 derandomized games per pair that CI
used to play on every run.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.village.autoplay import play_step
from companion.village.session import KarlaPolicy, VillageSession
from tests.hypothesis_budget import DERANDOMIZED, examples, long_examples
from tests.village import invariants as shared
from tests.village_solo.helpers import check_invariants, solo_setup

EXAMPLES = examples(0.25, env="VILLAGE_SOLO_EXAMPLES")
MAX_STEPS = 5000


def _check(session: VillageSession) -> None:
    check_invariants(session.state, session.comp)
    shared.check_invariants(session.state, session.comp)


def _undo_redo_identity(session: VillageSession, back: int) -> None:
    state = session.state.model_copy(deep=True)
    events = [dict(e) for e in session.events]
    undone = 0
    for _ in range(back):
        if session.undo():
            undone += 1
            _check(session)
    assert undone == min(back, events[-1]["group"])
    for _ in range(undone):
        assert session.redo()
    assert not session.can_redo()
    assert session.state == state
    assert session.events == events  # the very same events: nothing is re-rolled


def random_solo_game_to_the_end(variant: str, policy: KarlaPolicy, seed: int,
                                cut: float, back: int) -> None:
    setup = solo_setup(variant, seed)
    session = VillageSession.new(setup, karla_policy=policy,
                                 clock=lambda: "2026-01-01T00:00:00+00:00")
    rng = random.Random(seed)
    _check(session)
    # Somewhere in the game (the first ~200 steps), undo/redo must be an identity and the
    # game must go on from there.
    cut_step = int(cut * 200)
    steps = 0
    while play_step(session, rng) is not None:  # raises if no command is accepted
        steps += 1
        assert steps < MAX_STEPS, "the game does not end"
        _check(session)
        if steps == cut_step:
            _undo_redo_identity(session, back)
    st_ = session.state
    assert st_.phase == "finished"
    assert st_.end is not None and st_.end.mass_held
    assert st_.karla is not None
    if policy == "auto":
        # The app answered every cube choice itself: the log holds its answers.
        assert not any(p.kind == "karla_cube" for p in st_.pending)
    # Every event (Karla's draws and fate flips included) keeps the invariants.
    assert shared.check_every_event(session) == st_
    # Replay identity: a new session folded from the log equals the live state.
    replayed = VillageSession(setup, session.comp, session.events)
    assert replayed.state == st_
    _undo_redo_identity(session, back)


_QUIET = [HealthCheck.too_slow, HealthCheck.differing_executors]
GAMES = given(seed=st.integers(0, 2**31 - 1), cut=st.floats(0.0, 1.0), back=st.integers(1, 8))
PAIRS = [pytest.mark.parametrize("policy", ["ask", "auto"]),
         pytest.mark.parametrize("variant", ["standard", "d4"])]


def _pairs(test: Any) -> Any:
    for mark in PAIRS:
        test = mark(test)
    return test


# In CI: a random run (a new seed every run, printed).
test_random_solo_game_to_the_end = _pairs(settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=_QUIET)(
    GAMES(random_solo_game_to_the_end)))
# Behind `slow`: the long derandomized run (the same 250 games per pair every time).
test_random_solo_game_to_the_end_long = pytest.mark.slow(_pairs(settings(
    DERANDOMIZED, max_examples=long_examples(0.25), deadline=None,
    suppress_health_check=_QUIET)(GAMES(random_solo_game_to_the_end))))
