"""The event log both session kinds keep: groups, undo, redo, go back, snapshot."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.errors import Refused
from companion.core.log import Event, EventLog


def ev(group: int, name: str) -> Event:
    return {"group": group, "body": name}


def keyed(events: list[Event] | None = None, redo: list[Event] | None = None) -> EventLog:
    """Village-style: each event carries its group."""
    return EventLog(events or [], redo or [], group_of=lambda e: int(e["group"]))


def village_log() -> EventLog:
    # group 0 (opening draws), then actions 1..3, action 2 with a chance event
    return keyed([ev(0, "start"), ev(1, "a"), ev(2, "b"), ev(2, "b-draw"), ev(3, "c")])


def names(events: list[Event]) -> list[Any]:
    return [e["body"] for e in events]


def test_groups_are_read_from_the_events_or_are_one_per_event() -> None:
    log = village_log()
    assert log.group == 3 and len(log) == 5 and log.can_undo and not log.can_redo
    plain = EventLog([{"edit": 1}, {"edit": 2}])
    assert plain.group == 2 and [plain.group_at(i) for i in range(2)] == [1, 2]
    assert EventLog().group == 0 and not EventLog().can_undo


def test_undo_moves_the_last_group_to_the_front_of_redo() -> None:
    log = village_log()
    assert log.undo()
    assert names(log.events) == ["start", "a", "b", "b-draw"] and names(log.redo) == ["c"]
    assert log.undo()
    assert names(log.events) == ["start", "a"]
    assert names(log.redo) == ["b", "b-draw", "c"]  # front = the next to redo
    assert log.group == 1


def test_group_zero_is_never_undone() -> None:
    log = keyed([ev(0, "start")])
    assert not log.can_undo and log.undo() is False
    assert names(log.events) == ["start"] and log.redo == []


def test_redo_moves_the_first_group_back_exactly_as_recorded() -> None:
    log = village_log()
    before = list(log.events)
    log.undo()
    log.undo()
    assert names(log.next_redo()) == ["b", "b-draw"]
    moved = log.redo_next()
    assert names(moved) == ["b", "b-draw"] and moved[0] is before[2]
    assert log.redo_next() and log.events == before and log.redo == []
    assert log.redo_next() == [] and log.next_redo() == []


def test_redo_can_take_the_group_as_the_session_re_recorded_it() -> None:
    log = EventLog([{"edit": 1}])
    log.undo()
    log.redo_next([{"edit": 1, "at": "now"}])
    assert log.events == [{"edit": 1, "at": "now"}] and log.redo == []


def test_a_new_action_clears_redo_and_replay_keeps_it() -> None:
    log = village_log()
    log.undo()
    log.record([ev(3, "c-again")], keep_redo=True)  # replaying a stored log: kept
    assert names(log.redo) == ["c"]
    log.record([ev(4, "d"), ev(4, "d-draw")])
    assert log.redo == [] and log.group == 4


def test_go_back_to_undoes_every_later_group() -> None:
    log = village_log()
    events = list(log.events)
    assert log.go_back_to(3) == 0 and log.events == events
    assert log.go_back_to(1) == 2
    assert names(log.events) == ["start", "a"] and log.events + log.redo == events
    assert log.go_back_to(0) == 1 and names(log.events) == ["start"]
    assert log.events + log.redo == events


@pytest.mark.parametrize("group", [-1, 4, True, 1.0, "1", None])
def test_go_back_to_refuses_anything_but_a_group_in_the_log(group: object) -> None:
    log = village_log()
    with pytest.raises(Refused) as info:
        log.go_back_to(group)
    assert info.value.field == "group"
    assert log.group == 3 and log.redo == []


def test_check_group_raises_the_sessions_own_refusal() -> None:
    class Mine(Refused):
        def __init__(self, field: str, message: str, key: str, params: dict[str, Any]) -> None:
            super().__init__(Refused.one(field, message, key, params).problems)

    with pytest.raises(Mine) as info:
        village_log().check_group(9, Mine)
    assert (info.value.key, info.value.params) == ("log.group_range", {"last": 3})
    assert village_log().check_group(2) == 2


def test_through_and_end_of_name_the_kept_prefix() -> None:
    log = village_log()
    assert names(log.through(2)) == ["start", "a", "b", "b-draw"]
    assert log.end_of(0) == 1 and log.end_of(3) == 5
    plain = EventLog([{"n": 1}, {"n": 2}, {"n": 3}])
    assert plain.end_of(1) == 1 and plain.through(2) == [{"n": 1}, {"n": 2}]


def test_snapshot_and_restore_roll_back_any_change() -> None:
    log = village_log()
    log.undo()
    events, redo = list(log.events), list(log.redo)
    snap = log.snapshot()
    log.record([ev(3, "x")])
    log.go_back_to(0)
    log.restore(snap)
    assert log.events == events and log.redo == redo
    log.undo()  # the restored lists are the log's own again, not the snapshot's
    assert snap.events == tuple(events)


def test_one_group_per_event_undo_and_redo() -> None:
    log = EventLog([{"n": 1}, {"n": 2}], [{"n": 3}])
    assert log.undo() and log.events == [{"n": 1}] and log.redo == [{"n": 2}, {"n": 3}]
    assert log.next_redo() == [{"n": 2}]
    assert log.cut_after(0) == 1 and log.events == [] and not log.can_undo
    assert log.undo() is False
