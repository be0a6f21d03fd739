"""State machines for the scoring assistants (Small City, Feudum, Villagers): hypothesis
chooses every edit (valid or not), undo, redo and finish, so a failure shrinks to a short
sequence of edits.

Invariants, checked after every step:
- a refused edit changes nothing (state, log, redo stack), and names its fields;
- `prepare` alone changes nothing; an accepted edit clears the redo stack;
- undo then redo gives the same state and log (redo re-applies the recorded event);
- replaying the log (and redo stack) from scratch gives the live state;
- the log and the redo stack are what a simple model of them says;
- the final sheet is computable, or refused with named fields (never while finished).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from companion.tally.errors import EditRejected
from companion.tally.session import TallySession
from tests.hypothesis_budget import DERANDOMIZED, examples, long_examples

from .helpers import new
from .test_properties import FEUDUM, PLAYERS, SMALL_CITY, VILLAGERS


def _view(session: TallySession[Any]) -> tuple[Any, ...]:
    return session.state, session.events, session.redo_stack, session.finished


class TallyMachine(RuleBasedStateMachine):
    game = ""
    edits: st.SearchStrategy[dict[str, Any]] = st.nothing()

    session: TallySession[Any]
    log: list[dict[str, Any]]  # the model: edits in the log, and the redo stack
    redo_model: list[dict[str, Any]]

    @initialize(seed=st.integers(0, 2**16), players=st.integers(2, len(PLAYERS)))
    def start(self, seed: int, players: int) -> None:
        self.session = new(self.game, *PLAYERS[:players], seed=seed)
        self.log, self.redo_model = [], []

    def _try(self, raw: dict[str, Any]) -> None:
        before = _view(self.session)
        try:
            pending = self.session.prepare(self.session.read_edit(raw))
        except EditRejected as exc:
            assert exc.fields and all(exc.fields), exc
            assert _view(self.session) == before  # a refused edit changes nothing
            return
        assert _view(self.session) == before  # prepare alone changes nothing
        self.session.commit(pending)
        self.log.append(pending.event)
        self.redo_model = []

    @rule(data=st.data())
    def edit(self, data: st.DataObject) -> None:
        self._try(data.draw(self.edits))

    @rule()
    def finish(self) -> None:
        self._try({"type": "finish"})

    @rule()
    def undo(self) -> None:
        assert self.session.undo() == bool(self.log)
        if self.log:
            self.redo_model.insert(0, self.log.pop())

    @rule()
    def redo(self) -> None:
        assert self.session.redo() == bool(self.redo_model)
        if self.redo_model:
            self.log.append(self.redo_model.pop(0))

    @rule(back=st.integers(1, 6))
    def undo_then_redo(self, back: int) -> None:
        before = _view(self.session)
        undone = sum(self.session.undo() for _ in range(back))
        assert undone == min(back, len(self.log))
        for _ in range(undone):
            assert self.session.redo()
        assert _view(self.session) == before

    @invariant()
    def log_matches_the_model(self) -> None:
        assert self.session.events == self.log
        assert self.session.redo_stack == self.redo_model

    @invariant()
    def replaying_the_log_gives_the_live_state(self) -> None:
        s = self.session
        replayed = TallySession(s.rules, s.setup, s.events, s.redo_stack)
        assert _view(replayed) == _view(s)

    @invariant()
    def sheet_is_computable_or_names_a_field(self) -> None:
        try:
            self.session.sheet()
        except EditRejected as exc:
            assert not self.session.finished, "a finished game has no sheet"
            assert exc.fields and all(exc.fields), exc


class SmallCity(TallyMachine):
    game = "small-city"
    edits = SMALL_CITY


class Feudum(TallyMachine):
    game = "feudum"
    edits = FEUDUM


class Villagers(TallyMachine):
    game = "villagers"
    edits = VILLAGERS


# Cheap: a fifth of the profile's examples (8 in "dev", 40 random ones in "ci"), 40 steps
# each; the `slow` twin below replays the 200 derandomized machines "ci" used to run.
MACHINE = settings(max_examples=examples(0.2, minimum=5), stateful_step_count=40)
TestSmallCity = SmallCity.TestCase
TestSmallCity.settings = MACHINE
TestFeudum = Feudum.TestCase
TestFeudum.settings = MACHINE
TestVillagers = Villagers.TestCase
TestVillagers.settings = MACHINE


_LONG = settings(DERANDOMIZED, max_examples=long_examples(0.2), stateful_step_count=40)


@pytest.mark.slow
@pytest.mark.parametrize("machine", [SmallCity, Feudum, Villagers], ids=lambda m: m.game)
def test_every_sheet_machine_long(machine: type[TallyMachine]) -> None:
    run_state_machine_as_test(machine, settings=_LONG)
