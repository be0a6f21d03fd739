"""Home: abandon an unfinished game (confirmation, then "Abandoned … Undo"): the game is
kept, leaves "Continue a game" and is listed in History under "Abandoned" (not as a
finished game, not in the statistics), where Resume brings it back to Home."""

from __future__ import annotations

from pathlib import Path

import flet as ft

from companion.app.kit.message_strip import strip_of
from companion.app.village.hub import HUB
from companion.history.abandon import ABANDONED_KEY, is_abandoned
from companion.store.tinydb_store import TinyDBStore
from companion.village.service import VillageService
from companion.village.setup import PlayerSetup, VillageSetup

from .conftest import ProblemStore, seed
from .harness import AppHarness, FakeClient
from .tap_targets import tap_target_problems
from .test_home_delete import _open_titles
from .test_no_english import LANGUAGES, english_in, inside


def tap_abandon(app: AppHarness, session_id: str) -> None:
    app.dispatch(inside(app.find(identifier=f"abandon-{session_id}")), "click")


def test_abandon_asks_first_and_cancel_keeps_the_game(store: ProblemStore) -> None:
    seed(store, unfinished=2)
    with AppHarness(store) as app:
        tap_abandon(app, "open-01")
        assert "Abandon this game?" in app.visible_texts()
        app.click("Cancel")
        assert _open_titles(app) == ["Open game 01", "Open game 00"]
    assert not any(is_abandoned(i) for i in store.list_sessions())


def test_abandon_then_undo(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path / "data")
    sid, session = VillageService(store).create(VillageSetup(
        players=[PlayerSetup(name="Ann", colour="red"), PlayerSetup(name="Bo", colour="blue")],
        seed=3))
    store.create("other", "feudum", "Cy, Di", {}, summary={"players": ["Cy", "Di"]})
    before = store.load(sid)
    HUB.adopt(sid, session)  # open in another screen: its copy is now behind the file
    with AppHarness(store) as app:
        assert "Ann, Bo" in app.visible_texts()
        tap_abandon(app, sid)
        app.click("Abandon")
        assert "Ann, Bo" not in app.visible_texts()  # off "Continue a game"
        assert "Abandoned: Ann, Bo" in app.visible_texts()
        assert strip_of(app.page).seconds == 10  # the Undo stays 10 s
        assert HUB.get(sid) is None
        kept = store.load(sid)  # kept, not deleted: one write, marked in its summary
        assert (kept.events, kept.header, kept.version) == (before.events, before.header,
                                                            before.version + 1)
        assert is_abandoned(kept)
        assert (tmp_path / "data" / "sessions" / f"{sid}.json").exists()

        app.click("Undo")
        assert "Ann, Bo" in app.visible_texts()
        assert "Back to continue: Ann, Bo" in app.visible_texts()
    with AppHarness(store) as app:  # undoing an abandon is no play (issue 22.8)
        texts = app.visible_texts()
        assert texts.index("Cy, Di") < texts.index("Ann, Bo")
    after = store.load(sid)
    assert ABANDONED_KEY not in after.summary and not is_abandoned(after)
    assert after.events == before.events and after.summary == before.summary


def test_history_lists_abandoned_games_and_resume_brings_them_back(
        store: ProblemStore) -> None:
    seed(store, unfinished=2, finished=1)
    with AppHarness(store) as app:
        tap_abandon(app, "open-00")
        app.click("Abandon")
        assert _open_titles(app) == ["Open game 01"]
        assert app.find_all(identifier="abandon-open-01")
        assert not app.find_all(identifier="abandon-done-00")  # finished: no abandon
    with AppHarness(store, client=FakeClient(initial_route="/history")) as app:
        texts = app.visible_texts()
        assert "1 finished game" in texts  # the abandoned game is not a finished one
        assert "1 abandoned game" in texts
        assert app.find_all(identifier="abandoned-open-00")
        assert not app.find_all(identifier="abandoned-open-01")
        assert not app.find_all(identifier="history-open-00")
        assert tap_target_problems(app) == []
        app.dispatch(inside(app.find(identifier="resume-open-00")), "click")
        assert "Back on Home to continue: Open game 00" in app.visible_texts()
        assert not app.find_all(identifier="abandoned-open-00", visible_only=True)
    with AppHarness(store) as app:  # resuming is no play: the order it had (issue 22.8)
        assert _open_titles(app) == ["Open game 01", "Open game 00"]
    assert not any(is_abandoned(i) for i in store.list_sessions())


def test_statistics_leave_abandoned_games_out(store: ProblemStore) -> None:
    store.create("gone", "feudum", "Zed, Yan", {}, summary={
        "players": ["Zed", "Yan"], ABANDONED_KEY: "2024-05-01T10:00:00.000Z"})
    seed(store, finished=1)
    with AppHarness(store, client=FakeClient(initial_route="/history/stats")) as app:
        texts = "\n".join(app.visible_texts())
        assert "Zed" not in texts and "Ann" in texts


def test_abandon_and_the_abandoned_section_show_no_english(store: ProblemStore) -> None:
    store.create("gone", "feudum", "Zed, Yan", {}, summary={
        "players": ["Zed", "Yan"], ABANDONED_KEY: "2024-05-01T10:00:00.000Z"})
    seed(store, unfinished=1)
    for lang, locale in LANGUAGES.items():
        with AppHarness(store, client=FakeClient(locales=(locale,))) as app:
            tap_abandon(app, "open-00")
            assert not english_in(lang, app.visible_texts()), lang
            buttons = [c for c, _ in app.walk(app.page)
                       if isinstance(c, ft.TextButton | ft.FilledButton)]
            app.dispatch(buttons[-1], "click")  # the dialog's confirm button
            assert not english_in(lang, app.visible_texts()), lang
        with AppHarness(store, client=FakeClient(locales=(locale,),
                                                 initial_route="/history")) as app:
            assert app.find_all(identifier="abandoned-gone")
            assert not english_in(lang, app.visible_texts()), lang
            app.dispatch(inside(app.find(identifier="resume-open-00")), "click")
