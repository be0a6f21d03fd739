"""Pure pieces of the shell: route matching, paging, history summaries, settings parsing."""

from __future__ import annotations

import pytest

from companion.app.paging import page_slice
from companion.app.routes import build_routes
from companion.app.routing import match, normalize
from companion.app.settings import (
    KEY_CUBE_DISPLAY,
    KEY_D4_VARIANT,
    KEY_LANGUAGE,
    KEY_THEME,
    AppSettings,
    CubeDisplay,
    ThemeChoice,
    load_settings,
)
from companion.app.summaries import local_date, summarize
from companion.store.memory import MemoryStore


@pytest.mark.parametrize(("raw", "expected"), [
    ("", "/"), ("/", "/"), ("/settings/", "/settings"), ("settings", "/settings"),
    ("/new/village?x=1", "/new/village"), ("/a#frag", "/a"),
])
def test_normalize(raw: str, expected: str) -> None:
    assert normalize(raw) == expected


def test_match_patterns() -> None:
    assert match("/session/:session_id", "/session/abc") == {"session_id": "abc"}
    assert match("/session/:session_id", "/session") is None
    assert match("/session/:session_id", "/session/a/b") is None
    assert match("/settings", "/settings") == {}
    assert match("/settings", "/other") is None


def test_registry_has_every_new_game_route() -> None:
    routes = build_routes()
    for route in ("/new/village", "/new/village-solo", "/new/small-city", "/new/feudum",
                  "/new/villagers", "/settings", "/"):
        assert route in routes
    assert routes["/"].parent is None
    assert routes["/play/village/:session_id"].keeps_awake


def test_page_slice_clamps_and_counts() -> None:
    items = list(range(23))
    first = page_slice(items, 0, 10)
    assert list(first.items) == list(range(10)) and first.count == 3
    assert not first.has_previous and first.has_next
    last = page_slice(items, 99, 10)
    assert list(last.items) == [20, 21, 22] and last.index == 2 and not last.has_next
    empty = page_slice(list[int](), 3, 10)
    assert empty.count == 1 and empty.index == 0 and list(empty.items) == []
    with pytest.raises(ValueError):
        page_slice(items, 0, 0)


def test_summarize_scoresheet_shape() -> None:
    result = summarize({"players": [{"name": "Ann", "total": 41, "rank": 1},
                                    {"name": "Bo", "total": 12, "eliminated": True}],
                        "winners": ["Ann"]})
    assert result.players == ["Ann", "Bo"]
    assert result.scores == [("Ann", "41"), ("Bo", "—")]
    assert result.winners == ["Ann"]


def test_summarize_flat_shapes() -> None:
    assert summarize({"players": ["A", "B"], "scores": [3, 5], "winner": "B"}).scores == [
        ("A", "3"), ("B", "5")]
    mapped = summarize({"scores": {"A": 3, "B": 5}, "winners": ["A", "B"]})
    assert mapped.players == ["A", "B"] and mapped.winners == ["A", "B"]
    assert summarize({}) == summarize({"players": "garbage", "scores": 7})


def test_local_date_survives_garbage() -> None:
    assert local_date("not a date", "en") == "not a date"
    assert "2026" in local_date("2026-03-01T10:00:00Z", "de_DE")


def test_settings_round_trip_and_bad_values() -> None:
    store = MemoryStore()
    assert load_settings(store) == AppSettings()
    store.set_setting(KEY_LANGUAGE, "ko")
    store.set_setting(KEY_THEME, "dark")
    store.set_setting(KEY_D4_VARIANT, True)
    store.set_setting(KEY_CUBE_DISPLAY, "colour_only")
    loaded = load_settings(store)
    assert (loaded.language, loaded.theme, loaded.d4_variant, loaded.cube_display) == (
        "ko", ThemeChoice.DARK, True, CubeDisplay.COLOUR_ONLY)
    store.set_setting(KEY_LANGUAGE, "klingon")
    store.set_setting(KEY_THEME, 42)
    store.set_setting(KEY_D4_VARIANT, "yes")
    broken = load_settings(store)
    assert (broken.language, broken.theme, broken.d4_variant) == (
        None, ThemeChoice.SYSTEM, False)
