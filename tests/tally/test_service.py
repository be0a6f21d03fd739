"""TallyService over a SessionStore: saved before confirmed, history summary, resume."""

from __future__ import annotations

from typing import Any

import pytest

from companion.store.memory import MemoryStore
from companion.tally.errors import EditRejected
from companion.tally.service import NotATallySession, TallyService


class FlakyStore(MemoryStore):
    def __init__(self) -> None:
        super().__init__()
        self.fail: Exception | None = None

    def append(self, session_id: str, events: list[dict[str, Any]],
               **kw: Any) -> int:
        if self.fail:
            raise self.fail
        return super().append(session_id, events, **kw)

    def replace_log(self, session_id: str, events: list[dict[str, Any]],
                    redo: list[dict[str, Any]], **kw: Any) -> int:
        if self.fail:
            raise self.fail
        return super().replace_log(session_id, events, redo, **kw)


def test_create_stores_header_title_and_summary() -> None:
    store = MemoryStore()
    sid, session = TallyService(store).create("small-city", ["Ann", "Bo"], seed=3)
    info = store.list_sessions()[0]
    assert (info.id, info.game, info.title, info.finished) == (sid, "small-city", "Ann, Bo",
                                                               False)
    assert info.summary["players"] == ["Ann", "Bo"] and "date" in info.summary
    assert store.load(sid).header["setup"]["seed"] == 3
    assert session.state.players[1].money == 5


def test_bad_roster_is_refused_before_anything_is_stored() -> None:
    store = MemoryStore()
    with pytest.raises(EditRejected) as caught:
        TallyService(store).create("feudum", ["Ann", "ANN"])
    assert caught.value.fields == ["players[1].name"]
    assert store.list_sessions() == []


def test_every_edit_is_saved_and_reopens_identically() -> None:
    store = MemoryStore()
    svc = TallyService(store)
    sid, session = svc.create("feudum", ["Ann", "Bo"])
    svc.apply(sid, session, session.read_edit({"type": "set", "player": 0, "field": "vp",
                                               "value": 12}))
    svc.apply(sid, session, session.read_edit({"type": "roll", "source": "app"}))
    svc.apply(sid, session, session.read_edit({"type": "journey", "player": 1, "stage": 4,
                                               "position": 1}))
    svc.undo(sid, session)
    reopened = svc.open(sid)
    assert reopened.state == session.state
    assert reopened.redo_stack == session.redo_stack
    svc.redo(sid, reopened)
    assert svc.open(sid).state.players[1].journey_stage == 4


def test_failed_save_leaves_the_session_unchanged() -> None:
    store = FlakyStore()
    svc = TallyService(store)
    sid, session = svc.create("villagers", ["Ann"])
    svc.apply(sid, session, session.read_edit({"type": "set", "player": 0, "field": "money",
                                               "value": 12}))
    store.fail = OSError("disk full")
    with pytest.raises(OSError):
        svc.apply(sid, session, session.read_edit({"type": "set", "player": 0, "field": "money",
                                                   "value": 30}))
    with pytest.raises(OSError):
        svc.undo(sid, session)
    assert session.state.players[0].money == 12 and session.can_undo
    assert not session.can_redo
    assert svc.open(sid).state == session.state


def test_finish_writes_history_and_undo_reopens() -> None:
    store = MemoryStore()
    svc = TallyService(store)
    sid, session = svc.create("villagers", ["Ann", "Bo"])
    svc.apply(sid, session, session.read_edit({"type": "set", "player": 0, "field": "money",
                                               "value": 30}))
    sheet = svc.finish(sid, session)
    assert sheet.winners == ["Ann"]
    info = store.list_sessions()[0]
    assert info.finished
    assert info.summary["scores"] == {"Ann": 30, "Bo": 8}
    assert info.summary["winners"] == ["Ann"]
    assert svc.undo(sid, session)
    info = store.list_sessions()[0]
    assert not info.finished and "scores" not in info.summary
    assert svc.redo(sid, session) and store.list_sessions()[0].finished


def test_eliminated_player_shows_a_dash_in_history() -> None:
    store = MemoryStore()
    svc = TallyService(store)
    sid, session = svc.create("small-city", ["Ann", "Bo"])
    svc.apply(sid, session, session.read_edit({"type": "set", "player": 1, "field": "pollution",
                                               "value": 100}))
    svc.finish(sid, session)
    assert store.list_sessions()[0].summary["scores"] == {"Ann": 0, "Bo": "—"}


def test_other_sessions_are_not_opened_as_tallies() -> None:
    store = MemoryStore()
    store.create("v1", "village", "Village", {"game": "village"})
    with pytest.raises(NotATallySession):
        TallyService(store).open("v1")
