"""Tally sessions open in this process, shared by every client showing them.

Two phones on the same game see one in-memory session: an edit from either is saved once
and every subscribed screen re-renders. Loading and saving run on the store thread.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.store.base import SessionStore
from companion.tally.service import TallyService
from companion.tally.session import TallySession

logger = logging.getLogger(__name__)

Listener = Callable[[], None]


@dataclass
class OpenTally:
    session_id: str
    session: TallySession[Any]
    listeners: list[Listener] = field(default_factory=list)

    def notify(self) -> None:
        for listener in list(self.listeners):
            try:
                listener()
            except Exception:  # a client that went away must not break the others
                logger.exception("a tally listener failed")


class TallyHub:
    def __init__(self) -> None:
        self._open: dict[str, OpenTally] = {}

    def open(self, store: SessionStore, session_id: str) -> OpenTally:
        """Store thread only: load the session once, then share it."""
        existing = self._open.get(session_id)
        if existing is not None:
            return existing
        opened = OpenTally(session_id, TallyService(store).open(session_id))
        self._open[session_id] = opened
        return opened

    def adopt(self, session_id: str, session: TallySession[Any]) -> OpenTally:
        opened = OpenTally(session_id, session)
        self._open[session_id] = opened
        return opened


HUB = TallyHub()
