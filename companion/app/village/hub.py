"""Open Village sessions shared by every client of this process.

Two phones on the same game see one in-memory session: a command from either is applied
once, saved once, and every subscribed client re-renders. All engine work and saving runs
on the store's single worker thread (off the event loop, one command at a time).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.store.base import SessionStore
from companion.village.service import VillageService
from companion.village.session import VillageSession

logger = logging.getLogger(__name__)

Listener = Callable[[], None]


@dataclass
class OpenSession:
    session_id: str
    session: VillageSession
    listeners: list[Listener] = field(default_factory=list)

    def notify(self, but: Listener | None = None) -> None:
        for listener in list(self.listeners):
            if listener is but:
                continue
            try:
                listener()
            except Exception:  # a client that went away must not break the others
                logger.exception("a session listener failed")


class SessionHub:
    def __init__(self) -> None:
        self._open: dict[str, OpenSession] = {}

    def service(self, store: SessionStore) -> VillageService:
        return VillageService(store)

    def get(self, session_id: str) -> OpenSession | None:
        return self._open.get(session_id)

    def open(self, store: SessionStore, session_id: str) -> OpenSession:
        """Store-thread only: load (or reuse) the session."""
        existing = self._open.get(session_id)
        if existing is not None:
            return existing
        opened = OpenSession(session_id, VillageService(store).open(session_id))
        self._open[session_id] = opened
        return opened

    def adopt(self, session_id: str, session: VillageSession) -> OpenSession:
        opened = OpenSession(session_id, session)
        self._open[session_id] = opened
        return opened

    def forget(self, session_id: str) -> None:
        self._open.pop(session_id, None)


HUB = SessionHub()
