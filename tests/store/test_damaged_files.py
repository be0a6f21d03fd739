"""Damaged files, read-only and full folders: set aside byte for byte, reported, never
overwritten; what can be recovered is recovered; the rest of the store keeps working."""

from __future__ import annotations

import errno
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from companion.store import atomic
from companion.store.base import DamagedGame, ReadOnlyStore
from companion.store.tinydb_store import TinyDBStore
from companion.tally.service import TallyService
from companion.village.autoplay import candidate_commands
from companion.village.rules.errors import RuleError
from companion.village.service import VillageService, calibration_key
from companion.village.session import VillageSession, validate_command
from companion.village.setup import PlayerSetup, VillageSetup

WRONG_SHAPE = b'{"meta": 5, "events": []}'


def _setup() -> VillageSetup:
    return VillageSetup(players=[PlayerSetup(name="Chris", colour="blue"),
                                 PlayerSetup(name="Julie", colour="yellow")], seed=9)


def _act(svc: VillageService, sid: str, session: VillageSession, seed: int = 1) -> None:
    for cmd in candidate_commands(session, random.Random(seed)):
        try:
            svc.execute(sid, session, validate_command(cmd))
            return
        except RuleError:
            continue
    raise AssertionError("no command accepted")


def _edit_game_file(root: Path, sid: str, edit: Any) -> bytes:
    path = root / "sessions" / f"{sid}.json"
    data = json.loads(path.read_bytes())
    edit(data)
    raw = json.dumps(data).encode()
    path.write_bytes(raw)
    return raw


def test_index_of_the_wrong_shape_is_set_aside_reported_and_rebuilt(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path)
    svc = VillageService(store)
    sid, _ = svc.create(_setup())
    store.list_sessions()
    (tmp_path / "index.json").write_bytes(WRONG_SHAPE)
    fresh = TinyDBStore(tmp_path)
    assert [info.id for info in fresh.list_sessions()] == [sid]
    [problem] = fresh.problems()
    assert problem.kind == "index" and "unexpected table" in problem.reason
    assert fresh.problem_bytes(problem.id) == WRONG_SHAPE
    assert "meta" not in json.loads((tmp_path / "index.json").read_bytes())


def test_settings_of_the_wrong_shape_keep_every_readable_setting(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path)
    svc = VillageService(store)
    svc.correct("big-box", "time_track_length", 9)
    store.set_setting("language", "ko")
    raw = (tmp_path / "settings.json").read_bytes()
    data = json.loads(raw)
    data["settings"]["99"] = {"no": "key"}  # one bad document among good ones
    damaged = json.dumps(data).encode()
    (tmp_path / "settings.json").write_bytes(damaged)

    fresh = TinyDBStore(tmp_path)
    assert fresh.get_setting("language") == "ko"
    assert VillageService(fresh).corrections("big-box") == {"time_track_length": 9}
    [problem] = fresh.problems()
    assert problem.kind == "settings"
    assert problem.recovered == sorted(["language", calibration_key("big-box")])
    assert fresh.problem_bytes(problem.id) == damaged  # the original, byte for byte
    fresh.set_setting("theme", "dark")  # and the repaired file takes writes again
    assert TinyDBStore(tmp_path).get_setting("theme") == "dark"


def test_a_torn_settings_file_keeps_the_component_corrections(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path)
    VillageService(store).correct("big-box", "time_track_length", 9)
    store.set_setting("zz-last", "x" * 200)
    raw = (tmp_path / "settings.json").read_bytes()
    (tmp_path / "settings.json").write_bytes(raw[: len(raw) - 120])  # a torn write
    fresh = TinyDBStore(tmp_path)
    assert VillageService(fresh).corrections("big-box") == {"time_track_length": 9}
    assert fresh.get_setting("zz-last") is None
    [problem] = fresh.problems()
    assert problem.kind == "settings" and problem.recovered == [calibration_key("big-box")]


def test_valid_json_settings_of_another_shape_is_reported_not_silently_reset(
        tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_bytes(WRONG_SHAPE)
    store = TinyDBStore(tmp_path)
    assert store.get_setting("language") is None
    [problem] = store.problems()
    assert problem.kind == "settings" and problem.recovered == []


@pytest.mark.parametrize("damage", ["unknown command", "bad setup", "events not a log"])
def test_a_village_game_the_engine_cannot_fold_is_set_aside_and_reported(
        tmp_path: Path, damage: str) -> None:
    store = TinyDBStore(tmp_path)
    svc = VillageService(store)
    sid, session = svc.create(_setup())
    _act(svc, sid, session)
    other, _ = svc.create(_setup())

    def edit(data: dict[str, Any]) -> None:
        if damage == "unknown command":
            data["events"]["3"]["body"] = {"type": "teleport"}
        elif damage == "bad setup":
            data["meta"]["1"]["header"]["setup"]["players"] = "everyone"
        else:
            data["events"]["2"] = {"seq": "x"}
    raw = _edit_game_file(tmp_path, sid, edit)
    assert {i.id for i in store.list_sessions()} == {sid, other}  # the file itself is sound

    with pytest.raises(DamagedGame) as info:
        VillageService(TinyDBStore(tmp_path)).open(sid)
    problem = info.value.problem
    assert problem.kind == "game" and problem.title == "Chris, Julie" and problem.reason
    assert "\n" not in problem.reason
    fresh = TinyDBStore(tmp_path)
    assert [p.id for p in fresh.problems()] == [problem.id]
    assert fresh.problem_bytes(problem.id) == raw  # set aside byte for byte
    assert [i.id for i in fresh.list_sessions()] == [other]  # no longer on Home
    VillageService(fresh).open(other)  # the rest keeps working
    fresh.discard_problem(problem.id)
    assert fresh.problems() == [] and list((tmp_path / "quarantine").iterdir()) == []


def test_a_tally_that_cannot_be_replayed_is_set_aside(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path)
    svc = TallyService(store)
    sid, sheet = svc.create("villagers", ["Ann", "Bo"])
    svc.apply(sid, sheet, sheet.read_edit({"type": "set", "player": 0, "field": "money",
                                           "value": 3}))
    _edit_game_file(tmp_path, sid,
                    lambda d: d["events"]["1"].__setitem__("edit", {"type": "explode"}))
    with pytest.raises(DamagedGame) as info:
        TallyService(TinyDBStore(tmp_path)).open(sid)
    assert info.value.problem.kind == "game"
    assert TinyDBStore(tmp_path).list_sessions() == []


def test_a_game_file_damaged_after_listing_leaves_home_at_the_next_listing(
        tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path)
    sid, _ = VillageService(store).create(_setup())
    assert [i.id for i in store.list_sessions()] == [sid]
    (tmp_path / "sessions" / f"{sid}.json").write_bytes(WRONG_SHAPE)
    assert store.list_sessions() == []  # not listed until someone opens it
    [problem] = store.problems()
    assert problem.kind == "file" and store.problem_bytes(problem.id) == WRONG_SHAPE


def _read_only_checks(root: Path, sid: str) -> None:
    store = TinyDBStore(root)
    assert store.read_only
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert [i.id for i in store.list_sessions()] == [sid]
    svc = VillageService(store)
    session = svc.open(sid)
    assert svc.corrections("big-box") == {"time_track_length": 9}
    with pytest.raises(ReadOnlyStore, match="saving is off"):
        _act(svc, sid, session)
    with pytest.raises(ReadOnlyStore):
        store.set_setting("language", "de")
    assert svc.open(sid).events == session.events  # rolled back to what is stored
    (root / "settings.json").write_bytes(b"{torn")  # found damaged: reported, not moved
    store = TinyDBStore(root)
    assert store.get_setting("language") is None
    [problem] = store.problems()
    assert problem.kind == "settings" and problem.moved_to == str(root / "settings.json")
    before[root / "settings.json"] = b"{torn"
    after = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert after == before  # nothing written, nothing created


def _stored_game(root: Path) -> str:
    store = TinyDBStore(root)
    svc = VillageService(store)
    svc.correct("big-box", "time_track_length", 9)
    sid, session = svc.create(_setup())
    _act(svc, sid, session)
    store.list_sessions()
    return sid


def test_a_read_only_folder_lists_and_opens_every_game(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """As the OS reports it (EROFS on the first file the store would create)."""
    sid = _stored_game(tmp_path)
    real_open = os.open

    def read_only_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", read_only_open)
    _read_only_checks(tmp_path, sid)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="root may write to a read-only folder")
def test_a_folder_without_write_permission_lists_and_opens_every_game(tmp_path: Path) -> None:
    sid = _stored_game(tmp_path)
    for path in [tmp_path, *tmp_path.rglob("*")]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        _read_only_checks(tmp_path, sid)
    finally:
        for path in [tmp_path, *tmp_path.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)


def test_a_full_disk_refuses_the_action_and_keeps_the_game(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    store = TinyDBStore(tmp_path)
    svc = VillageService(store)
    sid, session = svc.create(_setup())
    path = tmp_path / "sessions" / f"{sid}.json"
    before, events = path.read_bytes(), list(session.events)
    real_fsync = os.fsync

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", full)
    with pytest.raises(OSError, match="No space"):
        _act(svc, sid, session)
    assert session.events == events and path.read_bytes() == before
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temp file left
    monkeypatch.setattr(atomic.os, "fsync", real_fsync)  # space freed
    _act(svc, sid, session)
    assert svc.open(sid).events == session.events
