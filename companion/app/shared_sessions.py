"""Sessions open in this process, shared by every client showing them (Village games and
the scoring assistants alike).

Two phones on the same game see one in-memory session: a change from either is applied
once, saved once, and every subscribed screen re-renders. Loading runs on the store's
worker thread; listeners run on the event loop.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

from companion.store.base import SessionStore

if TYPE_CHECKING:
    from companion.app.context import AppContext

logger = logging.getLogger(__name__)

S = TypeVar("S")
Listener = Callable[[], None]


@dataclass
class OpenShared(Generic[S]):
    session_id: str
    session: S
    listeners: list[Listener] = field(default_factory=list)

    def notify(self, but: Listener | None = None) -> None:
        for listener in list(self.listeners):
            if listener is but:
                continue
            try:
                listener()
            except Exception:  # a client that went away must not break the others
                logger.exception("a session listener failed")


class SharedSessions(Generic[S]):
    """The open sessions of one kind, loaded by `load(store, session_id)`."""

    def __init__(self, load: Callable[[SessionStore, str], S]) -> None:
        self._load = load
        self._open: dict[str, OpenShared[S]] = {}

    def get(self, session_id: str) -> OpenShared[S] | None:
        return self._open.get(session_id)

    def open(self, store: SessionStore, session_id: str) -> OpenShared[S]:
        """Store thread only: load the session once, then share it."""
        existing = self._open.get(session_id)
        if existing is not None:
            return existing
        return self.adopt(session_id, self._load(store, session_id))

    def adopt(self, session_id: str, session: S) -> OpenShared[S]:
        """Share a session this process just created."""
        opened = OpenShared(session_id, session)
        self._open[session_id] = opened
        return opened

    def forget(self, session_id: str) -> None:
        self._open.pop(session_id, None)


class SharedHandle(Generic[S]):
    """One screen's handle on a shared session: reading it and hearing of its changes.
    Subclasses add the acting (off the event loop, saved before it is confirmed)."""

    def __init__(self, ctx: AppContext, opened: OpenShared[S]) -> None:
        self.ctx = ctx
        self.opened = opened
        self.busy = False  # a second tap while the first is saving is ignored, not queued
        self._on_change: Listener | None = None

    @property
    def session_id(self) -> str:
        return self.opened.session_id

    @property
    def session(self) -> S:
        return self.opened.session

    def subscribe(self, on_change: Listener) -> None:
        """`on_change` runs (on the event loop) after any client changed this session."""
        self.unsubscribe()
        self._on_change = on_change
        self.opened.listeners.append(on_change)

    def unsubscribe(self) -> None:
        if self._on_change is not None and self._on_change in self.opened.listeners:
            self.opened.listeners.remove(self._on_change)
        self._on_change = None
