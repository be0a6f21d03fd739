"""Every finished game has its game's name in History and on Home, in the player's
language, whatever id an older version stored it under (issue 21.2: the registry of games,
companion/games): a legacy id ("village_solo", "village-solo", "small_city") reads as its
game, filters with it and opens its game's screens; a 2011 game reads "Village (2011)"."""

from __future__ import annotations

from typing import cast

import flet as ft
import pytest
from flet.controls.base_control import BaseControl

from companion.store.memory import MemoryStore
from tests.history.helpers import solo, tally, village

from .harness import AppHarness, FakeClient
from .test_no_english import LANGUAGES


def add(store: MemoryStore, sid: str, game: str, summary: dict[str, object]) -> None:
    store.create(sid, game, sid, {})
    store.update_info(sid, finished=True, summary=summary)


def seed_legacy(store: MemoryStore) -> None:
    add(store, "old-solo", "village_solo", solo("Zoë", 55, "traveller", day="2024-05-05"))
    add(store, "old-solo2", "village-solo", solo("Ann", 41, "traveller", day="2024-05-04"))
    add(store, "old-city", "small_city", tally("small-city", {"Ann": 20, "Bo": 25}, ["Bo"],
                                               day="2024-05-03"))
    add(store, "e2011", "village", village({"Ann": 40, "Bo": 30}, day="2024-05-02",
                                           edition="2011"))
    add(store, "bb", "village", village({"Ann": 31, "Bo": 45}, day="2024-05-01"))


def row_titles(app: AppHarness) -> list[str]:
    return [t for t in app.visible_texts() if " · " in t and "2024" in t]


def tap(app: AppHarness, identifier: str) -> None:
    holder = app.find(identifier=identifier)
    app.dispatch(cast(BaseControl, getattr(holder, "content", None)), "click")


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["May 5, 2024 · Village", "May 4, 2024 · Village", "May 3, 2024 · Small City",
            "May 2, 2024 · Village (2011)", "May 1, 2024 · Village"]),
    ("de", ["05.05.2024 · Village", "04.05.2024 · Village", "03.05.2024 · Small City",
            "02.05.2024 · Village (2011)", "01.05.2024 · Village"]),
    ("ko", ["2024. 5. 5. · 빌리지", "2024. 5. 4. · 빌리지", "2024. 5. 3. · 스몰 시티",
            "2024. 5. 2. · 빌리지 (2011)", "2024. 5. 1. · 빌리지"]),
    ("zh_Hant", ["2024年5月5日 · 村莊", "2024年5月4日 · 村莊", "2024年5月3日 · Small City",
                 "2024年5月2日 · 村莊 (2011)", "2024年5月1日 · 村莊"]),
])
def test_history_names_every_record_legacy_ids_included(lang: str,
                                                        expected: list[str]) -> None:
    store = MemoryStore()
    seed_legacy(store)
    locales = (LANGUAGES[lang],) if lang in LANGUAGES else ("en-US",)
    with AppHarness(store, client=FakeClient(locales=locales, initial_route="/history")) as app:
        assert row_titles(app) == expected
        texts = " ".join(app.visible_texts())
        for raw in ("village_solo", "village-solo", "small_city"):
            assert raw not in texts


def test_a_legacy_record_filters_and_opens_as_its_game() -> None:
    store = MemoryStore()
    seed_legacy(store)
    with AppHarness(store, client=FakeClient(initial_route="/history")) as app:
        tap(app, "history-game-village")
        assert row_titles(app) == ["May 5, 2024 · Village", "May 4, 2024 · Village",
                                   "May 2, 2024 · Village (2011)", "May 1, 2024 · Village"]
        tap(app, "history-edition-2011")
        assert row_titles(app) == ["May 2, 2024 · Village (2011)"]
        tap(app, "history-edition-all")
        row = app.find(identifier="history-old-solo")
        [log] = [c for c, _ in app.walk(row) if isinstance(c, ft.IconButton)
                 and c.tooltip == "Game log"]
        app.dispatch(log, "click")
        assert app.page.views[-1].route == "/play/village/old-solo/log"
    with AppHarness(store, client=FakeClient(initial_route="/history")) as app:
        tap(app, "history-game-small-city")
        assert row_titles(app) == ["May 3, 2024 · Small City"]


def test_home_names_legacy_games_and_opens_them_where_their_game_opens() -> None:
    store = MemoryStore()
    seed_legacy(store)
    store.create("open-solo", "village_solo", "Solo vs Karla: Zoë", {})
    with AppHarness(store) as app:
        texts = app.visible_texts()
        assert "May 5, 2024 · Village" in texts  # the finished legacy game's history row
        assert any(t.startswith("Village · ") for t in texts), texts  # its resume row
        assert not any("village_solo" in t for t in texts)
