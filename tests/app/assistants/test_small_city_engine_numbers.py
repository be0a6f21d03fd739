"""Small City's voting helper shows the rules' own votes per residence: a house rule
swapped into `voting.residence_votes` changes every chip and the total on screen."""

from __future__ import annotations

import pytest

from companion.small_city import voting

from ..conftest import ProblemStore
from ..harness import AppHarness
from .helpers import start, tap, texts_in


def test_residence_chips_show_the_rules_votes(store: ProblemStore,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    with AppHarness(store) as app:
        start(app, "Small City", "Ann", "Bo")
        tap(app, "phase-5")
        tap(app, "residence-3")
        assert "3 » 6" in app.visible_texts()  # 1 + 2 + 3
        monkeypatch.setattr(voting, "residence_votes", lambda n: n * n)  # a house rule
        tap(app, "residence-4")
        texts = app.visible_texts()
        assert "3 » 9" in texts and "4 » 16" in texts
        assert texts_in(app, "vote-total") == ["= 25 votes"]
