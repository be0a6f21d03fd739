"""The three assistants ask before saving a game to history, as Village does, and say
so when the game does not look played to its end."""

from __future__ import annotations

import pytest

from ..conftest import ProblemStore
from ..harness import AppHarness
from .helpers import section, start, tap


@pytest.mark.parametrize(("label", "status"), [
    ("Small City", "Round 1/8"), ("Feudum", "Epoch I"), ("Villagers", "")])
def test_finish_asks_first_and_cancel_saves_nothing(store: ProblemStore, label: str,
                                                    status: str) -> None:
    with AppHarness(store) as app:
        start(app, label, "Ann", "Bo")
        section(app, "final")
        tap(app, "final-finish")
        texts = app.visible_texts()
        assert "Finish the game?" in texts
        early = [t for t in texts if t.startswith("This game does not look played to the end")]
        assert len(early) == 1 and status in early[0], texts  # still at the start
        app.click("Cancel")
        assert not store.list_sessions()[0].finished  # nothing saved to history
        assert "Finish the game?" not in app.visible_texts()

        tap(app, "final-finish")
        app.click("Finish and save")
        assert store.list_sessions()[0].finished
        assert "Finished and saved to history." in app.visible_texts()
