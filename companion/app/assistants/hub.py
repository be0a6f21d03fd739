"""Tally sessions (the scoring assistants) shared by every client of this process (see
shared_sessions). Loading and saving run on the store thread."""

from __future__ import annotations

from typing import Any

from companion.app.shared_sessions import OpenShared, SharedSessions
from companion.history.library import keep_in_step
from companion.store.base import SessionStore
from companion.tally.api import TallyService, TallySession

OpenTally = OpenShared[TallySession[Any]]


def _load(store: SessionStore, session_id: str) -> TallySession[Any]:
    return TallyService(store).open(session_id)


HUB: SharedSessions[TallySession[Any]] = SharedSessions(_load)
keep_in_step(HUB)  # a game deleted or abandoned from Home or History is dropped from it
