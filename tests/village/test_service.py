"""The service saves every accepted action before it returns; resuming gives the same game."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.store.tinydb_store import TinyDBStore
from companion.village.autoplay import candidate_commands
from companion.village.rules.errors import RuleError
from companion.village.service import VillageService
from companion.village.session import VillageSession, validate_command
from companion.village.setup import PlayerSetup, VillageSetup


def _setup() -> VillageSetup:
    return VillageSetup(players=[PlayerSetup(name="Chris", colour="blue"),
                                 PlayerSetup(name="Julie", colour="yellow"),
                                 PlayerSetup(name="Oliver", colour="red")], seed=3)


def _step(svc: VillageService, sid: str, session: VillageSession, rng: random.Random) -> None:
    for cmd in candidate_commands(session, rng):
        try:
            svc.execute(sid, session, validate_command(cmd))
        except RuleError:
            continue
        return


def test_every_action_is_on_disk_when_execute_returns(tmp_path: Path) -> None:
    svc = VillageService(TinyDBStore(tmp_path))
    sid, session = svc.create(_setup())
    rng = random.Random(5)
    for _ in range(60):
        _step(svc, sid, session, rng)
        fresh = VillageService(TinyDBStore(tmp_path)).open(sid)  # another process's view
        assert fresh.state == session.state
        assert fresh.events == session.events
        # ... and what the last action asked of the table (the table's "At the table"
        # card): a restarted server must not drop steps the players still have to do
        assert fresh.last_note_data == session.last_note_data
        assert fresh.last_notes == session.last_notes


def test_refused_command_saves_nothing(tmp_path: Path) -> None:
    svc = VillageService(TinyDBStore(tmp_path))
    sid, session = svc.create(_setup())
    before = svc.store.load(sid).events
    with pytest.raises(RuleError) as err:
        # A raw dict on purpose (no TakeCube can name the well): the boundary must refuse it.
        svc.execute(sid, session, {"type": "take_cube", "space": "well",  # type: ignore[arg-type]
                                   "colour": "green"})
    assert "space" in str(err.value) or "colour" in str(err.value)
    assert svc.store.load(sid).events == before


def test_undo_redo_survive_a_restart(tmp_path: Path) -> None:
    svc = VillageService(TinyDBStore(tmp_path))
    sid, session = svc.create(_setup())
    rng = random.Random(9)
    for _ in range(30):
        _step(svc, sid, session, rng)
    state = session.state.model_copy(deep=True)
    assert svc.undo(sid, session) and svc.undo(sid, session)
    reopened = VillageService(TinyDBStore(tmp_path)).open(sid)
    assert reopened.state == session.state
    assert reopened.can_redo()
    assert svc.redo(sid, reopened) and svc.redo(sid, reopened)
    assert reopened.state == state


def test_finished_game_lands_in_history_with_scores(tmp_path: Path) -> None:
    svc = VillageService(TinyDBStore(tmp_path))
    sid, session = svc.create(_setup())
    rng = random.Random(2)
    while session.state.phase != "finished":
        _step(svc, sid, session, rng)
    info = next(i for i in svc.store.list_sessions() if i.id == sid)
    assert info.finished and info.game == "village"
    assert set(info.summary["scores"]) == {"Chris", "Julie", "Oliver"}
    assert info.summary["winners"]


class _FailingStore(TinyDBStore):
    """A store whose next write fails once (disk full, a lock held too long)."""

    fail_next = False

    def _maybe_fail(self) -> None:
        if self.fail_next:
            self.fail_next = False
            raise OSError(28, "No space left on device")

    def append(self, session_id: str, events: list[dict[str, Any]], **kw: Any) -> int:
        self._maybe_fail()
        return super().append(session_id, events, **kw)

    def replace_log(self, session_id: str, events: list[dict[str, Any]],
                    redo: list[dict[str, Any]], **kw: Any) -> int:
        self._maybe_fail()
        return super().replace_log(session_id, events, redo, **kw)


def test_a_failed_save_leaves_the_game_as_it_was_saved(tmp_path: Path) -> None:
    """The store refuses one write: the action is not taken in memory either, so the next
    saved action follows the last saved one and the game still opens (it once had a gap:
    the reopened log refused its next event)."""
    store = _FailingStore(tmp_path)
    svc = VillageService(store)
    sid, session = svc.create(_setup())
    rng = random.Random(11)
    for _ in range(20):
        _step(svc, sid, session, rng)
    for failing in ("execute", "undo", "redo", "go_back_to"):
        if failing == "redo":
            svc.undo(sid, session)
        before_state, before_events = session.state, list(session.events)
        before_redo = list(session.redo_stack)
        store.fail_next = True
        with pytest.raises(OSError):
            if failing == "execute":
                _step(svc, sid, session, rng)
            elif failing == "undo":
                svc.undo(sid, session)
            elif failing == "redo":
                svc.redo(sid, session)
            else:
                svc.go_back_to(sid, session, session.group - 3)
        assert session.state is before_state and session.events == before_events
        assert session.redo_stack == before_redo
        _step(svc, sid, session, rng)  # the table goes on
        reopened = VillageService(TinyDBStore(tmp_path)).open(sid)
        assert reopened.events == session.events
        assert reopened.state == session.state


def test_a_stored_session_whose_setup_a_new_game_would_refuse_still_opens(
        tmp_path: Path) -> None:
    """Expansions are refused for new games, but a session stored with one keeps loading
    (its setup is validated as stored)."""
    store = TinyDBStore(tmp_path)
    svc = VillageService(store)
    sid, session = svc.create(_setup())
    header = store.load(sid).header
    header["setup"]["expansions"] = ["inn"]
    store.delete(sid)
    store.create(sid, "village", "old", header)
    store.append(sid, session.events)
    reopened = svc.open(sid)
    assert reopened.setup.expansions == ["inn"]
    assert reopened.state == session.state


def _restore_with_header(store: TinyDBStore, sid: str, session: VillageSession,
                         drop: tuple[str, ...] = (), **changes: Any) -> None:
    """Position: the stored session as if written with this header."""
    header = store.load(sid).header
    for key in drop:
        header.pop(key)
    header.update(changes)
    store.delete(sid)
    store.create(sid, "village", "stored", header)
    store.append(sid, session.events)


@pytest.mark.parametrize("where", ["header", "setting"])
def test_a_session_saved_by_a_newer_engine_is_refused_clearly(tmp_path: Path,
                                                              where: str) -> None:
    from companion.village.service import ENGINE_VERSION, NewerEngine, engine_key

    store = TinyDBStore(tmp_path)
    svc = VillageService(store)
    sid, session = svc.create(_setup())
    if where == "header":
        _restore_with_header(store, sid, session, engine=ENGINE_VERSION + 1)
    else:
        store.set_setting(engine_key(sid), ENGINE_VERSION + 1)
    with pytest.raises(NewerEngine) as exc:
        svc.open(sid)
    assert "newer version" in str(exc.value) and str(ENGINE_VERSION + 1) in str(exc.value)
    assert store.load(sid).events == session.events  # left untouched


@pytest.mark.parametrize("old", [{"engine": 1}, {}])
def test_an_older_session_opens_and_is_then_marked_as_written_by_this_engine(
        tmp_path: Path, old: dict[str, int]) -> None:
    from companion.village.service import ENGINE_VERSION, engine_key

    store = TinyDBStore(tmp_path)
    svc = VillageService(store)
    sid, session = svc.create(_setup())
    _restore_with_header(store, sid, session, drop=("engine",), **old)
    reopened = svc.open(sid)
    assert reopened.state == session.state
    stored = store.load(sid)
    assert stored.header.get("engine") == old.get("engine")  # opening alone writes nothing
    _step(svc, sid, reopened, random.Random(0))
    # Marked in the game's own file, in the same write as the new events.
    after = store.load(sid)
    assert after.header["engine"] == ENGINE_VERSION
    assert len(after.events) > len(stored.events) and after.version == stored.version + 1
    assert store.get_setting(engine_key(sid)) is None  # never a per-game setting
    assert svc.open(sid).state == reopened.state


def test_schema_1_per_game_settings_move_into_the_game_file(tmp_path: Path) -> None:
    """Store schema 1 kept a game's preferences and newest engine in settings.json: the
    first open moves them into the game's header and removes the settings keys."""
    from companion.village.service import ENGINE_VERSION, engine_key, prefs_key

    store = TinyDBStore(tmp_path)
    svc = VillageService(store)
    sid, session = svc.create(_setup())
    _restore_with_header(store, sid, session, drop=("engine", "prefs"))
    store.set_setting(prefs_key(sid), {"draw_mode": "manual", "karla_policy": "auto"})
    store.set_setting(engine_key(sid), ENGINE_VERSION)
    reopened = svc.open(sid)
    assert (reopened.draw_mode, reopened.karla_policy) == ("manual", "auto")
    header = store.load(sid).header
    assert header["prefs"] == {"draw_mode": "manual", "karla_policy": "auto"}
    assert header["engine"] == ENGINE_VERSION
    assert store.get_setting(prefs_key(sid)) is None
    assert store.get_setting(engine_key(sid)) is None
    _step(svc, sid, reopened, random.Random(1))  # its version was kept in step
    assert svc.open(sid).draw_mode == "manual"


def test_schema_1_game_without_its_first_draws_is_repaired_on_open(tmp_path: Path) -> None:
    """A kill between store schema 1's three create writes left a game with an empty log:
    opening it dealt the first round again in memory only, and the next action was
    appended after a gap. Now the first open saves that deal."""
    store = TinyDBStore(tmp_path)
    svc = VillageService(store)
    sid, session = svc.create(_setup())
    header = store.load(sid).header
    store.delete(sid)
    store.create(sid, "village", "torn", header)  # the header alone, as the kill left it
    reopened = svc.open(sid)
    assert store.load(sid).events == reopened.events != []
    _step(svc, sid, reopened, random.Random(2))
    again = svc.open(sid)
    assert again.state == reopened.state and again.events == reopened.events
