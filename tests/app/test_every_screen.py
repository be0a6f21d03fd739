"""Every screen of the tour (screen_tour.py), in every language: each tap target is at
least 48 px and each icon-only control is named (measured on the English screens: sizes
do not depend on the language), and no English text reaches a 한국어, Deutsch or 繁體中文
screen (issue 13)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.app.village.hub import HUB

from .harness import AppHarness
from .screen_tour import TOURS
from .tap_targets import tap_target_problems
from .test_no_english import LANGUAGES, english_in


@pytest.fixture(autouse=True)
def _forget_sessions() -> Iterator[None]:
    yield
    HUB._open.clear()  # each tour opens its own games


@pytest.mark.parametrize("tour", sorted(TOURS))
def test_every_tap_target_is_48_px_and_named(tour: str) -> None:
    problems: list[str] = []
    seen: list[str] = []

    def look(app: AppHarness, where: str) -> None:
        seen.append(where)
        problems.extend(f"{where}: {p}" for p in tap_target_problems(app))

    TOURS[tour]("en", look)
    assert seen
    assert not problems, "\n".join(dict.fromkeys(problems))


# The wizard's tour in 한국어, Deutsch and 繁體中文 is test_no_english.py's own walk
# (visit_everything: the same walk_wizard, the same english_in check): not run twice.
@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize("tour", sorted(set(TOURS) - {"wizard"}))
def test_no_english_reaches_the_screen(tour: str, lang: str) -> None:
    problems: list[str] = []
    seen: list[str] = []

    def look(app: AppHarness, where: str) -> None:
        seen.append(where)
        problems.extend(f"{where}: {p}" for p in english_in(lang, app.visible_texts()))

    TOURS[tour](lang, look)
    assert seen
    assert not problems, "\n".join(dict.fromkeys(problems))
