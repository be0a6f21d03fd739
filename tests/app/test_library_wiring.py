"""Home and History change whole games through the library service (history/library.py);
the Village and tally hubs are registered with it, so a game deleted, abandoned or
resumed from Home is dropped from the copy a phone's screen holds in memory."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.app.assistants.hub import HUB as TALLY_HUB
from companion.app.history.data import resume_abandoned
from companion.app.views.home import abandon_game, restore_game, trash_game
from companion.app.village.hub import HUB as VILLAGE_HUB
from companion.history.library import session_caches
from companion.store.memory import MemoryStore
from companion.tally.service import TallyService

from .village_table.conftest import make_game, open_app


@pytest.fixture(autouse=True)
def fresh_hubs() -> Iterator[None]:
    yield
    VILLAGE_HUB._open.clear()
    TALLY_HUB._open.clear()


def test_both_hubs_keep_in_step_with_the_library() -> None:
    caches = session_caches()
    assert any(c is VILLAGE_HUB for c in caches) and any(c is TALLY_HUB for c in caches)


def test_home_delete_drops_the_copy_a_phone_holds_and_undo_loads_it_again(
        store: MemoryStore) -> None:
    sid = make_game(store)
    with open_app(store, f"/play/village/{sid}"):
        held = VILLAGE_HUB.get(sid)
        assert held is not None
        trash_id, _home = trash_game(sid, 0, store)
        assert VILLAGE_HUB.get(sid) is None and held.released
        restore_game(trash_id, 0, store)
        assert sid in {info.id for info in store.list_sessions()}


def test_abandon_and_resume_drop_a_tally_held_in_memory(store: MemoryStore) -> None:
    sid, session = TallyService(store).create("villagers", ["Ann", "Bo"])
    TALLY_HUB.adopt(sid, session)
    abandon_game(sid, 0, store)
    assert TALLY_HUB.get(sid) is None
    TALLY_HUB.adopt(sid, session)
    resume_abandoned(sid, store)
    assert TALLY_HUB.get(sid) is None
