"""The setup screen words a refused name by the problem's key, never by its English."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from companion.app.assistants.setups import FeudumSetup
from companion.i18n import Translator
from companion.tally.errors import EditRejected, Problem, problems_from_lines
from companion.tally.setup import checked_setup


class _Ctx:
    def __init__(self, lang: str) -> None:
        self.translator = Translator(lang)
        self.page = SimpleNamespace(update=lambda: None)

    def t(self, msgid: str, **kwargs: Any) -> str:
        return self.translator.t(msgid, **kwargs)


def _shown(lang: str, problems: list[Problem]) -> dict[int, str]:
    screen: Any = object.__new__(FeudumSetup)
    screen.ctx, screen.minimum, screen.maximum = _Ctx(lang), 2, 4
    screen._render = lambda: None
    screen._show_problems(EditRejected(problems))
    return dict(screen.errors)


def test_roster_problems_are_keyed_where_they_are_made() -> None:
    with pytest.raises(EditRejected) as info:
        checked_setup("small-city", ["", "Ann", "Bob", " ann ", "Cy"], 2, 4)
    keyed = info.value.problems
    assert [p.key for p in keyed] == ["tally.player_count", "tally.name_empty",
                                      "tally.name_duplicate"]
    assert keyed[0].params == {"minimum": 2, "maximum": 4, "count": 5}
    assert keyed[2].params == {"other": 1, "name": "ann"}
    # Other lines (pydantic's) are never given a key by their wording.
    assert problems_from_lines(["players[0].name: must not be empty"])[0].key is None


def test_choice_follows_the_key_not_the_english() -> None:
    problems = [Problem("players[0].name", "is blank", "tally.name_empty"),
                Problem("players[1].name", "empty-ish twin", "tally.name_duplicate")]
    assert _shown("en", problems) == {0: "Enter a name", 1: "Another player has this name"}
    assert _shown("ko", problems) == {0: "이름을 입력하세요",
                                      1: "다른 플레이어가 같은 이름을 씁니다"}


def test_unkeyed_name_problem_shows_the_engine_message() -> None:
    assert _shown("en", [Problem("players[0].name", "is too long")]) == {0: "is too long"}
