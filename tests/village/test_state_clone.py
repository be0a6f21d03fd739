"""The fast state copy is an exact, independent copy: games played with it are identical."""

from __future__ import annotations

import random

from companion.village.autoplay import play_step
from companion.village.session import VillageSession
from companion.village.setup import PlayerSetup, VillageSetup
from companion.village.state import VillageState


class _DeepCopyState(VillageState):
    def clone(self) -> VillageState:  # the slow, obviously-correct copy
        return self.model_copy(deep=True)


def _play(setup: VillageSetup, slow: bool) -> VillageSession:
    session = VillageSession.new(setup, clock=lambda: "t")
    if slow:
        session.state = _DeepCopyState.model_validate(session.state.model_dump())
    rng = random.Random(setup.seed)
    while play_step(session, rng) is not None:
        pass
    return session


def test_clone_is_equal_and_independent() -> None:
    session = VillageSession.new(VillageSetup(
        players=[PlayerSetup(name="A", colour="red"), PlayerSetup(name="B", colour="blue")]))
    copy = session.state.clone()
    assert copy == session.state and copy is not session.state
    copy.players[0].cubes["green"] = 99
    copy.spaces["market"].append("pink")
    assert session.state.players[0].cubes.get("green") != 99
    assert session.state.spaces["market"] != copy.spaces["market"]


def test_games_with_the_fast_copy_equal_games_with_a_deep_copy() -> None:
    for setup in (VillageSetup(players=[PlayerSetup(name="A", colour="red"),
                                        PlayerSetup(name="B", colour="blue"),
                                        PlayerSetup(name="C", colour="white")], seed=4),
                  VillageSetup(players=[PlayerSetup(name="A", colour="red")], solo=True,
                               karla_colour="blue", karla_variant="d4", seed=5)):
        fast, slow = _play(setup, False), _play(setup, True)
        assert fast.events == slow.events
        assert fast.state.model_dump() == slow.state.model_dump()
        assert fast.state.phase == "finished"
