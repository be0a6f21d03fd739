"""The history screens (issue 14) through the headless harness: History (filters, search,
paging, opening a game), Statistics (table values = companion.history.stats, merging
names), Backups (export -> import round trip, refused files) and "Log in BG Stats"."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, cast
from urllib.parse import parse_qs, urlparse

import flet as ft
import pytest
from flet.controls.base_control import BaseControl

from companion.app.history.screen import ANY_PLAYER
from companion.history.names import MERGE_SETTING
from companion.history.records import build_records
from companion.history.stats import compute_stats
from companion.store.memory import MemoryStore
from companion.store.tinydb_store import TinyDBStore
from tests.history.helpers import finished_tally, solo, tally, village

from .conftest import ProblemStore
from .harness import AppHarness, FakeClient
from .tap_targets import tap_target_problems
from .test_no_english import LANGUAGES, english_in


def add(store: MemoryStore | TinyDBStore, sid: str, game: str, summary: dict[str, Any]) -> None:
    store.create(sid, game, sid, {})
    store.update_info(sid, finished=True, summary=summary)


def seed_history(store: MemoryStore | TinyDBStore) -> None:
    add(store, "v1", "village", village(
        {"Ann": 40, "Bo": 30}, day="2024-05-01", minutes=75,
        categories={"Ann": {"travel": 10, "coins": 30}, "Bo": {"travel": 20, "coins": 10}}))
    add(store, "f1", "feudum", tally("feudum", {"Ann": 20, "Cy": 25}, ["Cy"],
                                     day="2024-05-02"))
    add(store, "s1", "village", solo("Zoë", 55, "traveller", day="2024-05-03"))
    add(store, "v2", "village", village({"Ann": 31, "Bo": 45}, day="2024-05-04"))
    store.create("open", "village", "Still playing", {})  # unfinished: never listed


def open_at(store: MemoryStore | TinyDBStore, route: str) -> AppHarness:
    return AppHarness(store, client=FakeClient(initial_route=route))


def tap(app: AppHarness, identifier: str) -> None:
    """A kit chip: the button inside the Semantics that names it."""
    holder = app.find(identifier=identifier)
    app.dispatch(cast(BaseControl, getattr(holder, "content", None)), "click")


def row_titles(app: AppHarness) -> list[str]:
    return [t for t in app.visible_texts() if " · " in t and "2024" in t]


# ---- History -------------------------------------------------------------------------------


def test_home_links_to_history(store: ProblemStore) -> None:
    seed_history(store)
    with AppHarness(store) as app:
        app.click("All finished games, statistics, backups")
        assert app.page.views[-1].route == "/history"
        assert row_titles(app)[0] == "May 4, 2024 · Village"


def test_history_lists_every_game_newest_first_with_results(store: ProblemStore) -> None:
    seed_history(store)
    with open_at(store, "/history") as app:
        texts = app.visible_texts()
        assert "4 finished games" in texts
        assert row_titles(app) == ["May 4, 2024 · Village", "May 3, 2024 · Village",
                                   "May 2, 2024 · Feudum", "May 1, 2024 · Village"]
        assert "Ann 31, Bo 45\nWinner: Bo" in texts
        assert "Zoë 55 vs. Karla\nWon against Karla · Traveller" in texts
        assert "Ann 20, Cy 25\nWinner: Cy" in texts
        assert "75 min\nAnn 40, Bo 30\nWinner: Ann" in texts  # the duration, below
        assert not any("Still playing" in t for t in texts)


def test_history_filters_and_search(store: ProblemStore) -> None:
    seed_history(store)
    with open_at(store, "/history") as app:
        tap(app, "history-game-feudum")
        assert row_titles(app) == ["May 2, 2024 · Feudum"]
        tap(app, "history-game-all")
        tap(app, "history-kind-solo")
        assert row_titles(app) == ["May 3, 2024 · Village"]
        tap(app, "history-kind-multi")
        assert len(row_titles(app)) == 3
        tap(app, "history-kind-all")
        app.type_into("Search by player name", "zoe")  # accents and case do not count
        assert row_titles(app) == ["May 3, 2024 · Village"]
        app.type_into("Search by player name", "")
        picker = cast(ft.Dropdown, app.find("Player", control_type=ft.Dropdown))
        app.set_value(picker, "Ann", event="select")
        assert row_titles(app) == ["May 4, 2024 · Village", "May 2, 2024 · Feudum",
                                   "May 1, 2024 · Village"]
        app.set_value(app.find("Player", control_type=ft.Dropdown), ANY_PLAYER,
                      event="select")
        assert len(row_titles(app)) == 4


def test_history_date_range_and_a_bad_date(store: ProblemStore) -> None:
    seed_history(store)
    with open_at(store, "/history") as app:
        since = cast(ft.TextField, app.find("From", control_type=ft.TextField))
        app.set_value(since, "2024-05-02", event="blur")
        until = cast(ft.TextField, app.find("To", control_type=ft.TextField))
        app.set_value(until, "2024-05-03", event="submit")
        assert row_titles(app) == ["May 3, 2024 · Village", "May 2, 2024 · Feudum"]
        app.set_value(since, "5/2/2024", event="blur")
        since = cast(ft.TextField, app.find("From", control_type=ft.TextField))
        assert since.error == "From: write the date as YYYY-MM-DD, e.g. 2024-05-31"
        assert since.value == "5/2/2024"  # what was typed stays
        assert len(row_titles(app)) == 2  # the last good range still applies


def test_history_is_paged(store: ProblemStore) -> None:
    for i in range(23):
        add(store, f"g{i:02d}", "village", village({"Ann": i, "Bo": 1},
                                                   day=f"2024-03-{1 + i:02d}"))
    with open_at(store, "/history") as app:
        assert len(row_titles(app)) == 10 and "Page 1 of 3" in app.visible_texts()
        assert row_titles(app)[0] == "Mar 23, 2024 · Village"
        app.click("Next page")
        assert "Page 2 of 3" in app.visible_texts()
        assert row_titles(app)[0] == "Mar 13, 2024 · Village"
        history_rows = [c for c, _ in app.find_all(control_type=ft.ListTile)]
        assert len(history_rows) == 10  # the client holds only the page it shows


def test_a_row_opens_the_games_final_sheet_and_the_village_log(store: ProblemStore) -> None:
    seed_history(store)
    fid = finished_tally(store, "villagers", ["Ann", "Bo"])
    with open_at(store, "/history") as app:
        tap(app, "history-game-villagers")
        [tile] = [c for c, _ in app.find_all(control_type=ft.ListTile)]
        app.dispatch(tile, "click")
        assert app.page.views[-1].route == f"/play/villagers/{fid}"
    with open_at(store, "/history") as app:
        tap(app, "history-game-village")
        row = app.find(identifier="history-v1")
        [log] = [c for c, _ in app.walk(row) if isinstance(c, ft.IconButton)
                 and c.tooltip == "Game log"]
        app.dispatch(log, "click")
        assert app.page.views[-1].route == "/play/village/v1/log"


def test_one_game_exports_as_json(store: ProblemStore) -> None:
    seed_history(store)
    with open_at(store, "/history") as app:
        row = app.find(identifier="history-f1")
        [button] = [c for c, _ in app.walk(row) if isinstance(c, ft.IconButton)
                    and c.tooltip == "Export this game as JSON"]
        app.dispatch(button, "click")
        app.click("Download")
        [call] = app.client.calls("FilePicker", "save_file")
        assert call.args["file_name"] == "f1.json"
        game = json.loads(call.args["src_bytes"])
        assert game["format"] == "village-companion-game" and game["id"] == "f1"


# ---- Statistics ----------------------------------------------------------------------------


def _cells(app: AppHarness, identifier: str) -> list[list[str]]:
    table = cast(ft.DataTable, next(c for c, _ in app.walk(app.find(identifier=identifier))
                                    if isinstance(c, ft.DataTable)))
    return [[cast(ft.Text, cell.content).value or "" for cell in row.cells]
            for row in table.rows]


def table_rows(app: AppHarness, identifier: str) -> list[list[str]]:
    """A statistics table's rows: its fixed name column joined to its numbers."""
    names, numbers = _cells(app, f"{identifier}-names"), _cells(app, f"{identifier}-numbers")
    assert len(names) == len(numbers)
    return [n + m for n, m in zip(names, numbers, strict=True)]


def test_stats_table_matches_the_domain_statistics(store: ProblemStore) -> None:
    seed_history(store)
    expected = compute_stats(build_records(store.list_sessions()).records, game="village")
    with open_at(store, "/history/stats") as app:
        assert app.find_all(identifier="chart-plays")  # charts first
        tap(app, "stats-mode-table")
        rows = table_rows(app, "table-players")
        assert [r[0] for r in rows] == [p.name for p in expected.players]
        by_name = {p.name: p for p in expected.players}
        # Worked by hand: Ann 40 (won) then 31 (lost), Bo 30 (lost) then 45 (won), Zoë
        # solo 55, Traveller: won against Karla, counted like any other play.
        # Plays, wins, losses, ties, rate, average, best, longest win streak, now.
        assert rows == [["Ann", "2", "1", "1", "0", "50%", "35.5", "40", "1", "1 lost"],
                        ["Bo", "2", "1", "1", "0", "50%", "37.5", "45", "1", "1 won"],
                        ["Zoë", "1", "1", "0", "0", "100%", "55", "55", "1", "1 won"]]
        assert by_name["Ann"].average_score == 35.5 and by_name["Bo"].win_rate == 0.5
        assert table_rows(app, "table-categories") == [["Ann", "10", "30"],
                                                       ["Bo", "20", "10"]]
        assert table_rows(app, "table-best-categories") == [["Ann", "10", "30"],
                                                            ["Bo", "20", "10"]]
        assert table_rows(app, "table-h2h") == [["Ann – Bo", "2", "1 : 1", "0"]]
        assert table_rows(app, "table-karla") == [
            ["Zoë", "Standard Karla", "Not recorded", "1", "1", "0", "100%", "55", "55"]]
        assert table_rows(app, "table-games") == [
            ["Village · Big Box", "3", "42.5", "75", "Solo: 1 · 2: 2"],
            ["Feudum", "1", "25", "—", "2: 1"]]
        tap(app, "stats-game-feudum")
        assert table_rows(app, "table-players") == [
            ["Ann", "1", "0", "1", "0", "0%", "20", "20", "0", "1 lost"],
            ["Cy", "1", "1", "0", "0", "100%", "25", "25", "1", "1 won"]]


def test_the_name_column_stays_while_the_numbers_scroll(store: ProblemStore) -> None:
    """At 360 px the numbers scroll sideways; the names are outside that scroll."""
    seed_history(store)
    with open_at(store, "/history/stats") as app:
        tap(app, "stats-mode-table")
        for identifier in ("table-players", "table-categories", "table-best-categories",
                           "table-h2h", "table-karla", "table-games"):
            holder = app.find(identifier=identifier)
            row = cast(ft.Row, cast(ft.Semantics, holder).content)
            fixed, scrolling = row.controls
            assert isinstance(fixed, ft.Semantics) and fixed.identifier == \
                f"{identifier}-names"
            assert getattr(fixed, "scroll", None) is None
            assert isinstance(scrolling, ft.Row) and scrolling.scroll == ft.ScrollMode.AUTO
            assert scrolling.expand
            numbers = cast(ft.Semantics, scrolling.controls[0])
            assert numbers.identifier == f"{identifier}-numbers"
            names_table = cast(ft.DataTable, fixed.content)
            numbers_table = cast(ft.DataTable, numbers.content)
            assert len(names_table.columns) == 1 and len(names_table.rows) == len(
                numbers_table.rows)
            # The two halves line up row by row: the same heights.
            for attr in ("heading_row_height", "data_row_min_height", "data_row_max_height"):
                assert getattr(names_table, attr) == getattr(numbers_table, attr), attr
            assert names_table.data_row_min_height == names_table.data_row_max_height
            # A long name is cut with an ellipsis (its tooltip tells it whole); numbers
            # are body-sized.
            name = cast(ft.Text, names_table.rows[0].cells[0].content)
            assert name.width and name.overflow == ft.TextOverflow.ELLIPSIS
            number = cast(ft.Text, numbers_table.rows[0].cells[0].content)
            assert (number.size or 0) >= 16


def test_merging_two_spellings_is_kept_in_the_settings(store: ProblemStore) -> None:
    seed_history(store)
    add(store, "v3", "village", village({"Annie": 50, "Bo": 20}, day="2024-05-05"))
    with open_at(store, "/history/stats") as app:
        tap(app, "stats-mode-table")
        assert [r[0] for r in table_rows(app, "table-players")] == ["Bo", "Ann", "Annie",
                                                                    "Zoë"]
        app.set_value(app.find("Name to merge", control_type=ft.Dropdown), "Annie",
                      event="select")
        app.set_value(app.find("Counts as", control_type=ft.Dropdown), "Ann",
                      event="select")
        app.click("Merge")
        assert store.get_setting(MERGE_SETTING) == {"Annie": "Ann"}
        assert table_rows(app, "table-players")[0] == [
            "Ann", "3", "2", "1", "0", "67%", "40.3", "50", "1", "1 won"]
        assert "Annie counts as Ann" in app.visible_texts()
        app.click("Separate")
        assert store.get_setting(MERGE_SETTING) == {}
        assert [r[:2] for r in table_rows(app, "table-players")][:2] == [["Bo", "3"],
                                                                         ["Ann", "2"]]


def test_stats_of_an_empty_history(store: ProblemStore) -> None:
    with open_at(store, "/history/stats") as app:
        assert ("No finished games yet: statistics appear after the first one."
                in app.visible_texts())


# ---- Backups -------------------------------------------------------------------------------


def picker_of(app: AppHarness) -> BaseControl:
    [picker] = [c for c, _ in app.walk(app.page) if isinstance(c, ft.FilePicker)]
    return picker


def pick(app: AppHarness, name: str, data: bytes) -> None:
    """What the browser sends after ft.PickFiles(with_data=True)."""
    app.dispatch(picker_of(app), "result",
                 {"files": [{"id": 1, "name": name, "size": len(data), "bytes": data}]})


def exported_backup(store: MemoryStore) -> bytes:
    with open_at(store, "/history/backup") as app:
        app.click("Export everything")
        app.click("Download")
        [call] = app.client.calls("FilePicker", "save_file")
        assert call.args["file_name"].startswith("village-companion-backup-")
        return cast(bytes, call.args["src_bytes"])


def seed_playable(store: MemoryStore | TinyDBStore) -> None:
    """Games their engines replay (a backup import replays every game it stores)."""
    from companion.village.service import VillageService
    from companion.village.setup import PlayerSetup, VillageSetup
    from tests.history.helpers import finished_village

    svc = VillageService(store)
    finished_village(svc, ["Ann", "Bo"], seed=1)
    finished_village(svc, ["Zoë"], seed=2, solo_game=True)
    svc.create(VillageSetup(players=[PlayerSetup(name="Al", colour="blue"),
                                     PlayerSetup(name="Di", colour="red")], seed=9))
    finished_tally(store, "villagers", ["Ann", "Bo"])
    finished_tally(store, "small-city", ["Ann", "Bo"])


def test_backup_export_then_import_round_trip(store: ProblemStore) -> None:
    seed_playable(store)
    store.set_setting("app.theme", "dark")
    store.set_setting(MERGE_SETTING, {"Annie": "Ann"})
    data = exported_backup(store)
    other = ProblemStore()
    with open_at(other, "/history/backup") as app:
        pick(app, "backup.json", data)
        report = app.find(identifier="backup-report")
        texts = [c.value for c, _ in app.walk(report) if isinstance(c, ft.Text)]
        assert texts == ["Imported from backup.json:", "New games: 5",
                         "Already here, skipped: 0", "Settings imported: 2"]
        # ... and the same lines are the banner's name for screen readers
        assert any(getattr(c, "label", None) == "\n".join(texts) for c, _ in app.walk(report))
        pick(app, "backup.json", data)  # twice: nothing more
        texts = [c.value for c, _ in app.walk(app.find(identifier="backup-report"))
                 if isinstance(c, ft.Text)]
        assert "New games: 0" in texts and "Already here, skipped: 5" in texts
    assert {i.id for i in other.list_sessions()} == {i.id for i in store.list_sessions()}
    for info in store.list_sessions():
        mine, theirs = store.load(info.id), other.load(info.id)
        assert (theirs.events, theirs.header, theirs.summary) == (
            mine.events, mine.header, mine.summary)
    assert other.get_setting("app.theme") == "dark"
    assert other.get_setting(MERGE_SETTING) == {"Annie": "Ann"}


@pytest.mark.parametrize("lang", ["en", *LANGUAGES])
def test_a_game_that_cannot_be_replayed_is_reported_not_imported(lang: str) -> None:
    """Issue 22.4: the report names the game left out and why, in the player's language;
    the sound games of the same file are imported."""
    source = ProblemStore()
    finished_tally(source, "villagers", ["Ann", "Bo"])
    add(source, "v1", "village", village({"Ann": 40, "Bo": 30}))  # no setup: no replay
    data = exported_backup(source)
    other = ProblemStore()
    client = FakeClient(locales=(LANGUAGES.get(lang, "en-US"),),
                        initial_route="/history/backup")
    with AppHarness(other, client=client) as app:
        pick(app, "backup.json", data)
        report = app.find(identifier="backup-report")
        texts = [c.value for c, _ in app.walk(report) if isinstance(c, ft.Text)]
        [line] = [t for t in texts if "v1" in t]
        assert "KeyError: 'setup'" in line  # the engine's words, as an aside
        if lang != "en":
            assert not english_in(lang, [line.replace("KeyError: 'setup'", "")])
            assert not line.startswith("Not imported")
        if lang == "en":
            assert line == ("Not imported: v1 (Village): this app cannot replay its log "
                            "(KeyError: 'setup')")
            assert "New games: 1" in texts
    assert [i.game for i in other.list_sessions()] == ["villagers"]


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "Not imported: the setting session:abc:prefs belongs to a game that is not "
           "in this backup"),
    ("de", "Nicht importiert: die Einstellung session:abc:prefs gehört zu einer Partie, "
           "die nicht in dieser Sicherung ist"),
    ("en", "Not imported: this is not a backup file: it is nested deeper than 64 levels"),
    ("ko", "가져오지 않음: 백업 파일이 아닙니다: 64단계보다 깊게 중첩되어 있습니다"),
])
def test_a_hostile_backup_is_refused_in_the_players_language(lang: str,
                                                             words: str) -> None:
    store = ProblemStore()
    add(store, "abc", "village", village({"Ann": 40, "Bo": 30}))
    before = store.load("abc")
    if "nested" in words or "중첩" in words:
        data = b"[" * 10_000 + b"]" * 10_000
    else:
        data = json.dumps({"format": "village-companion-backup", "version": 1, "games": [],
                           "settings": {"session:abc:prefs": {"draw_mode": "x"}}}).encode()
    client = FakeClient(locales=(LANGUAGES.get(lang, "en-US"),),
                        initial_route="/history/backup")
    with AppHarness(store, client=client) as app:
        pick(app, "hostile.json", data)
        texts = app.visible_texts()
        assert words in texts, texts
    assert store.load("abc") == before and store.get_setting("session:abc:prefs") is None


def test_a_damaged_or_foreign_file_changes_nothing(store: ProblemStore) -> None:
    seed_history(store)
    before = {i.id for i in store.list_sessions()}
    with open_at(store, "/history/backup") as app:
        pick(app, "notes.json", b'{"format": "something-else", "version": 1}')
        texts = app.visible_texts()
        assert ("Not imported: this is not a Village Companion backup (its format is "
                "something-else)") in texts
        assert "Nothing was changed." in texts
        pick(app, "cut.json", b'{"format": "village-companion-backup", "versi')
        assert any(t.startswith("Not imported: this is not a backup file: it is not "
                                "readable JSON (") for t in app.visible_texts())
        pick(app, "newer.json", b'{"format": "village-companion-backup", "version": 9, '
                                b'"games": []}')
        assert ("Not imported: a newer Village Companion wrote this backup (version 9; "
                "this app reads up to 2): update the app to import it") in app.visible_texts()
    client = FakeClient(locales=("de-DE",), initial_route="/history/backup")
    with AppHarness(store, client=client) as app:
        pick(app, "spiel.json", b'{"format": "village-companion-game", "version": 1}')
        assert ("Nicht importiert: diese Datei enthält eine exportierte Partie, keine "
                "Sicherung von allem") in app.visible_texts()
        assert "Es wurde nichts geändert." in app.visible_texts()
    assert {i.id for i in store.list_sessions()} == before


def test_results_csv_download(store: ProblemStore) -> None:
    seed_history(store)
    with open_at(store, "/history/backup") as app:
        app.click("Results as CSV")
        app.click("Download")
        [call] = app.client.calls("FilePicker", "save_file")
        text = call.args["src_bytes"].decode("utf-8-sig")
        assert text.splitlines()[0].startswith('"game_id","game","date",')
        assert sum(1 for line in text.splitlines() if line.startswith('"v2",')) == 2


# ---- BG Stats ------------------------------------------------------------------------------


def test_log_in_bg_stats_on_a_finished_games_sheet(store: ProblemStore) -> None:
    fid = finished_tally(store, "villagers", ["Ann", "Bo"])
    with open_at(store, f"/play/villagers/{fid}") as app:
        holder = app.find(identifier="bgstats")
        [button] = [c for c, _ in app.walk(holder) if isinstance(c, ft.OutlinedButton)]
        assert button.content == "Log in BG Stats"
        url = cast(ft.Url, button.url)
        assert url.target == ft.UrlTarget.BLANK
        link = urlparse(url.url)
        assert (link.netloc, link.path) == ("app.bgstatsapp.com", "/createPlay.html")
        data = json.loads(parse_qs(link.query)["data"][0])
        assert data["sourcePlayId"] == fid and data["game"]["name"] == "Villagers"
        assert [p["name"] for p in data["players"]] == ["Ann", "Bo"]


def test_log_in_bg_stats_on_a_finished_village_score_sheet(store: ProblemStore) -> None:
    from companion.village.service import VillageService
    from tests.history.helpers import finished_village

    sid = finished_village(VillageService(store), ["Ann", "Bo"], seed=3)
    with open_at(store, f"/play/village/{sid}/score") as app:
        holder = app.find(identifier="bgstats")
        [button] = [c for c, _ in app.walk(holder) if isinstance(c, ft.OutlinedButton)]
        data = json.loads(parse_qs(urlparse(cast(ft.Url, button.url).url).query)["data"][0])
        assert data["game"] == {"name": "Village: Big Box", "sourceGameId": "village-big-box",
                                "highestWins": True, "noPoints": False}
        assert {p["name"] for p in data["players"]} == {"Ann", "Bo"}
        assert {p["role"] for p in data["players"]} == {"blue", "red"}  # their colours
        assert data["playDate"] <= data["playDate"][:10] + " 23:59:59"
        assert "durationMin" in data
        assert sum(p["winner"] for p in data["players"]) >= 1


def test_a_solo_sheet_says_won_or_lost_against_karla_and_logs_it(store: ProblemStore) -> None:
    """The sheet, History and BG Stats say the same result; BG Stats' comments in the
    player's language (German here), Karla and the achievement in the game's words."""
    from companion.history.results import Outcome, solo_outcome
    from companion.village.service import VillageService
    from tests.history.helpers import finished_village

    sid = finished_village(VillageService(store), ["Dana"], seed=5, solo_game=True)
    [record] = build_records(store.list_sessions()).records
    won = solo_outcome(record) is Outcome.WON
    client = FakeClient(locales=(LANGUAGES["de"],), initial_route=f"/play/village/{sid}/score")
    with AppHarness(store, client=client) as app:
        texts = app.visible_texts()
        assert ("Gewonnen gegen Karla" if won else "Verloren gegen Karla") in texts
        assert not any(t.startswith("Sieg:") for t in texts)  # never "Winner: Dana"
        holder = app.find(identifier="bgstats")
        [button] = [c for c, _ in app.walk(holder) if isinstance(c, ft.OutlinedButton)]
        data = json.loads(parse_qs(urlparse(cast(ft.Url, button.url).url).query)["data"][0])
    assert data["players"][0]["winner"] is won and data["players"][0]["role"] == "Blau"
    assert data["comments"].startswith("Solo gegen Karla: " + ("gewonnen" if won
                                                                else "verloren"))
    assert "Karla erhält keine Punkte" in data["comments"] and "Lila" in data["comments"]
    with open_at(store, "/history") as app:
        assert any(("Won against Karla · " if won else "Lost to Karla · ") in t
                   for t in app.visible_texts())


# ---- every language, every tap target ------------------------------------------------------


HISTORY_ROUTES = ("/history", "/history/stats", "/history/backup")


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_history_screens_show_no_english(lang: str) -> None:
    store = ProblemStore()
    seed_history(store)
    for route in HISTORY_ROUTES:
        client = FakeClient(locales=(LANGUAGES[lang],), initial_route=route)
        with AppHarness(store, client=client) as app:
            if route == "/history/stats":
                found = english_in(lang, app.visible_texts())
                tap(app, "stats-mode-table")
            else:
                found = []
            found += english_in(lang, app.visible_texts())
            assert not found, (route, found)


@pytest.mark.parametrize(("lang", "history", "home"), [
    ("en", "Zoë 55 vs. Karla", "Players: Zoë vs. Karla"),
    ("de", "Zoë 55 gegen Karla", "Spieler: Zoë gegen Karla"),
    ("ko", "Zoë 55 대 카를라", "플레이어: Zoë 대 카를라"),
    ("zh_Hant", "Zoë 55 對 卡拉", "玩家：Zoë 對 卡拉"),
])
def test_a_solo_row_names_karla_in_the_readers_language(lang: str, history: str,
                                                         home: str) -> None:
    """Karla is never scored, yet she played: History's and Home's rows name her."""
    store = ProblemStore()
    add(store, "s1", "village", solo("Zoë", 55, "traveller", day="2024-05-03"))
    locales = (LANGUAGES[lang],) if lang in LANGUAGES else ("en-US",)
    for route, expected in (("/history", history), ("/", home)):
        client = FakeClient(locales=locales, initial_route=route)
        with AppHarness(store, client=client) as app:
            assert any(t.startswith(expected) for t in app.visible_texts()), (
                route, app.visible_texts())


def test_history_screens_tap_targets(store: ProblemStore) -> None:
    seed_history(store)
    for route in HISTORY_ROUTES:
        with open_at(store, route) as app:
            assert tap_target_problems(app) == [], route
            if route == "/history/stats":
                tap(app, "stats-mode-table")
                assert tap_target_problems(app) == [], route


def test_the_data_folder_path_for_backups(tmp_path: Path) -> None:
    """Without browser downloads/uploads: save a backup in <data>/backups, copy the file
    into another data folder's backups/, import it there with one tap."""
    first = TinyDBStore(tmp_path / "a")
    seed_playable(first)
    with open_at(first, "/history/backup") as app:
        app.click("Save a backup in the data folder")
        [saved] = list((tmp_path / "a" / "backups").glob("village-companion-backup-*.json"))
        assert any(t == f"Saved: {saved}" for t in app.visible_texts())
    second = TinyDBStore(tmp_path / "b")
    (tmp_path / "b" / "backups").mkdir(parents=True)
    shutil.copy(saved, tmp_path / "b" / "backups" / saved.name)
    with open_at(second, "/history/backup") as app:
        assert saved.name in app.visible_texts()
        assert any(str(tmp_path / "b" / "backups") in t for t in app.visible_texts())
        app.click("Import", control_type=ft.OutlinedButton)
        assert "New games: 5" in app.visible_texts()
    assert {i.id for i in second.list_sessions()} == {i.id for i in first.list_sessions()}


def test_long_histories_draw_at_most_48_points_a_line() -> None:
    from datetime import date, timedelta

    from companion.app.history.charts import MAX_POINTS, buckets

    start = date(2024, 1, 1)
    many = [(start + timedelta(days=n % 336), n % 90) for n in range(3000)]
    starts, [points] = buckets([many])
    assert len(starts) == MAX_POINTS and len(points) == MAX_POINTS
    assert starts[0] == start
    few = [(date(2024, 5, 1), 10), (date(2024, 5, 1), 20), (date(2024, 5, 3), 7)]
    other = [(date(2024, 5, 2), 4)]
    starts, series = buckets([few, other])
    assert starts == [date(2024, 5, 1), date(2024, 5, 2), date(2024, 5, 3)]
    assert series == [[(0, 15.0), (2, 7.0)], [(1, 4.0)]]  # same day: the mean
