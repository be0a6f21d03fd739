"""Open Village sessions shared by every client of this process (see shared_sessions).
All engine work and saving runs on the store's single worker thread (off the event loop,
one command at a time)."""

from __future__ import annotations

from companion.app.shared_sessions import OpenShared, SharedSessions
from companion.history.library import keep_in_step
from companion.store.base import SessionStore
from companion.village.service import VillageService
from companion.village.session import VillageSession

OpenSession = OpenShared[VillageSession]


def _load(store: SessionStore, session_id: str) -> VillageSession:
    return VillageService(store).open(session_id)


HUB: SharedSessions[VillageSession] = SharedSessions(_load)
keep_in_step(HUB)  # a game deleted or abandoned from Home or History is dropped from it
