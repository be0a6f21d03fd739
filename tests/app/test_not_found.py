"""A link the app does not have (e.g. an old bookmark) says so and leads back Home."""

from __future__ import annotations

from companion.store.memory import MemoryStore

from .harness import AppHarness, FakeClient


def test_an_unknown_route_shows_not_found_with_a_way_home() -> None:
    with AppHarness(MemoryStore(), client=FakeClient(initial_route="/session/abc")) as app:
        assert app.find_all(identifier="not-found")
        assert any("/session/abc" in text for text in app.visible_texts())
        app.click("Back to Home")
        assert app.find_all(identifier="home-title")
