"""An assistant's game released from memory between its open and its subscribe (the
hub drops games nobody listens to) is opened again, not left on a dead copy."""

from __future__ import annotations

from typing import Any

import pytest

from companion.app.assistants.controller import TallyController

from ..conftest import ProblemStore
from ..harness import AppHarness
from .helpers import start


def test_a_release_racing_the_open_opens_again(store: ProblemStore,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter([False])  # the first subscribe finds the game released
    calls: list[bool] = []
    real = TallyController.subscribe

    def subscribe(self: TallyController, on_change: Any) -> bool:
        ok = next(answers, None)
        result = real(self, on_change) if ok is None else ok
        calls.append(result)
        return result

    monkeypatch.setattr(TallyController, "subscribe", subscribe)
    with AppHarness(store) as app:
        start(app, "Villagers", "Ann", "Bo")
        assert calls == [False, True]
        app.click("Increase Food")  # the screen works on the game it listens to
        assert "Ann: draft 3 · build 2" in app.visible_texts()
