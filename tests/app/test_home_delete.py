"""Home: delete an unfinished game (confirmation, then "Deleted … Undo"), and titles
built in the reader's language."""

from __future__ import annotations

from pathlib import Path

from companion.app.kit.message_strip import strip_of
from companion.app.village.hub import HUB
from companion.store.base import StoreProblem
from companion.store.tinydb_store import TinyDBStore
from companion.village.service import VillageService
from companion.village.setup import PlayerSetup, VillageSetup

from .conftest import ProblemStore, seed
from .harness import AppHarness, FakeClient
from .tap_targets import tap_target_problems
from .test_no_english import inside


def tap_delete(app: AppHarness, session_id: str) -> None:
    """The row's delete button (inside the tappable row: tap the button, not the row)."""
    app.dispatch(inside(app.find(identifier=f"delete-{session_id}")), "click")


def _open_titles(app: AppHarness) -> list[str]:
    return [t for t in app.visible_texts() if t.startswith("Open game")]


def test_delete_asks_first_and_cancel_keeps_the_game(store: ProblemStore) -> None:
    seed(store, unfinished=2)
    with AppHarness(store) as app:
        tap_delete(app, "open-01")
        assert "Delete this game?" in app.visible_texts()
        app.click("Cancel")
        assert _open_titles(app) == ["Open game 01", "Open game 00"]
        assert [s.id for s in store.list_sessions()] == ["open-01", "open-00"]


def test_delete_then_undo_restores_the_game_exactly(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path / "data")
    sid, session = VillageService(store).create(VillageSetup(
        players=[PlayerSetup(name="Ann", colour="red"), PlayerSetup(name="Bo", colour="blue")],
        seed=3))
    store.create("other", "feudum", "Cy, Di", {}, summary={"players": ["Cy", "Di"]})
    before = store.load(sid)
    HUB.adopt(sid, session)  # open in another screen: its copy must not outlive the file
    with AppHarness(store) as app:
        assert "Ann, Bo" in app.visible_texts()
        tap_delete(app, sid)
        app.click("Delete")
        assert "Ann, Bo" not in app.visible_texts()  # gone from Home
        assert "Deleted: Ann, Bo" in app.visible_texts()
        # Undo and Close are 48 px buttons (Material's snack bar buttons are 40 px), in
        # the message strip: no snack bar, so the client does not rebuild every view.
        [strip] = app.page.overlay
        assert tap_target_problems(app, strip) == []
        assert app.find_all("Undo") and app.find_all(key="message-close")
        assert app.page._dialogs.controls == []
        assert [s.id for s in store.list_sessions()] == ["other"]  # the index follows
        assert not (tmp_path / "data" / "sessions" / f"{sid}.json").exists()
        assert HUB.get(sid) is None

        app.click("Undo")
        assert "Ann, Bo" in app.visible_texts()
        assert app.toasts() == ["Restored: Ann, Bo"]  # one message on screen at a time
        # Deleted again: the offer with Undo replaces the message, never beside it.
        tap_delete(app, sid)
        app.click("Delete")
        assert app.toasts() == ["Deleted: Ann, Bo"]
        app.click("Undo")
        assert app.toasts() == ["Restored: Ann, Bo"]
    after = store.load(sid)
    assert after == before  # the same log, redo, header and version
    assert {s.id for s in store.list_sessions()} == {sid, "other"}


def test_delete_without_undo_stays_deleted_but_recoverable(store: ProblemStore) -> None:
    seed(store, unfinished=1)
    with AppHarness(store) as app:
        tap_delete(app, "open-00")
        app.click("Delete")
        assert "No unfinished games." in app.visible_texts()
        assert app.toasts() == ["Deleted: Open game 00"]
        assert strip_of(app.page).seconds == 10
    assert store.list_sessions() == []
    trash_id = next(iter(store._trash))
    assert store.restore(trash_id) == "open-00"  # kept in the trash, not destroyed


def test_finished_games_have_no_delete_button(store: ProblemStore) -> None:
    seed(store, unfinished=1, finished=1)
    with AppHarness(store) as app:
        assert app.find_all(identifier="delete-done-00") == []
        assert len(app.find_all(identifier="delete-open-00")) == 1


def test_solo_title_is_built_in_the_readers_language(store: ProblemStore) -> None:
    store.create("solo", "village", "Solo vs Karla: Ann, Karla", {},
                 summary={"players": ["Ann", "Karla"], "solo": True})
    expected = {"en": "Solo vs. Karla: Ann", "ko": "솔로 대 카를라: Ann",
                "de": "Solo gegen Karla: Ann", "zh_Hant": "單人對戰卡拉：Ann"}
    locales = {"en": "en-GB", "ko": "ko-KR", "de": "de-DE", "zh_Hant": "zh-TW"}
    for lang, title in expected.items():
        with AppHarness(store, client=FakeClient(locales=(locales[lang],))) as app:
            texts = app.visible_texts()
            assert title in texts, (lang, texts)
            assert not any("Solo vs Karla" in t for t in texts)


def test_karla_is_spelled_the_korean_way_in_finished_games(store: ProblemStore) -> None:
    store.create("solo", "village", "Solo vs Karla: Ann, Karla", {}, finished=True,
                 summary={"players": ["Ann", "Karla"], "solo": True,
                          "scores": {"Ann": 40, "Karla": 35}, "winners": ["Ann"]})
    with AppHarness(store, client=FakeClient(locales=("ko-KR",))) as app:
        texts = "\n".join(app.visible_texts())
        assert "Ann, 카를라" in texts and "카를라 35" in texts
        assert "Karla" not in texts


def test_a_set_aside_solo_game_is_titled_in_the_readers_language(
        store: ProblemStore) -> None:
    store.injected_problems = [StoreProblem(
        path="/data/sessions/s.json", moved_to="/data/quarantine/s.json.x.corrupt",
        reason="not valid JSON", kind="game", id="s.json.x.corrupt",
        title="Solo vs Karla: Ann, Karla")]
    with AppHarness(store, client=FakeClient(locales=("ko-KR",))) as app:
        texts = "\n".join(app.visible_texts())
        assert "솔로 대 카를라: Ann" in texts and "Karla" not in texts
