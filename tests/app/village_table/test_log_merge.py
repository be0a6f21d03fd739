"""The log as shown: consecutive taps on one counter become one line ("prestige +3");
the stored events stay one per tap. Counts take their plural form ("1 point")."""

from __future__ import annotations

from companion.app.village.log.model import LogEntry, build_entries, merge_counter_taps
from companion.app.village.log.words import describe
from companion.store.memory import MemoryStore
from companion.village.commands import Adjust
from companion.village.service import VillageService

from .conftest import make_game, open_app, texts_under
from .test_log import rows, words_ctx


def adjust(player: int, field: str, delta: int, key: str | None = None) -> Adjust:
    return Adjust(player=player, field=field, delta=delta, key=key)


def test_consecutive_taps_on_one_counter_are_one_line(store: MemoryStore) -> None:
    sid = make_game(store)
    svc = VillageService(store)
    session = svc.open(sid)
    for command in [adjust(0, "prestige", 1), adjust(0, "prestige", 1),
                    adjust(0, "prestige", 1),  # three taps: one line "+3"
                    adjust(1, "prestige", 1),  # another player: a line of its own
                    adjust(0, "coins", 2), adjust(0, "coins", -1),  # net +1
                    adjust(0, "cubes", 1, "brown"), adjust(0, "cubes", 1, "green")]:
        svc.execute(sid, session, command)
    events = store.load(sid).events
    assert sum(1 for e in events if e["body"]["type"] == "adjust") == 8  # stored per tap

    entries = build_entries(session.setup, session.comp, events)
    shown = merge_counter_taps(entries)
    adjusted = [e for e in shown if e.body["type"] == "adjust"]
    ctx = words_ctx()
    assert [describe(ctx, session.state, e) for e in adjusted] == [
        "Correction: Ann, prestige +3", "Correction: Bo, prestige +1",
        "Correction: Ann, coins +1", "Correction: Ann, cubes (brown) +1",
        "Correction: Ann, cubes (green) +1"]
    assert [e.taps for e in adjusted] == [3, 1, 2, 1, 1]
    assert adjusted[0].seq == events[3]["seq"]  # the newest tap's: go back keeps all three

    with open_app(store, f"/play/village/{sid}/log") as app:
        assert len(rows(app)) == len(shown)
        newest = rows(app)[0]
        assert newest == f"log-{events[-1]['seq']}"
        lines = texts_under(app, f"log-{adjusted[0].seq}")
        assert "Correction: Ann, prestige +3" in lines
        assert any("3 taps" in t for t in lines), lines
        assert any(t.startswith(f"Events: {len(events)}") for t in app.visible_texts())


def test_a_different_action_between_taps_keeps_them_apart() -> None:
    def entry(seq: int, body: dict[str, object]) -> LogEntry:
        return LogEntry(seq=seq, group=seq, at="", body=body, actor=0)

    grain = adjust(0, "grain", 1).model_dump(mode="json")  # as the store holds it
    shown = merge_counter_taps([entry(1, grain), entry(2, {"type": "end_turn"}),
                                entry(3, grain)])
    assert [e.seq for e in shown] == [1, 2, 3]


def test_one_point_is_singular_in_english_and_german(store: MemoryStore) -> None:
    sid = make_game(store)
    session = VillageService(store).open(sid)

    def words(lang: str, points: int) -> str:
        body = {"type": "set_customer_points", "player": 0, "index": 0, "points": points}
        return describe(words_ctx(lang), session.state,
                        LogEntry(seq=0, group=0, at="", body=body, actor=0))

    assert words("en", 1) == "Ann: customer tile 1 corrected to 1 point"
    assert words("en", 2) == "Ann: customer tile 1 corrected to 2 points"
    assert words("de", 1).endswith("auf 1 Punkt korrigiert")
    assert words("de", 3).endswith("auf 3 Punkte korrigiert")
    assert words("ko", 1).endswith("1점으로 고침")

