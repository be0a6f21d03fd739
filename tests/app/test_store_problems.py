"""What the redesigned store reports reaches the player, headless and on a real TinyDBStore:
set-aside files on Home (in the player's language, with Export and Delete), a read-only
data folder, a game another window saved to first, and a game its engine cannot fold."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import flet as ft
import pytest
from flet.controls.base_control import BaseControl

from companion.app.assistants.hub import HUB as TALLY_HUB
from companion.app.views.home import EXPORT_PREVIEW_CHARS
from companion.app.village.hub import HUB as VILLAGE_HUB
from companion.store.tinydb_store import TinyDBStore
from companion.tally.service import TallyService
from companion.village.commands import TakeCube
from companion.village.service import VillageService
from companion.village.setup import PlayerSetup, VillageSetup

from .harness import AppHarness, FakeClient
from .village_table.conftest import open_dialogs, tap, texts_under
from .village_table.test_table import cube_id_in

STALE_TOAST = ("This game was changed in another window or on another device (1 save). It "
               "was reloaded: your last tap was not saved — do it again if still needed.")


@pytest.fixture(autouse=True)
def fresh_hubs() -> Iterator[None]:
    yield
    VILLAGE_HUB._open.clear()
    TALLY_HUB._open.clear()


@pytest.fixture
def disk(tmp_path: Path) -> TinyDBStore:
    return TinyDBStore(tmp_path)


def village_game(store: TinyDBStore) -> str:
    setup = VillageSetup(players=[PlayerSetup(name="Ann", colour="red"),
                                  PlayerSetup(name="Bo", colour="blue")], seed=1)
    session_id, _ = VillageService(store).create(setup)
    return session_id


def damage_setup(store: TinyDBStore, session_id: str, **setup: Any) -> bytes:
    """Rewrite the game's file with a setup its engine refuses; returns the new bytes."""
    path = store.sessions_dir / f"{session_id}.json"
    tables = json.loads(path.read_bytes())
    meta = next(iter(tables["meta"].values()))
    meta["header"]["setup"].update(setup)
    raw = json.dumps(tables).encode("utf-8")
    path.write_bytes(raw)
    return raw


def damage_settings(root: Path) -> None:
    """A settings file of the right shape with one unreadable document: the language and
    the theme are kept, the rest goes back to its default."""
    (root / "settings.json").write_text(json.dumps({"settings": {
        "1": {"key": "app.language", "value": "en"},
        "2": {"key": "app.theme", "value": "dark"},
        "3": {"oops": "no key"},
    }}), "utf-8")


def quarantined(root: Path) -> list[Path]:
    folder = root / "quarantine"
    return sorted(folder.glob("*.corrupt")) if folder.is_dir() else []


def problem_texts(app: AppHarness) -> list[str]:
    banner = app.find(identifier="store-problems")
    return [t for c, _ in app.walk(banner, visible_only=True) for t in app.own_texts(c)]


def entry_button(app: AppHarness, problem_id: str, label: str) -> BaseControl:
    entry = app.find(identifier=f"problem-{problem_id}")
    hits = [c for c, _ in app.walk(entry, visible_only=True)
            if isinstance(c, ft.OutlinedButton) and c.content == label]
    assert len(hits) == 1, label
    assert (hits[0].height or 0) >= 48  # a tap target
    return hits[0]


def dialog_button(app: AppHarness, label: str) -> BaseControl:
    [dialog] = open_dialogs(app)
    hits = [c for c, _ in app.walk(dialog) if getattr(c, "content", None) == label
            and getattr(c, "on_click", None) is not None]
    assert len(hits) == 1, (label, app.visible_texts())
    return hits[0]


def open_game_and_set_it_aside(root: Path, session_id: str) -> None:
    """Open the damaged game in the app: it is set aside, the screen says so."""
    with AppHarness(TinyDBStore(root),
                    client=FakeClient(initial_route=f"/play/village/{session_id}")) as app:
        assert texts_under(app, "open-failed") == [
            "“Ann, Bo” could not be opened: its saved file is damaged. It was set aside "
            "and is listed on Home, where you can export or delete it."]


# ---- Home: set-aside files -----------------------------------------------------------------
def test_home_lists_a_set_aside_game_and_damaged_settings(tmp_path: Path,
                                                          disk: TinyDBStore) -> None:
    sid = village_game(disk)
    damage_setup(disk, sid, players="not a list")
    open_game_and_set_it_aside(tmp_path, sid)
    damage_settings(tmp_path)
    with AppHarness(TinyDBStore(tmp_path)) as app:
        texts = problem_texts(app)
        assert texts[0] == "Damaged save files were set aside: 2"
        assert ("Settings were damaged: kept 2 settings (Language, Theme), everything else "
                "is back to its default") in texts
        assert "A saved game could not be opened and was set aside: Ann, Bo" in texts
        assert any("ValidationError" in t for t in texts)  # the technical reason, small
        assert texts.count("Export") == 2 and texts.count("Delete") == 2
        assert "No unfinished games." in app.visible_texts()  # it left the list


def test_problem_texts_follow_the_players_language(tmp_path: Path,
                                                   disk: TinyDBStore) -> None:
    sid = village_game(disk)
    damage_setup(disk, sid, players="not a list")
    open_game_and_set_it_aside(tmp_path, sid)
    (tmp_path / "settings.json").write_text(json.dumps({"settings": {
        "1": {"key": "app.language", "value": "de"}, "2": ["torn"]}}), "utf-8")
    with AppHarness(TinyDBStore(tmp_path)) as app:
        texts = problem_texts(app)
        assert ("Die Einstellungen waren beschädigt: 1 Einstellung behalten (Sprache), alles "
                "andere steht wieder auf Standard") in texts
        assert ("Eine gespeicherte Partie ließ sich nicht öffnen und wurde beiseitegelegt: "
                "Ann, Bo") in texts
        assert "Exportieren" in texts and "Löschen" in texts


def test_delete_asks_then_removes_the_quarantined_file(tmp_path: Path,
                                                       disk: TinyDBStore) -> None:
    sid = village_game(disk)
    damage_setup(disk, sid, players="not a list")
    open_game_and_set_it_aside(tmp_path, sid)
    [moved] = quarantined(tmp_path)
    with AppHarness(TinyDBStore(tmp_path)) as app:
        app.dispatch(entry_button(app, moved.name, "Delete"), "click")
        assert "Delete this file for good?" in app.visible_texts()
        app.dispatch(dialog_button(app, "Cancel"), "click")
        assert moved.exists()  # not without the second tap
        app.dispatch(entry_button(app, moved.name, "Delete"), "click")
        app.dispatch(dialog_button(app, "Delete"), "click")
        assert not moved.exists() and quarantined(tmp_path) == []
        assert app.find_all(identifier="store-problems") == []  # Home refreshed
        assert "Deleted." in app.visible_texts()
    assert TinyDBStore(tmp_path).problems() == []


def test_export_hands_over_the_exact_bytes(tmp_path: Path, disk: TinyDBStore) -> None:
    sid = village_game(disk)
    damaged = damage_setup(disk, sid, players="not a list")
    open_game_and_set_it_aside(tmp_path, sid)
    [moved] = quarantined(tmp_path)
    assert moved.read_bytes() == damaged
    with AppHarness(TinyDBStore(tmp_path)) as app:
        app.dispatch(entry_button(app, moved.name, "Export"), "click")
        assert "Export the set-aside file" in app.visible_texts()
        # Selectable in the dialog (a long file: its start; Download gives every byte).
        assert damaged.decode("utf-8")[:EXPORT_PREVIEW_CHARS] in app.visible_texts()
        copy = cast(ft.OutlinedButton, dialog_button(app, "Copy text"))
        assert isinstance(copy.action, ft.CopyToClipboard)  # copied inside the tap
        assert copy.action.data == damaged.decode("utf-8")
        app.dispatch(dialog_button(app, "Download"), "click")
        [call] = app.client.calls("FilePicker", "save_file")
        assert call.args["src_bytes"] == damaged  # exactly the quarantined bytes
        assert call.args["file_name"] == f"{sid}-set-aside.json"
        app.dispatch(dialog_button(app, "Close"), "click")
        assert open_dialogs(app) == []
        assert moved.exists()  # exporting keeps it listed until deleted


# ---- a read-only data folder -------------------------------------------------------------
def test_read_only_store_shows_the_banner_and_refuses_writes_clearly(
        tmp_path: Path, disk: TinyDBStore) -> None:
    sid = village_game(disk)
    store = TinyDBStore(tmp_path)
    store.read_only = "Permission denied (/data/locks/store.lock)"  # writes: ReadOnlyStore
    with AppHarness(store) as app:
        [banner] = [t for c, _ in app.walk(app.find(identifier="read-only-banner"))
                    for t in app.own_texts(c)]
        assert banner == ("Saving is off: the data folder cannot be written (Permission "
                          "denied (/data/locks/store.lock)). You can look at every game.")
        app.click("Ann, Bo")  # every game can still be looked at
        assert texts_under(app, "read-only-note") == [
            "Saving is off: you can look, but nothing is saved."]
        session = VILLAGE_HUB.get(sid).session  # type: ignore[union-attr]
        space = next(s for s, c in session.state.spaces.items() if c and s != "market")
        colour = sorted(session.state.spaces[space])[0]
        tap(app, cube_id_in(session.state.spaces, space, colour))
        assert ("Not saved: the data folder cannot be written, so saving is off. You can "
                "still look at every game.") in app.visible_texts()
        assert not any("Something went wrong" in t for t in app.visible_texts())
    assert TinyDBStore(tmp_path).load(sid).version == 1  # nothing was written


def test_no_read_only_banner_when_saving_works(disk: TinyDBStore) -> None:
    with AppHarness(disk) as app:
        assert app.find_all(identifier="read-only-banner") == []


# ---- another window saved first ----------------------------------------------------------
def first_take(state: Any) -> TakeCube:
    space = next(s for s, c in state.spaces.items() if c and s != "market")
    return TakeCube(space=space,
                    colour=sorted(state.spaces[space], key=lambda c: (c == "plague", c))[0])


def test_a_game_saved_elsewhere_is_reloaded_and_the_next_tap_saved(
        tmp_path: Path, disk: TinyDBStore) -> None:
    sid = village_game(disk)
    with AppHarness(TinyDBStore(tmp_path),
                    client=FakeClient(initial_route=f"/play/village/{sid}")) as app, \
            AppHarness(TinyDBStore(tmp_path),
                       client=FakeClient(initial_route=f"/play/village/{sid}")) as phone:
        opened = VILLAGE_HUB.get(sid)
        assert opened is not None and len(opened.listeners) == 2  # two phones, one copy
        who = opened.session.state.current
        name = opened.session.state.players[who].name
        assert "No cubes" in texts_under(app, f"player-{who}")
        # Another process (its own store and service) records Ann's take first.
        other = VillageService(TinyDBStore(tmp_path))
        elsewhere = other.open(sid)
        take = first_take(elsewhere.state)
        other.execute(sid, elsewhere, take)
        # This phone still shows the old board: its tap is refused by the store.
        ident = cube_id_in(opened.session.state.spaces, take.space, take.colour)
        tap(app, ident)
        phone.settle()
        assert STALE_TOAST in app.visible_texts()
        bodies = [e["body"] for e in TinyDBStore(tmp_path).load(sid).events]
        assert bodies[-1] == take.model_dump(mode="json")
        reloaded = VILLAGE_HUB.get(sid)
        assert reloaded is not None and reloaded is not opened and opened.released
        assert reloaded.generation > opened.generation
        assert len(reloaded.listeners) == 2  # both screens follow the stored game
        for screen in (app, phone):
            assert f"{take.colour} ×1" in texts_under(screen, f"player-{who}")
            assert any(t.startswith(f"{name}: do the") for t in screen.visible_texts())
        version = TinyDBStore(tmp_path).load(sid).version
        tap(app, "undo")  # the next tap is saved
        stored = TinyDBStore(tmp_path).load(sid)
        assert stored.version == version + 1 and stored.events[-1]["body"] != take
        phone.settle()
        assert "No cubes" in texts_under(phone, f"player-{who}")


def test_a_tally_saved_elsewhere_is_reloaded(tmp_path: Path, disk: TinyDBStore) -> None:
    sid, _ = TallyService(disk).create("villagers", ["Ann", "Bo"])
    with AppHarness(TinyDBStore(tmp_path),
                    client=FakeClient(initial_route=f"/play/villagers/{sid}")) as app:
        other = TallyService(TinyDBStore(tmp_path))
        elsewhere = other.open(sid)
        other.apply(sid, elsewhere, elsewhere.read_edit({"type": "set", "player": 0,
                                                         "field": "food",
                    "value": 3}))
        app.click("Increase Food")  # on the old copy: refused, reloaded
        assert STALE_TOAST in app.visible_texts()
        assert [e["edit"]["value"] for e in TinyDBStore(tmp_path).load(sid).events] == [3]
        app.click("Increase Food")  # on the stored game: saved
        assert [e["edit"]["value"] for e in TinyDBStore(tmp_path).load(sid).events] == [3, 4]


# ---- a game its engine cannot fold ---------------------------------------------------------
def test_opening_an_unfoldable_village_game_says_it_was_set_aside(
        tmp_path: Path, disk: TinyDBStore) -> None:
    sid = village_game(disk)
    damage_setup(disk, sid, players="not a list")
    with AppHarness(TinyDBStore(tmp_path),
                    client=FakeClient(initial_route=f"/play/village/{sid}")) as app:
        [message] = texts_under(app, "open-failed")
        assert "set aside" in message and "ValidationError" not in message
        app.click("Back to Home")
        assert [v.route for v in app.page.views] == ["/"]
        assert "A saved game could not be opened and was set aside: Ann, Bo" in \
            problem_texts(app)


def test_opening_an_unfoldable_tally_says_it_was_set_aside(tmp_path: Path,
                                                           disk: TinyDBStore) -> None:
    sid, _ = TallyService(disk).create("villagers", ["Ann", "Bo"])
    damage_setup(disk, sid, players="not a list")
    client = FakeClient(initial_route=f"/play/villagers/{sid}", locales=("ko-KR",))
    with AppHarness(TinyDBStore(tmp_path), client=client) as app:
        [message] = texts_under(app, "open-failed")
        assert message.startswith("“Ann, Bo” 게임을 열 수 없습니다")
        assert "ValidationError" not in message
        app.click("홈으로 돌아가기")
        assert [v.route for v in app.page.views] == ["/"]
        assert "저장된 게임을 열 수 없어 따로 옮겨 두었습니다: Ann, Bo" in problem_texts(app)
    assert len(quarantined(tmp_path)) == 1
