"""Fixtures for the headless app tests: an in-memory store prefilled with sessions."""

from __future__ import annotations

from typing import Any

import pytest

from companion.store.base import SessionInfo, StoreProblem
from companion.store.memory import MemoryStore


class ProblemStore(MemoryStore):
    """MemoryStore plus injectable quarantine problems and failures."""

    def __init__(self) -> None:
        super().__init__()
        self.injected_problems: list[StoreProblem] = []
        self.fail_list_sessions: Exception | None = None
        self.fail_set_setting: Exception | None = None

    def problems(self) -> list[StoreProblem]:
        return list(self.injected_problems)

    def list_sessions(self) -> list[SessionInfo]:
        if self.fail_list_sessions is not None:
            raise self.fail_list_sessions
        return super().list_sessions()

    def set_setting(self, key: str, value: Any) -> None:
        if self.fail_set_setting is not None:
            raise self.fail_set_setting
        super().set_setting(key, value)


def seed(store: MemoryStore, *, unfinished: int = 0, finished: int = 0,
         game: str = "village") -> None:
    """Sessions created in order, so the last one created is the newest."""
    for i in range(unfinished):
        store.create(f"open-{i:02d}", game, f"Open game {i:02d}", {})
    for i in range(finished):
        sid = f"done-{i:02d}"
        store.create(sid, game, f"Done game {i:02d}", {})
        store.update_info(sid, finished=True, summary={
            "players": [{"name": "Ann", "total": 40 + i, "rank": 1},
                        {"name": "Bo", "total": 30, "rank": 2}],
            "winners": ["Ann"],
        })


@pytest.fixture
def store() -> ProblemStore:
    return ProblemStore()
