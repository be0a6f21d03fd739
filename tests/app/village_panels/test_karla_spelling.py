"""One spelling of Karla per language: a solo game's panels, the table, its log and the
engine's notes in 한국어 say 카를라 (and 卡拉 in 繁體中文), never "Karla"."""

from __future__ import annotations

import pytest

from ..harness import FakeClient
from .conftest import new_game, open_panel

PANELS = ("", "player/0", "player/1", "market", "mass", "chronicle", "log")


@pytest.mark.parametrize(("locale", "karla"), [("ko-KR", "카를라"), ("zh-TW", "卡拉")])
def test_a_solo_game_names_karla_in_the_readers_spelling(locale: str, karla: str) -> None:
    game = new_game(1, solo=True, karla_colour="purple")
    seen = []
    for panel in PANELS:
        with open_panel(game, panel, client=FakeClient(locales=(locale,))) as app:
            texts = app.visible_texts()
        seen += texts
        assert not [t for t in texts if "Karla" in t], (panel, texts)
    assert any(karla in t for t in seen)
