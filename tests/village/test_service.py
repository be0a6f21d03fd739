"""The service saves every accepted action before it returns; resuming gives the same game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.store.tinydb_store import TinyDBStore
from companion.village.autoplay import candidate_commands
from companion.village.rules.errors import RuleError
from companion.village.service import VillageService
from companion.village.setup import PlayerSetup, VillageSetup


def _setup() -> VillageSetup:
    return VillageSetup(players=[PlayerSetup(name="Chris", colour="blue"),
                                 PlayerSetup(name="Julie", colour="yellow"),
                                 PlayerSetup(name="Oliver", colour="red")], seed=3)


def _step(svc: VillageService, sid: str, session, rng: random.Random) -> None:  # type: ignore[no-untyped-def]
    for cmd in candidate_commands(session, rng):
        try:
            svc.execute(sid, session, cmd)
        except RuleError:
            continue
        return


def test_every_action_is_on_disk_when_execute_returns(tmp_path: Path) -> None:
    svc = VillageService(TinyDBStore(tmp_path))
    sid, session = svc.create(_setup())
    rng = random.Random(5)
    for _ in range(60):
        _step(svc, sid, session, rng)
        fresh = VillageService(TinyDBStore(tmp_path)).open(sid)  # another process's view
        assert fresh.state == session.state
        assert fresh.events == session.events


def test_refused_command_saves_nothing(tmp_path: Path) -> None:
    svc = VillageService(TinyDBStore(tmp_path))
    sid, session = svc.create(_setup())
    before = svc.store.load(sid).events
    with pytest.raises(RuleError) as err:
        svc.execute(sid, session, {"type": "take_cube", "space": "well", "colour": "green"})
    assert "space" in str(err.value) or "colour" in str(err.value)
    assert svc.store.load(sid).events == before


def test_undo_redo_survive_a_restart(tmp_path: Path) -> None:
    svc = VillageService(TinyDBStore(tmp_path))
    sid, session = svc.create(_setup())
    rng = random.Random(9)
    for _ in range(30):
        _step(svc, sid, session, rng)
    state = session.state.model_copy(deep=True)
    assert svc.undo(sid, session) and svc.undo(sid, session)
    reopened = VillageService(TinyDBStore(tmp_path)).open(sid)
    assert reopened.state == session.state
    assert reopened.can_redo()
    assert svc.redo(sid, reopened) and svc.redo(sid, reopened)
    assert reopened.state == state


def test_finished_game_lands_in_history_with_scores(tmp_path: Path) -> None:
    svc = VillageService(TinyDBStore(tmp_path))
    sid, session = svc.create(_setup())
    rng = random.Random(2)
    while session.state.phase != "finished":
        _step(svc, sid, session, rng)
    info = next(i for i in svc.store.list_sessions() if i.id == sid)
    assert info.finished and info.game == "village"
    assert set(info.summary["scores"]) == {"Chris", "Julie", "Oliver"}
    assert info.summary["winners"]
