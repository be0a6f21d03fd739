"""The Village summary carries what the history needs (issue 14), and a record reads it."""

from __future__ import annotations

from companion.history.records import build_records
from companion.store.memory import MemoryStore
from companion.village.scoring import CATEGORIES
from companion.village.service import VillageService
from tests.history.helpers import finished_village


def test_a_finished_village_game_has_the_history_fields() -> None:
    store = MemoryStore()
    svc = VillageService(store)
    sid = finished_village(svc, ["Zoë", "Bo", "Cy"], seed=1)
    summary = store.load(sid).summary
    names = ["Zoë", "Bo", "Cy"]
    assert summary["edition"] == "big-box"
    assert summary["started_at"] <= summary["ended_at"]
    assert set(summary["ranks"]) == set(names) and 1 in summary["ranks"].values()
    assert all(set(c) == set(CATEGORIES) for c in summary["categories"].values())
    assert all(sum(summary["categories"][n].values()) == summary["scores"][n] for n in names)
    assert summary["start_player"] in names
    events = store.load(sid).events
    drawn = next(e["body"]["outcome"]["player"] for e in events
                 if e["body"].get("draw") == "start_player")
    assert summary["start_player"] == names[drawn]
    (record,) = build_records(store.list_sessions()).records
    assert record.duration_min is not None and record.edition == "big-box"
    assert [p.rank for p in record.players] == [summary["ranks"][n] for n in names]


def test_a_solo_game_records_its_variant_and_achievement() -> None:
    store = MemoryStore()
    sid = finished_village(VillageService(store), ["Ann"], seed=2, solo_game=True)
    summary = store.load(sid).summary
    assert summary["karla_variant"] == "standard" and summary["start_player"] == "Ann"
    (record,) = build_records(store.list_sessions()).records
    assert record.solo and record.achievement == summary["achievement"]
    assert record.karla_variant == "standard" and [p.name for p in record.players] == ["Ann"]


def test_an_unfinished_game_has_no_end_yet() -> None:
    store = MemoryStore()
    from tests.history.test_backup import _setup

    sid, _ = VillageService(store).create(_setup())
    summary = store.load(sid).summary
    assert "ended_at" not in summary and "ranks" not in summary
    assert summary["edition"] == "big-box" and "started_at" in summary
