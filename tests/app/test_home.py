"""Home through the headless harness: sessions, paging, navigation, banner, locale."""

from __future__ import annotations

import pytest

from companion.app import locale_detect, shell
from companion.store.base import StoreProblem

from .conftest import ProblemStore, seed
from .harness import AppHarness, FakeClient


def test_home_lists_unfinished_newest_first_and_finished_history(store: ProblemStore) -> None:
    seed(store, unfinished=3, finished=2)
    with AppHarness(store) as app:
        texts = app.visible_texts()
        titles = [t for t in texts if t.startswith("Open game")]
        assert titles == ["Open game 02", "Open game 01", "Open game 00"]
        assert "Continue a game" in texts and "Finished games" in texts
        assert any("Players: Ann, Bo" in t and "Scores: Ann 41, Bo 30" in t
                   and "Winner: Ann" in t for t in texts)
        assert not any(t.startswith("Page ") for t in texts)  # one page: no pager


def test_empty_store_shows_empty_states(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        texts = app.visible_texts()
        assert "No unfinished games." in texts and "No finished games yet." in texts


def test_resume_and_history_are_paged(store: ProblemStore) -> None:
    seed(store, unfinished=12, finished=23)
    with AppHarness(store) as app:
        open_rows = [t for t in app.visible_texts() if t.startswith("Open game")]
        assert open_rows == [f"Open game {i:02d}" for i in (11, 10, 9, 8, 7)]
        assert "Page 1 of 3" in app.visible_texts()  # resume pager
        history = [t for t in app.visible_texts() if "· Village" in t]
        assert len(history) == 10

        def next_buttons() -> list:  # pagers are rebuilt on every turn: find them anew
            return [c for c, _ in app.find_all("Next page")]

        app.dispatch(next_buttons()[0], "click")
        assert [t for t in app.visible_texts() if t.startswith("Open game")] == [
            f"Open game {i:02d}" for i in (6, 5, 4, 3, 2)]
        assert "Page 2 of 3" in app.visible_texts()
        app.dispatch(next_buttons()[0], "click")
        assert [t for t in app.visible_texts() if t.startswith("Open game")] == [
            "Open game 01", "Open game 00"]
        assert next_buttons()[0].disabled

        app.dispatch(next_buttons()[1], "click")
        app.dispatch(next_buttons()[1], "click")
        assert len([t for t in app.visible_texts() if "· Village" in t]) == 3
        assert app.visible_texts().count("Page 3 of 3") == 2
        app.dispatch([c for c, _ in app.find_all("Previous page")][1], "click")
        assert len([t for t in app.visible_texts() if "· Village" in t]) == 10


def test_problems_banner_shows_quarantined_files(store: ProblemStore) -> None:
    store.injected_problems = [
        StoreProblem(path=f"/data/sessions/s{i}.json", moved_to=f"/data/quarantine/s{i}.json",
                     reason="not valid JSON") for i in range(5)]
    with AppHarness(store) as app:
        banner = app.find(identifier="store-problems")
        texts = [t for c, _ in app.walk(banner) for t in app.own_texts(c)]
        assert texts[0] == "Damaged save files were set aside: 5"
        assert "A saved game file could not be read and was set aside: s0.json" in texts
        assert "not valid JSON · s0.json" in texts  # the technical reason, small
        assert "A saved game file could not be read and was set aside: s3.json" not in texts
        assert "…and 2 more" in texts


def test_no_banner_without_problems(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        assert app.find_all(identifier="store-problems") == []


def test_store_failure_is_shown_not_crashed(store: ProblemStore) -> None:
    store.fail_list_sessions = OSError("disk on fire")
    with AppHarness(store) as app:
        assert "Saved games could not be read: disk on fire" in app.visible_texts()


def test_new_game_buttons_open_their_setup_and_back(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        for label, route, shown in [
                ("Village", "/new/village", "Step 1 of 4: Game"),
                ("Village solo (vs. Karla)", "/new/village-solo", "Step 1 of 4: Game"),
                ("Small City", "/new/small-city", "Add a player"),
                ("Feudum", "/new/feudum", "Add a player"),
                ("Villagers", "/new/villagers", "Add a player")]:
            app.click(label)
            assert app.page.views[-1].route == route
            assert app.page.route == route  # the client was told (push_route echoed)
            assert any(shown in t for t in app.visible_texts()), (label, shown)
            app.back()
            assert [v.route for v in app.page.views] == ["/"]


def test_resume_opens_the_village_table_and_keeps_screen_awake(store: ProblemStore) -> None:
    from companion.village.service import VillageService
    from companion.village.setup import PlayerSetup, VillageSetup

    sid, _ = VillageService(store).create(VillageSetup(
        players=[PlayerSetup(name="Ann", colour="red"), PlayerSetup(name="Bo", colour="blue")],
        seed=1))
    with AppHarness(store) as app:
        app.click("Ann, Bo")
        assert [v.route for v in app.page.views] == ["/", f"/play/village/{sid}"]
        assert app.client.wakelock_on
        app.click("Back")
        assert [v.route for v in app.page.views] == ["/"]
        assert not app.client.wakelock_on


def test_deep_link_and_unknown_route(store: ProblemStore) -> None:
    with AppHarness(store, client=FakeClient(initial_route="/settings")) as app:
        assert [v.route for v in app.page.views] == ["/", "/settings"]
        app.set_route("/no/such/screen")
        assert "Not found" in app.visible_texts()
        app.set_route("/")  # browser back
        assert [v.route for v in app.page.views] == ["/"]


def test_home_refreshes_when_shown_again(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        assert "No unfinished games." in app.visible_texts()
        app.click("Settings")
        store.create("later", "feudum", "Saved meanwhile", {})
        app.back()
        assert "Saved meanwhile" in app.visible_texts()


def test_first_language_follows_device_locale(store: ProblemStore) -> None:
    cases = {("ko-KR",): "게임 이어하기", ("de-AT",): "Partie fortsetzen",
             ("zh-TW",): "繼續遊戲", ("fr-FR", "de-DE"): "Partie fortsetzen",
             ("fr-FR",): "Continue a game"}
    for locales, heading in cases.items():
        with AppHarness(store, client=FakeClient(locales=locales)) as app:
            assert heading in app.visible_texts(), locales


def test_silent_client_gets_english(store: ProblemStore,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(locale_detect, "DETECT_TIMEOUT_S", 0.3)
    client = FakeClient(locales=("ko-KR",), unanswered={"get_device_info"})
    with AppHarness(store, client=client) as app:
        assert "Continue a game" in app.visible_texts()


def test_slow_client_switches_language_after_first_render(store: ProblemStore,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    monkeypatch.setattr(shell, "FIRST_RENDER_WAIT_S", 0.1)
    client = FakeClient(locales=("zh-TW",), delays={"get_device_info": 0.5})
    with AppHarness(store, client=client) as app:
        assert "繼續遊戲" in app.visible_texts()  # harness waited for the late answer
        assert app.page.title == "村莊遊戲助手"


def test_touch_targets_are_at_least_48px(store: ProblemStore) -> None:
    import flet as ft

    seed(store, unfinished=6)
    with AppHarness(store) as app:
        sized = [c for c, _ in app.walk(app.page.views[-1])
                 if isinstance(c, ft.IconButton | ft.FilledButton | ft.OutlinedButton)]
        assert sized
        for control in sized:
            assert (control.height or 0) >= 48, control


def test_device_locale_change_is_followed_until_user_picks(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        app.dispatch(app.page, "locale_change", {"locales": [{"language_code": "de",
                                                              "country_code": "CH"}]})
        assert "Partie fortsetzen" in app.visible_texts()
        app.click("Einstellungen")
        app.select_radio("English")
        app.dispatch(app.page, "locale_change", {"locales": [{"language_code": "ko"}]})
        assert "Language" in app.visible_texts()  # the user's choice wins
