"""A state machine over the event log: hypothesis picks actions, undo, redo, go back,
snapshot and restore; after every step the log and redo stack match a model of groups,
and undo then redo is the identity."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from companion.core.log import Event, EventLog, LogSnapshot
from tests.hypothesis_budget import DERANDOMIZED, examples, long_examples

Group = list[Event]


class LogMachine(RuleBasedStateMachine):
    keyed = True  # Village-style groups (read from the events) or one event per group

    log: EventLog
    done: list[Group]  # the model: groups in the log (index 0 = group 0, maybe empty)
    undone: list[Group]  # the model's redo stack, front first
    saved: tuple[LogSnapshot, list[Group], list[Group]] | None
    counter: int

    @initialize(opening=st.integers(0, 2))
    def start(self, opening: int) -> None:
        self.counter = 0
        zero = [self._event(0) for _ in range(opening)] if self.keyed else []
        self.log = EventLog(zero, group_of=(lambda e: int(e["group"])) if self.keyed
                            else None)
        self.done, self.undone, self.saved = [zero], [], None

    def _event(self, group: int) -> Event:
        self.counter += 1
        return {"group": group, "n": self.counter} if self.keyed else {"n": self.counter}

    @staticmethod
    def _flat(groups: list[Group]) -> list[Event]:
        return [e for g in groups for e in g]

    @rule(size=st.integers(1, 3))
    def act(self, size: int) -> None:
        size = size if self.keyed else 1
        group = [self._event(len(self.done)) for _ in range(size)]
        self.log.record(group)
        self.done.append(group)
        self.undone = []

    @rule()
    def undo(self) -> None:
        undone = self.log.undo()
        assert undone == (len(self.done) > 1)
        if undone:
            self.undone.insert(0, self.done.pop())

    @rule()
    def redo(self) -> None:
        moved = self.log.redo_next()
        if not self.undone:
            assert moved == []
            return
        assert moved == self.undone[0]
        self.done.append(self.undone.pop(0))

    @precondition(lambda self: len(self.done) > 1)
    @rule()
    def undo_then_redo_is_the_identity(self) -> None:
        events, redo = list(self.log.events), list(self.log.redo)
        assert self.log.undo()
        assert self.log.redo_next()
        assert self.log.events == events and self.log.redo == redo

    @rule(data=st.data())
    def go_back(self, data: st.DataObject) -> None:
        target = data.draw(st.integers(0, len(self.done) - 1))
        assert self.log.go_back_to(target) == len(self.done) - 1 - target
        self.undone = self.done[target + 1:] + self.undone
        del self.done[target + 1:]

    @rule()
    def snapshot(self) -> None:
        self.saved = (self.log.snapshot(), list(self.done), list(self.undone))

    @precondition(lambda self: self.saved is not None)
    @rule()
    def restore(self) -> None:
        assert self.saved is not None
        snap, done, undone = self.saved
        self.log.restore(snap)
        self.done, self.undone = list(done), list(undone)

    @invariant()
    def matches_the_model(self) -> None:
        assert self.log.events == self._flat(self.done)
        assert self.log.redo == self._flat(self.undone)
        assert self.log.group == len(self.done) - 1
        assert self.log.can_undo == (len(self.done) > 1)
        assert self.log.can_redo == bool(self.undone)
        assert self.log.next_redo() == (self.undone[0] if self.undone else [])


class PlainLogMachine(LogMachine):
    keyed = False


_SETTINGS: dict[str, Any] = {"max_examples": examples(), "stateful_step_count": 30}
TestKeyedLog = LogMachine.TestCase
TestKeyedLog.settings = settings(**_SETTINGS)
TestPlainLog = PlainLogMachine.TestCase
TestPlainLog.settings = settings(**_SETTINGS)


# Behind `slow`: the long derandomized runs (1,000 machines each, the same every time) that
# the "ci" profile used to make on every run; CI runs the random ones above.
_LONG = settings(DERANDOMIZED, max_examples=long_examples(), stateful_step_count=30)


@pytest.mark.slow
def test_keyed_log_long() -> None:
    run_state_machine_as_test(LogMachine, settings=_LONG)


@pytest.mark.slow
def test_plain_log_long() -> None:
    run_state_machine_as_test(PlainLogMachine, settings=_LONG)
