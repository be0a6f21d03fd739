"""Property tests: random valid and invalid command sequences on 2–5 player games.

The example counts come from the hypothesis profile (tests/conftest.py: 40 in "dev", 200
random ones in "ci"); VILLAGE_PROPERTY_EXAMPLES, when set, overrides them. Each property
also has a `slow` twin (`_long`): the same property over the 1,000 derandomized games CI
used to replay on every run. These long games are played by random.Random from a drawn
seed, for speed; the state machine in test_entry_point_fuzz.py lets hypothesis choose each
move, so its failures shrink.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.village.autoplay import candidate_commands
from companion.village.rules.errors import RuleError
from companion.village.session import VillageSession
from companion.village.setup import PlayerSetup, VillageSetup
from tests.hypothesis_budget import DERANDOMIZED, examples, long_examples
from tests.village.invariants import check_every_event, check_invariants

EXAMPLES = examples(env="VILLAGE_PROPERTY_EXAMPLES")
COLOURS = ["red", "yellow", "blue", "white", "purple"]
SPACES = ["harvest", "family", "crafts", "market", "council", "travel", "church", "well"]

# Commands that are often wrong in some way: bad members, spaces, amounts, phases.
NOISE = [
    {"type": "take_cube", "space": "market", "colour": "plague"},
    {"type": "end_turn"},
    {"type": "choose_death", "member": "red-1a"},
    {"type": "mass_buyout", "members": ["blue-2a"]},
    {"type": "mass_advance", "moves": {"red-1a": 4}},
    {"type": "council_privilege", "privilege": {"level": 4}},
    {"type": "market_serve", "slot": 4, "points": 3},
    {"type": "market_pass"},
    {"type": "adjust", "player": 0, "field": "grain", "delta": 9},
    {"type": "adjust", "player": 1, "field": "cubes", "key": "green", "delta": -40},
    {"type": "travel", "member": "yellow-3a", "city": 2, "reward": "coin"},
    {"type": "finish_game"},
    {"type": "free_action"},
    {"type": "karla_choose_cube", "space": "church", "colour": "brown"},
    {"type": "next_start_marker_coin"},
    {"type": "spend_next_start_marker"},  # legacy: stored logs only
]
# Malformed shapes: not an object, unknown or missing type, wrong field types, extra
# fields, out-of-range numbers. Each must be a RuleError naming a field, never a crash.
MALFORMED: list[object] = [
    None, "end_turn", ["end_turn"], 7, {}, {"type": None}, {"type": 3}, {"type": "nope"},
    {"type": "take_cube"}, {"type": "take_cube", "space": 3, "colour": None},
    {"type": "take_cube", "space": "market", "colour": "plague", "extra": 1},
    {"type": "adjust", "player": -1, "field": "coins", "delta": 1},
    {"type": "adjust", "player": 99, "field": "coins", "delta": 1},
    {"type": "adjust", "player": 0, "field": "coins", "delta": "lots"},
    {"type": "adjust", "player": 0, "field": "cities", "key": "²", "delta": 1},
    {"type": "adjust", "player": 0, "field": "cubes", "key": None, "delta": 1},
    {"type": "market_serve", "slot": "x", "points": -2},
    {"type": "mass_advance", "moves": {"red-1a": "high"}}, {"type": "mass_advance", "moves": [1]},
    {"type": "mass_buyout", "members": "red-1a"},
    {"type": "council_enter", "member": 5},
    {"type": "council_enter", "member": "red-1a", "privilege": {"level": 9}},
    {"type": "crafts_train", "building": "smithy", "pay": {"time": 10**9}},
    {"type": "travel", "member": "red-1a", "city": 0},
    {"type": "well", "colour": "green", "coins": -1},
    {"type": "spend_time", "player": 99, "amount": 1},
    {"type": "spend_time", "player": 0, "amount": 10**6},
    {"type": "chance", "draw": "bag", "outcome": {}, "source": "app"},
    {"type": "override_score", "player": 0, "category": "coins"},
    {"type": "choose_death", "member": ["red-1a"]},
]


PLACES = ["supply", "farmyard", "bag", "graveyard", "removed", "workshop:stable",
          "workshop:attic", "council:1", "council:4", "council:5", "church:2", "travel:6",
          "travel:7", "chronicle:farm", "chronicle:travel", "chronicle:well", "karla:side"]


def _correction(session: VillageSession, rng: random.Random) -> dict[str, object]:
    """A random correction: often accepted, sometimes refused; either way every cube,
    member and tile must stay counted."""
    n = len(session.state.players)
    player = rng.randrange(n + 1)  # sometimes no such player
    return rng.choice([
        {"type": "set_time", "player": player, "position": rng.randint(0, 13)},
        {"type": "take_back_time", "player": player, "amount": rng.randint(1, 14)},
        {"type": "add_customer_tile", "player": player, "points": rng.randint(0, 9),
         "slot": rng.choice([None, 0, 1, 2, 3, 4])},
        {"type": "remove_customer_tile", "player": player, "index": rng.randint(0, 2),
         "slot": rng.choice([None, 0, 1, 2, 3, 4])},
        {"type": "set_customer_points", "player": player, "index": rng.randint(0, 2),
         "points": rng.randint(0, 9)},
        {"type": "move_member", "member": rng.choice(sorted(session.state.members)),
         "to": rng.choice(PLACES)},
    ])


def _session(players: int, seed: int) -> VillageSession:
    return VillageSession.new(VillageSetup(
        players=[PlayerSetup(name=f"P{i}", colour=COLOURS[i]) for i in range(players)],
        seed=seed), clock=lambda: "2026-01-01T00:00:00+00:00")


def _drive(session: VillageSession, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if session.state.phase == "finished":
            return
        if rng.random() < 0.2:
            bad = _correction(session, rng) if rng.random() < 0.3 else rng.choice(
                NOISE + MALFORMED)
            before = session.state.model_copy(deep=True)
            try:
                # Wrong on purpose (MALFORMED holds None, strings, lists): refused, not run.
                session.execute(bad)  # type: ignore[arg-type]
            except RuleError as exc:
                assert exc.field and exc.message
                assert session.state == before  # a refused command changes nothing
            check_invariants(session.state, session.comp)
            continue
        for cmd in candidate_commands(session, rng):
            try:
                session.execute(cmd)
            except RuleError:
                continue
            break
        check_invariants(session.state, session.comp)


_QUIET = [HealthCheck.too_slow]


def random_play_keeps_invariants_and_replays(players: int, seed: int, steps: int) -> None:
    session = _session(players, seed)
    check_invariants(session.state, session.comp)
    _drive(session, random.Random(seed), steps)
    # Every event, chance events included, keeps the invariants; and replay identity:
    # the fold of the log is the live state.
    assert check_every_event(session) == session.state
    replayed = VillageSession(session.setup, session.comp, session.events)
    assert replayed.state == session.state


def undo_then_redo_is_identity(players: int, seed: int, steps: int, back: int) -> None:
    session = _session(players, seed)
    _drive(session, random.Random(seed), steps)
    state = session.state.model_copy(deep=True)
    events = [dict(e) for e in session.events]
    undone = 0
    for _ in range(back):
        if session.undo():
            undone += 1
    for _ in range(undone):
        assert session.redo()
    assert session.state == state
    assert session.events == events  # redo re-applies the very same events: no re-roll


def same_setup_seed_and_commands_give_the_same_log(players: int, seed: int,
                                                   steps: int) -> None:
    first = _session(players, seed)
    _drive(first, random.Random(seed), steps)
    commands = [e["body"] for e in first.events
                if e["body"]["type"] != "chance" and e["group"] > 0]
    second = _session(players, seed)
    for body in commands:
        second.execute(body)
    assert second.events == first.events


PLAY = given(players=st.integers(2, 5), seed=st.integers(0, 2**31 - 1),
             steps=st.integers(1, 400))
UNDO = given(players=st.integers(2, 5), seed=st.integers(0, 2**31 - 1),
             steps=st.integers(1, 250), back=st.integers(1, 12))
SAME = given(players=st.integers(2, 5), seed=st.integers(0, 10_000), steps=st.integers(1, 300))

# In CI: a random run of each property (a new seed every run, printed).
test_random_play_keeps_invariants_and_replays = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=_QUIET)(
    PLAY(random_play_keeps_invariants_and_replays))
test_undo_then_redo_is_identity = settings(
    max_examples=max(10, EXAMPLES // 2), deadline=None, suppress_health_check=_QUIET)(
    UNDO(undo_then_redo_is_identity))
test_same_setup_seed_and_commands_give_the_same_log = settings(
    max_examples=max(5, EXAMPLES // 4), deadline=None, suppress_health_check=_QUIET)(
    SAME(same_setup_seed_and_commands_give_the_same_log))

# Behind `slow`: the long derandomized runs (the same 1,000 / 500 / 250 games every time).
test_random_play_keeps_invariants_and_replays_long = pytest.mark.slow(settings(
    DERANDOMIZED, max_examples=long_examples(), deadline=None, suppress_health_check=_QUIET)(
    PLAY(random_play_keeps_invariants_and_replays)))
test_undo_then_redo_is_identity_long = pytest.mark.slow(settings(
    DERANDOMIZED, max_examples=long_examples(0.5), deadline=None,
    suppress_health_check=_QUIET)(UNDO(undo_then_redo_is_identity)))
test_same_setup_seed_and_commands_give_the_same_log_long = pytest.mark.slow(settings(
    DERANDOMIZED, max_examples=long_examples(0.25), deadline=None,
    suppress_health_check=_QUIET)(SAME(same_setup_seed_and_commands_give_the_same_log)))


def test_a_whole_game_ends_in_final_scoring_with_invariants() -> None:
    for players in (2, 3, 4, 5):
        session = _session(players, 100 + players)
        _drive(session, random.Random(players), 6000)
        assert session.state.phase == "finished"
        check_every_event(session)
        assert session.state.end is not None and session.state.end.mass_held


def test_every_malformed_shape_is_a_rule_error_naming_a_field() -> None:
    session = _session(3, 1)
    before = session.state
    for shape in MALFORMED:
        try:
            session.execute(shape)  # type: ignore[arg-type]  # malformed on purpose
        except RuleError as exc:
            assert exc.field and exc.message, shape
        else:
            raise AssertionError(f"accepted {shape!r}")
        assert session.state == before
