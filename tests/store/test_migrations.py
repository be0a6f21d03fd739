"""Schema versions: older files are migrated in place, newer ones refused untouched."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.store import session_file as layout
from companion.store.base import UnsupportedSchema
from companion.store.tinydb_store import TinyDBStore


def _schema_on_disk(path: Path) -> int:
    return int(json.loads(path.read_bytes())["meta"]["1"]["schema"])


@pytest.fixture
def v1_store(tmp_path: Path) -> Path:
    store = TinyDBStore(tmp_path)
    store.create("g", "village", "Old game", {"players": ["Ann"]})
    store.append("g", [{"kind": "score", "v": 1}, {"kind": "plague", "v": 2}])
    store.replace_log("g", [{"kind": "score", "v": 1}], [{"kind": "plague", "v": 2}])
    return tmp_path


def test_fake_migration_runs_once_and_is_saved(v1_store: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def rename_kind_to_type(tables: dict[str, Any]) -> dict[str, Any]:
        calls.append(1)
        for name in ("events", "redo"):
            for doc in tables[name].values():
                doc["type"] = doc.pop("kind")
        tables["meta"]["1"]["header"]["format"] = 2
        return tables

    monkeypatch.setattr(layout, "STORE_SCHEMA", 3)
    monkeypatch.setitem(layout.MIGRATIONS, 2, rename_kind_to_type)
    session_file = v1_store / "sessions" / "g.json"
    assert _schema_on_disk(session_file) == 2

    store = TinyDBStore(v1_store)
    loaded = store.load("g")
    assert loaded.events == [{"type": "score", "v": 1}]
    assert loaded.redo == [{"type": "plague", "v": 2}]
    assert loaded.header == {"players": ["Ann"], "format": 2}
    assert _schema_on_disk(session_file) == 3

    TinyDBStore(v1_store).load("g")
    store.append("g", [{"type": "score", "v": 3}])
    assert calls == [1]  # migrated once, then the file is current
    assert store.load("g").events[-1] == {"type": "score", "v": 3}


def test_migrations_chain_in_order(v1_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    order: list[int] = []

    def step(n: int) -> Any:
        def migrate(tables: dict[str, Any]) -> dict[str, Any]:
            order.append(n)
            tables["meta"]["1"]["header"].setdefault("steps", []).append(n)
            return tables
        return migrate

    monkeypatch.setattr(layout, "STORE_SCHEMA", 4)
    monkeypatch.setitem(layout.MIGRATIONS, 2, step(1))
    monkeypatch.setitem(layout.MIGRATIONS, 3, step(2))
    assert TinyDBStore(v1_store).load("g").header["steps"] == [1, 2]
    assert order == [1, 2]
    assert _schema_on_disk(v1_store / "sessions" / "g.json") == 4


def test_missing_migration_step_leaves_file_untouched(v1_store: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(layout, "STORE_SCHEMA", 3)
    session_file = v1_store / "sessions" / "g.json"
    before = session_file.read_bytes()
    with pytest.raises(UnsupportedSchema, match="no migration from store schema 2 to 3"):
        TinyDBStore(v1_store).load("g")
    assert session_file.read_bytes() == before


def test_failing_migration_leaves_file_untouched(v1_store: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(tables: dict[str, Any]) -> dict[str, Any]:
        tables["events"].clear()
        raise RuntimeError("bug in migration")

    monkeypatch.setattr(layout, "STORE_SCHEMA", 3)
    monkeypatch.setitem(layout.MIGRATIONS, 2, broken)
    session_file = v1_store / "sessions" / "g.json"
    before = session_file.read_bytes()
    store = TinyDBStore(v1_store)
    with pytest.raises(RuntimeError, match="bug in migration"):
        store.load("g")
    assert session_file.read_bytes() == before
    monkeypatch.setattr(layout, "STORE_SCHEMA", 2)
    assert store.load("g").events == [{"kind": "score", "v": 1}]  # cache was not mutated


def test_newer_schema_is_refused_untouched(v1_store: Path) -> None:
    session_file = v1_store / "sessions" / "g.json"
    data = json.loads(session_file.read_bytes())
    data["meta"]["1"]["schema"] = 99
    session_file.write_text(json.dumps(data))
    before = session_file.read_bytes()

    store = TinyDBStore(v1_store)
    with pytest.raises(UnsupportedSchema, match="newer") as info:
        store.load("g")
    assert "99" in str(info.value)
    with pytest.raises(UnsupportedSchema):
        store.append("g", [{"kind": "x"}])
    with pytest.raises(UnsupportedSchema):
        store.update_info("g", title="x")
    assert session_file.read_bytes() == before
    assert store.problems() == []  # not corrupt: nothing quarantined
    assert [i.id for i in store.list_sessions()] == ["g"]

    # Even when the index must be rebuilt, the newer file is listed and left alone.
    (v1_store / "index.json").unlink()
    assert [i.title for i in TinyDBStore(v1_store).list_sessions()] == ["Old game"]
    assert session_file.read_bytes() == before


def test_old_layout_is_listed_via_migration_not_quarantined(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A schema-0 file whose meta named the game "game_id": invalid as-is, fine once migrated.
    (tmp_path / "sessions").mkdir()
    session_file = tmp_path / "sessions" / "old.json"
    session_file.write_text(json.dumps({
        "meta": {"1": {"schema": 0, "id": "old", "game_id": "feudum", "title": "T",
                       "created_at": "2024-01-01T00:00:00.000Z", "header": {}}},
        "events": {"1": {"n": 1}}, "redo": {}}))

    def rename_game(tables: dict[str, Any]) -> dict[str, Any]:
        meta = tables["meta"]["1"]
        meta["game"] = meta.pop("game_id")
        return tables

    monkeypatch.setitem(layout.MIGRATIONS, 0, rename_game)
    store = TinyDBStore(tmp_path)  # no index yet: it is rebuilt from the files
    [info] = store.list_sessions()
    assert (info.id, info.game) == ("old", "feudum")
    assert store.problems() == []
    assert _schema_on_disk(session_file) == 0  # listing never writes a session file
    assert store.load("old").events == [{"n": 1}]
    assert _schema_on_disk(session_file) == 2  # its own step, then 1 -> 2


def test_a_data_folder_in_store_schema_1_layout_migrates_on_first_open(tmp_path: Path) -> None:
    """Files exactly as the previous release wrote them: a session file whose meta has no
    version or updated_at, an index without file stamps (and a stale summary: the kill
    between the log and index writes), and the game's preferences and engine in
    settings.json. Everything lists, opens, plays on, and moves into the game file."""
    from companion.store.tinydb_store import TinyDBStore as Store
    from companion.village.service import ENGINE_VERSION, VillageService, engine_key, prefs_key
    from companion.village.setup import PlayerSetup, VillageSetup

    made = tmp_path / "made"
    sid, session = VillageService(Store(made)).create(VillageSetup(
        players=[PlayerSetup(name="Ann", colour="red"), PlayerSetup(name="Bo", colour="blue")],
        seed=4))
    tables = json.loads((made / "sessions" / f"{sid}.json").read_bytes())
    tables.pop("_rev")
    meta = tables["meta"]["1"]
    header = meta["header"]
    header.pop("prefs")
    old_meta = {"schema": 1, "id": sid, "game": "village", "title": meta["title"],
                "created_at": "2026-01-02T10:00:00.000Z", "finished": False,
                "summary": {"players": ["Ann", "Bo"], "round": 1, "phase": "play"},
                "header": header}
    tables["meta"] = {"1": old_meta}
    root = tmp_path / "old"
    (root / "sessions").mkdir(parents=True)
    (root / "sessions" / f"{sid}.json").write_text(json.dumps(tables))
    (root / "index.json").write_text(json.dumps({"sessions": {"1": {
        "id": sid, "game": "village", "title": "stale title",
        "created_at": "2026-01-02T10:00:00.000Z", "updated_at": "2026-01-02T10:00:00.000Z",
        "finished": True, "summary": {}}}}))
    (root / "settings.json").write_text(json.dumps({"settings": {
        "1": {"key": "language", "value": "ko"},
        "2": {"key": prefs_key(sid), "value": {"draw_mode": "manual", "karla_policy": "auto"}},
        "3": {"key": engine_key(sid), "value": ENGINE_VERSION}}}))

    store = Store(root)
    [info] = store.list_sessions()  # the stale entry is repaired from the file itself
    assert (info.title, info.finished) == (meta["title"], False)
    assert store.problems() == []
    svc = VillageService(store)
    game = svc.open(sid)
    assert game.events == session.events and game.draw_mode == "manual"
    assert _schema_on_disk(root / "sessions" / f"{sid}.json") == 2
    stored = store.load(sid)
    assert stored.header["prefs"] == {"draw_mode": "manual", "karla_policy": "auto"}
    assert store.get_setting(prefs_key(sid)) is None and store.get_setting("language") == "ko"
    game_events = len(game.events)
    svc.set_prefs(sid, game, karla_policy="ask")  # writes extend the migrated version
    assert len(svc.open(sid).events) == game_events
