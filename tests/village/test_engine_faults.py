"""An engine bug never passes for a refusal (issue 19, point 5).

A rule that refuses raises RuleError; any other exception inside the engine surfaces as
EngineFault. The random-play property tests, the entry-point fuzz and autoplay catch only
RuleError, so with a crash injected into a rule each of them must fail instead of counting
it as one more refused command."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.core.errors import EngineFault
from companion.village import engine
from companion.village.autoplay import play_game
from companion.village.rules.errors import RuleError
from companion.village.session import VillageSession
from companion.village.setup import PlayerSetup, VillageSetup
from tests.village import test_properties
from tests.village_solo import test_solo_properties


def _crash(*_args: Any) -> None:
    raise ZeroDivisionError("injected engine crash")


@pytest.fixture
def crashing_end_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(engine.HANDLERS, "end_turn", _crash)


def _session() -> VillageSession:
    return VillageSession.new(VillageSetup(
        players=[PlayerSetup(name="A", colour="red"), PlayerSetup(name="B", colour="blue")],
        seed=3), clock=lambda: "2026-01-01T00:00:00+00:00")


@pytest.mark.usefixtures("crashing_end_turn")
def test_a_crash_is_an_engine_fault_not_a_refusal() -> None:
    session = _session()
    session.execute({"type": "take_cube", "space": next(iter(session.state.spaces)),
                     "colour": session.state.spaces[next(iter(session.state.spaces))][0]})
    before = session.state.model_copy(deep=True)
    events = list(session.events)
    with pytest.raises(EngineFault) as info:
        session.execute({"type": "end_turn"})
    assert not isinstance(info.value, RuleError)
    assert isinstance(info.value.__cause__, ZeroDivisionError)
    assert session.state == before and session.events == events  # nothing half-applied


@pytest.mark.usefixtures("crashing_end_turn")
def test_autoplay_fails_on_an_engine_crash() -> None:
    with pytest.raises(EngineFault):
        play_game(_session(), random.Random(1))


@pytest.mark.usefixtures("crashing_end_turn")
def test_the_random_play_property_test_fails_on_an_engine_crash() -> None:
    given: Any = test_properties.test_random_play_keeps_invariants_and_replays  # @given's
    inner = given.hypothesis.inner_test
    with pytest.raises(EngineFault):
        inner(players=3, seed=11, steps=200)


@pytest.mark.usefixtures("crashing_end_turn")
def test_the_solo_property_test_fails_on_an_engine_crash() -> None:
    inner = test_solo_properties.test_random_solo_game_to_the_end.hypothesis.inner_test
    with pytest.raises(EngineFault):
        inner(variant="standard", policy="auto", seed=5, cut=0.5, back=2)


@pytest.mark.usefixtures("crashing_end_turn")
def test_the_hypothesis_run_itself_fails_on_an_engine_crash() -> None:
    # Through hypothesis (not only the test body): the failure is reported, not absorbed.
    with pytest.raises(EngineFault):
        test_properties.test_undo_then_redo_is_identity()
